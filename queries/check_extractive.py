"""Checker recomputation of the extractive tasks (counting, appearance order, relative
direction and distance, route plan) from the scene files."""

from __future__ import annotations

import math

from queries import check_rules as text
from queries.check_common import Findings, judge, named_objects, pattern, rooms_told, rooms_visible, vocabulary
from queries.check_facts import Facts, angular_gap, bearing, box_gap, xy
from queries.check_rules import Rules

EPS = 1e-6  # thresholds are met within rounding: the generator's own arithmetic differs


def object_counting(rec, facts: Facts, th: Rules, **_) -> Findings:
    m = pattern(text.COUNTING).match(rec["question"])
    if not m:
        return [("format", "question does not follow the counting template")]
    cat, room = facts.category_named(m["category"]), m["room"]
    if cat is None:
        return [("ungrounded", f"{m['category']!r} names no category of the scene")]
    objs = [o for o in facts.scene.objects if o.category == cat and o.room == room]
    found = rooms_visible(facts, [room]) + rooms_told(facts, [room])
    if not facts.countable(cat):
        found.append(("format", f"one {cat!r} object is several things a viewer would count"))
    if facts.confusable(cat, room):
        found.append(("ambiguity", f"{cat!r} shares the room with look-alikes {facts.confusable(cat, room)}"))
    if len(objs) < 2:
        found.append(("format", f"counting asks about {len(objs)} instance(s); needs 2 or more"))
    hidden = [o.id for o in objs if not facts.object_visible(o.id)]
    if hidden:
        found.append(("ungrounded", f"instances never seen: {hidden}"))
    partial = [o.id for o in objs if o.id not in hidden and not facts.shown_whole(o.id)]
    if partial:
        found.append(("ungrounded", f"instances never shown whole enough to count: {partial}"))
    if pairs := facts.never_together(objs):
        found.append(("ambiguity", f"look-alikes side by side never seen together: {pairs}"))
    if rec["answer"] != len(objs):
        found.append(("disagreement", f"recounted {len(objs)}, record says {rec['answer']}"))
    return found


def appearance_order(rec, facts: Facts, th: Rules, **_) -> Findings:
    """Order of first appearance: the start of each category's first clear run (any instance);
    the listed categories >= 2 s apart, and ordering them by their first glimpse of any size
    gives the same order (a viewer who counts a glimpse agrees), and so does ordering them by
    the first 0.5 s any instance shows whole enough to count (one who waits to see most of it)."""
    m = pattern(text.APPEARANCE).match(rec["question"])
    if not m:
        return [("format", "question does not follow the appearance-order template")]
    named = {w: facts.category_named(w) for w in m["cats"].split(", ")}
    if None in named.values():
        return [("ungrounded", f"{[w for w, c in named.items() if c is None]} name no category of the scene")]
    cats = list(named.values())
    found: Findings = []
    first, glimpse, whole = {}, {}, {}
    for c in cats:
        if facts.confusable(c):
            found.append(("ambiguity", f"{c!r} could be taken for the look-alike {facts.confusable(c)}"))
        objs = [o for o in facts.scene.objects if o.category == c]
        clear = [facts.first_clear(o.id) for o in objs if facts.object_visible(o.id)]
        if not clear:
            found.append(("ungrounded", f"category {c!r} never seen"))
            continue
        first[c] = min(clear)
        glimpse[c] = min(g for g in (facts.first_glimpse(o.id) for o in objs) if g is not None)
        wholes = [w for w in (facts.first_whole(o.id) for o in objs) if w is not None]
        if not wholes:
            found.append(("margin", f"no {c!r} ever shows whole enough to be named"))
            continue
        whole[c] = min(wholes)
    if found:
        return found
    truth = sorted(cats, key=lambda c: first[c])
    times = [first[c] / facts.fps for c in truth]
    if any(b - a < th.appearance_gap_s - EPS for a, b in zip(times, times[1:])):
        found.append(("margin", f"first appearances closer than {th.appearance_gap_s} s: {times}"))
    glimpses = [glimpse[c] for c in truth]
    if any(b <= a for a, b in zip(glimpses, glimpses[1:])):
        found.append(("margin", f"first glimpses {dict(zip(truth, glimpses))} order the categories "
                                f"otherwise than their first clear views {dict(zip(truth, (first[c] for c in truth)))}"))
    wholes = [whole[c] for c in truth]
    if any(b <= a for a, b in zip(wholes, wholes[1:])):
        found.append(("margin", f"first whole views {dict(zip(truth, wholes))} order the categories "
                                f"otherwise than their first clear views"))
    truths = []
    for opt in rec["options"]:
        order = [named.get(w, w) for w in opt.split(", ")]
        if sorted(order) != sorted(cats):
            found.append(("format", f"option {opt!r} is not an ordering of {cats}"))
        truths.append(order == truth)
    return found + judge(rec, truths)


