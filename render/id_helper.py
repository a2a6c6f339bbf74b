"""The id pass beside the colour pass: a second Blender process at idle priority.

Workbench's colour render keeps about 1.8 of this machine's 2 cores busy; the id pass (a flat
Workbench render of every pose, render.run) run after it cost about 18% on top. Run at the
lowest CPU priority (Linux SCHED_IDLE; elsewhere nice 19) beside the colour render, it takes
only the CPU the colour render leaves idle: measured on scenario-01 (640x480, 400 frames,
idle machine), the colour render went from 37.2-38.5 s alone to 39.5-39.9 s with the id
process beside it, which finished its 400 frames within that time; one after the other they
took about 45 s. (At normal priority the two processes slowed each other more than they gained.)

The helper is `python -m render.run ... --ids-only`: it renders the missing id frames of the
walk into the same frame cache, each moved to its pose-keyed name when complete, and dies with
the render process that started it. That process renders whatever id frames are still missing
once the helper has ended, so a helper that fails costs time, never frames.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from render.lifeline import child_env


def lower_priority() -> str:
    """Run this process (and the threads it starts later) only on otherwise idle CPU."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return "idle"
    except (AttributeError, OSError):
        pass
    try:
        os.nice(19)
        return "nice"
    except (AttributeError, OSError):
        return "normal"


class IdHelper:
    """A running `render.run --ids-only` process; finish() waits for it and returns its report."""

    def __init__(self, cmd: list[str]):
        self._log = tempfile.TemporaryFile(mode="w+")   # not a pipe: it never blocks the helper
        env = child_env(PYTHONUNBUFFERED="1")
        self._proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, text=True, env=env)

    @classmethod
    def start(cls, scene_path: Path, trajectory_path: Path, out_dir: Path, profile: str,
              frames: tuple[int, int], id_scale: int, chunk: int | None) -> "IdHelper":
        """Render the missing id frames of trajectory indices [frames), then decode those not yet
        decoded into the frame cache (render.id_decode.decoded_cache)."""
        cmd = [sys.executable, "-m", "render.run", str(scene_path), str(trajectory_path), str(out_dir),
               "--ids-only", "--profile", profile, "--id-scale", str(id_scale), "--frames", f"{frames[0]}:{frames[1]}"]
        if chunk:
            cmd += ["--chunk", str(chunk)]
        return cls(cmd)

    def finish(self) -> dict:
        """Wait for the helper; its report ({"rendered": {"id_frames"}, "timings_s", "priority"}),
        or {"error": the end of its log} when it failed, plus "wait_s": how long this waited."""
        t = time.perf_counter()
        code = self._proc.wait()
        waited = time.perf_counter() - t
        self._log.seek(0)
        lines = self._log.read().splitlines()
        self._log.close()
        report: dict = {}
        if code == 0 and lines:
            try:
                report = json.loads(lines[-1])
            except ValueError:
                report = {}
        if code != 0 or not isinstance(report, dict):
            report = {"error": f"exit {code}: " + " | ".join(lines[-5:])}
        report["wait_s"] = waited
        return report

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        if not self._log.closed:
            self._log.close()
