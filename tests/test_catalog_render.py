"""Contact sheet rendering (Blender, Workbench): a tiny sheet renders and is not blank."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.render


def test_contact_sheet_small(tmp_path):
    import cv2

    from render.catalog import render_contact_sheet

    path = render_contact_sheet(tmp_path, engine="WORKBENCH", tile=96,
                                categories=["chair", "cup", "fridge"])
    assert path == tmp_path / "catalog.png" and path.exists()
    img = cv2.imread(str(path))
    label_bar = max(14, 96 // 9)
    assert img.shape == (96 + label_bar, 3 * 96, 3)
    tiles = [img[:96, i * 96:(i + 1) * 96] for i in range(3)]
    for tile in tiles:
        assert tile.std() > 8          # an object, not an empty frame
    assert not (tiles[0] == tiles[1]).all()


def test_add_model_places_object_with_materials():
    import bpy
    import numpy as np

    from assets.models import build_model
    from render.blender_assets import add_model

    bpy.ops.wm.read_factory_settings(use_empty=True)
    model = build_model("fridge", np.random.default_rng(0), color="red")
    (obj,) = add_model(model, (1.0, 2.0, 0.0), yaw=0.0, pass_index=7)
    assert tuple(obj.location) == (1.0, 2.0, 0.0) and obj.pass_index == 7
    assert abs(obj.rotation_euler.z - np.radians(-90)) < 1e-6      # front (+y) turned to +x
    assert len(obj.data.polygons) == sum(len(p.mesh.faces) for p in model.parts)
    keys = {p.material.key for p in model.parts}
    assert {m.name for m in obj.data.materials} == keys
    mat = bpy.data.materials[next(k for k in keys if k.startswith("painted metal"))]
    assert mat.diffuse_color[0] > 0.5 > mat.diffuse_color[1]          # red, linear space
