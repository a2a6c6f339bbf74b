"""The sampler's visiting order (generator.spec.tour) on hand-built plans with known best orders."""

from __future__ import annotations

import itertools

import pytest

from generator.spec.tour import short_tour


def _box(x0, y0, x1, y1):
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def _row_of_rooms(labels: list[str], floor: int, stairs_x: float | None = None) -> dict:
    """Rooms 4 m wide side by side (west to east) north of a corridor along y 0-1.5, each with
    a doorway in the middle of its south wall; the corridor runs on past a stair end at
    `stairs_x` when one is given."""
    east = 4 * len(labels) if stairs_x is None else stairs_x + 1
    rooms, doors = [], []
    for k, label in enumerate(labels):
        rooms.append({"label": label, "floor": floor, "polygon": _box(4 * k, 1.5, 4 * k + 4, 5.5)})
        doors.append({"id": f"door-{floor}-{k}", "rooms": [label, f"hallway:h{floor}"], "position": [4 * k + 2, 1.5]})
    hall = {"id": f"h{floor}", "floor": floor, "polygon": _box(0, 0, east, 1.5)}
    return {"rooms": rooms, "doors": doors, "hallways": [hall]}


def test_rooms_along_a_corridor_are_visited_in_their_row_order():
    scene = {**_row_of_rooms(["west", "start", "east", "far east"], 0), "stairs": []}
    # from the second room: the near end first (west, then back past the start), not 3 crossings
    assert short_tour(scene, ["start", "far east", "west", "east"]) == ["start", "west", "east", "far east"]
    # the first room stays first wherever it is (it is the one on the plan's south edge)
    assert short_tour(scene, ["far east", "west", "start", "east"])[0] == "far east"


def test_a_floor_ends_by_the_stairs_that_climb_on():
    ground, upper = _row_of_rooms(["west", "start", "east"], 0, stairs_x=13), _row_of_rooms(["up"], 1, stairs_x=13)
    scene = {"rooms": ground["rooms"] + upper["rooms"], "doors": ground["doors"] + upper["doors"],
             "hallways": ground["hallways"] + upper["hallways"],
             "stairs": [{"id": "stairs-0-1", "floors": [0, 1], "bottom": [13.0, 1.5], "top": [13.0, 1.5]}]}
    # start -> west -> east leaves by the stairs at the east end; start -> east -> west is as
    # long without the stairs but walks the corridor again to climb, so either input order
    # must give the first
    for given in (["start", "east", "west", "up"], ["start", "west", "east", "up"]):
        assert short_tour(scene, given) == ["start", "west", "east", "up"]


def test_exact_order_is_the_shortest_of_all_orders():
    """Eight rooms in two rows either side of a corridor, visited in a scrambled order: the
    tour is as short as the best of all 5040 orders, measured here door to door along the
    corridor (no shared code: the corridor is straight, so the walk is |dx| plus 2 m in and
    out of each room)."""
    north = _row_of_rooms([f"n{k}" for k in range(4)], 0)
    south_rooms = [{"label": f"s{k}", "floor": 0, "polygon": _box(4 * k, -4, 4 * k + 4, 0)} for k in range(4)]
    south_doors = [{"id": f"door-s{k}", "rooms": [f"s{k}", "hallway:h0"], "position": [4 * k + 2, 0.0]} for k in range(4)]
    scene = {"rooms": north["rooms"] + south_rooms, "doors": north["doors"] + south_doors,
             "hallways": north["hallways"], "stairs": []}
    door_x = {r["label"]: (r["polygon"][0][0] + 2) for r in scene["rooms"]}

    def walk(order):
        hops = zip(order, order[1:])
        # centre -> doorway is 2 m in every room; a corridor hop is straight (1.5 m across
        # when the doorways face each other, else along and across)
        return sum(4 + ((door_x[a] - door_x[b]) ** 2 + (1.5 if a[0] != b[0] else 0) ** 2) ** 0.5 for a, b in hops)

    scrambled = ["n1", "s3", "n0", "s1", "n3", "s0", "n2", "s2"]
    best = min(walk(["n1", *p]) for p in itertools.permutations(scrambled[1:]))
    assert walk(short_tour(scene, scrambled)) == pytest.approx(best)
