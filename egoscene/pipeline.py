"""The pipeline of plain stages: spec -> layout -> scene (objects) -> trajectory -> render -> queries.

Each stage hands the next a plain dict that is also written as a file a person can open.
The scenario folder is published atomically at the end; rendering runs in a fresh Blender
process per scenario and resumes from its frame cache when interrupted.
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import tempfile
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Callable

from formats import files as outputs
from formats.base import dump_model, load_model, read_model, write_model
from formats.camera import Camera
from formats.fingerprint import code_fingerprint
from formats.grid import Grid
from formats.manifest import Manifest
from formats.scene import Scene
from formats.trajectory import Trajectory
from formats.visibility import Visibility
from egoscene.checked_queries import QueryCheckError, checked_queries
from egoscene.coverage import COVERAGE_ROUNDS, load_coverage, save_coverage, under_seen, warn_unseen
from generator import drawing
from generator.layout import grid
from generator.layout import plan as layout
from generator.spec.scenario import Scenario, load_scenario
from render.api import PASSES, PROFILES, RenderBudgetError, RenderSession

STAGES = ("layout", "scene", "trajectory", "render", "queries")
VERSION_PACKAGES = ("egoscene", "numpy", "shapely", "ortools", "networkx", "matplotlib", "pydantic", "trimesh", "bpy")
# The CLI's default CPU-second budget of the layout stage (a slower search is refused). A guard
# against runaway searches, not the plan's limit (the solver's deterministic work budget is):
# the CPU seconds the same work takes grow with load - sample-1-009 took 34.8 CPU s with five
# processes on 2 cores and under 30 in a two-worker batch - and 30 s refused it on a busy machine.
LAYOUT_BUDGET_S = 90.0
WALK_BUDGET_S = 300.0  # ... and of planning one walk (a 9-room, 3-floor house takes about 30 s on 2 busy cores)
QUERIES_BUDGET_S = 300.0  # ... and of the queries stage with its independent check (seconds for a bundled scenario)
# The render stage's default budget (Options.render_budget None): start-up plus seconds per frame at 640x480,
# scaled by the frame's pixels (at least a quarter: Workbench's per-frame overhead). About 20x the measured
# 0.12 s (preview) and 1.8 s (photoreal) per frame on 2 idle cores, so busy machines and coverage re-renders fit.
RENDER_BUDGET_BASE_S = 120.0
RENDER_S_PER_FRAME = {"preview": 3.0, "photoreal": 30.0}


class PassesBudgetError(RenderBudgetError):
    """The optional passes (--passes) ran past their time budget; Blender was stopped."""


class QueryBudgetError(Exception):
    """The queries stage (questions and their independent check) ran past its time budget."""


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in VERSION_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


@dataclass
class Options:
    until: str = STAGES[-1]
    profile: str = "preview"
    width: int = 640
    height: int = 480
    per_task: int = 3
    max_frames: int | None = None  # benchmarking only: cut the walk, skip the coverage loop
    layout_budget: float | None = None  # CPU seconds (CLI: LAYOUT_BUDGET_S); never changes a plan, only
    # refuses a slow search; None: only the solver's deterministic work budget bounds the search
    seed: int | None = None  # overrides the spec's seed; the name gets "-s<seed>" (variants of one spec)
    scene_budget: float | None = None  # CPU seconds placing the objects may take (CLI: SCENE_BUDGET_S); like
    # layout_budget it never changes a placement, it only refuses a slow one
    walk_budget: float | None = None  # CPU seconds planning one walk may take (CLI: WALK_BUDGET_S); like
    # layout_budget it never changes a walk, it only refuses a slow one
    passes: tuple[str, ...] | None = None  # optional render passes (PASSES: masks, depth, glb); None: none
    render_budget: float | None = None  # wall seconds all renders of the scenario may take; None: render_budget_s()
    queries_budget: float | None = None  # CPU seconds of the queries stage (CLI: QUERIES_BUDGET_S); None: no cap
    passes_budget: float | None = None  # wall seconds the optional passes may take; None: passes_budget_s()

    def __post_init__(self):
        self.passes = parse_passes(self.passes)

    def stages(self) -> tuple[str, ...]:
        return STAGES[: STAGES.index(self.until) + 1]

    def camera(self) -> Camera:
        """The one camera of the walk, the render and the visibility rule (formats.camera)."""
        return Camera.standard(width=self.width, height=self.height)


def render_budget_s(frames: int, width: int, height: int, profile: str) -> float:
    """The render stage's default budget: RENDER_BUDGET_BASE_S + frames x RENDER_S_PER_FRAME[profile],
    per frame scaled by the frame's pixels relative to 640x480 (at least a quarter)."""
    return RENDER_BUDGET_BASE_S + frames * RENDER_S_PER_FRAME[profile] * max(0.25, width * height / (640 * 480))


