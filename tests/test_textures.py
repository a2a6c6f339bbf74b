"""Procedural texture for the photoreal profile (render/textures.py): textured kinds get
texture nodes on object coordinates, and nothing Workbench shades with changes (bpy, no
Cycles render)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.render

COLOR = (0.62, 0.41, 0.25)


def _fresh():
    import bpy
    bpy.ops.wm.read_factory_settings(use_empty=True)
    return bpy


def _srgb_to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def test_textured_kinds_get_texture_nodes_on_object_coordinates():
    _fresh()
    from assets.materials import MATERIAL_KINDS, make_material
    from render.blender_assets import get_material
    from render.textures import TEXTURED_KINDS

    assert {"wood", "fabric", "carpet", "tile", "plaster", "glass"} <= set(TEXTURED_KINDS) <= set(MATERIAL_KINDS)
    for kind in MATERIAL_KINDS:
        bmat = get_material(make_material(kind, COLOR))
        nodes = bmat.node_tree.nodes
        textures = {n.bl_idname for n in nodes if n.bl_idname.startswith("ShaderNodeTex")
                    and n.bl_idname != "ShaderNodeTexCoord"}
        if kind in TEXTURED_KINDS and kind != "glass":
            assert textures, kind
            coords = [n for n in nodes if n.bl_idname == "ShaderNodeTexCoord"]
            for n in coords:      # object coordinates in metres: no UVs needed
                assert {o.name for o in n.outputs if o.is_linked} <= {"Object", "Normal"}, kind
            assert coords and any(n.outputs["Object"].is_linked for n in coords), kind
            bsdf = nodes["Principled BSDF"]
            assert bsdf.inputs["Base Color"].is_linked or bsdf.inputs["Roughness"].is_linked, kind
            assert bmat["egoscene_texture"] == kind
        elif kind == "glass":     # shadow and diffuse rays pass: daylight through windows
            assert any(n.bl_idname == "ShaderNodeBsdfTransparent" for n in nodes)
            assert any(n.bl_idname == "ShaderNodeLightPath" for n in nodes)
        else:
            assert not textures and "egoscene_texture" not in bmat, kind
    specific = {"wood": "ShaderNodeTexWave", "tile": "ShaderNodeTexBrick", "leather": "ShaderNodeTexVoronoi",
                "fabric": "ShaderNodeTexNoise", "plaster": "ShaderNodeTexNoise"}
    for kind, node in specific.items():
        assert any(n.bl_idname == node for n in get_material(make_material(kind, COLOR)).node_tree.nodes), kind


def test_viewport_values_that_workbench_shades_with_are_unchanged():
    _fresh()
    from assets.materials import MATERIAL_KINDS, make_material
    from render.blender_assets import get_material

    lin = tuple(_srgb_to_linear(c) for c in COLOR)
    for kind in MATERIAL_KINDS:
        mat = make_material(kind, COLOR)
        bmat = get_material(mat)
        assert tuple(bmat.diffuse_color) == pytest.approx((*lin, mat.color[3]), abs=1e-6), kind
        assert bmat.roughness == pytest.approx(mat.roughness, abs=1e-6), kind
        expected_metallic = 0.0 if kind == "mirror" else mat.metallic * 0.6
        assert bmat.metallic == pytest.approx(expected_metallic, abs=1e-6), kind


def test_workbench_material_render_ignores_the_texture_nodes(tmp_path):
    """The same cube in Workbench MATERIAL mode (the preview profile's colour mode) renders the
    same pixels with the textured material and with its texture nodes removed."""
    import numpy as np
    bpy = _fresh()
    from assets.materials import make_material
    from render.blender_assets import get_material

    scene = bpy.context.scene
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.display.shading.color_type = "MATERIAL"
    scene.display.shading.light = "STUDIO"
    scene.render.resolution_x, scene.render.resolution_y = 64, 48
    scene.render.image_settings.file_format = "PNG"
    bpy.ops.mesh.primitive_cube_add(size=1.0)
    cube = bpy.context.object
    cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
    scene.collection.objects.link(cam)
    cam.location, cam.rotation_euler = (2.2, -2.2, 1.6), (1.1, 0.0, 0.785)
    scene.camera = cam

    def render(name):
        scene.render.filepath = str(tmp_path / name)
        bpy.ops.render.render(write_still=True)
        return np.array(bpy.data.images.load(str(tmp_path / name)).pixels[:])

    for kind in ("wood", "tile", "fabric"):
        bmat = get_material(make_material(kind, COLOR))
        cube.data.materials.clear()
        cube.data.materials.append(bmat)
        textured = render(f"{kind}-textured.png")
        for n in [n for n in bmat.node_tree.nodes if n.name not in ("Principled BSDF", "Material Output")]:
            bmat.node_tree.nodes.remove(n)
        plain = render(f"{kind}-plain.png")
        assert textured.std() > 0.01 and np.array_equal(textured, plain), kind


def test_cycles_shows_the_tiles_a_plain_material_lacks(tmp_path):
    """A wall of the `tile` kind, seen square-on in Cycles: grout lines every 20 cm make the
    picture change from pixel to pixel far more than the same wall without its texture nodes
    (row and column means, high-passed: neither sampling noise nor the light's smooth falloff
    counts)."""
    import numpy as np
    bpy = _fresh()
    from assets.materials import make_material
    from render.blender_assets import get_material

    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.samples, scene.cycles.use_denoising, scene.cycles.seed = 16, False, 0
    scene.render.resolution_x, scene.render.resolution_y = 128, 96
    scene.render.image_settings.file_format = "PNG"
    bpy.ops.mesh.primitive_plane_add(size=1.2, rotation=(1.5708, 0.0, 0.0))    # a wall facing -y
    bpy.ops.object.transform_apply(rotation=True)  # as the room shells: vertical in object coordinates
    wall = bpy.context.object
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    scene.collection.objects.link(sun)
    sun.rotation_euler = (1.3, 0.0, 0.0)
    cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
    scene.collection.objects.link(cam)
    cam.location, cam.rotation_euler = (0.0, -1.2, 0.0), (1.5708, 0.0, 0.0)
    scene.camera = cam

    def render(name):
        scene.render.filepath = str(tmp_path / name)
        bpy.ops.render.render(write_still=True)
        grey = np.array(bpy.data.images.load(str(tmp_path / name)).pixels[:]).reshape(96, 128, 4)[24:72, 32:96, :3].mean(2)
        # columns and rows averaged (sampling noise averages out, grout lines do not), high-passed
        return sum(np.abs(np.diff(grey.mean(axis), 2)).mean() for axis in (0, 1))

    bmat = get_material(make_material("tile", (0.7, 0.8, 0.85)))
    wall.data.materials.append(bmat)
    textured = render("tiled.png")
    for n in [n for n in bmat.node_tree.nodes if n.name not in ("Principled BSDF", "Material Output")]:
        bmat.node_tree.nodes.remove(n)
    plain = render("plain.png")
    assert textured > 3 * plain, (textured, plain)
