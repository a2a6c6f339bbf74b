"""The pipeline of plain stages: spec -> layout -> ... , each leaving files a person can open."""

from __future__ import annotations

import platform
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Callable

from generator import drawing, grid, layout, outputs
from generator.spec import Scenario, load_scenario

STAGES = ("layout",)  # later stages (scene, trajectory, render, queries) append here
VERSION_PACKAGES = ("egoscene", "numpy", "shapely", "ortools", "networkx", "matplotlib", "pydantic")


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in VERSION_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


@dataclass
class Result:
    scenario: Scenario
    folder: Path
    timings: dict[str, float] = field(default_factory=dict)


def run_layout(scenario: Scenario) -> tuple[dict, dict]:
    plan = layout.layout(scenario)
    scene = layout.plan_to_scene(plan)
    scene["versions"] = {"egoscene": package_versions()["egoscene"]}
    return scene, grid.build_grid(scene)


def generate(spec_path: Path, out_root: Path, until: str = STAGES[-1],
             on_stage: Callable[[str], None] = lambda stage: None) -> Result:
    """Run the stages up to `until` and publish `out_root/<name>/` atomically.

    Everything is computed before the folder is created, so a spec that fails validation or
    layout leaves nothing behind.
    """
    if until not in STAGES:
        raise ValueError(f"--until must be one of {', '.join(STAGES)}")
    timings: dict[str, float] = {}
    on_stage("validate")
    started = time.perf_counter()
    scenario = load_scenario(spec_path)
    timings["validate"] = time.perf_counter() - started

    on_stage("layout")
    started = time.perf_counter()
    scene, grid_truth = run_layout(scenario)
    timings["layout"] = time.perf_counter() - started

    folder = out_root / scenario.name
    with outputs.staged_folder(folder) as staging:
        on_stage("write")
        started = time.perf_counter()
        outputs.write_json(staging / "scene.json", scene)
        outputs.write_json(staging / "grid.json", grid_truth)
        drawing.draw_floorplan(scene, staging / "floorplan.png")
        drawing.draw_grid(grid_truth, staging / "grid.png", title=scenario.name)
        from queries.grid_prompt import grid_prompt_for

        outputs.write_text(staging / "grid_prompt.txt", grid_prompt_for(grid_truth) + "\n")
        timings["write"] = time.perf_counter() - started
        manifest = {
            "name": scenario.name,
            "spec": str(spec_path),
            "spec_hash": scenario.spec_hash(),
            "seed": scenario.seed,
            "stages": list(STAGES[: STAGES.index(until) + 1]),
            "versions": package_versions(),
            "files": outputs.file_hashes(staging),
            "timings_s": {k: round(v, 3) for k, v in timings.items()},
        }
        outputs.write_json(staging / "manifest.json", manifest)
    return Result(scenario, folder, timings)