def passes_budget_s(frames: int, width: int, height: int) -> float:
    """The optional passes' default budget (Options.passes_budget None): the preview render's rule
    (render_budget_s) in either profile, since masks and depth come from the flat Workbench id scene."""
    return render_budget_s(frames, width, height, "preview")


def parse_passes(value) -> tuple[str, ...] | None:
    """`masks,depth` or a list of names -> the passes in PASSES order (None for none); ValueError
    naming an unknown one."""
    names = [n.strip() for n in (value.split(",") if isinstance(value, str) else value or ()) if n.strip()]
    unknown = [n for n in names if n not in PASSES]
    if unknown:
        raise ValueError(f"unknown pass {unknown[0]!r} (passes: {', '.join(PASSES)})")
    return tuple(p for p in PASSES if p in names) or None


@dataclass
class Result:
    scenario: Scenario
    folder: Path
    timings: dict[str, float] = field(default_factory=dict)
    reused: bool = False
    # one entry per render of the coverage loop: frames of the walk, colour/id frames rendered, seconds
    renders: list[dict] = field(default_factory=list)


def run_layout(scenario: Scenario, time_budget: float | None = None) -> tuple[dict, dict]:
    plan = layout.layout(scenario, time_budget=time_budget)
    scene = layout.plan_to_scene(plan)
    scene["versions"] = {"egoscene": package_versions()["egoscene"]}
    return scene, grid.build_grid(scene)


# Entry modules of each stage: its code fingerprint covers them and every project module they
# import, so a re-run after a code change redoes the stages it can affect and no others.
STAGE_CODE = {
    "layout": ("generator.layout.plan", "generator.layout.grid", "generator.drawing", "queries.grid_prompt"),
    "scene": ("generator.placement.place",),
    "trajectory": ("generator.walk.plan",),
    "render": ("render.serve",),
    "queries": ("queries.engine", "queries.check", "egoscene.checked_queries"),
}
RENDER_DATA = tuple(sorted((Path(__file__).resolve().parents[1] / "render" / "data").glob("*")))


def stage_fingerprints(stages: tuple[str, ...]) -> dict[str, str]:
    prints = {stage: code_fingerprint(*STAGE_CODE[stage], data_files=RENDER_DATA if stage == "render" else ())
              for stage in stages}
    prints["pipeline"] = code_fingerprint(__name__)
    return prints


