"""Contact sheet of the object library: every category from a 3/4 view, labelled, one PNG.

    python -m render.catalog --out DIR [--engine WORKBENCH|EEVEE|CYCLES] [--tile 256]

`--distance` also writes `catalog_distance.png`: small objects on a table seen from 1.5 m
with the trajectory camera (640x480, 70 deg; native-pixel crops), the check for small things.
"""

from __future__ import annotations

import argparse
import math
import tempfile
from collections.abc import Sequence
from pathlib import Path

import bpy
import cv2
import numpy as np

from assets.catalog import CATEGORIES, get_category
from assets.models import build_model
from assets.vocabulary import display_name
from render.blender_assets import add_model
from render.lifeline import die_with_parent

ENGINES = {"WORKBENCH": "BLENDER_WORKBENCH", "EEVEE": "BLENDER_EEVEE", "CYCLES": "CYCLES"}
VIEW_AZIMUTH = 35.0      # degrees from the object's front (+y) towards +x
VIEW_ELEVATION = 24.0
FOV = 40.0
SMALL_ON_TABLE = ("apple", "book", "bowl", "cup", "eyeglasses", "fruit", "headphone", "laptop",
                  "mouse", "plate", "print", "telephone", "tumbler", "vase", "wine", "pot")


def _reset_scene(engine: str, width: int, height: int) -> bpy.types.Scene:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.engine = ENGINES[engine.upper()]
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.view_settings.view_transform = "Standard"   # keep catalog colours as authored
    world = bpy.data.worlds.new("world")
    world.color = (0.42, 0.43, 0.45)
    scene.world = world
    shading = scene.display.shading
    shading.light = "STUDIO"
    shading.color_type = "MATERIAL"
    shading.show_shadows = True
    shading.shadow_intensity = 0.35
    shading.show_cavity = True
    shading.cavity_type = "WORLD"
    shading.show_specular_highlight = True
    scene.display.light_direction = (0.4, -0.3, 0.85)
    if engine.upper() != "WORKBENCH":
        if world.node_tree is None:
            world.use_nodes = True
        bg = world.node_tree.nodes.get("Background")
        if bg is not None:
            bg.inputs["Color"].default_value = (0.5, 0.53, 0.58, 1.0)
            bg.inputs["Strength"].default_value = 0.6
        sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
        sun.data.energy = 2.0
        sun.rotation_euler = (math.radians(40), 0, math.radians(30))
        scene.collection.objects.link(sun)
        if engine.upper() == "CYCLES":
            scene.cycles.samples = 32
            scene.cycles.use_denoising = False
    _add_floor(scene)
    return scene


def _add_floor(scene: bpy.types.Scene, size: float = 400.0) -> None:
    me = bpy.data.meshes.new("floor")
    s = size / 2
    me.from_pydata([(-s, -s, 0), (s, -s, 0), (s, s, 0), (-s, s, 0)], [], [(0, 1, 2, 3)])
    mat = bpy.data.materials.new("floor")
    mat.diffuse_color = (0.42, 0.42, 0.42, 1.0)
    if mat.node_tree is not None and "Principled BSDF" in mat.node_tree.nodes:
        mat.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (0.18, 0.18, 0.18, 1.0)
    me.materials.append(mat)
    scene.collection.objects.link(bpy.data.objects.new("floor", me))


def _camera(scene: bpy.types.Scene, fov_deg: float) -> bpy.types.Object:
    cam = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    cam.data.sensor_fit = "HORIZONTAL"
    cam.data.angle = math.radians(fov_deg)
    cam.data.clip_start = 0.01
    scene.collection.objects.link(cam)
    scene.camera = cam
    return cam


def _look_at(cam: bpy.types.Object, eye: Sequence[float], target: Sequence[float]) -> None:
    from mathutils import Vector
    eye_v, target_v = Vector(eye), Vector(target)
    cam.location = eye_v
    cam.rotation_euler = (target_v - eye_v).to_track_quat("-Z", "Y").to_euler()


def _frame_object(cam: bpy.types.Object, bounds: np.ndarray, width: int, height: int) -> None:
    """Place the camera on the 3/4 view so the object's bounding sphere fills the frame."""
    lo, hi = bounds
    center = (lo + hi) / 2
    radius = float(np.linalg.norm(hi - lo)) / 2
    fov = math.radians(FOV) * min(1.0, height / width)
    dist = radius / math.sin(fov / 2) * 1.02
    az, el = math.radians(VIEW_AZIMUTH), math.radians(VIEW_ELEVATION)
    direction = np.array([math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), math.sin(el)])
    _look_at(cam, center + direction * dist, center)


