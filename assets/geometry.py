"""Small mesh primitives for the procedural object library (trimesh only, no downloads).

All functions return new `trimesh.Trimesh` objects in metres, z up. Curved primitives take a
`sections` count; keep it modest (objects are seen at 640x480).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import trimesh
from trimesh.transformations import rotation_matrix

Vec = Sequence[float]


def _mesh(vertices, faces) -> trimesh.Trimesh:
    return trimesh.Trimesh(np.asarray(vertices, float), np.asarray(faces, np.int64), process=False)


# --- transforms ---------------------------------------------------------------------------

def moved(mesh: trimesh.Trimesh, offset: Vec) -> trimesh.Trimesh:
    out = mesh.copy()
    out.apply_translation(np.asarray(offset, float))
    return out


def rotated(mesh: trimesh.Trimesh, axis: str | Vec, degrees: float,
            about: Vec = (0.0, 0.0, 0.0)) -> trimesh.Trimesh:
    vec = {"x": (1, 0, 0), "y": (0, 1, 0), "z": (0, 0, 1)}[axis] if isinstance(axis, str) else axis
    out = mesh.copy()
    out.apply_transform(rotation_matrix(math.radians(degrees), vec, point=about))
    return out


def scaled(mesh: trimesh.Trimesh, factors: Vec, about: Vec = (0.0, 0.0, 0.0)) -> trimesh.Trimesh:
    out = mesh.copy()
    about = np.asarray(about, float)
    out.vertices = (out.vertices - about) * np.asarray(factors, float) + about
    return out


def mirrored_x(mesh: trimesh.Trimesh) -> trimesh.Trimesh:
    """Mirror across the x = 0 plane (faces flipped to keep normals outward)."""
    return _mesh(mesh.vertices * [-1, 1, 1], mesh.faces[:, ::-1])


def merge(meshes: Sequence[trimesh.Trimesh]) -> trimesh.Trimesh:
    meshes = [m for m in meshes if m is not None and len(m.faces)]
    return trimesh.util.concatenate(meshes) if len(meshes) > 1 else meshes[0].copy()


# --- boxes ----------------------------------------------------------------------------------

def cuboid(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float) -> trimesh.Trimesh:
    """Axis-aligned box between two corners."""
    x0, x1 = sorted((x0, x1))
    y0, y1 = sorted((y0, y1))
    z0, z1 = sorted((z0, z1))
    box = trimesh.creation.box(extents=(x1 - x0, y1 - y0, z1 - z0))
    box.apply_translation(((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2))
    return box


def box(center: Vec, size: Vec) -> trimesh.Trimesh:
    c, s = np.asarray(center, float), np.asarray(size, float) / 2
    return cuboid(c[0] - s[0], c[0] + s[0], c[1] - s[1], c[1] + s[1], c[2] - s[2], c[2] + s[2])


def superellipsoid(center: Vec, half: Vec, exponent: float = 0.3, sections: int = 20,
                   vertical_exponent: float | None = None) -> trimesh.Trimesh:
    """A soft box (exponent ~0.2-0.4: cushions) or ellipsoid (exponent 1). A separate
    `vertical_exponent` near 1 gives a box-like plan with a lens-like side (pillows)."""
    unit = _unit_superellipsoid(float(exponent), int(sections),
                                float(exponent if vertical_exponent is None else vertical_exponent))
    return _mesh(unit.vertices * np.asarray(half, float) + np.asarray(center, float), unit.faces)


@lru_cache(maxsize=64)
def _unit_superellipsoid(exponent: float, sections: int, ve: float) -> trimesh.Trimesh:
    """Cached unit shape (builders call this hundreds of times, e.g. plant leaves)."""
    u = np.linspace(-math.pi / 2, math.pi / 2, sections // 2 + 1)   # latitude
    v = np.linspace(-math.pi, math.pi, sections, endpoint=False)     # longitude

    def spow(x, e):
        return np.sign(x) * np.abs(x) ** e

    uu, vv = np.meshgrid(u, v, indexing="ij")
    x = spow(np.cos(uu), ve) * spow(np.cos(vv), exponent)
    y = spow(np.cos(uu), ve) * spow(np.sin(vv), exponent)
    z = spow(np.sin(uu), ve)
    verts = np.stack([x, y, z], -1).reshape(-1, 3)
    faces = []
    nv = len(v)
    for i in range(len(u) - 1):
        for j in range(nv):
            a, b = i * nv + j, i * nv + (j + 1) % nv
            c, d = a + nv, b + nv
            faces += [(a, b, d), (a, d, c)]
    mesh = _mesh(verts, faces)
    mesh.merge_vertices()  # poles collapse to single points
    mesh.update_faces(mesh.nondegenerate_faces())
    mesh.fix_normals()
    mesh.vertices.flags.writeable = False
    return mesh


def ellipsoid(center: Vec, radii: Vec, sections: int = 16) -> trimesh.Trimesh:
    return superellipsoid(center, radii, 1.0, sections)


def sphere(center: Vec, radius: float, sections: int = 16) -> trimesh.Trimesh:
    return ellipsoid(center, (radius, radius, radius), sections)


# --- solids of revolution -------------------------------------------------------------------

def lathe(profile: Sequence[tuple[float, float]], sections: int = 32,
          center: Vec = (0.0, 0.0, 0.0)) -> trimesh.Trimesh:
    """Revolve an (r, z) polyline about the z axis. Start/end on r = 0 for a closed solid;
    an out-and-back profile (outside up, rim, inside down) gives a hollow vessel."""
    pts = np.asarray(profile, float)
    mesh = trimesh.creation.revolve(pts, sections=sections)
    mesh.apply_translation(np.asarray(center, float))
    return mesh


def cylinder(radius: float, z0: float, z1: float, x: float = 0.0, y: float = 0.0,
             sections: int = 24) -> trimesh.Trimesh:
    """Vertical cylinder."""
    return lathe([(0, z0), (radius, z0), (radius, z1), (0, z1)], sections, (x, y, 0))


def frustum(r0: float, r1: float, z0: float, z1: float, x: float = 0.0, y: float = 0.0,
            sections: int = 24) -> trimesh.Trimesh:
    """Vertical truncated cone (r0 at z0, r1 at z1)."""
    return lathe([(0, z0), (r0, z0), (r1, z1), (0, z1)], sections, (x, y, 0))


def rod(p0: Vec, p1: Vec, radius: float, sections: int = 12) -> trimesh.Trimesh:
    """Cylinder between two points (legs, tubes, bars)."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    length = float(np.linalg.norm(p1 - p0))
    mesh = trimesh.creation.cylinder(radius=radius, height=length, sections=sections)
    direction = (p1 - p0) / length
    mesh.apply_transform(trimesh.geometry.align_vectors((0, 0, 1), direction))
    mesh.apply_translation((p0 + p1) / 2)
    return mesh