def _hash(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


BUDGETS = ("layout_budget", "scene_budget", "walk_budget", "render_budget", "queries_budget", "passes_budget")


def inputs_hash(scenario: Scenario, options: Options) -> str:
    """What a finished folder was made from (spec, options, the code of every stage it ran);
    equal hashes mean the whole folder can be reused."""
    chosen = {k: v for k, v in options.__dict__.items() if k not in BUDGETS}  # they change no output
    if not options.passes:  # folders made before passes existed stay up to date
        chosen.pop("passes")
    return _hash({"spec": scenario.spec_hash(), "options": chosen,
                  "code": stage_fingerprints(options.stages())})


def render_key(scene: dict, trajectory: dict, options: Options) -> str:
    """What the rendered files depend on: the scene, the walk before any coverage extension,
    the frame options and the renderer's code. Equal keys let a re-run keep the video."""
    return _hash({"scene": outputs.dumps(scene), "trajectory": outputs.dumps(trajectory),
                  "render": [options.profile, options.width, options.height],
                  "code": stage_fingerprints(("render",))["render"]})


def _old_manifest(folder: Path, files: tuple[str, ...] | None = None) -> dict | None:
    """The manifest of a finished folder whose files (or the named ones) are intact, else None."""
    try:
        manifest = dump_model(read_model(folder / "manifest.json", Manifest))
    except (OSError, ValueError):  # incl. FormatError: a manifest of another format version
        return None
    found = outputs.file_hashes(folder)
    if files is None:
        return manifest if manifest.get("files") == found else None
    recorded = manifest.get("files", {})
    return manifest if all(name in found and recorded.get(name) == found[name] for name in files) else None


def _up_to_date(folder: Path, wanted: str) -> bool:
    manifest = _old_manifest(folder)
    return manifest is not None and manifest.get("inputs_hash") == wanted


RENDERED_FILES = ("video.mp4", "visibility.json", "trajectory.json")


def _reuse_render(folder: Path, key: str, staging: Path) -> tuple[dict, dict] | None:
    """Copy the rendered files of an intact earlier run with the same render key into staging;
    returns that run's final trajectory and walk summary, or None when it cannot be reused."""
    manifest = _old_manifest(folder, RENDERED_FILES)  # other files may be gone: they are redone anyway
    if manifest is None or manifest.get("render_key") != key:
        return None
    for name in RENDERED_FILES:
        shutil.copyfile(folder / name, staging / name)
    return dump_model(read_model(staging / "trajectory.json", Trajectory)), manifest.get("walk", {})


class _Clock:
    """Times stages (summing repeats, e.g. re-renders) and announces each as it starts."""

    def __init__(self, on_stage: Callable[[str], None]):
        self.on_stage, self.timings = on_stage, {}
        self.renders: list[dict] = []  # the coverage loop's renders (Result.renders)

    @contextmanager
    def __call__(self, stage: str):
        self.on_stage(stage)
        started = time.perf_counter()
        try:
            yield
        finally:
            self.timings[stage] = self.timings.get(stage, 0.0) + time.perf_counter() - started


def with_seed(scenario: Scenario, seed: int | None) -> Scenario:
    """`generate --seed N`: the spec with seed N, named `<name>-s<N>` so variants do not overwrite each other."""
    if seed is None:
        return scenario
    return replace(scenario, seed=seed, name=f"{scenario.name}-s{seed}")


def finished_folder(scenario: Scenario, out_root: Path, options: Options) -> Path | None:
    """OUT/<name>/ when it is finished and made from this spec, these options and this code
    (`generate` would reuse it as it is), else None. `scenario` already carries any --seed."""
    folder = out_root / scenario.name
    return folder if _up_to_date(folder, inputs_hash(scenario, options)) else None


def generate(spec_path: Path, out_root: Path, options: Options | None = None,
             on_stage: Callable[[str], None] = lambda stage: None,
             on_progress: Callable[[int, int], None] = lambda done, total: None) -> Result:
    """Run the stages up to `options.until` and publish `out_root/<name>/` atomically.

    Everything before rendering is computed in memory first, so a spec that fails validation,
    layout or placement leaves nothing behind.
    """
    options = options or Options()
    if options.until not in STAGES:
        raise ValueError(f"until must be one of {', '.join(STAGES)}")
    if options.profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}")
    outputs.check_output_root(out_root)  # a file or a read-only folder is refused before any work
    clock = _Clock(on_stage)
    stages = options.stages()
    with clock("validate"):
        scenario = with_seed(load_scenario(spec_path), options.seed)
    folder = out_root / scenario.name
    wanted = inputs_hash(scenario, options)
    if _up_to_date(folder, wanted):
        return Result(scenario, folder, clock.timings, reused=True)

    with clock("layout"):
        scene, grid_truth = run_layout(scenario, options.layout_budget)
    trajectory = None
    if "scene" in stages:
        from generator.placement.place import place_objects

        with clock("scene"):
            placed = place_objects(scenario, scene, budget_s=options.scene_budget)
            scene["objects"] = placed["objects"]
            scene["object_relations"] = placed.get("object_relations", [])
    with ExitStack() as stack:
        session = None
        if "render" in stages:  # Blender starts and builds the scene while the walk is planned
            session = stack.enter_context(_render_session(scene, render_cache(out_root, scenario.name), options))
        if "trajectory" in stages:
            from generator.walk.plan import plan_walk

            with clock("trajectory"):
                trajectory = plan_walk(scenario, scene, camera=options.camera(), budget_s=options.walk_budget)
                if options.max_frames:
                    trajectory = truncate(trajectory, options.max_frames)

        with outputs.output_lock(folder, on_wait=lambda: on_stage(f"waiting for another run writing {folder}")):
            if _up_to_date(folder, wanted):  # that other run may have made just this
                return Result(scenario, folder, clock.timings, reused=True)
            return _publish(spec_path, out_root, scenario, folder, wanted, options, scene, grid_truth, trajectory,
                            clock, on_stage, on_progress, session)


