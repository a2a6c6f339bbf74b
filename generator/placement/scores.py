"""Soft preferences: per-category scores of candidate poses (corners, walls' centres, facing a
tv, near a bed, kitchen runs, clusters of one kind)."""

from __future__ import annotations

import math

import numpy as np
import shapely

from generator.placement import geom
from generator.placement.checks import obstacles
from generator.placement.geom import Candidates, WALL_GAP
from generator.placement.state import GAP, Item, Placed, RoomState

CORNER_LOVERS = frozenset({"wardrobe", "bookshelf", "fridge", "cupboard", "locker", "vending machine",
                           "bath", "washing machine", "safe", "toilet"})
CENTRE_LOVERS = frozenset({"bed", "sofa", "fireplace", "piano", "bench"})
KITCHEN_LINE = frozenset({"fridge", "stove", "oven", "sink", "dishwasher", "cupboard", "cabinet",
                          "washing machine", "microwave"})
CLUSTER_SAME = frozenset({"locker", "cabinet", "washing machine", "bookshelf", "cupboard"})


def wall_centre_offset(c: Candidates, w: float) -> np.ndarray:
    usable = c.wall_len - 2 * WALL_GAP - w
    return np.abs(usable / 2 - c.end_dist)



def facing_score(c: Candidates, tx: float, ty: float) -> np.ndarray:
    dx, dy = tx - c.x, ty - c.y
    dist = np.maximum(np.hypot(dx, dy), 1e-6)
    yaw = np.radians(c.yaw)
    return (dx * np.cos(yaw) + dy * np.sin(yaw)) / dist



def tv_before_window(room: RoomState, host: Item, fps) -> np.ndarray:
    """1 where a tv host's footprint stands in a window's strip and the tv on it rises above
    the sill. The hard window check measures the host alone, so 17 of the 46 tvs on stands
    of `sample --n 100 --seed 1` stood before a window (0 with this); a preference, since a
    room whose walls are windows and doors may have no other place."""
    tv_h = max((tv.size[2] for tv in room.cats("tv") if room.tv_host.get(tv.id) is host), default=0.0)
    hit = np.zeros(len(fps))
    for zone, sill in room.window_zones:
        if host.size[2] + tv_h > sill + 0.05:
            hit = np.maximum(hit, shapely.intersects(fps, zone) & (shapely.area(shapely.intersection(fps, zone)) > 1e-6))
    return hit


def sofa_fits(room: RoomState, c: Candidates, depth: float) -> np.ndarray:
    """1 where the room's first sofa could stand 1.8-3.4 m in front of a tv at the candidate."""
    sofa = room.cats("sofa")[0]
    sw, sd, sh = sofa.size
    obs = obstacles(room, sofa, 0.0, sh)
    u = geom.union(obs) if obs else None
    ok = np.zeros(len(c), bool)
    for dist in (1.8, 2.2, 2.6, 3.0, 3.4):
        for lat in (0.0, -0.3, 0.3):
            x, y = geom.to_world(c.x, c.y, c.yaw, lat, depth / 2 + dist + sd / 2)
            fps = geom.footprints(x, y, (c.yaw + 180.0) % 360.0, sw, sd)
            fit = shapely.within(fps, room.region_floor)
            if u is not None:
                fit &= shapely.distance(fps, u) >= GAP
            ok |= fit
    return ok.astype(float)



def seen_from(p: Placed, c: Candidates) -> np.ndarray:
    """Cosine between `p`'s front and the direction from `p` to each candidate."""
    dx, dy = c.x - p.x, c.y - p.y
    dist = np.maximum(np.hypot(dx, dy), 1e-6)
    yaw = math.radians(p.yaw)
    return (dx * math.cos(yaw) + dy * math.sin(yaw)) / dist



def ray_length(room: RoomState, c: Candidates) -> np.ndarray:
    """Free distance in front of each candidate to the room's bounding box."""
    x0, y0, x1, y1 = room.bounds
    yaw = np.round(c.yaw) % 360
    out = np.full(len(c), 3.0)
    out[yaw == 0] = (x1 - c.x)[yaw == 0]
    out[yaw == 90] = (y1 - c.y)[yaw == 90]
    out[yaw == 180] = (c.x - x0)[yaw == 180]
    out[yaw == 270] = (c.y - y0)[yaw == 270]
    return out



