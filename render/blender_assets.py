"""Turn assets.models.AssetModel instances into Blender objects.

Materials are Principled BSDF node materials (Cycles/EEVEE) whose viewport settings
(`diffuse_color`, `roughness`, `metallic`) mirror them, because Workbench in MATERIAL colour
mode shades with those. Identical materials are shared via `Material.key`. Cycles also gets
procedural texture by material kind (render.textures: wood grain, fabric, tiles, plaster...),
in the node tree only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import bpy
import numpy as np

from assets.materials import Material
from assets.models import AssetModel
from render.textures import add_texture

SMOOTH_ANGLE = math.radians(35)   # curved parts shade smooth, box edges stay crisp


def srgb_to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def get_material(mat: Material) -> bpy.types.Material:
    """The Blender material for `mat`, created once per distinct Material."""
    existing = bpy.data.materials.get(mat.key)
    if existing is not None:
        return existing
    r, g, b, a = mat.color
    lin = (srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b))
    bmat = bpy.data.materials.new(mat.key)
    bmat.diffuse_color = (*lin, a)
    bmat.roughness = mat.roughness
    # Workbench shades metallic surfaces with a dark studio reflection; a mirror would come
    # out black, so the viewport value is toned down (node materials keep the real value)
    bmat.metallic = 0.0 if mat.kind == "mirror" else mat.metallic * 0.6
    if bmat.node_tree is None:   # Blender 5 creates node materials by default
        bmat.use_nodes = True
    bsdf = bmat.node_tree.nodes.get("Principled BSDF")
    if bsdf is not None:
        bsdf.inputs["Base Color"].default_value = (*lin, 1.0)
        bsdf.inputs["Roughness"].default_value = mat.roughness
        bsdf.inputs["Metallic"].default_value = mat.metallic
        bsdf.inputs["Transmission Weight"].default_value = mat.transmission
        if mat.transmission > 0:
            bsdf.inputs["IOR"].default_value = 1.45
        if mat.emission > 0:
            bsdf.inputs["Emission Color"].default_value = (*lin, 1.0)
            bsdf.inputs["Emission Strength"].default_value = mat.emission
    if a < 1.0:
        bmat.surface_render_method = "BLENDED"
        if bsdf is not None:
            bsdf.inputs["Alpha"].default_value = max(a, 0.25) if mat.transmission == 0 else 1.0
    add_texture(bmat, mat, bsdf, lin)      # node tree only: Workbench values above unchanged
    return bmat


def mesh_from_model(model: AssetModel, name: str) -> bpy.types.Mesh:
    """One Blender mesh holding every part, one material slot per distinct material."""
    verts, faces, mat_index, smooth = [], [], [], []
    slots: dict[str, int] = {}
    materials: list[Material] = []
    offset = 0
    for part in model.parts:
        slot = slots.setdefault(part.material.key, len(slots))
        if slot == len(materials):
            materials.append(part.material)
        v = np.asarray(part.mesh.vertices, dtype=np.float64)
        f = np.asarray(part.mesh.faces, dtype=np.int64)
        verts.append(v)
        faces.append(f + offset)
        mat_index.append(np.full(len(f), slot, dtype=np.int32))
        offset += len(v)
    v = np.concatenate(verts)
    f = np.concatenate(faces)
    me = bpy.data.meshes.new(name)
    me.vertices.add(len(v))
    me.vertices.foreach_set("co", v.astype(np.float32).ravel())
    me.loops.add(f.size)
    me.loops.foreach_set("vertex_index", f.astype(np.int32).ravel())
    me.polygons.add(len(f))
    me.polygons.foreach_set("loop_start", np.arange(0, f.size, 3, dtype=np.int32))
    me.polygons.foreach_set("material_index", np.concatenate(mat_index))
    me.update(calc_edges=True)
    me.validate(clean_customdata=False)
    for mat in materials:
        me.materials.append(get_material(mat))
    me.shade_smooth()
    me.set_sharp_from_angle(angle=SMOOTH_ANGLE)
    return me


def add_model(model: AssetModel, location: Sequence[float] = (0.0, 0.0, 0.0), yaw: float = 90.0,
              name: str | None = None, collection: bpy.types.Collection | None = None,
              pass_index: int = 0) -> list[bpy.types.Object]:
    """Create the model as one object at `location` (its base centre), front facing `yaw`
    degrees counter-clockwise from +x (the scene.json convention; 90 = model unrotated).
    Returns the created objects (a list, so callers need not care how many)."""
    name = name or model.category
    obj = bpy.data.objects.new(name, mesh_from_model(model, name))
    obj.location = tuple(float(c) for c in location)
    obj.rotation_euler = (0.0, 0.0, math.radians(yaw - 90.0))
    obj.pass_index = pass_index
    obj["category"] = model.category
    (collection or bpy.context.scene.collection).objects.link(obj)
    return [obj]


def add_category(category: str, rng: np.random.Generator, location=(0.0, 0.0, 0.0), yaw: float = 90.0,
                 size=None, color=None, name: str | None = None,
                 collection: bpy.types.Collection | None = None, pass_index: int = 0,
                 **attributes) -> list[bpy.types.Object]:
    """Build `category` with assets.models.build_model and add it to the scene."""
    from assets.models import build_model
    model = build_model(category, rng, size=size, color=color, **attributes)
    return add_model(model, location, yaw, name, collection, pass_index)


def add_trimesh(mesh, material: Material, name: str, location=(0.0, 0.0, 0.0), yaw: float = 90.0,
                collection: bpy.types.Collection | None = None, pass_index: int = 0) -> bpy.types.Object:
    """Add one trimesh with one material (room shells, stairs, debug geometry)."""
    from assets.models import Part
    model = AssetModel(name, tuple(float(v) for v in mesh.extents), [Part(name, mesh, material)],
                       "", material.kind)
    return add_model(model, location, yaw, name, collection, pass_index)[0]