@contextmanager
def _render_session(scene: dict, work: Path, options: Options):
    """A Blender process for this scene's walks, rendering into `work`. Its scene.json is this
    run's own (a temporary folder): another run of the same name may hold `work` meanwhile."""
    with tempfile.TemporaryDirectory(prefix="egoscene-scene-") as tmp:
        path = Path(tmp) / "scene.json"
        _write(path, scene, Scene)
        with RenderSession(path, work, profile=options.profile, camera=options.camera()) as session:
            yield session


def _publish(spec_path, out_root, scenario, folder, wanted, options, scene, grid_truth, trajectory, clock,
             on_stage, on_progress, session: RenderSession | None) -> Result:
    """Render (or reuse the render), write every file into a staging folder and publish it;
    run under the scenario's output lock."""
    stages = options.stages()
    walk_info: dict = {}
    query_report = None
    rendered_key = None
    with outputs.staged_folder(folder) as staging:
        if "render" in stages:
            rendered_key = render_key(scene, trajectory, options)
            reused = _reuse_render(folder, rendered_key, staging)
            if reused:
                on_stage("render (reused: scene, walk and renderer unchanged)")
                trajectory, walk_info = reused
            else:
                trajectory, walk_info = _render_with_coverage(scenario, scene, trajectory, out_root, staging, options,
                                                              clock, on_progress, rendered_key, session)
        with clock("write"):
            _write(staging / "scene.json", scene, Scene)
            _write(staging / "grid.json", grid_truth, Grid)
            if trajectory is not None:
                _write(staging / "trajectory.json", trajectory, Trajectory)
        if options.passes and rendered_key:
            _passes(scenario, len(trajectory["frames"]), folder, rendered_key, staging,
                    render_cache(out_root, scenario.name), options, clock, on_progress)
        with clock("write"):
            drawing.draw_floorplan(scene, staging / "floorplan.png", trajectory=trajectory)
            drawing.draw_grid(grid_truth, staging / "grid.png", title=scenario.name)
            from queries.grid_prompt import grid_prompt_for

            outputs.write_text(staging / "grid_prompt.txt", grid_prompt_for(grid_truth) + "\n")
        if "queries" in stages:
            query_report = checked_queries(staging, options.per_task, _queries_deadline(scenario, options.queries_budget),
                                           clock, scenario.source)
        manifest = {
            "format": Manifest.FORMAT,
            "name": scenario.name,
            "spec": str(spec_path),
            "spec_hash": scenario.spec_hash(),
            "inputs_hash": wanted,
            "code": stage_fingerprints(stages),
            "seed": scenario.seed,
            "stages": list(stages),
            "options": options.__dict__,
            "versions": package_versions(),
            "files": outputs.file_hashes(staging),
            "timings_s": {k: round(v, 3) for k, v in clock.timings.items()},
        }
        if walk_info:
            manifest["walk"] = walk_info
        if rendered_key:
            manifest["render_key"] = rendered_key
        if query_report is not None:
            manifest["queries"] = query_report.to_json()
        _write(staging / "manifest.json", manifest, Manifest)
    # published: the frame cache only served resuming this scenario
    cache = render_cache(out_root, scenario.name)
    shutil.rmtree(cache, ignore_errors=True)
    outputs.remove_if_empty(cache.parent)  # OUT/.cache: another scenario may be removing it too
    return Result(scenario, folder, clock.timings, renders=clock.renders)


