"""A room's doors as things questions can name ("the door in the lounge", "the door to the
hallway in the lounge").

Every doorway shows a door leaf (generator/doors.py). In a room with no `door` object (or
look-alike), a viewer can point at the room's only doorway ("the door in the R") or, in a room
with several, at the one the walk went through to a hallway, the stairs, the outside or a
room that no other doorway of the room leads to ("the door to the hallway in the R"): one can
face it, walk up to it, measure to it, name a thing by it. It is no object of scene.json
(nothing counts it, no appearance order lists it); the tasks that name things (relative
direction and distance, route plan) take it as a thing hanging in its wall: never one to stand
by for relative direction, which asks for a floor-standing thing. It is seen where the doorway is in view (queries/doors.py) for 0.5 s
running: on the way in, from inside, or from the next room; a viewer walked through it.
"""

from __future__ import annotations

from assets.vocabulary import display_name, lookalikes
from queries.doors import DoorView
from queries.model import Scene, SceneObject

DEPTH = 0.1   # the box of a door thing: the opening's width x this across the wall x its height
CATEGORY = "door"


def _leads_to(node: str) -> str:
    """What a viewer calls the space beyond a doorway: 'hallway:h0' -> 'hallway'."""
    return node.split(":", 1)[0] if ":" in node else node


def door_things(scene: Scene, view: DoorView) -> dict[str, tuple[SceneObject, str, list[int]]]:
    """id -> (a room's door as a SceneObject, its name, the frames it is seen in)."""
    out = {}
    look = {CATEGORY} | lookalikes(CATEGORY)
    for room in scene.rooms:
        doors = [d for d in scene.doors if room.label in d.rooms]
        if any(o.room == room.label and o.category in look for o in scene.objects):
            continue
        beyond = {d.id: _leads_to(d.rooms[1] if d.rooms[0] == room.label else d.rooms[0]) for d in doors}
        for d in doors:
            if len(doors) == 1:
                name = f"{display_name(CATEGORY)} in the {room.label}"
            elif list(beyond.values()).count(beyond[d.id]) == 1 and view.walked_through(d):
                name = f"{display_name(CATEGORY)} to the {beyond[d.id]} in the {room.label}"
            else:
                continue
            frames = view.frames_seen(d)
            if not frames:
                continue
            (x, y), half = d.position, d.width / 2
            across_x = d.wall_axis == "y"              # the wall runs north-south: the opening spans y
            hw, hd = (DEPTH / 2, half) if across_x else (half, DEPTH / 2)
            footprint = ((x - hw, y - hd), (x + hw, y - hd), (x + hw, y + hd), (x - hw, y + hd))
            z = scene.elevations[room.floor] if room.floor < len(scene.elevations) else 0.0
            oid = f"{room.label.replace(' ', '-')}/{CATEGORY}/{d.id}"
            out[oid] = (SceneObject(oid, CATEGORY, room.label, room.floor, (x, y, z), 90.0 if across_x else 0.0,
                                    (d.width, DEPTH, d.height), footprint, "wall"), name, frames)
    return out
