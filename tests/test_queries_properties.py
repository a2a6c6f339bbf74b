"""Property tests over random small scenes (queries.synthetic): whatever the layout, every
record passes the independent checker, options are distinct, letters are balanced, and the
output is byte-for-byte deterministic. Derandomized (the same scenes on every run), and the
scenes must yield questions: every task at least a measured floor over the run, so an engine
that refused everything would fail."""

from __future__ import annotations

import hashlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formats.base import load_model
from formats.scene import Scene as SceneFile
from formats.trajectory import Trajectory as TrajectoryFile
from formats.visibility import Visibility as VisibilityFile
from queries.check import check_records
from queries.check_facts import Files
from queries.check_extractive import _direction
from queries.engine import GENERATORS, build_queries
from queries.geometry import direction_label
from queries.model import Scenario, parse_scene, parse_trajectory, parse_visibility
from queries.records import dumps, letter_counts
from queries.synthetic import row_scene

scenes = st.builds(
    row_scene,
    seed=st.integers(0, 10_000),
    n_rooms=st.integers(2, 6),
    two_rows=st.booleans(),
    objects_per_room=st.sampled_from([(2, 4), (3, 7), (5, 9)]),
    unseen_rate=st.sampled_from([0.0, 0.1, 0.3]),
    covisible_rate=st.sampled_from([0.0, 0.3, 1.0]),
)

EXAMPLES = 25
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True, database=None)


def scenario(files) -> Scenario:
    return Scenario(parse_scene(files["scene.json"]), parse_trajectory(files["trajectory.json"]),
                    parse_visibility(files["visibility.json"]))


def files_of(files) -> Files:
    """The same files as the checker reads them: through their format models only."""
    return Files(load_model(files["scene.json"], SceneFile, "scene.json"),
                 load_model(files["trajectory.json"], TrajectoryFile, "trajectory.json"),
                 load_model(files["visibility.json"], VisibilityFile, "visibility.json"))


YIELDS: dict[str, dict[str, int]] = {}     # scene hash -> questions per task
# Questions per task over the run's scenes, about 2/3 of what was measured (in brackets; 24
# distinct scenes, all with questions; in a 300-scene sample 1 scene, 2 rooms with 6 objects,
# yielded none, every task saying why).
FLOORS = {"appearance_order": 18,      # (27; 48 before the categories had to be 2 s apart, not 1)
          "global_counting": 16,       # (26)
          "map_direction": 20,         # (33)
          "map_scale": 18,             # (28)
          "memory_action": 25,         # (40)
          "object_counting": 13,       # (21)
          "relative_direction": 40,    # (60)
          "relative_distance": 6,      # (12)
          "route_plan": 1,             # (2; 7 before the first turn had to read the same from every place
                                       # by the start, 3 deg short of the unclear bands' middles - person
                                       # checks; 14 before a "go forward" walk had to be >= 0.3 m, issue 10;
                                       # every bundled scenario still gives 3)
          "simulation": 25}            # (39)
MIN_SCENES_WITH_QUESTIONS = 0.9


@SETTINGS
@given(scenes)
def every_record_passes_the_independent_checker(files):
    sc = scenario(files)
    records, report = build_queries(sc, per_task=3)
    key = json.dumps([files["scene.json"], files["visibility.json"]], sort_keys=True)
    YIELDS[hashlib.sha256(key.encode()).hexdigest()] = report.counts
    if not records:     # a scene may yield nothing, but then every task says why
        assert set(report.shortfall) == set(GENERATORS) and all(report.shortfall.values()), report.shortfall
    assert check_records(records, files_of(files)) == []
    for r in records:
        if r["format"] == "mcq":
            assert len(set(r["options"])) == len(r["options"])
            assert r["options"].count(r["answer_text"]) == 1
    assert sum(report.counts.values()) == sum(r["format"] != "free_form" for r in records)


def test_every_record_passes_the_independent_checker():
    YIELDS.clear()
    every_record_passes_the_independent_checker()
    assert len(YIELDS) >= EXAMPLES - 2, f"only {len(YIELDS)} distinct scenes were tried"
    with_questions = sum(any(counts.values()) for counts in YIELDS.values())
    assert with_questions >= MIN_SCENES_WITH_QUESTIONS * len(YIELDS), f"{with_questions} of {len(YIELDS)} scenes"
    assert set(FLOORS) == set(GENERATORS), "every task needs a floor here"
    made = {task: sum(counts.get(task, 0) for counts in YIELDS.values()) for task in GENERATORS}
    low = {task: (n, FLOORS[task]) for task, n in made.items() if n < FLOORS[task]}
    assert not low, f"tasks below their floor (questions made, floor) over {len(YIELDS)} scenes: {low}"


@SETTINGS
@given(scenes)
def test_letters_balanced_and_output_deterministic(files):
    sc = scenario(files)
    first, _ = build_queries(sc, per_task=3)
    again, _ = build_queries(scenario(files), per_task=3)
    assert dumps(first) == dumps(again)
    for counts in letter_counts(first).values():
        assert max(counts.values()) - min(counts.values()) <= 1


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.floats(-180, 180), st.sampled_from(["easy", "medium", "hard"]))
def test_generator_and_checker_direction_rules_agree(angle, level):
    label = direction_label(level, angle, 15.0)
    if label is not None:
        # the checker's bearing is clockwise: the mirror of the generator's angle
        assert _direction(level, -angle) == label
