"""One Blender process for the walks of a scene (render.api.RenderSession, render.serve): the
coverage loop renders a walk and its extension without starting Blender and building the
scene again. Each walk must come out byte for byte as a fresh process renders it."""

from __future__ import annotations

import json
import subprocess as sp
from pathlib import Path

import pytest

from render import api
from tests.test_render import W, H, two_rooms


def _walk(points: list[tuple[float, float, float]]) -> dict:
    from formats.base import dump_model
    from formats.camera import Camera
    from formats.trajectory import Trajectory

    frames = [{"frame": i, "t": round(i / 30, 4), "position": [x, y, 1.6], "yaw": yaw % 360.0, "pitch": -4.0,
               "room": "kitchen" if x < 4.0 else "living room", "floor": 0} for i, (x, y, yaw) in enumerate(points)]
    return dump_model(Trajectory(format=Trajectory.FORMAT, fps=30, camera=Camera.standard(W, H), frames=frames,
                                 events=[], narration=[]))


@pytest.mark.render
def test_a_session_renders_each_walk_as_a_fresh_process_would(tmp_path: Path, monkeypatch):
    from formats.camera import Camera

    scene_path = tmp_path / "scene.json"
    scene_path.write_text(json.dumps(two_rooms()))
    # through the door (its leaf swings open), then a walk that stays 2.3 m off it, facing it:
    # the second walk's door must be closed throughout, whatever the first walk keyed
    through = tmp_path / "through.json"
    through.write_text(json.dumps(_walk([(2.5 + 0.05 * i, 2.0, 0.0) for i in range(60)])))
    facing = tmp_path / "facing.json"
    facing.write_text(json.dumps(_walk([(1.7, 2.0 + 0.01 * i, 0.5 * i) for i in range(40)])))

    started: list[list[str]] = []
    real_popen = sp.Popen

    def recording_popen(cmd, *args, **kwargs):
        started.append(list(cmd))
        return real_popen(cmd, *args, **kwargs)

    monkeypatch.setattr(api.subprocess, "Popen", recording_popen)
    out = tmp_path / "out"
    with api.RenderSession(scene_path, out, camera=Camera.standard(W, H)) as session:
        first = session.render(through, trim=False)
        assert first.stats["status"] == "done" and first.stats["rendered"]["color_frames"] == 60
        first_video = first.video.read_bytes()
        second = session.render(facing, trim=False)
        assert second.stats["status"] == "done" and second.stats["rendered"]["color_frames"] == 40
    assert len(started) == 1 and "render.serve" in started[0]      # one Blender for both walks

    for walk, video, name in ((through, first_video, "through"), (facing, None, "facing")):
        fresh = api.render(scene_path, walk, tmp_path / name)
        assert (video or (out / "video.mp4").read_bytes()) == fresh.video.read_bytes(), name
    assert (out / "visibility.json").read_bytes() == (tmp_path / "facing" / "visibility.json").read_bytes()
