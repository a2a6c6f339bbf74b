"""Floor-standing objects: against a wall, sofas facing the tv, free-standing, in corners,
and the carpet under a group."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Point

from generator.placement import geom
from generator.placement.checks import commit_floor, filter_floor, view_ok_ids
from generator.placement.geom import Candidates, WALL_GAP
from generator.placement.groups import seat_counts, zone_guests
from generator.placement.scores import dist_to, facing_score, floor_score, window_points
from generator.placement.state import VIEW_DEPTH, Item, RoomState


def place_floor_wall(room: RoomState, item: Item) -> None:
    w, d, h = item.size
    depth = item.cat.front_clearance * room.clear_factor
    tall = "head" if item.category == "bed" else "all"
    c = geom.wall_candidates(room.poly, w, d)
    check = max(depth, VIEW_DEPTH + depth) if item.id in room.tv_hosts else depth
    c, fps = filter_floor(room, item, c, w, d, h, zone_depth=check, tall_part=tall,
                               zone_exempt=view_ok_ids(room))
    score = floor_score(room, item, c, fps, w)
    if room.anchor_chairs.get(item.id) and len(c):     # a desk keeps room for its chair(s)
        seats = seat_counts(room, item, c, False)
        if seats.max() >= 1:
            keep = seats >= min(seats.max(), len(room.anchor_chairs[item.id]))
            c, fps, score, seats = c.take(keep), fps[keep], score[keep], seats[keep]
        score = score + 2.0 * seats
    p = commit_floor(room, item, c, fps, score, w, d, h, zone_depth=depth, exempt_zone=zone_guests(room, item))
    if p is not None:
        return
    fallback = item.cat.fallback_placement
    if item.category == "desk" or fallback == "floor_free":
        return place_floor_free(room, item, wall_first=False)
    room.fail(item, f"no free wall for {item.category} {item.n} of {item.count} "
                    f"({w:.2f} x {d:.2f} m plus {depth:.1f} m in front)")



def place_sofa(room: RoomState, item: Item) -> None:
    target = (room.placed_of("tv") or room.placed_of("fireplace") or [None])[0]
    if target is None:
        return place_floor_wall(room, item)
    depth = item.cat.front_clearance * room.clear_factor
    # the first sofa faces the tv (or fireplace): try its drawn width, then the narrowest
    widths = [item.size[0]]
    if item.n == 1 and item.size[0] > item.cat.size_min[0] + 0.05:
        widths.append(item.cat.size_min[0])
    for k, w in enumerate(widths + [None]):
        strict = w is not None and item.n == 1
        w = item.size[0] if w is None else w
        d, h = item.size[1], item.size[2]
        wall = geom.wall_candidates(room.poly, w, d)
        free = geom.free_candidates(room.region_floor, (0, 90, 180, 270), step=0.1)
        if len(free):
            free = free.take(facing_score(free, target.x, target.y) > 0.9)
            dist = np.hypot(free.x - target.x, free.y - target.y)
            free = free.take((dist > 1.8) & (dist < 4.0))
        c = Candidates.concat([wall, free])
        if strict and len(c):
            c = c.take(facing_score(c, target.x, target.y) > 0.87)
        c, fps = filter_floor(room, item, c, w, d, h, zone_depth=depth)
        s = floor_score(room, item, c, fps, w)
        if len(c):
            s -= np.where(c.edge < 0, 1.5 if item.n == 1 else 3.5, 0.0)
        p = commit_floor(room, item, c, fps, s, w, d, h, zone_depth=depth, exempt_zone=zone_guests(room, item))
        if p is not None:
            item.size[0] = w
            return
        if not strict:
            break
    place_floor_free(room, item)



def place_floor_free(room: RoomState, item: Item, wall_first: bool = True) -> None:
    w, d, h = item.size
    depth = item.cat.front_clearance * room.clear_factor
    cands = [geom.free_candidates(room.region_floor, (0, 90, 180, 270), step=0.1)]
    if wall_first:
        cands.insert(0, geom.wall_candidates(room.poly, w, d, back=WALL_GAP + 0.05))
    c = Candidates.concat(cands)
    c, fps = filter_floor(room, item, c, w, d, h, zone_depth=depth)
    s = room.jitter(len(c))
    if len(c):
        wall_d = shapely.distance(fps, room.poly.exterior)
        s -= 0.8 * np.minimum(wall_d, 2.0)
        tvs = room.placed_of("tv")
        if tvs and item.category in ("cycle", "exercise machine", "sofa", "chair"):
            s += 2.0 * facing_score(c, tvs[0].x, tvs[0].y)
        s += floor_score(room, item, c, fps, w) * 0.5
    p = commit_floor(room, item, c, fps, s, w, d, h, zone_depth=depth, exempt_zone=zone_guests(room, item))
    if p is None:
        room.fail(item, f"no free floor for {item.category} {item.n} of {item.count} ({w:.2f} x {d:.2f} m)")



def place_corner(room: RoomState, item: Item) -> None:
    w, d, h = item.size
    depth = item.cat.front_clearance * room.clear_factor
    for ends_only in (True, False):
        c = geom.wall_candidates(room.poly, w, d, ends_only=ends_only)
        c, fps = filter_floor(room, item, c, w, d, h, zone_depth=depth)
        s = room.jitter(len(c)) + 1.5 * np.exp(-c.end_dist / 0.15)
        if len(c):
            if item.category == "floor lamp":
                seats = [p.fp for p in room.placed if p.category in ("sofa", "bed", "desk", "piano", "chair")]
                if seats:
                    s += 2.0 * np.exp(-dist_to(fps, seats) / 0.5)
            elif item.category == "plant":
                if room.windows:
                    dist = np.min([np.hypot(c.x - wx, c.y - wy) for wx, wy in window_points(room)], axis=0)
                    s += 0.6 * np.exp(-dist / 1.5)
                same = [p.fp for p in room.placed if p.category == "plant"]
                if same:
                    s += 0.5 * np.minimum(dist_to(fps, same), 3.0)
        if commit_floor(room, item, c, fps, s, w, d, h, zone_depth=depth) is not None:
            return
    place_floor_free(room, item)



def free_centre(room: RoomState) -> Point:
    free = room.region_floor
    blocked = [p.fp.buffer(0.3) for p in room.placed if p.support == "floor" and not p.flat]
    if blocked:
        free = free.difference(geom.union(blocked))
    if free.is_empty:
        return room.centre
    biggest = max(geom.parts(free), key=lambda g: g.area)
    return biggest.centroid if biggest.contains(biggest.centroid) else biggest.representative_point()



def place_carpet(room: RoomState, item: Item) -> None:
    w0, d0, h = item.size
    targets = []      # (point, yaw) of the groups a carpet goes under, most telling first
    for t in room.placed_of("table"):
        targets.append((Point(t.x, t.y), t.yaw))
    for s0 in room.placed_of("sofa"):
        targets.append((Point(*geom.to_world(s0.x, s0.y, s0.yaw, 0.0, s0.size[1] / 2 + 0.6)), s0.yaw))
    for b in room.placed_of("bed"):
        targets.append((Point(*geom.to_world(b.x, b.y, b.yaw, 0.0, b.size[1] * 0.25)), b.yaw))
    for dsk in room.placed_of("desk"):
        targets.append((Point(*geom.to_world(dsk.x, dsk.y, dsk.yaw, 0.0, dsk.size[1] / 2)), dsk.yaw))
    for other in room.placed_of("cycle", "exercise machine", "piano"):
        targets.append((Point(other.x, other.y), other.yaw))
    if targets:
        target, yaw_pref = targets[(item.n - 1) % len(targets)]
    else:
        target, yaw_pref = free_centre(room), None
    for scale in (1.0, 0.85, 0.7, 0.55, 0.4):
        w = max(item.cat.size_min[0] * 0.6, w0 * scale)
        d = max(item.cat.size_min[1] * 0.6, d0 * scale)
        region = room.region_floor
        c = geom.free_candidates(region, (0, 90), step=0.1)
        c, fps = filter_floor(room, item, c, w, d, h, region=region)
        s = room.jitter(len(c), 0.1)
        if len(c):
            s -= 1.0 * np.hypot(c.x - target.x, c.y - target.y)
            if yaw_pref is not None:
                s += 0.5 * (np.round(c.yaw - yaw_pref) % 180 == 0)
        if commit_floor(room, item, c, fps, s, w, d, h, walk=False, flat=True) is not None:
            return
    room.fail(item, f"no free floor for carpet {item.n} of {item.count}")
