"""Wall-mounted objects (pictures over furniture, a mirror over the washstand, a tv the sofa
can see) and ceiling lights."""

from __future__ import annotations

import numpy as np
import shapely

from generator.placement import geom
from generator.placement.checks import obstacles, view_ok_ids, zone_blockers
from generator.placement.geom import MITRE, WALL_HALF
from generator.placement.scores import dist_to, facing_score, ray_length, seen_from, sofa_fits, wall_centre_offset
from generator.placement.state import GAP, SURFACE_GAP, VIEW_DEPTH, Item, Placed, RoomState


def place_wall_mounted(room: RoomState, item: Item) -> None:
    w, d, h = item.size
    cat = item.cat
    mount = cat.mount_height if cat.mount_height is not None else 1.2
    if item.category == "curtain":
        mount = 0.02
    if mount + h > room.height - 0.05:
        h = max(0.1, room.height - 0.05 - mount)
    c = geom.wall_candidates(room.poly, w, d, back=WALL_HALF, step=0.05)
    fps = geom.footprints(c.x, c.y, c.yaw, w, d)
    m = shapely.within(fps, room.region_mount)
    z = np.full(len(c), float(mount))
    low = [p for p in room.placed if p.support not in ("wall", "window", "door", "ceiling")]
    fixed = [p for p in room.placed if p.support in ("wall", "window", "door")]
    for p in low:   # hang above furniture against the wall (mirror over a washstand)
        idx = np.flatnonzero(m)
        if not len(idx):
            break
        hit = shapely.distance(fps[idx], p.fp) < SURFACE_GAP
        need = p.top + 0.12
        z[idx[hit]] = np.maximum(z[idx[hit]], need)
    m &= (z + h <= room.height - 0.05) & (z <= mount + 0.8)
    for p in fixed + low:
        idx = np.flatnonzero(m)
        if not len(idx):
            break
        hit = (shapely.distance(fps[idx], p.fp) < SURFACE_GAP) & (p.z < z[idx] + h) & (p.top > z[idx])
        m[idx[hit]] = False
    if item.category == "tv" and m.any():
        idx = np.flatnonzero(m)
        view = geom.front_zone(c.x[idx], c.y[idx], c.yaw[idx], w + 0.2, d, VIEW_DEPTH)
        blockers = zone_blockers(room, view_ok_ids(room))
        if blockers:
            m[idx] = ~shapely.intersects(view, geom.union(blockers))
    c, fps, z = c.take(m), fps[m], z[m]
    s = room.jitter(len(c))
    if len(c):
        s -= 0.3 * (z - mount)
        name = item.category
        if name == "picture":
            over = [p.fp for p in room.placed if p.category in ("sofa", "bed", "table", "desk", "cabinet",
                                                                 "fireplace", "piano", "stand", "bench")]
            if over:
                s += 1.5 * np.exp(-dist_to(fps, over) / 0.3)
            s -= 0.3 * wall_centre_offset(c, w)
            same = [p.fp for p in room.placed if p.category == "picture"]
            if same:
                s += 0.6 * np.minimum(dist_to(fps, same), 3.0)
        elif name == "mirror":
            near = room.placed_of("washstand") or room.placed_of("wardrobe", "cabinet")
            if near:
                s += 3.0 * np.exp(-np.hypot(c.x - near[0].x, c.y - near[0].y) / 0.4)
        elif name == "towel":
            near = [p.fp for p in room.placed if p.category in ("bath", "washstand", "toilet")]
            if near:
                s += 1.5 * np.exp(-dist_to(fps, near) / 0.4)
            same = [p.fp for p in room.placed if p.category == "towel"]
            if same:
                s += 0.5 * np.minimum(dist_to(fps, same), 1.5)
        elif name == "tv":
            seats = room.placed_of("sofa") or room.placed_of("bed")
            if room.cats("sofa") and not room.placed_of("sofa"):
                s += 3.0 * sofa_fits(room, c, d)
            if seats:
                s += 3.0 * seen_from(seats[0], c) + 1.0 * facing_score(c, seats[0].x, seats[0].y)
            else:
                s += 0.8 * np.clip(ray_length(room, c), 0, 4.5)
            s -= 0.5 * wall_centre_offset(c, w)
        elif name == "air conditioner":
            s -= 0.3 * wall_centre_offset(c, w)
        else:
            s -= 0.2 * wall_centre_offset(c, w)
    if not len(c):
        room.fail(item, f"no free wall for {item.category} {item.n} of {item.count} ({w:.2f} m wide, "
                        f"{h:.2f} m high) clear of doors, windows and tall furniture")
    i = int(np.lexsort((np.arange(len(s)), -np.round(s, 9)))[0])
    room.add(Placed(item, float(c.x[i]), float(c.y[i]), float(z[i]), float(c.yaw[i]) % 360.0, (w, d, h),
                    fps[i], "wall"))



def place_ceiling(room: RoomState, item: Item) -> None:
    w, d, h = item.size
    h = min(h, room.height - 2.1)
    z = room.height - h
    region = room.poly.buffer(-0.3, **MITRE).difference(room.door_union)
    c = geom.free_candidates(region, (90,), step=0.1)
    fps = geom.footprints(c.x, c.y, c.yaw, w, d)
    m = np.ones(len(c), bool)
    obs = obstacles(room, item, z, z + h)
    if obs and len(c):
        m &= shapely.distance(fps, geom.union(obs)) >= GAP
    c, fps = c.take(m), fps[m]
    if not len(c):
        room.fail(item, f"no free ceiling for {item.category} {item.n} of {item.count}")
    s = room.jitter(len(c), 0.05)
    k, n = item.n - 1, item.count
    x0, y0, x1, y1 = room.bounds
    tables = room.placed_of("table")
    if n == 1 and tables:
        tx, ty = tables[0].x, tables[0].y
    elif (x1 - x0) >= (y1 - y0):
        tx, ty = x0 + (k + 0.5) * (x1 - x0) / n, (y0 + y1) / 2
    else:
        tx, ty = (x0 + x1) / 2, y0 + (k + 0.5) * (y1 - y0) / n
    s -= np.hypot(c.x - tx, c.y - ty)
    i = int(np.lexsort((np.arange(len(s)), -np.round(s, 9)))[0])
    room.add(Placed(item, float(c.x[i]), float(c.y[i]), z, 90.0, (w, d, h), fps[i], "ceiling"))
