"""Free space for the walk: per-floor occupancy grids, clearance fields, shortest paths.

One `FloorSpace` per floor holds a 0.1 m grid over the floor's rooms and hallways (the
stairwell is left out: the stairs are walked along `generator.stairs`), the distance of
every cell centre to the nearest wall (walls with every doorway and stair opening cut out)
and to the nearest obstacle footprint, and the distance to every doorway's gap so that a
`Leg` (the free space for one set of allowed spaces) can close the doors it must not use.

A `Leg` = one floor + the spaces the walker may be in (e.g. the room it leaves, the room it
goes to and the hallways). Cells are free when inside an allowed space, >= WALL_CLEARANCE
from every wall and closed doorway, and >= OBJECT_CLEARANCE_MIN from every obstacle
footprint; cells closer than OBJECT_CLEARANCE (the 0.3 m body radius) cost much more, so
paths only squeeze between furniture where placement left no wider way (placement keeps a
0.3 m body connected in exact geometry, which a 0.1 m grid may only see at 0.22 m).
Shortest paths: Dijkstra (scipy.sparse.csgraph) on the 8-connected free cells with a cost
that prefers keeping away from walls and furniture, then string pulling and corner cutting
checked against the clearance fields (bilinear, so doorways 0.9 m wide stay passable;
generator.walk.smoothing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from assets.builders_fixtures import open_leaf_plan
from generator import stairs as stairs_mod
from generator.walk.smoothing import smooth

CELL = 0.1
WALL_CLEARANCE = 0.35    # from a wall's centre line (walls are 0.1 m thick: 0.30 m from its face)
OBJECT_CLEARANCE = 0.32  # body radius 0.3 m + a little: what paths keep where there is room
OBJECT_CLEARANCE_MIN = 0.22  # squeezing between furniture: allowed on the grid, at a high cost
SQUEEZE_COST = 12.0
COMFORT = 0.8            # paths prefer at least this much clearance when there is room
COMFORT_WEIGHT = 2.5
HEAD_HEIGHT = 1.9        # objects whose bottom is above this do not block the body
FLAT_HEIGHT = 0.05       # objects lower than this (carpets, mats) are walked over


def seg_dist(px: np.ndarray, py: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """Distance of points (px, py) (any shape) to the nearest of segments (M, 4)."""
    out = np.full(np.shape(px), np.inf)
    if len(segs) == 0:
        return out
    px = np.asarray(px, float)[..., None]
    py = np.asarray(py, float)[..., None]
    ax, ay, bx, by = segs[:, 0], segs[:, 1], segs[:, 2], segs[:, 3]
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    ll = np.where(ll < 1e-12, 1e-12, ll)
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / ll, 0.0, 1.0)
    qx, qy = ax + t * dx - px, ay + t * dy - py
    return np.sqrt(np.min(qx * qx + qy * qy, axis=-1))


def _cut(segs: list[tuple[float, float, float, float]], gaps: list[tuple[str, float, float, float]]):
    """Remove the intervals `gaps` (axis, line coord, lo, hi) from axis-aligned segments."""
    out = []
    for ax, ay, bx, by in segs:
        if abs(ay - by) < 1e-9:
            axis, coord, lo, hi = "x", ay, min(ax, bx), max(ax, bx)
        elif abs(ax - bx) < 1e-9:
            axis, coord, lo, hi = "y", ax, min(ay, by), max(ay, by)
        else:
            out.append((ax, ay, bx, by))
            continue
        pieces = [(lo, hi)]
        for g_axis, g_coord, g_lo, g_hi in gaps:
            if g_axis != axis or abs(g_coord - coord) > 1e-6:
                continue
            nxt = []
            for p_lo, p_hi in pieces:
                if g_hi <= p_lo + 1e-9 or g_lo >= p_hi - 1e-9:
                    nxt.append((p_lo, p_hi))
                    continue
                if g_lo > p_lo + 1e-9:
                    nxt.append((p_lo, g_lo))
                if g_hi < p_hi - 1e-9:
                    nxt.append((g_hi, p_hi))
            pieces = nxt
        for p_lo, p_hi in pieces:
            if p_hi - p_lo > 1e-6:
                out.append((p_lo, coord, p_hi, coord) if axis == "x" else (coord, p_lo, coord, p_hi))
    return out


def _gap_of(position, width, axis) -> tuple[str, float, float, float]:
    x, y = position
    if axis == "x":
        return ("x", y, x - width / 2, x + width / 2)
    return ("y", x, y - width / 2, y + width / 2)


def _gap_seg(gap) -> tuple[float, float, float, float]:
    axis, coord, lo, hi = gap
    return (lo, coord, hi, coord) if axis == "x" else (coord, lo, coord, hi)


@dataclass
class Obstacle:
    id: str
    room: str | None
    poly: np.ndarray  # (K, 2) footprint corners
    z0: float         # absolute
    z1: float
    support: str


def base_z(obj: dict, elevation: float) -> float:
    """World z of the object's bottom (`position[2]` is world z, docs/formats.md)."""
    pos = obj.get("position", [])
    return float(pos[2]) if len(pos) > 2 else elevation


