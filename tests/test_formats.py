"""The typed file formats (formats/): version tags, strict models, schemas, and the camera.

Files are made by the real stages (layout, placement, walk through `egoscene.pipeline`, the
query engine on the hand-built fixture), never taken from a folder outside the repository.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path
from typing import get_args

import numpy as np
import pytest

from formats import files
from formats.base import FormatError, load_model, model_text, read_model, read_records, record_line, write_model
from formats.camera import Camera, camera_to_world, rotation, world_to_camera
from formats.grid import Grid
from formats.manifest import Manifest
from formats.queries import QueryRecord
from formats.scene import Scene
from formats.schemas import MODELS, schema_texts
from formats.trajectory import Trajectory
from formats.visibility import Visibility
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "queries" / "tiny_house"
SPEC = ROOT / "scenarios" / "scenario-01.yaml"
FILE_MODELS = {"scene.json": Scene, "grid.json": Grid, "trajectory.json": Trajectory, "manifest.json": Manifest}


# --- files made by the real stages -------------------------------------------------------------

@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """scenario-01 up to the walk (layout, placement, walk; no Blender) through the pipeline."""
    from egoscene import pipeline

    out = tmp_path_factory.mktemp("generated")
    result = pipeline.generate(SPEC, out, pipeline.Options(until="trajectory", width=160, height=120))
    return result.folder


@pytest.fixture(scope="module")
def with_queries(tmp_path_factory) -> Path:
    """The hand-built tiny house with queries.jsonl written by the query engine."""
    from queries.engine import generate_queries
    from queries.ontology import FIXTURE_ONTOLOGY

    out = tmp_path_factory.mktemp("queries") / "tiny"
    shutil.copytree(FIXTURE, out)
    generate_queries(out, per_task=3, ontology=FIXTURE_ONTOLOGY)
    return out


@pytest.mark.parametrize("name", sorted(FILE_MODELS))
def test_stage_files_round_trip_byte_for_byte(generated, name):
    text = (generated / name).read_text()
    model = read_model(generated / name, FILE_MODELS[name])
    assert model_text(model) == text
    assert json.loads(text)["format"] == FILE_MODELS[name].FORMAT


def test_fixture_files_and_queries_round_trip(with_queries):
    for name, cls in (("scene.json", Scene), ("trajectory.json", Trajectory), ("visibility.json", Visibility)):
        text = (with_queries / name).read_text()
        assert model_text(read_model(with_queries / name, cls)) == text, name
    lines = (with_queries / "queries.jsonl").read_text().splitlines()
    records = read_records(with_queries / "queries.jsonl", QueryRecord)
    assert len(records) == len(lines) > 20
    assert [record_line(r) for r in records] == lines
    assert all(json.loads(line)["schema"] == "egoscene.query/2" for line in lines)


def test_the_walk_records_its_camera_and_extrinsics(generated):
    walk = read_model(generated / "trajectory.json", Trajectory)
    assert walk.camera == Camera.standard(160, 120)
    raw = json.loads((generated / "trajectory.json").read_text())
    assert raw["camera"]["fx"] == round(80 / math.tan(math.radians(35)), 4) and raw["camera"]["cx"] == 80.0
    for f in raw["frames"][::97]:
        expected = camera_to_world(f["position"], f["yaw"], f["pitch"])
        assert np.allclose(f["cam_to_world"], expected, atol=1e-4)
        assert [row[3] for row in f["cam_to_world"]] == f["position"]


def test_scene_bytes_are_the_plain_writer_bytes(generated):
    """Writing through the model adds nothing and changes nothing: the model's text is what
    formats.files writes for the stage's own dict."""
    raw = json.loads((generated / "scene.json").read_text())
    assert files.dumps(raw) == (generated / "scene.json").read_text()


# --- refusing files of another version or shape -----------------------------------------------

def _write(path: Path, data) -> Path:
    path.write_text(json.dumps(data))
    return path


def test_a_wrong_version_is_refused_naming_file_versions_and_fix(generated, tmp_path):
    data = json.loads((generated / "trajectory.json").read_text())
    data["format"] = "egoscene.trajectory/1"
    path = _write(tmp_path / "trajectory.json", data)
    with pytest.raises(FormatError) as err:
        read_model(path, Trajectory)
    text = str(err.value)
    assert str(path) in text and "'egoscene.trajectory/1'" in text and "'egoscene.trajectory/2'" in text
    assert "regenerate" in text
    assert isinstance(err.value, ValueError)