def _queries_deadline(scenario: Scenario, budget_s: float | None) -> Callable[[], None]:
    """A check the query engine and the checker call between tasks, candidates and records: it raises
    QueryBudgetError once the queries stage has used `budget_s` CPU seconds (in-process: no signals;
    CPU, not wall, so a loaded machine does not trip it)."""
    ends = None if budget_s is None else time.process_time() + budget_s

    def within_budget() -> None:
        if ends is not None and time.process_time() > ends:
            raise QueryBudgetError(f"{scenario.source}: queries stage stopped at its budget of {budget_s:g} CPU s; "
                                   "nothing was published and the render is kept, so a re-run resumes from it "
                                   "(fix: --queries-budget with more seconds, or a smaller --per-task)")
    return within_budget


# ---------------------------------------------------------------------------- rendering


PASS_FILES = {"masks": "masks/", "depth": "depth/", "glb": "scene.glb"}  # as named in manifest.json files


def _passes(scenario: Scenario, frames: int, folder: Path, key: str, staging: Path, work: Path, options: Options, clock,
            on_progress) -> None:
    """The optional passes into staging (masks/, depth/, scene.glb): copied from the finished
    folder when it made them from the same render key (and they are intact), else made by
    render.api.passes from staging's scene.json and final trajectory.json (masks from the
    render's cached id frames in `work` when it has them), within options.passes_budget
    (PassesBudgetError: Blender stopped; staging, with its partial passes, is discarded)."""
    from render.api import passes

    todo = []
    for name in options.passes:
        old = _old_manifest(folder, (PASS_FILES[name],))
        if old and old.get("render_key") == key and name in (old.get("options", {}).get("passes") or ()):
            src, dst = folder / PASS_FILES[name].rstrip("/"), staging / PASS_FILES[name].rstrip("/")
            shutil.copytree(src, dst) if src.is_dir() else shutil.copyfile(src, dst)
        else:
            todo.append(name)
    if todo:
        budget = options.passes_budget or passes_budget_s(frames, options.width, options.height)
        with clock("passes"):
            try:
                passes(staging / "scene.json", staging / "trajectory.json", staging, tuple(todo), profile=options.profile,
                       cache=work if (work / ".frames").is_dir() else None, on_progress=on_progress, budget_s=budget)
            except RenderBudgetError as exc:
                at = f"{exc.progress[0]}/{exc.progress[1]} frames done" if exc.progress else "no frame done yet"
                raise PassesBudgetError(
                    f"{scenario.source}: passes stage ({', '.join(todo)}) stopped at its budget of {budget:g} s ({at}); "
                    "nothing was published and the render is kept, so a re-run makes only the passes (fix: "
                    "--passes-budget with more seconds, or fewer --passes)", exc.progress) from None
    else:
        clock.on_stage("passes (reused: scene, walk and renderer unchanged)")


def truncate(trajectory: dict, frames: int) -> dict:
    """The first `frames` frames of a walk (events and narration clipped to match)."""
    cut = dict(trajectory)
    cut["frames"] = trajectory["frames"][:frames]
    cut["events"] = [e for e in trajectory.get("events", []) if e["frame"] < frames]
    cut["narration"] = [n for n in trajectory.get("narration", []) if n["frames"][0] < frames]
    cut["motion_starts"] = [k for k in trajectory.get("motion_starts", []) if k < frames]
    cut["insertions"] = [[a, min(b, frames)] for a, b in trajectory.get("insertions", []) if a < frames]
    return cut


def render_cache(out_root: Path, name: str) -> Path:
    """Frames survive a crash here (outside the staging folder), so a re-run resumes."""
    return out_root / ".cache" / name


def _write(path: Path, data: dict, model) -> None:
    """Write a stage's dict through its file model (validated: a writer bug fails here, by field)."""
    write_model(path, load_model(data, model, f"{path.name} as written by this pipeline"))


def coverage_key(key: str) -> str:
    """What the coverage loop's extra looks follow from: the render key (scene, first walk, frame
    options, renderer), the loop (this module's own source, egoscene.coverage), the walk planner and
    the "seen" rule (queries.evidence, queries.shown, queries.geometry, queries.params)."""
    return _hash({"render_key": key, "rounds": COVERAGE_ROUNDS, "pipeline": hashlib.sha256(
        Path(__file__).read_bytes()).hexdigest(), "code": code_fingerprint(
        "egoscene.coverage", "generator.walk.plan", "queries.evidence", "queries.shown", "queries.geometry",
        "queries.params")})