def disc_x(radius: float, x0: float, x1: float, y: float, z: float,
           sections: int = 32) -> trimesh.Trimesh:
    """Cylinder whose axis runs along x, spanning x0..x1 (wheels, side dials)."""
    return moved(rotated(cylinder(radius, 0, x1 - x0, sections=sections), "y", 90), (x0, y, z))


def disc_y(radius: float, y0: float, y1: float, x: float, z: float,
           sections: int = 32) -> trimesh.Trimesh:
    """Cylinder whose axis runs along y, spanning y0..y1 (knobs, dials, portholes)."""
    return moved(rotated(cylinder(radius, 0, y1 - y0, sections=sections), "x", -90), (x, y0, z))


def torus(major: float, minor: float, center: Vec = (0, 0, 0), axis: str = "z",
          sections: int = 32, tube_sections: int = 10) -> trimesh.Trimesh:
    """Ring; `axis` is the ring's axis of symmetry."""
    mesh = trimesh.creation.torus(major, minor, major_sections=sections,
                                  minor_sections=tube_sections)
    if axis == "x":
        mesh = rotated(mesh, "y", 90)
    elif axis == "y":
        mesh = rotated(mesh, "x", 90)
    return moved(mesh, center)


# --- sweeps and extrusions ------------------------------------------------------------------

