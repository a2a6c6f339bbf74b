"""Checker recomputation of the abstractive tasks (memory-action, map direction, map scale,
simulation, global counting) from the scene files."""

from __future__ import annotations

import math

from queries import check_rules as text
from queries.check_common import Findings, judge, pattern, rooms_told, rooms_visible, vocabulary
from queries.check_facing import shows_facing
from queries.check_facts import Facts, angular_gap, centroid
from queries.check_layout import LayoutCheck
from queries.check_rules import Rules, ordinal_index
from assets.vocabulary import plural

EPS = 1e-6  # thresholds are met within rounding: the generator's own arithmetic differs


class CatalogActivities:
    """Activities and the objects that make each possible or arguable, from the asset data
    (assets/activities.yaml through assets.activities); the rule is applied here, by this checker."""

    def __init__(self):
        from assets import activities
        self._table = activities.load()
        self.activities = tuple(self._table)

    def possible(self, categories) -> set[str]:
        return {name for name, act in self._table.items() if act.possible(categories)}

    def arguable(self, categories) -> set[str]:
        return {name for name, act in self._table.items() if act.arguable(categories)}


def memory_action(rec, facts: Facts, th: Rules, onto=None, **_) -> Findings:
    m = pattern(text.MEMORY_ACTION).match(rec["question"])
    k = ordinal_index(m["ordinal"]) if m else None
    if k is None:
        return [("format", "question does not follow the memory-action template")]
    onto = onto or CatalogActivities()
    order = facts.room_order()
    found: Findings = []
    if order != facts.event_order() and facts.event_order():
        found.append(("disagreement", f"room order from frames {order} differs from events"))
    if k >= len(order):
        return found + [("ungrounded", f"there is no {m['ordinal']} room")]
    room = order[k]
    found += rooms_visible(facts, [room])
    if k == 0:
        found.append(("trajectory", "the first room needs no memory of the walk"))
    objs = facts.objects_in(room)
    # true: possible with what the video shows there; false: nothing there makes it arguable
    # (nor is it possible anywhere); otherwise a person could argue either way
    possible = onto.possible({o.category for o in objs if facts.object_clear(o.id)})
    arguable = onto.arguable({o.category for o in objs})
    truths = []
    for opt in rec["options"]:
        act = opt.lower()
        if act not in onto.activities:
            found.append(("format", f"{opt!r} is not an activity of the ontology"))
        truths.append(True if act in possible else (False if act not in arguable else None))
    return found + judge(rec, truths)


