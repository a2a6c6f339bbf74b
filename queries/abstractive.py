"""Abstractive tasks: memory-action, map direction, map scale, global counting (Table 6).

Simulation has its own module. Rule 4 (trajectory constraints) is enforced here: memory-action
answers depend on the ordinal room, counted objects span rooms and frames, and compared rooms
are never visible in one frame.
"""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations, permutations

from queries import text
from queries.context import Context
from queries.geometry import compass_label, heading_deg, room_centre, wrap
from queries.records import Draft

# Map Scale option values; neighbours are at most 25-50% apart so a distractor is never absurd.
SCALE_LADDER = (0.25, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50, 64)


def _room_frames(ctx: Context, rooms) -> list[int]:
    return [f for r in rooms for f in ctx.seen.room_evidence(r)]


def memory_action(ctx: Context, want: int) -> list[Draft]:
    task, out = "memory_action", []
    onto = ctx.ontology
    order = ctx.room_order()

    def present(label, seen_only):
        return {o.category for o in ctx.scene.objects_in(label) if not seen_only or ctx.seen.object_seen(o.id)}

    for k in ctx.shuffled(list(range(len(order)))):
        if len(out) == want:
            break
        room = order[k]
        if k == 0:
            ctx.rej.add(task, 4, "the first room needs no memory of the walk")
            continue
        if not ctx.seen.room_seen(room):
            ctx.rej.add(task, 2, "room not seen")
            continue
        seen_here = present(room, seen_only=True)
        possible = onto.possible(seen_here)
        if not possible:
            ctx.rej.add(task, 1, "no activity afforded by the seen objects")
            continue
        # an off-by-one memory of the walk must give a wrong answer
        neighbours = [order[j] for j in (k - 1, k + 1) if 0 <= j < len(order)]
        blocked = set().union(*(onto.possible(present(r, seen_only=False)) for r in neighbours))
        answers = sorted(possible - blocked)
        if not answers:
            ctx.rej.add(task, 4, "every possible activity is also possible in the previous/next room")
            continue
        correct = answers[int(ctx.rng.integers(len(answers)))]
        # wrong options: activities a person would call impossible there (not merely unlisted)
        arguable = onto.arguable(present(room, seen_only=False))
        near = set().union(*(onto.related(a) for a in arguable))
        pool = [a for a in onto.activities if a not in arguable and a not in near]
        elsewhere = set().union(*(onto.possible(present(r, False)) for r in order if r != room))
        plausible = [a for a in pool if a in elsewhere]
        rest = [a for a in pool if a not in elsewhere]
        if len(pool) < 4:
            ctx.rej.add(task, 1, "fewer than 4 activities verifiably impossible there")
            continue
        picked = ctx.shuffled(plausible)[:4]
        picked += ctx.shuffled(rest)[:4 - len(picked)]
        needs = [need for need, act in onto.together if act == correct and need <= seen_here]
        givers = sorted(o.id for o in ctx.scene.objects_in(room) if ctx.seen.object_seen(o.id)
                        and (correct in onto.affordances(o.category) or any(o.category in n for n in needs)))
        out.append(Draft(task, text.MEMORY_ACTION.format(ordinal=text.ordinal(k)),
                         text.activity_text(correct), [text.activity_text(a) for a in picked],
                         objects=givers, rooms=[room],
                         frames=_room_frames(ctx, [room]) + [f for g in givers for f in ctx.seen.object_evidence(g)],
                         derivation={"ordinal": k + 1, "room": room, "room_order": order,
                                     "activity": correct, "afforded_by": givers,
                                     "possible": sorted(possible), "arguable": sorted(arguable - possible)}))
    return out


def _seen_rooms(ctx: Context) -> list:
    return [r for r in sorted(ctx.scene.rooms, key=lambda r: r.label) if ctx.seen.room_named(r.label)]


def _covisibility_refused(ctx: Context, task: str, a: str, b: str) -> bool:
    together = ctx.seen.rooms_covisible(a, b)
    if together is None:
        ctx.rej.add(task, 4, "no room visibility to prove the rooms are never in one frame")
    elif together:
        ctx.rej.add(task, 4, "compared rooms visible in one frame")
    return together is not False


def map_direction(ctx: Context, want: int) -> list[Draft]:
    task, out = "map_direction", []
    rooms = _seen_rooms(ctx)
    centre = {r.label: room_centre(r) for r in rooms}
    margin = ctx.th.angle_margin_deg

    def direction(a, b):  # of a relative to b
        return compass_label(heading_deg(centre[b], centre[a]), margin)

    floor = {r.label: r.floor for r in rooms}
    # one map per floor: the anchor and the asked pair are rooms of one floor
    pairs = [p for p in permutations(sorted(centre), 2) if floor[p[0]] == floor[p[1]]]
    anchors = [p for p in pairs if direction(*p)]
    asked: set[frozenset] = set()
    for c, d in ctx.shuffled(pairs):
        if len(out) == want:
            break
        if frozenset((c, d)) in asked:
            continue
        answer = direction(c, d)
        if answer is None:
            ctx.rej.add(task, 3, "direction within 15 deg of a compass boundary")
            continue
        if _covisibility_refused(ctx, task, c, d):
            continue
        # A viewer may also take "A is north of B" as exactly north and turn the map to match:
        # the answer must not change (nor come near a boundary) on the map turned that way.
        usable = [p for p in anchors if set(p) != {c, d} and floor[p[0]] == floor[c]
                  and compass_label(heading_deg(centre[d], centre[c]) - _anchor_offset(centre, *p, margin),
                                    margin) == answer]
        if not usable:
            ctx.rej.add(task, 3, "no anchor pair with a clear direction on either reading of the map")
            continue
        a, b = usable[int(ctx.rng.integers(len(usable)))]
        asked.add(frozenset((c, d)))
        out.append(Draft(task, text.MAP_DIRECTION.format(a=a, anchor=direction(a, b).lower(), b=b,
                                                         c=c, d=d),
                         answer, [x for x in ("East", "West", "South", "North") if x != answer],
                         rooms=[a, b, c, d], frames=_room_frames(ctx, [a, b, c, d]),
                         derivation={"anchor": [a, b], "anchor_direction": direction(a, b),
                                     "query": [c, d], "centres": {k: list(centre[k]) for k in (a, b, c, d)},
                                     "angle_deg": heading_deg(centre[d], centre[c])}))
    return out


