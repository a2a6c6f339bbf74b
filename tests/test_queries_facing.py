"""docs/ground-truth.md "directly opposite": a pair of rooms is directly opposite only where the
video shows them facing each other (person check of sample-7-000: the bedroom and the dressroom
faced each other from the two ends of a landing the camera never looked along). Hand-built
walks; the generator (queries/facing.py) and the checker (queries/check_facing.py) each judge."""

from __future__ import annotations

import math

from formats.base import dump_model
from formats.trajectory import Trajectory
from fixtures.queries.builder import house
from queries.check_facing import shows_facing
from queries.check_facts import Facts
from queries.check_layout import LayoutCheck
from queries.check_rules import DEFAULT as CHECK_RULES
from queries.facing import facing_shown
from queries.layout_facts import Layout
from test_queries_tasks import check_files, scenario

ROOMS = {"laundry": [0, 0, 4, 4], "study": [0, 6, 4, 10]}
DOORS = [(("laundry", "hallway:h0"), (2, 4), "x"), (("study", "hallway:h0"), (2, 6), "x")]
RELATIONS = {"adjacent": [], "opposite": [["laundry", "study"]], "vertical": []}


def across_the_hallway(laundry_pose=None, between=(0.5, 5.0)):
    """The laundry and the study face each other across a 2-m hallway running on 2 m west of
    them, their doorways 2 m apart. The walk stands 5 s in each room 3.5 m from its doorway, facing north (the laundry's
    frames at `laundry_pose` (x, y, yaw) instead), and 1 s in the hallway at `between` facing north."""
    files = house(ROOMS, [], ["laundry", "study"], doors=DOORS, hallways=[("h0", [-2, 4, 4, 6])],
                  relations=RELATIONS, between=between)
    return posed(files, "laundry", *laundry_pose) if laundry_pose else files


def posed(files, room, x=None, y=None, yaw=None):
    """The walk's frames in `room` (None: the hallway) moved to (x, y) and turned to `yaw`."""
    for f in files["trajectory.json"]["frames"]:
        if f["room"] == room:
            f.pop("cam_to_world", None)   # derived from the pose: made again below
            if x is not None:
                f["position"][:2] = [x, y]
            f["yaw"] = yaw if yaw is not None else f["yaw"]
    files["trajectory.json"] = dump_model(Trajectory.model_validate(files["trajectory.json"]))
    return files


def judged(files) -> tuple[bool, bool]:
    lay = Layout(scenario(files).scene)
    assert lay.opposite("laundry", "study") is True      # on the plan
    facts = Facts(check_files(files), CHECK_RULES)
    assert LayoutCheck(facts).opposite("laundry", "study") is True
    return (facing_shown(lay, scenario(files).trajectory, "laundry", "study", 15),
            shows_facing(facts, "laundry", "study"))


def test_rooms_are_shown_facing_only_from_a_doorway_looking_across():
    # the walk never looks from one doorway to the other: in the rooms 3.5 m in, facing north,
    # and in the hallway facing north, the laundry's doorway behind
    assert judged(across_the_hallway()) == (False, False)
    assert judged(across_the_hallway(between=(0.5, 4.6))) == (False, False)
    # stepping out of the laundry into the hallway, facing the study's doorway 1.4 m ahead
    assert judged(across_the_hallway(between=(2.0, 4.6))) == (True, True)
    # standing in the laundry 0.4 m from its doorway, looking across at the study's
    assert judged(across_the_hallway(laundry_pose=(2.0, 3.6, 90.0))) == (True, True)
    # ... or 1.2 m off to its side, looking at the study's doorway through the laundry's wall
    yaw = math.degrees(math.atan2(6 - 3.7, 2 - 0.8))
    assert judged(across_the_hallway(laundry_pose=(0.8, 3.7, yaw))) == (False, False)
    # ... or in the laundry's doorway looking away, east along the hallway
    assert judged(across_the_hallway(laundry_pose=(2.0, 3.6, 0.0))) == (False, False)


def test_the_hallway_shows_both_doorways_when_looking_along_it():
    # in the hallway 2.5 m west of the doorways, facing east: both 22 deg off centre
    assert judged(posed(across_the_hallway(between=(-0.5, 5.0)), None, yaw=0.0)) == (True, True)
    # 1.7 m west of them: 30 deg off centre, too near the edge of the view to be sure of
    assert judged(posed(across_the_hallway(between=(0.3, 5.0)), None, yaw=0.0)) == (False, False)
    # facing north-east: the laundry's doorway is out of view
    assert judged(posed(across_the_hallway(between=(-0.5, 5.0)), None, yaw=45.0)) == (False, False)
