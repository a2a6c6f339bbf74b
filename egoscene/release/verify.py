"""SHA256SUMS of a release (the `sha256sum -c` format) and `egoscene release --verify REL`."""

from __future__ import annotations

from pathlib import Path

from formats import files

SUMS = "SHA256SUMS"


def _listed(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and p.name != SUMS and not p.name.startswith("."))


def write_sums(folder: Path) -> Path:
    """One line `<sha256>  <relative path>` per file, sorted by path."""
    lines = [f"{files.sha256_file(folder / rel)}  {rel}\n" for rel in _listed(folder)]
    files.write_text(folder / SUMS, "".join(lines))
    return folder / SUMS


def verify(folder: Path) -> list[str]:
    """Problems found (empty when every file matches SHA256SUMS and nothing is missing or extra)."""
    folder = Path(folder)
    sums = folder / SUMS
    if not sums.is_file():
        return [f"{sums}: missing (not a finished release; fix: rebuild it with `egoscene release ... --out "
                f"{folder}`)"]
    problems, expected = [], {}
    for n, line in enumerate(sums.read_text(encoding="utf-8").splitlines(), 1):
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64:
            problems.append(f"{sums}:{n}: not `<sha256>  <path>`")
            continue
        expected[rel] = digest
    for rel, digest in sorted(expected.items()):
        path = folder / rel
        if not path.is_file():
            problems.append(f"{rel}: listed in {SUMS} but missing")
        elif files.sha256_file(path) != digest:
            problems.append(f"{rel}: checksum differs from {SUMS} (the file changed after the build)")
    for rel in _listed(folder):
        if rel not in expected:
            problems.append(f"{rel}: not listed in {SUMS} (added after the build)")
    return problems
