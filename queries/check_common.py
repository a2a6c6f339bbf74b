"""Shared pieces of the checker's per-task recomputation (check_extractive.py,
check_abstractive.py): template parsing, option judging, name resolution.

Each task check returns a list of (kind, message) findings for one MCQ or number record.
"""

from __future__ import annotations

from queries.check_facts import Facts
from queries.check_rooms import room_untold
from queries.check_rules import LETTERS, pattern  # noqa: F401  (re-exported for the task checks)

Findings = list[tuple[str, str]]


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


def vocabulary(rec: dict, allowed) -> Findings:
    """Every option is an answer the question allows (else a distractor is no real choice)."""
    return [("format", f"option {o!r} is not one of the answers the question allows") for o in rec["options"]
            if o not in allowed]


def named_objects(facts: Facts, names, apart: bool = False) -> tuple[list, Findings]:
    """The objects the names resolve to; findings for a name that names no single seen object or
    could be a look-alike, and with `apart` a name that ties the first (the target) to another
    ("the chair by the window" among the options of "closest to the window", or the window an
    option of "closest to the chair by the window")."""
    objs, found, leans = [], [], {}
    for name in names:
        o, neighbour = facts.resolve_named(name)
        if neighbour is not None:
            leans[name] = neighbour.id
        if o is None:
            found.append(("ungrounded", f"{name!r} names no single object"))
        elif not facts.object_visible(o.id):
            found.append(("ungrounded", f"{name!r} ({o.id}) is not seen in the video"))
        elif not facts.object_clear(o.id):
            found.append(("ungrounded", f"{name!r} ({o.id}) is never shown whole enough to tell what it is"))
        if neighbour is not None and not facts.object_clear(neighbour.id):
            found.append(("ungrounded", f"{name!r} leans on {neighbour.id}, never shown clearly"))
        for room in _rooms_said(facts, name):
            if why := room_untold(facts, room):
                found.append(("ambiguity", f"{name!r} says the {room}: {why}"))
        if o is not None and not facts.is_door_thing(o.id):   # a room's one door is that door
            alike = facts.confusable(o.category, o.room)
            if alike:
                found.append(("ambiguity", f"{name!r} could be taken for the look-alike {alike}"))
        objs.append(o)
    if apart and objs and objs[0] is not None:
        first, rest = names[0], {o.id for o in objs[1:] if o is not None}
        found += [("ambiguity", f"{name!r} is named by another object of the question ({oid})")
                  for name, oid in leans.items()
                  if (name != first and oid == objs[0].id) or (name == first and oid in rest)]
    return objs, found


def rooms_visible(facts: Facts, rooms) -> Findings:
    return [("ungrounded", f"room {r!r} unknown or not seen") for r in rooms
            if r not in facts.room or not facts.room_visible(r)]


def rooms_told(facts: Facts, rooms) -> Findings:
    """A question that says a room's label needs a viewer to tell which room that is."""
    return [("ambiguity", f"room {r!r}: {why}") for r in rooms if r in facts.room and (why := room_untold(facts, r))]


def _rooms_said(facts: Facts, name: str) -> list[str]:
    """Room labels a name says: "... in the R" at its end, "door to the R" (a room, not a hallway)."""
    said = []
    if " in the " in name and name.rsplit(" in the ", 1)[1] in facts.room:
        said.append(name.rsplit(" in the ", 1)[1])
    head = name.rsplit(" in the ", 1)[0] if said else name
    if " to the " in head and head.split(" to the ", 1)[1] in facts.room:
        said.append(head.split(" to the ", 1)[1])
    return said
