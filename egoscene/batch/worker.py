"""One scenario of a batch in this (fresh) process:

    python -m egoscene.batch.worker SPEC OUT OPTIONS_JSON

OPTIONS_JSON holds the fields of egoscene.pipeline.Options. stdout carries lines
`egoscene-batch <json>`: {"event": "stage", "stage"}, {"event": "progress", "done", "total"}
and, last, {"event": "result", ...} (see `run_scenario`); anything else on stdout is ignored.
Exit status 0 whenever a result was reported (even a refusal), 130 when stopped.

The worker dies with its parent (render.lifeline: SIGTERM when the batch process ends, even by
kill -9), and SIGTERM stops it like Ctrl-C, so the Blender process below it is stopped too
(render.api) and nothing is left running. A stop that has not ended the worker within
STOP_GRACE_S ends it outright: Blender dies with it (render.lifeline) and the next run removes
its staging folder (formats.files.staged_folder).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from render.lifeline import die_with_parent

MARK = "egoscene-batch "
ERROR_CHARS = 2000  # batch.json keeps one bounded message per scenario
STOP_GRACE_S = 10.0  # from SIGTERM to the end of the process (render.api gives Blender 5 s of it)
_deadline: threading.Timer | None = None


def known_errors() -> dict[str, tuple[type[BaseException], ...]]:
    """The errors whose message says it all, by the status they give (first match wins): refused
    (the input: retrying cannot help), failed (a budget, the independent check: the same inputs
    fail the same way) and crashed (Blender died: worth another try)."""
    from egoscene.pipeline import QueryBudgetError, QueryCheckError
    from formats.files import OutputError
    from generator.layout.plan import LayoutError  # PlacementError is one
    from generator.spec.scenario import SpecError
    from generator.walk.plan import WalkError
    from render.api import RenderBudgetError, RenderError

    return {"refused": (SpecError, LayoutError, OutputError),
            "failed": (RenderBudgetError, QueryBudgetError, QueryCheckError, WalkError),  # before its RenderError
            "crashed": (RenderError,)}


def classify(exc: BaseException) -> str:
    """refused, failed or crashed (known_errors); any other exception, a bug, failed."""
    return next((status for status, kinds in known_errors().items() if isinstance(exc, kinds)), "failed")


def describe(exc: BaseException) -> str:
    """One bounded message: the error's own text, or `internal error: <type>: ...` for a bug."""
    known = any(isinstance(exc, kinds) for kinds in known_errors().values())
    text = str(exc) if known else f"internal error: {type(exc).__name__}: {exc}"
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def output_hash(folder: Path) -> str:
    """sha256 over the published files' own sha256s (manifest.json's `files`): equal exactly when
    two runs published the same bytes (the manifest's timings are left out)."""
    import hashlib

    from formats.base import read_model
    from formats.manifest import Manifest

    files = read_model(folder / "manifest.json", Manifest).files
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def run_scenario(spec: Path, out: Path, options: dict, emit: Callable[[dict], None] = lambda event: None) -> dict:
    """Generate one scenario; returns {"status", "name", "error", "timings_s", "seconds",
    "output_sha256"} with status done, reused, refused, failed or crashed. `name` is None when it
    did not finish: the batch knows it from reading the spec (batch.run.prepare)."""
    from egoscene import pipeline
    started = time.perf_counter()
    result = {"status": "failed", "name": None, "error": None, "timings_s": {}, "seconds": None, "output_sha256": None}
    try:
        generated = pipeline.generate(
            spec, out, pipeline.Options(**options),
            on_stage=lambda stage: emit({"event": "stage", "stage": stage}),
            on_progress=lambda done, total: emit({"event": "progress", "done": done, "total": total}))
    except Exception as exc:  # every failure is reported as a result; KeyboardInterrupt stops the worker
        result.update(status=classify(exc), error=describe(exc))
    else:
        result.update(status="reused" if generated.reused else "done", name=generated.scenario.name,
                      timings_s={k: round(v, 3) for k, v in generated.timings.items()},
                      output_sha256=output_hash(generated.folder))
    result["seconds"] = round(time.perf_counter() - started, 3)
    return result


def _stop_on_sigterm(signum, frame):
    """Stop like Ctrl-C, and end the process if that has not ended it within STOP_GRACE_S.
    A worker whose batch was killed mid-render once ran on for over a minute (CI, stop 37; not
    reproduced here). The interrupt is one exception raised wherever the main thread happens to
    be, and Python drops one raised inside a finaliser (`Exception ignored in ...`); the timer
    does not depend on where it lands."""
    global _deadline
    if _deadline is None:
        _deadline = threading.Timer(STOP_GRACE_S, os._exit, (130,))
        _deadline.daemon = True
        _deadline.start()
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    spec, out, options = (argv if argv is not None else sys.argv[1:])[:3]
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    die_with_parent(signal.SIGTERM)

    def emit(event: dict) -> None:
        sys.stdout.write(MARK + json.dumps(event, sort_keys=True) + "\n")
        sys.stdout.flush()

    try:
        result = run_scenario(Path(spec), Path(out), json.loads(options), emit)
    except KeyboardInterrupt:
        return 130
    emit({"event": "result", **result})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
