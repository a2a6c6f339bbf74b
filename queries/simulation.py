"""Simulation: "which statement about the layout is true" (Table 6) and "which room is directly
opposite to X" (Table 1). Exactly one statement is true; the others are clearly false.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from queries import text
from queries.context import Context
from queries.doors import DoorView
from queries.facing import facing_shown
from queries.layout_facts import Layout
from queries.records import OPTIONS_SLOT, Draft


@dataclass(frozen=True)
class Statement:
    kind: str
    text: str
    truth: bool
    rooms: tuple[str, ...]
    compared: tuple[str, ...] = ()   # rooms that must never share a frame when this is the answer
    objects: tuple[str, ...] = ()


def _passed_statements(ctx: Context, layout: Layout, a: str, b: str, path: list[str]):
    """'To get from a to b you have to pass through n Xs' on a pair's only route."""
    middle = [n for n in path[1:-1] if n in layout.poly]
    on_way = [o for o in ctx.scene.objects if o.room in middle]
    sayable = lambda c: ctx.countable(c) and not ctx.confusable(c, None)  # noqa: E731
    counts = Counter(o.category for o in on_way if sayable(o.category))
    # a viewer may count the rooms you leave and reach as passed too: a statement must hold
    # either way, so a true one needs none of the kind there, a false one more than both give
    at_ends = Counter(o.category for o in ctx.scene.objects if o.room in (a, b))
    seen_cats = sorted({o.category for o in ctx.scene.objects if ctx.seen.object_seen(o.id) and sayable(o.category)})
    out = []
    for cat in sorted(counts):
        objs = [o for o in on_way if o.category == cat]
        if not at_ends[cat] and all(ctx.seen.object_seen(o.id) for o in objs):
            n = counts[cat]
            out.append(Statement("passed", text.STATEMENTS["passed"].format(
                a=a, b=b, n=n, objects=text.plural(cat, n)), True, (a, b), (a, b),
                tuple(sorted(o.id for o in objs))))
    # false: more than either reading gives (fewer would be arguable: you do pass at least that many)
    for cat in seen_cats:
        most = counts.get(cat, 0) + at_ends[cat]
        n = most + 1 + (most == 0)
        out.append(Statement("passed", text.STATEMENTS["passed"].format(
            a=a, b=b, n=n, objects=text.plural(cat, n)), False, (a, b)))
    return out


def _one_way(layout: Layout, paths: list[list[str]]) -> bool | None:
    """"Only one way": true for a single route; false only for two or more sensible routes (no
    shortcut through a doorway between two of its non-consecutive stops), as a person counts
    ways; unclear when the other routes are detours."""
    if len(paths) == 1:
        return True
    sensible = [p for p in paths if not any(layout.graph.has_edge(p[i], p[j])
                                            for i in range(len(p)) for j in range(i + 2, len(p)))]
    return False if len(sensible) >= 2 else None


def statements(ctx: Context, layout: Layout) -> list[Statement]:
    """Every clear statement about the seen rooms and doorways, in a deterministic order."""
    rooms = sorted(r.label for r in ctx.scene.rooms if ctx.seen.room_named(r.label))
    doors = DoorView(ctx.scene, ctx.scenario.trajectory)
    every_door_seen = doors.all_inner_seen()  # else a door the video never shows may add a way
    out: list[Statement] = []
    for a, b in combinations(rooms, 2):
        if ctx.rng.random() < 0.5:
            a, b = b, a
        adjacent = layout.adjacent(a, b)
        if adjacent and not any(d.id in doors.seen for d in doors.doors_between(a, b)):
            ctx.rej.add("simulation", 2, "doorway not seen")
            adjacent = None
        opposite = layout.opposite(a, b)
        if opposite and not facing_shown(layout, ctx.scenario.trajectory, a, b, ctx.seen.min_frames):
            ctx.rej.add("simulation", 2, "rooms never shown facing each other")
            opposite = None
        for kind, fact in (("adjacent", adjacent), ("opposite", opposite)):
            if fact is not None:
                out.append(Statement(kind, text.STATEMENTS[kind].format(a=a, b=b), fact, (a, b), (a, b)))
        paths = layout.routes(a, b)
        if paths and not every_door_seen:
            ctx.rej.add("simulation", 2, "routes rest on a doorway not seen")
        elif paths:
            one = _one_way(layout, paths)
            if one is not None:
                out.append(Statement("one_way", text.STATEMENTS["one_way"].format(a=a, b=b), one, (a, b), (a, b)))
            if one and len(paths[0]) > 2:
                out += _passed_statements(ctx, layout, a, b, paths[0])
    for a in rooms:
        fact = layout.corner(a)
        if fact is not None:
            out.append(Statement("corner", text.STATEMENTS["corner"].format(a=a), fact, (a,)))
        for b, c in combinations([r for r in rooms if r != a], 2):
            fact = layout.between(a, b, c)
            if fact is not None:
                out.append(Statement("between", text.STATEMENTS["between"].format(a=a, b=b, c=c),
                                     fact, (a, b, c), (b, c)))
    return out


