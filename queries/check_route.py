"""The checker's own Route Plan: it re-plans the walk instead of trusting the record's waypoints.

docs/ground-truth.md: standing by the start object and facing the facing object, each
"go forward until X" is one straight walk, clear of walls and furniture by the clearance, from
where the last one ended to a place by X (within `stand_by_m` of its footprint); the turn
before each walk is read from the object centres (what a viewer uses) and must be clear of
its boundaries. The answer holds when some such walk exists whose every turn, measured on the
walk itself, is the turn read from the centres. The walk is searched over stand points sampled
around each stop (two rings, every 0.2 m), legs tested by sampling every 5 cm: a different
method from the generator's A* on an occupancy grid. A route through a doorway (the goal in the
next room, the stop before it the start room's door) walks in both rooms' free space joined
through the opening and stands "at the door" just through it, in the next room.
"""

from __future__ import annotations

import math
import re

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.ops import unary_union

from queries import check_rules as text
from queries.check_common import Findings, judge, named_objects, pattern, vocabulary
from queries.check_facts import Facts, bearing, xy
from queries.check_rules import Rules

EPS = 1e-6
NON_BLOCKING = ("ceiling", "wall", "window")
FLAT = 0.05               # m: a carpet is walked on, not round, and is no place to walk up to
RINGS = (0.25, 0.4)       # stand points this far from a stop's footprint (<= stand_by_m)
FAR_RINGS = (0.6, 0.8)    # ... or, where none of those is free (a desk behind its chair), this far
PASSED_BY = 0.3           # m: a stop whose centre is this near an earlier walk was passed on it
BACK_AGAIN = 1.0          # m: a stop this near a stop before the last one: the route came back
RING_STEP = 0.2
SAMPLE_STEP = 0.05
MIN_LEG = 0.3             # a shorter walk has no direction (docs/ground-truth.md)
NEAR_THING = 1.0          # by a thing on furniture: by the furniture and this near the thing
CODES = {"none": 0, "turn left": 1, "turn right": 2, "turn back": 3}
# "beginning at the picture" with a desk before it: one may also stand before the desk, facing the
# picture over it (docs/ground-truth.md "Route plan"): where floor furniture covers half of the
# strip FRONT_NEAR deep before a thing on a wall, the free places straight before it up to
# FRONT_FAR out are places by it too, for the first turn
FRONT_NEAR = 0.6
FRONT_FAR = 1.6
FRONT_STEP = 0.05


def turn_name(angle_ccw: float, th: Rules) -> str | None:
    a = abs(angle_ccw)
    if a <= th.turn_none_deg + EPS:
        return "none"
    if th.turn_side[0] - EPS <= a <= th.turn_side[1] + EPS:
        return "turn left" if angle_ccw > 0 else "turn right"
    return "turn back" if a >= th.turn_back_deg - EPS else None


def nearer_turn(angle_ccw: float, th: Rules) -> str:
    """The turn a viewer reads where the angle is unclear: the class on its side of the middle of
    the unclear band (45 deg between no turn and a side turn, 135 deg - VSI's "back" line -
    between a side turn and turning back)."""
    a = abs(angle_ccw)
    if a < (th.turn_none_deg + th.turn_side[0]) / 2:
        return "none"
    if a < (th.turn_side[1] + th.turn_back_deg) / 2:
        return "turn left" if angle_ccw > 0 else "turn right"
    return "turn back"


def _codes(angle_ccw: np.ndarray, th: Rules) -> np.ndarray:
    a = np.abs(angle_ccw)
    out = np.full(a.shape, -1)
    out[a <= th.turn_none_deg + EPS] = 0
    side = (a >= th.turn_side[0] - EPS) & (a <= th.turn_side[1] + EPS)
    out[side & (angle_ccw > 0)] = 1
    out[side & (angle_ccw < 0)] = 2
    out[a >= th.turn_back_deg - EPS] = 3
    return out


