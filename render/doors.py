"""Door leaves as Blender models; where they hang and how far they open each frame is the
scene's and the walk's (generator.doors)."""

from __future__ import annotations

import numpy as np

from generator.doors import LEAF_T, Leaf


def leaf_model(leaf: Leaf, rng: np.random.Generator):
    """The leaf as an asset model in its hinge frame: the hinge axis at the origin, the closed
    leaf along +x, opening turns it towards +y (turn +1) or -y (turn -1): assets' door model
    (panels, handles, hinges) without its frame - the wall's casing is the frame."""
    from assets.models import AssetModel, Part, build_model

    jamb, thick = 0.06, LEAF_T                     # assets.builders_fixtures.door
    w, h = leaf.width + 2 * jamb + 0.006, leaf.height + 0.047
    model = build_model("door", rng, size=(w, 0.1, h))
    x0 = -w / 2 + jamb + 0.003
    move = np.eye(4)
    move[:3, 3] = (-x0, -thick / 2, 0.0)
    if leaf.turn < 0:
        move = np.diag([1.0, -1.0, 1.0, 1.0]) @ move
    parts = []
    for part in model.parts:
        if part.name == "frame":
            continue
        mesh = part.mesh.copy()
        mesh.apply_transform(move)
        parts.append(Part(part.name, mesh, part.material))
    return AssetModel("door leaf", (leaf.width, thick, leaf.height), parts, model.color, model.material)
