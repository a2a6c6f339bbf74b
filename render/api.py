"""The renderer's facade: `render(scene.json, trajectory.json, work) -> video, visibility`.

Blender runs in a fresh process per call (its memory grows across scenes); this module
itself never imports bpy, so the application can call it from any environment.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from render.lifeline import child_env

PROFILES = ("preview", "photoreal")
PASSES = ("masks", "depth", "glb")  # optional outputs (render.passes), in this order


class RenderError(RuntimeError):
    """The Blender process failed; the message carries the tail of its log."""


class RenderCrashError(RenderError):
    """Blender died of a signal of its own (an abort or a segfault, not a stop from outside)."""


# signals of a crash: Blender has died mid-render now and then on this machine's software GL
# (an abort, exit -6, with nothing in its log: once in a 100-scenario batch, once in a bench);
# run again, it resumes from the frame cache
CRASH_SIGNALS = frozenset((signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL))
CRASH_RETRIES = 1


class RenderBudgetError(RenderError):
    """The Blender process ran past its time budget and was stopped; what it finished stays in
    its frame cache. `progress`: its last (done, total) frames, or None before the first."""

    def __init__(self, message: str, progress: tuple[int, int] | None):
        super().__init__(message)
        self.progress = progress


@dataclass(frozen=True)
class Rendered:
    video: Path       # work/video.mp4, H.264
    visibility: Path  # work/visibility.json
    stats: dict = field(default_factory=dict, compare=False)  # render.run's report: status, rendered, timings_s


def render(scene_json: Path, trajectory_json: Path, work: Path, *, profile: str = "preview",
           on_progress: Callable[[int, int], None] = lambda done, total: None,
           budget_s: float | None = None, trim: bool = True) -> Rendered:
    """Render the walk of `trajectory_json` through the scene into `work` (which also holds the
    resumable frame cache). Frame size, field of view and the visibility threshold are those of
    the camera recorded in trajectory.json (formats.camera.Camera). Raises RenderError with the
    end of Blender's log on failure, RenderBudgetError when it ran past `budget_s` wall seconds
    (Blender is stopped, the frame cache kept: a later call resumes). When Blender crashes
    (CRASH_SIGNALS) it is started again, CRASH_RETRIES times, and resumes from the frame cache
    (`stats["crashes"]` says what it died of). `trim=False` keeps cached frames this walk does
    not use (other walks of the scene rendered into `work` may need them)."""
    with RenderSession(scene_json, work, profile=profile) as session:
        return session.render(trajectory_json, on_progress=on_progress, budget_s=budget_s, trim=trim)


class RenderSession:
    """One Blender process (render.serve) for the walks of one scene rendered into `work`, as
    the coverage loop renders a walk and then its extensions: Python, bpy and the scene build
    are paid once. Given the `camera` the walks will have, it builds the scene as soon as it is
    created, so the caller can plan the first walk meanwhile. Use it as a context manager;
    `render()` is the module's render() on this process: a crashed process is started again."""

    def __init__(self, scene_json: Path, work: Path, *, profile: str = "preview", camera=None):
        if profile not in PROFILES:
            raise ValueError(f"profile must be one of {', '.join(PROFILES)}")
        self._cmd = [sys.executable, "-m", "render.serve", str(scene_json), str(work), "--profile", profile]
        if camera is not None:
            from formats.base import dump_model

            self._cmd += ["--camera", json.dumps(dump_model(camera))]
        self._work = Path(work)
        self._proc: subprocess.Popen | None = _spawn(self._cmd, stdin=subprocess.PIPE)

    def render(self, trajectory_json: Path, *, on_progress: Callable[[int, int], None] = lambda done, total: None,
               budget_s: float | None = None, trim: bool = True) -> Rendered:
        started, crashes = time.perf_counter(), []
        request = json.dumps({"trajectory": str(trajectory_json), "trim": trim}) + "\n"
        while True:
            left = None if budget_s is None else max(0.0, budget_s - (time.perf_counter() - started))
            if self._proc is None:
                self._proc = _spawn(self._cmd, stdin=subprocess.PIPE)
            try:
                stats = self._request(request, on_progress, left)
                break
            except RenderCrashError as exc:
                self.close()   # the next try starts Blender again; it resumes from the frame cache
                crashes.append(str(exc).splitlines()[0])
                if len(crashes) > CRASH_RETRIES:
                    raise
            except BaseException:
                self.close()
                raise
        if crashes:
            stats["crashes"] = crashes
        return Rendered(self._work / "video.mp4", self._work / "visibility.json", stats)

    def _request(self, request: str, on_progress: Callable[[int, int], None], budget_s: float | None) -> dict:
        try:
            self._proc.stdin.write(request)
            self._proc.stdin.flush()
        except BrokenPipeError:
            pass                     # it died: _follow reads how
        return _follow(self._proc, on_progress, "render", budget_s, done=_DONE)

    def close(self) -> None:
        """Stop the process (it may be building a scene no walk will use)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            _stop(proc)
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass

    def __enter__(self) -> "RenderSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_DONE = "done "  # the line render.serve ends a request with (render.serve.DONE)


def id_frames(scene_json: Path, trajectory_json: Path, folder: Path, frames: list[int], *, scale: int = 1,
              on_progress: Callable[[int, int], None] = lambda done, total: None,
              budget_s: float | None = None) -> dict[int, Path]:
    """The instance-ID pass of `frames` (trajectory frame numbers) at 1/scale of the video size,
    rendered in a fresh Blender process (render.idframes) into `folder`: frame -> PNG path, and
    `folder`/ids.json (id -> [kind, key]; decode the PNGs with render.idcolors.decode_bgr).
    RenderBudgetError when it ran past `budget_s` wall seconds (Blender is stopped)."""
    from render.idframes import id_frame_path

    wanted = sorted(set(int(f) for f in frames))
    if wanted:
        cmd = [sys.executable, "-m", "render.idframes", str(scene_json), str(trajectory_json), str(folder),
               "--frames", ",".join(map(str, wanted)), "--scale", str(scale)]
        _run(cmd, on_progress, "id frames", budget_s)
    return {f: id_frame_path(folder, f) for f in wanted}


def passes(scene_json: Path, trajectory_json: Path, out: Path, names: tuple[str, ...], *, profile: str = "preview",
           cache: Path | None = None, on_progress: Callable[[int, int], None] = lambda done, total: None,
           budget_s: float | None = None) -> dict:
    """The optional passes `names` (masks, depth, glb; render.passes) of the walk into `out`, in a
    fresh Blender process: masks/, depth/, scene.glb. `cache`: render()'s `work`, whose id frames
    the masks reuse. Returns render.passes' report (timings_s, masks_from_cache). RenderBudgetError
    when it ran past `budget_s` wall seconds (Blender is stopped; what it wrote into `out` is partial)."""
    cmd = [sys.executable, "-m", "render.passes", str(scene_json), str(trajectory_json), str(out),
           "--passes", ",".join(names), "--profile", profile]
    if cache is not None:
        cmd += ["--cache", str(cache)]
    return _run(cmd, on_progress, "passes", budget_s)


def _run(cmd: list[str], on_progress: Callable[[int, int], None], what: str, budget_s: float | None = None) -> dict:
    """Run a render module in a fresh process, passing its `progress a/b` lines on; returns its
    last line when that is a JSON object (its report), else {}. RenderError with the tail of its
    log when it fails; RenderBudgetError when it was stopped after `budget_s` wall seconds."""
    proc = _spawn(cmd)
    try:
        return _follow(proc, on_progress, what, budget_s)
    finally:
        proc.stdout.close()


def _spawn(cmd: list[str], stdin=None) -> subprocess.Popen:
    env = child_env(PYTHONUNBUFFERED="1")  # it dies with us
    return subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)


def _follow(proc: subprocess.Popen, on_progress: Callable[[int, int], None], what: str, budget_s: float | None,
            done: str | None = None) -> dict:
    """Read `proc`'s output up to its end - or, with `done`, up to the line starting with it,
    whose JSON rest is returned while the process goes on - passing progress lines on."""
    tail: list[str] = []
    last: tuple[int, int] | None = None
    over = threading.Event()

    def stop_over_budget() -> None:
        if proc.poll() is None:
            over.set()
            _stop(proc)  # its output ends, so the loop below ends

    timer = threading.Timer(max(0.0, budget_s), stop_over_budget) if budget_s is not None else None
    if timer:
        timer.daemon = True
        timer.start()
    try:
        for line in proc.stdout:
            if done is not None and line.startswith(done):
                return _report(line[len(done):])
            tail = (tail + [line.rstrip()])[-30:]
            progress = parse_progress(line)
            if progress:
                last = progress
                on_progress(*progress)
        code = proc.wait()
    except BaseException:  # Ctrl-C or a failing callback: never leave Blender rendering as an orphan
        _stop(proc)
        raise
    finally:
        if timer:
            timer.cancel()
            timer.join()  # a stop under way finishes first: nothing is left running
    if code != 0 and over.is_set():
        at = f" after {last[0]}/{last[1]} frames" if last else " before its first frame"
        raise RenderBudgetError(f"{what} stopped at its budget of {budget_s:g} s{at}", last)
    if code < 0 and -code in CRASH_SIGNALS:
        raise RenderCrashError(f"{what} crashed (exit {code}, {signal.Signals(-code).name}):\n" + "\n".join(tail))
    if code != 0 or done is not None:
        raise RenderError(f"{what} failed (exit {code}):\n" + "\n".join(tail))
    return _report(tail[-1] if tail else "")


def _report(line: str) -> dict:
    try:
        report = json.loads(line)
    except ValueError:
        return {}
    return report if isinstance(report, dict) else {}


def _stop(proc: subprocess.Popen, grace_s: float = 5.0) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def parse_progress(line: str) -> tuple[int, int] | None:
    """Lines like `progress 12/300` from render.run."""
    for part in line.split():
        done, slash, total = part.partition("/")
        if slash and done.isdigit() and total.isdigit():
            return int(done), int(total)
    return None
