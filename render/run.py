"""Render one scenario: video.mp4 and visibility.json from scene.json + trajectory.json.

    python -m render.run SCENE_JSON TRAJECTORY_JSON OUT_DIR --profile preview|photoreal
        [--width 640 --height 480] [--frames START:END] [--id-scale 2] [--min-pixels 50]
        [--clean]

Run it in a fresh process per scenario (Blender's memory grows across scenes).

How it works
- The scene is built once (render.scene_builder) and the camera keyframed along the
  trajectory. Blender's own animation loop renders the frames in chunks: the colour frames
  (PNG), then the id pass of the same frames (a second, small, flat Workbench render where
  every object and room has an exact colour) - no per-frame Python round trips.
- Resume: frames live in OUT_DIR/.frames/<inputs hash>/ (scene, profile, sizes and the
  renderer/asset code hashed), each named by the camera pose it shows. A pose rendered
  before - even at another frame number, e.g. after the walk was extended - is reused;
  a file cut short by a crash (no PNG end marker) is deleted and rendered again.
- When every frame exists: the colour frames are encoded to H.264 (30 fps, yuv420p) by
  Blender's sequencer into a temp file, visibility.json is decoded from the id frames, then
  video.mp4 and (last) visibility.json are renamed into place. visibility.json records the
  input hashes and the video's sha256: a re-run with the same inputs does nothing, and
  outputs of other inputs are deleted before rendering starts, so a crash never leaves a
  finished-looking video or visibility of the wrong inputs.
- The frame cache stays (trimmed to this trajectory's poses) for the next re-render, e.g.
  after the walk is extended; `--clean` deletes it once the outputs are written.
- `--frames START:END` renders only trajectory indices [START, END) (e.g. several workers
  sharing OUT_DIR); the video is written by the run that finds every frame present.

stdout: `progress <done>/<total>` lines (one per frame), then one JSON line with the status
and timings. Blender's own log is silenced (it goes to /dev/null).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from generator.outputs import dumps, sha256_file, write_text

RENDER_VERSION = "egoscene-render/1"
CHUNK = 60                 # frames per Blender animation call
PNG_END = b"IEND\xaeB`\x82"
MIN_PIXELS = 50


# --- hashing ----------------------------------------------------------------------------------

def _canonical(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def code_fingerprint() -> str:
    """Hash of the code that decides what a frame looks like (renderer and asset library)."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256(RENDER_VERSION.encode())
    files = sorted((root / "render").glob("*.py")) + sorted((root / "render" / "data").glob("*")) + \
        sorted((root / "assets").glob("*.py")) + [root / "generator" / "stairs.py"]
    for f in files:
        if f.is_file() and f.name not in ("run.py", "bare.py", "catalog.py"):
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def inputs_hash(scene: dict, profile: str, width: int, height: int, id_size: tuple[int, int]) -> str:
    h = hashlib.sha256()
    h.update(_canonical(scene))
    h.update(_canonical({"profile": profile, "width": width, "height": height, "id": list(id_size)}))
    h.update(code_fingerprint().encode())
    return h.hexdigest()


def pose_key(pose: dict) -> str:
    p = [round(float(v), 5) for v in pose["position"]]
    return hashlib.sha256(_canonical({"p": p, "y": round(float(pose["yaw"]), 4),
                                      "t": round(float(pose.get("pitch", 0.0)), 4)})).hexdigest()[:16]


# --- files ------------------------------------------------------------------------------------

def color_path(frames_dir: Path, key: str) -> Path:
    return frames_dir / f"c_{key}.png"


def id_path(frames_dir: Path, key: str) -> Path:
    return frames_dir / f"i_{key}.png"


def png_complete(path: Path) -> bool:
    try:
        size = path.stat().st_size
        if size < 64:
            return False
        with open(path, "rb") as fh:
            fh.seek(-12, os.SEEK_END)
            return fh.read(12).endswith(PNG_END)
    except OSError:
        return False


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


