"""Interruptions (issue 14, item 5): `generate` killed with SIGKILL (with its Blender child)
while rendering (and encoding the video segment), while joining the segments into video.mp4,
and after rendering, then re-run, ends with the bytes of an uninterrupted run, re-renders
nothing that was finished, and leaves no staging folder, lock or frame cache behind. Small:
30 frames at 64x48."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.kill_hooks import STALLED_JOIN, hooked_env

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


def _run(out: Path, kill_at: str | None = None, kill_joining: Path | None = None) -> list[str]:
    """Run generate in its own process group; SIGKILL the group at the first line starting with kill_at,
    or (kill_joining: a folder for the hook) once the renderer is half-way through joining the video."""
    env = hooked_env(kill_joining, STALLED_JOIN) if kill_joining else None  # the join stalls half-written
    proc = subprocess.Popen([sys.executable, "-c", RUN, str(SPEC), str(out)], cwd=ROOT, text=True, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    lines = []
    try:
        if kill_joining:
            deadline = time.monotonic() + HANG
            while not (kill_joining / "joining").exists():
                assert proc.poll() is None and time.monotonic() < deadline, "the run ended before joining"
                time.sleep(0.1)
            os.killpg(proc.pid, signal.SIGKILL)
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
    if kill_at or kill_joining:
        assert proc.returncode == -signal.SIGKILL, lines
    else:
        assert proc.returncode == 0 and lines[-1] == "published", lines
    return lines


def test_killed_runs_resume_to_the_bytes_of_an_uninterrupted_run(tmp_path):
    reference, resumed = tmp_path / "reference", tmp_path / "resumed"
    _run(reference)
    _run(resumed, kill_at="progress")  # in the middle of rendering and encoding the video segment
    assert not (resumed / "scenario-05").exists()
    hook = tmp_path / "hook"
    lines = _run(resumed, kill_joining=hook)  # every frame rendered, video.mp4 half joined
    assert lines[-1] == "progress 30 30", lines
    cache = resumed / ".cache" / "scenario-05"
    assert len(list(cache.glob(".video.*.tmp.mp4"))) == 1 and not (cache / "video.mp4").exists()
    assert not (resumed / "scenario-05").exists()
    lines = _run(resumed, kill_at="stage queries")  # rendered, not yet published
    assert [line for line in lines if line.startswith("progress")] == ["progress 30 30"], lines  # only the join redone
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
