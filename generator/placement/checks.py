"""Hard checks of a candidate pose on the floor: 3D collisions, clearance and tv view zones,
window strips, walkability; and committing the best candidate that passes them all."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon

from generator.placement import geom
from generator.placement.geom import Candidates
from generator.placement.state import GAP, Item, Placed, RoomState, front_reach

WALK_TRIES = 60            # candidates tried against the walkability check per object
VIEW_OK = frozenset({"carpet", "yoga mat", "table"})
UNDER_WINDOW_OK = frozenset({"sink", "washstand"})   # counters whose taps may rise in front of a window
FLAT = frozenset({"carpet"})      # a floor layer others may stand on
# categories a carpet may lie under (everything else keeps off it)
CARPET_OVER = frozenset({"sofa", "table", "chair", "bed", "bench", "desk", "stand", "cycle",
                         "exercise machine", "yoga mat", "floor lamp", "plant", "piano", "cabinet"})


def obstacles(room: RoomState, item: Item, z0: float, z1: float, exempt=()) -> list[Polygon]:
    """Footprints of placed objects that would collide in 3D with `item` at [z0, z1]."""
    out = []
    for p in room.placed:
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



def clearance_zones(room: RoomState, item: Item, skip=()) -> list[Polygon]:
    """Front clearance zones `item` must keep out of (a flat carpet may lie in them)."""
    out = []
    if item.category in FLAT:
        return out
    for p in room.placed:
        if p.zone is None or p.id in skip or item.id in p.exempt:
            continue
        out.append(p.zone)
    if item.category not in VIEW_OK:
        out += [zone for zone, tv_id in room.view_zones if tv_id not in skip]
    return out



def zone_blockers(room: RoomState, exempt=()) -> list[Polygon]:
    """What a new clearance zone must not contain: low objects on the floor or walls."""
    return [p.fp for p in room.placed
            if p.id not in exempt and not p.flat and p.z < 1.0 and p.support in ("floor", "wall")]



def view_ok_ids(room: RoomState) -> tuple:
    return tuple(p.id for p in room.placed if p.category in VIEW_OK)



def filter_floor(room: RoomState, item: Item, c: Candidates, w: float, d: float, h: float, *, zone_depth: float = 0.0,
                 exempt=(), zone_skip=(), region=None, tall_part: str = "all", zone_exempt=()) -> tuple:
    """Candidates (and their footprints) that pass every hard check except walkability."""
    if not len(c):
        return c, np.zeros(0, dtype=object)
    fps = geom.footprints(c.x, c.y, c.yaw, w, d)
    region = room.region_floor if region is None else region
    m = shapely.within(fps, region)
    obs = obstacles(room, item, 0.0, h, exempt)
    if obs and m.any():
        u = geom.union(obs)
        idx = np.flatnonzero(m)
        m[idx] = shapely.distance(fps[idx], u) >= GAP - 1e-9
    zones = clearance_zones(room, item, zone_skip)
    if zones and m.any():
        u = geom.union(zones)
        idx = np.flatnonzero(m)
        m[idx] = ~shapely.intersects(fps[idx], u) | (shapely.area(shapely.intersection(fps[idx], u)) < 1e-6)
    if room.window_zones and m.any() and item.category not in ("carpet", "yoga mat"):
        for zone, sill in room.window_zones:
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
        ok = shapely.within(zf, room.region_wall)
        blockers = zone_blockers(room, zone_exempt)
        if blockers:
            u = geom.union(blockers)
            ok &= ~shapely.intersects(zf, u) | (shapely.area(shapely.intersection(zf, u)) < 1e-6)
        m[idx] = ok
    return c.take(m), fps[m]



def commit_floor(room: RoomState, item: Item, c: Candidates, fps, scores: np.ndarray, w, d, h, *,
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
            if not room.walk_ok(fp, front_reach(item.category, support, c.x[i], c.y[i], c.yaw[i], (w, d))):
                continue
        zone = None
        if zone_poly_fn is not None:
            zone = zone_poly_fn(c.x[i], c.y[i], c.yaw[i])
        elif zone_depth > 0:
            zone = geom.front_zone(c.x[i], c.y[i], c.yaw[i], w, d, zone_depth)[0]
        p = Placed(item, float(c.x[i]), float(c.y[i]), z, float(c.yaw[i]) % 360.0, (w, d, h), fp, support,
                   zone=zone, flat=flat, exempt=frozenset(exempt_zone))
        room.add(p)
        return p
    return None
