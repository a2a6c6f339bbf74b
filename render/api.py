"""The renderer's facade: `render(scene.json, trajectory.json, work) -> video, visibility`.

Blender runs in a fresh process per call (its memory grows across scenes); this module
itself never imports bpy, so the application can call it from any environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

PROFILES = ("preview", "photoreal")


class RenderError(RuntimeError):
    """The Blender process failed; the message carries the tail of its log."""


@dataclass(frozen=True)
class Rendered:
    video: Path       # work/video.mp4, H.264
    visibility: Path  # work/visibility.json


def render(scene_json: Path, trajectory_json: Path, work: Path, *, profile: str = "preview",
           on_progress: Callable[[int, int], None] = lambda done, total: None) -> Rendered:
    """Render the walk of `trajectory_json` through the scene into `work` (which also holds the
    resumable frame cache). Frame size, field of view and the visibility threshold are those of
    the camera recorded in trajectory.json (formats.camera.Camera). Raises RenderError with the
    end of Blender's log on failure."""
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}")
    cmd = [sys.executable, "-m", "render.run", str(scene_json), str(trajectory_json), str(work), "--profile", profile]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    tail: list[str] = []
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        for line in proc.stdout:
            tail = (tail + [line.rstrip()])[-30:]
            progress = parse_progress(line)
            if progress:
                on_progress(*progress)
        code = proc.wait()
    except BaseException:  # Ctrl-C or a failing callback: never leave Blender rendering as an orphan
        _stop(proc)
        raise
    finally:
        proc.stdout.close()
    if code != 0:
        raise RenderError(f"render failed (exit {code}):\n" + "\n".join(tail))
    return Rendered(work / "video.mp4", work / "visibility.json")


def _stop(proc: subprocess.Popen, grace_s: float = 5.0) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def parse_progress(line: str) -> tuple[int, int] | None:
    """Lines like `progress 12/300` from render.run."""
    for part in line.split():
        done, slash, total = part.partition("/")
        if slash and done.isdigit() and total.isdigit():
            return int(done), int(total)
    return None