def is_obstacle(obj: dict, elevation: float = 0.0) -> bool:
    """Does this object block the walker's body? (Carpets, ceiling lights, windows, doors
    in doorways and things mounted above head height do not.)"""
    if not obj.get("footprint"):
        return False
    if obj.get("support") in ("ceiling", "window"):
        return False
    if obj.get("category") == "door":
        return False
    z0 = base_z(obj, elevation) - elevation
    h = float(obj["size"][2]) if obj.get("size") else 1.0
    return z0 < HEAD_HEIGHT and z0 + h > FLAT_HEIGHT


def open_leaf(obj: dict) -> np.ndarray:
    """World plan corners (4, 2) of a door object's open leaf (assets' door model turned by the
    object's yaw: its front, +y, faces `yaw`). The leaf swings 0.8 m into the room beside the
    doorway; the walk once passed through it (sample-5-000's kitchen door)."""
    x, y = obj["position"][:2]
    return np.array(open_leaf_plan(float(x), float(y), float(obj["yaw"]), float(obj["size"][0]),
                                   float(obj["attributes"]["open_angle"])))


@dataclass
class Door:
    id: str
    sides: tuple[str, str]
    seg: tuple[float, float, float, float]
    point: tuple[float, float]
    axis: str


@dataclass
class FloorSpace:
    floor: int
    elevation: float
    x0: float
    y0: float
    nx: int
    ny: int
    names: list[str]                  # space names (room labels, "hallway:<id>")
    space: np.ndarray                 # (ny, nx) index into names, -1 = none/stairwell/outside
    walls: np.ndarray                 # (M, 4) wall pieces with every gap cut
    d_wall: np.ndarray                # (ny, nx)
    doors: list[Door]
    d_door: dict[str, np.ndarray]     # door id -> distance field to its gap
    obstacles: list[Obstacle]
    d_obj: np.ndarray                 # (ny, nx) distance to nearest obstacle footprint (0 inside)
    stair_entries: dict[str, stairs_mod.Entry] = field(default_factory=dict)  # stair id -> entry on this floor
    legs: dict = field(default_factory=dict)

    @property
    def cx(self) -> np.ndarray:
        return self.x0 + CELL * (np.arange(self.nx) + 0.5)

    @property
    def cy(self) -> np.ndarray:
        return self.y0 + CELL * (np.arange(self.ny) + 0.5)

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        i = int(math.floor((y - self.y0) / CELL))
        j = int(math.floor((x - self.x0) / CELL))
        return min(max(i, 0), self.ny - 1), min(max(j, 0), self.nx - 1)

    def centre(self, i: int, j: int) -> tuple[float, float]:
        return (self.x0 + CELL * (j + 0.5), self.y0 + CELL * (i + 0.5))

    def space_at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        i = np.clip(np.floor((np.asarray(y) - self.y0) / CELL).astype(int), 0, self.ny - 1)
        j = np.clip(np.floor((np.asarray(x) - self.x0) / CELL).astype(int), 0, self.nx - 1)
        return self.space[i, j]

    def bilinear(self, field_: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        fx = (np.asarray(x, float) - self.x0) / CELL - 0.5
        fy = (np.asarray(y, float) - self.y0) / CELL - 0.5
        j0 = np.clip(np.floor(fx).astype(int), 0, self.nx - 2)
        i0 = np.clip(np.floor(fy).astype(int), 0, self.ny - 2)
        tx = np.clip(fx - j0, 0.0, 1.0)
        ty = np.clip(fy - i0, 0.0, 1.0)
        f00, f01 = field_[i0, j0], field_[i0, j0 + 1]
        f10, f11 = field_[i0 + 1, j0], field_[i0 + 1, j0 + 1]
        return (f00 * (1 - tx) + f01 * tx) * (1 - ty) + (f10 * (1 - tx) + f11 * tx) * ty

    def leg(self, allowed: frozenset[str]) -> "Leg":
        if allowed not in self.legs:
            self.legs[allowed] = Leg(self, allowed)
        return self.legs[allowed]


def build_floors(scene: dict) -> dict[int, FloorSpace]:
    floors = {}
    geoms = {s["id"]: stairs_mod.stair_geometry(s, scene) for s in scene.get("stairs", [])}
    for f in scene["floors"]:
        floors[f["floor"]] = _build_floor(scene, f["floor"], f["elevation"], geoms)
    return floors


def _build_floor(scene: dict, floor: int, elevation: float, geoms: dict) -> FloorSpace:
    spaces = [(r["label"], r["polygon"]) for r in scene["rooms"] if r["floor"] == floor]
    spaces += [(f"hallway:{h['id']}", h["polygon"]) for h in scene["hallways"] if h["floor"] == floor]
    pts = [p for _, poly in spaces for p in poly]
    for s in scene.get("stairs", []):
        if floor in s["floors"]:
            pts += s["polygon"]
    xs = [p[0] for p in pts] or [0.0]
    ys = [p[1] for p in pts] or [0.0]
    x0 = math.floor(min(xs)) - 1.0
    y0 = math.floor(min(ys)) - 1.0
    nx = int(math.ceil((max(xs) + 1.0 - x0) / CELL))
    ny = int(math.ceil((max(ys) + 1.0 - y0) / CELL))
    cx = x0 + CELL * (np.arange(nx) + 0.5)
    cy = y0 + CELL * (np.arange(ny) + 0.5)
    gx, gy = np.meshgrid(cx, cy)
    space = np.full((ny, nx), -1, dtype=np.int32)
    names = []
    for k, (name, poly) in enumerate(spaces):
        inside = shapely.contains_xy(shapely.Polygon(poly), gx, gy)
        space[inside] = k
        names.append(name)
    # doors, stair openings -> gaps in the walls
    doors: list[Door] = []
    gaps = []
    for d in scene["doors"]:
        if d["floor"] != floor:
            continue
        gap = _gap_of(d["position"], d["width"], d["wall_axis"])
        gaps.append(gap)
        a, b = d["rooms"]
        doors.append(Door(d["id"], (a, b), _gap_seg(gap), tuple(d["position"]), d["wall_axis"]))
    entries = {}
    for sid, g in geoms.items():
        if floor in g.openings:
            (p, q) = g.openings[floor]
            axis = "x" if abs(p[1] - q[1]) < 1e-9 else "y"
            gap = (axis, p[1], p[0], q[0]) if axis == "x" else (axis, p[0], p[1], q[1])
            gaps.append(gap)
            entries[sid] = g.entries[floor]
            doors.append(Door(f"stairs:{sid}:{floor}", ("stairs", "stairs"), _gap_seg(gap), g.entries[floor].door, axis))
    raw = [(w["a"][0], w["a"][1], w["b"][0], w["b"][1]) for w in scene["walls"] if w["floor"] == floor]
    walls = np.array(_cut(raw, gaps), dtype=float).reshape(-1, 4)
    d_wall = seg_dist(gx, gy, walls)
    d_door = {d.id: seg_dist(gx, gy, np.array([d.seg])) for d in doors}
    obstacles = []
    for obj in scene.get("objects", []):
        if obj.get("floor", 0) != floor or not is_obstacle(obj, elevation):
            continue
        z0 = base_z(obj, elevation)
        obstacles.append(Obstacle(obj["id"], obj.get("room"), np.asarray(obj["footprint"], float), z0,
                                  z0 + float(obj["size"][2]), str(obj.get("support", "floor"))))
    for obj in scene.get("objects", []):   # a door object's leaf stands open in its room
        if obj.get("floor", 0) == floor and obj.get("category") == "door" and (obj.get("attributes") or {}).get("open_angle"):
            z0 = base_z(obj, elevation)
            obstacles.append(Obstacle(f"{obj['id']}#leaf", obj.get("room"), open_leaf(obj), z0,
                                      z0 + float(obj["size"][2]), "floor"))
    d_obj = np.full((ny, nx), 9.0)
    for ob in obstacles:
        bx0, by0 = ob.poly.min(axis=0) - 1.2
        bx1, by1 = ob.poly.max(axis=0) + 1.2
        j0, j1 = np.searchsorted(cx, bx0), np.searchsorted(cx, bx1)
        i0, i1 = np.searchsorted(cy, by0), np.searchsorted(cy, by1)
        if j1 <= j0 or i1 <= i0:
            continue
        sx, sy = gx[i0:i1, j0:j1], gy[i0:i1, j0:j1]
        ring = np.vstack([ob.poly, ob.poly[:1]])
        segs = np.hstack([ring[:-1], ring[1:]])
        dist = seg_dist(sx, sy, segs)
        dist[shapely.contains_xy(shapely.Polygon(ob.poly), sx, sy)] = 0.0
        d_obj[i0:i1, j0:j1] = np.minimum(d_obj[i0:i1, j0:j1], dist)
    return FloorSpace(floor, elevation, x0, y0, nx, ny, names, space, walls, d_wall, doors, d_door, obstacles, d_obj,
                      entries)


NEIGHBOURS = ((0, 1), (1, 0), (1, 1), (1, -1))


class NoPath(Exception):
    pass


class Leg:
    """Free space of one floor restricted to `allowed` spaces (other rooms' doors closed)."""

    def __init__(self, fs: FloorSpace, allowed: frozenset[str]):
        self.fs = fs
        self.allowed = allowed
        ok = np.array([n in allowed for n in fs.names] + [False])
        self.in_space = ok[fs.space]  # index -1 -> last entry (False)
        d_wall = fs.d_wall.copy()
        for d in fs.doors:
            if not (d.sides[0] in allowed and d.sides[1] in allowed):
                d_wall = np.minimum(d_wall, fs.d_door[d.id])
        self.d_wall = d_wall
        self.free = self.in_space & (d_wall >= WALL_CLEARANCE) & (fs.d_obj >= OBJECT_CLEARANCE_MIN)
        self.roomy = self.free & (fs.d_obj >= OBJECT_CLEARANCE)
        clearance = np.minimum(d_wall - WALL_CLEARANCE + OBJECT_CLEARANCE, fs.d_obj)
        self.penalty = 1.0 + COMFORT_WEIGHT * np.clip((COMFORT - clearance) / COMFORT, 0.0, 1.0)
        self.penalty = self.penalty + SQUEEZE_COST * (fs.d_obj < OBJECT_CLEARANCE)
        self._graph = None

    # --------------------------------------------------------------- graph search
    def graph(self) -> csr_matrix:
        if self._graph is None:
            fs = self.fs
            idx = np.arange(fs.ny * fs.nx).reshape(fs.ny, fs.nx)
            rows, cols, vals = [], [], []
            for di, dj in NEIGHBOURS:
                j0, j1 = max(0, -dj), fs.nx - max(0, dj)
                sa = (slice(0, fs.ny - di), slice(j0, j1))
                sb = (slice(di, fs.ny), slice(j0 + dj, j1 + dj))
                both = self.free[sa] & self.free[sb]
                w = CELL * math.hypot(di, dj) * (self.penalty[sa] + self.penalty[sb]) / 2
                rows.append(idx[sa][both])
                cols.append(idx[sb][both])
                vals.append(w[both])
            r = np.concatenate(rows)
            c = np.concatenate(cols)
            v = np.concatenate(vals)
            n = fs.ny * fs.nx
            self._graph = csr_matrix((np.concatenate([v, v]), (np.concatenate([r, c]), np.concatenate([c, r]))), shape=(n, n))
        return self._graph

    def snap(self, x: float, y: float, radius: float = 0.6) -> tuple[int, int]:
        """The free cell nearest to (x, y) (within `radius`)."""
        fs = self.fs
        i, j = fs.cell_of(x, y)
        if self.roomy[i, j]:
            return i, j
        r = int(math.ceil(radius / CELL))
        best = None
        for di in range(-r, r + 1):
            for dj in range(-r, r + 1):
                ii, jj = i + di, j + dj
                if 0 <= ii < fs.ny and 0 <= jj < fs.nx and self.free[ii, jj]:
                    cx, cy = fs.centre(ii, jj)
                    dd = (cx - x) ** 2 + (cy - y) ** 2 + (0.0 if self.roomy[ii, jj] else 0.25)
                    if best is None or dd < best[0] - 1e-12:
                        best = (dd, ii, jj)
        if best is None:
            raise NoPath(f"floor {fs.floor}: no free cell near ({x:.2f}, {y:.2f})")
        return best[1], best[2]

    def field(self, x: float, y: float) -> "Field":
        i, j = self.snap(x, y)
        src = i * self.fs.nx + j
        dist, pred = dijkstra(self.graph(), directed=False, indices=src, return_predecessors=True)
        return Field(self, (x, y), (i, j), dist.reshape(self.fs.ny, self.fs.nx), pred)

    # --------------------------------------------------------------- continuous checks
    def clear(self, xs: np.ndarray, ys: np.ndarray, slack: float = 0.012, objects: float = OBJECT_CLEARANCE) -> bool:
        fs = self.fs
        if not np.all(self._in_space(xs, ys)):
            return False
        if np.any(fs.bilinear(self.d_wall, xs, ys) < WALL_CLEARANCE - slack):
            return False
        return not np.any(fs.bilinear(fs.d_obj, xs, ys) < objects - slack)

    def _in_space(self, xs, ys) -> np.ndarray:
        fs = self.fs
        i = np.clip(np.floor((np.asarray(ys) - fs.y0) / CELL).astype(int), 0, fs.ny - 1)
        j = np.clip(np.floor((np.asarray(xs) - fs.x0) / CELL).astype(int), 0, fs.nx - 1)
        return self.in_space[i, j]

    def segment_clear(self, p, q, slack: float = 0.012, objects: float = OBJECT_CLEARANCE) -> bool:
        """Is the straight line p-q inside the leg's spaces, WALL_CLEARANCE off walls and
        `objects` m off furniture (OBJECT_CLEARANCE_MIN where a step squeezes by)?"""
        n = max(2, int(math.ceil(math.hypot(q[0] - p[0], q[1] - p[1]) / 0.04)) + 1)
        t = np.linspace(0.0, 1.0, n)
        return self.clear(p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), slack, objects)


