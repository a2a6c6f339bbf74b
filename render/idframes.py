"""The instance-ID pass of chosen frames of a walk, at the video's size (for `egoscene audit`).

    python -m render.idframes SCENE_JSON TRAJECTORY_JSON OUT_DIR --frames 3,17,200 [--scale 1]

The renderer keeps its id frames only in its cache (deleted once a scenario is published),
so the audit renders again just the frames it shows. The scene is built exactly as for the
video (render.scene_builder: the same geometry, the same exact id colours of render.idcolors
that visibility.json was counted from); the camera is set to each frame's pose and only the
flat Workbench id scene is rendered, one PNG per frame: OUT_DIR/ids_<frame:06d>.png. OUT_DIR/
ids.json maps every id to what it is: {"<id>": ["object" | "room" | "space", key]}.

Run it in a fresh process (render.api.id_frames does). stdout: `progress <done>/<total>` lines.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from render.lifeline import die_with_parent


def id_frame_path(out_dir: Path, frame: int) -> Path:
    return Path(out_dir) / f"ids_{frame:06d}.png"


def render_id_frames(scene_json: Path, trajectory_json: Path, out_dir: Path, frames: list[int],
                     scale: int = 1, emit=None) -> list[Path]:
    """Write the id pass of `frames` (trajectory frame numbers) at 1/scale of the video size."""
    import bpy

    from formats.base import dump_model, read_model
    from formats.scene import Scene
    from formats.trajectory import Trajectory
    from render.run import id_pass_size, quiet_stdout
    from generator.doors import door_poses
    from render.scene_builder import build_scene, set_doors, set_pose

    scene = dump_model(read_model(scene_json, Scene))
    walk = read_model(trajectory_json, Trajectory)
    poses = {int(p["frame"]): p for p in door_poses(scene, [dump_model(f) for f in walk.frames], walk.fps, walk.insertions)}
    missing = [f for f in frames if f not in poses]
    if missing:
        raise ValueError(f"{trajectory_json}: no frames {missing[:5]} (it has 0-{len(poses) - 1})")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    built = build_scene(scene, "preview", walk.camera, *id_pass_size(walk.camera.width, walk.camera.height, scale))
    ids_json = {str(i): [kind, key] for i, (kind, key) in sorted(built.ids.items())}
    (out_dir / "ids.json").write_text(json.dumps(ids_json, sort_keys=True))
    ids = built.id_scene
    wanted = sorted(set(frames))
    written = []
    with quiet_stdout() as out:
        say = emit or out
        for k, f in enumerate(wanted):
            set_pose(built.camera, poses[f])
            set_doors(built, poses[f].get("doors"))
            path = id_frame_path(out_dir, f)
            ids.frame_current = f
            ids.render.filepath = str(path.with_suffix(f".{os.getpid()}.tmp.png"))
            bpy.ops.render.render(write_still=True, scene=ids.name)
            os.replace(ids.render.filepath, path)
            written.append(path)
            say(f"progress {k + 1}/{len(wanted)}")
    return written


def _frames(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main(argv=None) -> int:
    die_with_parent()
    ap = argparse.ArgumentParser(prog="python -m render.idframes", description=__doc__.splitlines()[0])
    ap.add_argument("scene_json", type=Path)
    ap.add_argument("trajectory_json", type=Path)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--frames", type=_frames, required=True, help="comma-separated trajectory frame numbers")
    ap.add_argument("--scale", type=int, default=1, help="id pass at 1/N of the video size (default 1: full size)")
    args = ap.parse_args(argv)
    render_id_frames(args.scene_json, args.trajectory_json, args.out_dir, args.frames, args.scale)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