def _anchor_offset(centre, a, b, margin) -> float:
    """How far the line from b's centre to a's turns from its compass label's exact direction."""
    angle = heading_deg(centre[b], centre[a])
    exact = {"East": 0.0, "North": 90.0, "West": 180.0, "South": -90.0}[compass_label(angle, margin)]
    return wrap(angle - exact)


def scale_option(ratio: float, tol: float) -> float | None:
    """The ladder value the ratio is within `tol` of (relative to that value), if any."""
    close = [v for v in SCALE_LADDER if abs(ratio - v) <= tol * v]
    return min(close, key=lambda v: abs(ratio - v)) if close else None


def map_scale(ctx: Context, want: int) -> list[Draft]:
    task, out = "map_scale", []
    th = ctx.th
    rooms = _seen_rooms(ctx)
    centre = {r.label: room_centre(r) for r in rooms}
    floor = {r.label: r.floor for r in rooms}
    d2 = lambda a, b: math.dist(centre[a], centre[b]) ** 2  # noqa: E731
    pairs = [p for p in combinations(sorted(centre), 2) if floor[p[0]] == floor[p[1]]]
    refs = [p for p in pairs if d2(*p) >= th.min_reference_d2]
    for c, d in ctx.shuffled(pairs):
        if len(out) == want:
            break
        if _covisibility_refused(ctx, task, c, d):
            continue
        found = None
        for a, b in ctx.shuffled([p for p in refs if p != (c, d) and floor[p[0]] == floor[c]]):
            ratio = d2(c, d) / d2(a, b)
            value = scale_option(ratio, th.scale_correct_tol)
            if value is not None:
                found = (a, b, ratio, value)
                break
        if found is None:
            ctx.rej.add(task, 3, "no reference pair gives a ratio within 10% of an option")
            continue
        a, b, ratio, value = found
        far = [v for v in SCALE_LADDER if abs(v - ratio) > th.scale_distractor_gap * ratio]
        far.sort(key=lambda v: abs(math.log(v / ratio)))
        if len(far) < 4:
            ctx.rej.add(task, 1, "fewer than 4 distractors more than 25% away")
            continue
        picked = ctx.shuffled(far[:6])[:4]
        out.append(Draft(task, text.MAP_SCALE.format(a=a, b=b, c=c, d=d), text.number_text(value),
                         [text.number_text(v) for v in picked],
                         rooms=[a, b, c, d], frames=_room_frames(ctx, [a, b, c, d]),
                         derivation={"reference": [a, b], "query": [c, d], "reference_d2": d2(a, b),
                                     "query_d2": d2(c, d), "ratio": ratio, "option": value}))
    return out


def global_counting(ctx: Context, want: int) -> list[Draft]:
    task, out = "global_counting", []
    by_category = defaultdict(list)
    for o in ctx.scene.objects:
        by_category[o.category].append(o)
    spread = sorted(c for c, objs in by_category.items() if len({o.room for o in objs}) >= 2)
    for category in ctx.shuffled(spread):
        if len(out) == want:
            break
        objs = by_category[category]
        if not ctx.countable(category):
            ctx.rej.add(task, 1, "one object of the category is several things to count")
            continue
        if ctx.confusable(category, None):
            ctx.rej.add(task, 1, "a look-alike category in the building")
            continue
        if not all(ctx.seen.object_frames(o.id) for o in objs):
            ctx.rej.add(task, 3, "an instance never seen")
            continue
        if not all(ctx.seen.shown_whole(o) for o in objs):
            ctx.rej.add(task, 3, "an instance never shown whole enough to count")
            continue
        if not ctx.counted_apart(objs):
            ctx.rej.add(task, 3, "look-alike instances side by side never seen together")
            continue
        shared = set.intersection(*(set(ctx.seen.object_frames(o.id)) for o in objs))
        if shared:
            ctx.rej.add(task, 4, "all instances visible in one frame")
            continue
        rooms = sorted({o.room for o in objs})
        out.append(Draft(task, text.GLOBAL_COUNTING.format(plural=text.plural(category)), len(objs),
                         objects=[o.id for o in objs], rooms=rooms,
                         frames=[f for o in objs for f in ctx.seen.object_evidence(o.id)],
                         derivation={"category": category, "instances": sorted(o.id for o in objs),
                                     "rooms": rooms, "count": len(objs)}))
    return out
