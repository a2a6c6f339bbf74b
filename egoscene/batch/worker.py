"""One scenario of a batch in this (fresh) process:

    python -m egoscene.batch.worker SPEC OUT OPTIONS_JSON

OPTIONS_JSON holds the fields of egoscene.pipeline.Options. stdout carries lines
`egoscene-batch <json>`: {"event": "stage", "stage"}, {"event": "progress", "done", "total"}
and, last, {"event": "result", ...} (see `run_scenario`); anything else on stdout is ignored.
Exit status 0 whenever a result was reported (even a refusal), 130 when stopped.

The worker dies with its parent (Linux: PR_SET_PDEATHSIG), and SIGTERM stops it like Ctrl-C,
so the Blender process below it is stopped too (render.api) and nothing is left running.
"""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path
from typing import Callable

MARK = "egoscene-batch "
ERROR_CHARS = 2000  # batch.json keeps one bounded message per scenario


KNOWN_ERRORS = ("SpecError", "LayoutError", "PlacementError", "OutputError", "RenderError", "QueryCheckError",
                "WalkError")


def classify(exc: BaseException) -> str:
    """refused (the input: retrying cannot help), crashed (Blender died: worth another try) or
    failed (the independent check, a bug: the same inputs fail the same way)."""
    from formats.files import OutputError
    from generator.layout.plan import LayoutError  # PlacementError is one
    from generator.spec.scenario import SpecError
    from render.api import RenderError

    if isinstance(exc, (SpecError, LayoutError, OutputError)):
        return "refused"
    return "crashed" if isinstance(exc, RenderError) else "failed"


def describe(exc: BaseException) -> str:
    """One bounded message: the error's own text, or `internal error: <type>: ...` for a bug."""
    known = any(cls.__name__ in KNOWN_ERRORS for cls in type(exc).__mro__)
    text = str(exc) if known else f"internal error: {type(exc).__name__}: {exc}"
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def scenario_name(spec: Path, seed: int | None) -> str | None:
    """The output folder name of a spec (its name, `-s<seed>` for a seed override), None if unreadable."""
    from egoscene.pipeline import with_seed
    from generator.spec.scenario import SpecError, load_scenario

    try:
        return with_seed(load_scenario(spec), seed).name
    except SpecError:
        return None


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
    "output_sha256"} with status done, reused, refused, failed or crashed."""
    from egoscene import pipeline
    started = time.perf_counter()
    result = {"status": "failed", "name": None, "error": None, "timings_s": {}, "seconds": None, "output_sha256": None}
    try:
        generated = pipeline.generate(
            spec, out, pipeline.Options(**options),
            on_stage=lambda stage: emit({"event": "stage", "stage": stage}),
            on_progress=lambda done, total: emit({"event": "progress", "done": done, "total": total}))
    except Exception as exc:  # every failure is reported as a result; KeyboardInterrupt stops the worker
        result.update(status=classify(exc), error=describe(exc), name=scenario_name(spec, options.get("seed")))
    else:
        result.update(status="reused" if generated.reused else "done", name=generated.scenario.name,
                      timings_s={k: round(v, 3) for k, v in generated.timings.items()},
                      output_sha256=output_hash(generated.folder))
    result["seconds"] = round(time.perf_counter() - started, 3)
    return result


def _die_with_parent() -> None:
    """Linux: ask the kernel to send SIGTERM when the batch process dies (even by kill -9)."""
    try:
        import ctypes
        import os

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent died before the call above
            raise SystemExit(130)
    except (OSError, AttributeError):
        pass  # not Linux: the batch stops its workers itself on Ctrl-C


def _stop_on_sigterm(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    spec, out, options = (argv if argv is not None else sys.argv[1:])[:3]
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    _die_with_parent()

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