def _atomic_replace(tmp: Path, final: Path) -> None:
    os.replace(tmp, final)


# --- main work --------------------------------------------------------------------------------

def render_scenario(scene_path: Path, trajectory_path: Path, out_dir: Path, profile: str = "preview",
                    width: int = 640, height: int = 480, frames: tuple[int, int] | None = None,
                    id_scale: int = 2, min_pixels: int = MIN_PIXELS, clean: bool = False,
                    emit=None) -> dict:
    """Render (or resume) one scenario into out_dir; returns {"status", "frames", "timings_s"}.
    `emit(line)` receives progress lines (default: stdout)."""
    progress = emit or _print
    scene = json.loads(Path(scene_path).read_text())
    trajectory = json.loads(Path(trajectory_path).read_text())
    poses = trajectory["frames"]
    if not poses:
        raise ValueError(f"{trajectory_path}: no frames")
    fps = int(trajectory.get("fps", 30))
    id_size = (max(1, width // id_scale), max(1, height // id_scale))
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    key = inputs_hash(scene, profile, width, height, id_size)
    traj_hash = hashlib.sha256(_canonical(poses)).hexdigest()
    video, vis_path = out_dir / "video.mp4", out_dir / "visibility.json"
    timings: dict[str, float] = {}
    started, started_cpu = time.perf_counter(), time.process_time()

    # up to date? (visibility.json is written last and names its inputs and video)
    if video.exists() and vis_path.exists():
        try:
            old = json.loads(vis_path.read_text())
            if (old.get("inputs_hash") == key and old.get("trajectory_hash") == traj_hash
                    and old.get("video_sha256") == sha256_file(video)):
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
    numbers = [int(p["frame"]) for p in poses]
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))) or numbers[0] < 0:
        raise ValueError(f"{trajectory_path}: frames must be consecutive and start at >= 0")
    keys = [pose_key(p) for p in poses]

    # frames are named by the camera pose they show: a pose rendered before (even at another
    # frame number, e.g. after the walk was extended) is reused; files cut short are dropped
    t0 = time.perf_counter()
    for other in frames_root.iterdir():      # frames of other inputs are of no further use
        if other.is_dir() and other != frames_dir:
            shutil.rmtree(other, ignore_errors=True)
    have = set()
    for k in set(keys):
        c, i = color_path(frames_dir, k), id_path(frames_dir, k)
        ok = True
        for p in (c, i):
            if p.exists() and not png_complete(p):
                p.unlink()
            ok = ok and p.exists()
        if ok:
            have.add(k)
    timings["check_frames"] = time.perf_counter() - t0

    lo, hi = (0, len(poses)) if frames is None else (max(0, frames[0]), min(len(poses), frames[1]))
    todo = [j for j in range(lo, hi) if keys[j] not in have]
    total = len(poses)
    done_count = sum(1 for k in keys if k in have)
    if todo:
        _render_frames(scene, poses, keys, frames_dir, todo, profile, width, height, id_size, timings, emit,
                       done_count, total)
    else:
        progress(f"progress {done_count}/{total}")

    missing = [j for j, k in enumerate(keys) if not (color_path(frames_dir, k).exists() and id_path(frames_dir, k).exists())]
    if missing:
        return {"status": "partial", "missing": len(missing), "frames": total, "timings_s": timings}

    t0, cpu = time.perf_counter(), time.process_time()
    tmp_video = out_dir / f".video.{os.getpid()}.tmp.mp4"
    encode_video([color_path(frames_dir, k) for k in keys], tmp_video, width, height, fps)
    timings["encode"] = time.perf_counter() - t0
    timings["encode_cpu"] = time.process_time() - cpu

    t0 = time.perf_counter()
    vis = visibility(scene, [id_path(frames_dir, k) for k in keys], numbers, width, height, id_size, fps, min_pixels)
    timings["visibility"] = time.perf_counter() - t0
    _atomic_replace(tmp_video, video)
    vis.update({"inputs_hash": key, "trajectory_hash": traj_hash, "video_sha256": sha256_file(video),
                "profile": profile})
    write_text(vis_path, dumps(vis))
    if clean:
        shutil.rmtree(frames_root, ignore_errors=True)
    else:                                     # keep the cache to what this trajectory shows
        wanted = set(keys)
        for p in frames_dir.glob("?_*.png"):
            if p.stem[2:] not in wanted:
                p.unlink(missing_ok=True)
    timings["total"] = time.perf_counter() - started
    timings["total_cpu"] = time.process_time() - started_cpu
    return {"status": "done", "frames": total, "timings_s": timings}