def test_a_missing_version_tag_is_refused(generated, tmp_path):
    data = json.loads((generated / "scene.json").read_text())
    del data["format"]
    path = _write(tmp_path / "scene.json", data)
    with pytest.raises(FormatError, match=r"scene\.json: no version tag 'format'; expected 'format': 'egoscene\.scene/1'"):
        read_model(path, Scene)


def test_another_kind_of_file_is_refused(generated):
    with pytest.raises(FormatError, match="egoscene.grid/1.*egoscene.scene/1.*a different kind of file"):
        read_model(generated / "grid.json", Scene)


def test_a_missing_field_is_named(generated, tmp_path):
    data = json.loads((generated / "trajectory.json").read_text())
    del data["frames"][3]["pitch"]
    path = _write(tmp_path / "trajectory.json", data)
    with pytest.raises(FormatError, match=r"trajectory\.json: not a valid egoscene\.trajectory/2 file: "
                                          r"frames\[3\]\.pitch: missing required field"):
        read_model(path, Trajectory)


def test_extra_fields_are_refused(generated, tmp_path):
    data = json.loads((generated / "scene.json").read_text())
    data["rooms"][0]["colour"] = "red"
    path = _write(tmp_path / "scene.json", data)
    with pytest.raises(FormatError, match=r"rooms\[0\]\.colour: unknown field"):
        read_model(path, Scene)


def test_wrong_types_and_inconsistent_derived_values_are_refused(generated, tmp_path):
    data = json.loads((generated / "trajectory.json").read_text())
    data["frames"][0]["yaw"] = "north"
    with pytest.raises(FormatError, match=r"frames\[0\]\.yaw: .*found \"north\""):
        load_model(data, Trajectory, "t.json")
    data = json.loads((generated / "trajectory.json").read_text())
    data["camera"]["fx"] = 500.0
    with pytest.raises(FormatError, match=r"camera: .*fx is 500.0 but the other fields give 114.25"):
        load_model(data, Trajectory, "t.json")
    data = json.loads((generated / "trajectory.json").read_text())
    del data["frames"][5]["cam_to_world"]
    with pytest.raises(FormatError, match=r"frames\[5\]: .*missing derived field\(s\) cam_to_world"):
        load_model(data, Trajectory, "t.json")


@pytest.mark.parametrize("insertions,ok", [([[3, 9], [9, 12]], True), ([[3, 9], [8, 12]], False),
                                           ([[5, 4]], False), ([[0, 4]], False), ([[3, 10 ** 6]], False)])
def test_insertions_are_ordered_disjoint_ranges_inside_the_walk(generated, insertions, ok):
    data = json.loads((generated / "trajectory.json").read_text())
    data["insertions"] = insertions
    if ok:
        assert load_model(data, Trajectory, "t.json").insertions == [tuple(r) for r in insertions]
    else:
        with pytest.raises(FormatError, match="insertions must be ordered, disjoint"):
            load_model(data, Trajectory, "t.json")


def test_a_bad_record_line_is_named(with_queries, tmp_path):
    lines = (with_queries / "queries.jsonl").read_text().splitlines()
    bad = json.loads(lines[2])
    bad["schema"] = "egoscene.query/0"
    path = tmp_path / "queries.jsonl"
    path.write_text("\n".join(lines[:2] + [json.dumps(bad)] + lines[3:]) + "\n")
    with pytest.raises(FormatError, match=r"queries\.jsonl:3: format 'egoscene\.query/0' but this egoscene reads"):
        read_records(path, QueryRecord)


def test_readers_of_the_stages_refuse_an_old_folder(with_queries, tmp_path):
    from queries.check import check_output
    from queries.model import load_scenario

    old = tmp_path / "old"
    shutil.copytree(with_queries, old)
    data = json.loads((old / "visibility.json").read_text())
    del data["format"]
    _write(old / "visibility.json", data)
    with pytest.raises(FormatError, match="visibility.json: no version tag"):
        load_scenario(old)
    problems = check_output(old)
    assert len(problems) == 1 and problems[0].kind == "format" and "visibility.json" in problems[0].message


def test_write_model_is_atomic_and_typed(tmp_path):
    with pytest.raises(TypeError):
        write_model(tmp_path / "x.json", {"format": "egoscene.grid/1"})  # type: ignore[arg-type]
    grid = Grid(format=Grid.FORMAT, unit=1.0, labels=["a", "hallway", "none"],
                start={"cell": [0, 0], "position": [1.0, 0.4], "heading": [0, 1], "floor": 0},
                floors=[{"floor": 0, "grid": [["a"] * 10] * 10}])
    write_model(tmp_path / "grid.json", grid)
    assert [p.name for p in tmp_path.iterdir()] == ["grid.json"]
    assert read_model(tmp_path / "grid.json", Grid) == grid


