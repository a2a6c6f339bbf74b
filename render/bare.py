"""The baseline for `egoscene bench`: a bare bpy render of the same frames.

Builds the same scene as render.run (same profile settings), keyframes the camera along the
trajectory and lets Blender render the animation straight into an H.264 video - no id pass,
no frame cache, no visibility. `bare_render` returns the wall time of all that (scene
build included, Python/bpy start-up excluded).

    python -m render.bare SCENE_JSON TRAJECTORY_JSON OUT_MP4 [--profile preview]   (size: the trajectory's camera)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from render.lifeline import die_with_parent


def bare_render(scene_json, trajectory_json, out_mp4, profile: str = "preview", width: int | None = None,
                height: int | None = None) -> float:
    """The frame size is the trajectory camera's; `width`/`height`, when given, must match it."""
    import bpy

    from formats.base import dump_model, read_model
    from formats.scene import Scene
    from formats.trajectory import Trajectory
    from generator.doors import door_poses
    from render.run import quiet_stdout
    from render.scene_builder import build_scene, configure_video_output, keyframe_camera, keyframe_doors

    started = time.perf_counter()
    scene = dump_model(read_model(scene_json, Scene))
    walk = read_model(trajectory_json, Trajectory)
    camera = walk.camera
    if (width, height) != (None, None) and (int(width), int(height)) != (camera.width, camera.height):
        raise ValueError(f"{trajectory_json}: its camera is {camera.width}x{camera.height}, not {width}x{height}")
    poses = door_poses(scene, [dump_model(f) for f in walk.frames], walk.fps, walk.insertions)
    built = build_scene(scene, profile, camera)
    keyframe_camera(built.camera, poses)
    keyframe_doors(built, poses)          # the same frames as the pipeline's video
    sc = built.color_scene
    sc.frame_start, sc.frame_end = int(poses[0]["frame"]), int(poses[-1]["frame"])
    sc.render.fps = walk.fps
    configure_video_output(sc, Path(out_mp4).resolve())
    with quiet_stdout():
        bpy.ops.render.render(animation=True, scene=sc.name)
    return time.perf_counter() - started


def main(argv=None) -> int:
    die_with_parent()
    ap = argparse.ArgumentParser(prog="python -m render.bare", description=__doc__.splitlines()[0])
    ap.add_argument("scene_json", type=Path)
    ap.add_argument("trajectory_json", type=Path)
    ap.add_argument("out_mp4", type=Path)
    ap.add_argument("--profile", choices=("preview", "photoreal"), default="preview")
    ap.add_argument("--width", type=int, default=None, help="check: must be the trajectory camera's width")
    ap.add_argument("--height", type=int, default=None, help="check: must be the trajectory camera's height")
    args = ap.parse_args(argv)
    cpu = time.process_time()
    seconds = bare_render(args.scene_json, args.trajectory_json, args.out_mp4, args.profile, args.width, args.height)
    print(json.dumps({"seconds": round(seconds, 3), "cpu_seconds": round(time.process_time() - cpu, 3)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
