"""Per-task recomputation for the checker: parse the question, resolve what it names, compute
the truth of every option from the scene files, and report what does not hold.

Each function returns a list of (kind, message) findings for one MCQ or number record.
"""

from __future__ import annotations

import math
import re

from queries import text
from queries.check_facts import Facts, angular_gap, bearing, centroid, polygon_gap
from queries.check_layout import LayoutCheck
from queries.params import LETTERS, Thresholds

Findings = list[tuple[str, str]]


def pattern(template: str) -> re.Pattern:
    """A regex matching a filled template; each {slot} becomes a named group."""
    parts = re.split(r"\{(\w+)\}", template)
    out, seen = "", set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out += re.escape(part)
        elif part in seen:
            out += f"(?P={part})"
        else:
            seen.add(part)
            out += f"(?P<{part}>.+?)"
    return re.compile(f"^{out}$")


def judge(rec: dict, truths: list[bool | None]) -> Findings:
    """Exactly one clearly true option, at the answer letter; every other clearly false."""
    found: Findings = []
    for k, t in enumerate(truths):
        if t is None:
            found.append(("ambiguity", f"option {LETTERS[k]} ({rec['options'][k]!r}) is neither clearly true nor false"))
    true = [k for k, t in enumerate(truths) if t]
    if len(true) != 1:
        found.append(("ambiguity", f"{len(true)} true options: {[LETTERS[k] for k in true]}"))
    elif LETTERS[true[0]] != rec["answer"]:
        found.append(("disagreement", f"recomputed answer {LETTERS[true[0]]}, record says {rec['answer']}"))
    return found


def _objects(facts: Facts, names) -> tuple[list, Findings]:
    objs, found = [], []
    for name in names:
        o = facts.resolve(name)
        if o is None:
            found.append(("ungrounded", f"{name!r} names no single object"))
        elif not facts.object_visible(o.id):
            found.append(("ungrounded", f"{name!r} ({o.id}) is not seen in the video"))
        objs.append(o)
    return objs, found


def _rooms_visible(facts: Facts, rooms) -> Findings:
    return [("ungrounded", f"room {r!r} unknown or not seen") for r in rooms
            if r not in facts.room or not facts.room_visible(r)]


