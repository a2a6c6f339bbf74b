"""Route Plan through a doorway: from a thing in one room, through its door, to a thing in the next.

Asked only where a scenario's rooms give fewer routes inside one room than wanted: a room whose
nameable things all stand along its walls has nothing in the middle to turn at (6 of 40 sampled
scenarios fell short of three routes), while every viewer walked through its doorways and saw
where they lead. "Beginning at the bed facing the wardrobe ... 1. Go forward until the door to
the study in the bedroom. 2. [please fill in] 3. Go forward until the desk in the study." The
turn at the door reads the same from the way one came and from straight through the opening.
The walk's free space is both rooms' (each kept the clearance from its walls and furniture)
joined by the doorway's opening; "until the door" ends just through it, where the turn into the
next room is made (docs/ground-truth.md "Route plan").
"""

from __future__ import annotations

import itertools
import math

from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from queries.context import Context
from queries.geometry import heading_deg, wrap
from queries.model import Door, SceneObject
from queries.params import Thresholds
from queries.route_grid import RoomPlanner, blocks, classify_turn


def opening(door: Door, clearance: float) -> Polygon:
    """The doorway's walkable strip: its width less the clearance at each jamb, deep enough to
    join the free space of both rooms."""
    (x, y), half, depth = door.position, door.width / 2 - clearance, clearance + 0.02
    if door.wall_axis == "y":   # the wall runs north-south: the opening spans y
        return box(x - depth, y - half, x + depth, y + half)
    return box(x - half, y - depth, x + half, y + depth)


class DoorwayPlanner(RoomPlanner):
    """Occupancy grid of two rooms joined by one doorway; a stop's places stay in its own room
    (a desk against the wall is not reached from the other side of it), the door's lie just
    through it, by it in the next room: the walk there passes the opening straight."""

    def __init__(self, door: Door, door_thing: SceneObject, polygons: dict[str, list], objects,
                 th: Thresholds, by_id: dict[str, SceneObject]):
        strip = opening(door, th.clearance_m)
        self.rooms = {label: Polygon(p) for label, p in polygons.items()}
        inner = [r.buffer(-th.clearance_m, join_style="mitre") for r in self.rooms.values()]
        obstacles = [Polygon(o.footprint).buffer(th.clearance_m) for o in objects if blocks(o)]
        free = unary_union([*inner, strip])
        self._build(free.difference(unary_union(obstacles)) if obstacles else free, th, by_id)
        self.door_id, self.there = door_thing.id, next(r for r in door.rooms if r != door_thing.room)

    def free_in(self, room: str):
        return self.free.intersection(self.rooms[room])

    def beside(self, obj: SceneObject) -> list:
        if obj.id not in self._beside:
            inside = (self.rooms[self.there].buffer(-self.th.clearance_m)   # through the opening, not in it
                      if obj.id == self.door_id else self.rooms[obj.room])
            self._beside[obj.id] = [n for n in super().beside(obj) if inside.covers(Point(self.xy(n)))]
        return self._beside[obj.id]

    def legs(self, stops: list[SceneObject]) -> tuple[list | None, str]:
        """start -> door -> goal as two straight walks: one through the opening to a place just
        beyond it, one from there to the goal; of all such, the one whose headings keep closest
        to the centres' (what a viewer pictures). Searched over the places themselves: A* to the
        nearest place beyond the door would often need a bend in the opening."""
        start, door, goal = stops
        first_way, onward = heading_deg(start.xy, door.xy), heading_deg(door.xy, goal.xy)
        best = None
        for t in self.beside(door):
            first = self._straight(self.beside(start), t, first_way, into=True)
            second = self._straight(self.beside(goal), t, onward, into=False)
            if first and second and (best is None or first[0] + second[0] < best[0]):
                best = (first[0] + second[0], [self.xy(first[1]), self.xy(t), self.xy(second[1])])
        return (best[1], "") if best else (None, "no straight walks through the doorway")

    def _straight(self, cells: list, to, heading: float, into: bool) -> tuple[float, object] | None:
        """(heading error, cell) of the clear straight walk of at least min_leg_m between a cell
        of `cells` and the cell `to` (into it, or out of it) closest in heading to `heading`."""
        end, found = self.xy(to), None
        for cell in cells:
            here = self.xy(cell)
            if math.dist(here, end) < self.th.min_leg_m:
                continue
            error = abs(wrap((heading_deg(here, end) if into else heading_deg(end, here)) - heading))
            if (found is None or error < found[0]) and self.walkable.covers(LineString([here, end])):
                found = (error, cell)
        return found


def through_heading(door: Door, into: Polygon) -> float:
    """The heading (deg) of a walk straight through the opening into `into`."""
    for heading in ((0.0, 180.0) if door.wall_axis == "y" else (90.0, -90.0)):
        step = (0.3 * math.cos(math.radians(heading)), 0.3 * math.sin(math.radians(heading)))
        if into.covers(Point(door.position[0] + step[0], door.position[1] + step[1])):
            return heading
    raise ValueError(f"door {door.id} does not open into the room given")


def doorway_tries(ctx: Context, stops_of) -> list[tuple]:
    """[(pair of rooms, (door, the door as a room's thing, start, goal))]: a start in the door's
    room, a goal in the room beyond (a room, not a hallway), both rooms seen and the doorway walked
    through, each end at least min_pair_distance_m from the opening. The turn at the door, read
    from the centres, is a clear left or right, and the same turn from the direction straight
    through the opening: a start a step beside the door along its wall makes "left" of a goal
    straight ahead through it (person check of sample-1-008)."""
    rooms = {r.label: r for r in ctx.scene.rooms}
    doors = {d.id: d for d in ctx.scene.doors}
    out = []
    for oid, thing in sorted(ctx.doors.items()):
        door = doors[oid.rsplit("/", 1)[1]]
        here = thing.room
        there = next(r for r in door.rooms if r != here)
        if (there not in rooms or not ctx.door_view.walked_through(door) or not ctx.nameable(thing)
                or not ctx.seen.room_named(here) or not ctx.seen.room_named(there)):
            continue
        opening_box, through = Polygon(thing.footprint), through_heading(door, Polygon(rooms[there].polygon))
        for start, goal in itertools.product(stops_of(here), stops_of(there)):
            if start.id in ctx.doors or goal.id in ctx.doors:
                continue
            onward = heading_deg(thing.xy, goal.xy)
            turn = classify_turn(wrap(onward - heading_deg(start.xy, thing.xy)), ctx.th)
            if (turn in ("turn left", "turn right") and turn == classify_turn(wrap(onward - through), ctx.th)
                    and min(opening_box.distance(Point(o.xy)) for o in (start, goal)) >= ctx.th.min_pair_distance_m):
                out.append((frozenset(door.rooms), (door, thing, start, goal)))
    return out
