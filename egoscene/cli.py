"""`egoscene` command line (one typer app, egoscene/cli_app.py): validate, generate, batch,
schema, formats, grid-score, check, audit, catalog, bench here; release, eval and sample in
egoscene/cli_dataset.py.

Every verb imports the stages it needs when it runs, so reading, checking and scoring work on
the base install (no Blender, no solver).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from egoscene.cli_options import (AuditBudget, LAYOUT_BUDGET_S, PROFILES, QUERIES_BUDGET_S, STAGES,
                                  WALK_BUDGET_S, Height, LayoutBudget, MaxFrames, Passes, PassesBudget, PerTask,
                                  Profile, QueriesBudget, RenderBudget, SCENE_BUDGET_S, SceneBudget, Seed, Specs,
                                  Until, WalkBudget, Width)

from egoscene.cli_app import (FAILED, INTERRUPTED, REFUSED, _command, _Interrupted, _refuse,
                              _require_release_extra, _require_render_extra, _say, app, console)


def _passes(value: str | None, until: str) -> tuple[str, ...] | None:
    if value is None:  # (without importing the pipeline)
        return None
    from egoscene.pipeline import STAGES, parse_passes

    try:
        passes = parse_passes(value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--passes") from None
    if passes and STAGES.index(until) < STAGES.index("render"):
        raise typer.BadParameter(f"passes need the render stage (--until {until} stops before it)", param_hint="--passes")
    return passes


def _choice(value: str, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(allowed)}", param_hint=name)
    return value


def _specs(paths: list[Path]) -> list[Path]:
    """Expand folders to their *.yaml files; keep the given order otherwise."""
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(path.glob("*.yaml")) + sorted(path.glob("*.yml")) if path.is_dir() else [path])
    return found


def _no_specs(paths: list[Path]) -> str | None:
    """A folder without scenario files is refused (as `batch` refuses no specs), not run as nothing."""
    for path in paths:
        if path.is_dir() and not any(path.glob("*.yaml")) and not any(path.glob("*.yml")):
            return (f"{path}: no scenario YAML files (*.yaml, *.yml) in this folder "
                    "(fix: name scenario files, or folders holding them)")
    return None


@_command()
def validate(specs: Specs,
             layout: Annotated[bool, typer.Option("--layout", help="also lay each one out, place its objects and "
                                                                   "plan its walk (writes nothing)")] = False,
             layout_budget: LayoutBudget = LAYOUT_BUDGET_S) -> int:
    """Check scenario YAML files (schema, limits, names, relations); no output is written.

    Every file is reported; exit status 2 when any is refused. A spec that passes will not
    make `generate` fail on its content (--layout also proves that it lays out in budget, its
    objects fit their rooms and its walk plans, and notes a spec whose rooms cannot give 3
    route plans)."""
    from generator.spec.scenario import SpecError, load_scenario
    from generator.spec.viewer_notes import untold_rooms

    if _no_specs(specs):
        return _refuse(_no_specs(specs))
    failures = internal = 0
    names: dict[str, Path] = {}
    for path in _specs(specs):
        try:
            scenario = load_scenario(path)
        except SpecError as exc:
            failures += 1
            for issue in exc.issues:
                _say(issue)
            continue
        except Exception as exc:  # a bug: report it, check the other files
            internal += 1
            _say(f"{path}: {type(exc).__name__}: {str(exc)[:300]}", "internal error")
            continue
        if scenario.name in names:
            failures += 1
            _say(f"{path}: name: {scenario.name!r} is already used by {names[scenario.name]} "
                 "(fix: give every scenario a unique name)")
            continue
        names[scenario.name] = path
        for note in untold_rooms(scenario):   # valid, but a viewer could not tell which room is meant
            _say(f"{path}: {note}", "note", "yellow")
        if layout:
            _require_render_extra("validate --layout")
            from egoscene.sample_check import furnished_scene, short_of_route_plans
            from generator.layout.plan import LayoutError
            from generator.walk.plan import WalkError

            try:  # the objects and the walk too: generate refuses a spec where they fail
                short = short_of_route_plans(scenario, furnished_scene(scenario, layout_budget))
            except (LayoutError, WalkError) as exc:  # (PlacementError is a LayoutError)
                failures += 1
                _say(exc)
                continue
            if short:   # generate makes it, with fewer than 30 questions
                _say(f"{path}: {short}; its scenario will be short of rule 6's 3 questions a task (fix: more "
                     "furniture a question can name in one room, some of it away from the walls)", "note", "yellow")
        objects = sum(o.count for r in scenario.rooms.values() for o in r.objects)
        _say(f"{path}: {scenario.name} ({len(scenario.rooms)} rooms, {objects} objects, "
             f"{len(scenario.floors)} floor{'s' if len(scenario.floors) > 1 else ''})", "ok", "green")
    return FAILED if internal else REFUSED if failures else 0


def _batch_names(paths: list[Path]) -> str | None:
    """Two specs of one run with the same name would write one folder: say which, else None."""
    from generator.spec.scenario import SpecError, load_scenario

    names: dict[str, Path] = {}
    for path in paths:
        try:
            name = load_scenario(path).name
        except SpecError:
            continue  # reported with the rest of that spec's run
        if name in names:
            return (f"{path}: name: {name!r} is also the name of {names[name]}; both would write {name}/ "
                    "(fix: give every scenario a unique name)")
        names[name] = path
    return None


@_command()
def generate(specs: Specs,
             out: Annotated[Path, typer.Option(help="output root; each scenario goes to OUT/<name>/")] = Path("outputs"),
             until: Until = STAGES[-1],
             profile: Profile = "preview",
             width: Width = 640,
             height: Height = 480,
             per_task: PerTask = 3,
             layout_budget: LayoutBudget = LAYOUT_BUDGET_S,
             scene_budget: SceneBudget = SCENE_BUDGET_S,
             walk_budget: WalkBudget = WALK_BUDGET_S,
             render_budget: RenderBudget = None,
             queries_budget: QueriesBudget = QUERIES_BUDGET_S,
             seed: Seed = None,
             max_frames: MaxFrames = None,
             passes: Passes = None,
             passes_budget: PassesBudget = None) -> int:
    """Build scenarios into OUT/<name>/, each published atomically (exit 2: input refused)."""
    _require_render_extra("generate")
    from formats.files import OutputError, check_output_root

    _choice(until, STAGES, "--until")
    _choice(profile, PROFILES, "--profile")
    if _no_specs(specs):
        return _refuse(_no_specs(specs))
    try:  # before importing the stages (seconds on a busy machine): a bad --out is refused at once
        check_output_root(out)
    except OutputError as exc:
        return _refuse(f"--out {exc}")
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from egoscene import pipeline
    from generator.layout.plan import LayoutError
    from generator.placement.place import PlacementError
    from generator.spec.scenario import SpecError
    from generator.walk.plan import WalkError
    from render.api import RenderError

    passes = _passes(passes, until)
    paths = _specs(specs)
    clash = _batch_names(paths)
    if clash:
        return _refuse(clash)
    failures = refused = 0
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=console, transient=False) as progress:
        overall = progress.add_task("scenarios", total=len(paths))
        for path in paths:
            shown = escape(path.name)  # (progress descriptions are markup too)
            task = progress.add_task(f"{shown}: starting", total=None)

            def on_stage(stage: str, task=task, path=path, shown=shown) -> None:
                progress.update(task, description=f"{shown}: {stage}", total=None, completed=0)
                if not console.is_terminal:  # logs and CI get plain lines instead of a live bar
                    _say(f"{path.name}: {stage}", "")

            def on_progress(done: int, total: int, task=task, path=path, shown=shown) -> None:
                progress.update(task, description=f"{shown}: render", total=total, completed=done)
                if not console.is_terminal and total and (done == total or done % max(1, total // 10) == 0):
                    _say(f"{path.name}: render {done}/{total} frames", "")

            options = pipeline.Options(until=until, profile=profile, width=width, height=height, per_task=per_task,
                                       layout_budget=layout_budget, scene_budget=scene_budget, walk_budget=walk_budget,
                                       seed=seed, passes=passes,
                                       render_budget=render_budget, queries_budget=queries_budget, max_frames=max_frames,
                                       passes_budget=passes_budget)
            try:
                result = pipeline.generate(path, out, options, on_stage=on_stage, on_progress=on_progress)
            except SpecError as exc:
                refused += 1
                progress.update(task, description=f"[red]{shown}: invalid spec[/red]", total=1, completed=1)
                for issue in exc.issues:
                    _say(issue)
            except (LayoutError, PlacementError, OutputError) as exc:
                refused += 1
                progress.update(task, description=f"[red]{shown}: refused[/red]", total=1, completed=1)
                _say(exc)
            except (pipeline.QueryCheckError, pipeline.QueryBudgetError, RenderError, WalkError) as exc:
                failures += 1
                progress.update(task, description=f"[red]{shown}: failed[/red]", total=1, completed=1)
                _say(exc)
            except Exception as exc:  # a bug: report it, keep going with the rest of the batch
                failures += 1
                progress.update(task, description=f"[red]{shown}: internal error[/red]", total=1, completed=1)
                _say(f"{path}: {type(exc).__name__}: {str(exc)[:500]}", "internal error")
            else:
                total = sum(result.timings.values())
                note = "up to date" if result.reused else f"{total:.1f} s"
                progress.update(task, description=f"[green]{shown}[/green] -> {escape(str(result.folder))} ({note})",
                                total=1, completed=1)
            progress.advance(overall)
    return FAILED if failures else REFUSED if refused else 0


@_command()
def batch(specs: Specs,
          out: Annotated[Path, typer.Option(help="output root (shared by every node with --ray); "
                                                 "OUT/<name>/ per scenario and OUT/batch.json")] = Path("outputs"),
          workers: Annotated[Optional[int], typer.Option(min=1, max=1024, help="scenarios at once (default: CPUs of "
                                                                               "this machine / --cpus-per-scenario)")] = None,
          retries: Annotated[int, typer.Option(min=0, max=10, help="extra attempts for a scenario whose worker "
                                                                   "or Blender crashed")] = 2,
          ray: Annotated[Optional[str], typer.Option(help="run on Ray: 'local' (start one here), 'auto' (join this "
                                                          "machine's cluster) or a cluster address")] = None,
          cpus_per_scenario: Annotated[float, typer.Option(min=0.1, max=256, help="CPUs one scenario needs "
                                                                                  "(Ray schedules by it)")] = 1.0,
          until: Until = STAGES[-1],
          profile: Profile = "preview",
          width: Width = 640,
          height: Height = 480,
          per_task: PerTask = 3,
          layout_budget: LayoutBudget = LAYOUT_BUDGET_S,
          scene_budget: SceneBudget = SCENE_BUDGET_S,
          walk_budget: WalkBudget = WALK_BUDGET_S,
          render_budget: RenderBudget = None,
          queries_budget: QueriesBudget = QUERIES_BUDGET_S,
          seed: Seed = None,
          max_frames: MaxFrames = None,
          passes: Passes = None,
          passes_budget: PassesBudget = None) -> int:
    """Build many scenarios in parallel worker processes (or Ray tasks), resumable.

    Finished, up-to-date scenarios are skipped; a scenario whose worker crashed is retried; Ctrl-C
    or a kill stops every worker, and running the same command again resumes (rendering from
    the frame cache). OUT/batch.json records each scenario's status, timings, error and output
    hash. Exit 0: all finished; 2: only refused specs; 1: failures (named)."""
    _require_render_extra("batch")
    from egoscene.batch.command import batch_command

    _choice(until, STAGES, "--until")
    _choice(profile, PROFILES, "--profile")
    if _no_specs(specs):
        return _refuse(_no_specs(specs))
    return batch_command(_specs(specs), out, console, workers=workers, retries=retries, ray=ray,
                         cpus_per_scenario=cpus_per_scenario, until=until, profile=profile, width=width, height=height,
                         per_task=per_task, layout_budget=layout_budget, scene_budget=scene_budget,
                         walk_budget=walk_budget,
                         render_budget=render_budget, queries_budget=queries_budget, seed=seed,
                         max_frames=max_frames, passes=_passes(passes, until), passes_budget=passes_budget)


@_command()
def schema(out: Annotated[Optional[Path], typer.Option(help="write it to this file instead of stdout")] = None) -> int:
    """Print the scenario YAML's JSON Schema (for editors)."""
    from generator.spec.scenario import json_schema

    text = json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
    if out:
        from formats.files import write_text

        try:
            write_text(out, text)
        except OSError as exc:
            return _refuse(f"schema --out {out}: cannot write it: {exc.strerror or exc} (fix: a file path in an existing, writable folder)")
        _say(f"wrote {out}", "")
    else:
        sys.stdout.write(text)
    return 0