# ---------------------------------------------------------------------------- extractive
def object_counting(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    m = pattern(text.COUNTING).match(rec["question"])
    if not m:
        return [("format", "question does not follow the counting template")]
    cat, room = m["category"], m["room"]
    objs = [o for o in facts.scene.objects if o.category == cat and o.room == room]
    found = _rooms_visible(facts, [room])
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
    if any(b - a < th.appearance_gap_s - 1e-9 for a, b in zip(times, times[1:])):
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
    (a, b, c), found = _objects(facts, (m["a"], m["b"], m["c"]))
    if found:
        return found
    d = rec.get("derivation", {})
    if [d.get("standing"), d.get("facing"), d.get("target")] != [a.id, b.id, c.id]:
        found.append(("disagreement", "derivation names other objects than the question"))
    if len({a.room, b.room, c.room}) != 1:
        found.append(("ambiguity", "objects are not in one room"))
    if min(math.dist(a.xy, b.xy), math.dist(a.xy, c.xy)) < th.min_pair_distance_m:
        found.append(("margin", "objects too close for a stable direction"))
    bear = bearing(a.xy, b.xy, c.xy)
    if min(angular_gap(bear, x) for x in DIRECTION_BOUNDS[level]) < th.angle_margin_deg:
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
    (target, *objs), found = _objects(facts, [m["target"], *names])
    if found:
        return found
    gaps = sorted((polygon_gap(target.footprint, o.footprint), n) for o, n in zip(objs, names))
    (d1, nearest), (d2, _) = gaps[0], gaps[1]
    if d2 < d1 * (1 + th.distance_margin) - 1e-9 or d2 - d1 < th.distance_gap_m - 1e-9:
        found.append(("margin", f"nearest {d1:.3f} m and second {d2:.3f} m too close"))
    return found + judge(rec, [o == nearest for o in rec["options"]])


def _turn(angle_ccw: float, th: Thresholds) -> str | None:
    a = abs(angle_ccw)
    if a <= th.turn_none_deg:
        return "none"
    if th.turn_side_deg[0] <= a <= th.turn_side_deg[1]:
        return "turn left" if angle_ccw > 0 else "turn right"
    return "turn back" if a >= th.turn_back_deg else None


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
    (start, facing, *marks), found = _objects(facts, [m["start"], m["facing"], *stops])
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
        if polygon_gap([p, p, p], o.footprint) > reach:
            found.append(("disagreement", f"waypoint {p} is not by {o.id}"))
    return found


# ---------------------------------------------------------------------------- abstractive
def memory_action(rec, facts: Facts, th: Thresholds, onto=None, **_) -> Findings:
    m = pattern(text.MEMORY_ACTION).match(rec["question"])
    if not m or m["ordinal"] not in text.ORDINALS:
        return [("format", "question does not follow the memory-action template")]
    k = text.ORDINALS.index(m["ordinal"])
    order = facts.room_order()
    found: Findings = []
    if order != facts.event_order() and facts.event_order():
        found.append(("disagreement", f"room order from frames {order} differs from events"))
    if k >= len(order):
        return found + [("ungrounded", f"there is no {m['ordinal']} room")]
    room = order[k]
    found += _rooms_visible(facts, [room])
    objs = [o for o in facts.scene.objects if o.room == room]
    possible = {a for o in objs if facts.object_visible(o.id) for a in onto.affordances(o.category)}
    anywhere = {a for o in objs for a in onto.affordances(o.category)}
    truths = []
    for opt in rec["options"]:
        act = opt.lower()
        if act not in onto.activities:
            found.append(("format", f"{opt!r} is not an activity of the ontology"))
        truths.append(True if act in possible else (False if act not in anywhere else None))
    return found + judge(rec, truths)


def _compass(angle_ccw_from_east: float) -> str:
    return ("East", "North", "West", "South")[int(((angle_ccw_from_east + 45) % 360) // 90)]


def _room_angle(facts, a, b) -> float:
    """World angle (0 = east, counter-clockwise) of room a's centre seen from room b's."""
    ca, cb = centroid(list(facts.room[a].polygon)), centroid(list(facts.room[b].polygon))
    return math.degrees(math.atan2(ca[1] - cb[1], ca[0] - cb[0]))


def _covisible(facts, a, b) -> Findings:
    shared = facts.rooms_share_frame(a, b)
    if shared is None:
        return [("ungrounded", "visibility.json has no rooms: cannot show the rooms never share a frame")]
    return [("trajectory", f"rooms {a!r} and {b!r} are visible in one frame")] if shared else []


def map_direction(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    m = pattern(text.MAP_DIRECTION).match(rec["question"])
    if not m:
        return [("format", "question does not follow the map-direction template")]
    rooms = [m["a"], m["b"], m["c"], m["d"]]
    found = _rooms_visible(facts, rooms)
    if found:
        return found
    bounds = (45, 135, -135, -45)
    anchor = _room_angle(facts, m["a"], m["b"])
    query = _room_angle(facts, m["c"], m["d"])
    for what, ang in (("anchor", anchor), ("query", query)):
        if min(angular_gap(ang, x) for x in bounds) < th.angle_margin_deg:
            found.append(("margin", f"{what} direction {ang:.1f} deg near a compass boundary"))
    if _compass(anchor).lower() != m["anchor"]:
        found.append(("disagreement", f"anchor says {m['anchor']}, scene gives {_compass(anchor)}"))
    found += _covisible(facts, m["c"], m["d"])
    return found + judge(rec, [o == _compass(query) for o in rec["options"]])


def map_scale(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    m = pattern(text.MAP_SCALE).match(rec["question"])
    if not m:
        return [("format", "question does not follow the map-scale template")]
    found = _rooms_visible(facts, [m["a"], m["b"], m["c"], m["d"]])
    if found:
        return found
    def d2(x, y):
        cx, cy = centroid(list(facts.room[x].polygon)), centroid(list(facts.room[y].polygon))
        return (cx[0] - cy[0]) ** 2 + (cx[1] - cy[1]) ** 2
    ratio = d2(m["c"], m["d"]) / d2(m["a"], m["b"])
    truths = []
    for opt in rec["options"]:
        v = float(opt)
        if abs(ratio - v) <= th.scale_correct_tol * v + 1e-9:
            truths.append(True)
        elif abs(v - ratio) > th.scale_distractor_gap * ratio:
            truths.append(False)
        else:
            truths.append(None)
    found += _covisible(facts, m["c"], m["d"])
    return found + judge(rec, truths)


STATEMENT_PATTERNS = {kind: pattern(t) for kind, t in text.STATEMENTS.items()}


def statement_truth(s: str, facts: Facts, lay: LayoutCheck):
    """(truth or None, rooms compared, kind) of one simulation statement; kind None if unparsed."""
    for kind, pat in STATEMENT_PATTERNS.items():
        m = pat.match(s)
        if not m:
            continue
        g = m.groupdict()
        rooms = [g[k] for k in ("a", "b", "c") if k in g]
        if any(r not in facts.room for r in rooms):
            continue
        if kind == "adjacent":
            return lay.adjacent(g["a"], g["b"]), (g["a"], g["b"]), kind
        if kind == "opposite":
            return lay.opposite(g["a"], g["b"]), (g["a"], g["b"]), kind
        if kind == "corner":
            return lay.corner(g["a"]), (), kind
        if kind == "between":
            return lay.between(g["a"], g["b"], g["c"]), (g["b"], g["c"]), kind
        routes = lay.routes(g["a"], g["b"])
        if routes is None or not routes:
            return None, (g["a"], g["b"]), kind
        if kind == "one_way":
            return len(routes) == 1, (g["a"], g["b"]), kind
        if kind == "n_ways":
            return len(routes) == int(g["n"]), (g["a"], g["b"]), kind
        if kind == "passed":
            if len(routes) != 1:
                return None, (g["a"], g["b"]), kind
            middle = [r for r in routes[0][1:-1] if r in facts.room]
            n = int(g["n"])
            cat = next((c for c in sorted({o.category for o in facts.scene.objects})
                        if text.plural(c, n) == g["objects"]), None)
            if cat is None:
                return None, (g["a"], g["b"]), kind
            objs = [o for o in facts.scene.objects if o.category == cat and o.room in middle]
            if n == len(objs):
                return (True if all(facts.object_visible(o.id) for o in objs) else None), (g["a"], g["b"]), kind
            return (False if n > len(objs) else None), (g["a"], g["b"]), kind
    return None, (), None


def simulation(rec, facts: Facts, th: Thresholds, layout: LayoutCheck = None, **_) -> Findings:
    m = pattern(text.OPPOSITE).match(rec["question"])
    if m:
        x = m["room"]
        found = _rooms_visible(facts, [x, *rec["options"]])
        if found:
            return found
        others = [r for r in facts.room if r != x and r not in rec["options"]]
        if any(layout.opposite(x, r) is not False for r in others):
            found.append(("ambiguity", "a room not among the options may be opposite too"))
        truths = [layout.opposite(x, o) for o in rec["options"]]
        y = rec["answer_text"]
        found += _covisible(facts, x, y)
        return found + judge(rec, truths)
    if rec["question"] != text.SIMULATION:
        return [("format", "question does not follow a simulation template")]
    found, truths = [], []
    for opt in rec["options"]:
        truth, compared, kind = statement_truth(opt, facts, layout)
        if kind is None:
            found.append(("format", f"statement {opt!r} not understood"))
        found += _rooms_visible(facts, [r for r in compared])
        truths.append(truth)
        if truth and len(compared) == 2:
            found += _covisible(facts, *compared)
    return found + judge(rec, truths)


def global_counting(rec, facts: Facts, th: Thresholds, **_) -> Findings:
    m = pattern(text.GLOBAL_COUNTING).match(rec["question"])
    if not m:
        return [("format", "question does not follow the global-counting template")]
    cats = [c for c in sorted({o.category for o in facts.scene.objects}) if text.plural(c) == m["plural"]]
    if len(cats) != 1:
        return [("ungrounded", f"{m['plural']!r} names no single category")]
    objs = [o for o in facts.scene.objects if o.category == cats[0]]
    found: Findings = []
    if len({o.room for o in objs}) < 2:
        found.append(("trajectory", "the category is in fewer than 2 rooms"))
    hidden = [o.id for o in objs if not facts.object_visible(o.id)]
    if hidden:
        found.append(("ungrounded", f"instances never seen: {hidden}"))
    elif set.intersection(*(facts.good_obj.get(o.id, set()) for o in objs)):
        found.append(("trajectory", "every instance is visible in one frame"))
    if rec["answer"] != len(objs):
        found.append(("disagreement", f"recounted {len(objs)}, record says {rec['answer']}"))
    return found


CHECKS = {
    "appearance_order": appearance_order, "relative_direction": relative_direction,
    "relative_distance": relative_distance, "route_plan": route_plan,
    "object_counting": object_counting, "memory_action": memory_action,
    "map_direction": map_direction, "map_scale": map_scale, "simulation": simulation,
    "global_counting": global_counting,
}
