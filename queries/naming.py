"""How a question names an object (docs/ground-truth.md "Names").

An object unique in its room is named by its category ("the sofa", "the sofa in the living
room"). One of several of a kind in a room is named by its colour ("the red sofa") when a viewer
tells it apart by colour from every other of its kind there (`told_apart_by_colour`), else by a
neighbour that is unique there ("the chair by the window in the office") when it is clearly the
one by it: within `by_m` of the neighbour's box while every other of its kind is at least
`by_margin_m` farther, the two seen together in one frame. The neighbour is any such thing but
a ceiling light or a carpet (flat on the floor); where it rests on the named object the name
says so ("the desk with the printer"), and a thing resting on its neighbour is never named by
it ("the book by the bookshelf" it stands in).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from assets.vocabulary import colour_word, told_apart_by_colour
from queries import text
from queries.geometry import FLAT_M, box_distance
from queries.model import Scene, SceneObject

BY_M = 0.5          # "by": boxes at most this far apart (3-D closest points)
BY_MARGIN_M = 1.0   # ... and every other of the kind at least this much farther from the neighbour
NOT_POINTABLE = ("ceiling",)  # supports of no neighbour: one looks up, not beside


@dataclass(frozen=True)
class Name:
    text: str
    neighbour: str | None = None   # id of the object the name refers to ("by the window"), if any


def object_names(scene: Scene, unique: set[str], seen_frames, confusable,
                 doors: dict[str, tuple[SceneObject, str]] | None = None) -> dict[str, Name]:
    """Names for every object a question may name: `unique` ids (one of a kind in the room, no
    look-alike) by category; others by a neighbour when one qualifies. `seen_frames(id)` lists
    the frames an object is seen in; `confusable(category, room)` says a look-alike is in the
    room; `doors` (id -> (a room's door as a thing, its words without the room: "door to the
    hallway")) are neighbours too: "the desk by the door to the hallway in the office"."""
    names = {oid: Name(text.object_name(o, scene)) for o in scene.objects if (oid := o.id) in unique}
    kind: dict[tuple[str, str], list[SceneObject]] = defaultdict(list)
    rooms_of: dict[str, set[str]] = defaultdict(set)
    for o in scene.objects:
        kind[(o.room, o.category)].append(o)
        rooms_of[o.category].add(o.room)
    anchors: dict[str, list[SceneObject]] = defaultdict(list)
    called = {o.id: text.display_name(o.category) for o in scene.objects}
    for o in scene.objects:
        if o.id in unique and o.support not in NOT_POINTABLE and o.size[2] >= FLAT_M and seen_frames(o.id):
            anchors[o.room].append(o)
    for oid, (door, words) in (doors or {}).items():
        anchors[door.room].append(door)
        called[oid] = words
    for (room, category), group in sorted(kind.items()):
        if len(group) < 2 or confusable(category, room):
            continue
        where = f" in the {room}" if len(rooms_of[category]) > 1 else ""
        for o in group:
            if all(told_apart_by_colour(category, o.color, other.color) for other in group if other is not o):
                names[o.id] = Name(f"{colour_word(category, o.color)} {text.display_name(category)}{where}")
        for y in sorted(anchors[room], key=lambda a: a.id):
            gaps = sorted((box_distance(o, y), o.id, o) for o in group)
            (d1, _, near), (d2, _, _) = gaps[0], gaps[1]
            if d1 > BY_M or d2 < d1 + BY_MARGIN_M or near.support == y.id or near.id in names:
                continue
            if not set(seen_frames(near.id)) & set(seen_frames(y.id)):
                continue
            link = "with" if y.support == near.id else "by"
            words = f"{text.display_name(category)} {link} the {called[y.id]}"
            if len(rooms_of[category]) > 1 or len(rooms_of[y.category]) > 1 or y.id in (doors or {}):
                words += f" in the {room}"
            names[near.id] = Name(words, y.id)
    return names
