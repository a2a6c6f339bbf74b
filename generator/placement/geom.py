"""Geometry for object placement: footprints, candidate positions, door zones, walkability.

Conventions (docs/formats.md): an object's local frame has +y = its front, x = its width;
`yaw` (degrees CCW from +x) is the world direction of its front, so a local point (lx, ly)
maps to the world by a rotation of (yaw - 90) degrees plus the footprint centre.
Everything here is 2D (plan view) and vectorized over candidates with shapely 2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

WALL_HALF = 0.05          # walls are 0.1 m thick, centred on the room polygon's edges
WALL_GAP = 0.06           # floor objects keep at least this far from the polygon edges
BODY_RADIUS = 0.3         # the camera's body
SPOT_RADIUS = 0.5         # a free disc of this radius lets the camera stand and look around
WALK_MARGIN = 0.04        # placement keeps this much more room than the camera strictly needs
WALK_RADIUS = BODY_RADIUS + WALK_MARGIN
WALK_SPOT = SPOT_RADIUS + WALK_MARGIN
DOOR_DEPTH = 1.0          # door swing zone depth on each side of a door
DOOR_MARGIN = 0.1         # door swing zone extends this far past each jamb
ENTRY_DEPTH = 0.4         # where the camera stands just inside a door
MITRE = {"join_style": "mitre", "mitre_limit": 10.0}


def rot(yaw_deg):
    """cos, sin of (yaw - 90) with exact values at multiples of 90 degrees."""
    th = np.radians(np.asarray(yaw_deg, float) - 90.0)
    c, s = np.cos(th), np.sin(th)
    return np.round(c, 12) + 0.0, np.round(s, 12) + 0.0


def to_world(x, y, yaw, lx, ly):
    """Local offsets (lx, ly) of an object at (x, y, yaw) in world coordinates."""
    c, s = rot(yaw)
    return x + c * lx - s * ly, y + s * lx + c * ly


def to_local(x, y, yaw, wx, wy):
    c, s = rot(yaw)
    dx, dy = np.asarray(wx) - x, np.asarray(wy) - y
    return c * dx + s * dy, -s * dx + c * dy


def corners(x, y, yaw, w, d) -> np.ndarray:
    """(N, 4, 2) CCW footprint corners of boxes (w along local x, d along local y)."""
    x, y, yaw, w, d = np.broadcast_arrays(*(np.atleast_1d(np.asarray(v, float)) for v in (x, y, yaw, w, d)))
    lx = np.stack([-w / 2, w / 2, w / 2, -w / 2], axis=-1)
    ly = np.stack([-d / 2, -d / 2, d / 2, d / 2], axis=-1)
    c, s = rot(yaw)
    wx = x[:, None] + c[:, None] * lx - s[:, None] * ly
    wy = y[:, None] + s[:, None] * lx + c[:, None] * ly
    return np.stack([wx, wy], axis=-1)


def footprints(x, y, yaw, w, d) -> np.ndarray:
    """Vectorized shapely polygons of boxes (see `corners`); CCW, first corner = local (-w/2, -d/2)."""
    return shapely.polygons(corners(x, y, yaw, w, d))


def footprint(x, y, yaw, w, d) -> Polygon:
    return footprints(x, y, yaw, w, d)[0]


def front_zone(x, y, yaw, w, d, depth, widen: float = 0.0) -> np.ndarray:
    """Boxes of free floor in front (+y) of objects: width w + 2*widen, `depth` deep."""
    off = d / 2 + np.asarray(depth) / 2
    cx, cy = to_world(np.asarray(x, float), np.asarray(y, float), yaw, 0.0, off)
    return footprints(cx, cy, yaw, np.asarray(w) + 2 * widen, depth)


def union(geoms) -> BaseGeometry:
    geoms = [g for g in geoms if g is not None and not g.is_empty]
    if not geoms:
        return Polygon()
    if len(geoms) == 1:
        return geoms[0]
    return shapely.union_all(geoms)


def parts(geom: BaseGeometry) -> list[Polygon]:
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    return [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon) and not g.is_empty]


@dataclass(frozen=True)
class Edge:
    """A straight piece of the room polygon, with the inward normal and the yaw facing in."""
    ax: float
    ay: float
    tx: float
    ty: float
    length: float

    @property
    def nx(self) -> float:
        return -self.ty

    @property
    def ny(self) -> float:
        return self.tx

    @property
    def yaw(self) -> float:
        return math.degrees(math.atan2(self.ny, self.nx)) % 360.0

    def point(self, s, off):
        return self.ax + self.tx * s + self.nx * off, self.ay + self.ty * s + self.ny * off


def edges(poly: Polygon) -> list[Edge]:
    """Edges of a CCW polygon (inward normal = left of the direction of travel)."""
    poly = shapely.geometry.polygon.orient(poly, 1.0)
    coords = list(poly.exterior.coords)
    out = []
    for (ax, ay), (bx, by) in zip(coords, coords[1:]):
        length = math.hypot(bx - ax, by - ay)
        if length > 1e-6:
            out.append(Edge(ax, ay, (bx - ax) / length, (by - ay) / length, length))
    return out


@dataclass
class Candidates:
    """Candidate poses of one object: centre, yaw and bookkeeping for scoring."""
    x: np.ndarray
    y: np.ndarray
    yaw: np.ndarray
    edge: np.ndarray        # index of the wall the back touches (-1: free-standing)
    end_dist: np.ndarray    # distance from the object's side to the nearer end of that wall
    wall_len: np.ndarray

    def __len__(self) -> int:
        return len(self.x)

    def take(self, mask) -> "Candidates":
        return Candidates(self.x[mask], self.y[mask], self.yaw[mask], self.edge[mask],
                          self.end_dist[mask], self.wall_len[mask])

    @staticmethod
    def concat(items: list["Candidates"]) -> "Candidates":
        items = [c for c in items if len(c)]
        if not items:
            return Candidates(*(np.zeros(0) for _ in range(6)))
        return Candidates(*(np.concatenate([getattr(c, f) for c in items])
                            for f in ("x", "y", "yaw", "edge", "end_dist", "wall_len")))


def wall_candidates(poly: Polygon, w: float, d: float, back: float = WALL_GAP, step: float = 0.05,
                    ends_only: bool = False) -> Candidates:
    """Poses with the object's back `back` m from a polygon edge, facing into the room."""
    out = []
    for i, e in enumerate(edges(poly)):
        lo, hi = WALL_GAP + w / 2, e.length - WALL_GAP - w / 2
        if hi < lo - 1e-9:
            continue
        if ends_only:
            s = np.array(sorted({round(lo, 6), round(hi, 6)}))
        else:
            n = max(1, int(math.floor((hi - lo) / step)))
            s = np.unique(np.round(np.concatenate([np.linspace(lo, hi, n + 1), [(lo + hi) / 2]]), 6))
        x, y = e.point(s, back + d / 2)
        end = np.minimum(s - w / 2, e.length - s - w / 2) - WALL_GAP
        out.append(Candidates(np.asarray(x, float), np.asarray(y, float), np.full(len(s), e.yaw),
                              np.full(len(s), i), np.maximum(end, 0.0), np.full(len(s), e.length)))
    return Candidates.concat(out)


