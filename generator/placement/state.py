"""The state one room's placement works on (shared by the concern modules of generator.placement).

A RoomState holds the room's geometry (floor, wall and mount regions, door swing zones,
window zones, the walkable base), the object instances expanded from the room's requests
(colour, size, model seed drawn from the room's own generator), the roles planned for them
(generator.placement.groups) and everything placed so far. Its methods are the few that
every concern needs: look items up, add a placed object, test walkability, draw noise, fail.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box

from assets.catalog import get_category, normalize_color, pick_color, sample_size
from assets.builders_fixtures import ARTWORKS
from assets.categories import INNER_SHELVES
from generator.placement import geom
from generator.layout.plan import LayoutError
from generator.placement.geom import MITRE, WALL_GAP, WALL_HALF

GAP = 0.02                 # between floor objects
EPS = 1e-6                 # float tolerance of containment tests
SURFACE_GAP = 0.01         # between objects on one support surface
CEILING = 2.8
SIZE_FACTORS = (1.0, 1.0, 0.6, 0.6, 0.0, 0.0)      # per attempt: 1 = as drawn, 0 = size_min
CLEAR_FACTORS = (1.0, 1.0, 1.0, 0.7, 0.7, 0.5)     # per attempt: front clearance scale
VIEW_DEPTH = 1.3           # floor kept free in front of a tv (low things excepted)
START_CLEAR = 0.6          # free radius around the camera's start position
WINDOW_ZONE = 0.45         # tall objects keep this deep a strip in front of windows free
# furniture whose contents are seen only from before it (assets.categories.INNER_SHELVES): the
# walk must be able to stand this deep in front of it, reached from the doors (a bed cut a
# wardrobe's front off in 7 of 190 wardrobes and bookshelves of 100 sampled specs; the walk
# saw its shelves edge-on and two garments went unseen)
FRONT_REACH = 0.8


class PlacementError(LayoutError):
    """Objects that do not fit their room; names the room, the category and the YAML path."""

    def __init__(self, message: str, room: str | None = None, category: str | None = None,
                 path: str | None = None):
        super().__init__(message, [path] if path else [])
        self.room, self.category, self.path = room, category, path


class NoFit(Exception):
    """One attempt at a room failed (internal; becomes a PlacementError)."""

    def __init__(self, category: str, reason: str, placed_count: int = 0, final: bool = False,
                 fix: str = ""):
        super().__init__(reason)
        self.category, self.reason, self.placed_count, self.final, self.fix = (
            category, reason, placed_count, final, fix)


def slug(label: str) -> str:
    return "-".join(label.lower().split())


@dataclass
class Item:
    category: str
    n: int
    count: int
    attributes: dict
    color: str
    size: list
    model_seed: int
    id: str
    build: dict = field(default_factory=dict)     # extra build_model attributes (tv wall_mounted)

    @property
    def cat(self):
        return get_category(self.category)


@dataclass
class Placed:
    item: Item
    x: float
    y: float
    z: float                 # height of the base above the floor
    yaw: float
    size: tuple
    fp: Polygon
    support: str             # floor | wall | ceiling | window | door | <object id>
    zone: Polygon | None = None
    flat: bool = False
    exempt: frozenset = frozenset()   # ids allowed inside this object's zone
    surfaces: list | None = None
    surface_index: int | None = None
    round_top: bool = False

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def category(self) -> str:
        return self.item.category

    @property
    def top(self) -> float:
        return self.z + self.size[2]


class RoomState:
    """One room's placement in progress (one per room and attempt)."""

    def __init__(self, scenario, scene: dict, room: dict, spec_room, rng: np.random.Generator,
                 attempt: int, taken_doors: set[str], strict_supports: bool = True):
        self.scenario, self.scene, self.room, self.spec_room = scenario, scene, room, spec_room
        self.rng, self.attempt = rng, attempt
        self.strict_supports = strict_supports    # supports.LAST_SUPPORTS hold (else they are plain supports)
        self.label = room["label"]
        self.slug = slug(self.label)
        self.floor = room["floor"]
        floors = {f["floor"]: f for f in scene.get("floors", [])}
        self.elev = float(floors.get(self.floor, {}).get("elevation", 3.0 * self.floor))
        self.height = float(floors.get(self.floor, {}).get("height", CEILING))
        self.size_factor = SIZE_FACTORS[min(attempt, len(SIZE_FACTORS) - 1)]
        self.clear_factor = CLEAR_FACTORS[min(attempt, len(CLEAR_FACTORS) - 1)]
        self.poly = shapely.geometry.polygon.orient(Polygon(room["polygon"]), 1.0)
        self.doors = sorted((d for d in scene["doors"] if self.label in d["rooms"]), key=lambda d: _num(d["id"]))
        self.windows = sorted((w for w in scene["windows"] if w["room"] == self.label), key=lambda w: _num(w["id"]))
        self.taken_doors = taken_doors
        self.used_doors: set[str] = set()
        stairs = geom.union([Polygon(s["polygon"]) for s in scene.get("stairs", [])
                             if self.floor in s["floors"]]).intersection(self.poly)
        self.stairs = stairs if stairs.area > 1e-6 else None
        self.door_zones = [geom.door_zone(d).intersection(self.poly) for d in self.doors]
        self.door_union = geom.union(self.door_zones)
        start = scene.get("start") or {}
        self.start = None
        if start.get("floor") == self.floor and self.poly.contains(Point(*start["position"][:2])):
            self.start = Point(*start["position"][:2])
        keepout = self.door_union
        if self.start is not None:    # the camera's first pose stays free
            keepout = keepout.union(self.start.buffer(START_CLEAR, quad_segs=8))
        inner = self.poly.buffer(-WALL_GAP + EPS, **MITRE)
        self.region_floor = inner.difference(keepout)
        if self.stairs is not None:
            self.region_floor = self.region_floor.difference(self.stairs)
        self.region_wall = self.poly.buffer(-WALL_HALF + EPS, **MITRE)
        self.region_mount = self.region_wall.difference(self.door_union)
        for g in (self.region_floor, self.region_wall, self.region_mount):
            shapely.prepare(g)
        self.window_zones = []
        for w in self.windows:
            nx, ny = -w["normal"][0], -w["normal"][1]
            x, y = w["position"]
            hw = w["width"] / 2 + 0.05
            if ny:
                zone = box(x - hw, min(y, y + ny * WINDOW_ZONE), x + hw, max(y, y + ny * WINDOW_ZONE))
            else:
                zone = box(min(x, x + nx * WINDOW_ZONE), y - hw, max(x, x + nx * WINDOW_ZONE), y + hw)
            self.window_zones.append((zone, float(w.get("sill", 0.9))))
        self.walk_base, self.spot_base = geom.walk_spaces(self.poly, [], self.stairs)
        self.entries = [geom.door_entry(self.poly, d, self.walk_base) for d in self.doors]
        if self.start is not None:
            self.entries.append(self.start)
        self.blocked03 = Polygon()
        self.blocked05 = Polygon()
        self.placed: list[Placed] = []
        self.view_zones: list[tuple[Polygon, str]] = []
        self.by_id: dict[str, Placed] = {}
        self.items = self._expand()
        self.items_by_id = {it.id: it for it in self.items}
        self.model_cache: dict = {}
        self.items_by_cat: dict[str, list[Item]] = {}
        for it in self.items:
            self.items_by_cat.setdefault(it.category, []).append(it)
        bx0, by0, bx1, by1 = self.poly.bounds
        self.bounds = (bx0, by0, bx1, by1)
        self.centre = self.poly.centroid
        # roles, planned by groups.plan_roles before anything is placed
        self.tv_host: dict[str, Item] = {}              # tv id -> the stand or cabinet it stands on
        self.tv_hosts: set[str] = set()
        self.bench_for: dict[str, str] = {}             # piano bench id -> piano id
        self.chair_anchor: dict[str, str] = {}          # chair id -> its table or desk id
        self.anchor_chairs: dict[str, list[str]] = {}   # table or desk id -> its chair ids
        self.chair_depth = 0.5
        self.mouse_anchor: dict[str, str] = {}          # mouse id -> its computer or laptop id

    def _expand(self) -> list[Item]:
        items = []
        for req in self.spec_room.objects:
            for n in range(1, req.count + 1):
                drawn_color = pick_color(req.category, self.rng)
                size = list(sample_size(req.category, self.rng))
                seed = int(self.rng.integers(2**31 - 1))
                cat = get_category(req.category)
                if self.size_factor < 1.0:
                    size = [lo + (v - lo) * self.size_factor for lo, v in zip(cat.size_min, size)]
                    if cat.round:
                        size[1] = size[0]
                color = req.attributes.get("color")
                color = (normalize_color(color) or str(color)) if color else drawn_color
                items.append(Item(req.category, n, req.count, dict(req.attributes), color, size, seed,
                                  f"{self.slug}/{req.category}/{n}"))
        distinct_artworks([it for it in items if it.category == "picture"])
        return items

    def cats(self, *names) -> list[Item]:
        return [it for name in names for it in self.items_by_cat.get(name, [])]

    def fail(self, item: Item, reason: str, final: bool = False, fix: str = ""):
        raise NoFit(item.category, reason, len(self.placed), final, fix)

    def add(self, p: Placed) -> None:
        self.placed.append(p)
        self.by_id[p.id] = p
        if p.category == "tv":
            self.add_view_zone(p)
        if p.support == "floor" and not p.flat and p.z < 1.8:
            self.blocked03 = self.blocked03.union(p.fp.buffer(geom.WALK_RADIUS, quad_segs=4))
            self.blocked05 = self.blocked05.union(p.fp.buffer(geom.WALK_SPOT, quad_segs=4))

    def block(self, fp: Polygon) -> None:
        """Something the body goes round that is no placed thing (an open door leaf)."""
        self.blocked03 = self.blocked03.union(fp.buffer(geom.WALK_RADIUS, quad_segs=4))
        self.blocked05 = self.blocked05.union(fp.buffer(geom.WALK_SPOT, quad_segs=4))

    def add_view_zone(self, tv: Placed) -> None:
        """Keep the floor in front of a tv free of furniture that would hide it."""
        front = tv
        if tv.support in self.by_id:
            front = self.by_id[tv.support]
        zone = geom.front_zone(front.x, front.y, front.yaw, tv.size[0] + 0.2, front.size[1], VIEW_DEPTH)[0]
        zone = zone.intersection(self.poly)
        if front is not tv and front.zone is not None:
            zone = zone.difference(front.zone)
        self.view_zones.append((zone, tv.id))

    def walk_ok(self, fp: Polygon, fronted: Polygon | None = None) -> bool:
        """With `fp` added: every door still connects to a free spot, and the camera can still
        stand before every INNER_SHELVES piece (and before `fronted`, the new piece's front_reach)."""
        b03 = self.blocked03.union(fp.buffer(geom.WALK_RADIUS, quad_segs=4))
        space = self.walk_base.difference(b03)
        if space.is_empty:
            return False
        spot = self.spot_base.difference(self.blocked05.union(fp.buffer(geom.WALK_SPOT, quad_segs=4)))
        if spot.is_empty:
            return False
        home = _home(space, spot, self.entries)
        if home is None:
            return False
        fronts = [front_reach(p.category, p.support, p.x, p.y, p.yaw, p.size) for p in self.placed]
        return all(home.intersects(z) for z in fronts + [fronted] if z is not None)

    def jitter(self, n: int, scale: float = 0.3) -> np.ndarray:
        return self.rng.random(n) * scale

    def placed_of(self, *cats) -> list[Placed]:
        return [p for p in self.placed if p.category in cats]

    def model_info(self, item: Item, size) -> tuple[list, bool]:
        """(raw support surfaces, round table top) of the mesh the renderer will build."""
        key = (item.id, tuple(round(v, 6) for v in size))
        if key not in self.model_cache:
            from assets.models import build_model

            color = item.color if normalize_color(item.color) else None   # the spec does not check colours
            model = build_model(item.category, np.random.default_rng(item.model_seed), size=tuple(size),
                                color=color, **item.build)
            round_top = item.category == "table" and any(part.name == "pedestal" for part in model.parts)
            mesh = model.mesh()
            tris = np.asarray(mesh.vertices)[np.asarray(mesh.faces)]
            n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
            norm = np.linalg.norm(n, axis=1)
            up = tris[(norm > 1e-12) & (n[:, 2] > 0.9 * np.maximum(norm, 1e-12))]
            self.model_cache[key] = (sorted(model.surfaces, key=lambda s: (s.z, s.x0, s.y0)), round_top, up)
        return self.model_cache[key][:2]

    def up_faces(self, item: Item, size) -> np.ndarray:
        """(N, 3, 3) upward-facing triangles of the mesh the renderer will build (local frame)."""
        self.model_info(item, size)
        return self.model_cache[(item.id, tuple(round(v, 6) for v in size))][2]


