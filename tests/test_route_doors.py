"""Route plans through a doorway (queries/route_doors.py), known answers worked out by hand.

A bedroom (south) and a study (north) share one door at (2, 4). Each room has two things one
walks up to and its door: too few for a route inside one room (start, landmark and goal, and a
fourth thing to face), so the only routes run through the door. By hand, from the centres:
- bed (0.4, 1.5) facing the plant (3.0, 0.5): heading -21.0 deg; to the door 57.4 deg:
  a turn of +78.4 deg, left; then to the desk (0.4, 5.2) 143.1 deg: +85.7 deg, left;
- to the bookshelf (3.6, 5.2) instead: 36.9 deg, -20.5 deg, no turn: nothing to ask;
- from the plant facing the bed: the first turn is -53 deg, unclear; from the study's things
  facing each other the first turn is +-36.9 deg, unclear: no route.
"""

from __future__ import annotations

from fixtures.queries.builder import house, obj
from queries.check import check_records
from queries.check_facts import Files
from queries.engine import build_queries
from queries.model import Scenario, parse_scene, parse_trajectory, parse_visibility
from queries.ontology import FIXTURE_ONTOLOGY
from formats.base import load_model
from formats.scene import Scene as SceneFile
from formats.trajectory import Trajectory as TrajectoryFile
from formats.visibility import Visibility as VisibilityFile

ROOMS = {"bedroom": [0, 0, 4, 4], "study": [0, 4, 4, 8]}
DOOR = (("bedroom", "study"), (2, 4), "x")
THINGS = [obj("bedroom/bed/1", 0.4, 1.5, w=0.6, d=1.0), obj("bedroom/plant/1", 3.0, 0.5),
          obj("study/desk/1", 0.4, 5.2), obj("study/bookshelf/1", 3.6, 5.2)]
QUESTION = ("You are a robot beginning at the bed facing the plant. You want to navigate to the desk. "
            "You will perform the following actions (Note: for each [please fill in], choose either 'turn back,' "
            "'turn left,' or 'turn right.'): 1. [please fill in] 2. Go forward until the door in the bedroom "
            "3. [please fill in] 4. Go forward until the desk. You have reached the final destination.")


def two_rooms(walked_through: bool = True) -> dict:
    # the walk stands in the doorway between the rooms, or in the far corner of the study (no door)
    return house(ROOMS, [dict(o) for o in THINGS], ["bedroom", "study"], doors=[DOOR],
                 between=(2.0, 4.0) if walked_through else (3.8, 7.8))


def routes(files, fmt: str = "mcq") -> list[dict]:
    """The route plans asked of the house (in one format, or with fmt=None both: the checker
    wants an MCQ's free-form twin)."""
    sc = Scenario(parse_scene(files["scene.json"]), parse_trajectory(files["trajectory.json"]),
                  parse_visibility(files["visibility.json"]))
    records, _ = build_queries(sc, ontology=FIXTURE_ONTOLOGY, per_task=3)
    return [r for r in records if r["task"] == "route_plan" and fmt in (None, r["format"])]


def check(files, records) -> list:
    checked = Files(load_model(files["scene.json"], SceneFile, "scene.json"),
                    load_model(files["trajectory.json"], TrajectoryFile, "trajectory.json"),
                    load_model(files["visibility.json"], VisibilityFile, "visibility.json"))
    return check_records(records, checked, ontology=FIXTURE_ONTOLOGY)


def test_the_only_route_runs_through_the_door_and_turns_as_worked_out_by_hand():
    files = two_rooms()
    got = routes(files)
    assert [(r["question"], r["answer_text"]) for r in got] == [(QUESTION, "turn left, turn left")]
    d = got[0]["derivation"]
    assert (d["start"], d["landmarks"], d["goal"]) == ("bedroom/bed/1", ["bedroom/door/door-0"], "study/desk/1")
    assert got[0]["evidence"]["rooms"] == ["bedroom", "study"]
    # the walk turns at the opening: its middle waypoint stands in the doorway, on the wall line
    (_, _), (x, y), (_, _) = d["waypoints"]
    assert abs(y - 4.0) <= 0.075 and abs(x - 2.0) <= 0.15
    assert not check(files, routes(files, fmt=None))


def test_no_route_through_a_door_the_walk_never_went_through():
    """The same house, the walk never in the doorway: the generator asks nothing through it,
    and the checker refuses the question asked above."""
    files = two_rooms(walked_through=False)
    assert routes(files) == []
    asked = routes(two_rooms(), fmt=None)
    messages = [p.message for p in check(files, asked)]
    assert any("does not lead from the start's room to the goal's, or the walk never went through it" in m
               for m in messages), messages


def test_the_checker_replans_the_walk_through_the_opening():
    """With a wardrobe in the study's doorway (0.3 m in front of it), no straight walk leaves
    the opening for the desk: the checker refuses the question asked on the clear plan."""
    asked = routes(two_rooms(), fmt=None)
    files = two_rooms()
    blocked = house(ROOMS, [dict(o) for o in THINGS] + [obj("study/wardrobe/1", 1.7, 4.45, w=0.6, d=0.3)],
                    ["bedroom", "study"], doors=[DOOR], between=(2.0, 4.0))
    assert not check(files, asked)
    kinds = {p.kind for p in check(blocked, asked)}
    assert "disagreement" in kinds, kinds