@dataclass
class Field:
    leg: Leg
    source: tuple[float, float]
    source_cell: tuple[int, int]
    dist: np.ndarray
    pred: np.ndarray

    def reachable(self, i: int, j: int) -> bool:
        return bool(np.isfinite(self.dist[i, j]))

    def cells_to(self, i: int, j: int) -> list[tuple[int, int]]:
        """Cells from the source to (i, j)."""
        nx = self.leg.fs.nx
        k = i * nx + j
        if not np.isfinite(self.dist.flat[k]):
            raise NoPath(f"floor {self.leg.fs.floor}: cell {(i, j)} unreachable from {self.source}")
        out = [k]
        while self.pred[k] >= 0:
            k = self.pred[k]
            out.append(k)
        out.reverse()
        return [(k // nx, k % nx) for k in out]

    def _back_along_path(self, i: int, j: int, steps: int) -> tuple[float, float] | None:
        """Centre of the cell `steps` cells from (i, j) towards the source (None at the source)."""
        nx = self.leg.fs.nx
        k = i * nx + j
        kk = k
        for _ in range(steps):
            if self.pred[kk] < 0:
                break
            kk = self.pred[kk]
        return None if kk == k else self.leg.fs.centre(kk // nx, kk % nx)

    def heading_near(self, i: int, j: int, back: int = 6) -> float | None:
        """Direction of travel (deg) arriving at (i, j) from the source."""
        behind = self._back_along_path(i, j, back)
        if behind is None:
            return None
        (ax, ay), (bx, by) = behind, self.leg.fs.centre(i, j)
        return math.degrees(math.atan2(by - ay, bx - ax))

    def heading_to_source(self, i: int, j: int, steps: int = 6) -> float | None:
        """Direction (deg) from (i, j) along the shortest path towards the source."""
        ahead = self._back_along_path(i, j, steps)
        if ahead is None:
            return None
        (ax, ay), (bx, by) = self.leg.fs.centre(i, j), ahead
        return math.degrees(math.atan2(by - ay, bx - ax))

    def path_to(self, x: float, y: float) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
        """(smoothed polyline, its straight-line skeleton) from the source point to (x, y)."""
        leg = self.leg
        i, j = leg.snap(x, y)
        cells = self.cells_to(i, j)
        pts = [leg.fs.centre(a, b) for a, b in cells]
        pts[0] = self.source if leg.segment_clear(self.source, pts[min(1, len(pts) - 1)]) else pts[0]
        if (x, y) != pts[-1]:
            pts.append((x, y))
        if self.source != pts[0]:
            pts.insert(0, self.source)
        return smooth(leg, pts)