@_command()
def formats(out: Annotated[Path, typer.Option(help="folder for one <kind>.schema.json per output file")] = Path("docs/formats")) -> int:
    """Export the JSON Schemas of the output files (scene, trajectory, visibility, ...)."""
    from formats.schemas import export_schemas

    for path in export_schemas(out):
        _say(f"wrote {path}", "")
    return 0


@_command("grid-score")
def grid_score(grid_json: Annotated[Path, typer.Argument(help="a scenario's grid.json")],
               prediction: Annotated[str, typer.Argument(help='model output (JSON or text); "-" for stdin')],
               floor: Annotated[Optional[int], typer.Option(help="score only this floor (default: all, averaged)")] = None) -> int:
    """Score a predicted 10x10 floor-plan grid against grid.json (mIoU)."""
    from queries.grid_score import format_table, score_file

    try:
        text = sys.stdin.read() if prediction == "-" else Path(prediction).read_text(encoding="utf-8", errors="replace")
        result = score_file(grid_json, text, floor)
    except (OSError, ValueError, KeyError, TypeError) as error:
        _say(f"egoscene grid-score: {error}")
        return 2
    print(format_table(result))
    print(json.dumps(result.to_dict(), sort_keys=True))
    return 0


@_command()
def check(outdir: Annotated[Path, typer.Argument(help="a finished scenario folder")],
          min_pixels: Annotated[Optional[int], typer.Option(help="video pixels an object covers in a frame that counts towards seen (default 0.1% of the frame)")] = None,
          min_frames: Annotated[Optional[int], typer.Option(help="consecutive such frames that make it seen (default 0.5 s)")] = None) -> int:
    """Recompute every answer of OUTDIR/queries.jsonl independently (docs/ground-truth.md); exit 1 on any problem."""
    from queries.check import run_check

    return run_check(outdir, min_pixels=min_pixels, min_frames=min_frames)


