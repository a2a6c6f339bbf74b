"""Rendering (render/): shells, id colours, segment joining, and small real renders.

The Blender tests run `python -m render.run` in a subprocess, as the pipeline does, on a
hand-made two-room scene: a fridge straight ahead of the camera, a sofa behind it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
W, H = 160, 120


def two_rooms() -> dict:
    """kitchen (0..4 x 0..4) | living room (4..8 x 0..4), a door between, a window south."""
    walls = [
        {"floor": 0, "a": [0, 0], "b": [4, 0], "exterior": True},
        {"floor": 0, "a": [4, 0], "b": [8, 0], "exterior": True},
        {"floor": 0, "a": [8, 0], "b": [8, 4], "exterior": True},
        {"floor": 0, "a": [0, 4], "b": [4, 4], "exterior": True},
        {"floor": 0, "a": [4, 4], "b": [8, 4], "exterior": True},
        {"floor": 0, "a": [0, 0], "b": [0, 4], "exterior": True},
        {"floor": 0, "a": [4, 0], "b": [4, 4], "exterior": False},
    ]
    return {
        "format": "egoscene.scene/1", "name": "render-test", "seed": 3, "typology": "single-story residence",
        "versions": {"egoscene": "0.1.0"},
        "floors": [{"floor": 0, "elevation": 0.0, "height": 2.8}],
        "rooms": [
            {"label": "kitchen", "type": "kitchen", "floor": 0, "area": 16.0, "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]},
            {"label": "living room", "type": "living room", "floor": 0, "area": 16.0,
             "polygon": [[4, 0], [8, 0], [8, 4], [4, 4]]},
        ],
        "hallways": [], "stairs": [],
        "doors": [{"id": "door-1", "rooms": ["kitchen", "living room"], "floor": 0, "position": [4, 2],
                   "width": 0.9, "height": 2.1, "wall_axis": "y"}],
        "windows": [{"id": "window-1", "room": "kitchen", "floor": 0, "position": [2, 0], "width": 1.2,
                     "sill": 0.9, "height": 1.2, "normal": [0, -1]}],
        "walls": walls,
        "relations": {"adjacent": [["kitchen", "living room"]], "opposite": [], "vertical": []},
        "start": {"position": [2, 1.6], "heading": [0, 1], "floor": 0},
        "objects": [
            {"id": "kitchen/fridge/1", "category": "fridge", "room": "kitchen", "floor": 0,
             "position": [2.0, 3.6, 0.0], "yaw": 270.0, "size": [0.7, 0.7, 1.8], "support": "floor",
             "footprint": [[1.65, 3.25], [2.35, 3.25], [2.35, 3.95], [1.65, 3.95]],
             "attributes": {"color": "red", "material": "metal", "model_seed": 11}},
            {"id": "kitchen/sofa/1", "category": "sofa", "room": "kitchen", "floor": 0,
             "position": [2.0, 0.55, 0.0], "yaw": 90.0, "size": [1.8, 0.9, 0.85], "support": "floor",
             "footprint": [[1.1, 0.1], [2.9, 0.1], [2.9, 1.0], [1.1, 1.0]],
             "attributes": {"color": "blue", "material": "fabric", "model_seed": 12}},
            {"id": "kitchen/window/1", "category": "window", "room": "kitchen", "floor": 0,
             "position": [2.0, 0.0, 0.9], "yaw": 90.0, "size": [1.2, 0.1, 1.2], "support": "window",
             "footprint": [[1.4, -0.05], [2.6, -0.05], [2.6, 0.05], [1.4, 0.05]],
             "attributes": {"color": "white", "material": "wood", "model_seed": 13, "opening": "window-1"}},
        ],
    }


def look_north(n: int = 6, width: int = W, height: int = H) -> dict:
    """trajectory.json (formats.trajectory) of a camera of width x height turning slowly left."""
    from formats.base import dump_model
    from formats.camera import Camera
    from formats.trajectory import Trajectory

    frames = [{"frame": i, "t": round(i / 30, 4), "position": [2.0, 1.6 + 0.02 * i, 1.6], "yaw": (90.0 + i) % 360.0,
               "pitch": -4.0, "room": "kitchen", "floor": 0} for i in range(n)]
    return dump_model(Trajectory(format=Trajectory.FORMAT, fps=30, camera=Camera.standard(width, height), frames=frames,
                                 events=[], narration=[]))


# --- no Blender needed ------------------------------------------------------------------------

def test_id_colours_round_trip():
    from render import idcolors

    ids = np.array([0, 1, 15, 16, 255, 256, 1234, idcolors.MAX_IDS - 1])
    bgr = np.array([[round(c * 255) for c in idcolors.id_to_rgba(int(i))[:3]][::-1] for i in ids], np.uint8)
    noisy = np.clip(bgr.astype(int) + np.array([[3, -4, 7]]), 0, 255).astype(np.uint8)   # rounding slack
    assert (idcolors.decode_bgr(bgr[None])[0] == ids).all()
    assert (idcolors.decode_bgr(noisy[None])[0] == ids).all()
    table = idcolors.assign_ids(two_rooms())
    assert table[("room", "kitchen")] == 1 and table[("object", "kitchen/fridge/1")] > 2
    assert len(set(table.values())) == len(table)


def test_shell_walls_leave_openings():
    from render.shell import build_shell

    shell = build_shell(two_rooms())
    walls = [p for p in shell.parts if p.name == "wall"]

    def solid_at(x, y, z):
        for p in walls:
            lo, hi = p.mesh.bounds
            for m in p.mesh.split(only_watertight=False) if len(p.mesh.faces) > 12 else [p.mesh]:
                lo, hi = m.bounds
                if (lo <= [x, y, z]).all() and (hi >= [x, y, z]).all():
                    return True
        return False
    assert not solid_at(4.0, 2.0, 1.0)          # the doorway
    assert solid_at(4.0, 2.0, 2.5)              # lintel above it
    assert solid_at(4.0, 3.2, 1.0)              # wall beside it
    assert not solid_at(2.0, 0.0, 1.5)          # the window opening
    assert solid_at(2.0, 0.0, 0.5) and solid_at(2.0, 0.0, 2.4)   # below the sill, above the head
    owners = {p.owner for p in walls}
    assert {"kitchen", "living room", "exterior"} <= owners
    # each side of the shared wall belongs to the room it faces
    side = {p.owner for p in walls if abs(p.mesh.bounds[0][0] - 3.95) < 1e-6 or abs(p.mesh.bounds[1][0] - 4.05) < 1e-6}
    assert side == {"kitchen", "living room"}
    assert len(shell.lights) >= 2


def test_id_pass_size_keeps_aspect():
    from render.run import id_pass_size

    assert id_pass_size(640, 480, 4) == (160, 120)
    assert id_pass_size(640, 480, 3) == (320, 240)       # 3 does not divide 480/640 evenly
    assert id_pass_size(160, 120, 2) == (80, 60)


def test_id_pass_resolves_a_thousandth_of_the_frame():
    """Issue 10: 'seen' is 0.1% of the frame, so the id pass is at least 320x240 at 640x480."""
    import inspect

    from render.run import ID_SCALE, id_pass_size, render_scenario

    assert inspect.signature(render_scenario).parameters["id_scale"].default == ID_SCALE
    w, h = id_pass_size(640, 480, ID_SCALE)
    assert (w, h) == (320, 240) and 0.001 * w * h >= 75


# --- Blender ----------------------------------------------------------------------------------

def _run(tmp: Path, out: Path, *extra: str, scene: dict | None = None, traj: dict | None = None) -> dict:
    scene_path, traj_path = tmp / "scene.json", tmp / "trajectory.json"
    scene_path.write_text(json.dumps(scene or two_rooms()))
    traj_path.write_text(json.dumps(traj or look_north()))
    done = subprocess.run([sys.executable, "-m", "render.run", str(scene_path), str(traj_path), str(out),
                           "--width", str(W), "--height", str(H), "--id-scale", "2", "--min-pixels", "20", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert any(line.startswith("progress ") for line in lines)
    return json.loads(lines[-1])


def _video(path: Path):
    import cv2

    cap = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        frames.append(frame)
    return cap.get(cv2.CAP_PROP_FPS), frames


@pytest.mark.render
def test_render_video_visibility_and_resume(tmp_path):
    out = tmp_path / "out"
    first = _run(tmp_path, out, "--chunk", "4")          # 6 frames -> 2 segments, joined
    assert first["status"] == "done" and first["frames"] == 6

    fps, frames = _video(out / "video.mp4")
    assert fps == 30 and len(frames) == 6
    assert frames[0].shape == (H, W, 3)
    assert all(f.std() > 10 for f in frames)             # not blank

    vis = json.loads((out / "visibility.json").read_text())
    assert (vis["width"], vis["height"], vis["fps"]) == (W, H, 30)
    fridge, sofa = vis["objects"]["kitchen/fridge/1"], vis["objects"]["kitchen/sofa/1"]
    assert fridge["frames"] == list(range(6)) and fridge["first_frame"] == 0
    assert min(fridge["pixels"]) > 0.05 * W * H          # straight ahead: a big part of the image
    assert sofa["frames"] == [] and sofa["first_frame"] is None     # behind the camera
    assert vis["rooms"]["kitchen"]["frames"] == list(range(6))
    assert sum(vis["rooms"]["living room"]["pixels"]) < sum(vis["rooms"]["kitchen"]["pixels"])

    # the fridge is red and in the middle of the frame (the id pass lines up with the video)
    mid = frames[0][H // 3:2 * H // 3, W // 2 - 10:W // 2 + 10].reshape(-1, 3).mean(0)
    assert mid[2] > mid[1] + 30 and mid[2] > mid[0] + 30

    # same inputs: nothing to do
    assert _run(tmp_path, out)["status"] == "up-to-date"

    # video deleted: the cached segments and id frames are reused, nothing is rendered again
    video_bytes = (out / "video.mp4").read_bytes()
    (out / "video.mp4").unlink()
    again = _run(tmp_path, out, "--chunk", "4")
    assert again["status"] == "done" and "color" not in again["timings_s"]
    assert (out / "video.mp4").read_bytes() == video_bytes


FAILING_HELPER = """
import sys
import render.id_helper as h
import render.run as r

