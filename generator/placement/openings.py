"""Window and door objects in the layout's openings, curtains at the windows."""

from __future__ import annotations

import math

from shapely.geometry import Polygon

from assets.builders_fixtures import open_leaf_plan
from generator.placement import geom
from generator.placement.checks import obstacles
from generator.placement.geom import WALL_HALF
from generator.placement.state import Item, Placed, RoomState, _num
from generator.placement.walls import place_wall_mounted

WINDOW_DEPTH = 0.1         # window/door objects fill the 0.1 m wall
OPEN_ANGLE = 90.0          # a door object's leaf stands open this far, into its room


def place_window(room: RoomState, item: Item) -> None:
    k = item.n - 1
    if k >= len(room.windows):
        room.fail(item, f"{item.count} window objects but the layout made {len(room.windows)} window "
                        f"opening(s) in this room", final=True, fix="ask for fewer windows in this room")
    w = room.windows[k]
    nx, ny = -w["normal"][0], -w["normal"][1]
    yaw = math.degrees(math.atan2(ny, nx)) % 360.0
    x, y = w["position"]
    size = (float(w["width"]), WINDOW_DEPTH, float(w.get("height", 1.2)))
    fp = geom.footprint(x, y, yaw, size[0], size[1])
    room.add(Placed(item, x, y, float(w.get("sill", 0.9)), yaw, size, fp, "window"))
    item.attributes.setdefault("opening", w["id"])



def place_door(room: RoomState, item: Item) -> None:
    free = [d for d in room.doors if d["id"] not in room.taken_doors and d["id"] not in room.used_doors]
    free.sort(key=lambda d: (0 if any(r.startswith(("hallway:", "outside")) for r in d["rooms"]) else 1,
                             _num(d["id"])))
    if not free:
        room.fail(item, f"{item.count} door objects but the room has only {len(room.doors)} doorway(s) "
                        f"({sum(1 for d in room.doors if d['id'] in room.taken_doors)} filled from the other side)",
                  final=True, fix="ask for fewer doors in this room")
    d = free[0]
    room.used_doors.add(d["id"])
    nx, ny = geom.inward(room.poly, d["position"], d["wall_axis"])
    yaw = math.degrees(math.atan2(ny, nx)) % 360.0
    x, y = d["position"]
    size = (float(d["width"]), WINDOW_DEPTH, float(d.get("height", 2.1)))
    fp = geom.footprint(x, y, yaw, size[0], size[1])
    item.attributes.setdefault("opening", d["id"])
    item.build["open_angle"] = OPEN_ANGLE
    room.add(Placed(item, x, y, 0.0, yaw, size, fp, "door"))
    # its leaf stands open in the room: the walk goes round it, so the room must let it
    room.block(Polygon(open_leaf_plan(x, y, yaw, size[0], OPEN_ANGLE)))



def place_curtain(room: RoomState, item: Item) -> None:
    wins = [p for p in room.placed if p.support == "window"]
    # its own window first, then any other one free (person check of sample-1-073: two curtains
    # hung on blank walls beside a living room's three windows); a blank wall only as a last resort
    start = (item.n - 1) % len(wins) if wins else 0
    for win in wins[start:] + wins[:start]:
        if any(p.item.category == "curtain" and p.yaw == win.yaw and p.fp.distance(win.fp) < 0.2
               for p in room.placed if p.support == "wall"):
            continue   # that window has its curtain
        w = min(item.cat.size_max[0], max(item.cat.size_min[0], win.size[0] + 0.5))
        h = min(room.height - 0.1, item.size[2])
        d = item.size[1]
        # centred on the window, else slid along the wall as far as it still covers it (a
        # window by a corner or a door)
        slack = max(0.0, (w - win.size[0]) / 2)
        for shift in sorted({0.0, *(sign * k * 0.1 for k in range(1, int(slack / 0.1) + 1) for sign in (1, -1))},
                            key=lambda v: (abs(v), v)):
            x, y = geom.to_world(win.x, win.y, win.yaw, shift, WALL_HALF + d / 2)
            fp = geom.footprint(x, y, win.yaw, w, d)
            # (obstacles lists everything at the curtain's heights: what matters is what it overlaps;
            # read as "anything else at all", a second window sent every curtain to a blank wall)
            if room.region_mount.contains(fp) and not any(fp.intersection(o).area > 1e-6 for o in
                                                           obstacles(room, item, 0.02, 0.02 + h, {win.id})):
                room.add(Placed(item, float(x), float(y), 0.02, win.yaw, (w, d, h), fp, "wall"))
                return
    place_wall_mounted(room, item)
