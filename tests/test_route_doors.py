"""Route plans through a doorway (queries/route_doors.py), known answers worked out by hand.

A bedroom (south, 4 x 6 m) and a study (north) share one door at (2, 6). Each room has two
things one walks up to and its door: too few for a route inside one room (start, landmark and
goal, and a fourth thing to face), so the only routes run through the door. By hand, from the
centres:
- table (2, 3.5) facing the plant (2, 1.5): heading -90 deg; to the door 90 deg: 180 deg, turn
  back (from every place by the table 143-180 deg); then to the desk (0.4, 6.28) 170.1 deg:
  +80.1 deg, left, and from straight through the opening (90 deg) the same +80.1 deg, left;
- to the bookshelf (3.6, 9) instead: 61.9 deg, -28 deg, no turn: nothing to ask;
- from the plant facing the table the first turn is none, which leaves one blank and two
  options: no question; from the study's things into the bedroom the turn at the door reads
  "right" from the way one came but none from straight through the opening: no question.
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

ROOMS = {"bedroom": [0, 0, 4, 6], "study": [0, 6, 4, 10]}
DOOR = (("bedroom", "study"), (2, 6), "x")
THINGS = [obj("bedroom/table/1", 2.0, 3.5, w=0.6, d=0.6), obj("bedroom/plant/1", 2.0, 1.5),
          obj("study/desk/1", 0.4, 6.28), obj("study/bookshelf/1", 3.6, 9.0)]
QUESTION = ("You are a robot beginning at the table facing the plant. You want to navigate to the desk. "
            "You will perform the following actions (Note: for each [please fill in], choose either 'turn back,' "
            "'turn left,' or 'turn right.'): 1. [please fill in] 2. Go forward until the door in the bedroom "
            "3. [please fill in] 4. Go forward until the desk. You have reached the final destination.")


def two_rooms(walked_through: bool = True) -> dict:
    # the walk stands in the doorway between the rooms, or in the far corner of the study (no door)
    return house(ROOMS, [dict(o) for o in THINGS], ["bedroom", "study"], doors=[DOOR],
                 between=(2.0, 6.0) if walked_through else (3.8, 9.8))


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
    assert [(r["question"], r["answer_text"]) for r in got] == [(QUESTION, "turn back, turn left")]
    d = got[0]["derivation"]
    assert (d["start"], d["landmarks"], d["goal"]) == ("bedroom/table/1", ["bedroom/door/door-0"], "study/desk/1")
    assert got[0]["evidence"]["rooms"] == ["bedroom", "study"]
    # the walk turns just through the opening: in the study, within reach of the door
    (_, _), (x, y), (_, _) = d["waypoints"]
    assert 6.0 < y <= 6.05 + 0.45 and abs(x - 2.0) <= 0.45 + 0.45
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
    """With a cabinet against the study's wall between the door and the desk, no straight walk
    goes from just through the door to the desk: the checker refuses the question asked on the
    clear plan."""
    asked = routes(two_rooms(), fmt=None)
    files = two_rooms()
    blocked = house(ROOMS, [dict(o) for o in THINGS] + [obj("study/cabinet/1", 1.2, 6.5, w=0.5, d=1.0)],
                    ["bedroom", "study"], doors=[DOOR], between=(2.0, 6.0))
    assert not check(files, asked)
    kinds = {p.kind for p in check(blocked, asked)}
    assert "disagreement" in kinds, kinds


def test_a_turn_at_the_door_must_read_the_same_from_straight_through_it():
    """Person check of sample-1-008: a start a step beside the door along its wall made "left" of
    a goal nearly straight ahead through it. Here the table stands at (1.0, 4.27), so the way to
    the door heads 60 deg, and the desk at (0.73, 7.27) lies 135 deg from the door: +75 deg, left,
    from the way one came, but +45 deg, unclear, from straight through the opening (90 deg); the
    plant at (3.17, 3.02) makes the first turn a clear left. Nothing is asked, and the checker
    refuses the question asked on the first plan when the things stand so."""
    moved = {"bedroom/table/1": (1.0, 4.27), "study/desk/1": (0.73, 7.27), "bedroom/plant/1": (3.17, 3.02)}
    things = [obj(o["id"], *moved[o["id"]], w=o["size"][0], d=o["size"][1]) if o["id"] in moved else dict(o)
              for o in THINGS]
    files = house(ROOMS, things, ["bedroom", "study"], doors=[DOOR], between=(2.0, 6.0))
    assert routes(files) == []
    messages = [p.message for p in check(files, routes(two_rooms(), fmt=None))]
    assert ("the turn at the door is turn left from the way one came but unclear from straight through the opening"
            in messages), messages
