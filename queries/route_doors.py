"""Route Plan through a doorway: from a thing in one room, through its door, to a thing in the next.

Asked only where a scenario's rooms give fewer routes inside one room than wanted: a room whose
nameable things all stand along its walls has nothing in the middle to turn at (6 of 40 sampled
scenarios fell short of three routes), while every viewer walked through its doorways and saw
where they lead. "Beginning at the bed facing the wardrobe ... 1. Go forward until the door to
the study in the bedroom. 2. [please fill in] 3. Go forward until the desk in the study." The
walk's free space is both rooms' (each kept the clearance from its walls and furniture) joined by
the doorway's opening; "until the door" ends in the opening, on the wall line, where the turn
into the next room is made (docs/ground-truth.md "Route plan").
"""

from __future__ import annotations

import itertools

from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from queries.context import Context
from queries.geometry import heading_deg, wrap
from queries.model import Door, SceneObject
from queries.params import Thresholds
from queries.route_grid import RoomPlanner, blocks, classify_turn


def opening(door: Door, clearance: float) -> tuple[Polygon, LineString]:
    """The doorway's walkable strip (its width less the clearance at each jamb, deep enough to
    join the free space of both rooms) and its middle line, where one stands "at" the door."""
    (x, y), half, depth = door.position, door.width / 2 - clearance, clearance + 0.02
    if door.wall_axis == "y":   # the wall runs north-south: the opening spans y
        return box(x - depth, y - half, x + depth, y + half), LineString([(x, y - half), (x, y + half)])
    return box(x - half, y - depth, x + half, y + depth), LineString([(x - half, y), (x + half, y)])


class DoorwayPlanner(RoomPlanner):
    """Occupancy grid of two rooms joined by one doorway; a stop's places stay in its own room
    (a desk against the wall is not reached from the other side of it), the door's lie in the
    opening."""

    def __init__(self, door: Door, door_thing: SceneObject, polygons: dict[str, list], objects,
                 th: Thresholds, by_id: dict[str, SceneObject]):
        strip, self.line = opening(door, th.clearance_m)
        self.rooms = {label: Polygon(p) for label, p in polygons.items()}
        inner = [r.buffer(-th.clearance_m, join_style="mitre") for r in self.rooms.values()]
        obstacles = [Polygon(o.footprint).buffer(th.clearance_m) for o in objects if blocks(o)]
        free = unary_union([*inner, strip])
        self._build(free.difference(unary_union(obstacles)) if obstacles else free, th, by_id)
        self.door_id = door_thing.id

    def free_in(self, room: str):
        return self.free.intersection(self.rooms[room])

    def beside(self, obj: SceneObject) -> list:
        if obj.id not in self._beside:
            if obj.id == self.door_id:   # mid-opening: a walk leaves the doorway up to 60 deg aside
                mid = self.line.interpolate(0.5, normalized=True)
                cells = [n for n, xy in self.graph.nodes(data="xy")
                         if self.line.distance(Point(xy)) <= self.th.grid_cell_m / 2 + 1e-9
                         and mid.distance(Point(xy)) <= self.th.grid_cell_m]
            else:
                inside = self.rooms[obj.room]
                cells = [n for n in super().beside(obj) if inside.covers(Point(self.xy(n)))]
            self._beside[obj.id] = cells
        return self._beside[obj.id]


def doorway_tries(ctx: Context, stops_of) -> list[tuple]:
    """[(pair of rooms, (door, the door as a room's thing, start, goal))]: a start in the door's
    room, a goal in the room beyond (a room, not a hallway), both rooms seen and the doorway walked
    through, the turn at the door read from the centres clearly a side turn, each end at least
    min_pair_distance_m from the opening."""
    rooms = {r.label for r in ctx.scene.rooms}
    doors = {d.id: d for d in ctx.scene.doors}
    out = []
    for oid, thing in sorted(ctx.doors.items()):
        door = doors[oid.rsplit("/", 1)[1]]
        here = thing.room
        there = next(r for r in door.rooms if r != here)
        if (there not in rooms or not ctx.door_view.walked_through(door) or not ctx.nameable(thing)
                or not ctx.seen.room_seen(here) or not ctx.seen.room_seen(there)):
            continue
        opening_box = Polygon(thing.footprint)
        for start, goal in itertools.product(stops_of(here), stops_of(there)):
            if start.id in ctx.doors or goal.id in ctx.doors:
                continue
            turn = classify_turn(wrap(heading_deg(thing.xy, goal.xy) - heading_deg(start.xy, thing.xy)), ctx.th)
            if turn in ("turn left", "turn right") and min(
                    opening_box.distance(Point(o.xy)) for o in (start, goal)) >= ctx.th.min_pair_distance_m:
                out.append((frozenset(door.rooms), (door, thing, start, goal)))
    return out