def test_the_value_lists_agree_with_the_stages():
    from generator.spec.scenario import TYPOLOGIES
    from formats.queries import Category, Task
    from formats.scene import Typology
    from queries.params import TASKS

    assert set(get_args(Task)) == set(TASKS)
    assert {c for c, _, _ in TASKS.values()} == set(get_args(Category))
    assert set(get_args(Typology)) == set(TYPOLOGIES)


# --- schemas -------------------------------------------------------------------------------------

def test_committed_schemas_are_current():
    """docs/formats/*.schema.json are what `egoscene formats --out docs/formats` writes now."""
    folder = ROOT / "docs" / "formats"
    expected = schema_texts()
    assert sorted(p.name for p in folder.glob("*.schema.json")) == sorted(expected)
    for name, text in expected.items():
        assert (folder / name).read_text() == text, f"{name} is stale: run `egoscene formats --out docs/formats`"


def test_every_file_model_has_a_schema_with_its_tag():
    for cls in MODELS:
        schema = json.loads(schema_texts()[f"{cls.kind()}.schema.json"])
        assert schema["properties"][cls.TAG]["const"] == cls.FORMAT
        assert schema["additionalProperties"] is False and cls.TAG in schema["required"]


# --- the camera ----------------------------------------------------------------------------------

def test_camera_intrinsics_and_visibility_rule():
    cam = Camera.standard(640, 480)
    assert cam.fx == pytest.approx(320 / math.tan(math.radians(35))) == cam.fy
    assert (cam.cx, cam.cy) == (320.0, 240.0)
    assert cam.vfov_deg == pytest.approx(2 * math.degrees(math.atan(math.tan(math.radians(35)) * 0.75)))
    assert cam.intrinsics() == [[cam.fx, 0.0, 320.0], [0.0, cam.fy, 240.0], [0.0, 0.0, 1.0]]
    assert cam.min_pixels() == 50 and Camera.standard(160, 120).min_pixels() == 3
    assert Camera.standard(1280, 960).min_pixels() == 200


@pytest.mark.parametrize("yaw,pitch", [(0, 0), (90, 0), (37.5, -12), (200, 8), (359, -25)])
def test_extrinsics_are_a_proper_rotation(yaw, pitch):
    r = np.array(rotation(yaw, pitch))
    assert np.allclose(r.T @ r, np.eye(3)) and np.linalg.det(r) == pytest.approx(1.0)
    forward = r[:, 2]
    assert np.allclose(forward, [math.cos(math.radians(yaw)) * math.cos(math.radians(pitch)),
                                 math.sin(math.radians(yaw)) * math.cos(math.radians(pitch)),
                                 math.sin(math.radians(pitch))])
    assert r[2, 0] == pytest.approx(0.0) and r[2, 1] <= 0   # no roll: right is level, down points down


def test_projection_of_points_ahead_right_and_above():
    cam = Camera.standard(640, 480)
    pose = camera_to_world([1.0, 2.0, 1.6], 90.0, 0.0)     # facing north
    u, v, depth = cam.project(pose, [1.0, 5.0, 1.6])        # 3 m straight ahead
    assert (u, v, depth) == pytest.approx((cam.cx, cam.cy, 3.0))
    u, v, _ = cam.project(pose, [2.0, 5.0, 1.6])            # 1 m to the right (east)
    assert (u, v) == pytest.approx((cam.cx + cam.fx / 3, cam.cy))
    u, v, _ = cam.project(pose, [1.0, 5.0, 2.1])            # 0.5 m higher: above the centre
    assert (u, v) == pytest.approx((cam.cx, cam.cy - cam.fy / 6))
    assert math.isnan(cam.project(pose, [1.0, 0.0, 1.6])[0])  # behind
    # looking down 20 deg: a point along the view axis lands in the centre
    pose = camera_to_world([0.0, 0.0, 1.6], 30.0, -20.0)
    d = np.array([math.cos(math.radians(30)), math.sin(math.radians(30)), 0]) * math.cos(math.radians(20))
    point = np.array([0.0, 0.0, 1.6]) + 2.5 * (d + np.array([0, 0, -math.sin(math.radians(20))]))
    assert cam.project(pose, point) == pytest.approx((cam.cx, cam.cy, 2.5))
    assert world_to_camera(pose, point) == pytest.approx((0.0, 0.0, 2.5))


