"""Interruptions (issue 14, item 5): `generate` killed with SIGKILL (with its Blender child)
during rendering and again after rendering, then re-run, ends with the bytes of an
uninterrupted run, re-renders nothing that was finished, and leaves no staging folder, lock or
frame cache behind. Small: 30 frames at 64x48."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANG = 900  # generous: fails only on a hang

RUN = """
import sys
from pathlib import Path
from egoscene import pipeline
pipeline.generate(Path(sys.argv[1]), Path(sys.argv[2]), pipeline.Options(width=64, height=48, max_frames=30, per_task=1),
                  on_stage=lambda s: print("stage", s, flush=True),
                  on_progress=lambda done, total: print("progress", done, total, flush=True))
print("published", flush=True)
"""
SPEC = ROOT / "scenarios" / "scenario-05.yaml"


def _run(out: Path, kill_at: str | None = None) -> list[str]:
    """Run generate in its own process group; SIGKILL the group at the first line starting with kill_at."""
    proc = subprocess.Popen([sys.executable, "-c", RUN, str(SPEC), str(out)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line.strip())
            if kill_at and line.startswith(kill_at):
                os.killpg(proc.pid, signal.SIGKILL)
                break
        proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.stdout.close()
    if kill_at:
        assert proc.returncode == -signal.SIGKILL, lines
    else:
        assert proc.returncode == 0 and lines[-1] == "published", lines
    return lines


def test_killed_runs_resume_to_the_bytes_of_an_uninterrupted_run(tmp_path):
    reference, resumed = tmp_path / "reference", tmp_path / "resumed"
    _run(reference)
    _run(resumed, kill_at="progress")  # in the middle of rendering
    assert not (resumed / "scenario-05").exists()
    _run(resumed, kill_at="stage queries")  # rendered, not yet published
    assert not (resumed / "scenario-05").exists()
    lines = _run(resumed)
    renders = [line for line in lines if line.startswith("progress")]
    assert renders and renders[0] == "progress 30 30", lines  # the cached render was reused, not redone
    assert sorted(p.name for p in resumed.iterdir()) == ["scenario-05"]  # no staging, lock or cache left

    a, b = reference / "scenario-05", resumed / "scenario-05"
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
    for path in sorted(a.iterdir()):
        if path.name != "manifest.json":  # timings differ
            assert path.read_bytes() == (b / path.name).read_bytes(), path.name
    manifests = [json.loads((folder / "manifest.json").read_text()) for folder in (a, b)]
    assert manifests[0]["files"] == manifests[1]["files"]
    assert manifests[0]["inputs_hash"] == manifests[1]["inputs_hash"]
