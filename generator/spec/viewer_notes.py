"""Notes on a valid spec whose rooms a viewer could not tell apart (docs/ground-truth.md "Rooms a
viewer can tell"): generation goes on, but questions will not name such rooms."""

from __future__ import annotations

from assets.shells import numbered, room_kind, room_signs
from generator.spec.scenario import Scenario


def untold_rooms(scenario: Scenario) -> list[str]:
    """One line per room without a thing that says its kind, and per group of rooms named alike
    that the trajectory visits out of their numbers' order."""
    notes = []
    for label, room in scenario.rooms.items():
        signs = room_signs(room.type)
        if signs is not None and not {o.category for o in room.objects} & set(signs):
            notes.append(f"rooms.{label}: nothing in it tells a viewer it is a {room_kind(room.type)}, so "
                         f"questions will not name it (fix: give it one of: {', '.join(signs)})")
    alike: dict[str, list[tuple[str, int]]] = {}
    for label in scenario.trajectory:
        if said := numbered(label):
            alike.setdefault(said[0], []).append((label, said[1]))
    for stem, rooms in alike.items():
        numbers = [n for _, n in rooms]
        if len(rooms) > 1 and numbers != sorted(set(numbers)):
            order = ", ".join(label for label, _ in rooms)
            notes.append(f"trajectory: visits {order} in that order; a viewer numbers rooms named alike as the "
                         f"video enters them, so questions will not name these (fix: number the {stem}s in "
                         "visiting order)")
    return notes