def centre_turns(points, facing, th: Rules) -> list:
    """Turn before each leg along the centres, the first relative to facing the facing point."""
    out = []
    for k in range(len(points) - 1):
        prev = facing if k == 0 else (2 * points[k][0] - points[k - 1][0], 2 * points[k][1] - points[k - 1][1])
        out.append(turn_name(-bearing(points[k], prev, points[k + 1]), th))
    return out


def free_space(facts: Facts, room: str, th: Rules):
    free = Polygon(facts.room[room].polygon).buffer(-th.clearance_m, join_style="mitre")
    blocks = [Polygon(o.footprint).buffer(th.clearance_m) for o in facts.objects_in(room)
              if o.support not in NON_BLOCKING and o.size[2] >= FLAT]
    return free.difference(unary_union(blocks)) if blocks else free


def doorway_free_space(facts: Facts, rooms, door, th: Rules):
    """Two rooms' free space joined through one doorway: the opening less the clearance at each
    jamb, across the wall as deep as the clearance on each side (a robot passes its middle)."""
    c, (x, y) = th.clearance_m, door.position
    along, across = door.width / 2 - c, c + 0.02
    strip = shapely.box(x - across, y - along, x + across, y + along) if door.wall_axis == "y" \
        else shapely.box(x - along, y - across, x + along, y + across)
    free = unary_union([Polygon(facts.room[r].polygon).buffer(-c, join_style="mitre") for r in rooms] + [strip])
    blocks = [Polygon(o.footprint).buffer(c) for r in rooms for o in facts.objects_in(r)
              if o.support not in NON_BLOCKING and o.size[2] >= FLAT]
    return free.difference(unary_union(blocks)) if blocks else free


def walk_up_target(obj, facts: Facts):
    """The floor furniture or wall thing one walks up to for `obj` (itself, or what it rests
    on, followed down); None when it hangs from the ceiling."""
    chain = [obj, *facts.under(obj)]
    if chain[-1].support == "floor" and chain[-1].size[2] < FLAT:
        return None
    return chain[-1] if chain[-1].support in ("floor", "wall", "window") else None


def stand_points(obj, free, facts: Facts) -> np.ndarray:
    """Points by `obj` (two rings around its footprint); for a thing on furniture, the rings
    around the furniture within NEAR_THING of the thing."""
    target = walk_up_target(obj, facts)
    if target is None:
        return np.zeros((0, 2))
    shape = Polygon(target.footprint)
    for rings in (RINGS, FAR_RINGS):
        pts = []
        for d in rings:
            ring = shape.buffer(d).exterior
            n = max(8, int(ring.length / RING_STEP))
            pts += [ring.interpolate(i / n, normalized=True).coords[0] for i in range(n)]
        arr = np.array(pts)
        keep = shapely.contains_xy(free, arr[:, 0], arr[:, 1])
        if target is not obj:
            keep &= shapely.distance(Polygon(obj.footprint), shapely.points(arr)) <= NEAR_THING + EPS
        if keep.any():
            return arr[keep]
    return np.zeros((0, 2))


def before_points(obj, free, facts: Facts) -> np.ndarray:
    """Free places straight before a thing on a wall that has floor furniture before it: a
    lattice over its width (along the wall, from its yaw), out to FRONT_FAR from its face."""
    if obj.support not in ("wall", "window") or getattr(obj, "doorway", None) is not None:   # not a door
        return np.zeros((0, 2))
    out = np.array([math.cos(math.radians(obj.yaw)), math.sin(math.radians(obj.yaw))])
    along = np.array([-out[1], out[0]])
    half = obj.size[0] / 2
    s, d = np.meshgrid(np.arange(-half, half + EPS, FRONT_STEP),
                       np.arange(FRONT_STEP, FRONT_FAR, FRONT_STEP))
    pts = np.array(xy(obj)) + s.reshape(-1, 1) * along + d.reshape(-1, 1) * out
    near = d.ravel() <= FRONT_NEAR
    furniture = [Polygon(o.footprint) for o in facts.objects_in(obj.room) if o.support == "floor" and o.size[2] >= FLAT]
    if not furniture:
        return np.zeros((0, 2))
    covered = shapely.contains_xy(unary_union(furniture), pts[near, 0], pts[near, 1])
    if covered.mean() < 0.5:
        return np.zeros((0, 2))
    return pts[shapely.contains_xy(free, pts[:, 0], pts[:, 1])]


