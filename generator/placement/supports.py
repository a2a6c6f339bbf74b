"""Small things on supports: the support surfaces of the mesh the renderer builds, which
supports an object may use (its own, secondary ones, a stack of its kind) and where on a
surface it goes (a tv centred on its stand, pillows along the bed head, a mouse beside the
laptop); with the category's fallback when no support has room."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import shapely

from assets.vocabulary import named_from_front, named_from_nearly_in_front
from generator.placement import geom
from generator.placement.floor import place_floor_free, place_floor_wall
from generator.placement.state import SURFACE_GAP, Item, Placed, RoomState
from generator.placement.walls import place_wall_mounted

# furniture a person would put a small thing on when none of the category's own supports
# has room (not appliances, safes or lockers)
SECONDARY_SUPPORTS = ("cabinet", "stand", "table", "desk", "cupboard", "bookshelf", "sink", "washstand",
                      "piano", "fireplace", "bench", "bed")
# only on their own supports (assets.categories): appliances on kitchen surfaces, clothes on a
# bed, chair or wardrobe, a tv on its stand (else the wall), a table lamp on a table
NO_SECONDARY = frozenset({"pillow", "microwave", "coffee machine", "pot", "fruit", "plate", "clothes",
                          "tv", "lamp"})
# supports that themselves stand on a support: a fruit goes into a bowl on the table
ON_A_SUPPORT_OK = frozenset({"bowl"})
# supports with several shelves: the load that ranks them counts per shelf, so the books of a
# study fill the bookshelf before the desk
SHELVED = frozenset({"bookshelf", "wardrobe"})
ON_BED_OK = frozenset({"book", "clothes", "handbag", "eyeglasses", "headphone", "laptop", "print", "telephone",
                       "towel", "pillow"})
FLEXIBLE = frozenset({"clothes", "pillow", "towel", "print"})    # soft things may be folded smaller
# may lie on one of their own kind
STACKABLE = frozenset({"book", "plate", "print"})
STAND_ON_SHELF = frozenset({"book"})   # stood up on a shelf, front cover to the room (try_on_shelf_upright)
# a thing named from its front (a microwave, a printer) faces the open room, not a wall close by:
# free floor ahead of the support's edge counts up to this much (ties keep the support's own way)
OPEN_AHEAD_M = 1.0
# a wardrobe shelf more than this above the floor lies about level with the eye (1.6 m): its
# board hides a folded garment from below (in 100 sampled renders 7 of 20 garments on such
# shelves went unseen, 3 of 100 lower down), so it takes a thing only when no lower place in
# the room has room
HIGH_SHELF_M = 1.45
HIGH_SHELVES_LAST = frozenset({"wardrobe"})
# supports of a kind taken only when none of its others has room: a pot on a dishwasher or an
# oven, units with knobs, reads as a stove (person check of large-house: its black dishwasher).
# An attempt at a room that fails with the preference is made again without it (RoomState.
# strict_supports): a kitchen with no stove or table may need its counters for the plates and
# glasses (sample-1-094)
LAST_SUPPORTS = {"pot": frozenset({"dishwasher", "oven"})}


@dataclass
class Surface:
    z: float                  # height above the support's base
    x0: float
    x1: float
    y0: float
    y1: float
    max_h: float
    holds: object = None      # where the mesh is at z (local frame) when it is not the whole
                              # rectangle (a stove's grates): things stand with their centre over it


def surfaces_of(room: RoomState, p: Placed) -> list[Surface]:
    if p.surfaces is None and p.category in STACKABLE:
        w, d, h = p.size
        p.surfaces = [Surface(h, -w / 2, w / 2, -d / 2, d / 2, 0.3)]
    if p.surfaces is None:
        raw, p.round_top = room.model_info(p.item, p.size)
        out = []
        for s in raw:
            above = [t.z for t in raw if t.z > s.z + 0.01 and t.x0 < s.x1 and s.x0 < t.x1
                     and t.y0 < s.y1 and s.y0 < t.y1]
            max_h = (min(above) - 0.025 - s.z) if above else (room.height - 0.05 - p.z - s.z)
            out.append(Surface(float(s.z), float(s.x0), float(s.x1), float(s.y0), float(s.y1), float(max_h),
                               _holds(room.up_faces(p.item, p.size), s)))
        p.surfaces = out
    return p.surfaces



def _holds(up: np.ndarray, s):
    """The part of surface `s` the mesh's upward faces at its height cover, or None if all of it."""
    rect = shapely.box(s.x0, s.y0, s.x1, s.y1)
    near = up[np.abs(up[:, :, 2].mean(axis=1) - s.z) <= 0.005]
    if not len(near):
        return None          # declared without faces (a soft top): trusted as a whole
    contact = shapely.union_all(shapely.make_valid(shapely.polygons(near[:, :, :2]))).intersection(rect)
    return None if contact.area >= rect.area - 1e-4 else contact