def _pick_distractors(ctx: Context, false: list[Statement], k: int) -> list[Statement]:
    """k false statements, kinds mixed so the true one's kind gives nothing away."""
    by_kind: dict[str, list[Statement]] = {}
    for s in ctx.shuffled(false):
        by_kind.setdefault(s.kind, []).append(s)
    picked, kinds = [], ctx.shuffled(sorted(by_kind))
    while len(picked) < k and any(by_kind.values()):
        for kind in kinds:
            if by_kind[kind] and len(picked) < k:
                picked.append(by_kind[kind].pop())
    return picked


def _statement_question(ctx, layout, pool, used) -> Draft | None:
    task = "simulation"
    true = [s for s in pool if s.truth and s.text not in used]
    false = [s for s in pool if not s.truth]
    # kinds first, so a layout with many route facts does not make every answer a route fact
    kinds = ctx.shuffled(sorted({s.kind for s in true}))
    true = [s for kind in kinds for s in ctx.shuffled([t for t in true if t.kind == kind])]
    for answer in true:
        refused = False
        if len(answer.compared) == 2:
            together = ctx.seen.rooms_covisible(*answer.compared)
            if together is not False:
                ctx.rej.add(task, 4, "compared rooms visible in one frame" if together
                            else "no room visibility to prove the rooms are never in one frame")
                refused = True
        if refused:
            continue
        distractors = _pick_distractors(ctx, [s for s in false if s.text != answer.text], 4)
        if len(distractors) < 4:
            ctx.rej.add(task, 1, "fewer than 4 verifiably false statements")
            return None
        used.add(answer.text)
        rooms = sorted({r for s in (answer, *distractors) for r in s.rooms})
        objs = list(answer.objects)
        frames = [f for r in rooms for f in ctx.seen.room_evidence(r)]
        frames += [f for o in objs for f in ctx.seen.object_evidence(o)]
        return Draft(task, text.SIMULATION, answer.text, [s.text for s in distractors],
                     objects=objs, rooms=rooms, frames=frames,
                     free_question=text.SIMULATION_FREE.format(statements=OPTIONS_SLOT), joiner=" ",
                     derivation={"form": "statements", "true": {"kind": answer.kind, "rooms": list(answer.rooms)},
                                 "false": [{"kind": s.kind, "rooms": list(s.rooms)} for s in distractors]})
    return None


def _opposite_questions(ctx: Context, layout: Layout) -> list[Draft]:
    task, out = "simulation", []
    labels = sorted(layout.poly)
    for x in ctx.shuffled([r for r in labels if ctx.seen.room_named(r)]):
        facts = {y: layout.opposite_from(x, y) for y in labels if y != x}
        truths = [y for y, f in facts.items() if f]
        if len(truths) != 1 or any(f is None for f in facts.values()):
            ctx.rej.add(task, 1, "not exactly one room clearly opposite")
            continue
        y = truths[0]
        if not ctx.seen.room_named(y):
            ctx.rej.add(task, 2, "room not seen or not told")
            continue
        if not facing_shown(layout, ctx.scenario.trajectory, x, y, ctx.seen.min_frames):
            ctx.rej.add(task, 2, "rooms never shown facing each other")
            continue
        together = ctx.seen.rooms_covisible(x, y)
        if together is not False:
            ctx.rej.add(task, 4, "compared rooms visible in one frame" if together
                        else "no room visibility to prove the rooms are never in one frame")
            continue
        others = [r for r, f in facts.items() if f is False and ctx.seen.room_named(r)]
        if len(others) < 3:
            ctx.rej.add(task, 1, "fewer than 3 rooms clearly not opposite")
            continue
        picked = ctx.shuffled(others)[:4]
        rooms = sorted({x, y, *picked})
        out.append(Draft(task, text.OPPOSITE.format(room=x), y, picked, rooms=rooms,
                         frames=[f for r in rooms for f in ctx.seen.room_evidence(r)],
                         derivation={"form": "opposite", "room": x, "opposite": y,
                                     "overlap_m": layout.facing_overlap(x, y)}))
    return out


def simulation(ctx: Context, want: int) -> list[Draft]:
    layout = Layout(ctx.scene)
    pool = statements(ctx, layout)
    opposite = _opposite_questions(ctx, layout)
    out, used = [], set()
    while len(out) < want:
        draft = None
        if len(out) % 2 == 1 and opposite:
            draft = opposite.pop(0)
        if draft is None:
            draft = _statement_question(ctx, layout, pool, used)
        if draft is None and opposite:
            draft = opposite.pop(0)
        if draft is None:
            break
        out.append(draft)
    return out
