"""Optional passes of a rendered walk: instance masks, depth, and the scene as glTF.

    python -m render.passes SCENE_JSON TRAJECTORY_JSON OUT_DIR --passes masks,depth,glb
        [--profile preview] [--cache WORK] [--id-scale 2]

Off by default (`egoscene generate --passes ...`); docs/formats.md "Optional passes" has the
formats. The scene is built exactly as for the video (render.scene_builder) and the camera is
keyframed along the whole trajectory as render.run does, so frame f is seen from the same pose.

- masks: OUT_DIR/masks/<frame:06d>.png, 16-bit single channel at the id pass's size (1/id-scale
  of the video, render.run.ID_SCALE), value = the id pass's index of the room, space or object
  (0 = outside), and OUT_DIR/masks/legend.json (formats.masks.MaskLegend). Each mask is the
  id frame render.run counted visibility.json from, decoded: taken from its frame cache
  (WORK/.frames/<inputs hash>/, named by pose) when it is there, else rendered again.
- depth: OUT_DIR/depth/<frame:06d>.png, 16-bit single channel at the video size: the camera-space
  z (OpenCV, along the optical axis) of the surface seen at each pixel in millimetres, rounded;
  0 = nothing hit (sky) or beyond 65.535 m. From the Z pass of the flat Workbench id scene
  (written as a float EXR through the compositor and read back).
- glb: OUT_DIR/scene.glb, Blender's glTF exporter on the built geometry (shells and objects, no
  lights or camera): one node per object named by its id, one per room shell `shell:<owner>`;
  node extras carry `egoscene_id` (the masks' index), `egoscene_kind`, `egoscene_key`,
  `category`. glTF is +Y up: world (x, y, z) is glTF (x, z, -y).

PNGs are written by OpenCV with fixed settings (same inputs, same bytes). Run it in a fresh
process (render.api.passes does). stdout: `progress <done>/<total>` lines, then one JSON line
with per-pass timings.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from render.api import PASSES  # masks, depth, glb
from render.lifeline import die_with_parent

MAX_MM = 65535


def frame_name(frame: int) -> str:
    return f"{frame:06d}.png"


def depth_to_mm(z: np.ndarray) -> np.ndarray:
    """Camera-space z in metres -> uint16 millimetres (0 = no hit or beyond 65.535 m)."""
    mm = np.rint(np.nan_to_num(z.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0) * 1000.0)
    mm[(mm <= 0) | (mm > MAX_MM)] = 0
    return mm.astype(np.uint16)


def legend(scene: dict, ids: dict[int, tuple[str, str]], size: tuple[int, int], video: tuple[int, int],
           frames: list[int]) -> dict:
    """masks/legend.json (formats.masks.MaskLegend) for the id table of render.idcolors."""
    from formats.masks import MaskLegend

    rooms = {r["label"]: r for r in scene.get("rooms", [])}
    objects = {o["id"]: o for o in scene.get("objects", [])}
    entries = []
    for index, (kind, key) in sorted(ids.items()):
        if kind == "object":
            o = objects[key]
            entries.append({"index": index, "kind": "object", "key": key, "category": o["category"], "room": o["room"]})
        elif kind == "room":
            entries.append({"index": index, "kind": "room", "key": key, "category": rooms[key]["type"], "room": key})
        else:
            space = key.split(":", 1)[0]
            entries.append({"index": index, "kind": space, "key": key, "category": space, "room": None})
    return {"format": MaskLegend.FORMAT, "width": size[0], "height": size[1], "video_width": video[0],
            "video_height": video[1], "first_frame": frames[0], "frame_count": len(frames), "instances": entries}


def _write_png(path: Path, image: np.ndarray) -> None:
    import cv2

    tmp = path.with_name(f".{path.name}.tmp.png")
    if not cv2.imwrite(str(tmp), image, [cv2.IMWRITE_PNG_COMPRESSION, 3]):
        raise RuntimeError(f"could not write {path}")
    os.replace(tmp, path)


def render_passes(scene_json: Path, trajectory_json: Path, out_dir: Path, passes: list[str], profile: str = "preview",
                  cache: Path | None = None, id_scale: int | None = None, emit=None) -> dict:
    """Write the chosen passes into out_dir; returns {"timings_s": {...}, "masks_from_cache": n, "frames": n}
    (timings: wall seconds per pass, `*_cpu` CPU seconds of this process)."""
    import bpy

    from formats.base import dump_model, load_model, read_model, write_model
    from formats.masks import MaskLegend
    from formats.scene import Scene
    from formats.trajectory import Trajectory
    from render import idcolors
    from render.frame_cache import id_path, png_complete, pose_key
    from render.run import ID_SCALE, id_pass_size, inputs_hash, quiet_stdout
    from generator.doors import door_poses
    from render.scene_builder import build_scene, keyframe_camera, keyframe_doors

    unknown = sorted(set(passes) - set(PASSES))
    if unknown:
        raise ValueError(f"unknown pass(es) {', '.join(unknown)} (one of {', '.join(PASSES)})")
    scene = dump_model(read_model(scene_json, Scene))
    walk = read_model(trajectory_json, Trajectory)
    camera = walk.camera
    poses = door_poses(scene, [dump_model(f) for f in walk.frames], walk.fps, walk.insertions)   # as render.run keys them
    numbers = [int(p["frame"]) for p in poses]
    id_size = id_pass_size(camera.width, camera.height, ID_SCALE if id_scale is None else id_scale)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    built = build_scene(scene, profile, camera, *id_size)
    keyframe_camera(built.camera, poses)
    keyframe_doors(built, poses)
    for ob in bpy.data.collections["geometry"].objects:   # glTF node extras name what each node is
        if "egoscene_id" in ob.keys():
            kind, key = built.ids.get(int(ob["egoscene_id"]), ("outside", "exterior"))
            ob["egoscene_kind"], ob["egoscene_key"] = kind, key
    timings["build"] = time.perf_counter() - t0
    ids = built.id_scene
    total = len(poses) * sum(p in passes for p in ("masks", "depth"))
    done = [0]
    cached = 0
    with quiet_stdout() as out:
        say = emit or out

        def step() -> None:
            done[0] += 1
            say(f"progress {done[0]}/{total}")

        def render_still(path: Path, frame: int) -> None:
            # a one-frame animation, as render.run renders: the keyframed camera at `frame`
            ids.frame_start = ids.frame_end = frame
            ids.render.filepath = str(path.with_name(f"{path.stem}_######{path.suffix}"))
            bpy.ops.render.render(animation=True, scene=ids.name)
            os.replace(path.with_name(f"{path.stem}_{frame:06d}{path.suffix}"), path)

        if "glb" in passes:
            t0, c0 = time.perf_counter(), time.process_time()
            tmp = out_dir / f".scene.{os.getpid()}.tmp.glb"
            bpy.ops.export_scene.gltf(filepath=str(tmp), export_format="GLB", export_cameras=False,
                                      export_lights=False, export_extras=True, export_yup=True, export_apply=False,
                                      use_active_scene=True)
            os.replace(tmp, out_dir / "scene.glb")
            timings["glb"] = time.perf_counter() - t0
            timings["glb_cpu"] = time.process_time() - c0

        if "masks" in passes:
            import cv2

            t0, c0 = time.perf_counter(), time.process_time()
            masks = out_dir / "masks"
            masks.mkdir(exist_ok=True)
            frames_dir = None
            if cache is not None:
                frames_dir = Path(cache) / ".frames" / inputs_hash(scene, profile, camera, id_size)[:24]
            tmp = out_dir / f".ids.{os.getpid()}.tmp.png"
            for pose, f in zip(poses, numbers):
                src = id_path(frames_dir, pose_key(pose)) if frames_dir is not None else None
                if src is not None and png_complete(src):
                    cached += 1
                else:
                    render_still(tmp, f)
                    src = tmp
                img = cv2.imread(str(src), cv2.IMREAD_COLOR)
                if img is None:
                    raise RuntimeError(f"unreadable id frame {src}")
                _write_png(masks / frame_name(f), idcolors.decode_bgr(img).astype(np.uint16))
                step()
            tmp.unlink(missing_ok=True)
            data = legend(scene, built.ids, id_size, (camera.width, camera.height), numbers)
            write_model(masks / MaskLegend.FILENAME, load_model(data, MaskLegend, "masks/legend.json"))
            timings["masks"] = time.perf_counter() - t0
            timings["masks_cpu"] = time.process_time() - c0

        if "depth" in passes:
            t0, c0 = time.perf_counter(), time.process_time()
            depth = out_dir / "depth"
            depth.mkdir(exist_ok=True)
            _depth_output(ids, camera.width, camera.height)
            tmp = out_dir / f".depth.{os.getpid()}.tmp.exr"
            for f in numbers:
                render_still(tmp, f)
                z = _read_exr(tmp, camera.width, camera.height)
                _write_png(depth / frame_name(f), depth_to_mm(z))
                step()
            tmp.unlink(missing_ok=True)
            timings["depth"] = time.perf_counter() - t0
            timings["depth_cpu"] = time.process_time() - c0
    return {"timings_s": timings, "masks_from_cache": cached, "frames": len(poses)}


def _depth_output(scene, width: int, height: int) -> None:
    """The flat id scene at the video size, composited to its Z pass, written as a float EXR."""
    from render.scene_builder import composite_render_layer

    r = scene.render
    r.resolution_x, r.resolution_y = width, height
    scene.view_layers[0].use_pass_z = True
    composite_render_layer(scene, "depth", "Depth")
    s = r.image_settings
    s.media_type = "IMAGE"
    s.file_format = "OPEN_EXR"
    s.color_mode = "RGB"
    s.color_depth = "32"
    s.exr_codec = "NONE"
    scene.view_settings.view_transform = "Raw"


def _read_exr(path: Path, width: int, height: int) -> np.ndarray:
    """The first channel of a float EXR as rows top to bottom (Blender's pixels run bottom up)."""
    import bpy

    img = bpy.data.images.load(str(path), check_existing=False)
    try:
        if tuple(img.size) != (width, height):
            raise RuntimeError(f"{path}: {tuple(img.size)} instead of {width}x{height}")
        px = np.empty(width * height * img.channels, np.float32)
        img.pixels.foreach_get(px)
        return px.reshape(height, width, img.channels)[::-1, :, 0]
    finally:
        bpy.data.images.remove(img)


def main(argv=None) -> int:
    die_with_parent()
    ap = argparse.ArgumentParser(prog="python -m render.passes", description=__doc__.splitlines()[0])
    ap.add_argument("scene_json", type=Path)
    ap.add_argument("trajectory_json", type=Path)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--passes", required=True, help=f"comma-separated: {', '.join(PASSES)}")
    ap.add_argument("--profile", choices=("preview", "photoreal"), default="preview",
                    help="the render's profile (names its frame cache)")
    ap.add_argument("--cache", type=Path, default=None, help="render.run's OUT_DIR whose id frames to reuse")
    ap.add_argument("--id-scale", type=int, default=None, help="masks at 1/N of the video size (default: render.run's)")
    args = ap.parse_args(argv)
    passes = [p for p in args.passes.split(",") if p]
    result = render_passes(args.scene_json, args.trajectory_json, args.out_dir, passes, args.profile, args.cache,
                           args.id_scale)
    result["timings_s"] = {k: round(v, 3) for k, v in result["timings_s"].items()}
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