@_command()
def audit(outdir: Annotated[Path, typer.Argument(help="a finished scenario folder, e.g. outputs/scenario-01")],
          audit_budget: AuditBudget = None) -> int:
    """Write OUTDIR/audit/index.html and a PNG per question for checking the answers by eye.

    Each shows the question, its options and answer beside its evidence frames (the objects
    outlined from a fresh instance-ID pass) and the 32 uniformly sampled frames, marking those
    that show evidence. Exit 2: not a finished scenario folder; 1: the id pass failed or the
    audit ran past --audit-budget (Blender stopped, nothing written)."""
    _require_render_extra("audit")
    _require_release_extra("audit", ("PIL",))
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from egoscene.audit.run import AuditBudgetError, AuditError, load
    from egoscene.audit.run import audit as write_audit
    from formats.files import OutputError
    from render.api import RenderError

    try:
        loaded = load(outdir)
    except AuditError as exc:
        return _refuse(str(exc))
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=console, transient=False) as progress:
        current: list = []

        def on_stage(what: str, total: int | None) -> None:
            if current:                                # the step before is finished
                done = progress.tasks[-1].total or 1
                progress.update(current[0], total=done, completed=done)
            current[:] = [progress.add_task(escape(f"{outdir.name}: {what}"), total=total)]

        def on_advance(done: int, total: int) -> None:
            if current:
                progress.update(current[0], completed=done, total=total)

        try:
            index = write_audit(loaded, on_stage=on_stage, on_advance=on_advance, budget_s=audit_budget)
        except (AuditError, OutputError) as exc:
            _say(exc)
            return REFUSED
        except AuditBudgetError as exc:
            _say(exc)
            return FAILED
        except RenderError as exc:
            _say(f"{outdir}: the id pass failed: {exc}")
            return FAILED
    _say(f"wrote {index}", "")
    return 0