def _render_to(scene: bpy.types.Scene, path: Path) -> np.ndarray:
    scene.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    return cv2.imread(str(path), cv2.IMREAD_COLOR)


def _label(img: np.ndarray, text: str) -> np.ndarray:
    """Tile with a white caption bar underneath."""
    tile = img.shape[1]
    bar_h = max(14, tile // 9)
    bar = np.full((bar_h, tile, 3), 255, np.uint8)
    scale = bar_h / 34
    thickness = 1 if tile < 200 else 2
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    if tw > tile - 4:
        scale *= (tile - 4) / tw
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    cv2.putText(bar, text, ((tile - tw) // 2, (bar_h + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (20, 20, 20), thickness, cv2.LINE_AA)
    return np.vstack([img, bar])


def _grid(tiles: list[np.ndarray], cols: int) -> np.ndarray:
    rows = math.ceil(len(tiles) / cols)
    th, tw = tiles[0].shape[:2]
    sheet = np.full((rows * th, cols * tw, 3), 255, np.uint8)
    for i, t in enumerate(tiles):
        r, c = divmod(i, cols)
        sheet[r * th:(r + 1) * th, c * tw:(c + 1) * tw] = t
    return sheet


def render_contact_sheet(out_dir: Path, engine: str = "WORKBENCH", tile: int = 256,
                         categories: Sequence[str] | None = None, seed: int = 0,
                         cols: int | None = None) -> Path:
    """Render each category (default: all) from a 3/4 view into `out_dir/catalog.png`."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    names = [get_category(c).name for c in categories] if categories else sorted(CATEGORIES)
    scene = _reset_scene(engine, tile, tile)
    cam = _camera(scene, FOV)
    tiles = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, name in enumerate(names):
            model = build_model(name, np.random.default_rng([seed, i]))
            objs = add_model(model, (0, 0, 0), 90.0)
            _frame_object(cam, model.bounds, tile, tile)
            img = _render_to(scene, Path(tmp) / f"{i:03d}.png")
            tiles.append(_label(img, display_name(name)))
            for obj in objs:
                mesh = obj.data
                bpy.data.objects.remove(obj)
                bpy.data.meshes.remove(mesh)
    sheet = _grid(tiles, cols or min(len(tiles), 8))
    path = out_dir / "catalog.png"
    cv2.imwrite(str(path), sheet)
    return path


def render_distance_sheet(out_dir: Path, engine: str = "WORKBENCH", distance: float = 1.5,
                          categories: Sequence[str] = SMALL_ON_TABLE, seed: int = 0) -> Path:
    """Small objects on a table seen from `distance` m at eye height with the trajectory camera
    (640x480, 70 deg horizontal FOV); the central 320x240 of each frame, at native pixels,
    tiled into `catalog_distance.png` (what a model watching the video gets)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    scene = _reset_scene(engine, 640, 480)
    cam = _camera(scene, 70.0)
    table = build_model("table", np.random.default_rng(1), size=(1.2, 0.8, 0.75), color="oak")
    add_model(table, (0, 0, 0), 270.0)
    _look_at(cam, (0, -distance, 1.6), (0, 0, 0.75))
    tiles = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, name in enumerate(categories):
            model = build_model(name, np.random.default_rng([seed, i]))
            objs = add_model(model, (0, 0, 0.75), 270.0)   # front faces the camera (-y)
            img = _render_to(scene, Path(tmp) / f"{i:03d}.png")
            tiles.append(_label(img[120:360, 160:480], display_name(name)))
            for obj in objs:
                mesh = obj.data
                bpy.data.objects.remove(obj)
                bpy.data.meshes.remove(mesh)
    path = out_dir / "catalog_distance.png"
    cv2.imwrite(str(path), _grid(tiles, 4))
    return path


def main(argv: Sequence[str] | None = None) -> int:
    die_with_parent()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--engine", default="WORKBENCH", choices=sorted(ENGINES))
    parser.add_argument("--tile", type=int, default=256)
    parser.add_argument("--categories", nargs="*", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cols", type=int, default=None)
    parser.add_argument("--distance", action="store_true", help="also render the small-object check")
    args = parser.parse_args(argv)
    print(render_contact_sheet(args.out, args.engine, args.tile, args.categories, args.seed, args.cols))
    if args.distance:
        print(render_distance_sheet(args.out, args.engine))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
