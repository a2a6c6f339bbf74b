"""The batch: every spec into OUT/<name>/, N at a time, with batch.json kept current.

Before any worker starts, each spec is read in this process: unreadable specs are refused,
duplicate names refuse the batch (two specs would write one folder), and scenarios whose
folder is finished and up to date (same spec, options and code) are skipped as `reused`.
The rest run in worker processes (egoscene.batch.local) or Ray tasks; a scenario whose
worker crashed is run again up to `retries` times, resuming from its frame cache. Ctrl-C stops
every worker (and its Blender) and records the running scenarios as `interrupted`; re-running
the same command resumes. Scenario folders are published atomically by the pipeline, so
nothing half-written looks finished whatever happens to the batch.
"""

from __future__ import annotations

import fcntl
import os
import threading
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from egoscene.batch.worker import output_hash
from formats.base import load_model, write_model
from formats.batch import FINISHED, Batch, ScenarioState
from formats.files import OutputError

BATCH_FILE = "batch.json"


class BatchRefused(Exception):
    """The batch as a whole cannot run (duplicate names, an OUT in use by another batch)."""


@dataclass
class Entry:
    spec: Path
    name: str | None
    status: str = "pending"
    attempts: int = 0
    error: str | None = None
    timings_s: dict = field(default_factory=dict)
    seconds: float | None = None
    output_sha256: str | None = None
    stage: str = ""          # live only: what its worker is doing
    frames: tuple[int, int] | None = None

    def state(self) -> ScenarioState:
        return ScenarioState(spec=str(self.spec), name=self.name, status=self.status, attempts=self.attempts,
                             error=self.error, timings_s=self.timings_s, seconds=self.seconds,
                             output_sha256=self.output_sha256)


@contextmanager
def batch_lock(out: Path) -> Iterator[None]:
    """One batch per OUT at a time (a second one would fight over batch.json)."""
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / ".batch.json.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise BatchRefused(f"{out}: another `egoscene batch` is running into this folder "
                               "(fix: wait for it, or choose another --out)") from None
        try:
            yield
        finally:
            (out / ".batch.json.lock").unlink(missing_ok=True)  # while still held
    finally:
        os.close(fd)


def name_clash(spec: Path, name: str, owner: Path) -> str:
    return f"{spec}: name: {name!r} is also the name of {owner}; both would write {name}/ (fix: give every scenario a unique name)"


def prepare(specs: list[Path], out: Path, options) -> list[Entry]:
    """Read every spec here: refused ones and finished folders never reach a worker."""
    from egoscene import pipeline
    from generator.spec.scenario import SpecError, load_scenario

    entries: list[Entry] = []
    owners: dict[str, Path] = {}
    for spec in specs:
        try:
            scenario = pipeline.with_seed(load_scenario(spec), options.seed)
        except SpecError as exc:
            entries.append(Entry(spec, None, status="refused", error=str(exc)[:2000]))
            continue
        if scenario.name in owners:
            raise BatchRefused(name_clash(spec, scenario.name, owners[scenario.name]))
        owners[scenario.name] = spec
        entry = Entry(spec, scenario.name)
        folder = pipeline.finished_folder(scenario, out, options)
        if folder is not None:
            entry.status, entry.output_sha256 = "reused", output_hash(folder)
        entries.append(entry)
    return entries


class BatchRun:
    """The live state of one batch run; every change is written to OUT/batch.json."""

    def __init__(self, entries: list[Entry], out: Path, backend_name: str, workers: int, retries: int, options):
        self.entries, self.out, self.retries = entries, out, retries
        self.header = {"backend": backend_name, "workers": workers, "retries": retries,
                       "options": dict(options.__dict__)}
        self.lock = threading.Lock()
        self.changed = threading.Event()

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for e in self.entries:
            counts[e.status] = counts.get(e.status, 0) + 1
        return dict(sorted(counts.items()))

    def save(self) -> None:
        with self.lock:
            data = {"format": Batch.FORMAT, **self.header, "counts": self.counts(),
                    "scenarios": [e.state() for e in self.entries]}
        write_model(self.out / BATCH_FILE, load_model(data, Batch, f"{BATCH_FILE} as written by egoscene batch"))

    def event(self, entry: Entry, event: dict) -> None:
        """From worker threads: a stage or frame count of a running scenario."""
        with self.lock:
            kind = event.get("event")
            if kind == "start":
                entry.status, entry.stage, entry.frames = "running", "starting", None
                entry.attempts += 1
            elif kind == "stage":
                entry.stage, entry.frames = event["stage"], None
            elif kind == "progress":
                entry.frames = (event["done"], event["total"])
        self.changed.set()

    def finish(self, entry: Entry, result: dict) -> None:
        with self.lock:
            entry.status = result["status"]
            entry.error = result.get("error")
            entry.timings_s = result.get("timings_s") or {}
            entry.seconds = result.get("seconds")
            entry.output_sha256 = result.get("output_sha256")
            entry.name = result.get("name") or entry.name
            entry.stage, entry.frames = "", None
        self.changed.set()


def run_batch(specs: list[Path], out: Path, options, backend, retries: int = 1,
              on_change: Callable[["BatchRun"], None] = lambda batch: None, poll_s: float = 0.5) -> "BatchRun":
    """Run the batch to the end (or to Ctrl-C: KeyboardInterrupt propagates after the workers
    are stopped and batch.json says which scenarios were interrupted)."""
    if not out.exists() or not out.is_dir():
        raise OutputError(f"{out}: not a folder")
    with batch_lock(out):
        entries = prepare(specs, out, options)
        batch = BatchRun(entries, out, backend.name, backend.workers, retries, options)
        batch.save()
        running: dict[Future, Entry] = {}
        opts = dict(options.__dict__)

        def submit(entry: Entry) -> None:
            future = backend.submit(id(entry), str(entry.spec), str(out), opts, lambda ev, e=entry: batch.event(e, ev))
            running[future] = entry

        try:
            for entry in entries:
                if entry.status == "pending":
                    submit(entry)
            on_change(batch)
            while running:
                done, _ = wait(list(running), timeout=poll_s, return_when=FIRST_COMPLETED)
                for future in done:
                    entry = running.pop(future)
                    try:
                        result = future.result()
                    except Exception as exc:  # the task itself failed (a Ray node died, a cancelled task)
                        result = {"status": "crashed", "error": f"the task failed: {type(exc).__name__}: {exc}"[:2000]}
                    batch.finish(entry, result)
                    if entry.status == "crashed" and entry.attempts <= retries:
                        submit(entry)
                if done or batch.changed.is_set():
                    batch.changed.clear()
                    batch.save()
                    on_change(batch)
        except BaseException:
            backend.stop_all()
            with batch.lock:
                for entry in batch.entries:
                    if entry.status in ("running", "pending"):
                        entry.status, entry.stage, entry.frames = "interrupted", "", None
            batch.save()
            raise
        finally:
            backend.close()
        batch.save()
        on_change(batch)
        return batch


def unfinished(batch: "BatchRun") -> list[Entry]:
    return [e for e in batch.entries if e.status not in FINISHED]

