"""Checker recomputation of the extractive tasks (counting, appearance order, relative
direction and distance, route plan) from the scene files."""

from __future__ import annotations

import math
import re

from queries import text
from queries.check_common import Findings, judge, named_objects, pattern, rooms_visible
from queries.check_facts import Facts, angular_gap, bearing, point_polygon_gap, polygon_gap
from queries.params import Thresholds

EPS = 1e-6  # thresholds are met within rounding: the generator's own arithmetic differs


def object_counting(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    m = pattern(text.COUNTING).match(rec["question"])
    if not m:
        return [("format", "question does not follow the counting template")]
    cat, room = m["category"], m["room"]
    objs = [o for o in facts.scene.objects if o.category == cat and o.room == room]
    found = rooms_visible(facts, [room])
    if len(objs) < 2:
        found.append(("format", f"counting asks about {len(objs)} instance(s); needs 2 or more"))
    hidden = [o.id for o in objs if not facts.object_visible(o.id)]
    if hidden:
        found.append(("ungrounded", f"instances never seen: {hidden}"))
    if rec["answer"] != len(objs):
        found.append(("disagreement", f"recounted {len(objs)}, record says {rec['answer']}"))
    return found


def appearance_order(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    m = pattern(text.APPEARANCE).match(rec["question"])
    if not m:
        return [("format", "question does not follow the appearance-order template")]
    cats = m["cats"].split(", ")
    found: Findings = []
    first = {}
    for c in cats:
        objs = [o for o in facts.scene.objects if o.category == c]
        if not any(facts.object_visible(o.id) for o in objs):
            found.append(("ungrounded", f"category {c!r} never seen"))
            continue
        first[c] = min(min(facts.good_obj[o.id]) for o in objs if facts.object_visible(o.id))
        flash = min((min(facts.good_obj.get(o.id) or {math.inf}) for o in objs), default=math.inf)
        if flash < first[c]:
            found.append(("margin", f"an unseen {c} shows before the first clear view of one"))
    if found:
        return found
    truth = sorted(cats, key=lambda c: first[c])
    times = [first[c] / facts.fps for c in truth]
    if any(b - a < th.appearance_gap_s - EPS for a, b in zip(times, times[1:])):
        found.append(("margin", f"first appearances closer than {th.appearance_gap_s} s: {times}"))
    truths = []
    for opt in rec["options"]:
        order = opt.split(", ")
        if sorted(order) != sorted(cats):
            found.append(("format", f"option {opt!r} is not an ordering of {cats}"))
        truths.append(order == truth)
    return found + judge(rec, truths)


DIRECTION_BOUNDS = {"easy": (0, 180), "medium": (0, 135, -135), "hard": (0, 90, -90, 180)}


def _direction(level: str, b: float) -> str:
    """Answer for a clockwise bearing b (0 = ahead, +90 = right)."""
    side = "right" if b > 0 else "left"
    if level == "easy":
        return side
    if level == "medium":
        return "back" if abs(b) >= 135 else side
    return ("front-" if abs(b) < 90 else "back-") + side


def relative_direction(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    for level, template in text.DIRECTION.items():
        m = pattern(template).match(rec["question"])
        if m:
            break
    else:
        return [("format", "question does not follow a relative-direction template")]
    (a, b, c), found = named_objects(facts, (m["a"], m["b"], m["c"]))
    if found:
        return found
    d = rec.get("derivation", {})
    if [d.get("standing"), d.get("facing"), d.get("target")] != [a.id, b.id, c.id]:
        found.append(("disagreement", "derivation names other objects than the question"))
    if len({a.room, b.room, c.room}) != 1:
        found.append(("ambiguity", "objects are not in one room"))
    if min(math.dist(a.xy, b.xy), math.dist(a.xy, c.xy)) < th.min_pair_distance_m - EPS:
        found.append(("margin", "objects too close for a stable direction"))
    bear = bearing(a.xy, b.xy, c.xy)
    if min(angular_gap(bear, x) for x in DIRECTION_BOUNDS[level]) < th.angle_margin_deg - EPS:
        found.append(("margin", f"bearing {bear:.1f} deg within {th.angle_margin_deg} of a boundary"))
    answer = _direction(level, bear)
    return found + judge(rec, [o == answer for o in rec["options"]])


def relative_distance(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    m = pattern(text.DISTANCE).match(rec["question"])
    if not m:
        return [("format", "question does not follow the relative-distance template")]
    names = m["objects"].split(", ")
    if sorted(names) != sorted(rec["options"]):
        return [("format", "options differ from the objects the question lists")]
    (target, *objs), found = named_objects(facts, [m["target"], *names])
    if found:
        return found
    gaps = sorted((polygon_gap(target.footprint, o.footprint), n) for o, n in zip(objs, names))
    (d1, nearest), (d2, _) = gaps[0], gaps[1]
    if d2 < d1 * (1 + th.distance_margin) - EPS or d2 - d1 < th.distance_gap_m - EPS:
        found.append(("margin", f"nearest {d1:.3f} m and second {d2:.3f} m too close"))
    return found + judge(rec, [o == nearest for o in rec["options"]])


def _turn(angle_ccw: float, th: Thresholds) -> str | None:
    a = abs(angle_ccw)
    if a <= th.turn_none_deg + EPS:
        return "none"
    if th.turn_side_deg[0] - EPS <= a <= th.turn_side_deg[1] + EPS:
        return "turn left" if angle_ccw > 0 else "turn right"
    return "turn back" if a >= th.turn_back_deg - EPS else None


def _turns(points, facing, th) -> list:
    """Turn before each leg, the first relative to facing the facing point."""
    out, prev = [], facing
    for k in range(len(points) - 1):
        # a right turn has a positive clockwise bearing; _turn wants counter-clockwise
        out.append(_turn(-bearing(points[k], prev if k == 0 else
                                  (2 * points[k][0] - points[k - 1][0], 2 * points[k][1] - points[k - 1][1]),
                                  points[k + 1]), th))
    return out


def route_plan(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    m = pattern(text.ROUTE).match(rec["question"])
    if not m:
        return [("format", "question does not follow the route-plan template")]
    steps = re.split(r"\s*\d+\. ", " " + m["steps"])[1:]
    forward = pattern(text.ROUTE_FORWARD)
    stops, slots = [], []
    for k, step in enumerate(steps):
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
    room = start.room
    if any(o.room != room for o in (facing, *marks)):
        found.append(("ambiguity", "route objects are not in one room"))
    centres = [start.xy, *(o.xy for o in marks)]
    turns_c = _turns(centres, facing.xy, th)
    way = [tuple(p) for p in rec.get("derivation", {}).get("waypoints", [])]
    if len(way) != len(centres):
        return found + [("disagreement", "waypoints do not match the steps")]
    turns_w = _turns(way, facing.xy, th)
    if None in turns_c or turns_c != turns_w:
        found.append(("margin", f"turns unclear or walk and centres disagree: {turns_w} vs {turns_c}"))
    asked = [t for k, t in enumerate(turns_c) if k in slots]
    if [t for k, t in enumerate(turns_c) if k not in slots and t != "none"]:
        found.append(("disagreement", "a turn the steps do not ask for"))
    found += _walkable(facts, th, room, way, [start, *marks])
    return found + judge(rec, [o.split(", ") == asked for o in rec["options"]])


def _walkable(facts: Facts, th: Thresholds, room: str, way, stops) -> Findings:
    """Each leg stays clear of walls and furniture, and ends by its stop."""
    from shapely.geometry import LineString, Polygon
    free = Polygon(facts.room[room].polygon).buffer(-th.clearance_m + 0.01, join_style="mitre")
    for o in facts.scene.objects:
        if o.room == room and o.support not in ("ceiling", "wall", "window"):
            free = free.difference(Polygon(o.footprint).buffer(th.clearance_m - 0.01))
    found = []
    for p, q in zip(way, way[1:]):
        if not free.covers(LineString([p, q])):
            found.append(("disagreement", f"leg {p} -> {q} is not walkable"))
    reach = th.clearance_m + 2 * th.grid_cell_m
    for p, o in zip(way, stops):
        if point_polygon_gap(p, o.footprint) > reach:
            found.append(("disagreement", f"waypoint {p} is not by {o.id}"))
    return found