def _print(line: str) -> None:
    print(line, flush=True)


def _round(d: dict) -> dict:
    return {k: round(v, 3) for k, v in d.items()}


def _render_frames(scene, poses, keys, frames_dir, todo, profile, width, height, id_size, timings, emit,
                   done_count, total) -> None:
    """Render trajectory indices `todo` (colour + ids) with Blender's animation loop; each
    frame file is moved to its pose-keyed name as soon as Blender has written it."""
    import bpy

    from render.scene_builder import build_scene, keyframe_camera

    t0 = time.perf_counter()
    built = build_scene(scene, profile, width, height, *id_size)
    keyframe_camera(built.camera, poses)
    timings["build"] = time.perf_counter() - t0
    staging = frames_dir / f"staging-{os.getpid()}"
    staging.mkdir(exist_ok=True)
    for s in (built.color_scene, built.id_scene):
        s.render.use_overwrite = True
        s.render.use_placeholder = False
    built.color_scene.render.filepath = str(staging / "c_######.png")
    built.id_scene.render.filepath = str(staging / "i_######.png")
    by_frame = {int(p["frame"]): k for p, k in zip(poses, keys)}
    done = [done_count]
    sink = [emit]
    counted: set[str] = set()

    def on_write(scene_, *_):
        f = scene_.frame_current
        k = by_frame.get(f)
        if k is None:
            return
        if scene_.name == built.color_scene.name:
            src, dst = staging / f"c_{f:06d}.png", color_path(frames_dir, k)
        elif scene_.name == built.id_scene.name:
            src, dst = staging / f"i_{f:06d}.png", id_path(frames_dir, k)
        else:
            return
        if src.exists():
            os.replace(src, dst)
        if scene_.name == built.id_scene.name and k not in counted:
            counted.add(k)
            done[0] += 1
            sink[0](f"progress {min(done[0], total)}/{total}")
    bpy.app.handlers.render_write.append(on_write)
    for name in ("color", "color_cpu", "ids", "ids_cpu"):
        timings.setdefault(name, 0.0)
    # contiguous runs of missing trajectory indices, cut into chunks; per chunk the colour
    # frames, then the id frames (so a frame counts as done once both exist)
    runs, start = [], todo[0]
    for a, b in zip(todo, todo[1:] + [None]):
        if b != a + 1:
            runs.append((start, a))
            start = b
    try:
        with quiet_stdout() as out:
            if emit is None:
                sink[0] = out
            for a, b in runs:
                for c0 in range(a, b + 1, CHUNK):
                    c1 = min(b, c0 + CHUNK - 1)
                    f0, f1 = int(poses[c0]["frame"]), int(poses[c1]["frame"])
                    for s in (built.color_scene, built.id_scene):
                        s.frame_start, s.frame_end = f0, f1
                    t, cpu = time.perf_counter(), time.process_time()
                    bpy.ops.render.render(animation=True, scene=built.color_scene.name)
                    timings["color"] += time.perf_counter() - t
                    timings["color_cpu"] += time.process_time() - cpu
                    t, cpu = time.perf_counter(), time.process_time()
                    bpy.ops.render.render(animation=True, scene=built.id_scene.name)
                    timings["ids"] += time.perf_counter() - t
                    timings["ids_cpu"] += time.process_time() - cpu
    finally:
        bpy.app.handlers.render_write.remove(on_write)
        shutil.rmtree(staging, ignore_errors=True)