def free_candidates(region: BaseGeometry, yaws, step: float = 0.1, max_points: int = 1200) -> Candidates:
    """Grid points inside `region`, each with every yaw of `yaws`."""
    if region.is_empty:
        return Candidates.concat([])
    x0, y0, x1, y1 = region.bounds
    area = max((x1 - x0) * (y1 - y0), 1e-6)
    step = max(step, math.sqrt(area / max_points))
    xs = np.arange(x0 + step / 2, x1, step)
    ys = np.arange(y0 + step / 2, y1, step)
    if not len(xs) or not len(ys):
        c = region.representative_point()
        xs, ys = np.array([c.x]), np.array([c.y])
    gx, gy = np.meshgrid(xs, ys)
    gx, gy = gx.ravel(), gy.ravel()
    inside = shapely.contains_xy(region, gx, gy)
    gx, gy = gx[inside], gy[inside]
    yaws = np.asarray(list(yaws), float)
    n = len(gx)
    return Candidates(np.tile(gx, len(yaws)), np.tile(gy, len(yaws)), np.repeat(yaws, n),
                      np.full(n * len(yaws), -1), np.zeros(n * len(yaws)), np.zeros(n * len(yaws)))


def door_zone(door: dict) -> Polygon:
    """The swing zone of a door: DOOR_DEPTH deep on both sides, DOOR_MARGIN past each jamb."""
    x, y = door["position"]
    hw = door["width"] / 2 + DOOR_MARGIN
    if door["wall_axis"] == "x":
        return box(x - hw, y - DOOR_DEPTH, x + hw, y + DOOR_DEPTH)
    return box(x - DOOR_DEPTH, y - hw, x + DOOR_DEPTH, y + hw)


