"""assets.vocabulary.BEDSIDE_ALIKE: a cabinet at a bed's head is a nightstand to a viewer (person
check of sample-1-000), so where one stands neither "stand" nor "cabinet" is counted or named by
its kind. Hand-built bedrooms; the rule depends on where the cabinet stands, not on its kind."""

from __future__ import annotations

import tempfile

from fixtures.queries.builder import house, obj, write
from queries.check import check_records
from queries.check_facts import load_files
from queries.engine import build_queries
from queries.ontology import FIXTURE_ONTOLOGY
from test_queries_tasks import scenario

ROOMS = {"bedroom": [0, 0, 6, 5], "living room": [6, 0, 10, 5]}
TYPES = {"bedroom": "bedroom", "living room": "living room"}


def bedroom(cabinet_xy):
    """A 1.6 x 2.0 m bed with its head on the north wall (it faces south, yaw 270: its head
    end is y = 4.8, its foot y = 2.8), a nightstand by its head, another by the west wall, a
    cabinet at `cabinet_xy`, and two chairs. The living room holds one more stand and two chairs."""
    objs = [obj("bedroom/bed/1", 3, 3.8, 1.6, 2.0), obj("bedroom/stand/1", 1.8, 4.5, 0.5, 0.4),
            obj("bedroom/stand/2", 0.4, 3.0, 0.5, 0.4), obj("bedroom/cabinet/1", *cabinet_xy, 0.9, 0.45),
            obj("bedroom/chair/1", 0.8, 1.5), obj("bedroom/chair/2", 5.2, 1.5),
            obj("living-room/stand/1", 8, 4.5, 0.5, 0.4), obj("living-room/chair/1", 7, 1.5),
            obj("living-room/chair/2", 9, 1.5)]
    return house(ROOMS, objs, list(ROOMS), types=TYPES, doors=[(("bedroom", "living room"), (6, 2.5), "y")])


AT_THE_HEAD = (4.3, 4.5)     # 0.05 m from the bed's side, level with its head half: a bedside cabinet
AT_THE_FOOT = (3.0, 0.6)     # across the room, before the bed's foot: a cabinet


def counted(files) -> dict[str, set[str]]:
    records, _ = build_queries(scenario(files), 5, ontology=FIXTURE_ONTOLOGY)
    return {task: {r["derivation"]["category"] for r in records if r["task"] == task}
            for task in ("object_counting", "global_counting")}, records


def test_a_cabinet_at_a_beds_head_keeps_stands_and_cabinets_out_of_questions():
    near, records = counted(bedroom(AT_THE_HEAD))
    # a viewer would count 3 nightstands in the bedroom, 4 in the house; the scene says 2 and 3
    assert near == {"object_counting": {"chair"}, "global_counting": {"chair"}}
    assert not any(w in r["question"] for r in records for w in ("stand", "cabinet")), \
        [r["question"] for r in records if "stand" in r["question"] or "cabinet" in r["question"]]
    far, _ = counted(bedroom(AT_THE_FOOT))     # the same cabinet away from the bed is one
    assert far == {"object_counting": {"chair", "stand"}, "global_counting": {"chair", "stand"}}


def test_the_checker_refuses_a_count_of_stands_beside_a_bedside_cabinet():
    _, records = counted(bedroom(AT_THE_FOOT))
    stands = next(r for r in records if r["task"] == "object_counting" and r["derivation"]["category"] == "stand")
    assert stands["answer"] == 2
    with tempfile.TemporaryDirectory() as tmp:
        assert check_records([stands], load_files(write(tmp, bedroom(AT_THE_FOOT))),
                             ontology=FIXTURE_ONTOLOGY) == []
    with tempfile.TemporaryDirectory() as tmp:
        problems = check_records([stands], load_files(write(tmp, bedroom(AT_THE_HEAD))), ontology=FIXTURE_ONTOLOGY)
        assert [p.kind for p in problems if p.id == stands["id"]] == ["ambiguity"], problems
