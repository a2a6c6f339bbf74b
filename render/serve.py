"""One Blender process for the walks of one scene: render.run's work, request by request.

    python -m render.serve SCENE_JSON OUT_DIR --profile preview [--camera CAMERA_JSON]

The coverage loop renders a walk, extends it and renders the extended walk. In a fresh process
each, every walk paid Python's and bpy's start-up and the scene build again (about 3 s at
640x480). This process starts before the first walk is planned: with `--camera` (the camera the
walk will be planned with, formats.camera.Camera as JSON) it builds the scene at once, beside
the walk planner. Then it reads one JSON request a line from stdin,

    {"trajectory": "OUT_DIR/trajectory.json", "trim": false}

renders that walk into OUT_DIR exactly as `python -m render.run` would (frame cache, id helper,
outputs; a walk after the first only keyframes the camera and the doors again), printing the
same `progress a/b` lines and then one line `done {report}`. It exits when stdin closes.
render.api.RenderSession drives it. All of one scene: Blender's memory grows across scenes.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import sys
from pathlib import Path

from formats.base import dump_model, read_model
from formats.camera import Camera
from formats.scene import Scene
from render.lifeline import die_with_parent
from render.run import ID_SCALE, id_pass_size, inputs_hash, prepare, quiet_stdout, render_scenario

DONE = "done "  # the line that ends a request's output, followed by its report as JSON


def serve(scene_path: Path, out_dir: Path, profile: str, camera: Camera | None, requests, reply) -> None:
    """Build the scene for `camera` now (when given), then render each request of `requests`
    (JSON lines) and pass its report to `reply`."""
    if camera is not None:
        scene = dump_model(read_model(scene_path, Scene))
        size = id_pass_size(camera.width, camera.height, ID_SCALE)
        with quiet_stdout():
            prepare(scene, profile, camera, size, inputs_hash(scene, profile, camera, size))
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        # progress lines go to the real stdout even while Blender's own output is silenced
        result = render_scenario(scene_path, Path(request["trajectory"]), out_dir, profile,
                                 trim=bool(request.get("trim", True)))
        reply(DONE + json.dumps({"status": result["status"], "frames": result.get("frames"),
                                 "rendered": result.get("rendered", {}),
                                 "timings_s": {k: round(v, 3) for k, v in result.get("timings_s", {}).items()}}))


def main(argv=None) -> int:
    die_with_parent()
    faulthandler.enable()   # a crash leaves the Python stack in the log render.api keeps
    ap = argparse.ArgumentParser(prog="python -m render.serve", description=__doc__.splitlines()[0])
    ap.add_argument("scene_json", type=Path)
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--profile", choices=("preview", "photoreal"), default="preview")
    ap.add_argument("--camera", default=None, help="the walk's camera as JSON (formats.camera.Camera): build at once")
    args = ap.parse_args(argv)
    camera = Camera.model_validate(json.loads(args.camera)) if args.camera else None

    def reply(line: str) -> None:
        print(line, flush=True)
    serve(args.scene_json, args.out_dir, args.profile, camera, sys.stdin, reply)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
