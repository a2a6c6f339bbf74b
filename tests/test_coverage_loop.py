"""The coverage loop (egoscene.pipeline._render_with_coverage) without Blender: the renderer,
the walk planner and the "seen" rule are stand-ins, so what is tested is the loop itself."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import generator.walk.plan as walk_plan
from egoscene import pipeline


@pytest.fixture
def loop(monkeypatch, tmp_path):
    """Runs the loop with `missing` as the under-seen objects after each render; returns the
    extra looks each planned walk was given and the loop's result."""
    walks, renders = [], []

    def plan_walk(scenario, scene, extra_looks=None, **_):
        walks.append({room: list(ids) for room, ids in (extra_looks or {}).items()})
        return {"frames": [{"frame": k} for k in range(100 + 10 * len(walks))]}

    def render(trajectory_path, **_):
        renders.append(1)
        for name in ("video.mp4", "visibility.json"):
            (trajectory_path.parent / name).write_text("stand-in")
        return SimpleNamespace(stats={})

    monkeypatch.setattr(walk_plan, "plan_walk", plan_walk)
    monkeypatch.setattr(walk_plan, "walk_summary", lambda traj: {"frames": len(traj["frames"])})
    monkeypatch.setattr(pipeline, "_write", lambda path, data, model: None)
    monkeypatch.setattr(pipeline, "read_model", lambda path, model: {})
    monkeypatch.setattr(pipeline, "dump_model", lambda model: model)

    def run(missing_after_each_render):
        answers = iter(missing_after_each_render)
        monkeypatch.setattr(pipeline, "under_seen", lambda scene, trajectory, visibility: next(answers))
        staging = tmp_path / "staging"
        staging.mkdir(exist_ok=True)
        scenario = SimpleNamespace(name="tiny", source="tiny.yaml")
        first = plan_walk(scenario, {})
        clock = pipeline._Clock(lambda stage: None)
        _, info = pipeline._render_with_coverage(scenario, {}, first, tmp_path / "out", staging,
                                                 pipeline.Options(width=64, height=48), clock, None, "key",
                                                 SimpleNamespace(render=render))
        return walks, renders, info

    return run


def test_the_loop_stops_when_an_extension_would_repeat_the_last_walk(loop):
    # The cup stays under-seen after its extra look: a second extension would plan the same walk
    # (plan_walk is deterministic) and render it again for nothing.
    cup = {"kitchen": ["kitchen/cup/1"]}
    walks, renders, info = loop([cup, cup, cup])
    assert walks == [{}, cup]             # the first walk and one extension, not a repeat of it
    assert len(renders) == 2
    assert info["extensions"] == 1 and info["unseen"] == cup


def test_an_extension_that_plans_the_same_walk_is_not_rendered_again(loop, monkeypatch):
    # No standpoint shows the glasses any better, so the extended walk is the first walk again
    # (generator.walk.plan fits no look in): rendering it would change nothing.
    planned = []

    def plan_walk(scenario, scene, extra_looks=None, **_):
        planned.append(dict(extra_looks or {}))
        return {"frames": [{"frame": k} for k in range(110)]}   # the fixture's first walk

    monkeypatch.setattr(walk_plan, "plan_walk", plan_walk)
    glasses = {"bedroom": ["bedroom/eyeglasses/1"]}
    _, renders, info = loop([glasses, glasses])
    assert planned == [glasses] and len(renders) == 1
    assert info["extensions"] == 0 and info["unseen"] == glasses


def test_the_loop_extends_again_for_something_newly_missing(loop):
    cup, book = {"kitchen": ["kitchen/cup/1"]}, {"study": ["study/book/1"]}
    walks, renders, info = loop([cup, book, {}])
    assert walks == [{}, cup, {**cup, **book}]
    assert len(renders) == 3 and info["extensions"] == 2 and info["unseen"] == {}


def test_a_thing_seen_only_as_a_sliver_is_under_seen():
    """The loop looks again at what the questions would not name: a chair over 0.1% of the
    frame but never showing 15% of its box's outline (a strip behind another chair) is
    under-seen, as is a tv seen only from behind; a pendant bulb, mostly cord, needs only to be seen."""
    from fixtures.queries.builder import house, obj

    bulb = obj("kitchen/bulb/1", 2.0, 2.0, w=0.08, d=0.08, support="ceiling")
    bulb["position"][2], bulb["size"][2] = 2.2, 0.55
    objs = [obj("kitchen/chair/1", 1, 4), obj("kitchen/chair/2", 2, 4), obj("kitchen/chair/3", 3, 4),
            obj("kitchen/tv/1", 3.5, 2.0, yaw=90.0), bulb]            # the tv faces away from the camera
    files = house({"kitchen": [0, 0, 4, 6]}, objs, ["kitchen"])
    for oid in ("kitchen/bulb/1", "kitchen/chair/2"):
        track = files["visibility.json"]["objects"][oid]
        track["pixels"] = [400] * len(track["pixels"])                # 0.13% of the frame
    assert pipeline.under_seen(files["scene.json"], files["trajectory.json"], files["visibility.json"]) == {
        "kitchen": ["kitchen/chair/2", "kitchen/tv/1"]}