@_command()
def catalog(out: Annotated[Optional[Path], typer.Option(help="folder for catalog.png (a Blender render)")] = None,
            list_: Annotated[bool, typer.Option("--list", help="print the categories and their aliases (no Blender)")] = False) -> int:
    """Render every object category into one labelled contact sheet, or --list them as text."""
    if list_:
        from assets.catalog import CATEGORIES

        for name in sorted(CATEGORIES):
            aliases = CATEGORIES[name].aliases
            print(name + (f"  (also: {', '.join(aliases)})" if aliases else ""))
        return 0
    if out is None:
        return _refuse("egoscene catalog: give --out DIR for the contact sheet, or --list for the category names")
    _require_render_extra("catalog")
    from render.catalog import render_contact_sheet

    _say(f"wrote {render_contact_sheet(out)}", "")
    return 0


@_command()
def bench(spec: Annotated[Path, typer.Argument(help="one scenario YAML (with --batch: a YAML or a folder of them)")],
          profile: Annotated[str, typer.Option(help="preview or photoreal")] = "preview",
          width: Width = 640,
          height: Height = 480,
          keep: Annotated[Optional[Path], typer.Option(help="copy the generated scenario folder here")] = None,
          max_frames: Annotated[Optional[int], typer.Option(min=1, help="render only the first N frames (both runs)")] = None,
          batch: Annotated[bool, typer.Option("--batch", help="instead: throughput of `egoscene batch` with 1 and 2 "
                                                               "workers (video minutes and questions per CPU-hour)")] = False,
          workers: Annotated[Optional[list[int]], typer.Option(min=1, help="with --batch: worker counts to compare "
                                                                           "(repeatable; default 1 and 2)")] = None) -> int:
    """Time the pipeline against a bare bpy render of the same frames (or, with --batch, batch throughput)."""
    _require_render_extra("bench")
    if batch:
        from egoscene.bench_batch import run_batch_bench

        report = run_batch_bench(_specs([spec]), tuple(workers or (1, 2)), _choice(profile, PROFILES, "--profile"),
                                 width, height, max_frames)
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
        return 0
    from egoscene.bench import print_report, run_bench

    print_report(run_bench(spec, _choice(profile, PROFILES, "--profile"), width, height, keep, max_frames))
    return 0


import egoscene.cli_dataset  # noqa: E402,F401  (registers release, eval, sample after the verbs above)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code (tests call this with a list of arguments)."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="egoscene", standalone_mode=False)
    except _Interrupted:
        _say(INTERRUPTED, "")
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        console.print("aborted")
        return 130
    except typer.TyperException as exc:
        exc.show()
        return getattr(exc, "exit_code", 2)
    except Exception as exc:  # a bug: one line, not a traceback (EGOSCENE_TRACEBACK=1 shows it)
        if os.environ.get("EGOSCENE_TRACEBACK"):
            raise
        _say(f"{type(exc).__name__}: {str(exc)[:500]} "
             "(fix: a bug; run again with EGOSCENE_TRACEBACK=1 and report the traceback)", "internal error")
        return FAILED
    return code if isinstance(code, int) else 0


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
