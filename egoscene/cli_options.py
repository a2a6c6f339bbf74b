"""The command-line options of egoscene.cli, declared once: `generate` and `batch` share them so
the two verbs cannot drift apart. Plain constants only (the CLI must start without the stages)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

STAGES = ("layout", "scene", "trajectory", "render", "queries")  # egoscene.pipeline.STAGES, without importing it
PROFILES = ("preview", "photoreal")

Specs = Annotated[list[Path], typer.Argument(help="scenario YAML files or folders of them")]
LAYOUT_BUDGET_S = 90.0  # egoscene.pipeline.LAYOUT_BUDGET_S, without importing it
LayoutBudget = Annotated[float, typer.Option("--layout-budget", min=1.0, max=3600.0,
                                             help="CPU seconds the layout of one scenario may take before it is refused")]
SCENE_BUDGET_S = 120.0  # placing 600 objects (the spec limit) takes about 30 s on 2 busy cores
SceneBudget = Annotated[float, typer.Option("--scene-budget", min=1.0, max=36000.0,
                                            help="CPU seconds placing the objects of one scenario may take before it is refused")]
WALK_BUDGET_S = 300.0  # egoscene.pipeline.WALK_BUDGET_S, without importing it
WalkBudget = Annotated[float, typer.Option("--walk-budget", min=1.0, max=36000.0,
                                           help="CPU seconds planning one walk may take before the scenario is refused")]
Passes = Annotated[Optional[str], typer.Option(help="optional outputs, comma-separated: masks (instance masks), depth "
                                                    "(16-bit mm), glb (scene.glb); docs/formats.md")]
RenderBudget = Annotated[Optional[float], typer.Option(
    "--render-budget", min=1.0, max=10**7, help="seconds all renders of one scenario may take before Blender is "
    "stopped and the scenario reported (its frame cache is kept: a re-run resumes); default: 120 + frames x 3 s "
    "(preview) or 30 s (photoreal), per frame scaled by width x height / 640x480, at least a quarter")]
QUERIES_BUDGET_S = 300.0  # egoscene.pipeline.QUERIES_BUDGET_S, without importing it
QueriesBudget = Annotated[float, typer.Option("--queries-budget", min=1.0, max=36000.0,
                                              help="CPU seconds the questions and their independent check may take")]
PassesBudget = Annotated[Optional[float], typer.Option(
    "--passes-budget", min=1.0, max=10**7, help="seconds the optional --passes of one scenario may take before "
    "Blender is stopped and the scenario reported (the render is kept: a re-run makes only the passes); default: "
    "120 + frames x 3 s, per frame scaled by width x height / 640x480, at least a quarter")]
AuditBudget = Annotated[Optional[float], typer.Option(
    "--audit-budget", min=1.0, max=10**7, help="seconds the audit may take (decoding, the id pass in Blender, "
    "drawing) before it is stopped and nothing is written; default: 120 + 3 s per id frame (scaled by width x "
    "height / 640x480, at least a quarter) + 0.1 s per video frame decoded + 3 s per question")]
Until = Annotated[str, typer.Option(help="stop after this stage: " + ", ".join(STAGES))]
Profile = Annotated[str, typer.Option(help="preview: Workbench; photoreal: Cycles")]
Width = Annotated[int, typer.Option(min=16)]
Height = Annotated[int, typer.Option(min=16)]
PerTask = Annotated[int, typer.Option(min=1, help="questions per task (when the scene allows)")]
Seed = Annotated[Optional[int], typer.Option(min=0, max=2**63 - 1, help="override the specs' seed; output goes to "
                                                                        "OUT/<name>-s<SEED>/")]
MaxFrames = Annotated[Optional[int], typer.Option(min=1, hidden=True)]  # tests and benchmarks: cut the walk
