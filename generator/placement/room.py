"""Placing the objects of one room (used by generator.placement).

A RoomPlacer expands the room's object requests into instances (colour, size, model seed
drawn from the room's own generator), decides who goes with whom (the tv on a stand, chairs
at a table or desk, a mouse beside a laptop, pillows on a bed) and places them in an order
that leaves the big decisions to the big objects: openings, bed, tv, sofas facing the tv,
other furniture against the walls, tables and their chairs, free-standing things, corner
things, the carpet, small things on supports, wall-mounted things, ceiling lights.

Each placement enumerates candidate poses (vectorized with shapely), rejects those that
leave the room, enter a door's swing zone, collide in 3D with something already placed,
sit in another object's front clearance, or put a tall object in front of a window, ranks
the rest by a per-category score with a little seeded noise, and takes the best candidate
that keeps the room walkable (every door connected to a free spot the camera can stand on).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box

from assets.catalog import get_category, normalize_color, pick_color, sample_size
from generator.placement import geom
from generator.layout.plan import LayoutError
from generator.placement.geom import Candidates, MITRE, WALL_GAP, WALL_HALF

GAP = 0.02                 # between floor objects
EPS = 1e-6                 # float tolerance of containment tests
SURFACE_GAP = 0.01         # between objects on one support surface
CEILING = 2.8
WALK_TRIES = 60            # candidates tried against the walkability check per object
SIZE_FACTORS = (1.0, 1.0, 0.6, 0.6, 0.0, 0.0)      # per attempt: 1 = as drawn, 0 = size_min
CLEAR_FACTORS = (1.0, 1.0, 1.0, 0.7, 0.7, 0.5)     # per attempt: front clearance scale
VIEW_DEPTH = 1.3           # floor kept free in front of a tv (low things excepted)
VIEW_OK = frozenset({"carpet", "yoga mat", "table"})
START_CLEAR = 0.6          # free radius around the camera's start position
WINDOW_DEPTH = 0.1         # window/door objects fill the 0.1 m wall
WINDOW_ZONE = 0.45         # tall objects keep this deep a strip in front of windows free
UNDER_WINDOW_OK = frozenset({"sink", "washstand"})   # counters whose taps may rise in front of a window
FLAT = frozenset({"carpet"})      # a floor layer others may stand on
# categories a carpet may lie under (everything else keeps off it)
CARPET_OVER = frozenset({"sofa", "table", "chair", "bed", "bench", "desk", "stand", "cycle",
                         "exercise machine", "yoga mat", "floor lamp", "plant", "piano", "cabinet"})
CORNER_LOVERS = frozenset({"wardrobe", "bookshelf", "fridge", "cupboard", "locker", "vending machine",
                           "bath", "washing machine", "safe", "toilet"})
CENTRE_LOVERS = frozenset({"bed", "sofa", "fireplace", "piano", "bench"})
KITCHEN_LINE = frozenset({"fridge", "stove", "oven", "sink", "dishwasher", "cupboard", "cabinet",
                          "washing machine", "microwave"})
CLUSTER_SAME = frozenset({"locker", "cabinet", "washing machine", "bookshelf", "cupboard"})
# supports worth using when none of the category's own supports is in the room
SECONDARY_SUPPORTS = ("cabinet", "stand", "table", "desk", "cupboard", "bookshelf", "sink", "washstand",
                      "dishwasher", "washing machine", "oven", "piano", "fireplace", "bench", "safe",
                      "locker", "bed")
NO_SECONDARY = frozenset({"pillow"})        # only on their own supports
FLOOR_FALLBACK = {"clothes": "floor_wall", "lamp": "floor_wall"}
ON_BED_OK = frozenset({"book", "clothes", "handbag", "eyeglasses", "headphone", "laptop", "print", "telephone",
                       "towel", "pillow"})
FLEXIBLE = frozenset({"clothes", "pillow", "towel", "print"})    # soft things may be folded smaller
STACKABLE = frozenset({"clothes", "book", "plate", "print"})     # may lie on one of their own kind


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


@dataclass
class Surface:
    z: float                  # height above the support's base
    x0: float
    x1: float
    y0: float
    y1: float
    max_h: float


class RoomPlacer:
    def __init__(self, scenario, scene: dict, room: dict, spec_room, rng: np.random.Generator,
                 attempt: int, taken_doors: set[str]):
        self.scenario, self.scene, self.room, self.spec_room = scenario, scene, room, spec_room
        self.rng, self.attempt = rng, attempt
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

    # ------------------------------------------------------------------ instances

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
        return items

    def cats(self, *names) -> list[Item]:
        return [it for name in names for it in self.items_by_cat.get(name, [])]

    # ------------------------------------------------------------------ orchestration

    def run(self) -> list[dict]:
        self.plan_roles()
        steps: list[tuple[Item, callable]] = []
        done: set[str] = set()

        def add(items, fn):
            for it in items:
                if it.id not in done:
                    done.add(it.id)
                    steps.append((it, fn))

        add(self.cats("window"), self.place_window)
        add(self.cats("door"), self.place_door)
        add(self.cats("curtain"), self.place_curtain)
        add(self.cats("bed"), self.place_floor_wall)
        for tv in self.cats("tv"):
            host = self.tv_host.get(tv.id)
            if host is not None:
                add([host], self.place_floor_wall)
                add([tv], self.place_on_support)
            else:
                add([tv], self.place_wall_mounted)
        if self.cats("sofa") and not self.cats("tv"):     # sofas face the fireplace
            add(self.cats("fireplace"), self.place_floor_wall)
        add(self.cats("sofa"), self.place_sofa)
        dining = [t for t in self.cats("table") if len(self.anchor_chairs.get(t.id, [])) >= 3]
        for t in dining:   # a dining table and its chairs shape the room: before the rest
            add([t], self.place_table)
            add([self.items_by_id[c] for c in self.anchor_chairs[t.id]], self.place_chair)
        add(self.cats("fireplace"), self.place_floor_wall)
        wall_items = [it for it in self.items if it.cat.placement == "floor_wall" and it.id not in done
                      and it.id not in self.bench_for]
        wall_items.sort(key=lambda it: (-(it.size[0] * it.size[1]), it.id))
        add(wall_items, self.place_floor_wall)
        add([self.items_by_id[b] for b in self.bench_for], self.place_bench)
        add(self.cats("table"), self.place_table)
        add(self.cats("chair"), self.place_chair)
        free = [it for it in self.items if it.cat.placement == "floor_free" and it.id not in done
                and it.category != "carpet"]
        free.sort(key=lambda it: (-(it.size[0] * it.size[1]), it.id))
        add(free, self.place_floor_free)
        corner = [it for it in self.items if it.cat.placement == "floor_corner"]
        corner.sort(key=lambda it: (-(it.size[0] * it.size[1]), it.id))
        add(corner, self.place_corner)
        add(self.cats("carpet"), self.place_carpet)
        on = [it for it in self.items if it.cat.placement == "on_support" and it.id not in done]
        order = {"computer": 0, "laptop": 1, "printer": 2, "microwave": 3, "coffee machine": 3, "lamp": 4,
                 "pillow": 5, "mouse": 9}
        on.sort(key=lambda it: (order.get(it.category, 6), -(it.size[0] * it.size[1]), it.id))
        add(on, self.place_on_support)
        add([it for it in self.items if it.cat.placement == "wall_mounted"], self.place_wall_mounted)
        add([it for it in self.items if it.cat.placement == "ceiling"], self.place_ceiling)
        add([it for it in self.items if it.id not in done], self.place_floor_free)

        for it, fn in steps:
            for factor in (None, 0.5, 0.0):
                if factor is not None:
                    if it.cat.placement in ("in_window", "in_doorway") or not self.shrink(it, factor):
                        raise failure
                try:
                    fn(it)
                    break
                except NoFit as exc:
                    failure = exc
                    if exc.final:
                        raise
            else:
                raise failure
            if it.id not in self.by_id:
                raise AssertionError(f"{it.id} not placed")  # every handler places or raises NoFit
        return [self.export(p) for p in self.placed]

    def shrink(self, item: Item, factor: float) -> bool:
        """Move the item's width and depth toward the category minimum; False if no change."""
        cat = item.cat
        new = [lo + (v - lo) * factor if i < 2 else v
               for i, (lo, v) in enumerate(zip(cat.size_min, item.size))]
        new = [min(v, cur) for v, cur in zip(new, item.size)]
        if cat.round:
            new[1] = new[0]
        if all(abs(a - b) < 1e-3 for a, b in zip(new, item.size)):
            return False
        item.size[:] = new
        return True

    def fail(self, item: Item, reason: str, final: bool = False, fix: str = ""):
        raise NoFit(item.category, reason, len(self.placed), final, fix)

    # ------------------------------------------------------------------ roles and sizes

    def plan_roles(self) -> None:
        # tv on a stand or cabinet (one tv per host), else on the wall
        self.tv_host: dict[str, Item] = {}
        hosts = self.cats("stand") + self.cats("cabinet")
        for tv in self.cats("tv"):
            if hosts:
                host = hosts.pop(0)
                self.tv_host[tv.id] = host
                hw = host.cat.size_max[0]
                host.size[0] = min(hw, max(host.size[0], tv.size[0] + 0.1))
                if tv.size[0] > host.size[0] - 0.04:
                    tv.size[0] = max(host.size[0] - 0.04, 0.5)
                host.size[1] = max(host.size[1], min(host.cat.size_max[1], tv.size[1] + 0.08))
            else:
                tv.build["wall_mounted"] = True
                tv.size[1] = 0.06
        self.tv_hosts = {h.id for h in self.tv_host.values()}
        # a bench in a room with a piano is the piano bench
        self.bench_for = {b.id: p.id for b, p in zip(self.cats("bench"), self.cats("piano"))}
        for bid, pid in self.bench_for.items():
            b, piano = self.items_by_id[bid], self.items_by_id[pid]
            b.size[0] = max(b.cat.size_min[0], min(b.size[0], piano.size[0] - 0.2))
        # chairs: one per desk first, the rest at tables, then extra desk seats
        desks, tables = self.cats("desk"), self.cats("table")
        chairs = list(self.cats("chair"))
        self.chair_anchor: dict[str, str] = {}
        self.anchor_chairs: dict[str, list[str]] = {a.id: [] for a in desks + tables}
        for desk in desks:
            if chairs:
                c = chairs.pop(0)
                self.chair_anchor[c.id] = desk.id
                self.anchor_chairs[desk.id].append(c.id)
        pool = tables or desks
        i = 0
        while chairs and pool:
            c = chairs.pop(0)
            a = pool[i % len(pool)]
            self.chair_anchor[c.id] = a.id
            self.anchor_chairs[a.id].append(c.id)
            i += 1
        chair_d = max((c.size[1] for c in self.cats("chair")), default=0.5)
        self.chair_depth = chair_d
        for t in tables:
            k = len(self.anchor_chairs[t.id])
            if k:
                per_side = math.ceil(k / 2) if k <= 4 else math.ceil((k - 2) / 2)
                need = 0.62 * per_side
                lo, hi = t.cat.size_min[0], t.cat.size_max[0]
                t.size[0] = min(hi, max(t.size[0], need, lo))
                if k > 4 and abs(t.size[0] - t.size[1]) < 0.3:
                    t.size[1] = max(t.cat.size_min[1], t.size[0] - 0.3)
            elif self.cats("sofa"):
                t.size[0] = min(t.size[0], 1.2)
        desk_things = len(self.cats("computer", "printer", "laptop", "lamp", "telephone"))
        for d in desks:   # room for a computer and a lamp, printer or phone beside it
            if desk_things > len(desks):
                d.size[0] = max(d.size[0], min(d.cat.size_max[0], 1.4))
        beds = self.cats("bed")
        pillows = self.cats("pillow")
        for p in pillows:
            if beds:
                bw = beds[(p.n - 1) % len(beds)].size[0]
                k = len([q for q in pillows if (q.n - 1) % len(beds) == (p.n - 1) % len(beds)])
                per_row = min(k, 2 if bw < 1.3 else 3)
                fit = (bw - 0.12 - 0.03 * (per_row + 1)) / per_row
                p.size[0] = max(0.7 * p.cat.size_min[0], min(p.size[0], fit))
        for c in self.cats("computer"):
            if desks:
                c.size[0] = min(c.size[0], desks[0].size[0] - 0.2)
        # mouse beside a computer or laptop (round robin)
        anchors = self.cats("laptop") + self.cats("computer")
        self.mouse_anchor = ({m.id: anchors[i % len(anchors)].id for i, m in enumerate(self.cats("mouse"))}
                             if anchors else {})
        for carpet in self.cats("carpet"):
            x0, y0, x1, y1 = self.poly.bounds
            big, small = max(x1 - x0, y1 - y0) - 0.5, min(x1 - x0, y1 - y0) - 0.5
            carpet.size[0] = max(0.6, min(carpet.size[0], big))
            carpet.size[1] = max(0.6, min(carpet.size[1], small, carpet.size[0]))

    # ------------------------------------------------------------------ conflicts

    def obstacles(self, item: Item, z0: float, z1: float, exempt=()) -> list[Polygon]:
        """Footprints of placed objects that would collide in 3D with `item` at [z0, z1]."""
        out = []
        for p in self.placed:
            if p.id in exempt:
                continue
            if p.flat and item.category in CARPET_OVER:
                continue
            if item.category == "carpet" and (p.category in CARPET_OVER or p.support not in ("floor",)):
                if p.category != "carpet":
                    continue
            if p.z >= z1 - 1e-6 or p.top <= z0 + 1e-6:
                continue
            out.append(p.fp)
        return out

    def zones(self, item: Item, skip=()) -> list[Polygon]:
        """Front clearance zones `item` must keep out of (a flat carpet may lie in them)."""
        out = []
        if item.category in FLAT:
            return out
        for p in self.placed:
            if p.zone is None or p.id in skip or item.id in p.exempt:
                continue
            out.append(p.zone)
        if item.category not in VIEW_OK:
            out += [zone for zone, tv_id in self.view_zones if tv_id not in skip]
        return out

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

    def zone_blockers(self, exempt=()) -> list[Polygon]:
        """What a new clearance zone must not contain: low objects on the floor or walls."""
        return [p.fp for p in self.placed
                if p.id not in exempt and not p.flat and p.z < 1.0 and p.support in ("floor", "wall")]

    def filter_floor(self, item: Item, c: Candidates, w: float, d: float, h: float, *, zone_depth: float = 0.0,
                     exempt=(), zone_skip=(), region=None, tall_part: str = "all", zone_exempt=()) -> tuple:
        """Candidates (and their footprints) that pass every hard check except walkability."""
        if not len(c):
            return c, np.zeros(0, dtype=object)
        fps = geom.footprints(c.x, c.y, c.yaw, w, d)
        region = self.region_floor if region is None else region
        m = shapely.within(fps, region)
        obs = self.obstacles(item, 0.0, h, exempt)
        if obs and m.any():
            u = geom.union(obs)
            idx = np.flatnonzero(m)
            m[idx] = shapely.distance(fps[idx], u) >= GAP - 1e-9
        zones = self.zones(item, zone_skip)
        if zones and m.any():
            u = geom.union(zones)
            idx = np.flatnonzero(m)
            m[idx] = ~shapely.intersects(fps[idx], u) | (shapely.area(shapely.intersection(fps[idx], u)) < 1e-6)
        if self.window_zones and m.any() and item.category not in ("carpet", "yoga mat"):
            for zone, sill in self.window_zones:
                if h <= sill + 0.05 or item.category in UNDER_WINDOW_OK:
                    continue
                idx = np.flatnonzero(m)
                if tall_part == "head":   # beds: only the headboard is tall
                    hd = min(0.12, d)
                    cx, cy = geom.to_world(c.x[idx], c.y[idx], c.yaw[idx], 0.0, -d / 2 + hd / 2)
                    parts = geom.footprints(cx, cy, c.yaw[idx], w, hd)
                else:
                    parts = fps[idx]
                hit = shapely.intersects(parts, zone) & (shapely.area(shapely.intersection(parts, zone)) > 1e-6)
                m[idx] = ~hit
        if zone_depth > 0 and m.any():
            idx = np.flatnonzero(m)
            zf = geom.front_zone(c.x[idx], c.y[idx], c.yaw[idx], w, d, zone_depth)
            ok = shapely.within(zf, self.region_wall)
            blockers = self.zone_blockers(zone_exempt)
            if blockers:
                u = geom.union(blockers)
                ok &= ~shapely.intersects(zf, u) | (shapely.area(shapely.intersection(zf, u)) < 1e-6)
            m[idx] = ok
        return c.take(m), fps[m]

    def commit_floor(self, item: Item, c: Candidates, fps, scores: np.ndarray, w, d, h, *,
                     zone_depth: float = 0.0, zone_poly_fn=None, exempt_zone=(), walk: bool = True,
                     flat: bool = False, support: str = "floor", z: float = 0.0) -> Placed | None:
        """Take the best-scoring candidate that keeps the room walkable."""
        if not len(c):
            return None
        order = np.lexsort((np.arange(len(scores)), -np.round(scores, 9)))
        tried = 0
        for i in order:
            if tried >= WALK_TRIES:
                break
            fp = fps[i]
            if walk and not flat:
                tried += 1
                if not self.walk_ok(fp):
                    continue
            zone = None
            if zone_poly_fn is not None:
                zone = zone_poly_fn(c.x[i], c.y[i], c.yaw[i])
            elif zone_depth > 0:
                zone = geom.front_zone(c.x[i], c.y[i], c.yaw[i], w, d, zone_depth)[0]
            p = Placed(item, float(c.x[i]), float(c.y[i]), z, float(c.yaw[i]) % 360.0, (w, d, h), fp, support,
                       zone=zone, flat=flat, exempt=frozenset(exempt_zone))
            self.add(p)
            return p
        return None

    def walk_ok(self, fp: Polygon) -> bool:
        b03 = self.blocked03.union(fp.buffer(geom.WALK_RADIUS, quad_segs=4))
        space = self.walk_base.difference(b03)
        if space.is_empty:
            return False
        spot = self.spot_base.difference(self.blocked05.union(fp.buffer(geom.WALK_SPOT, quad_segs=4)))
        if spot.is_empty:
            return False
        return _connected(space, spot, self.entries)

    def add(self, p: Placed) -> None:
        self.placed.append(p)
        self.by_id[p.id] = p
        if p.category == "tv":
            self.add_view_zone(p)
        if p.support == "floor" and not p.flat and p.z < 1.8:
            self.blocked03 = self.blocked03.union(p.fp.buffer(geom.WALK_RADIUS, quad_segs=4))
            self.blocked05 = self.blocked05.union(p.fp.buffer(geom.WALK_SPOT, quad_segs=4))

    # ------------------------------------------------------------------ scores

    def jitter(self, n: int, scale: float = 0.3) -> np.ndarray:
        return self.rng.random(n) * scale

    def wall_centre_offset(self, c: Candidates, w: float) -> np.ndarray:
        usable = c.wall_len - 2 * WALL_GAP - w
        return np.abs(usable / 2 - c.end_dist)

    def facing_score(self, c: Candidates, tx: float, ty: float) -> np.ndarray:
        dx, dy = tx - c.x, ty - c.y
        dist = np.maximum(np.hypot(dx, dy), 1e-6)
        yaw = np.radians(c.yaw)
        return (dx * np.cos(yaw) + dy * np.sin(yaw)) / dist

    def sofa_fits(self, c: Candidates, depth: float) -> np.ndarray:
        """1 where the room's first sofa could stand 1.8-3.4 m in front of a tv at the candidate."""
        sofa = self.cats("sofa")[0]
        sw, sd, sh = sofa.size
        obs = self.obstacles(sofa, 0.0, sh)
        u = geom.union(obs) if obs else None
        ok = np.zeros(len(c), bool)
        for dist in (1.8, 2.2, 2.6, 3.0, 3.4):
            for lat in (0.0, -0.3, 0.3):
                x, y = geom.to_world(c.x, c.y, c.yaw, lat, depth / 2 + dist + sd / 2)
                fps = geom.footprints(x, y, (c.yaw + 180.0) % 360.0, sw, sd)
                fit = shapely.within(fps, self.region_floor)
                if u is not None:
                    fit &= shapely.distance(fps, u) >= GAP
                ok |= fit
        return ok.astype(float)

    def seen_from(self, p: Placed, c: Candidates) -> np.ndarray:
        """Cosine between `p`'s front and the direction from `p` to each candidate."""
        dx, dy = c.x - p.x, c.y - p.y
        dist = np.maximum(np.hypot(dx, dy), 1e-6)
        yaw = math.radians(p.yaw)
        return (dx * math.cos(yaw) + dy * math.sin(yaw)) / dist

    def ray_length(self, c: Candidates) -> np.ndarray:
        """Free distance in front of each candidate to the room's bounding box."""
        x0, y0, x1, y1 = self.bounds
        yaw = np.round(c.yaw) % 360
        out = np.full(len(c), 3.0)
        out[yaw == 0] = (x1 - c.x)[yaw == 0]
        out[yaw == 90] = (y1 - c.y)[yaw == 90]
        out[yaw == 180] = (c.x - x0)[yaw == 180]
        out[yaw == 270] = (c.y - y0)[yaw == 270]
        return out

    def dist_to(self, fps, geoms: list) -> np.ndarray:
        if not geoms:
            return np.full(len(fps), np.inf)
        return shapely.distance(fps, geom.union(geoms))

    def placed_of(self, *cats) -> list[Placed]:
        return [p for p in self.placed if p.category in cats]

    def window_points(self) -> list[tuple[float, float]]:
        return [tuple(w["position"]) for w in self.windows]

    def floor_score(self, item: Item, c: Candidates, fps, w: float) -> np.ndarray:
        cat = item.category
        s = self.jitter(len(c))
        if not len(c):
            return s
        if cat in CORNER_LOVERS:
            s += 1.5 * np.exp(-c.end_dist / 0.15)
        if cat in CENTRE_LOVERS:
            s -= 0.8 * self.wall_centre_offset(c, w)
        if cat in KITCHEN_LINE and self.spec_room.type in ("kitchen", "pantry", "laundry"):
            group = [p.fp for p in self.placed if p.category in KITCHEN_LINE and p.support == "floor"]
            if group:
                s += 2.0 * np.exp(-self.dist_to(fps, group) / 0.2)
            elif cat not in CORNER_LOVERS:    # the first unit of a kitchen run starts in a corner
                s += 1.0 * np.exp(-c.end_dist / 0.15)
        if cat in CLUSTER_SAME:
            same = [p.fp for p in self.placed if p.category == cat]
            if same:
                s += 3.0 * np.exp(-self.dist_to(fps, same) / 0.2)
        if cat == "desk":           # desks spread over the room, each with its own light and chair
            same = [p.fp for p in self.placed if p.category == cat]
            if same:
                s += 0.5 * np.minimum(self.dist_to(fps, same), 2.0)
        if cat == "bed":
            s += 0.4 * np.minimum(self.ray_length(c) - item.size[1], 2.0)
        if cat == "sofa":
            target = self.placed_of("tv") or self.placed_of("fireplace")
            if target:
                t = target[0]
                s += 5.0 * np.maximum(self.facing_score(c, t.x, t.y), 0.0) ** 3
                s -= 0.4 * np.abs(np.hypot(t.x - c.x, t.y - c.y) - 2.8)
            tables = self.placed_of("table")
            if not target and tables:
                s += 1.0 * self.facing_score(c, tables[0].x, tables[0].y)
            others = self.placed_of("sofa")
            if others:
                s -= 0.5 * np.exp(-self.dist_to(fps, [o.fp for o in others]) / 0.5)
        if item.id in self.tv_hosts or cat == "tv":
            beds = self.placed_of("bed")
            if self.cats("sofa") and not self.placed_of("sofa"):
                s += 3.0 * self.sofa_fits(c, item.size[1])
            if beds:
                s += 3.0 * self.seen_from(beds[0], c) + 1.0 * self.facing_score(c, beds[0].x, beds[0].y)
            else:
                s += 0.8 * np.clip(self.ray_length(c), 0, 4.5)
            s -= 0.5 * self.wall_centre_offset(c, w)
        if cat in ("stand", "cabinet", "lamp") and item.id not in self.tv_hosts:
            beds = self.placed_of("bed")
            if beds:
                b = beds[0]
                pts = [geom.to_world(b.x, b.y, b.yaw, sx * (b.size[0] / 2 + item.size[0] / 2 + 0.05),
                                     -b.size[1] / 2 + item.size[1] / 2 + 0.05) for sx in (-1, 1)]
                dist = np.min([np.hypot(c.x - px, c.y - py) for px, py in pts], axis=0)
                s += 3.0 * np.exp(-dist / 0.4)
        if cat == "desk" and self.windows:
            dist = np.min([np.hypot(c.x - wx, c.y - wy) for wx, wy in self.window_points()], axis=0)
            s += 0.6 * np.exp(-dist / 1.5)
        if cat in ("toilet", "washstand", "bath"):
            others = [p.fp for p in self.placed if p.category in ("toilet", "washstand", "bath")]
            if others:
                s += 0.5 * np.exp(-self.dist_to(fps, others) / 0.5)
        return s

    # ------------------------------------------------------------------ openings

    def place_window(self, item: Item) -> None:
        k = item.n - 1
        if k >= len(self.windows):
            self.fail(item, f"{item.count} window objects but the layout made {len(self.windows)} window "
                            f"opening(s) in this room", final=True, fix="ask for fewer windows in this room")
        w = self.windows[k]
        nx, ny = -w["normal"][0], -w["normal"][1]
        yaw = math.degrees(math.atan2(ny, nx)) % 360.0
        x, y = w["position"]
        size = (float(w["width"]), WINDOW_DEPTH, float(w.get("height", 1.2)))
        fp = geom.footprint(x, y, yaw, size[0], size[1])
        self.add(Placed(item, x, y, float(w.get("sill", 0.9)), yaw, size, fp, "window"))
        item.attributes.setdefault("opening", w["id"])

    def place_door(self, item: Item) -> None:
        free = [d for d in self.doors if d["id"] not in self.taken_doors and d["id"] not in self.used_doors]
        free.sort(key=lambda d: (0 if any(r.startswith(("hallway:", "outside")) for r in d["rooms"]) else 1,
                                 _num(d["id"])))
        if not free:
            self.fail(item, f"{item.count} door objects but the room has only {len(self.doors)} doorway(s) "
                            f"({sum(1 for d in self.doors if d['id'] in self.taken_doors)} filled from the other side)",
                      final=True, fix="ask for fewer doors in this room")
        d = free[0]
        self.used_doors.add(d["id"])
        nx, ny = geom.inward(self.poly, d["position"], d["wall_axis"])
        yaw = math.degrees(math.atan2(ny, nx)) % 360.0
        x, y = d["position"]
        size = (float(d["width"]), WINDOW_DEPTH, float(d.get("height", 2.1)))
        fp = geom.footprint(x, y, yaw, size[0], size[1])
        item.attributes.setdefault("opening", d["id"])
        item.build["open_angle"] = 90.0
        self.add(Placed(item, x, y, 0.0, yaw, size, fp, "door"))

    def place_curtain(self, item: Item) -> None:
        wins = [p for p in self.placed if p.support == "window"]
        if wins:
            win = wins[(item.n - 1) % len(wins)]
            w = min(item.cat.size_max[0], max(item.cat.size_min[0], win.size[0] + 0.5))
            h = min(self.height - 0.1, item.size[2])
            d = item.size[1]
            x, y = geom.to_world(win.x, win.y, win.yaw, 0.0, WALL_HALF + d / 2)
            fp = geom.footprint(x, y, win.yaw, w, d)
            if (self.region_mount.contains(fp) and not self.obstacles(item, 0.02, 0.02 + h, {win.id})
                    and not any(fp.intersects(p.fp) for p in self.placed if p.support == "window" and p is not win
                                and fp.intersection(p.fp).area > 1e-6)):
                self.add(Placed(item, float(x), float(y), 0.02, win.yaw, (w, d, h), fp, "wall"))
                return
        self.place_wall_mounted(item)

    # ------------------------------------------------------------------ floor

    def place_floor_wall(self, item: Item) -> None:
        w, d, h = item.size
        depth = item.cat.front_clearance * self.clear_factor
        tall = "head" if item.category == "bed" else "all"
        c = geom.wall_candidates(self.poly, w, d)
        check = max(depth, VIEW_DEPTH + depth) if item.id in self.tv_hosts else depth
        c, fps = self.filter_floor(item, c, w, d, h, zone_depth=check, tall_part=tall,
                                   zone_exempt=self.view_ok_ids())
        score = self.floor_score(item, c, fps, w)
        if self.anchor_chairs.get(item.id) and len(c):     # a desk keeps room for its chair(s)
            seats = self.seat_counts(item, c, False)
            if seats.max() >= 1:
                keep = seats >= min(seats.max(), len(self.anchor_chairs[item.id]))
                c, fps, score, seats = c.take(keep), fps[keep], score[keep], seats[keep]
            score = score + 2.0 * seats
        p = self.commit_floor(item, c, fps, score, w, d, h, zone_depth=depth, exempt_zone=self.zone_guests(item))
        if p is not None:
            return
        fallback = item.cat.fallback_placement
        if item.category == "desk" or fallback == "floor_free":
            return self.place_floor_free(item, wall_first=False)
        self.fail(item, f"no free wall for {item.category} {item.n} of {item.count} "
                        f"({w:.2f} x {d:.2f} m plus {depth:.1f} m in front)")

    def place_sofa(self, item: Item) -> None:
        target = (self.placed_of("tv") or self.placed_of("fireplace") or [None])[0]
        if target is None:
            return self.place_floor_wall(item)
        depth = item.cat.front_clearance * self.clear_factor
        # the first sofa faces the tv (or fireplace): try its drawn width, then the narrowest
        widths = [item.size[0]]
        if item.n == 1 and item.size[0] > item.cat.size_min[0] + 0.05:
            widths.append(item.cat.size_min[0])
        for k, w in enumerate(widths + [None]):
            strict = w is not None and item.n == 1
            w = item.size[0] if w is None else w
            d, h = item.size[1], item.size[2]
            wall = geom.wall_candidates(self.poly, w, d)
            free = geom.free_candidates(self.region_floor, (0, 90, 180, 270), step=0.1)
            if len(free):
                free = free.take(self.facing_score(free, target.x, target.y) > 0.9)
                dist = np.hypot(free.x - target.x, free.y - target.y)
                free = free.take((dist > 1.8) & (dist < 4.0))
            c = Candidates.concat([wall, free])
            if strict and len(c):
                c = c.take(self.facing_score(c, target.x, target.y) > 0.87)
            c, fps = self.filter_floor(item, c, w, d, h, zone_depth=depth)
            s = self.floor_score(item, c, fps, w)
            if len(c):
                s -= np.where(c.edge < 0, 1.5 if item.n == 1 else 3.5, 0.0)
            p = self.commit_floor(item, c, fps, s, w, d, h, zone_depth=depth, exempt_zone=self.zone_guests(item))
            if p is not None:
                item.size[0] = w
                return
            if not strict:
                break
        self.place_floor_free(item)

    def place_bench(self, item: Item) -> None:
        """A piano bench: in front of the piano, facing it, as close as it fits."""
        piano = self.by_id.get(self.bench_for[item.id])
        if piano is None:
            return self.place_floor_wall(item)
        w, d, h = item.size
        poses = [(dx, gap) for gap in (0.12, 0.18, 0.25, 0.35) for dx in (0.0, -0.1, 0.1, -0.2, 0.2)]
        x, y = geom.to_world(piano.x, piano.y, piano.yaw, np.array([p[0] for p in poses]),
                             np.array([piano.size[1] / 2 + p[1] + d / 2 for p in poses]))
        rank = -np.array([p[1] + abs(p[0]) for p in poses])
        c = Candidates(np.asarray(x, float), np.asarray(y, float), np.full(len(poses), (piano.yaw + 180.0) % 360.0),
                       np.arange(len(poses)), np.zeros(len(poses)), np.zeros(len(poses)))
        c, fps = self.filter_floor(item, c, w, d, h, zone_skip=(piano.id,))
        if self.commit_floor(item, c, fps, rank[c.edge.astype(int)], w, d, h) is None:
            self.place_floor_wall(item)

    def view_ok_ids(self) -> tuple:
        return tuple(p.id for p in self.placed if p.category in VIEW_OK)

    def zone_guests(self, item: Item) -> tuple:
        """Ids allowed inside `item`'s clearance zone (its chairs; the coffee table of a sofa)."""
        guests = list(self.anchor_chairs.get(item.id, []))
        guests += [b for b, pid in self.bench_for.items() if pid == item.id]
        if item.category == "sofa":
            guests += [t.id for t in self.cats("table") if not self.anchor_chairs.get(t.id)]
            guests += [c.id for c in self.cats("carpet")]
        return tuple(guests)

    def place_floor_free(self, item: Item, wall_first: bool = True) -> None:
        w, d, h = item.size
        depth = item.cat.front_clearance * self.clear_factor
        cands = [geom.free_candidates(self.region_floor, (0, 90, 180, 270), step=0.1)]
        if wall_first:
            cands.insert(0, geom.wall_candidates(self.poly, w, d, back=WALL_GAP + 0.05))
        c = Candidates.concat(cands)
        c, fps = self.filter_floor(item, c, w, d, h, zone_depth=depth)
        s = self.jitter(len(c))
        if len(c):
            wall_d = shapely.distance(fps, self.poly.exterior)
            s -= 0.8 * np.minimum(wall_d, 2.0)
            tvs = self.placed_of("tv")
            if tvs and item.category in ("cycle", "exercise machine", "sofa", "chair"):
                s += 2.0 * self.facing_score(c, tvs[0].x, tvs[0].y)
            s += self.floor_score(item, c, fps, w) * 0.5
        p = self.commit_floor(item, c, fps, s, w, d, h, zone_depth=depth, exempt_zone=self.zone_guests(item))
        if p is None:
            self.fail(item, f"no free floor for {item.category} {item.n} of {item.count} ({w:.2f} x {d:.2f} m)")

    def place_corner(self, item: Item) -> None:
        w, d, h = item.size
        depth = item.cat.front_clearance * self.clear_factor
        for ends_only in (True, False):
            c = geom.wall_candidates(self.poly, w, d, ends_only=ends_only)
            c, fps = self.filter_floor(item, c, w, d, h, zone_depth=depth)
            s = self.jitter(len(c)) + 1.5 * np.exp(-c.end_dist / 0.15)
            if len(c):
                if item.category == "floor lamp":
                    seats = [p.fp for p in self.placed if p.category in ("sofa", "bed", "desk", "piano", "chair")]
                    if seats:
                        s += 2.0 * np.exp(-self.dist_to(fps, seats) / 0.5)
                elif item.category == "plant":
                    if self.windows:
                        dist = np.min([np.hypot(c.x - wx, c.y - wy) for wx, wy in self.window_points()], axis=0)
                        s += 0.6 * np.exp(-dist / 1.5)
                    same = [p.fp for p in self.placed if p.category == "plant"]
                    if same:
                        s += 0.5 * np.minimum(self.dist_to(fps, same), 3.0)
            if self.commit_floor(item, c, fps, s, w, d, h, zone_depth=depth) is not None:
                return
        self.place_floor_free(item)

    def place_table(self, item: Item) -> None:
        w, d, h = item.size
        chairs = self.anchor_chairs.get(item.id, [])
        sofas = self.placed_of("sofa")
        if chairs:
            _, round_top = self.model_info(item, item.size)
            ring = self.chair_depth + 0.12
            c = geom.free_candidates(self.region_floor, (0, 90), step=0.1)
            c, fps = self.filter_floor(item, c, w, d, h)
            seats = self.seat_counts(item, c, round_top)
            if len(c) and seats.max() >= len(chairs):
                keep = seats >= len(chairs) - 1e-9
                c, fps, seats = c.take(keep), fps[keep], seats[keep]
            s = self.jitter(len(c)) + 3.0 * seats
            if len(c):
                target = self.free_centre()
                s -= 1.0 * np.hypot(c.x - target.x, c.y - target.y)
                long_x = (self.bounds[2] - self.bounds[0]) >= (self.bounds[3] - self.bounds[1])
                s += 0.5 * ((np.round(c.yaw) % 180 == 90) == long_x)

            def zone_fn(x, y, yaw):
                fp = geom.footprint(x, y, yaw, w, d)
                return fp.buffer(ring, join_style="mitre").difference(fp).intersection(self.region_floor)
            p = self.commit_floor(item, c, fps, s, w, d, h, zone_poly_fn=zone_fn, exempt_zone=chairs)
            if p is not None:
                p.round_top = round_top
        elif sofas:
            sofa = sofas[0]
            gap = 0.45
            tx, ty = geom.to_world(sofa.x, sofa.y, sofa.yaw, 0.0, sofa.size[1] / 2 + gap + d / 2)
            c = geom.free_candidates(self.region_floor, (sofa.yaw,), step=0.05)
            c, fps = self.filter_floor(item, c, w, d, h)
            s = self.jitter(len(c), 0.05)
            if len(c):
                s -= 2.0 * np.hypot(c.x - tx, c.y - ty)
                s -= 3.0 * (shapely.distance(fps, sofa.fp) < 0.35)
            p = self.commit_floor(item, c, fps, s, w, d, h)
        else:
            c = Candidates.concat([geom.wall_candidates(self.poly, w, d),
                                   geom.free_candidates(self.region_floor, (0, 90), step=0.1)])
            c, fps = self.filter_floor(item, c, w, d, h, zone_depth=0.5 * self.clear_factor)
            s = self.jitter(len(c))
            if len(c):
                target = self.free_centre()
                s -= 0.5 * np.hypot(c.x - target.x, c.y - target.y)
            p = self.commit_floor(item, c, fps, s, w, d, h, zone_depth=0.5 * self.clear_factor)
        if p is None:
            self.fail(item, f"no free floor for table {item.n} of {item.count} ({w:.2f} x {d:.2f} m"
                            + (f" with {len(chairs)} chairs around it)" if chairs else ")"))

    def free_centre(self) -> Point:
        free = self.region_floor
        blocked = [p.fp.buffer(0.3) for p in self.placed if p.support == "floor" and not p.flat]
        if blocked:
            free = free.difference(geom.union(blocked))
        if free.is_empty:
            return self.centre
        biggest = max(geom.parts(free), key=lambda g: g.area)
        return biggest.centroid if biggest.contains(biggest.centroid) else biggest.representative_point()

    def slots_local(self, category: str, w: float, d: float, round_top: bool, k: int,
                    chair: Item) -> list[tuple[float, float, float]]:
        """(lx, ly, local yaw of the chair's front) seats at a table or desk, best first."""
        cw, cd = chair.size[0], chair.size[1]
        off = GAP + 0.01 + cd / 2
        local = []
        if category == "desk":
            knee = -min(0.42, w * 0.35) / 2
            local.append((knee, d / 2 + off, 270.0))
            if w >= 2 * cw + 0.1:
                local += [(-w / 4, d / 2 + off, 270.0), (w / 4, d / 2 + off, 270.0)]
            local.append((0.0, -(d / 2 + off), 90.0))
            local += [(-(w / 2 + off), 0.0, 0.0), (w / 2 + off, 0.0, 180.0)]
        elif round_top:
            k = max(1, k)
            r = max(w, d) / 2 + off
            for i in range(k):
                a = 2 * math.pi * i / k - math.pi / 2
                local.append((r * math.cos(a), r * math.sin(a), (math.degrees(a) + 180.0) % 360.0))
        else:
            per_side = max(1, int((w + 0.02) // max(cw + 0.08, 0.55)))
            xs = [-w / 2 + (i + 0.5) * w / per_side for i in range(per_side)]
            xs.sort(key=lambda x: (round(abs(x), 6), x))
            sides = [(x, sy * (d / 2 + off), 270.0 if sy > 0 else 90.0) for x in xs for sy in (1, -1)]
            ends = [(-(w / 2 + off), 0.0, 0.0), (w / 2 + off, 0.0, 180.0)] if d >= cw - 0.05 else []
            if k <= 2:
                local = sides[:2] + ends + sides[2:]
            elif len(sides) >= k and (k == 4 or k > 5):   # a long table seats them on its sides
                local = sides + ends
            else:
                n_sides = max(0, k - len(ends))
                local = sides[:n_sides] + ends + sides[n_sides:]
        return local

    def chair_slots(self, anchor: Placed, chair: Item) -> list[tuple[float, float, float]]:
        """(world x, world y, yaw) seats around a placed table or desk, best first."""
        k = len(self.anchor_chairs.get(anchor.id, []))
        local = self.slots_local(anchor.category, anchor.size[0], anchor.size[1], anchor.round_top, k, chair)
        out = []
        for lx, ly, lyaw in local:
            x, y = geom.to_world(anchor.x, anchor.y, anchor.yaw, lx, ly)
            out.append((float(x), float(y), (anchor.yaw - 90.0 + lyaw) % 360.0))
        return out

    def seat_counts(self, item: Item, c: Candidates, round_top: bool) -> np.ndarray:
        """How many of `item`'s chairs fit at each candidate pose of the table or desk."""
        chairs = [self.items_by_id[cid] for cid in self.anchor_chairs.get(item.id, [])]
        if not chairs or not len(c):
            return np.zeros(len(c))
        chair = chairs[0]
        cw, cd, ch = chair.size
        local = self.slots_local(item.category, item.size[0], item.size[1], round_top, len(chairs), chair)
        obs = self.obstacles(chair, 0.0, ch)
        u = geom.union(obs) if obs else None
        zones = self.zones(chair)
        zu = geom.union(zones) if zones else None
        counts = np.zeros(len(c))
        preferred = np.zeros(len(c))
        for i, (lx, ly, lyaw) in enumerate(local):
            x, y = geom.to_world(c.x, c.y, c.yaw, lx, ly)
            fps = geom.footprints(x, y, (c.yaw - 90.0 + lyaw) % 360.0, cw, cd)
            ok = shapely.within(fps, self.region_floor)
            if u is not None:
                ok &= shapely.distance(fps, u) >= GAP
            if zu is not None:
                ok &= ~shapely.intersects(fps, zu)
            counts += ok
            if i < len(chairs):
                preferred += ok
        return np.minimum(counts, len(chairs)) + 0.3 * preferred

    def place_chair(self, item: Item) -> None:
        w, d, h = item.size
        anchor_id = self.chair_anchor.get(item.id)
        anchor = self.by_id.get(anchor_id) if anchor_id else None
        if anchor is not None:
            slots = self.chair_slots(anchor, item)
            c = Candidates(np.array([s[0] for s in slots]), np.array([s[1] for s in slots]),
                           np.array([s[2] for s in slots]), np.arange(len(slots)), np.zeros(len(slots)),
                           np.zeros(len(slots)))
            c, fps = self.filter_floor(item, c, w, d, h, zone_skip=(anchor.id,))
            if self.commit_floor(item, c, fps, -c.edge.astype(float), w, d, h) is not None:
                return
            # no seat at the anchor: stand free, facing it
            c = geom.free_candidates(self.region_floor, (0, 90, 180, 270), step=0.1)
            if len(c):
                facing = self.facing_score(c, anchor.x, anchor.y) > 0.9
                if facing.any():
                    c = c.take(facing)
            c, fps = self.filter_floor(item, c, w, d, h, zone_skip=(anchor.id,))
            s = self.jitter(len(c), 0.1)
            if len(c):
                s += 2.0 * self.facing_score(c, anchor.x, anchor.y)
                s -= 1.0 * shapely.distance(fps, anchor.fp)
            if self.commit_floor(item, c, fps, s, w, d, h) is not None:
                return
            self.fail(item, f"no room for chair {item.n} of {item.count} near the {anchor.category}")
        # no table or desk: a chair against a wall, facing the tv if there is one
        depth = item.cat.front_clearance * self.clear_factor
        c = geom.wall_candidates(self.poly, w, d)
        c, fps = self.filter_floor(item, c, w, d, h, zone_depth=depth)
        s = self.jitter(len(c))
        tvs = self.placed_of("tv")
        if len(c) and tvs:
            s += 2.0 * self.facing_score(c, tvs[0].x, tvs[0].y)
        if self.commit_floor(item, c, fps, s, w, d, h, zone_depth=depth) is None:
            self.place_floor_free(item)

    def place_carpet(self, item: Item) -> None:
        w0, d0, h = item.size
        targets = []      # (point, yaw) of the groups a carpet goes under, most telling first
        for t in self.placed_of("table"):
            targets.append((Point(t.x, t.y), t.yaw))
        for s0 in self.placed_of("sofa"):
            targets.append((Point(*geom.to_world(s0.x, s0.y, s0.yaw, 0.0, s0.size[1] / 2 + 0.6)), s0.yaw))
        for b in self.placed_of("bed"):
            targets.append((Point(*geom.to_world(b.x, b.y, b.yaw, 0.0, b.size[1] * 0.25)), b.yaw))
        for dsk in self.placed_of("desk"):
            targets.append((Point(*geom.to_world(dsk.x, dsk.y, dsk.yaw, 0.0, dsk.size[1] / 2)), dsk.yaw))
        for other in self.placed_of("cycle", "exercise machine", "piano"):
            targets.append((Point(other.x, other.y), other.yaw))
        if targets:
            target, yaw_pref = targets[(item.n - 1) % len(targets)]
        else:
            target, yaw_pref = self.free_centre(), None
        for scale in (1.0, 0.85, 0.7, 0.55, 0.4):
            w = max(item.cat.size_min[0] * 0.6, w0 * scale)
            d = max(item.cat.size_min[1] * 0.6, d0 * scale)
            region = self.region_floor
            c = geom.free_candidates(region, (0, 90), step=0.1)
            c, fps = self.filter_floor(item, c, w, d, h, region=region)
            s = self.jitter(len(c), 0.1)
            if len(c):
                s -= 1.0 * np.hypot(c.x - target.x, c.y - target.y)
                if yaw_pref is not None:
                    s += 0.5 * (np.round(c.yaw - yaw_pref) % 180 == 0)
            if self.commit_floor(item, c, fps, s, w, d, h, walk=False, flat=True) is not None:
                return
        self.fail(item, f"no free floor for carpet {item.n} of {item.count}")

    # ------------------------------------------------------------------ supports

    def model_info(self, item: Item, size) -> tuple[list, bool]:
        """(raw support surfaces, round table top) of the mesh the renderer will build."""
        key = (item.id, tuple(round(v, 6) for v in size))
        if key not in self.model_cache:
            from assets.models import build_model

            color = item.color if normalize_color(item.color) else None   # the spec does not check colours
            model = build_model(item.category, np.random.default_rng(item.model_seed), size=tuple(size),
                                color=color, **item.build)
            round_top = item.category == "table" and any(part.name == "pedestal" for part in model.parts)
            self.model_cache[key] = (sorted(model.surfaces, key=lambda s: (s.z, s.x0, s.y0)), round_top)
        return self.model_cache[key]

    def surfaces_of(self, p: Placed) -> list[Surface]:
        if p.surfaces is None and p.category in STACKABLE:
            w, d, h = p.size
            p.surfaces = [Surface(h, -w / 2, w / 2, -d / 2, d / 2, 0.3)]
        if p.surfaces is None:
            raw, p.round_top = self.model_info(p.item, p.size)
            out = []
            for s in raw:
                above = [t.z for t in raw if t.z > s.z + 0.01 and t.x0 < s.x1 and s.x0 < t.x1
                         and t.y0 < s.y1 and s.y0 < t.y1]
                max_h = (min(above) - 0.025 - s.z) if above else (self.height - 0.05 - p.z - s.z)
                out.append(Surface(float(s.z), float(s.x0), float(s.x1), float(s.y0), float(s.y1), float(max_h)))
            p.surfaces = out
        return p.surfaces

    def support_options(self, item: Item) -> list[Placed]:
        cat = item.cat
        if item.category == "tv":
            host = self.tv_host.get(item.id)
            return [self.by_id[host.id]] if host is not None and host.id in self.by_id else []
        if item.category == "mouse" and item.id in self.mouse_anchor:
            anchor = self.by_id.get(self.mouse_anchor[item.id])
            if anchor is not None and anchor.support in self.by_id:
                return [self.by_id[anchor.support]]
        primary = [p for p in self.placed if p.category in cat.supports and p.support == "floor"
                   and p.id not in self.tv_hosts_with_tv()]
        rank = {name: i for i, name in enumerate(cat.supports)}
        load = self.support_load()
        primary.sort(key=lambda p: (rank[p.category] * 0.5 + load.get(p.id, 0), p.id))
        if item.category == "lamp":   # bedside lamps on the nightstand next to the bed
            beds = self.placed_of("bed")
            if beds:
                primary.sort(key=lambda p: (p.fp.distance(beds[0].fp) > 0.3, rank[p.category], p.id))
        secondary = []
        if item.category not in NO_SECONDARY:
            sec_rank = {name: i for i, name in enumerate(SECONDARY_SUPPORTS)}
            secondary = [p for p in self.placed if p.category in sec_rank and p.category not in cat.supports
                         and p.support == "floor" and p.id not in self.tv_hosts_with_tv()]
            if item.category not in ON_BED_OK:
                secondary = [p for p in secondary if p.category not in ("bed", "bench")]
            secondary.sort(key=lambda p: (sec_rank[p.category] * 0.3 + load.get(p.id, 0), p.id))
        stacks = []
        if item.category in STACKABLE:
            stacks = [p for p in self.placed if p.category == item.category and p.support in self.by_id]
            stacks.sort(key=lambda p: (load.get(p.id, 0), p.id))
        return primary + secondary + stacks

    def tv_hosts_with_tv(self) -> set[str]:
        return {p.support for p in self.placed if p.category == "tv" and p.support in self.by_id}

    def support_load(self) -> dict[str, int]:
        load: dict[str, int] = {}
        for p in self.placed:
            if p.support in self.by_id:
                load[p.support] = load.get(p.support, 0) + 1
        return load

    def place_on_support(self, item: Item) -> None:
        for sup in self.support_options(item):
            if self.try_on(item, sup):
                return
        fallback = item.cat.fallback_placement or FLOOR_FALLBACK.get(item.category)
        if item.category == "tv" or fallback == "wall_mounted":
            if item.category == "tv":
                item.build["wall_mounted"] = True
                item.size[1] = 0.06
            return self.place_wall_mounted(item)
        if fallback in ("floor_wall", "floor_free"):
            return self.place_floor_wall(item) if fallback == "floor_wall" else self.place_floor_free(item)
        names = ", ".join(item.cat.supports)
        present = sorted({p.category for p in self.support_options(item)})
        if not present:
            self.fail(item, f"nothing in the room can hold {item.category} {item.n} of {item.count} "
                            f"(it stands on one of: {names})", final=True,
                      fix=f"add one of {names} to the room")
        self.fail(item, f"no free spot left for {item.category} {item.n} of {item.count} on the "
                        f"{', '.join(present)} of this room (it stands on one of: {names})",
                  fix=f"add another {item.cat.supports[0]} or ask for fewer {item.category} objects in the room")

    def try_on(self, item: Item, sup: Placed) -> bool:
        w, d, h = item.size
        surfaces = self.surfaces_of(sup)
        order = list(range(len(surfaces)))
        if sup.category == "bookshelf":     # eye-level shelves first
            order.sort(key=lambda i: abs(sup.z + surfaces[i].z - 1.1))
        else:
            order.sort(key=lambda i: -surfaces[i].z)
        for si in order:
            surf = surfaces[si]
            if h > surf.max_h:
                continue
            room_w, room_d = surf.x1 - surf.x0 - 0.012, surf.y1 - surf.y0 - 0.012
            for turn in (0.0, 90.0):
                sw, sd = w, d
                ow, od = (sw, sd) if turn == 0 else (sd, sw)
                if (ow > room_w or od > room_d) and item.category in FLEXIBLE:
                    f = min(1.0, room_w / ow, room_d / od)
                    if f * min(w, d) < 0.7 * min(item.cat.size_min[:2]):
                        continue
                    sw, sd, ow, od = sw * f, sd * f, ow * f, od * f
                if self.try_surface(item, sup, si, surf, turn, ow, od, sw, sd, h):
                    return True
        return False

    def try_surface(self, item, sup, si, surf, turn, ow, od, w, d, h) -> bool:
        """Try one surface with the item turned by `turn` (ow, od = extent along the support's axes)."""
        margin = 0.005
        xa, xb = surf.x0 + ow / 2 + margin, surf.x1 - ow / 2 - margin
        ya, yb = surf.y0 + od / 2 + margin, surf.y1 - od / 2 - margin
        if xa > xb + 1e-9 or ya > yb + 1e-9:
            return False
        step = max(0.02, math.sqrt(max(xb - xa, 0.01) * max(yb - ya, 0.01) / 250.0))
        xs = np.unique(np.round(np.concatenate([np.arange(xa, xb + 1e-9, step), [xa, xb, (xa + xb) / 2]]), 5))
        ys = np.unique(np.round(np.concatenate([np.arange(ya, yb + 1e-9, step), [ya, yb, (ya + yb) / 2]]), 5))
        lx, ly = np.meshgrid(xs, ys)
        lx, ly = lx.ravel(), ly.ravel()
        if sup.round_top:
            pts = geom.corners(lx, ly, np.full(len(lx), 90.0 + turn), w, d)
            keep = geom.ellipse_contains(0.0, 0.0, sup.size[0] / 2 - 0.01, sup.size[1] / 2 - 0.01, pts)
            lx, ly = lx[keep], ly[keep]
        if not len(lx):
            return False
        yaw = (sup.yaw + turn) % 360.0
        wx, wy = geom.to_world(sup.x, sup.y, sup.yaw, lx, ly)
        z = sup.z + surf.z
        fps = geom.footprints(wx, wy, np.full(len(lx), yaw), w, d)
        m = np.ones(len(lx), bool)
        others = [p.fp for p in self.placed if p.id != sup.id and not (p.z >= z + h - 1e-6 or p.top <= z + 1e-6)]
        if others:
            m &= shapely.distance(fps, geom.union(others)) >= SURFACE_GAP - 1e-9
        if not m.any():
            return False
        lx, ly, wx, wy, fps = lx[m], ly[m], wx[m], wy[m], fps[m]
        s = self.jitter(len(lx), 0.05)
        cx, cy = (surf.x0 + surf.x1) / 2, (surf.y0 + surf.y1) / 2
        cat = item.category
        if cat in ("tv", "computer"):
            s -= 2.0 * np.abs(lx - cx) + (1.0 * (ly - surf.y0) if cat == "computer" else 2.0 * np.abs(ly - cy))
        elif cat == "laptop":
            s -= 1.0 * np.abs(lx - cx) + 1.0 * np.abs(ly - cy)
        elif cat == "pillow":
            hosts = max(1, len(self.placed_of(sup.category)))
            k = max(1, math.ceil(len(self.cats("pillow")) / hosts))
            per_row = max(1, min(k, int((surf.x1 - surf.x0 + 0.02) // (ow + 0.03))))
            j = sum(1 for p in self.placed if p.support == sup.id and p.category == "pillow") % per_row
            if sup.category == "sofa" and per_row == k and k <= 2:     # cushions in the sofa's corners
                tx = surf.x0 + ow / 2 + 0.02 if j == 0 else surf.x1 - ow / 2 - 0.02
            else:
                tx = surf.x0 + (j + 0.5) * (surf.x1 - surf.x0) / per_row
            s -= 4.0 * (ly - surf.y0) + 1.0 * np.abs(lx - tx)
        elif cat == "mouse" and item.id in self.mouse_anchor and self.mouse_anchor[item.id] in self.by_id:
            a = self.by_id[self.mouse_anchor[item.id]]
            tx, ty = geom.to_world(a.x, a.y, a.yaw, -(a.size[0] / 2 + 0.06 + w / 2), a.size[1] / 2 - d / 2)
            s -= 3.0 * np.hypot(wx - tx, wy - ty)
        elif cat == "lamp":
            beds = self.placed_of("bed")
            if beds:
                s -= 1.0 * shapely.distance(fps, beds[0].fp)
        else:
            same = [p.fp for p in self.placed if p.support == sup.id]
            if same:
                s += 0.5 * np.minimum(shapely.distance(fps, geom.union(same)), 0.4)
            s -= 0.3 * np.hypot(lx - cx, ly - cy) / max(surf.x1 - surf.x0, 0.1)
        i = int(np.lexsort((np.arange(len(s)), -np.round(s, 9)))[0])
        p = Placed(item, float(wx[i]), float(wy[i]), z, yaw, (w, d, h), fps[i], sup.id, surface_index=si)
        self.add(p)
        return True

    # ------------------------------------------------------------------ walls and ceiling

    def place_wall_mounted(self, item: Item) -> None:
        w, d, h = item.size
        cat = item.cat
        mount = cat.mount_height if cat.mount_height is not None else 1.2
        if item.category == "curtain":
            mount = 0.02
        if mount + h > self.height - 0.05:
            h = max(0.1, self.height - 0.05 - mount)
        c = geom.wall_candidates(self.poly, w, d, back=WALL_HALF, step=0.05)
        fps = geom.footprints(c.x, c.y, c.yaw, w, d)
        m = shapely.within(fps, self.region_mount)
        z = np.full(len(c), float(mount))
        low = [p for p in self.placed if p.support not in ("wall", "window", "door", "ceiling")]
        fixed = [p for p in self.placed if p.support in ("wall", "window", "door")]
        for p in low:   # hang above furniture against the wall (mirror over a washstand)
            idx = np.flatnonzero(m)
            if not len(idx):
                break
            hit = shapely.distance(fps[idx], p.fp) < SURFACE_GAP
            need = p.top + 0.12
            z[idx[hit]] = np.maximum(z[idx[hit]], need)
        m &= (z + h <= self.height - 0.05) & (z <= mount + 0.8)
        for p in fixed + low:
            idx = np.flatnonzero(m)
            if not len(idx):
                break
            hit = (shapely.distance(fps[idx], p.fp) < SURFACE_GAP) & (p.z < z[idx] + h) & (p.top > z[idx])
            m[idx[hit]] = False
        if item.category == "tv" and m.any():
            idx = np.flatnonzero(m)
            view = geom.front_zone(c.x[idx], c.y[idx], c.yaw[idx], w + 0.2, d, VIEW_DEPTH)
            blockers = self.zone_blockers(self.view_ok_ids())
            if blockers:
                m[idx] = ~shapely.intersects(view, geom.union(blockers))
        c, fps, z = c.take(m), fps[m], z[m]
        s = self.jitter(len(c))
        if len(c):
            s -= 0.3 * (z - mount)
            name = item.category
            if name == "picture":
                over = [p.fp for p in self.placed if p.category in ("sofa", "bed", "table", "desk", "cabinet",
                                                                     "fireplace", "piano", "stand", "bench")]
                if over:
                    s += 1.5 * np.exp(-self.dist_to(fps, over) / 0.3)
                s -= 0.3 * self.wall_centre_offset(c, w)
                same = [p.fp for p in self.placed if p.category == "picture"]
                if same:
                    s += 0.6 * np.minimum(self.dist_to(fps, same), 3.0)
            elif name == "mirror":
                near = self.placed_of("washstand") or self.placed_of("wardrobe", "cabinet")
                if near:
                    s += 3.0 * np.exp(-np.hypot(c.x - near[0].x, c.y - near[0].y) / 0.4)
            elif name == "towel":
                near = [p.fp for p in self.placed if p.category in ("bath", "washstand", "toilet")]
                if near:
                    s += 1.5 * np.exp(-self.dist_to(fps, near) / 0.4)
                same = [p.fp for p in self.placed if p.category == "towel"]
                if same:
                    s += 0.5 * np.minimum(self.dist_to(fps, same), 1.5)
            elif name == "tv":
                seats = self.placed_of("sofa") or self.placed_of("bed")
                if self.cats("sofa") and not self.placed_of("sofa"):
                    s += 3.0 * self.sofa_fits(c, d)
                if seats:
                    s += 3.0 * self.seen_from(seats[0], c) + 1.0 * self.facing_score(c, seats[0].x, seats[0].y)
                else:
                    s += 0.8 * np.clip(self.ray_length(c), 0, 4.5)
                s -= 0.5 * self.wall_centre_offset(c, w)
            elif name == "air conditioner":
                s -= 0.3 * self.wall_centre_offset(c, w)
            else:
                s -= 0.2 * self.wall_centre_offset(c, w)
        if not len(c):
            self.fail(item, f"no free wall for {item.category} {item.n} of {item.count} ({w:.2f} m wide, "
                            f"{h:.2f} m high) clear of doors, windows and tall furniture")
        i = int(np.lexsort((np.arange(len(s)), -np.round(s, 9)))[0])
        self.add(Placed(item, float(c.x[i]), float(c.y[i]), float(z[i]), float(c.yaw[i]) % 360.0, (w, d, h),
                        fps[i], "wall"))

    def place_ceiling(self, item: Item) -> None:
        w, d, h = item.size
        h = min(h, self.height - 2.1)
        z = self.height - h
        region = self.poly.buffer(-0.3, **MITRE).difference(self.door_union)
        c = geom.free_candidates(region, (90,), step=0.1)
        fps = geom.footprints(c.x, c.y, c.yaw, w, d)
        m = np.ones(len(c), bool)
        obs = self.obstacles(item, z, z + h)
        if obs and len(c):
            m &= shapely.distance(fps, geom.union(obs)) >= GAP
        c, fps = c.take(m), fps[m]
        if not len(c):
            self.fail(item, f"no free ceiling for {item.category} {item.n} of {item.count}")
        s = self.jitter(len(c), 0.05)
        k, n = item.n - 1, item.count
        x0, y0, x1, y1 = self.bounds
        tables = self.placed_of("table")
        if n == 1 and tables:
            tx, ty = tables[0].x, tables[0].y
        elif (x1 - x0) >= (y1 - y0):
            tx, ty = x0 + (k + 0.5) * (x1 - x0) / n, (y0 + y1) / 2
        else:
            tx, ty = (x0 + x1) / 2, y0 + (k + 0.5) * (y1 - y0) / n
        s -= np.hypot(c.x - tx, c.y - ty)
        i = int(np.lexsort((np.arange(len(s)), -np.round(s, 9)))[0])
        self.add(Placed(item, float(c.x[i]), float(c.y[i]), z, 90.0, (w, d, h), fps[i], "ceiling"))

    # ------------------------------------------------------------------ output

    def export(self, p: Placed) -> dict:
        attrs = dict(p.item.attributes)
        attrs["color"] = p.item.color
        attrs.setdefault("material", p.item.cat.material)
        attrs["model_seed"] = p.item.model_seed
        attrs.update(p.item.build)
        coords = list(p.fp.exterior.coords)[:-1]
        if shapely.geometry.polygon.orient(p.fp, 1.0).exterior.coords[:] != p.fp.exterior.coords[:]:
            coords = coords[::-1]
        return {
            "id": p.id,
            "category": p.category,
            "room": self.label,
            "floor": self.floor,
            "position": [_r(p.x), _r(p.y), _r(self.elev + p.z)],
            "yaw": _r(p.yaw % 360.0),
            "size": [_r(v) for v in p.size],
            "footprint": [[_r(x), _r(y)] for x, y in coords],
            "support": p.support,
            "attributes": attrs,
        }


def _r(v: float) -> float:
    out = round(float(v), 4) + 0.0
    return 0.0 if out == 0 else out


def _num(text: str) -> tuple:
    digits = "".join(ch for ch in text if ch.isdigit())
    return (int(digits) if digits else 0, text)


def _connected(space, spot, entries: list[Point]) -> bool:
    pieces = geom.parts(space)
    if not entries:
        return any(not spot.intersection(piece).is_empty for piece in pieces)
    home = None
    for piece in pieces:
        if piece.distance(entries[0]) < 1e-6:
            home = piece
            break
    if home is None:
        return False
    for e in entries[1:]:
        if home.distance(e) >= 1e-6:
            return False
    inter = spot.intersection(home)
    return not inter.is_empty and inter.area > 1e-8