def inward(poly: Polygon, position, axis: str) -> tuple[float, float]:
    """Unit normal at a door/window on `poly`'s boundary pointing into the polygon."""
    x, y = position
    for nx, ny in (((0.0, 1.0), (0.0, -1.0)) if axis == "x" else ((1.0, 0.0), (-1.0, 0.0))):
        if poly.contains(Point(x + 0.1 * nx, y + 0.1 * ny)):
            return nx, ny
    return (0.0, 1.0) if axis == "x" else (1.0, 0.0)


def door_entry(poly: Polygon, door: dict, walk_base: BaseGeometry) -> Point:
    """Where the camera stands just inside a door (snapped into the walkable base region)."""
    nx, ny = inward(poly, door["position"], door["wall_axis"])
    p = Point(door["position"][0] + ENTRY_DEPTH * nx, door["position"][1] + ENTRY_DEPTH * ny)
    if walk_base.is_empty or walk_base.contains(p):
        return p
    return nearest_points(walk_base, p)[0]


def walk_spaces(poly: Polygon, obstacles: list[Polygon], extra_blocked: BaseGeometry | None = None):
    """(configuration space of the camera centre, region where a WALK_SPOT disc is free)."""
    blocked = union(obstacles)
    base = poly.buffer(-(WALL_HALF + WALK_RADIUS), **MITRE)
    spot = poly.buffer(-(WALL_HALF + WALK_SPOT), **MITRE)
    if extra_blocked is not None and not extra_blocked.is_empty:
        base = base.difference(extra_blocked.buffer(WALK_RADIUS, quad_segs=4))
        spot = spot.difference(extra_blocked.buffer(WALK_SPOT, quad_segs=4))
    if not blocked.is_empty:
        base = base.difference(blocked.buffer(WALK_RADIUS, quad_segs=4))
        spot = spot.difference(blocked.buffer(WALK_SPOT, quad_segs=4))
    return base, spot


def walkable(poly: Polygon, obstacles: list[Polygon], entries: list[Point],
             extra_blocked: BaseGeometry | None = None, target: Point | None = None):
    """A free spot (Point) reachable from every entry, or None.

    The spot is a point whose SPOT_RADIUS disc is free of walls and obstacles, in the same
    connected piece of the camera's configuration space as every door entry; the one
    nearest `target` (default: the room's centroid) is returned.
    """
    space, spot = walk_spaces(poly, obstacles, extra_blocked)
    if space.is_empty or spot.is_empty:
        return None
    pieces = parts(space)
    if entries:
        home = None
        for piece in pieces:
            if piece.buffer(1e-6).contains(entries[0]):
                home = piece
                break
        if home is None:
            return None
        grown = home.buffer(1e-6)
        if not all(grown.contains(e) for e in entries[1:]):
            return None
        region = spot.intersection(home)
    else:
        region = spot
    if region.is_empty or region.area < 1e-8:
        return None
    target = target or poly.centroid
    return nearest_points(region, target)[0]


def ellipse_contains(cx, cy, rx, ry, pts: np.ndarray) -> np.ndarray:
    """Whether all corner points (N, 4, 2) of each box lie inside an axis ellipse (local frame)."""
    u = (pts[..., 0] - cx) / rx
    v = (pts[..., 1] - cy) / ry
    return np.all(u * u + v * v <= 1.0, axis=-1)


__all__ = ["BODY_RADIUS", "Candidates", "DOOR_DEPTH", "DOOR_MARGIN", "Edge", "MITRE", "SPOT_RADIUS",
           "WALK_RADIUS", "WALK_SPOT", "WALL_GAP", "WALL_HALF", "corners", "door_entry", "door_zone", "edges",
           "ellipse_contains", "footprint", "footprints", "free_candidates", "front_zone", "inward",
           "parts", "rot", "to_local", "to_world", "union", "walk_spaces", "walkable", "wall_candidates"]
