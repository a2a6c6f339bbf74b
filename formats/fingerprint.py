"""Fingerprints of the code that produced an output: the reuse keys include them.

A stage's fingerprint hashes the source of its entry modules and of every project module they
import, found by parsing imports (nothing is imported), so a change anywhere a stage can
reach invalidates that stage's outputs and a change elsewhere does not.
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

PROJECT_PACKAGES = ("formats", "assets", "generator", "render", "queries", "egoscene")
ROOT = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=None)
def _source(module: str) -> Path | None:
    """The source file of a project module, looked up on disk: importlib's find_spec imports a
    dotted name's parents, which for `render.*` meant bpy in the pipeline's own process."""
    parts = module.split(".")
    if parts[0] not in PROJECT_PACKAGES or not all(part.isidentifier() for part in parts):
        return None
    base = ROOT.joinpath(*parts)
    for path in (base.parent / f"{parts[-1]}.py", base / "__init__.py"):
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=None)
def imported_modules(module: str) -> tuple[str, ...]:
    """Project modules `module` imports anywhere in its source (functions included)."""
    path = _source(module)
    if path is None:
        return ()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
    return tuple(sorted(m for m in found if _source(m) is not None))


def module_closure(*entries: str) -> list[str]:
    """The entry modules and every project module reachable from them, sorted."""
    seen: set[str] = set()
    todo = [m for m in entries if _source(m) is not None]
    missing = [m for m in entries if _source(m) is None]
    if missing:
        raise ValueError(f"not a project module: {', '.join(missing)}")
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        parts = module.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # parent packages run too
        todo.extend(imported_modules(module))
    return sorted(seen)


def code_fingerprint(*entries: str, data_files: tuple[Path, ...] = ()) -> str:
    """sha256 over the names and bytes of the modules reachable from `entries` (and data files)."""
    digest = hashlib.sha256()
    for module in module_closure(*entries):
        digest.update(module.encode() + b"\0")
        digest.update(_source(module).read_bytes())
    for path in sorted(data_files):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()
