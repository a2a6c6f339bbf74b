"""`egoscene` command line: validate, generate, schema, grid-score, check, catalog."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from egoscene import pipeline
from generator.layout.plan import LayoutError
from generator.placement.place import PlacementError
from generator.spec.scenario import SpecError, json_schema, load_scenario

console = Console(stderr=True)


def _specs(paths: list[str]) -> list[Path]:
    """Expand folders to their *.yaml files; keep the given order otherwise."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        found.extend(sorted(path.glob("*.yaml")) + sorted(path.glob("*.yml")) if path.is_dir() else [path])
    return found


def cmd_validate(args) -> int:
    failures = 0
    names: dict[str, Path] = {}
    for path in _specs(args.specs):
        try:
            scenario = load_scenario(path)
        except SpecError as exc:
            failures += 1
            for issue in exc.issues:
                console.print(f"[red]error[/red] {issue}", highlight=False)
            continue
        if scenario.name in names:
            failures += 1
            console.print(f"[red]error[/red] {path}: name: {scenario.name!r} is already used by {names[scenario.name]} "
                          "(fix: give every scenario a unique name)", highlight=False)
            continue
        names[scenario.name] = path
        if args.layout:
            from generator.layout.plan import layout, plan_to_scene

            try:
                plan_to_scene(layout(scenario))
            except LayoutError as exc:
                failures += 1
                console.print(f"[red]error[/red] {exc}", highlight=False)
                continue
        objects = sum(o.count for r in scenario.rooms.values() for o in r.objects)
        console.print(f"[green]ok[/green] {path}: {scenario.name} ({len(scenario.rooms)} rooms, {objects} objects, "
                      f"{len(scenario.floors)} floor{'s' if len(scenario.floors) > 1 else ''})", highlight=False)
    return 1 if failures else 0


def cmd_generate(args) -> int:
    specs = _specs(args.specs)
    failures = 0
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=console, transient=False) as progress:
        overall = progress.add_task("scenarios", total=len(specs))
        for path in specs:
            task = progress.add_task(f"{path.name}: starting", total=None)

            def on_stage(stage: str, task=task, path=path) -> None:
                progress.update(task, description=f"{path.name}: {stage}", total=None, completed=0)
                if not console.is_terminal:  # logs and CI get plain lines instead of a live bar
                    console.print(f"{path.name}: {stage}", highlight=False)

            def on_progress(done: int, total: int, task=task, path=path) -> None:
                progress.update(task, description=f"{path.name}: render", total=total, completed=done)
                if not console.is_terminal and total and (done == total or done % max(1, total // 10) == 0):
                    console.print(f"{path.name}: render {done}/{total} frames", highlight=False)

            options = pipeline.Options(until=args.until, profile=args.profile, width=args.width, height=args.height,
                                       per_task=args.per_task)
            try:
                result = pipeline.generate(path, Path(args.out), options, on_stage=on_stage, on_progress=on_progress)
            except SpecError as exc:
                failures += 1
                progress.update(task, description=f"[red]{path.name}: invalid spec[/red]", total=1, completed=1)
                for issue in exc.issues:
                    progress.console.print(f"[red]error[/red] {issue}", highlight=False)
            except (LayoutError, PlacementError, pipeline.CoverageError, pipeline.QueryCheckError, RuntimeError) as exc:
                failures += 1
                progress.update(task, description=f"[red]{path.name}: failed[/red]", total=1, completed=1)
                progress.console.print(f"[red]error[/red] {exc}", highlight=False)
            except Exception as exc:  # a bug: report it, keep going with the rest of the batch
                failures += 1
                progress.update(task, description=f"[red]{path.name}: internal error[/red]", total=1, completed=1)
                progress.console.print(f"[red]internal error[/red] {path}: {type(exc).__name__}: {exc}", highlight=False)
            else:
                total = sum(result.timings.values())
                note = "up to date" if result.reused else f"{total:.1f} s"
                progress.update(task, description=f"[green]{path.name}[/green] -> {result.folder} ({note})", total=1, completed=1)
            progress.advance(overall)
    return 1 if failures else 0


def cmd_schema(args) -> int:
    text = json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        console.print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_grid_score(args) -> int:
    from queries.grid_score import main as grid_score_main

    return grid_score_main(args.rest)


def cmd_bench(args) -> int:
    from egoscene.bench import print_report, run_bench

    report = run_bench(Path(args.spec), args.profile, args.width, args.height, Path(args.keep) if args.keep else None,
                       args.max_frames)
    print_report(report)
    return 0


def cmd_check(args) -> int:
    from queries.check import main as check_main

    return check_main(args.rest)


def cmd_catalog(args) -> int:
    from render.catalog import render_contact_sheet

    path = render_contact_sheet(Path(args.out))
    console.print(f"wrote {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="egoscene", description="Synthetic egocentric scenarios with exactly known answers.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check scenario YAML files (schema, names, relations)")
    p.add_argument("specs", nargs="+", help="scenario YAML files or folders")
    p.add_argument("--layout", action="store_true", help="also lay each one out (writes nothing)")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("generate", help="build scenarios into DIR/<name>/")
    p.add_argument("specs", nargs="+", help="scenario YAML files or folders")
    p.add_argument("--out", default="outputs", help="output root (default: outputs)")
    p.add_argument("--until", default=pipeline.STAGES[-1], choices=pipeline.STAGES, help="stop after this stage")
    p.add_argument("--profile", default="preview", choices=pipeline.PROFILES, help="preview: Workbench; photoreal: Cycles")
    p.add_argument("--width", type=int, default=640)
    p.add_argument("--height", type=int, default=480)
    p.add_argument("--per-task", type=int, default=3, help="questions per task (when the scene allows)")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("schema", help="print the scenario JSON Schema")
    p.add_argument("--out", help="write it to this file instead")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("grid-score", help="score a predicted floor-plan grid: GRID_JSON PREDICTION_FILE [--floor N]")
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_grid_score)

    p = sub.add_parser("bench", help="time the pipeline against a bare bpy render of the same frames")
    p.add_argument("spec")
    p.add_argument("--profile", default="preview", choices=pipeline.PROFILES)
    p.add_argument("--width", type=int, default=640)
    p.add_argument("--height", type=int, default=480)
    p.add_argument("--keep", help="copy the generated scenario folder here")
    p.add_argument("--max-frames", type=int, help="render only the first N frames of the walk (both runs)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("check", help="recompute every answer of OUTDIR/queries.jsonl: OUTDIR [--min-pixels N]")
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("catalog", help="render every object category into one labelled contact sheet")
    p.add_argument("--out", required=True, help="folder for catalog.png")
    p.set_defaults(func=cmd_catalog)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
