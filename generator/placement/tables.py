"""Tables with the chairs planned for them, chairs at desks, the piano bench."""

from __future__ import annotations

import numpy as np
import shapely

from generator.placement import geom
from generator.placement.checks import commit_floor, filter_floor
from generator.placement.floor import free_centre, place_floor_free, place_floor_wall
from generator.placement.geom import Candidates
from generator.placement.groups import chair_slots, seat_counts
from generator.placement.scores import facing_score
from generator.placement.state import Item, RoomState


def place_table(room: RoomState, item: Item) -> None:
    w, d, h = item.size
    chairs = room.anchor_chairs.get(item.id, [])
    sofas = room.placed_of("sofa")
    if chairs:
        _, round_top = room.model_info(item, item.size)
        ring = room.chair_depth + 0.12
        c = geom.free_candidates(room.region_floor, (0, 90), step=0.1)
        c, fps = filter_floor(room, item, c, w, d, h)
        seats = seat_counts(room, item, c, round_top)
        if len(c) and seats.max() >= len(chairs):
            keep = seats >= len(chairs) - 1e-9
            c, fps, seats = c.take(keep), fps[keep], seats[keep]
        s = room.jitter(len(c)) + 3.0 * seats
        if len(c):
            target = free_centre(room)
            s -= 1.0 * np.hypot(c.x - target.x, c.y - target.y)
            long_x = (room.bounds[2] - room.bounds[0]) >= (room.bounds[3] - room.bounds[1])
            s += 0.5 * ((np.round(c.yaw) % 180 == 90) == long_x)

        def zone_fn(x, y, yaw):
            fp = geom.footprint(x, y, yaw, w, d)
            return fp.buffer(ring, join_style="mitre").difference(fp).intersection(room.region_floor)
        p = commit_floor(room, item, c, fps, s, w, d, h, zone_poly_fn=zone_fn, exempt_zone=chairs)
        if p is not None:
            p.round_top = round_top
    elif sofas:
        sofa = sofas[0]
        gap = 0.45
        tx, ty = geom.to_world(sofa.x, sofa.y, sofa.yaw, 0.0, sofa.size[1] / 2 + gap + d / 2)
        c = geom.free_candidates(room.region_floor, (sofa.yaw,), step=0.05)
        c, fps = filter_floor(room, item, c, w, d, h)
        s = room.jitter(len(c), 0.05)
        if len(c):
            s -= 2.0 * np.hypot(c.x - tx, c.y - ty)
            s -= 3.0 * (shapely.distance(fps, sofa.fp) < 0.35)
        p = commit_floor(room, item, c, fps, s, w, d, h)
    else:
        c = Candidates.concat([geom.wall_candidates(room.poly, w, d),
                               geom.free_candidates(room.region_floor, (0, 90), step=0.1)])
        c, fps = filter_floor(room, item, c, w, d, h, zone_depth=0.5 * room.clear_factor)
        s = room.jitter(len(c))
        if len(c):
            target = free_centre(room)
            s -= 0.5 * np.hypot(c.x - target.x, c.y - target.y)
        p = commit_floor(room, item, c, fps, s, w, d, h, zone_depth=0.5 * room.clear_factor)
    if p is None:
        room.fail(item, f"no free floor for table {item.n} of {item.count} ({w:.2f} x {d:.2f} m"
                        + (f" with {len(chairs)} chairs around it)" if chairs else ")"))



def place_chair(room: RoomState, item: Item) -> None:
    w, d, h = item.size
    anchor_id = room.chair_anchor.get(item.id)
    anchor = room.by_id.get(anchor_id) if anchor_id else None
    if anchor is not None:
        slots = chair_slots(room, anchor, item)
        c = Candidates(np.array([s[0] for s in slots]), np.array([s[1] for s in slots]),
                       np.array([s[2] for s in slots]), np.arange(len(slots)), np.zeros(len(slots)),
                       np.zeros(len(slots)))
        c, fps = filter_floor(room, item, c, w, d, h, zone_skip=(anchor.id,))
        if commit_floor(room, item, c, fps, -c.edge.astype(float), w, d, h) is not None:
            return
        # no seat at the anchor: stand free, facing it
        c = geom.free_candidates(room.region_floor, (0, 90, 180, 270), step=0.1)
        if len(c):
            facing = facing_score(c, anchor.x, anchor.y) > 0.9
            if facing.any():
                c = c.take(facing)
        c, fps = filter_floor(room, item, c, w, d, h, zone_skip=(anchor.id,))
        s = room.jitter(len(c), 0.1)
        if len(c):
            s += 2.0 * facing_score(c, anchor.x, anchor.y)
            s -= 1.0 * shapely.distance(fps, anchor.fp)
        if commit_floor(room, item, c, fps, s, w, d, h) is not None:
            return
        room.fail(item, f"no room for chair {item.n} of {item.count} near the {anchor.category}")
    # no table or desk: a chair against a wall, facing the tv if there is one
    depth = item.cat.front_clearance * room.clear_factor
    c = geom.wall_candidates(room.poly, w, d)
    c, fps = filter_floor(room, item, c, w, d, h, zone_depth=depth)
    s = room.jitter(len(c))
    tvs = room.placed_of("tv")
    if len(c) and tvs:
        s += 2.0 * facing_score(c, tvs[0].x, tvs[0].y)
    if commit_floor(room, item, c, fps, s, w, d, h, zone_depth=depth) is None:
        place_floor_free(room, item)



def place_bench(room: RoomState, item: Item) -> None:
    """A piano bench: in front of the piano, facing it, as close as it fits."""
    piano = room.by_id.get(room.bench_for[item.id])
    if piano is None:
        return place_floor_wall(room, item)
    w, d, h = item.size
    poses = [(dx, gap) for gap in (0.12, 0.18, 0.25, 0.35) for dx in (0.0, -0.1, 0.1, -0.2, 0.2)]
    x, y = geom.to_world(piano.x, piano.y, piano.yaw, np.array([p[0] for p in poses]),
                         np.array([piano.size[1] / 2 + p[1] + d / 2 for p in poses]))
    rank = -np.array([p[1] + abs(p[0]) for p in poses])
    c = Candidates(np.asarray(x, float), np.asarray(y, float), np.full(len(poses), (piano.yaw + 180.0) % 360.0),
                   np.arange(len(poses)), np.zeros(len(poses)), np.zeros(len(poses)))
    c, fps = filter_floor(room, item, c, w, d, h, zone_skip=(piano.id,))
    if commit_floor(room, item, c, fps, rank[c.edge.astype(int)], w, d, h) is None:
        place_floor_wall(room, item)
