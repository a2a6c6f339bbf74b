"""The checker's reading of docs/ground-truth.md "Rooms a viewer can tell": a question may say a
room's label only when the video lets a viewer tell which room that is. Written apart from the
generator's `Seen.room_told` (queries/evidence.py) on purpose; both read the kinds' signs from
assets.shells (data, like the catalog)."""

from __future__ import annotations

import re

from assets.shells import room_signs
from queries.check_facts import Facts

_TRAILING_NUMBER = re.compile(r"\s+(\d+)$|(?<=\D)(\d+)$")


def room_untold(facts: Facts, label: str) -> str | None:
    """Why a viewer could not tell which room `label` is, or None when they can."""
    room = facts.room.get(label)
    if room is None:
        return "no such room"
    signs = room_signs(room.type)
    shown = [o.id for o in facts.scene.objects if o.room == label and (signs is None or o.category in signs)
             and facts.object_clear(o.id)]
    if not shown:
        what = "anything" if signs is None else "one of: " + ", ".join(signs)
        return f"nothing seen clearly in it says what room it is (it would take {what})"
    number, stem = _number(label)
    if number is not None:
        order = facts.room_order()
        namesakes = [r for r in facts.room if _number(r)[1] == stem and _number(r)[0] is not None]
        entered = sorted(namesakes, key=lambda r: (order.index(r) if r in order else len(order), _number(r)[0]))
        numbers = [_number(r)[0] for r in entered]
        if len(namesakes) > 1 and (numbers != sorted(numbers) or len(set(numbers)) < len(numbers)):
            return f"the video enters {', '.join(entered)} in that order, so a viewer numbers them otherwise"
    return None


def _number(label: str) -> tuple[int | None, str]:
    """("bedroom 2") -> (2, "bedroom"); ("study") -> (None, "study")."""
    m = _TRAILING_NUMBER.search(label)
    if not m:
        return None, label
    return int(m[1] or m[2]), label[:m.start()].strip()