def encode_video(frames: list[Path], out: Path, width: int, height: int, fps: int) -> None:
    """H.264 MP4 (yuv420p, 8 bit) from same-size frames, with Blender's sequencer."""
    import bpy

    from render.scene_builder import configure_video_output

    enc = bpy.data.scenes.new("encode")
    se = enc.sequence_editor_create()
    se.use_cache_raw = se.use_cache_final = se.use_prefetch = False   # each frame is read once
    strip = se.strips.new_image("frames", str(frames[0]), 1, 1)
    for f in frames[1:]:
        if f.parent != frames[0].parent:
            raise ValueError("frames must share one folder")
        strip.elements.append(f.name)
    enc.frame_start, enc.frame_end = 1, len(frames)
    r = enc.render
    r.resolution_x, r.resolution_y, r.resolution_percentage = width, height, 100
    r.fps, r.fps_base = fps, 1.0
    r.use_sequencer = True
    r.use_compositing = False
    r.dither_intensity = 0.0
    enc.view_settings.view_transform = "Standard"
    enc.view_settings.look = "None"
    configure_video_output(enc, out)
    with quiet_stdout():
        bpy.ops.render.render(animation=True, scene=enc.name)
    bpy.data.scenes.remove(enc)
    if not out.exists():
        raise RuntimeError(f"Blender wrote no video to {out}")


def visibility(scene: dict, id_frames: list[Path], numbers: list[int], width: int, height: int,
               id_size: tuple[int, int], fps: int, min_pixels: int) -> dict:
    """Per object and room: frames with at least `min_pixels` (in video pixels), counts,
    first frame. Ids are assigned in scene order (render.idcolors.assign_ids)."""
    import cv2

    from render import idcolors

    ids = idcolors.assign_ids(scene)
    scale = (width * height) / float(id_size[0] * id_size[1])
    counts = np.zeros((len(numbers), max(ids.values(), default=0) + 1), np.int64)
    for k, path in enumerate(id_frames):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            raise RuntimeError(f"unreadable id frame {path}")
        c = idcolors.count_ids(idcolors.decode_bgr(img))
        counts[k] = c[:counts.shape[1]]
    pixels = np.rint(counts * scale).astype(np.int64)
    out = {"width": width, "height": height, "fps": fps, "min_pixels": min_pixels,
           "id_pass": {"width": id_size[0], "height": id_size[1]}, "objects": {}, "rooms": {}}
    for (kind, name), i in ids.items():
        if kind not in ("object", "room"):
            continue
        col = pixels[:, i]
        seen = np.nonzero(col >= min_pixels)[0]
        entry = {"frames": [numbers[j] for j in seen], "pixels": [int(col[j]) for j in seen],
                 "first_frame": numbers[seen[0]] if len(seen) else None}
        out["objects" if kind == "object" else "rooms"][name] = entry
    return out


def _parse_frames(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    a, _, b = text.partition(":")
    return (int(a) if a else 0, int(b) if b else 1 << 30)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m render.run", description=__doc__.splitlines()[0])
    ap.add_argument("scene_json", type=Path)
    ap.add_argument("trajectory_json", type=Path)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--profile", choices=("preview", "photoreal"), default="preview")
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=480)
    ap.add_argument("--frames", default=None, help="START:END trajectory frame indices to render")
    ap.add_argument("--id-scale", type=int, default=2, help="id pass at 1/N of the video size (default 2)")
    ap.add_argument("--min-pixels", type=int, default=MIN_PIXELS)
    ap.add_argument("--clean", action="store_true",
                    help="delete the frame cache OUT_DIR/.frames once video and visibility are written")
    args = ap.parse_args(argv)

    result = render_scenario(args.scene_json, args.trajectory_json, args.out_dir, args.profile, args.width,
                             args.height, _parse_frames(args.frames), args.id_scale, args.min_pixels,
                             args.clean)
    print(json.dumps({"status": result["status"], "frames": result.get("frames"),
                      "timings_s": _round(result.get("timings_s", {}))}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
