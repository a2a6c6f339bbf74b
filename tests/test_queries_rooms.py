"""docs/ground-truth.md "Rooms a viewer can tell": questions say a room's label only where the
video shows what room it is. Hand-built houses with answers worked out by hand."""

from __future__ import annotations

import tempfile

from fixtures.queries.builder import house, obj, write
from queries.check import check_records
from queries.check_common import named_objects
from queries.check_facts import Facts, load_files
from queries.check_rules import DEFAULT as CHECK_RULES
from queries.engine import build_queries
from queries.ontology import FIXTURE_ONTOLOGY
from test_queries_tasks import scenario

ROOMS = {"kitchen": [0, 0, 4, 4], "living room": [4, 0, 8, 4]}
TYPES = {"kitchen": "kitchen", "living room": "living room"}


def kitchen_house(fridge=True, unseen=()):
    objs = [obj("kitchen/chair/1", 1, 1), obj("kitchen/chair/2", 2, 1), obj("kitchen/chair/3", 3, 1),
            obj("kitchen/table/1", 3, 3, 0.8, 0.8), obj("living-room/sofa/1", 5, 2, 1.6, 0.8), obj("living-room/chair/1", 7, 1)]
    if fridge:
        objs.append(obj("kitchen/fridge/1", 1, 3, 0.7, 0.7))
    return house(ROOMS, objs, list(ROOMS), types=TYPES, unseen=unseen)


def counting(files):
    records, _ = build_queries(scenario(files), 3, ontology=FIXTURE_ONTOLOGY)
    return [r for r in records if r["task"] == "object_counting"]


def test_a_kitchen_is_named_only_once_its_fridge_is_seen():
    # three chairs in a room whose walls and floor are all a viewer sees of it being a kitchen:
    # "How many chairs are in the kitchen?" asks them to guess which room that is
    assert [r["question"] for r in counting(kitchen_house())] == ["How many chair(s) are in the kitchen?"]
    assert counting(kitchen_house(fridge=False)) == []
    assert counting(kitchen_house(unseen=("kitchen/fridge/1",))) == []   # there, but never seen clearly


def test_rooms_numbered_against_the_walk_are_never_named():
    # the walk enters "bedroom 2" first: a viewer calls it bedroom 1
    rooms = {"bedroom 1": [0, 0, 4, 4], "bedroom 2": [4, 0, 8, 4]}
    objs = [obj("bedroom-1/bed/1", 2, 3, 1.4, 1.0), obj("bedroom-1/chair/1", 1, 1), obj("bedroom-1/chair/2", 3, 1),
            obj("bedroom-2/bed/1", 6, 3, 1.4, 1.0), obj("bedroom-2/chair/1", 5, 1), obj("bedroom-2/chair/2", 7, 1)]
    types = {r: "bedroom" for r in rooms}
    in_order = counting(house(rooms, objs, ["bedroom 1", "bedroom 2"], types=types))
    assert sorted(r["question"] for r in in_order) == ["How many chair(s) are in the bedroom 1?",
                                                      "How many chair(s) are in the bedroom 2?"]
    files = house(rooms, objs, ["bedroom 2", "bedroom 1"], types=types)
    assert counting(files) == []
    records, _ = build_queries(scenario(files), 3, ontology=FIXTURE_ONTOLOGY)
    assert not [r["question"] for r in records if "bedroom" in r["question"]]   # "the bed in the bedroom 1" neither


def test_the_checker_refuses_a_room_a_viewer_cannot_tell():
    records = counting(kitchen_house())
    with tempfile.TemporaryDirectory() as tmp:
        told = check_records(records, load_files(write(tmp, kitchen_house())), ontology=FIXTURE_ONTOLOGY)
    assert told == []
    with tempfile.TemporaryDirectory() as tmp:
        files = load_files(write(tmp, kitchen_house(unseen=("kitchen/fridge/1",))))
        found = check_records(records, files, ontology=FIXTURE_ONTOLOGY)
        facts = Facts(files, CHECK_RULES)
        _, by_name = named_objects(facts, ["chair in the living room", "sofa"])
    assert {p.kind for p in found} == {"ambiguity"}
    assert "says what room it is" in found[0].message and "fridge" in found[0].message
    assert by_name == []                  # the living room's sofa says what it is
    with tempfile.TemporaryDirectory() as tmp:
        facts = Facts(load_files(write(tmp, kitchen_house(fridge=False))), CHECK_RULES)
        _, by_name = named_objects(facts, ["table in the kitchen"])
    assert [k for k, _ in by_name] == ["ambiguity"]


def test_numbered_rooms_out_of_walking_order_are_refused_by_the_checker():
    rooms = {"bedroom 1": [0, 0, 4, 4], "bedroom 2": [4, 0, 8, 4]}
    objs = [obj("bedroom-1/bed/1", 2, 3, 1.4, 1.0), obj("bedroom-1/chair/1", 1, 1), obj("bedroom-1/chair/2", 3, 1),
            obj("bedroom-2/bed/1", 6, 3, 1.4, 1.0)]
    types = {r: "bedroom" for r in rooms}
    records = counting(house(rooms, objs, ["bedroom 1", "bedroom 2"], types=types))
    assert [r["question"] for r in records] == ["How many chair(s) are in the bedroom 1?"]
    with tempfile.TemporaryDirectory() as tmp:
        files = load_files(write(tmp, house(rooms, objs, ["bedroom 2", "bedroom 1"], types=types)))
        found = check_records(records, files, ontology=FIXTURE_ONTOLOGY)
    # (its evidence frames are off too: the walk changed)
    assert [p.message for p in found if p.kind == "ambiguity"] == [
        "room 'bedroom 1': the video enters bedroom 2, bedroom 1 in that order, so a viewer numbers them otherwise"]