def _blender_euler_matrix(x: float, y: float, z: float) -> np.ndarray:
    """Blender's XYZ Euler rotation (X applied first): Rz @ Ry @ Rx."""
    cx, sx, cy, sy, cz, sz = math.cos(x), math.sin(x), math.cos(y), math.sin(y), math.cos(z), math.sin(z)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rz @ ry @ rx


@pytest.mark.parametrize("yaw,pitch", [(90, 0), (0, -10), (215.5, 5), (300, -25)])
def test_cam_to_world_is_how_the_renderer_poses_blender(yaw, pitch):
    """render.scene_builder.camera_rotation gives Blender Euler angles (90 + pitch, 0, yaw - 90);
    Blender's camera looks along local -Z with +Y up, OpenCV's along +Z with +Y down."""
    blender = _blender_euler_matrix(math.radians(90 + pitch), 0.0, math.radians(yaw - 90))
    assert np.allclose(blender @ np.diag([1, -1, -1]), rotation(yaw, pitch))


@pytest.mark.render
def test_blender_camera_rotation_matches_the_model():
    import bpy  # noqa: F401  (mathutils comes with Blender's module)
    from mathutils import Euler

    from render.scene_builder import camera_rotation

    for yaw, pitch in ((90, 0), (12, -20), (250, 7)):
        m = np.array(Euler(camera_rotation(yaw, pitch), "XYZ").to_matrix())
        assert np.allclose(m @ np.diag([1, -1, -1]), rotation(yaw, pitch), atol=1e-6)


@pytest.mark.render
def test_rendered_object_lands_where_the_camera_model_projects_it(tmp_path):
    """Render one frame of the two-room test scene (the red fridge off to the right) and
    compare the fridge's pixels in the id pass with its box projected by the Camera."""
    import cv2

    from formats.base import dump_model
    from render import idcolors
    from tests.test_render import two_rooms

    scene = two_rooms()
    w, h = 160, 120
    cam = Camera.standard(w, h)
    pose = {"frame": 0, "t": 0.0, "position": [1.8, 1.6, 1.6], "yaw": 100.0, "pitch": -6.0, "room": "kitchen", "floor": 0}
    walk = Trajectory(format=Trajectory.FORMAT, fps=30, camera=cam, frames=[pose], events=[], narration=[])
    (tmp_path / "scene.json").write_text(json.dumps(scene))
    write_model(tmp_path / "trajectory.json", walk)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "render.run", str(tmp_path / "scene.json"), str(tmp_path / "trajectory.json"),
                           str(out), "--id-scale", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    (id_frame,) = list((out / ".frames").glob("*/i_*.png"))
    ids = idcolors.decode_bgr(cv2.imread(str(id_frame), cv2.IMREAD_COLOR))
    assert ids.shape == (h, w)
    fridge = ids == idcolors.assign_ids(scene)[("object", "kitchen/fridge/1")]
    rows, cols = np.nonzero(fridge)
    assert len(rows) > 200

    # the fridge's mesh as the renderer builds it (render.scene_builder.object_model, add_model:
    # rotated by yaw - 90 deg about z, base centre at `position`), projected by the Camera
    from assets.models import build_model

    fridge_obj = scene["objects"][0]
    model = build_model("fridge", np.random.default_rng(11), size=tuple(fridge_obj["size"]), color="red")
    a = math.radians(fridge_obj["yaw"] - 90.0)
    turn = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]])
    points = np.vstack([np.asarray(p.mesh.vertices) for p in model.parts]) @ turn.T + fridge_obj["position"]
    c2w = dump_model(walk.frames[0])["cam_to_world"]
    uv = np.array([cam.project(c2w, p)[:2] for p in points])
    # pixel (i, j) covers [i, i+1) x [j, j+1) and is drawn when its centre is covered, so each edge
    # of the mask is the projected edge rounded to a whole pixel (within 0.5 px): the mask
    # spans [min col, max col + 1) x [min row, ...), the projected mesh [min u, max u) x [min v, ...)
    assert cols.min() == pytest.approx(uv[:, 0].min(), abs=0.55)       # left edge
    assert cols.max() + 1 == pytest.approx(uv[:, 0].max(), abs=0.55)   # right edge
    assert rows.min() == pytest.approx(uv[:, 1].min(), abs=0.55)       # top edge (the bottom is below the image)
    assert uv[:, 1].max() > h and rows.max() == h - 1
    assert cols.mean() > cam.cx + 10                           # turned left of the fridge: it is right of centre
