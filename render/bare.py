"""The baseline for `egoscene bench`: a bare bpy render of the same frames.

Builds the same scene as render.run (same profile settings), keyframes the camera along the
trajectory and lets Blender render the animation straight into an H.264 video - no id pass,
no frame cache, no visibility. `bare_render` returns the wall time of all that (scene
build included, Python/bpy start-up excluded).

    python -m render.bare SCENE_JSON TRAJECTORY_JSON OUT_MP4 [--profile preview] [--width 640 --height 480]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def bare_render(scene_json, trajectory_json, out_mp4, profile: str = "preview", width: int = 640,
                height: int = 480) -> float:
    import bpy

    from render.run import quiet_stdout
    from render.scene_builder import build_scene, configure_video_output, keyframe_camera

    started = time.perf_counter()
    scene = json.loads(Path(scene_json).read_text())
    trajectory = json.loads(Path(trajectory_json).read_text())
    poses = trajectory["frames"]
    built = build_scene(scene, profile, width, height)
    keyframe_camera(built.camera, poses)
    sc = built.color_scene
    sc.frame_start, sc.frame_end = int(poses[0]["frame"]), int(poses[-1]["frame"])
    sc.render.fps = int(trajectory.get("fps", 30))
    configure_video_output(sc, Path(out_mp4).resolve())
    with quiet_stdout():
        bpy.ops.render.render(animation=True, scene=sc.name)
    return time.perf_counter() - started


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m render.bare", description=__doc__.splitlines()[0])
    ap.add_argument("scene_json", type=Path)
    ap.add_argument("trajectory_json", type=Path)
    ap.add_argument("out_mp4", type=Path)
    ap.add_argument("--profile", choices=("preview", "photoreal"), default="preview")
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=480)
    args = ap.parse_args(argv)
    cpu = time.process_time()
    seconds = bare_render(args.scene_json, args.trajectory_json, args.out_mp4, args.profile, args.width, args.height)
    print(json.dumps({"seconds": round(seconds, 3), "cpu_seconds": round(time.process_time() - cpu, 3)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
