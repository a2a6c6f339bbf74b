"""The body of `egoscene batch` (egoscene.cli parses the options): checks, backend, display,
the summary and the exit status."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from rich.console import Console
from rich.markup import escape

REFUSED, FAILED = 2, 1  # egoscene.cli's exit statuses


def _stop(signum, frame):
    raise KeyboardInterrupt


def _read_specs(paths: list[Path], console: Console) -> int | None:
    """Refuse here (REFUSED, nothing written under OUT) when no spec would reach a worker: every
    one refused (each issue printed), or two with one name; else None. The batch reads them
    again under its lock (egoscene.batch.run.prepare), recording the refused ones in batch.json."""
    from egoscene.batch.run import name_clash
    from generator.spec.scenario import SpecError, load_scenario

    refused: list[SpecError] = []
    owners: dict[str, Path] = {}
    for path in paths:
        try:
            name = load_scenario(path).name
        except SpecError as exc:
            refused.append(exc)
            continue
        if name in owners:
            console.print(f"[red]error[/red] {escape(name_clash(path, name, owners[name]))}", highlight=False)
            return REFUSED
        owners[name] = path
    if refused and len(refused) == len(paths):
        for exc in refused:
            for issue in exc.issues:
                console.print(f"[red]error[/red] {escape(str(issue))}", highlight=False)
        return REFUSED
    return None


def batch_command(paths: list[Path], out: Path, console: Console, *, workers: int | None, retries: int, ray: str | None,
                  cpus_per_scenario: float, max_frames: int | None, **generate_options) -> int:
    from formats.files import OutputError, check_output_root

    def refuse(message: str) -> int:
        console.print(f"[red]error[/red] {escape(message)}", highlight=False)  # ([brackets] of the message kept)
        return REFUSED

    if not paths:
        return refuse("no scenario YAML files given (fix: name files or folders holding *.yaml)")
    try:  # before importing the stages (seconds on a busy machine): a bad --out is refused at once
        check_output_root(out)
    except OutputError as exc:
        return refuse(f"--out {exc}")
    refusal = _read_specs(paths, console)  # before OUT is made or a backend started
    if refusal is not None:
        return refusal
    from egoscene import pipeline
    from egoscene.batch.display import BatchDisplay
    from egoscene.batch.run import BatchRefused, run_batch, unfinished
    workers = workers or max(1, int((os.cpu_count() or 1) // cpus_per_scenario))
    if ray:
        from egoscene.batch.ray_backend import RayBackend, RayMissing

        try:
            backend = RayBackend(ray, workers, cpus_per_scenario)
        except RayMissing as exc:
            return refuse(str(exc))
    else:
        from egoscene.batch.local import LocalBackend

        backend = LocalBackend(workers)
    options = pipeline.Options(max_frames=max_frames, **generate_options)
    out.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, _stop)  # `kill PID` stops the batch like Ctrl-C: workers stopped, state saved
    display = BatchDisplay(console, total=len(paths))
    try:
        with display:
            result = run_batch(paths, out, options, backend, retries=retries, on_change=display.update)
    except BatchRefused as exc:
        backend.close()
        return refuse(str(exc))
    except KeyboardInterrupt:
        console.print(f"stopped; {escape(str(out / 'batch.json'))} records where each scenario stands "
                      "(run the same command again to resume)", highlight=False)
        return 130
    left = unfinished(result)
    counts = result.counts()
    console.print(f"batch: {counts.get('done', 0)} done, {counts.get('reused', 0)} up to date, {len(left)} not "
                  f"finished -> {escape(str(out / 'batch.json'))}", highlight=False)
    if not left:
        return 0
    for entry in left:
        console.print(f"[red]{entry.status}[/red] {escape(f'{entry.name or entry.spec}: {entry.error}')}", highlight=False)
    return REFUSED if all(e.status == "refused" for e in left) else FAILED