def _legs(free, p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(walkable[i, j], heading_deg[i, j]) of the straight walks p[i] -> q[j]."""
    d = q[None, :, :] - p[:, None, :]
    length = np.hypot(d[..., 0], d[..., 1])
    k = max(2, int(math.ceil(length.max() / SAMPLE_STEP)) + 1)
    t = np.linspace(0.0, 1.0, k)
    xs = p[:, None, None, 0] + d[..., None, 0] * t
    ys = p[:, None, None, 1] + d[..., None, 1] * t
    ok = shapely.contains_xy(free, xs.ravel(), ys.ravel()).reshape(xs.shape).all(axis=-1)
    return ok & (length >= MIN_LEG), np.degrees(np.arctan2(d[..., 1], d[..., 0]))


def _wrap(a: np.ndarray) -> np.ndarray:
    return (a + 180.0) % 360.0 - 180.0


def walk_exists(facts: Facts, th: Rules, free, stops, facing_xy, turns: list[str], door=None) -> bool:
    """Is there a walk of straight legs stop to stop whose turns are `turns`? Each stop is
    stood by inside its own room; the `door` walked through is stood by just through it, in
    the room it leads to (the walk there passes the opening)."""
    if free.is_empty:
        return False
    points = []
    for o in stops:
        p = stand_points(o, free, facts)
        room = o.room
        if door is not None and getattr(o, "doorway", None) is door:
            room = next(r for r in door.rooms if r != o.room)
        shape = Polygon(facts.room[room].polygon)
        points.append(p[shapely.covers(shape, shapely.points(p))] if len(p) else p)
    if any(len(p) == 0 for p in points):
        return False
    ok = heading = None
    for k in range(len(stops) - 1):
        walk, h = _legs(free, points[k], points[k + 1])
        want = CODES[turns[k]]
        if k == 0:
            p = points[0]
            start = np.degrees(np.arctan2(facing_xy[1] - p[:, 1], facing_xy[0] - p[:, 0]))
            ok = walk & (_codes(_wrap(h - start[:, None]), th) == want)
        else:
            turn_ok = _codes(_wrap(h[None, :, :] - heading[:, :, None]), th) == want
            ok = walk & (ok[:, :, None] & turn_ok).any(axis=0)
        heading = h
        if not ok.any():
            return False
    return bool(ok.any())


def route_plan(rec, facts: Facts, th: Rules, **_) -> Findings:
    m = pattern(text.ROUTE).match(rec["question"])
    if not m:
        return [("format", "question does not follow the route-plan template")]
    steps = re.split(r"\s*\d+\. ", " " + m["steps"])[1:]
    forward = pattern(text.ROUTE_FORWARD)
    stops, slots = [], []
    for step in steps:
        if step == text.ROUTE_FILL:
            slots.append(len(stops))
        elif forward.match(step):
            stops.append(forward.match(step)["x"])
        else:
            return [("format", f"unknown route step {step!r}")]
    if not stops or stops[-1] != m["goal"]:
        return [("format", "the last step does not reach the goal")]
    (start, facing, *marks), found = named_objects(facts, [m["start"], m["facing"], *stops])
    if found:
        return found
    room, door = start.room, None
    if marks[-1].room != room and len(marks) >= 2 and getattr(marks[-2], "doorway", None) is not None:
        door = marks[-2].doorway    # through the start room's door into the next room, to the goal
        if marks[-2].room != room or set(door.rooms) != {room, marks[-1].room} or not facts.walked_through(door):
            return [("ambiguity", f"the route's door {marks[-2].id} does not lead from the start's room "
                                  "to the goal's, or the walk never went through it")]
    if any(o.room != room for o in (facing, *(marks[:-1] if door else marks))):
        return [("ambiguity", "route objects are not in one room (nor the goal through its door)")]
    for o in (start, *marks):   # a ceiling light or a carpet is no place to walk up to
        if walk_up_target(o, facts) is None:
            found.append(("ambiguity", f"one cannot walk up to {o.id}: it hangs from the ceiling or lies flat"))
    route = [start, *marks]
    for a, b in zip(route, route[1:]):
        ta, tb = walk_up_target(a, facts), walk_up_target(b, facts)
        if ta is not None and ta is tb:
            found.append(("ambiguity", f"{a.id} and {b.id} are on one piece of furniture: that walk has no direction"))
    for k in range(2, len(route)):     # a planned route does not pass its next stop and come back
        here = shapely.Point(xy(route[k]))
        for a, b in zip(route[:k - 1], route[1:k]):
            if here.distance(shapely.LineString([xy(a), xy(b)])) < PASSED_BY - EPS:
                found.append(("ambiguity", f"the route passes {route[k].id} on the way to {b.id} and comes back"))
        target = walk_up_target(route[k], facts)
        for earlier in route[:k - 1]:   # ... nor goes away from a place and comes back to it
            there = walk_up_target(earlier, facts)
            if target is not None and there is not None and Polygon(target.footprint).distance(
                    Polygon(there.footprint)) < BACK_AGAIN - EPS:
                found.append(("ambiguity", f"the route leaves {earlier.id} and comes back beside it at {route[k].id}"))
    centres = [xy(start), *(xy(o) for o in marks)]
    if min(math.dist(p, q) for p, q in zip([xy(facing), *centres], centres)) < th.min_pair_distance_m - EPS:
        found.append(("margin", "objects too close for stable turns"))
    turns = centre_turns(centres, xy(facing), th)
    if None in turns:
        return found + [("margin", f"a turn within the margin of a boundary: {turns}")]
    # wherever one stands by the start (the stand points the walk check uses, and before the
    # furniture before a thing on a wall), the first turn must read no other way, not even past
    # the middle of an unclear band: by a 2 m sofa it can be a left at one end, a turn back at
    # the other
    free = free_space(facts, room, th)
    here = [*stand_points(start, free, facts), *before_points(start, free, facts)]
    other = {nearer_turn(-bearing(tuple(p), xy(facing), centres[1]), th) for p in here}
    other -= {turns[0]}
    if other:
        found.append(("ambiguity", f"the first turn is {turns[0]} from the start's centre but {sorted(other)[0]} "
                                   "from elsewhere by it"))
    if door is not None:   # the turn at the door reads the same from straight through the opening
        into = Polygon(facts.room[marks[-1].room].polygon)
        normal = (1.0, 0.0) if door.wall_axis == "y" else (0.0, 1.0)
        if not into.covers(shapely.Point(door.position[0] + 0.3 * normal[0], door.position[1] + 0.3 * normal[1])):
            normal = (-normal[0], -normal[1])
        ahead = (door.position[0] + normal[0], door.position[1] + normal[1])
        through = turn_name(-bearing(door.position, ahead, xy(marks[-1])), th)
        if through != turns[-1]:
            found.append(("ambiguity", f"the turn at the door is {turns[-1]} from the way one came but "
                                       f"{through or 'unclear'} from straight through the opening"))
    asked = [t for k, t in enumerate(turns) if k in slots]
    if [t for k, t in enumerate(turns) if k not in slots and t != "none"]:
        found.append(("disagreement", f"a turn the steps do not ask for: {turns}"))
    if "none" in asked:
        found.append(("disagreement", f"a step asks for a turn where the route goes straight on: {turns}"))
    free = doorway_free_space(facts, door.rooms, door, th) if door else free_space(facts, room, th)
    if not walk_exists(facts, th, free, [start, *marks], xy(facing), turns, door):
        found.append(("disagreement", f"no walk of straight legs between the stops makes the turns {turns}"))
    turns_allowed = ("turn left", "turn right", "turn back")
    found += vocabulary(rec, [o for o in rec["options"] if len(o.split(", ")) == len(slots)
                              and all(t in turns_allowed for t in o.split(", "))])
    return found + judge(rec, [o.split(", ") == asked for o in rec["options"]])
