"""Render one scenario: video.mp4 and visibility.json from scene.json + trajectory.json.

    python -m render.run SCENE_JSON TRAJECTORY_JSON OUT_DIR --profile preview|photoreal
        [--frames START:END] [--id-scale 2] [--min-pixels N] [--chunk N] [--clean]

Run it in a fresh process per scenario (Blender's memory grows across scenes). Both inputs
are read through their file models (formats.scene, formats.trajectory); the frame size, the
field of view and the visibility threshold come from the camera recorded in trajectory.json
(formats.camera.Camera; `--min-pixels` overrides the threshold, `--width/--height` only
assert the size).

How it works
- The scene is built once (render.scene_builder) and the camera keyframed along the
  trajectory. Blender's own animation loop renders the frames chunk by chunk: the colour
  frames go straight into an H.264 video segment (exactly as a bare render would write
  them). The id pass of the same frames is rendered as small PNGs (a flat Workbench render
  where every object and room has an exact colour; render.idcolors) by a second Blender
  process beside it at idle CPU priority (render.id_helper: `--ids-only`), which also
  decodes them (render.id_decode); this process renders whatever id frames it left.
- Chunks are content-defined (render.frame_cache.walk_chunks): cut where a frame's pose
  key says so and where the camera starts or stops moving or turning, at most 90 frames in
  preview and 30 in photoreal (`--chunk N`: at most N). A boundary depends on the poses, not
  on frame indices, so the coverage loop's extra looks inserted mid-walk change only the
  chunks around them.
- Resume: everything lives in OUT_DIR/.frames/<inputs hash>/ (scene, profile, sizes and the
  renderer/asset code hashed). A segment is named by the camera poses of its frames and an
  id frame by its pose, so whatever was finished before an interruption - or before the
  walk was extended - is reused: a re-run renders the colour of the chunks whose segment is
  missing (a chunk cut short by a crash is rendered again whole: at most one chunk per
  process) and exactly the id frames that are missing. Segments are renamed into place
  only when complete; id PNGs cut short (no end marker) are rendered again.
- When every frame exists, the segments are joined without re-encoding (render.video;
  index in front, plays in browsers) and visibility.json is decoded from the id frames;
  video.mp4 and then visibility.json are renamed into place. visibility.json records the
  input hashes and the video's sha256: a re-run with the same inputs does nothing, and
  outputs of other inputs are deleted before rendering starts, so a crash never leaves a
  finished-looking video or visibility of the wrong inputs.
- The cache stays (trimmed to this trajectory) for the next re-render, e.g. after the walk
  is extended; `--clean` deletes it once the outputs are written. `--no-trim` keeps every
  frame and segment: the pipeline's coverage loop renders several walks into one cache and a
  run resumed after a kill may render any of them again (it deletes the cache itself).
- `--frames START:END` renders only the chunks holding trajectory indices [START, END)
  (e.g. several workers sharing OUT_DIR); the run that finds every chunk present writes
  the outputs.

stdout: `progress <done>/<total>` lines (one per frame), then one JSON line with the status,
what was rendered (`rendered`: chunks of the walk, colour and id frames rendered by this run)
and timings (wall seconds; `*_cpu` = CPU seconds of this process). Blender's own log is
silenced (it goes to /dev/null).
"""

from __future__ import annotations

import argparse
import faulthandler
import hashlib
import json
import os
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from formats import fingerprint
from formats.base import dump_model, load_model, read_model, write_model
from formats.camera import Camera
from formats.files import make_dirs, sha256_file
from formats.scene import Scene
from formats.trajectory import Trajectory
from formats.visibility import Visibility
from generator.doors import door_poses
from render.frame_cache import CHUNKS, Plan, id_path, png_complete, segment_path
from render.id_decode import IdDecoder, decoded_cache, load_decoded, save_decoded, visibility
from render.id_helper import IdHelper, lower_priority
from render.lifeline import die_with_parent
from render.video import join_segments

RENDER_VERSION = "egoscene-render/3"   # 3: content-defined chunks (render.frame_cache)


# --- hashing ----------------------------------------------------------------------------------

