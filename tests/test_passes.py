"""Optional render passes (render.passes, `generate --passes`): instance masks, depth, scene.glb.

A hand-made two-room scene (tests/test_render.py: a fridge straight ahead, the kitchen's north
wall behind it) rendered at 96x72 for 10 frames by render.run, then its passes by
render.passes, both in subprocesses as the pipeline runs them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.test_render import look_north, two_rooms

ROOT = Path(__file__).resolve().parents[1]
W, H, N = 96, 72, 10


def _passes(tmp: Path, out: Path, names: str, *extra: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "render.passes", str(tmp / "scene.json"), str(tmp / "trajectory.json"),
                           str(out), "--passes", names, *extra], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    """tmp/: scene.json, trajectory.json, work/ (render.run: video, visibility, frame cache), out/ (the passes)."""
    tmp = tmp_path_factory.mktemp("passes")
    (tmp / "scene.json").write_text(json.dumps(two_rooms()))
    (tmp / "trajectory.json").write_text(json.dumps(look_north(N, W, H)))
    done = subprocess.run([sys.executable, "-m", "render.run", str(tmp / "scene.json"), str(tmp / "trajectory.json"),
                           str(tmp / "work"), "--min-pixels", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    report = _passes(tmp, tmp / "out", "masks,depth,glb", "--cache", str(tmp / "work"))
    assert report["masks_from_cache"] == N   # the render's own id frames, not rendered again
    return tmp


def _png(path: Path) -> np.ndarray:
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    assert img is not None and img.dtype == np.uint16 and img.ndim == 2, path
    return img


def test_masks_and_legend_agree_with_visibility(rendered):
    from formats.base import read_model
    from formats.masks import MaskLegend
    from formats.visibility import Visibility

    out = rendered / "out"
    legend = read_model(out / "masks" / "legend.json", MaskLegend)
    vis = read_model(rendered / "work" / "visibility.json", Visibility)
    assert (legend.width, legend.height) == (vis.id_pass.width, vis.id_pass.height) == (W // 2, H // 2)
    assert (legend.video_width, legend.video_height, legend.first_frame, legend.frame_count) == (W, H, 0, N)
    by_key = {i.key: i for i in legend.instances}
    assert by_key["kitchen/fridge/1"].kind == "object" and by_key["kitchen/fridge/1"].category == "fridge"
    assert by_key["kitchen/fridge/1"].room == "kitchen"
    assert by_key["kitchen"].kind == "room" and by_key["kitchen"].category == "kitchen"
    scale = (W * H) / (legend.width * legend.height)
    for f in range(N):
        mask = _png(out / "masks" / f"{f:06d}.png")
        assert mask.shape == (legend.height, legend.width)
        counts = np.bincount(mask.ravel(), minlength=max(by_key[k].index for k in by_key) + 1)
        assert set(np.nonzero(counts)[0]) <= {0} | {i.index for i in legend.instances}
        for tracks in (vis.objects, vis.rooms):
            for key, track in tracks.items():
                shown = dict(zip(track.frames, track.pixels)).get(f, 0)
                assert int(np.rint(counts[by_key[key].index] * scale)) == shown, (f, key)
    assert dict(zip(vis.objects["kitchen/fridge/1"].frames, vis.objects["kitchen/fridge/1"].pixels))[0] > 0.05 * W * H


def test_passes_made_again_without_the_cache_are_the_same_bytes(rendered, tmp_path):
    report = _passes(rendered, tmp_path, "depth,masks")
    assert report["masks_from_cache"] == 0        # rendered again, the way render.run renders them
    for f in range(N):
        for folder in ("masks", "depth"):
            name = f"{folder}/{f:06d}.png"
            assert (tmp_path / name).read_bytes() == (rendered / "out" / name).read_bytes(), name
    assert (tmp_path / "masks" / "legend.json").read_bytes() == (rendered / "out" / "masks" / "legend.json").read_bytes()
    assert not (tmp_path / "scene.glb").exists()  # not asked for


def test_depth_of_the_wall_ahead(rendered):
    """The kitchen's north wall (its inner face at y = 3.95) seen left of the fridge: depth is the
    camera-space z of the ray through the pixel centre where it meets the wall, within 2 cm."""
    from formats.base import read_model
    from formats.masks import MaskLegend
    from formats.trajectory import Trajectory

    walk = read_model(rendered / "trajectory.json", Trajectory)
    cam = walk.camera
    kitchen = next(i.index for i in read_model(rendered / "out" / "masks" / "legend.json", MaskLegend).instances
                   if i.key == "kitchen")
    checked = 0
    for f in (0, N - 1):
        depth = _png(rendered / "out" / "depth" / f"{f:06d}.png")
        mask = _png(rendered / "out" / "masks" / f"{f:06d}.png")
        assert depth.shape == (H, W)
        m = np.asarray(walk.frames[f].cam_to_world)
        R, t = m[:, :3], m[:, 3]
        for u, v in ((6, 30), (10, 36), (W - 8, 34)):
            if mask[v // 2, u // 2] != kitchen:
                continue
            ray = np.array([(u + 0.5 - cam.cx) / cam.fx, (v + 0.5 - cam.cy) / cam.fy, 1.0])  # z = 1
            world = R @ ray
            z = (3.95 - t[1]) / world[1]          # the camera-space z where the ray meets y = 3.95
            assert abs(depth[v, u] / 1000.0 - z) < 0.02, (f, u, v, depth[v, u], z)
            checked += 1
        assert depth.min() >= 0 and (depth > 0).mean() > 0.9   # everything in view is within 65 m
    assert checked >= 3


def _glb_bounds_off(path: Path, scene: dict) -> dict[str, float]:
    """Object id -> how far (m) the bounds of its glb node (and the primitives under it) are from
    its scene.json footprint and height, for the objects off by more than 1 cm or missing."""
    import trimesh

    glb = trimesh.load(path)
    graph = glb.graph
    off = {}
    for obj in scene["objects"]:
        lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
        for node in graph.nodes_geometry:
            if node == obj["id"] or graph.transforms.parents.get(node) == obj["id"]:
                transform, geometry = graph[node]
                mesh = glb.geometry[geometry].copy()
                mesh.apply_transform(transform)
                lo, hi = np.minimum(lo, mesh.bounds[0]), np.maximum(hi, mesh.bounds[1])
        if obj["id"] not in graph.nodes or not np.isfinite(lo).all():
            off[obj["id"]] = float("inf")
            continue
        # glTF is +Y up: world (x, y, z) = glTF (x, -z, y)
        world_lo, world_hi = np.array([lo[0], -hi[2], lo[1]]), np.array([hi[0], -lo[2], hi[1]])
        fp, z0 = np.asarray(obj["footprint"]), obj["position"][2]
        error = max(np.abs(world_lo - [fp[:, 0].min(), fp[:, 1].min(), z0]).max(),
                    np.abs(world_hi - [fp[:, 0].max(), fp[:, 1].max(), z0 + obj["size"][2]]).max())
        if error > 0.01:
            off[obj["id"]] = round(float(error), 3)
    return off


def test_glb_has_a_node_per_object_with_the_scene_bounds(rendered):
    scene = two_rooms()
    assert _glb_bounds_off(rendered / "out" / "scene.glb", scene) == {}
    header = _glb_json(rendered / "out" / "scene.glb")
    extras = {n["name"]: n.get("extras", {}) for n in header["nodes"]}
    names = [n["name"] for n in header["nodes"]]
    assert all(names.count(o["id"]) == 1 for o in scene["objects"])         # one node per object
    assert {"shell:kitchen", "shell:living room", "shell:exterior"} <= set(names)
    from render.idcolors import assign_ids

    for (kind, key), index in assign_ids(scene).items():
        if kind == "object":
            assert extras[key]["egoscene_id"] == index and extras[key]["egoscene_kind"] == "object"


def _glb_json(path: Path) -> dict:
    data = path.read_bytes()
    length = int.from_bytes(data[12:16], "little")
    return json.loads(data[20:20 + length])


def test_passes_option_and_pass_folder_hashes(tmp_path):
    from egoscene import pipeline
    from formats import files

    assert pipeline.Options().passes is None
    assert pipeline.Options(passes="glb,masks").passes == ("masks", "glb")
    assert pipeline.Options(passes=["depth"]).passes == ("depth",)
    assert pipeline.Options(passes="").passes is None
    with pytest.raises(ValueError, match="unknown pass 'normals'"):
        pipeline.Options(passes="masks,normals")
    # no passes: the options (and so the inputs hash) are those of folders made before passes existed
    from formats.manifest import Options

    assert "passes" not in Options.model_validate(pipeline.Options().__dict__).model_dump()

    (tmp_path / "a.json").write_text("{}")
    assert set(files.file_hashes(tmp_path)) == {"a.json"}
    (tmp_path / "masks").mkdir()
    (tmp_path / "masks" / "000000.png").write_bytes(b"x")
    (tmp_path / "audit").mkdir()        # not a pass: not part of what was published
    first = files.file_hashes(tmp_path)
    assert set(first) == {"a.json", "masks/"}
    (tmp_path / "masks" / "000000.png").write_bytes(b"y")
    assert files.file_hashes(tmp_path)["masks/"] != first["masks/"]


def test_no_passes_asked_writes_none(rendered_scenario):
    """The shared rendered scenario (tests/conftest.py) was generated without --passes."""
    from formats.base import read_model
    from formats.manifest import Manifest

    for name in ("masks", "depth", "scene.glb"):
        assert not (rendered_scenario / name).exists()
    manifest = read_model(rendered_scenario / "manifest.json", Manifest)
    assert manifest.options.passes is None
    assert "passes" not in json.loads((rendered_scenario / "manifest.json").read_text())["options"]


def test_cli_refuses_unknown_passes_and_passes_without_rendering():
    """`generate` and `batch` both parse --passes with egoscene.cli._passes (exit 2: a bad parameter)."""
    import typer

    from egoscene.cli import _passes

    assert _passes("depth,masks", "queries") == ("masks", "depth") and _passes(None, "render") is None
    with pytest.raises(typer.BadParameter, match="unknown pass 'normals'"):
        _passes("masks,normals", "queries")
    with pytest.raises(typer.BadParameter, match="need the render stage"):
        _passes("glb", "trajectory")


def test_generate_adds_a_pass_to_a_rendered_folder_without_rendering_again(rendered_scenario, tmp_path):
    """A finished folder made without passes, generated again with --passes glb: the video is the
    earlier one (same render key), scene.glb is made into the published folder and recorded in
    the manifest; the same command again reuses the whole folder."""
    import shutil

    from egoscene import pipeline
    from formats.base import read_model
    from formats.manifest import Manifest

    out = tmp_path / "out"
    shutil.copytree(rendered_scenario, out / rendered_scenario.name)
    before = read_model(out / rendered_scenario.name / "manifest.json", Manifest)
    options = pipeline.Options(width=160, height=120, passes="glb")
    stages: list[str] = []
    result = pipeline.generate(ROOT / "scenarios" / f"{before.name}.yaml", out, options, on_stage=stages.append)
    assert any(s.startswith("render (reused") for s in stages) and "render" not in result.timings
    manifest = read_model(result.folder / "manifest.json", Manifest)
    assert manifest.options.passes == ["glb"] and manifest.render_key == before.render_key
    assert manifest.files["video.mp4"] == before.files["video.mp4"] and "scene.glb" in manifest.files
    assert not (result.folder / "masks").exists() and not (result.folder / "depth").exists()
    assert _glb_bounds_off(result.folder / "scene.glb", json.loads((result.folder / "scene.json").read_text())) == {}
    assert pipeline.generate(ROOT / "scenarios" / f"{before.name}.yaml", out, options).reused