DIRECTION_OPTIONS = {"easy": ("left", "right"), "medium": ("left", "right", "back"),
                     "hard": ("front-left", "front-right", "back-left", "back-right")}
DIRECTION_BOUNDS = {"easy": (0, 180), "medium": (0, 135, -135), "hard": (0, 90, -90, 180)}


def _direction(level: str, b: float) -> str:
    """Answer for a clockwise bearing b (0 = ahead, +90 = right)."""
    side = "right" if b > 0 else "left"
    if level == "easy":
        return side
    if level == "medium":
        return "back" if abs(b) >= 135 else side
    return ("front-" if abs(b) < 90 else "back-") + side


def _ring(footprint, th: Rules) -> list:
    """Standpoints every 0.1 m on the outline 0.5 m out from the footprint (the outline as
    shapely draws it with round corners, 8 segments a quarter circle, from its first vertex)."""
    from shapely.geometry import Polygon
    ring = Polygon(footprint).buffer(th.stand_ring_m, quad_segs=8).exterior
    n = max(8, math.ceil(ring.length / th.stand_step_m))
    return [ring.interpolate(k / n, normalized=True).coords[0] for k in range(n)]


def relative_direction(rec, facts: Facts, th: Rules, **_) -> Findings:
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
    if a.support != "floor":
        found.append(("ambiguity", f"one cannot stand by {a.id} (support {a.support!r}, not the floor)"))
    stands = [xy(a), *_ring(a.footprint, th)]
    if min(min(math.dist(p, xy(b)), math.dist(p, xy(c))) for p in stands) < th.min_pair_distance_m - EPS:
        found.append(("margin", "objects too close for a stable direction"))
    bears = [bearing(p, xy(b), xy(c)) for p in stands]
    worst = min(min(angular_gap(x, bound) for bound in DIRECTION_BOUNDS[level]) for x in bears)
    if worst < th.angle_margin_deg - EPS:
        found.append(("margin", f"from some standpoint by the {m['a']} the direction is {worst:.1f} deg "
                                f"from a boundary (needs {th.angle_margin_deg})"))
    answers = {_direction(level, x) for x in bears}
    if len(answers) > 1:
        found.append(("ambiguity", f"the answer depends on where by the {m['a']} one stands: {sorted(answers)}"))
    answer = _direction(level, bears[0])
    found += vocabulary(rec, DIRECTION_OPTIONS[level])
    return found + judge(rec, [o == answer for o in rec["options"]])


def relative_distance(rec, facts: Facts, th: Rules, **_) -> Findings:
    m = pattern(text.DISTANCE).match(rec["question"])
    if not m:
        return [("format", "question does not follow the relative-distance template")]
    names = m["objects"].split(", ")
    if sorted(names) != sorted(rec["options"]):
        return [("format", "options differ from the objects the question lists")]
    (target, *objs), found = named_objects(facts, [m["target"], *names], apart=True)
    if found:
        return found
    if any(o.category == "door" for o in (target, *objs)):   # its opening, or its leaf?
        return [("ambiguity", "a door is measured from its opening or from its swung leaf")]
    below = {u.id for u in facts.under(target)}
    for o, n in zip(objs, names):   # rule 7: nearest by world knowledge is a giveaway
        if o.id in below or target.id in {u.id for u in facts.under(o)}:
            found.append(("giveaway", f"{n!r} holds {m['target']!r} or stands on it"))
    gaps = sorted((box_gap(target, o), n) for o, n in zip(objs, names))
    (d1, nearest), (d2, _) = gaps[0], gaps[1]
    if d2 < d1 * (1 + th.distance_ratio) - EPS or d2 - d1 < th.distance_gap_m - EPS:
        found.append(("margin", f"nearest {d1:.3f} m and second {d2:.3f} m too close"))
    return found + judge(rec, [o == nearest for o in rec["options"]])