def tube(points: Sequence[Vec], radius: float | Sequence[float], sections: int = 12,
         caps: bool = True) -> trimesh.Trimesh:
    """Sweep a circle along a polyline (handles, cords, frames, bananas).
    `radius` may vary per point."""
    pts = np.asarray(points, float)
    n = len(pts)
    radii = np.broadcast_to(np.asarray(radius, float), (n,))
    tangents = np.gradient(pts, axis=0)
    tangents /= np.linalg.norm(tangents, axis=1, keepdims=True)
    # parallel-transported frame so the tube does not twist
    ref = np.array([0, 0, 1.0]) if abs(tangents[0][2]) < 0.9 else np.array([1.0, 0, 0])
    normal = np.cross(tangents[0], ref)
    normal /= np.linalg.norm(normal)
    rings = []
    angles = np.linspace(0, 2 * math.pi, sections, endpoint=False)
    for i in range(n):
        t = tangents[i]
        normal = normal - t * np.dot(normal, t)
        normal /= np.linalg.norm(normal)
        binormal = np.cross(t, normal)
        ring = pts[i] + radii[i] * (np.outer(np.cos(angles), normal)
                                    + np.outer(np.sin(angles), binormal))
        rings.append(ring)
    verts = np.concatenate(rings)
    faces = []
    for i in range(n - 1):
        for j in range(sections):
            a, b = i * sections + j, i * sections + (j + 1) % sections
            faces += [(a, b, b + sections), (a, b + sections, a + sections)]
    if caps:
        start, end = len(verts), len(verts) + 1
        verts = np.vstack([verts, pts[0], pts[-1]])
        last = (n - 1) * sections
        for j in range(sections):
            k = (j + 1) % sections
            faces += [(start, k, j), (end, last + j, last + k)]
    mesh = _mesh(verts, faces)
    mesh.fix_normals()
    return mesh


def arc_points(radius: float, a0: float, a1: float, n: int = 16, center: Vec = (0, 0, 0),
               plane: str = "xz") -> np.ndarray:
    """Points on a circular arc (angles in degrees, measured from the plane's first axis)."""
    t = np.radians(np.linspace(a0, a1, n))
    c = np.asarray(center, float)
    u, v = radius * np.cos(t), radius * np.sin(t)
    zero = np.zeros_like(t)
    xyz = {"xz": (u, zero, v), "xy": (u, v, zero), "yz": (zero, u, v)}[plane]
    return np.stack(xyz, -1) + c


def _triangulate(poly: np.ndarray) -> list[tuple[int, int, int]]:
    """Ear clipping for a simple counter-clockwise polygon (small n only)."""
    idx = list(range(len(poly)))
    tris = []

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    guard = 0
    while len(idx) > 3 and guard < 10000:
        guard += 1
        for k in range(len(idx)):
            i0, i1, i2 = idx[k - 1], idx[k], idx[(k + 1) % len(idx)]
            a, b, c = poly[i0], poly[i1], poly[i2]
            if cross(a, b, c) <= 1e-12:
                continue  # reflex or degenerate corner
            inside = False
            for j in idx:
                if j in (i0, i1, i2):
                    continue
                p = poly[j]
                if cross(a, b, p) >= 0 and cross(b, c, p) >= 0 and cross(c, a, p) >= 0:
                    inside = True
                    break
            if not inside:
                tris.append((i0, i1, i2))
                idx.pop(k)
                break
        else:
            break  # no ear found (non-simple polygon): fall back to a fan below
    if len(idx) >= 3:
        tris += [(idx[0], idx[i], idx[i + 1]) for i in range(1, len(idx) - 1)]
    return tris


def extrude(polygon: Sequence[tuple[float, float]], z0: float, z1: float) -> trimesh.Trimesh:
    """Prism from a simple 2D polygon in the xy plane, between heights z0 and z1."""
    poly = np.asarray(polygon, float)
    area = 0.5 * np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1])
    if area < 0:
        poly = poly[::-1]
    n = len(poly)
    tris = _triangulate(poly)
    verts = np.vstack([np.c_[poly, np.full(n, z0)], np.c_[poly, np.full(n, z1)]])
    faces = [(c, b, a) for a, b, c in tris] + [(a + n, b + n, c + n) for a, b, c in tris]
    for i in range(n):
        j = (i + 1) % n
        faces += [(i, j, j + n), (i, j + n, i + n)]
    return _mesh(verts, faces)


