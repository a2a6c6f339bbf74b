"""Route plans a scene allows with every object taken as seen (queries/possible.py), and the
check `egoscene sample` runs with it (egoscene/sample_check.py)."""

from __future__ import annotations

from pathlib import Path

from fixtures.queries.builder import house
from queries.possible import route_plans_possible
from test_route_doors import DOOR, ROOMS, THINGS, routes

from generator.spec.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def _house(unseen=()) -> dict:
    return house(ROOMS, [dict(o) for o in THINGS], ["bedroom", "study"], doors=[DOOR], between=(2.0, 6.0),
                 unseen=unseen)


def test_the_possible_count_ignores_what_the_render_missed():
    """test_route_doors' two-room house gives one route, through the door to the desk. With the
    desk never seen clearly the engine asks none; the possible count still finds that one."""
    seen, unseen = _house(), _house(unseen=("study/desk/1",))
    assert len(routes(seen)) == 1
    assert route_plans_possible(seen["scene.json"], seen["trajectory.json"]) == 1
    assert routes(unseen) == []
    assert route_plans_possible(unseen["scene.json"], unseen["trajectory.json"]) == 1


def test_the_possible_count_is_bounded_by_the_scene():
    """Without the study's two things the house holds nothing to walk to past the door: none."""
    files = house(ROOMS, [dict(o) for o in THINGS[:2]], ["bedroom", "study"], doors=[DOOR], between=(2.0, 6.0))
    assert route_plans_possible(files["scene.json"], files["trajectory.json"]) == 0


def test_the_sample_check_refuses_a_spec_with_nothing_to_route_by_and_validate_notes_it(capsys):
    """A sampled office that, rendered, gave no route plan is refused with the reason, and
    `validate --layout` passes it with a note; scenario-05 (three route plans in every render
    of it) passes without one."""
    from egoscene.cli import main
    from egoscene.sample_check import short_of_route_plans

    office = ROOT / "tests" / "fixtures" / "sample" / "short-of-routes.yaml"
    why = short_of_route_plans(load_scenario(office))
    assert why is not None and why.startswith("its rooms allow 0 of 3 route plans")
    assert main(["validate", "--layout", str(office), str(ROOT / "scenarios" / "scenario-05.yaml")]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if line.startswith("note")]
    assert len(notes) == 1 and "short-of-routes.yaml: its rooms allow 0 of 3 route plans" in notes[0]
