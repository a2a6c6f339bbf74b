"""The main job end to end on a small frame size: walk, render, coverage, questions."""

import json

import cv2
import pytest
import shapely

from egoscene import pipeline
from queries.check import check_output
from tests.conftest import ROOT

pytestmark = pytest.mark.render


@pytest.fixture(scope="module")
def folder(rendered_scenario):
    return rendered_scenario   # conftest.py: scenario-05 at 160x120, rendered once per session


def test_video_matches_the_walk(folder):
    trajectory = json.loads((folder / "trajectory.json").read_text())
    video = cv2.VideoCapture(str(folder / "video.mp4"))
    assert int(video.get(cv2.CAP_PROP_FRAME_COUNT)) == len(trajectory["frames"])
    assert video.get(cv2.CAP_PROP_FPS) == 30
    assert (video.get(cv2.CAP_PROP_FRAME_WIDTH), video.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (160, 120)


def test_every_object_is_seen_in_the_rendered_frames(folder):
    scene = json.loads((folder / "scene.json").read_text())
    visibility = json.loads((folder / "visibility.json").read_text())
    trajectory = json.loads((folder / "trajectory.json").read_text())
    assert pipeline.under_seen(scene, trajectory, visibility) == {}
    start = scene["start"]                  # the walk starts inside its first room, seen from frame 0
    office = next(r for r in scene["rooms"] if r["label"] == "main office")
    assert start["floor"] == office["floor"]
    assert shapely.Polygon(office["polygon"]).contains(shapely.Point(start["position"][:2]))
    assert visibility["rooms"]["main office"]["first_frame"] == 0


def test_questions_pass_the_independent_check_and_manifest_is_complete(folder):
    records = [json.loads(line) for line in (folder / "queries.jsonl").read_text().splitlines()]
    assert {r["task"] for r in records} >= {"appearance_order", "object_counting", "memory_action", "global_counting"}
    assert check_output(folder) == []
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["stages"] == list(pipeline.STAGES)
    assert {"render", "queries", "check"} <= set(manifest["timings_s"])
    assert manifest["walk"]["rooms_visited"] == ["main office", "bathroom", "locker room", "lounge", "file room"]
    assert not (folder.parent / ".cache").exists()  # the frame cache goes once the folder is published


def test_a_code_change_after_rendering_redoes_only_what_it_affects(folder, monkeypatch):
    """Query code changed (a different fingerprint): the video is kept, the questions are redone."""
    before = json.loads((folder / "manifest.json").read_text())
    video = (folder / "video.mp4").read_bytes()
    monkeypatch.setitem(pipeline.STAGE_CODE, "queries", pipeline.STAGE_CODE["queries"] + ("queries.judge",))
    result = pipeline.generate(ROOT / "scenarios" / "scenario-05.yaml", folder.parent, pipeline.Options(width=160, height=120))
    assert not result.reused
    assert "render" not in result.timings and "queries" in result.timings
    after = json.loads((folder / "manifest.json").read_text())
    assert after["render_key"] == before["render_key"]
    assert after["code"]["queries"] != before["code"]["queries"] and after["code"]["render"] == before["code"]["render"]
    assert (folder / "video.mp4").read_bytes() == video
    assert after["files"]["trajectory.json"] == before["files"]["trajectory.json"]
    assert check_output(folder) == []


def test_a_deleted_question_file_or_new_query_options_keep_the_video(folder):
    """Only what depends on the change is redone (issue 14.6): no second render."""
    video = (folder / "video.mp4").read_bytes()
    (folder / "queries.jsonl").unlink()
    result = pipeline.generate(ROOT / "scenarios" / "scenario-05.yaml", folder.parent, pipeline.Options(width=160, height=120))
    assert "render" not in result.timings and (folder / "queries.jsonl").exists()
    result = pipeline.generate(ROOT / "scenarios" / "scenario-05.yaml", folder.parent,
                               pipeline.Options(width=160, height=120, per_task=1))
    assert not result.reused and "render" not in result.timings
    assert (folder / "video.mp4").read_bytes() == video
    assert check_output(folder) == []