def dist_to(fps, geoms: list) -> np.ndarray:
    if not geoms:
        return np.full(len(fps), np.inf)
    return shapely.distance(fps, geom.union(geoms))



def window_points(room: RoomState) -> list[tuple[float, float]]:
    return [tuple(w["position"]) for w in room.windows]



def floor_score(room: RoomState, item: Item, c: Candidates, fps, w: float) -> np.ndarray:
    cat = item.category
    s = room.jitter(len(c))
    if not len(c):
        return s
    if cat in CORNER_LOVERS:
        s += 1.5 * np.exp(-c.end_dist / 0.15)
    if cat in CENTRE_LOVERS:
        s -= 0.8 * wall_centre_offset(c, w)
    if cat in KITCHEN_LINE and room.spec_room.type in ("kitchen", "pantry", "laundry"):
        group = [p.fp for p in room.placed if p.category in KITCHEN_LINE and p.support == "floor"]
        if group:
            s += 2.0 * np.exp(-dist_to(fps, group) / 0.2)
        elif cat not in CORNER_LOVERS:    # the first unit of a kitchen run starts in a corner
            s += 1.0 * np.exp(-c.end_dist / 0.15)
    if cat in CLUSTER_SAME:
        same = [p.fp for p in room.placed if p.category == cat]
        if same:
            s += 3.0 * np.exp(-dist_to(fps, same) / 0.2)
    if cat == "desk":           # desks spread over the room, each with its own light and chair
        same = [p.fp for p in room.placed if p.category == cat]
        if same:
            s += 0.5 * np.minimum(dist_to(fps, same), 2.0)
    if cat == "bed":
        s += 0.4 * np.minimum(ray_length(room, c) - item.size[1], 2.0)
    if cat == "sofa":
        target = room.placed_of("tv") or room.placed_of("fireplace")
        if target:
            t = target[0]
            s += 5.0 * np.maximum(facing_score(c, t.x, t.y), 0.0) ** 3
            s -= 0.4 * np.abs(np.hypot(t.x - c.x, t.y - c.y) - 2.8)
        tables = room.placed_of("table")
        if not target and tables:
            s += 1.0 * facing_score(c, tables[0].x, tables[0].y)
        others = room.placed_of("sofa")
        if others:
            s -= 0.5 * np.exp(-dist_to(fps, [o.fp for o in others]) / 0.5)
    if item.id in room.tv_hosts or cat == "tv":
        beds = room.placed_of("bed")
        if room.cats("sofa") and not room.placed_of("sofa"):
            s += 3.0 * sofa_fits(room, c, item.size[1])
        if beds:
            s += 3.0 * seen_from(beds[0], c) + 1.0 * facing_score(c, beds[0].x, beds[0].y)
        else:
            s += 0.8 * np.clip(ray_length(room, c), 0, 4.5)
        s -= 0.5 * wall_centre_offset(c, w)
        s -= 4.0 * tv_before_window(room, item, fps)
    if cat in ("stand", "cabinet", "lamp") and item.id not in room.tv_hosts:
        beds = room.placed_of("bed")
        if beds:
            b = beds[0]
            pts = [geom.to_world(b.x, b.y, b.yaw, sx * (b.size[0] / 2 + item.size[0] / 2 + 0.05),
                                 -b.size[1] / 2 + item.size[1] / 2 + 0.05) for sx in (-1, 1)]
            dist = np.min([np.hypot(c.x - px, c.y - py) for px, py in pts], axis=0)
            # nightstands and their lamps at the head; a cabinet there would read as one too
            # (assets.vocabulary.BEDSIDE_ALIKE), so cabinets keep away
            s += (-4.0 if cat == "cabinet" else 3.0) * np.exp(-dist / 0.4)
    if cat == "desk" and room.windows:
        dist = np.min([np.hypot(c.x - wx, c.y - wy) for wx, wy in window_points(room)], axis=0)
        s += 0.6 * np.exp(-dist / 1.5)
    if cat in ("toilet", "washstand", "bath"):
        others = [p.fp for p in room.placed if p.category in ("toilet", "washstand", "bath")]
        if others:
            s += 0.5 * np.exp(-dist_to(fps, others) / 0.5)
    return s
