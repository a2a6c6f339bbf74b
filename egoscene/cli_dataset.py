"""`egoscene` verbs for datasets: release, eval, sample (registered on the app of cli_app)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from egoscene.cli_app import _command, _input_error, _refuse, _require_release_extra, _require_render_extra, _say


@_command()
def release(outs: Annotated[Optional[list[Path]], typer.Argument(help="finished scenario folders")] = None,
            out: Annotated[Optional[Path], typer.Option(help="the release folder to write")] = None,
            verify: Annotated[Optional[Path], typer.Option(help="check a release folder against its SHA256SUMS")] = None) -> int:
    """Build one dataset folder (loadable by `datasets`) from finished scenario folders, or --verify one."""
    if verify is not None:
        from egoscene.release.verify import verify as check_sums

        problems = check_sums(verify)
        for problem in problems:
            _say(f"{verify}: {problem}")
        if not problems:
            _say(f"{verify}: every file matches SHA256SUMS", "ok", "green")
        return 1 if problems else 0
    if out is None or not outs:
        return _input_error("release needs scenario folders and --out REL (fix: `egoscene release OUT/scenario-01 ... "
                       "--out REL`, or `egoscene release --verify REL`)")
    _require_release_extra("release", ("pyarrow", "av", "PIL", "scipy", "matplotlib"))
    from egoscene.release.build import build_release
    from egoscene.release.collect import ReleaseError
    from formats.base import FormatError

    try:
        path = build_release(outs, out)
    except (ReleaseError, FormatError) as exc:
        return _input_error(str(exc))
    _say(f"wrote {path}", "")
    return 0


@_command(name="eval")
def eval_(predictions: Annotated[Path, typer.Argument(help="JSONL: id, prediction, optional model and run")],
          release_dir: Annotated[Path, typer.Option("--release", help="the release folder")],
          reference: Annotated[Optional[str], typer.Option(help="model to t-test every other model against")] = None,
          out: Annotated[Optional[Path], typer.Option(help="report folder (default: PREDICTIONS stem + .eval)")] = None) -> int:
    """Score predictions against a release: results.json, results.md (Table 3 layout), charts/."""
    _require_release_extra("eval", ("scipy", "matplotlib"))
    from egoscene.eval.run import run_eval
    from egoscene.eval.score import EvalError
    from formats.base import FormatError

    try:
        scores = run_eval(predictions, release_dir, reference, out)
    except (EvalError, FormatError) as exc:
        return _input_error(str(exc))
    from egoscene.eval.report import table

    print(table(scores), end="")
    _say(f"wrote {scores['out']}/results.json, results.md, charts/", "")
    return 0


@_command()
def sample(n: Annotated[int, typer.Option("--n", min=1, max=10000, help="how many scenarios")],
           seed: Annotated[int, typer.Option("--seed", min=0, help="same seed, same files")],
           out: Annotated[Path, typer.Option("--out", help="folder for <name>.yaml and summary.json")],
           typology: Annotated[Optional[list[str]], typer.Option(
               "--typology", help="apartment, one-story house, multi-story house or office (repeatable; "
                                  "default: a paper-like mix)")] = None,
           check: Annotated[bool, typer.Option(help="lay out and place each spec (relations need it)")] = True,
           route_check: Annotated[bool, typer.Option(
               help="draw a spec again when its rooms cannot give 3 route plans even with every object "
                    "seen (plans its walk: about 4 s more a spec; needs --check)")] = True) -> int:
    """Sample new scenario specs with the paper's statistics (rooms, objects, relations)."""
    if check:
        _require_render_extra("sample")
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from egoscene.cli_app import console
    from generator.spec import sample as sampler, sample_report

    # each checked spec is laid out and placed and its walk planned (about 18 s; 100 take some
    # 30 minutes): a bar with an estimate, and a line per spec above it (on stderr, like every
    # other message)
    with Progress(TextColumn("sampling"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(), console=console,
                  transient=True) as progress:
        bar = progress.add_task("sample", total=n)

        def on_spec(s) -> None:
            _say(f"{s.stats['name']}: {s.stats['typology']}, {s.stats['rooms']} rooms, {s.stats['objects']} objects"
                 + (f" (kept, although in every one of {sampler.REDRAWS} draws {s.short})" if s.short else ""), "")
            sample_report.write_spec(s, out)   # an interrupted run keeps the specs it drew
            progress.advance(bar)

        try:
            accept = None
            if check and route_check:
                from egoscene.sample_check import short_of_route_plans as accept
            drafts = sampler.sample(n, seed, typology, check=check, on_spec=on_spec, accept=accept)
        except sampler.SampleError as exc:
            progress.stop()
            drawn = int(progress.tasks[0].completed)
            kept = (f" ({drawn} spec{'s' if drawn > 1 else ''} drawn before it in {out}; summary.json is "
                    "written only when every spec is drawn)") if drawn else ""
            return _refuse(f"{exc}{kept}")
    report = sample_report.write_batch(drafts, out)
    print(sample_report.format_table(report), end="")
    _say(f"wrote {n} specs and summary.json to {out}", "")
    return 0
