"""Writing a scenario's output folder: stable JSON, hashes, and atomic publication.

A scenario is built in a hidden staging folder next to its final place and renamed into
place only when every file is written, so a crash never leaves a folder that looks finished.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import itertools
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

MAX_NAME_BYTES = 128  # a scenario folder name; `.<name>.partial-<pid>-<n>` stays far below NAME_MAX (255)
_staging_counter = itertools.count(1)  # with the pid: a staging folder name no other run uses


def _rounded(value, digits: int = 4):
    if isinstance(value, float):
        return round(value, digits) + 0.0  # +0.0 turns -0.0 into 0.0
    if isinstance(value, dict):
        return {k: _rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v, digits) for v in value]
    return value


def dumps(data) -> str:
    return json.dumps(_rounded(data), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_json(path: Path, data) -> None:
    write_text(path, dumps(data))


def write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


PASS_FOLDERS = ("masks", "depth")  # folders of the optional render passes (`generate --passes`)


def file_hashes(folder: Path) -> dict[str, str]:
    """File name -> sha256 of every file of a scenario folder but manifest.json, and `<name>/` ->
    folder_hash of the pass folders it has (PASS_FOLDERS; other folders, e.g. audit/, are not
    part of what was published)."""
    found = {p.name: sha256_file(p) for p in sorted(folder.iterdir())
             if p.is_file() and p.name != "manifest.json" and not p.name.startswith(".")}
    found.update({f"{name}/": folder_hash(folder / name) for name in PASS_FOLDERS if (folder / name).is_dir()})
    return found


def folder_hash(folder: Path) -> str:
    """sha256 over the lines `<name> <sha256>` of the folder's files (sorted, hidden ones left out)."""
    lines = "".join(f"{p.name} {sha256_file(p)}\n" for p in sorted(folder.iterdir())
                    if p.is_file() and not p.name.startswith("."))
    return hashlib.sha256(lines.encode()).hexdigest()


class OutputError(Exception):
    """An output location that cannot be used (a file, not writable, an unsafe name)."""


def check_name(name: str) -> None:
    """Refuse a folder name that is not one plain path component of bounded length."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\x00" in name \
            or len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        raise OutputError(f"{name[:80]!r} is not a safe folder name (one path component, no '/', NUL or '..', "
                          f"at most {MAX_NAME_BYTES} bytes)")


def check_output_root(root: Path) -> None:
    """Refuse, before any work, an output root that is a file or cannot be written."""
    existing = root
    while not existing.exists():
        if existing.is_symlink():  # a dangling link
            raise OutputError(f"{root}: {existing} is a broken symbolic link (fix: remove it or choose another --out)")
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"{root}: {existing} is not a folder (fix: choose another --out, or remove the file)")
    try:
        if not os.access(existing, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, "permission denied")
        os.rmdir(tempfile.mkdtemp(prefix=".egoscene-probe-", dir=existing))  # also catches a read-only mount
    except OSError as exc:
        raise OutputError(f"{root}: cannot write in {existing}: {exc.strerror or exc} "
                          "(fix: choose a folder you can write to)") from None


@contextmanager
def output_lock(final: Path, on_wait: Callable[[], None] = lambda: None) -> Iterator[None]:
    """Hold an exclusive lock on `final` (a scenario's output folder) against other runs, also in
    other processes: `.<name>.lock` beside it, flock'd, removed on release. A run that finds it
    taken calls on_wait() and waits."""
    check_name(final.name)
    final.parent.mkdir(parents=True, exist_ok=True)
    lock = final.with_name(f".{final.name}.lock")
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise
                on_wait()
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:  # the holder before us may have removed the file: then lock the new one
                same = os.stat(lock).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                continue
            try:
                yield
            finally:
                try:
                    os.unlink(lock)  # still holding it: a waiter sees a different inode and retries
                except FileNotFoundError:
                    pass
            return
        finally:
            os.close(fd)


@contextmanager
def staged_folder(final: Path) -> Iterator[Path]:
    """Yield a staging folder; on success it replaces `final` in one rename, on error it is removed.

    The staging name is unique to this run (`.<name>.partial-<pid>-<n>`), so concurrent runs
    never delete each other's work; leftovers of runs that are gone are removed. Hold
    output_lock(final) around it so two runs do not publish over each other."""
    check_name(final.name)
    final.parent.mkdir(parents=True, exist_ok=True)
    for stale in final.parent.glob(f".{_glob_escape(final.name)}.partial*"):
        if not _writer_alive(stale.name.rsplit(".partial", 1)[-1]):
            shutil.rmtree(stale, ignore_errors=True)
    staging = final.with_name(f".{final.name}.partial-{os.getpid()}-{next(_staging_counter)}")
    staging.mkdir()
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    retired = final.with_name(f".{final.name}.old")
    if retired.exists():
        shutil.rmtree(retired)
    if final.exists():
        os.replace(final, retired)
    os.replace(staging, final)
    shutil.rmtree(retired, ignore_errors=True)


def make_dirs(path: Path, tries: int = 5) -> None:
    """`mkdir -p path` that survives another run removing an empty parent meanwhile: a scenario
    that publishes removes OUT/.cache once it is empty, which can fall between this run creating
    .cache and creating .cache/<name> inside it (a batch's resume failed so, FileNotFoundError)."""
    for attempt in range(tries):
        try:
            path.mkdir(parents=True, exist_ok=True)
            return
        except FileNotFoundError:
            if attempt == tries - 1:
                raise


def remove_if_empty(path: Path) -> None:
    """`rmdir path` if it is empty, as a no-op when another run has removed it or put something in it
    meanwhile: two scenarios of a batch publishing at once both find OUT/.cache empty and both remove
    it (the second's rmdir failed a finished scenario so, FileNotFoundError: OUT/.cache)."""
    try:
        path.rmdir()
    except FileNotFoundError:
        pass
    except OSError as exc:  # not empty (EEXIST on some systems)
        if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise


def _writer_alive(suffix: str) -> bool:
    """Whether the run that made a staging folder `...partial-<pid>-<n>` still lives."""
    try:
        pid = int(suffix.split("-")[1])
    except (IndexError, ValueError):
        return False  # an old fixed-name staging folder: no owner to ask
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)
