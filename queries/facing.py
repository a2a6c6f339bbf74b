"""Does the video show two rooms facing each other across their hallway (docs/ground-truth.md
"directly opposite")? The plan may say so while the walk never looks from one doorway to the
other: in sample-7-000 the bedroom and the dressroom faced each other from the two ends of the
upstairs landing, the camera came up the stairs facing the bedroom and left it for the bathroom
beside the stairs, and the dressroom's door was never in view before the camera stood in it; the
person check could answer "which room is directly opposite the bedroom?" only by elimination.

Shown: for 0.5 s of frames on their floor, the camera stands in the hallway with both rooms'
doorways onto it in view, or within AT_DOOR_M of one room's doorway (in the hallway, or in the
room looking out through it) with the other's doorway in view. In view: within the horizontal
field of view less VIEW_MARGIN_DEG on either side, within REACH_M, and the line of sight stays in
the hallway (leaving a room through its own doorway).
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point

from queries.layout_facts import Layout
from queries.model import Door, Frame, Trajectory

VIEW_MARGIN_DEG = 10.0
REACH_M = 6.0
AT_DOOR_M = 1.5
HALL_SLACK_M = 0.1    # the line may graze the hallway's walls by this much (doorway reveals)


def _in_view(frame: Frame, target, half_fov: float) -> bool:
    dx, dy = target[0] - frame.position[0], target[1] - frame.position[1]
    if math.hypot(dx, dy) > REACH_M:
        return False
    off = (math.degrees(math.atan2(dy, dx)) - frame.yaw + 180.0) % 360.0 - 180.0
    return abs(off) <= half_fov


def _clear(layout: Layout, hall, frame: Frame, target, room: str | None, door: Door | None) -> bool:
    """Does the line from the camera to `target` stay in the hallway (`hall`, grown by
    HALL_SLACK_M), leaving `room` (where the camera stands, if not in the hallway) through `door`?"""
    line = LineString([frame.position[:2], target])
    if room is not None:
        poly = layout.poly[room]
        crossing = line.intersection(poly.exterior)
        points = [crossing] if crossing.geom_type == "Point" else list(getattr(crossing, "geoms", []))
        if any(p.distance(Point(door.position)) > door.width / 2 for p in points):
            return False
        line = line.difference(poly)
    return line.is_empty or hall.contains(line)


def facing_shown(layout: Layout, trajectory: Trajectory, x: str, y: str, min_frames: int) -> bool:
    """Do at least min_frames frames show x and y facing each other across a hallway both open onto?"""
    half_fov = trajectory.fov_deg[0] / 2 - VIEW_MARGIN_DEG
    halls = sorted(h for h in set(layout.graph.neighbors(x)) & set(layout.graph.neighbors(y))
                   if h in layout.space_poly and h.startswith("hallway:"))
    pairs = [(h, a, b) for h in halls for a in layout.doors.get(frozenset((x, h)), [])
             for b in layout.doors.get(frozenset((y, h)), [])]
    grown = {h: layout.space_poly[h].buffer(HALL_SLACK_M) for h in halls}
    shown = 0
    for f in trajectory.frames:
        here = Point(f.position[:2])
        for h, a, b in pairs:
            if f.floor != a.floor:
                continue
            if layout.space_poly[h].contains(here):
                sees = {d.id for d in (a, b) if _in_view(f, d.position, half_fov)
                        and _clear(layout, grown[h], f, d.position, None, None)}
                ok = len(sees) == 2 or any(here.distance(Point(own.position)) <= AT_DOOR_M and other.id in sees
                                           for own, other in ((a, b), (b, a)))
            else:
                own, other = (a, b) if f.room == x else (b, a) if f.room == y else (None, None)
                ok = own is not None and here.distance(Point(own.position)) <= AT_DOOR_M and \
                    _in_view(f, other.position, half_fov) and _clear(layout, grown[h], f, other.position, f.room, own)
            if ok:
                shown += 1
                break
        if shown >= min_frames:
            return True
    return False
