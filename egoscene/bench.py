"""`egoscene bench`: the whole pipeline against a bare bpy render of the same frames.

Both run in this same invocation on the same machine: first the pipeline (fresh output and
render cache), then a bare Blender render of the very scene and trajectory it produced.
The last printed line is one JSON object with `ratio_to_bare_render`.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from egoscene import pipeline
from formats.base import read_model
from formats.trajectory import Trajectory


def _peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round(max(own, children) / 1024, 1)  # Linux reports KiB


def bare_render_seconds(folder: Path, profile: str, width: int, height: int, work: Path) -> float:
    """Time a fresh Blender process that builds the scene and renders the frames to H.264."""
    code = ("import sys, json; from render.bare import bare_render; "
            "print(json.dumps({'seconds': bare_render(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], "
            "int(sys.argv[5]), int(sys.argv[6]))}))")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, str(folder / "scene.json"), str(folder / "trajectory.json"),
                           str(work / "bare.mp4"), profile, str(width), str(height)],
                          capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"bare render failed:\n{done.stderr[-3000:]}")
    return wall


def run_bench(spec: Path, profile: str = "preview", width: int = 640, height: int = 480, keep: Path | None = None,
              max_frames: int | None = None) -> dict:
    work = Path(tempfile.mkdtemp(prefix="egoscene-bench-"))
    try:
        out_root = work / "out"
        options = pipeline.Options(profile=profile, width=width, height=height, max_frames=max_frames)
        started = time.perf_counter()
        result = pipeline.generate(spec, out_root, options)
        total = time.perf_counter() - started
        trajectory = read_model(result.folder / "trajectory.json", Trajectory)
        frames = len(trajectory.frames)
        bare = bare_render_seconds(result.folder, profile, width, height, work)
        timings = {k: round(v, 3) for k, v in result.timings.items()}
        render_s = timings.get("render", 0.0)
        report = {
            "scenario": result.scenario.name,
            "profile": profile,
            "size": [width, height],
            "frames": frames,
            "max_frames": max_frames,
            "video_seconds": round(frames / trajectory.fps, 2),
            "stages_s": timings,
            "pipeline_s": round(total, 3),
            "non_render_s": round(total - render_s, 3),
            "render_s_per_frame": round(render_s / max(frames, 1), 4),
            "bare_render_s": round(bare, 3),
            "bare_render_s_per_frame": round(bare / max(frames, 1), 4),
            "ratio_to_bare_render": round(total / bare, 3),
            "peak_rss_mb": _peak_rss_mb(),
        }
        if keep:
            shutil.copytree(result.folder, keep / result.scenario.name, dirs_exist_ok=True)
        return report
    finally:
        shutil.rmtree(work, ignore_errors=True)


def print_report(report: dict, stream=sys.stdout) -> None:
    print(f"scenario {report['scenario']} ({report['profile']}, {report['size'][0]}x{report['size'][1]}, "
          f"{report['frames']} frames = {report['video_seconds']} s of video)", file=stream)
    for stage, seconds in report["stages_s"].items():
        print(f"  {stage:<11} {seconds:8.2f} s", file=stream)
    print(f"  {'pipeline':<11} {report['pipeline_s']:8.2f} s  (everything but rendering: {report['non_render_s']:.2f} s)", file=stream)
    print(f"  {'bare render':<11} {report['bare_render_s']:8.2f} s  ({report['bare_render_s_per_frame']:.3f} s/frame)", file=stream)
    print(f"  ratio to bare render {report['ratio_to_bare_render']:.3f}; render {report['render_s_per_frame']:.3f} s/frame; "
          f"peak memory {report['peak_rss_mb']:.0f} MB", file=stream)
    print(json.dumps(report, sort_keys=True), file=stream)