def support_options(room: RoomState, item: Item) -> list[Placed]:
    cat = item.cat
    if item.category == "tv":
        host = room.tv_host.get(item.id)
        return [room.by_id[host.id]] if host is not None and host.id in room.by_id else []
    if item.category == "mouse" and item.id in room.mouse_anchor:
        anchor = room.by_id.get(room.mouse_anchor[item.id])
        if anchor is not None and anchor.support in room.by_id:
            return [room.by_id[anchor.support]]
    primary = [p for p in room.placed if p.category in cat.supports
               and (p.support == "floor" or p.category in ON_A_SUPPORT_OK)
               and p.id not in tv_hosts_with_tv(room)]
    rank = {name: i for i, name in enumerate(cat.supports)}
    load = support_load(room)
    for p in primary:
        if p.category in SHELVED and p.id in load:
            load[p.id] /= max(1, len(surfaces_of(room, p)))
    last = LAST_SUPPORTS.get(item.category, frozenset()) if room.strict_supports else frozenset()
    primary.sort(key=lambda p: (p.category in last, rank[p.category] * 0.5 + load.get(p.id, 0), p.id))
    if item.category == "lamp":   # bedside lamps on the nightstand next to the bed
        beds = room.placed_of("bed")
        if beds:
            primary.sort(key=lambda p: (p.fp.distance(beds[0].fp) > 0.3, rank[p.category], p.id))
    secondary = []
    if item.category not in NO_SECONDARY:
        sec_rank = {name: i for i, name in enumerate(SECONDARY_SUPPORTS)}
        secondary = [p for p in room.placed if p.category in sec_rank and p.category not in cat.supports
                     and p.support == "floor" and p.id not in tv_hosts_with_tv(room)]
        if item.category not in ON_BED_OK:
            secondary = [p for p in secondary if p.category not in ("bed", "bench")]
        secondary.sort(key=lambda p: (sec_rank[p.category] * 0.3 + load.get(p.id, 0), p.id))
    stacks = []
    if item.category in STACKABLE:
        stacks = [p for p in room.placed if p.category == item.category and p.support in room.by_id]
        stacks.sort(key=lambda p: (load.get(p.id, 0), p.id))
    return primary + secondary + stacks



def tv_hosts_with_tv(room: RoomState) -> set[str]:
    return {p.support for p in room.placed if p.category == "tv" and p.support in room.by_id}



def support_load(room: RoomState) -> dict[str, int]:
    load: dict[str, int] = {}
    for p in room.placed:
        if p.support in room.by_id:
            load[p.support] = load.get(p.support, 0) + 1
    return load



def place_on_support(room: RoomState, item: Item) -> None:
    """On the first support with room, else the category's fallback. Two places are last
    resorts: wardrobe shelves above HIGH_SHELF_M, and chairs at a desk or table
    (RoomState.chair_anchor): pushed in, such a chair's seat is under the top and behind its
    back, so a garment there is glimpsed through the back's slats and a viewer would not count
    it (a sampled render: "seen" in 41 frames, not recognisable)."""
    options = support_options(room, item)
    for sup in options:
        if sup.id not in room.chair_anchor and try_on(room, item, sup):
            return
    for sup in options:     # last resorts: high wardrobe shelves, chairs pushed in at a table
        if sup.category in HIGH_SHELVES_LAST and try_on(room, item, sup, high=True):
            return
        if sup.id in room.chair_anchor and try_on(room, item, sup):
            return
    fallback = item.cat.fallback_placement
    if item.category == "tv" or fallback == "wall_mounted":
        if item.category == "tv":
            item.build["wall_mounted"] = True
            item.size[1] = 0.06
        return place_wall_mounted(room, item)
    if fallback in ("floor_wall", "floor_free"):
        return place_floor_wall(room, item) if fallback == "floor_wall" else place_floor_free(room, item)
    names = ", ".join(item.cat.supports)
    present = sorted({p.category for p in support_options(room, item)})
    if not present:
        room.fail(item, f"nothing in the room can hold {item.category} {item.n} of {item.count} "
                        f"(it stands on one of: {names})", final=True,
                  fix=f"add one of {names} to the room")
    room.fail(item, f"no free spot left for {item.category} {item.n} of {item.count} on the "
                    f"{', '.join(present)} of this room (it stands on one of: {names})",
              fix=f"add another {item.cat.supports[0]} or ask for fewer {item.category} objects in the room")



