"""Determinism: the same spec gives the same bytes in any process, and the code has no source
of randomness or time that a seed does not control.

1. Two fresh processes with different hash seeds (set and dict iteration order of strings
   differ between them) generate a bundled scenario up to the trajectory; every file but the
   manifest's timings is byte-identical.
2. A static scan (ast) of every module of the six packages refuses the global `random`
   functions, `numpy.random` functions other than seeded generators, unseeded generators,
   wall-clock time (`time.time`, `datetime.now`, `date.today`, ...) and `uuid`.
   `time.perf_counter` / `process_time` are fine: timings go to the manifest's timings only.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("formats", "assets", "generator", "render", "queries", "egoscene")
SPEC = ROOT / "scenarios" / "scenario-02.yaml"
COMPARED = ("scene.json", "trajectory.json", "grid.json", "floorplan.png", "grid.png", "grid_prompt.txt")


# --- 1. same bytes under different hash seeds --------------------------------------------------

def _generate(out: Path, hash_seed: str) -> Path:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-m", "egoscene.cli", "generate", str(SPEC), "--out", str(out),
                           "--until", "trajectory"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out / "scenario-02"


def test_outputs_identical_across_hash_seeds(tmp_path):
    a, b = _generate(tmp_path / "a", "0"), _generate(tmp_path / "b", "12345")
    for name in COMPARED:
        assert (a / name).is_file(), name
        assert (a / name).read_bytes() == (b / name).read_bytes(), f"{name} differs between PYTHONHASHSEED=0 and 12345"
    ma, mb = (json.loads((f / "manifest.json").read_text()) for f in (a, b))
    assert ma["files"] == mb["files"]
    assert {k: v for k, v in ma.items() if "timing" not in k} == {k: v for k, v in mb.items() if "timing" not in k}


# --- 2. no uncontrolled randomness or clock ----------------------------------------------------

NP_RANDOM_OK = {"default_rng", "Generator", "PCG64", "SeedSequence", "BitGenerator"}
RANDOM_OK = {"Random"}          # random.Random(seed): a private, seeded generator
CLOCK = {"time.time", "time.time_ns", "datetime.datetime.now", "datetime.datetime.utcnow",
         "datetime.datetime.today", "datetime.date.today"}


def modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def _aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> dotted name it stands for, from every import in the module."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    names[a.asname] = a.name
                else:
                    top = a.name.split(".")[0]
                    names[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                names[a.asname or a.name] = f"{node.module}.{a.name}"
    return names


def _dotted(node: ast.AST, names: dict[str, str]) -> str | None:
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value, names)
        return f"{base}.{node.attr}" if base else None
    return None


def offences(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = _aliases(tree)
    rel = path.relative_to(root)
    found: list[str] = []

    def report(node: ast.AST, what: str, rule: str) -> None:
        found.append(f"{rel}:{node.lineno}: {what} ({rule})")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "uuid":
                    report(node, f"import {a.name}", "uuid values differ on every run")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "uuid":
            report(node, f"from {node.module} import ...", "uuid values differ on every run")
        elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load):
            name = _dotted(node, names)
            if not name:
                continue
            parts = name.split(".")
            if parts[0] == "random" and len(parts) == 2 and parts[1] not in RANDOM_OK:
                report(node, name, "the global random generator: use random.Random(seed) or formats.seeding")
            elif parts[:2] == ["numpy", "random"] and len(parts) == 3 and parts[2] not in NP_RANDOM_OK:
                report(node, name, "numpy's global generator: use a seeded np.random.Generator")
            elif name in CLOCK:
                report(node, name, "wall-clock time in the outputs: use time.perf_counter for timings")
        if isinstance(node, ast.Call) and not node.args and not node.keywords:
            name = _dotted(node.func, names)
            if name in ("random.Random", "numpy.random.default_rng", "numpy.random.SeedSequence",
                        "numpy.random.PCG64"):
                report(node, f"{name}()", "a generator without a seed is seeded from the OS")
    return found


def test_static_scan_finds_the_patterns(tmp_path):
    """The scanner itself: each forbidden pattern is caught, the allowed ones are not."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import random\nimport numpy as np\nimport time\nimport uuid\n"
        "from datetime import datetime, date\nfrom random import shuffle\nfrom numpy import random as npr\n"
        "random.random()\nrandom.choice([1])\nrandom.seed(1)\nshuffle([])\nnp.random.rand(2)\n"
        "np.random.seed(0)\nnpr.choice(3)\ntime.time()\ndatetime.now()\ndatetime.utcnow()\ndate.today()\n"
        "np.random.default_rng()\nrandom.Random()\nsorted([], key=random.random)\n")
    good = tmp_path / "good.py"
    good.write_text(
        "import random\nimport numpy as np\nimport time\n"
        "r = random.Random(3)\nr.random()\ng = np.random.default_rng(0)\ng.random()\n"
        "h = np.random.Generator(np.random.PCG64(5))\nt = time.perf_counter()\nc = time.process_time()\n"
        "def f(rng: np.random.Generator):\n    return rng.choice(3)\n")
    found, clean = offences(bad, tmp_path), offences(good, tmp_path)
    lines = sorted({int(f.split(":")[1]) for f in found})
    assert lines == [4, *range(8, 22)], found
    assert clean == []


def test_no_uncontrolled_randomness_or_clock():
    found = [f for path in modules() for f in offences(path)]
    assert len(modules()) > 50
    assert not found, "uncontrolled randomness or wall-clock time:\n" + "\n".join(found)