def _num(text: str) -> tuple:
    digits = "".join(ch for ch in text if ch.isdigit())
    return (int(digits) if digits else 0, text)


def front_reach(category: str, support: str, x: float, y: float, yaw: float, size) -> Polygon | None:
    """Floor FRONT_REACH deep before a floor-standing INNER_SHELVES piece, where one stands to
    see into it; None for anything else."""
    if category not in INNER_SHELVES or support != "floor":
        return None
    w, d = float(size[0]), float(size[1])
    return Polygon(geom.front_zone(x, y, yaw, w, d, FRONT_REACH)[0])


def _home(space, spot, entries: list[Point]):
    """The piece of the camera's space that holds every door entry and a free spot (without
    doors: the whole space if any piece has one), or None."""
    pieces = geom.parts(space)
    if not entries:
        return space if any(not spot.intersection(piece).is_empty for piece in pieces) else None
    home = None
    for piece in pieces:
        if piece.distance(entries[0]) < 1e-6:
            home = piece
            break
    if home is None:
        return None
    for e in entries[1:]:
        if home.distance(e) >= 1e-6:
            return None
    inter = spot.intersection(home)
    return home if not inter.is_empty and inter.area > 1e-8 else None


def distinct_artworks(pictures: list[Item]) -> None:
    """Pictures of one room each show another print, from the first one's model seed on: the
    same flower print on two walls reads as one picture seen twice (person check of
    sample-11-000). A lone picture keeps the print its model seed draws."""
    if len(pictures) < 2:
        return
    start = pictures[0].model_seed % len(ARTWORKS)
    for k, p in enumerate(pictures):
        p.build["artwork"] = ARTWORKS[(start + k) % len(ARTWORKS)]