def try_on(room: RoomState, item: Item, sup: Placed, high: bool = False) -> bool:
    """On one of the support's surfaces; with `high`, only on its shelves above HIGH_SHELF_M
    (HIGH_SHELVES_LAST supports), which are otherwise left out."""
    if item.category in STAND_ON_SHELF and sup.category == "bookshelf" and try_on_shelf_upright(room, item, sup):
        return True
    w, d, h = item.size
    surfaces = surfaces_of(room, sup)
    order = list(range(len(surfaces)))
    if sup.category in HIGH_SHELVES_LAST:
        order = [i for i in order if (sup.z + surfaces[i].z > HIGH_SHELF_M) == high]
    if sup.category in SHELVED:     # eye-level shelves first
        order.sort(key=lambda i: abs(sup.z + surfaces[i].z - 1.1))
    else:
        order.sort(key=lambda i: -surfaces[i].z)
    for si in order:
        surf = surfaces[si]
        if h > surf.max_h:
            continue
        room_w, room_d = surf.x1 - surf.x0 - 0.012, surf.y1 - surf.y0 - 0.012
        for turn in _turns(room, item, sup):
            sw, sd = w, d
            ow, od = (sw, sd) if turn % 180 == 0 else (sd, sw)
            if (ow > room_w or od > room_d) and item.category in FLEXIBLE:
                f = min(1.0, room_w / ow, room_d / od)
                if f * min(w, d) < 0.7 * min(item.cat.size_min[:2]):
                    continue
                sw, sd, ow, od = sw * f, sd * f, ow * f, od * f
            if try_surface(room, item, sup, si, surf, turn, ow, od, sw, sd, h):
                return True
    return False



def try_on_shelf_upright(room: RoomState, item: Item, sup: Placed) -> bool:
    """A book on a shelf stands up, front cover to the room: lying flat under the next shelf
    only its 2-5 cm edge showed, and books went unseen in the sampled and bundled renders (a
    box taller than deep: assets' book builder stands it up). Its height is the flat book's
    depth, its depth the flat book's thickness; eye-level shelves first, as for lying things."""
    w, d, h = item.size
    up_w, up_d, up_h = w, h, d
    surfaces = surfaces_of(room, sup)
    for si in sorted(range(len(surfaces)), key=lambda i: abs(sup.z + surfaces[i].z - 1.1)):
        surf = surfaces[si]
        if up_h > surf.max_h:
            continue
        # against the back panel, side by side: a book stood in front of another hid all but
        # its edge, and a viewer counting books came up short (person check, three-story-house)
        back = replace(surf, y1=min(surf.y1, surf.y0 + up_d + 0.012))
        if try_surface(room, item, sup, si, back, 0.0, up_w, up_d, up_w, up_d, up_h):
            return True
    return False


def open_ahead(room: RoomState, sup: Placed, turn: float) -> float:
    """Free floor (up to OPEN_AHEAD_M) between the support's edge and the room's wall in the
    direction `turn` from the support's front."""
    a = math.radians(sup.yaw + turn)
    half = sup.size[1] / 2 if turn % 180 == 0 else sup.size[0] / 2
    ray = shapely.LineString([(sup.x, sup.y), (sup.x + 20 * math.cos(a), sup.y + 20 * math.sin(a))])
    wall = ray.intersection(room.poly.exterior)
    to_wall = shapely.Point(sup.x, sup.y).distance(wall) if not wall.is_empty else 0.0
    return min(max(to_wall - half, 0.0), OPEN_AHEAD_M)