def _canonical(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def code_fingerprint() -> str:
    """Hash of the code that decides what a frame looks like: the scene builder and every project
    module it imports (renderer, asset library, stairs, camera) plus the render data files.
    run.py and video.py only schedule and join frames: changing them keeps the frame cache."""
    data = tuple(sorted((Path(__file__).parent / "data").glob("*")))
    return hashlib.sha256((RENDER_VERSION + fingerprint.code_fingerprint("render.scene_builder", data_files=data)).encode()).hexdigest()


def inputs_hash(scene: dict, profile: str, camera: Camera, id_size: tuple[int, int]) -> str:
    h = hashlib.sha256()
    h.update(_canonical(scene))
    h.update(_canonical({"profile": profile, "camera": dump_model(camera), "id": list(id_size)}))
    h.update(code_fingerprint().encode())
    return h.hexdigest()


# The id pass at half the video size (320x240 at 640x480): fine enough to resolve "seen" (0.1% of
# the frame, docs/ground-truth.md) - 77 id pixels instead of 19 at a quarter. Measured on
# scenario-01 at 640x480, frames 0-299 on a loaded 2-core machine: id pass 6.8 -> 10.0 s CPU
# (12.5 -> 19.1 s wall), +2.2% of the whole render's CPU.
ID_SCALE = 2


def id_pass_size(width: int, height: int, scale: int) -> tuple[int, int]:
    """The id pass at 1/scale of the video size, with a scale that divides both sides (the
    same aspect ratio, so id pixels line up with video pixels)."""
    from math import gcd

    g = gcd(width, height)
    s = max(d for d in range(1, max(1, scale) + 1) if g % d == 0)
    return width // s, height // s


@contextmanager
def quiet_stdout():
    """Send C-level stdout (Blender's per-frame log) to /dev/null; yield a writer to the
    real stdout for progress lines."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)

    def emit(line: str) -> None:
        os.write(saved, (line + "\n").encode())
    try:
        yield emit
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


# --- main work --------------------------------------------------------------------------------

def render_scenario(scene_path: Path, trajectory_path: Path, out_dir: Path, profile: str = "preview",
                    width: int | None = None, height: int | None = None, frames: tuple[int, int] | None = None,
                    id_scale: int = ID_SCALE, min_pixels: int | None = None, clean: bool = False,
                    chunk: int | None = None, emit=None, trim: bool = True) -> dict:
    """Render (or resume) one scenario into out_dir; returns {"status", "frames", "timings_s"}.
    The video has the size of trajectory.json's camera (`width`/`height`, when given, must
    match it); `min_pixels` defaults to the camera's rule (Camera.min_pixels).
    `emit(line)` receives progress lines (default: stdout). `trim=False` keeps cached frames
    this trajectory does not use (they may serve another walk of the same scene)."""
    progress = emit or _print
    scene = dump_model(read_model(scene_path, Scene))
    walk = read_model(trajectory_path, Trajectory)
    camera: Camera = walk.camera
    if (width, height) != (None, None) and (width, height) != (camera.width, camera.height):
        raise ValueError(f"{trajectory_path}: its camera is {camera.width}x{camera.height} but "
                         f"{width}x{height} was asked for (fix: plan the walk with the camera to render)")
    width, height = camera.width, camera.height
    min_pixels = camera.min_pixels() if min_pixels is None else min_pixels
    poses = [dump_model(f) for f in walk.frames]
    if not poses:
        raise ValueError(f"{trajectory_path}: no frames")
    numbers = [int(p["frame"]) for p in poses]
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))) or numbers[0] < 0:
        raise ValueError(f"{trajectory_path}: frames must be consecutive and start at >= 0")
    fps = walk.fps
    id_size = id_pass_size(width, height, id_scale)
    out_dir = Path(out_dir)
    make_dirs(out_dir)  # OUT/.cache/<name>: another scenario may be removing an empty OUT/.cache
    key = inputs_hash(scene, profile, camera, id_size)
    traj_hash = hashlib.sha256(_canonical(poses)).hexdigest()
    video, vis_path = out_dir / "video.mp4", out_dir / "visibility.json"
    timings: dict[str, float] = {}
    started, started_cpu = time.perf_counter(), time.process_time()

    # up to date? (visibility.json is written last and names its inputs and video)
    if video.exists() and vis_path.exists():
        try:
            old = read_model(vis_path, Visibility)   # FormatError (a ValueError) for another version
            if (old.inputs_hash == key and old.trajectory_hash == traj_hash and old.min_pixels == min_pixels
                    and old.video_sha256 == sha256_file(video)):
                progress(f"progress {len(poses)}/{len(poses)}")
                return {"status": "up-to-date", "frames": len(poses), "timings_s": {}}
        except (OSError, ValueError):
            pass
    for stale in (vis_path, video):          # never leave outputs of other inputs behind
        if stale.exists():
            stale.unlink()

    frames_root = out_dir / ".frames"
    frames_dir = frames_root / key[:24]
    frames_dir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    for other in frames_root.iterdir():      # caches of other inputs are of no further use
        if other.is_dir() and other != frames_dir:
            shutil.rmtree(other, ignore_errors=True)
    for st in frames_dir.glob("staging-*"):  # left by a render that died
        if not _alive(st.name.split("-", 1)[1]):
            shutil.rmtree(st, ignore_errors=True)
    # door leaves open and close with the walk: their angles are part of each frame's key
    plan = Plan(door_poses(scene, poses, fps, walk.insertions), frames_dir, chunk or CHUNKS[profile], walk.motion_starts)
    for k in set(plan.keys):                 # id frames cut short by a crash
        p = id_path(frames_dir, k)
        if p.exists() and not png_complete(p):
            p.unlink()
    timings["check_cache"] = time.perf_counter() - t0

    lo, hi = (0, len(poses)) if frames is None else (max(0, frames[0]), min(len(poses), frames[1]))
    todo = [c for c, (a, b) in enumerate(plan.chunks) if a < hi and b > lo and not plan.chunk_done(c)]
    total = len(poses)
    rendered = {"chunks": len(plan.chunks), "color_frames": 0, "id_frames": 0}
    if todo:
        helper = None   # the id pass beside the colour pass, when there is colour to render
        if any(not plan.segment_done(c) for c in todo) and any(_missing_ids(plan, *plan.chunks[c]) for c in todo):
            helper = IdHelper.start(Path(scene_path), Path(trajectory_path), out_dir, profile, (lo, hi), id_scale, chunk)
        _render_chunks(scene, plan, todo, profile, camera, id_size, key, timings, emit, total, rendered, helper)
    else:
        progress(f"progress {plan.frames_done()}/{total}")
    if not all(plan.chunk_done(c) for c in range(len(plan.chunks))):
        return {"status": "partial", "frames": total, "done": plan.frames_done(), "rendered": rendered,
                "timings_s": timings}

    t0, cpu = time.perf_counter(), time.process_time()
    tmp_video = out_dir / f".video.{os.getpid()}.tmp.mp4"
    join_segments([segment_path(frames_dir, s) for s in plan.segments], tmp_video)
    timings["join"] = time.perf_counter() - t0
    timings["join_cpu"] = time.process_time() - cpu

    t0 = time.perf_counter()
    cache = decoded_cache(frames_dir)
    decoded = load_decoded(cache)       # what the helper (or an earlier render) decoded
    known = len(decoded)
    vis = visibility(scene, [id_path(frames_dir, k) for k in plan.keys], numbers, width, height, id_size, fps,
                     min_pixels, decoded)
    rendered["decoded"] = rendered.get("decoded", 0) + len(decoded) - known
    if trim or clean:                   # the cache keeps what this trajectory shows
        shown = plan.keep()
        decoded = {n: r for n, r in decoded.items() if n in shown}
    if len(decoded) != known and not clean:
        save_decoded(cache, decoded)
    timings["visibility"] = time.perf_counter() - t0
    os.replace(tmp_video, video)
    vis.update({"inputs_hash": key, "trajectory_hash": traj_hash, "video_sha256": sha256_file(video),
                "profile": profile})
    write_model(vis_path, load_model(vis, Visibility, f"{vis_path} as written by the renderer"))
    if clean:
        shutil.rmtree(frames_root, ignore_errors=True)
    elif trim:                                # keep the cache to what this trajectory shows
        keep = plan.keep() | {cache.name}
        for p in frames_dir.iterdir():
            if p.name not in keep:
                if p.is_dir():
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    p.unlink(missing_ok=True)
    timings["total"] = time.perf_counter() - started
    timings["total_cpu"] = time.process_time() - started_cpu
    return {"status": "done", "frames": total, "rendered": rendered, "timings_s": timings}


def render_ids_only(scene_path: Path, trajectory_path: Path, out_dir: Path, profile: str = "preview",
                    frames: tuple[int, int] | None = None, id_scale: int = ID_SCALE,
                    chunk: int | None = None) -> dict:
    """The id helper's work (render.id_helper): the missing id frames of trajectory indices
    [frames) into the frame cache that render_scenario has set up, each pose once, in walk
    order; then every id frame of those indices not yet decoded, decoded into the frame cache's
    render.id_decode.decoded_cache. Touches nothing else."""
    started, started_cpu = time.perf_counter(), time.process_time()
    scene = dump_model(read_model(scene_path, Scene))
    walk = read_model(trajectory_path, Trajectory)
    camera = walk.camera
    poses = [dump_model(f) for f in walk.frames]
    id_size = id_pass_size(camera.width, camera.height, id_scale)
    key = inputs_hash(scene, profile, camera, id_size)
    frames_dir = Path(out_dir) / ".frames" / key[:24]
    rendered = {"id_frames": 0, "decoded": 0}
    timings: dict[str, float] = {}
    if frames_dir.is_dir():
        plan = Plan(door_poses(scene, poses, walk.fps, walk.insertions), frames_dir, chunk or CHUNKS[profile], walk.motion_starts)
        lo, hi = (0, len(poses)) if frames is None else (max(0, frames[0]), min(len(poses), frames[1]))
        missing = _missing_ids(plan, lo, hi)
        if missing:
            built = _build(scene, plan, profile, camera, id_size, key, timings)
            with quiet_stdout(), _id_writer(built, plan) as render_ids:
                render_ids(missing, timings, rendered)
        t0 = time.perf_counter()
        decoder, rows = IdDecoder(scene, id_size), load_decoded(decoded_cache(frames_dir))
        known = len(rows)
        for k in plan.keys[lo:hi]:
            path = id_path(frames_dir, k)
            if path.name not in rows and png_complete(path):
                rows[path.name] = decoder(path)
        rendered["decoded"] = len(rows) - known
        if len(rows) > known:
            save_decoded(decoded_cache(frames_dir), rows)
        timings["decode"] = time.perf_counter() - t0
    timings["total"] = time.perf_counter() - started
    timings["total_cpu"] = time.process_time() - started_cpu
    return {"rendered": rendered, "timings_s": timings}


def _alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def _print(line: str) -> None:
    print(line, flush=True)


def _round(d: dict) -> dict:
    return {k: round(v, 3) for k, v in d.items()}


def _render_chunks(scene, plan: Plan, todo: list[int], profile, camera: Camera, id_size, key: str, timings, emit,
                   total, rendered: dict, helper: IdHelper | None = None) -> None:
    """Render the chunks `todo`: colour straight into a video segment (unless it exists), and
    the missing id frames - chunk by chunk, or, with a `helper` rendering them beside this
    process, those it left once it has ended. `rendered` counts the colour and id frames
    rendered (the helper's included)."""
    import bpy

    from render.scene_builder import configure_video_output

    built = _build(scene, plan, profile, camera, id_size, key, timings)
    color = built.color_scene
    done = [plan.frames_done()]
    sink = [emit]

    def on_post(scene_, *_):
        if scene_.name == color.name:
            done[0] += 1
            sink[0](f"progress {min(done[0], total)}/{total}")
    bpy.app.handlers.render_post.append(on_post)
    for name in ("color", "color_cpu"):
        timings.setdefault(name, 0.0)
    try:
        with quiet_stdout() as out, _id_writer(built, plan) as render_ids:
            if emit is None:
                sink[0] = out
            for c in todo:
                a, b = plan.chunks[c]
                f0, f1 = int(plan.poses[a]["frame"]), int(plan.poses[b - 1]["frame"])
                if not plan.segment_done(c):
                    final = segment_path(plan.frames_dir, plan.segments[c])
                    partial = _staging(plan) / f"seg_{plan.segments[c]}.mp4"
                    color.frame_start, color.frame_end = f0, f1
                    configure_video_output(color, partial)
                    t, cpu = time.perf_counter(), time.process_time()
                    bpy.ops.render.render(animation=True, scene=color.name)
                    timings["color"] += time.perf_counter() - t
                    timings["color_cpu"] += time.process_time() - cpu
                    if not partial.exists():
                        raise RuntimeError(f"Blender wrote no video segment for frames {f0}-{f1}")
                    os.replace(partial, final)
                    rendered["color_frames"] += b - a
                else:
                    done[0] += b - a
                    sink[0](f"progress {min(done[0], total)}/{total}")
                if helper is None:
                    render_ids(_missing_ids(plan, a, b), timings, rendered)
            if helper is not None:
                _merge_helper(helper.finish(), timings, rendered)
                helper = None
                for c in todo:
                    render_ids(_missing_ids(plan, *plan.chunks[c]), timings, rendered)
    finally:
        if helper is not None:
            helper.stop()
        bpy.app.handlers.render_post.remove(on_post)


def _merge_helper(report: dict, timings: dict, rendered: dict) -> None:
    rendered["ids_by_helper"] = int(report.get("rendered", {}).get("id_frames", 0))
    rendered["decoded"] = int(report.get("rendered", {}).get("decoded", 0))
    rendered["id_frames"] += rendered["ids_by_helper"]
    helper_t = report.get("timings_s", {})
    timings["ids_helper"] = helper_t.get("total", 0.0)
    timings["ids_helper_cpu"] = helper_t.get("total_cpu", 0.0)
    timings["ids_wait"] = report["wait_s"]
    if "error" in report:
        rendered["ids_helper_error"] = report["error"][-500:]


# The scene this process last built, under its inputs_hash: render.serve keeps one process for
# the walks of a scene, and each walk after the first only keyframes the camera and doors again.
_BUILT: dict[str, object] = {}


def prepare(scene: dict, profile: str, camera: Camera, id_size: tuple[int, int], key: str):
    """The scene built for these inputs (`key`: inputs_hash of them), built now unless this
    process already has it."""
    from render.scene_builder import build_scene

    if key not in _BUILT:
        _BUILT.clear()                      # build_scene starts from an empty Blender session
        _BUILT[key] = build_scene(scene, profile, camera, *id_size)
    return _BUILT[key]


def _build(scene, plan: Plan, profile, camera: Camera, id_size, key: str, timings):
    from render.scene_builder import clear_animation, keyframe_camera, keyframe_doors

    t0, cpu = time.perf_counter(), time.process_time()
    built = prepare(scene, profile, camera, id_size, key)
    clear_animation(built)                  # an earlier walk's keys would stay between this one's
    keyframe_camera(built.camera, plan.poses)
    keyframe_doors(built, plan.poses)
    timings["build"] = time.perf_counter() - t0
    timings["build_cpu"] = time.process_time() - cpu
    return built


def _missing_ids(plan: Plan, a: int, b: int) -> list[int]:
    """Indices in [a, b) whose id frame is missing, each pose once (a stop repeats one pose)."""
    missing, wanted = [], set()
    for j in range(a, b):
        if plan.keys[j] not in wanted and not plan.ids_done(j):
            missing.append(j)
            wanted.add(plan.keys[j])
    return missing


def _staging(plan: Plan) -> Path:
    """This process's folder for files Blender is still writing (deleted by the next run once
    the process is gone)."""
    return plan.frames_dir / f"staging-{os.getpid()}"


@contextmanager
def _id_writer(built, plan: Plan):
    """Create this process's staging folder (removed on exit) and yield render(indices,
    timings, rendered): the id pass of those walk indices, each PNG written into the staging
    folder and moved to its pose-keyed name as soon as Blender has written it (a crash leaves
    no partial id frame under a final name)."""
    import bpy

    ids = built.id_scene
    staging = _staging(plan)
    staging.mkdir(exist_ok=True)
    ids.render.use_overwrite = True
    ids.render.filepath = str(staging / "i_######.png")
    by_frame = {int(p["frame"]): k for p, k in zip(plan.poses, plan.keys)}

    def on_write(scene_, *_):
        if scene_.name != ids.name:
            return
        f = scene_.frame_current
        src = staging / f"i_{f:06d}.png"
        if f in by_frame and src.exists():
            os.replace(src, id_path(plan.frames_dir, by_frame[f]))

    def render(indices: list[int], timings: dict, rendered: dict) -> None:
        for name in ("ids", "ids_cpu"):
            timings.setdefault(name, 0.0)
        for ra, rb in _runs(indices):
            ids.frame_start, ids.frame_end = int(plan.poses[ra]["frame"]), int(plan.poses[rb]["frame"])
            t, cpu = time.perf_counter(), time.process_time()
            bpy.ops.render.render(animation=True, scene=ids.name)
            timings["ids"] += time.perf_counter() - t
            timings["ids_cpu"] += time.process_time() - cpu
            rendered["id_frames"] += rb - ra + 1
    bpy.app.handlers.render_write.append(on_write)
    try:
        yield render
    finally:
        bpy.app.handlers.render_write.remove(on_write)
        shutil.rmtree(staging, ignore_errors=True)


def _runs(indices: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs [(first, last)] of sorted indices."""
    runs = []
    for j in indices:
        if runs and runs[-1][1] == j - 1:
            runs[-1] = (runs[-1][0], j)
        else:
            runs.append((j, j))
    return runs


def _parse_frames(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    a, _, b = text.partition(":")
    return (int(a) if a else 0, int(b) if b else 1 << 30)


def main(argv=None) -> int:
    die_with_parent()
    faulthandler.enable()   # a crash leaves the Python stack in the log render.api keeps
    ap = argparse.ArgumentParser(prog="python -m render.run", description=__doc__.splitlines()[0])
    ap.add_argument("scene_json", type=Path)
    ap.add_argument("trajectory_json", type=Path)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--profile", choices=("preview", "photoreal"), default="preview")
    ap.add_argument("--width", type=int, default=None, help="check: must be the trajectory camera's width")
    ap.add_argument("--height", type=int, default=None, help="check: must be the trajectory camera's height")
    ap.add_argument("--frames", default=None, help="START:END trajectory indices to render (whole chunks)")
    ap.add_argument("--id-scale", type=int, default=ID_SCALE,
                    help=f"id pass at 1/N of the video size (default {ID_SCALE}: 320x240 for 640x480)")
    ap.add_argument("--min-pixels", type=int, default=None,
                    help="pixels that make an object visible in a frame (default: the camera's rule, 50 at 640x480)")
    ap.add_argument("--chunk", type=int, default=None,
                    help="at most N frames per video segment, cut where the poses say (default 60 preview, 30 photoreal)")
    ap.add_argument("--clean", action="store_true",
                    help="delete the render cache OUT_DIR/.frames once video and visibility are written")
    ap.add_argument("--no-trim", action="store_true",
                    help="keep cached frames this trajectory does not use (another walk of the scene may need them)")
    ap.add_argument("--ids-only", action="store_true",
                    help="only the missing id frames, at idle CPU priority (render.id_helper runs this)")
    args = ap.parse_args(argv)
    if args.ids_only:
        priority = lower_priority()
        report = render_ids_only(args.scene_json, args.trajectory_json, args.out_dir, args.profile,
                                 _parse_frames(args.frames), args.id_scale, args.chunk)
        print(json.dumps({**report, "timings_s": _round(report["timings_s"]), "priority": priority}), flush=True)
        return 0
    result = render_scenario(args.scene_json, args.trajectory_json, args.out_dir, args.profile, args.width,
                             args.height, _parse_frames(args.frames), args.id_scale, args.min_pixels,
                             args.clean, args.chunk, trim=not args.no_trim)
    print(json.dumps({"status": result["status"], "frames": result.get("frames"), "rendered": result.get("rendered", {}),
                      "timings_s": _round(result.get("timings_s", {}))}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
