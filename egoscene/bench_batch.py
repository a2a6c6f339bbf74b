"""`egoscene bench --batch`: throughput of `egoscene batch` on this machine.

The same specs run as a batch with 1 worker, then with 2 (or the counts asked for), each into a
fresh output folder; for each run: wall seconds, CPU seconds of every process below (workers
and Blender), minutes of finished video and validated questions (those in the published
queries.jsonl, which passed the independent check) per CPU-hour - a CPU-hour being an hour of
the whole machine (wall time x its cores), so the figure says what the machine produces - and
the speed-up over 1 worker. It also times the layout of the large bundled scenario.
"""

from __future__ import annotations

import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from egoscene import pipeline
from egoscene.batch.local import LocalBackend
from egoscene.batch.run import run_batch
from formats.base import read_model
from formats.manifest import Manifest

LARGE = Path(__file__).resolve().parents[1] / "scenarios" / "large-house.yaml"


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # waited-for descendants: workers, Blender
    return usage.ru_utime + usage.ru_stime


def batch_run(specs: list[Path], workers: int, options: pipeline.Options, work: Path) -> dict:
    out = work / f"workers-{workers}"
    out.mkdir(parents=True)
    cpu, started = _children_cpu_s(), time.perf_counter()
    batch = run_batch(specs, out, options, LocalBackend(workers), retries=0)
    wall, cpu = time.perf_counter() - started, _children_cpu_s() - cpu
    report = {"workers": workers, "scenarios": len(specs)}
    report.update(throughput([out / e.name for e in batch.entries if e.status == "done"], wall, os.cpu_count() or 1))
    report["cpu_s"] = round(cpu, 1)
    report["statuses"] = {e.name or str(e.spec): e.status for e in batch.entries}
    return report


def throughput(folders: list[Path], wall_s: float, cores: int) -> dict:
    """Finished video and validated questions of published scenario folders per CPU-hour,
    a CPU-hour being `cores` busy for an hour: wall_s x cores / 3600."""
    video_s, questions = 0.0, 0
    for folder in folders:
        manifest = read_model(folder / "manifest.json", Manifest)
        video_s += manifest.walk.duration_s if manifest.walk else 0.0
        questions += manifest.queries.records if manifest.queries else 0
    cpu_hours = wall_s * cores / 3600
    return {"finished": len(folders), "wall_s": round(wall_s, 1), "video_minutes": round(video_s / 60, 3),
            "questions": questions, "video_minutes_per_cpu_hour": round(video_s / 60 / cpu_hours, 2),
            "questions_per_cpu_hour": round(questions / cpu_hours, 1)}


def layout_seconds(spec: Path = LARGE, repeats: int = 3) -> float:
    """Best of a few layouts of one spec (the solver's work is deterministic; the best is the
    least disturbed by other load)."""
    from generator.spec.scenario import load_scenario

    scenario = load_scenario(spec)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        pipeline.run_layout(scenario)
        best = min(best, time.perf_counter() - started)
    return round(best, 2)


def run_batch_bench(specs: list[Path], worker_counts: tuple[int, ...] = (1, 2), profile: str = "preview",
                    width: int = 640, height: int = 480, max_frames: int | None = None) -> dict:
    options = pipeline.Options(profile=profile, width=width, height=height, max_frames=max_frames)
    work = Path(tempfile.mkdtemp(prefix="egoscene-bench-batch-"))
    try:
        runs = [batch_run(specs, n, options, work) for n in worker_counts]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for run in runs:
        run["speedup_vs_1_worker"] = round(runs[0]["wall_s"] / run["wall_s"], 2) if run["wall_s"] else None
    return {"machine_cores": os.cpu_count(), "profile": profile, "size": [width, height], "max_frames": max_frames,
            "specs": [str(s) for s in specs], "runs": runs, "large_layout_s": layout_seconds()}