class Failing(h.IdHelper):
    @classmethod
    def start(cls, *args, **kwargs):
        return cls([sys.executable, "-c", "raise SystemExit(3)"])

r.IdHelper = Failing
raise SystemExit(r.main(sys.argv[1:]))
"""


@pytest.mark.render
def test_the_id_pass_renders_beside_the_colour_and_a_failing_helper_costs_no_frame(tmp_path):
    helped = _run(tmp_path, tmp_path / "helped", "--chunk", "4")
    assert helped["rendered"]["ids_by_helper"] == helped["rendered"]["id_frames"] > 0
    assert "ids_helper_error" not in helped["rendered"]
    assert not [p for p in (tmp_path / "helped" / ".frames").rglob("*") if "staging" in p.name]

    # the helper dies at once: this process renders the id frames itself, with the same result
    scene_path, traj_path, out = tmp_path / "scene.json", tmp_path / "trajectory.json", tmp_path / "alone"
    done = subprocess.run([sys.executable, "-c", FAILING_HELPER, str(scene_path), str(traj_path), str(out),
                           "--id-scale", "2", "--min-pixels", "20", "--chunk", "4"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    alone = json.loads(done.stdout.strip().splitlines()[-1])
    assert alone["rendered"]["ids_helper_error"].startswith("exit 3")
    assert alone["rendered"]["ids_by_helper"] == 0
    assert alone["rendered"]["id_frames"] == helped["rendered"]["id_frames"]
    for name in ("video.mp4", "visibility.json"):
        assert (out / name).read_bytes() == (tmp_path / "helped" / name).read_bytes(), name
    assert not [p for p in (out / ".frames").rglob("*") if "staging" in p.name]


@pytest.mark.render
def test_render_partial_frames_then_complete(tmp_path):
    out = tmp_path / "out"
    part = _run(tmp_path, out, "--chunk", "3", "--frames", "0:3")
    assert part["status"] == "partial"
    assert not (out / "video.mp4").exists() and not (out / "visibility.json").exists()
    rest = _run(tmp_path, out, "--chunk", "3", "--frames", "3:", "--clean")
    assert rest["status"] == "done"
    _, frames = _video(out / "video.mp4")
    assert len(frames) == 6
    assert not (out / ".frames").exists()


@pytest.mark.render
def test_render_photoreal_small(tmp_path):
    out = tmp_path / "out"
    traj = look_north(2)
    result = _run(tmp_path, out, "--profile", "photoreal", traj=traj)
    assert result["status"] == "done"
    _, frames = _video(out / "video.mp4")
    assert len(frames) == 2 and frames[0].std() > 10
    vis = json.loads((out / "visibility.json").read_text())
    assert vis["objects"]["kitchen/fridge/1"]["frames"] == [0, 1]


@pytest.mark.render
def test_an_interrupted_render_stops_blender(tmp_path, monkeypatch):
    """Ctrl-C (here: an exception from the progress callback) must not leave Blender running."""
    import subprocess as sp

    from render import api

    started: list[sp.Popen] = []
    real_popen = sp.Popen

    def recording_popen(*args, **kwargs):
        proc = real_popen(*args, **kwargs)
        started.append(proc)
        return proc

    monkeypatch.setattr(api.subprocess, "Popen", recording_popen)
    scene_path, traj_path = tmp_path / "scene.json", tmp_path / "trajectory.json"
    scene_path.write_text(json.dumps(two_rooms()))
    traj_path.write_text(json.dumps(look_north(300)))

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        api.render(scene_path, traj_path, tmp_path / "out", on_progress=interrupt)
    assert started and started[0].poll() is not None  # the Blender process is gone ...
    assert started[0].returncode < 0  # ... stopped by a signal, not left to render the whole walk


AA_SCRIPT = """
import json, sys
import bpy
from formats.base import dump_model, load_model
from formats.trajectory import Trajectory
from render.scene_builder import build_scene, keyframe_camera
scene, traj, out = json.loads(open(sys.argv[1]).read()), load_model(json.loads(open(sys.argv[2]).read()), Trajectory, sys.argv[2]), sys.argv[3]
built = build_scene(scene, "preview", traj.camera)
keyframe_camera(built.camera, [dump_model(f) for f in traj.frames])
color = built.color_scene
color.frame_set(0)
assert color.render.use_compositing and color.display.render_aa == "OFF"   # as shipped
for name, compositing in (("smaa", True), ("raw", False)):
    color.render.use_compositing = compositing
    color.render.filepath = f"{out}/{name}.png"
    bpy.ops.render.render(write_still=True, scene=color.name)
"""


@pytest.mark.render
def test_preview_frames_are_anti_aliased(tmp_path):
    """Preview renders Workbench without its own anti-aliasing (slow on software GL) and
    smooths edges in the compositor: the shipped frame differs from the raw one only along edges."""
    import cv2

    (tmp_path / "scene.json").write_text(json.dumps(two_rooms()))
    (tmp_path / "trajectory.json").write_text(json.dumps(look_north(1, 320, 240)))
    done = subprocess.run([sys.executable, "-c", AA_SCRIPT, str(tmp_path / "scene.json"),
                           str(tmp_path / "trajectory.json"), str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    smooth = cv2.imread(str(tmp_path / "smaa.png")).astype(int)
    raw = cv2.imread(str(tmp_path / "raw.png"))
    changed = np.abs(smooth - raw.astype(int)).max(axis=2) > 8
    assert changed.sum() > 30                       # edges were blended
    edges = cv2.dilate(cv2.Canny(raw, 20, 60), np.ones((3, 3), np.uint8)) > 0
    assert not (changed & ~edges).any()             # and nothing else changed