def _render_with_coverage(scenario, scene, trajectory, out_root, staging, options, clock, on_progress, key,
                          session: RenderSession):
    """Render, then extend the walk for objects the frames did not show enough, re-render.

    Resumable at any point: every walk of the loop renders into one frame cache that is never
    trimmed (render(trim=False); the cache goes once the folder is published), and each round's
    extra looks are recorded in it (egoscene.coverage, under coverage_key(key)), so a run killed after
    an extension plans the extended walk at once and renders only frames that are not cached."""
    from generator.walk.plan import plan_walk, walk_summary

    work = render_cache(out_root, scenario.name)
    outputs.make_dirs(work)  # another scenario may be removing an empty OUT/.cache meanwhile
    budget = options.render_budget or render_budget_s(len(trajectory["frames"]), options.width, options.height,
                                                      options.profile)
    loop_key = coverage_key(key)
    first, extra = (0, {}) if options.max_frames else load_coverage(work, loop_key)
    if first:  # the walk a killed run had extended to (plan_walk is deterministic: the same walk)
        clock.on_stage(f"coverage (resumed at walk extension {first}: {sum(map(len, extra.values()))} extra looks)")
        with clock("trajectory"):
            trajectory = plan_walk(scenario, scene, extra_looks=extra, camera=options.camera(),
                                   budget_s=options.walk_budget)
    spent = 0.0  # by the renders so far: one budget covers the coverage loop's re-renders too
    for attempt in range(first, COVERAGE_ROUNDS + 1):
        _write(work / "trajectory.json", trajectory, Trajectory)
        started = time.perf_counter()
        with clock("render"):  # frame size and visibility threshold: the camera in trajectory.json
            try:
                done = session.render(work / "trajectory.json", on_progress=on_progress,
                                      budget_s=max(0.0, budget - spent), trim=False)
            except RenderBudgetError as exc:
                at = f"{exc.progress[0]}/{exc.progress[1]} frames rendered" if exc.progress else "no frame rendered yet"
                raise RenderBudgetError(
                    f"{scenario.source}: render stage stopped at its budget of {budget:g} s ({at}); nothing was "
                    "published and the frame cache is kept, so a re-run resumes (fix: --render-budget with more "
                    "seconds, or a smaller --width/--height)", exc.progress) from None
        spent += time.perf_counter() - started
        for crash in done.stats.get("crashes", []):
            clock.on_stage(f"warning: {crash}; rendered again from the frame cache")
        rendered = done.stats.get("rendered", {})
        clock.renders.append({"frames": len(trajectory["frames"]), "chunks": rendered.get("chunks"),
                              "color_frames": rendered.get("color_frames"), "id_frames": rendered.get("id_frames"),
                              "seconds": round(time.perf_counter() - started, 3),
                              "timings_s": done.stats.get("timings_s", {})})  # render.run's: build, color, ids, ...
        visibility = dump_model(read_model(work / "visibility.json", Visibility))
        missing = {} if options.max_frames else under_seen(scene, trajectory, visibility)
        if not missing:
            break
        # the next walk would repeat this one (plan_walk is deterministic) when nothing new is missing
        repeat = all(i in extra.get(room, []) for room, ids in missing.items() for i in ids)
        if attempt == COVERAGE_ROUNDS or repeat:  # published all the same: no question names an object not seen
            warn_unseen(clock, attempt, missing)
            break
        for room, ids in missing.items():
            extra.setdefault(room, []).extend(i for i in ids if i not in extra.get(room, []))
        with clock("trajectory"):
            extended = plan_walk(scenario, scene, extra_looks=extra, camera=options.camera(),
                                 budget_s=options.walk_budget)
        if extended == trajectory:  # no standpoint shows them better (plan_walk notes why): nothing to render
            warn_unseen(clock, attempt, missing)
            break
        trajectory = extended
        save_coverage(work, loop_key, attempt + 1, extra)
    for name in ("video.mp4", "visibility.json"):  # copied: a run killed before publishing resumes from the cache
        shutil.copyfile(work / name, staging / name)
    info = dict(walk_summary(trajectory))
    info["extensions"] = attempt
    info["extra_looks"] = extra
    info["unseen"] = missing
    return trajectory, info
