"""Developer check for procedural models: coplanar overlapping faces.

Two same-facing triangles of different primitives lying in one plane and overlapping make
Cycles shadow rays hit the twin face at distance ~0, which renders that area black (Workbench
does not show it). Builders should let solids meet face-to-face or stay apart, not overlap on
a visible plane. `python -m assets.meshcheck [category ...]` lists the suspects; hits on
faces hidden inside other solids are harmless.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np

from assets.models import AssetModel


def coplanar_overlaps(model: AssetModel) -> list[tuple[str, str, tuple[float, float, float]]]:
    """(part, other part, centroid) for same-facing coplanar overlapping triangles."""
    verts, faces, owner = [], [], []
    offset = 0
    for k, part in enumerate(model.parts):
        verts.append(part.mesh.vertices)
        faces.append(part.mesh.faces + offset)
        owner += [k] * len(part.mesh.faces)
        offset += len(part.mesh.vertices)
    tri = np.concatenate(verts)[np.concatenate(faces)]
    owner_arr = np.array(owner)
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    area = np.linalg.norm(normal, axis=1)
    valid = area > 1e-10
    normal[valid] /= area[valid, None]
    offset_d = np.einsum("ij,ij->i", normal, tri[:, 0])
    on_floor = (normal[:, 2] < -0.99) & (np.abs(tri[:, :, 2]).max(1) < 1e-4)   # undersides
    planes: dict[tuple, list[int]] = defaultdict(list)
    for i in np.nonzero(valid & ~on_floor)[0]:
        planes[(tuple(np.round(normal[i], 3)), round(float(offset_d[i]), 4))].append(i)
    hits = []
    for idx in planes.values():
        if len(idx) < 2:
            continue
        idx = np.array(idx)
        keep = [a for a in range(3) if a != int(np.argmax(np.abs(normal[idx[0]])))]
        t2 = tri[idx][:, :, keep]
        centroids = t2.mean(1)
        a_, b_, c_ = t2[:, 0], t2[:, 1], t2[:, 2]
        for j, p in enumerate(centroids):
            def side(o, u):
                return (u[:, 0] - o[:, 0]) * (p[1] - o[:, 1]) - (u[:, 1] - o[:, 1]) * (p[0] - o[:, 0])
            s1, s2, s3 = side(a_, b_), side(b_, c_), side(c_, a_)
            inside = ((s1 > 1e-9) & (s2 > 1e-9) & (s3 > 1e-9)) | ((s1 < -1e-9) & (s2 < -1e-9) & (s3 < -1e-9))
            inside[j] = False
            for other in np.nonzero(inside)[0]:
                hits.append((model.parts[owner_arr[idx[j]]].name, model.parts[owner_arr[idx[other]]].name,
                             tuple(np.round(tri[idx[j]].mean(0), 3))))
    return hits


def main(argv: list[str]) -> int:
    from assets.catalog import CATEGORIES
    from assets.models import build_model
    for name in argv or sorted(CATEGORIES):
        hits = coplanar_overlaps(build_model(name, np.random.default_rng(0)))
        if hits:
            pairs = sorted({(a, b) for a, b, _ in hits})
            print(f"{name}: {len(hits)} triangles, parts {pairs[:5]}, e.g. at {hits[0][2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
