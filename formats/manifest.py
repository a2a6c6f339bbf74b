"""manifest.json: how a scenario folder was made (written last by egoscene.pipeline).

Inputs (spec, seed, options, code fingerprints), package versions, the sha256 of every other
file of the folder, per-stage timings, and the walk and query reports of the stages that ran.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel

Stage = Literal["layout", "scene", "trajectory", "render", "queries"]


class Options(StrictModel):
    """The options of `egoscene generate` (egoscene.pipeline.Options)."""

    until: Stage = Field(description="Last stage run.")
    profile: Literal["preview", "photoreal"] = Field(description="Render profile.")
    width: int = Field(gt=0, description="Video width in pixels.")
    height: int = Field(gt=0, description="Video height in pixels.")
    per_task: int = Field(ge=1, description="Questions asked per task.")
    max_frames: int | None = Field(description="Benchmarking only: the walk cut to this many frames; null = whole walk.")
    layout_budget: float | None = Field(None, gt=0, allow_inf_nan=False,
                                        description="Wall-clock seconds the layout stage could take before refusing the "
                                                    "spec (never changes a plan); null: no wall-clock cap (also in "
                                                    "folders made before it existed).")
    scene_budget: float | None = Field(None, gt=0, allow_inf_nan=False,
                                       description="Wall-clock seconds placing the objects could take before the "
                                                   "scenario was refused (never changes a placement); null: no cap "
                                                   "(also in folders made before it existed).")
    walk_budget: float | None = Field(None, gt=0, allow_inf_nan=False,
                                      description="Wall-clock seconds planning one walk could take before the scenario "
                                                  "was refused (never changes a walk); null: no cap.")
    render_budget: float | None = Field(None, gt=0, allow_inf_nan=False,
                                        description="Wall-clock seconds all renders of the scenario could take before "
                                                    "Blender was stopped (never changes a frame); absent: the default "
                                                    "from frames, size and profile (egoscene.pipeline.render_budget_s).")
    queries_budget: float | None = Field(None, gt=0, allow_inf_nan=False,
                                         description="Wall-clock seconds the queries stage and its check could take "
                                                     "(never changes a question); absent: no cap (also in folders made "
                                                     "before it existed).")
    passes_budget: float | None = Field(None, gt=0, allow_inf_nan=False,
                                        description="Wall-clock seconds the optional passes could take before Blender "
                                                    "was stopped (never changes a pass); absent: the default from "
                                                    "frames and size (egoscene.pipeline.passes_budget_s).")
    seed: int | None = Field(None, ge=0, description="`generate --seed`: the seed that replaced the spec's own (the "
                                                      "folder is then <name>-s<seed>); null: the spec's seed.")
    passes: list[Literal["masks", "depth", "glb"]] | None = Field(
        None, description="`generate --passes`: the optional outputs made (masks/, depth/, scene.glb; "
                          "docs/formats.md \"Optional passes\"); absent: none (also in folders made before it existed).")


class WalkReport(StrictModel):
    """generator.walk.plan.walk_summary of the final walk, plus the coverage loop's extensions."""

    frames: int = Field(ge=0, description="Frames of the walk.")
    fps: int = Field(gt=0, description="Frames per second.")
    duration_s: float = Field(ge=0, description="Duration in seconds, rounded to 0.01.")
    metres_walked: float = Field(ge=0, description="Horizontal path length in metres, rounded to 0.01.")
    metres_climbed: float = Field(ge=0, description="Vertical distance up and down stairs in metres, rounded to 0.01.")
    degrees_turned: float = Field(ge=0, description="Total yaw change in degrees, rounded to 0.1.")
    rooms_visited: list[str] = Field(description="Rooms in the order they were entered (repeats included).")
    floors_visited: list[int] = Field(description="Floors the camera was on, ascending.")
    stairs_trips: int = Field(ge=0, description="Flights of stairs walked.")
    looks: int = Field(ge=0, description="`look at` actions in the narration.")
    extensions: int = Field(ge=0, description="Walk extensions the coverage loop needed (objects seen too little).")
    extra_looks: dict[str, list[str]] = Field(description="Room -> object ids given extra looks by those extensions.")
    unseen: dict[str, list[str]] | None = Field(None, description="Room -> object ids still not seen clearly after "
                                                "the extensions (docs/ground-truth.md \"Seen\"): no question names "
                                                "or counts them. Absent in folders made before it existed.")


class QueryReport(StrictModel):
    """queries.engine.QueryReport: what the query engine made and what it refused."""

    per_task: int = Field(ge=1, description="Questions asked per task.")
    records: int = Field(ge=0, description="Records written to queries.jsonl (free-form twins included).")
    counts: dict[str, int] = Field(description="Task -> questions made (twins not counted).")
    rejections: dict[str, dict[str, int]] = Field(description="Task -> `rule<n>` -> candidates refused.")
    reasons: dict[str, dict[str, int]] = Field(description="Task -> `rule<n>: reason` -> candidates refused.")
    shortfall: dict[str, str] = Field(description="Task -> why it has fewer than per_task questions.")
    letters: dict[str, dict[str, int]] = Field(description="Option count -> letter -> MCQs whose answer is that letter.")
    withheld: list[dict[str, str]] = Field(default_factory=list, description=(
        "Questions the independent check refused and the engine then left out (each made again "
        "without them): task, question, reason. Empty when the engine and the check agree on "
        "everything, as for every bundled scenario."))


class Manifest(FileModel):
    """Provenance of one scenario folder."""

    FORMAT: ClassVar[str] = "egoscene.manifest/1"
    FILENAME: ClassVar[str] = "manifest.json"

    format: Literal["egoscene.manifest/1"] = Field(description=TAG_DESCRIPTION)
    name: str = Field(description="Scenario name.")
    spec: str = Field(description="Path of the scenario YAML as given.")
    spec_hash: str = Field(description="sha256 of the normalised scenario spec.")
    inputs_hash: str = Field(description="sha256 of spec, options and code fingerprints: equal means the folder is reused.")
    code: dict[str, str] = Field(description="Stage (and `pipeline`) -> sha256 fingerprint of the code it ran.")
    seed: int = Field(description="The scenario's seed.")
    stages: list[Stage] = Field(description="Stages run, in order.")
    options: Options
    versions: dict[str, str] = Field(description="Python and package versions (`not installed` for absent ones).")
    files: dict[str, str] = Field(description="File name -> sha256 of every other file of the folder; `masks/` and "
                                              "`depth/` (optional passes) -> sha256 over the lines `<name> <sha256>` "
                                              "of their files.")
    timings_s: dict[str, float] = Field(description="Stage -> wall seconds (repeats summed), rounded to 0.001.")
    render_key: str | None = Field(None, description="sha256 of what the rendered files depend on; absent without rendering.")
    walk: WalkReport | None = Field(None, description="The walk's figures; absent without rendering.")
    queries: QueryReport | None = Field(None, description="The query engine's report; absent without the queries stage.")