def _compass(angle_ccw_from_east: float) -> str:
    return ("East", "North", "West", "South")[int(((angle_ccw_from_east + 45) % 360) // 90)]


def _room_angle(facts, a, b) -> float:
    """World angle (0 = east, counter-clockwise) of room a's centre seen from room b's."""
    ca, cb = centroid(list(facts.room[a].polygon)), centroid(list(facts.room[b].polygon))
    return math.degrees(math.atan2(ca[1] - cb[1], ca[0] - cb[0]))


def _one_floor(facts, rooms) -> Findings:
    floors = {facts.room[r].floor for r in rooms}
    return [("ambiguity", f"rooms on {len(floors)} floors compared on one map")] if len(floors) > 1 else []


def _covisible(facts, a, b) -> Findings:
    shared = facts.rooms_share_frame(a, b)
    return [("trajectory", f"rooms {a!r} and {b!r} are visible in one frame")] if shared else []


def map_direction(rec, facts: Facts, th: Rules, **_) -> Findings:
    m = pattern(text.MAP_DIRECTION).match(rec["question"])
    if not m:
        return [("format", "question does not follow the map-direction template")]
    rooms = [m["a"], m["b"], m["c"], m["d"]]
    found = rooms_visible(facts, rooms) + rooms_told(facts, rooms) + _one_floor(facts, rooms)
    if found:
        return found
    bounds = (45, 135, -135, -45)
    anchor = _room_angle(facts, m["a"], m["b"])
    query = _room_angle(facts, m["c"], m["d"])
    for what, ang in (("anchor", anchor), ("query", query)):
        if min(angular_gap(ang, x) for x in bounds) < th.angle_margin_deg - EPS:
            found.append(("margin", f"{what} direction {ang:.1f} deg near a compass boundary"))
    if _compass(anchor).lower() != m["anchor"]:
        found.append(("disagreement", f"anchor says {m['anchor']}, scene gives {_compass(anchor)}"))
    # read as exactly true, the anchor turns the map: the asked direction must hold on that map too
    said = {"east": 0.0, "north": 90.0, "west": 180.0, "south": -90.0}.get(m["anchor"], 0.0)
    turned = query - (anchor - said)
    if min(angular_gap(turned, x) for x in bounds) < th.angle_margin_deg - EPS:
        found.append(("margin", f"query direction {turned:.1f} deg on the map turned to the anchor is near a compass boundary"))
    elif _compass(turned) != _compass(query):
        found.append(("ambiguity", f"the map turned to the anchor gives {_compass(turned)}, the plan {_compass(query)}"))
    found += _covisible(facts, m["c"], m["d"])
    found += vocabulary(rec, ("East", "North", "West", "South"))
    return found + judge(rec, [o == _compass(query) for o in rec["options"]])


def map_scale(rec, facts: Facts, th: Rules, **_) -> Findings:
    m = pattern(text.MAP_SCALE).match(rec["question"])
    if not m:
        return [("format", "question does not follow the map-scale template")]
    rooms = [m["a"], m["b"], m["c"], m["d"]]
    found = rooms_visible(facts, rooms) + rooms_told(facts, rooms) + _one_floor(facts, rooms)
    if found:
        return found

    def d2(x, y):
        cx, cy = centroid(list(facts.room[x].polygon)), centroid(list(facts.room[y].polygon))
        return (cx[0] - cy[0]) ** 2 + (cx[1] - cy[1]) ** 2
    ratio = d2(m["c"], m["d"]) / d2(m["a"], m["b"])
    truths = []
    for opt in rec["options"]:
        v = float(opt)
        if abs(ratio - v) <= th.scale_correct_tol * v + EPS:
            truths.append(True)
        elif abs(v - ratio) > th.scale_distractor_gap * ratio - EPS:
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
        if kind == "one_way":
            return lay.only_one_way(g["a"], g["b"]), (g["a"], g["b"]), kind
        routes = lay.routes(g["a"], g["b"])
        if kind == "passed":
            if not routes or len(routes) != 1 or not lay.every_door_seen():
                return None, (g["a"], g["b"]), kind
            middle = [r for r in routes[0][1:-1] if r in facts.room]
            n = int(g["n"])
            cat = next((c for c in sorted({o.category for o in facts.scene.objects})
                        if plural(c, n) == g["objects"]), None)
            if cat is None or not facts.countable(cat) or facts.confusable(cat):
                return None, (g["a"], g["b"]), kind
            objs = [o for o in facts.scene.objects if o.category == cat and o.room in middle]
            # counted with the rooms left and reached too (as a viewer may): both readings must agree
            with_ends = [o for o in facts.scene.objects if o.category == cat and o.room in (*middle, g["a"], g["b"])]
            if n == len(objs) == len(with_ends):
                return (True if all(facts.object_clear(o.id) for o in objs) else None), (g["a"], g["b"]), kind
            return (False if n > len(with_ends) else None), (g["a"], g["b"]), kind
    return None, (), None


def simulation(rec, facts: Facts, th: Rules, layout: LayoutCheck = None, **_) -> Findings:
    m = pattern(text.OPPOSITE).match(rec["question"])
    if m:
        x = m["room"]
        found = rooms_visible(facts, [x, *rec["options"]]) + rooms_told(facts, [x, *rec["options"]])
        if found:
            return found
        others = [r for r in facts.room if r != x and r not in rec["options"]]
        if any(layout.opposite_from(x, r) is not False for r in others):
            found.append(("ambiguity", "a room not among the options may be opposite too"))
        truths = [layout.opposite_from(x, o) for o in rec["options"]]
        y = rec["answer_text"]
        found += _covisible(facts, x, y) + _facing_shown(facts, x, y)
        return found + judge(rec, truths)
    if rec["question"] != text.SIMULATION:
        return [("format", "question does not follow a simulation template")]
    found, truths = [], []
    for opt in rec["options"]:
        truth, compared, kind = statement_truth(opt, facts, layout)
        if kind is None:
            found.append(("format", f"statement {opt!r} not understood"))
        found += rooms_visible(facts, compared) + rooms_told(facts, compared)
        truths.append(truth)
        if truth and len(compared) == 2:
            found += _covisible(facts, *compared)
        if truth and kind == "opposite":
            found += _facing_shown(facts, *compared)
    return found + judge(rec, truths)


def _facing_shown(facts: Facts, x: str, y: str) -> Findings:
    if shows_facing(facts, x, y):
        return []
    return [("ungrounded", f"the video never shows the {x} and the {y} facing each other across their hallway")]


def global_counting(rec, facts: Facts, th: Rules, **_) -> Findings:
    m = pattern(text.GLOBAL_COUNTING).match(rec["question"])
    if not m:
        return [("format", "question does not follow the global-counting template")]
    cats = [c for c in sorted({o.category for o in facts.scene.objects}) if plural(c) == m["plural"]]
    if len(cats) != 1:
        return [("ungrounded", f"{m['plural']!r} names no single category")]
    objs = [o for o in facts.scene.objects if o.category == cats[0]]
    found: Findings = []
    if not facts.countable(cats[0]):
        found.append(("format", f"one {cats[0]!r} object is several things a viewer would count"))
    if facts.confusable(cats[0]):
        found.append(("ambiguity", f"{cats[0]!r} could be taken for the look-alike {facts.confusable(cats[0])}"))
    if len({o.room for o in objs}) < 2:
        found.append(("trajectory", "the category is in fewer than 2 rooms"))
    hidden = [o.id for o in objs if not facts.object_visible(o.id)]
    if hidden:
        found.append(("ungrounded", f"instances never seen: {hidden}"))
    partial = [o.id for o in objs if o.id not in hidden and not facts.shown_whole(o.id)]
    if partial:
        found.append(("ungrounded", f"instances never shown whole enough to count: {partial}"))
    elif set.intersection(*(facts.good_obj.get(o.id, set()) for o in objs)):
        found.append(("trajectory", "every instance is visible in one frame"))
    if pairs := facts.never_together(objs):
        found.append(("ambiguity", f"look-alikes side by side never seen together: {pairs}"))
    if rec["answer"] != len(objs):
        found.append(("disagreement", f"recounted {len(objs)}, record says {rec['answer']}"))
    return found