def _turns(room: RoomState, item: Item, sup: Placed) -> list[float]:
    """Turns of the item on the support to try: its own way and across; a thing named from
    its front also turned back and to the other side, the most open way first (person check of
    scenario-05: a microwave on a free-standing table faced the tv wall 1 m off, and no viewer
    saw its front)."""
    if not named_from_front(item.category):
        return [0.0, 90.0]
    turns = [0.0, 90.0, 180.0, 270.0]
    return sorted(turns, key=lambda t: (-round(open_ahead(room, sup, t), 3), turns.index(t)))


def try_surface(room: RoomState, item, sup, si, surf, turn, ow, od, w, d, h) -> bool:
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
    if surf.holds is not None:   # its centre over what holds it (between a stove's grates it would tip)
        local = geom.footprints(lx, ly, np.full(len(lx), 90.0 + turn), w, d)
        hull = shapely.convex_hull(shapely.intersection(local, surf.holds))
        m &= shapely.contains(shapely.buffer(hull, 1e-4), shapely.points(lx, ly))
    others = [p.fp for p in room.placed if p.id != sup.id and not (p.z >= z + h - 1e-6 or p.top <= z + 1e-6)]
    if others:
        m &= shapely.distance(fps, geom.union(others)) >= SURFACE_GAP - 1e-9
    if not m.any():
        return False
    lx, ly, wx, wy, fps = lx[m], ly[m], wx[m], wy[m], fps[m]
    s = room.jitter(len(lx), 0.05)
    cx, cy = (surf.x0 + surf.x1) / 2, (surf.y0 + surf.y1) / 2
    cat = item.category
    if cat in ("tv", "computer"):
        back = (ly - surf.y0) if turn == 0 else (surf.y1 - ly) if turn == 180 else np.abs(ly - cy)
        s -= 2.0 * np.abs(lx - cx) + (1.0 * back if cat == "computer" else 2.0 * np.abs(ly - cy))
    elif cat == "laptop":
        s -= 1.0 * np.abs(lx - cx) + 1.0 * np.abs(ly - cy)
    elif named_from_nearly_in_front(cat):
        # at the edge it faces, where a person can stand before it: glasses facing along a bed
        # from its middle showed their front to no standpoint within reach (sample-1-000)
        t = math.radians(turn)
        s += 2.0 * (lx * -math.sin(t) + ly * math.cos(t))
    elif cat == "pillow":
        hosts = max(1, len(room.placed_of(sup.category)))
        k = max(1, math.ceil(len(room.cats("pillow")) / hosts))
        per_row = max(1, min(k, int((surf.x1 - surf.x0 + 0.02) // (ow + 0.03))))
        j = sum(1 for p in room.placed if p.support == sup.id and p.category == "pillow") % per_row
        if sup.category == "sofa" and per_row == k and k <= 2:     # cushions in the sofa's corners
            tx = surf.x0 + ow / 2 + 0.02 if j == 0 else surf.x1 - ow / 2 - 0.02
        else:
            tx = surf.x0 + (j + 0.5) * (surf.x1 - surf.x0) / per_row
        s -= 4.0 * (ly - surf.y0) + 1.0 * np.abs(lx - tx)
    elif cat == "mouse" and item.id in room.mouse_anchor and room.mouse_anchor[item.id] in room.by_id:
        a = room.by_id[room.mouse_anchor[item.id]]
        tx, ty = geom.to_world(a.x, a.y, a.yaw, -(a.size[0] / 2 + 0.06 + w / 2), a.size[1] / 2 - d / 2)
        s -= 3.0 * np.hypot(wx - tx, wy - ty)
    elif cat == "lamp":
        beds = room.placed_of("bed")
        if beds:
            s -= 1.0 * shapely.distance(fps, beds[0].fp)
    else:
        same = [p.fp for p in room.placed if p.support == sup.id]
        if same:
            s += 0.5 * np.minimum(shapely.distance(fps, geom.union(same)), 0.4)
        s -= 0.3 * np.hypot(lx - cx, ly - cy) / max(surf.x1 - surf.x0, 0.1)
    i = int(np.lexsort((np.arange(len(s)), -np.round(s, 9)))[0])
    p = Placed(item, float(wx[i]), float(wy[i]), z, yaw, (w, d, h), fps[i], sup.id, surface_index=si)
    room.add(p)
    return True
