"""The one progress display of a batch: scenarios done / failed / running with an ETA, and a
line per running scenario (its stage, or its frames while rendering). In logs and CI (stderr
not a terminal) it prints one plain line whenever a scenario changes state."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)

from egoscene.batch.run import BatchRun
from formats.batch import FINISHED

ENDED = FINISHED + ("refused", "failed")


class BatchDisplay:
    def __init__(self, console: Console, total: int):
        self.console = console
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=console)
        self.overall = self.progress.add_task("scenarios", total=total)
        self.lines: dict[int, int] = {}   # entry index -> its progress line
        self.said: dict[int, str] = {}    # entry index -> last status printed (plain mode)

    def __enter__(self) -> "BatchDisplay":
        self.progress.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.progress.__exit__(*exc)

    def update(self, batch: BatchRun) -> None:
        with batch.lock:
            entries = [(i, escape(e.name or e.spec.name), e.status, e.stage, e.frames, e.error, e.attempts)
                       for i, e in enumerate(batch.entries)]
            counts = batch.counts()
        ended = sum(counts.get(s, 0) for s in ENDED)
        bad = counts.get("refused", 0) + counts.get("failed", 0) + counts.get("crashed", 0)
        self.progress.update(self.overall, completed=ended,
                             description=f"scenarios: {counts.get('done', 0)} done, {counts.get('reused', 0)} up to date, "
                                         f"{bad} not finished, {counts.get('running', 0)} running")
        for i, name, status, stage, frames, error, attempts in entries:
            self._line(i, name, status, stage, frames)
            if status != self.said.get(i) and status not in ("pending",):
                self.said[i] = status
                if status in ("refused", "failed", "crashed"):
                    self.progress.console.print(f"[red]{status}[/red] {name} (attempt {attempts}): {escape(str(error))}", highlight=False)
                elif not self.console.is_terminal:
                    self.console.print(f"{name}: {status}", highlight=False)

    def _line(self, i: int, name: str, status: str, stage: str, frames) -> None:
        if status == "running":
            if i not in self.lines:
                self.lines[i] = self.progress.add_task(name, total=None)
            if frames:
                self.progress.update(self.lines[i], description=f"  {name}: render", completed=frames[0], total=frames[1])
            else:
                self.progress.update(self.lines[i], description=f"  {name}: {stage}", total=None, completed=0)
        elif i in self.lines:
            self.progress.remove_task(self.lines.pop(i))
