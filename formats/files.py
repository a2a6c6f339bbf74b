"""Writing a scenario's output folder: stable JSON, hashes, and atomic publication.

A scenario is built in a hidden staging folder next to its final place and renamed into
place only when every file is written, so a crash never leaves a folder that looks finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


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


def file_hashes(folder: Path) -> dict[str, str]:
    return {p.name: sha256_file(p) for p in sorted(folder.iterdir()) if p.is_file() and p.name != "manifest.json" and not p.name.startswith(".")}


@contextmanager
def staged_folder(final: Path) -> Iterator[Path]:
    """Yield a staging folder; on success it replaces `final` in one rename, on error it is removed."""
    final.parent.mkdir(parents=True, exist_ok=True)
    staging = final.with_name(f".{final.name}.partial")
    if staging.exists():
        shutil.rmtree(staging)
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