def extrude_xz(polygon: Sequence[tuple[float, float]], y0: float, y1: float) -> trimesh.Trimesh:
    """Prism from a polygon drawn in the (x, z) plane, spanning y0..y1 (front profiles)."""
    m = rotated(extrude(polygon, 0, y1 - y0), "x", 90)   # (x, y', z') -> (x, -z', y')
    return moved(m, (0, y1, 0))


def extrude_yz(polygon: Sequence[tuple[float, float]], x0: float, x1: float) -> trimesh.Trimesh:
    """Prism from a polygon drawn in the (y, z) plane, spanning x0..x1 (side profiles)."""
    m = extrude(polygon, 0, x1 - x0)
    # cyclic axis permutation (a proper rotation, so winding stays outward): z'->x, x'->y, y'->z
    m = _mesh(m.vertices[:, [2, 0, 1]], m.faces)
    return moved(m, (x0, 0, 0))


def rounded_rect(w: float, d: float, r: float, n: int = 6) -> np.ndarray:
    """Counter-clockwise outline of a w x d rectangle with corner radius r, centred at 0."""
    r = min(r, w / 2 - 1e-4, d / 2 - 1e-4)
    corners = [(w / 2 - r, d / 2 - r, 0), (-w / 2 + r, d / 2 - r, 90),
               (-w / 2 + r, -d / 2 + r, 180), (w / 2 - r, -d / 2 + r, 270)]
    pts = []
    for cx, cy, start in corners:
        for t in np.radians(np.linspace(start, start + 90, n)):
            pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
    return np.asarray(pts)


def ellipse(rx: float, ry: float, n: int = 32, center: tuple[float, float] = (0, 0)) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.c_[center[0] + rx * np.cos(t), center[1] + ry * np.sin(t)]


def slab(outline: np.ndarray, z0: float, z1: float, offset: Vec = (0, 0)) -> trimesh.Trimesh:
    """Extruded outline moved in xy (table tops, rugs, mats)."""
    return moved(extrude(outline, z0, z1), (offset[0], offset[1], 0))


def ring_prism(outer: np.ndarray, inner: np.ndarray, z0: float, z1: float) -> trimesh.Trimesh:
    """Prism of the region between two outlines with the same point count (frames, tub walls)."""
    outer, inner = np.asarray(outer, float), np.asarray(inner, float)
    n = len(outer)
    verts = np.vstack([np.c_[outer, np.full(n, z0)], np.c_[outer, np.full(n, z1)],
                       np.c_[inner, np.full(n, z0)], np.c_[inner, np.full(n, z1)]])
    ob, ot, ib, it = 0, n, 2 * n, 3 * n
    faces = []
    for i in range(n):
        j = (i + 1) % n
        faces += [(ob + i, ob + j, ot + j), (ob + i, ot + j, ot + i)]      # outer wall
        faces += [(ib + j, ib + i, it + i), (ib + j, it + i, it + j)]      # inner wall
        faces += [(ot + i, ot + j, it + j), (ot + i, it + j, it + i)]      # top
        faces += [(ob + j, ob + i, ib + i), (ob + j, ib + i, ib + j)]      # bottom
    mesh = _mesh(verts, faces)
    mesh.fix_normals()
    return mesh


def frame_xz(w: float, h: float, bar: float, y0: float, y1: float, z0: float = 0.0,
             x: float = 0.0) -> trimesh.Trimesh:
    """Rectangular frame standing in the (x, z) plane (picture/window/door frames)."""
    outer = np.array([(-w / 2, 0), (w / 2, 0), (w / 2, h), (-w / 2, h)])
    inner = np.array([(-w / 2 + bar, bar), (w / 2 - bar, bar), (w / 2 - bar, h - bar),
                      (-w / 2 + bar, h - bar)])
    m = rotated(ring_prism(outer, inner, 0, y1 - y0), "x", 90)
    return moved(m, (x, y1, z0))
