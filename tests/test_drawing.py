"""floorplan.png is legible: no label overlaps another, every object is numbered and named."""

from __future__ import annotations

import itertools

import pytest

from egoscene import pipeline
from formats.base import dump_model, read_model
from formats.scene import Scene
from generator import drawing
from tests.conftest import ROOT


@pytest.fixture(scope="module", params=["scenario-04", "three-story-house"])
def plan(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("plan")
    folder = pipeline.generate(ROOT / "scenarios" / f"{request.param}.yaml", out, pipeline.Options(until="scene")).folder
    return dump_model(read_model(folder / "scene.json", Scene)), None, folder


def _texts(fig):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for ax in fig.axes for t in ax.texts] + list(fig.texts)
    return [(t.get_text(), t.get_window_extent(renderer)) for t in texts if t.get_text().strip()]


def test_no_label_overlaps_another_or_leaves_the_picture(plan):
    scene, trajectory, _ = plan
    fig = drawing.floorplan_figure(scene, trajectory)
    width, height = fig.canvas.get_width_height()
    texts = _texts(fig)
    for (a, box_a), (b, box_b) in itertools.combinations(texts, 2):
        assert not box_a.overlaps(box_b), f"labels {a!r} and {b!r} overlap"
    for text, box in texts:
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height, f"{text!r} is cut off"
    drawing.plt.close(fig)


def test_the_overlap_check_sees_overlaps(plan, monkeypatch):
    scene, trajectory, _ = plan
    monkeypatch.setattr(drawing._Labels, "_free", lambda self, box: True)  # labels placed blindly
    fig = drawing.floorplan_figure(scene, trajectory)
    texts = _texts(fig)
    assert any(a.overlaps(b) for (_, a), (_, b) in itertools.combinations(texts, 2))
    drawing.plt.close(fig)


def test_every_object_is_numbered_on_the_plan_and_named_in_the_legend(plan):
    scene, trajectory, folder = plan
    fig = drawing.floorplan_figure(scene, trajectory)
    numbers = [t.get_text() for ax in fig.axes for t in ax.texts if t.get_text().isdigit()]
    legend = [t.get_text().split() for t in fig.texts if t.get_text().strip()[:1].isdigit()]
    per_floor = [sum(o["floor"] == f["floor"] for o in scene["objects"]) for f in scene["floors"]]
    assert sorted(map(int, numbers)) == sorted(n for count in per_floor for n in range(1, count + 1))
    assert sorted(" ".join(words[1:]) for words in legend) == sorted(o["category"] for o in scene["objects"])
    drawing.plt.close(fig)
    import cv2

    image = cv2.imread(str(folder / "floorplan.png"))
    assert image.shape[1] >= 1200
