"""Memory-Action's activity ontology (issue 10 item 6): a data file with a reason for every
link; answers are activities the visible objects make possible, wrong options activities a
person would call impossible there. Known answers worked by hand, checked against both the
generator's ontology (queries.ontology) and the independent checker's (queries.check_abstractive)."""

from __future__ import annotations

import pytest
import yaml

from assets import activities
from assets.categories import CATEGORIES
from queries.check_abstractive import CatalogActivities
from queries.ontology import catalog_ontology

GENERATOR, CHECKER = catalog_ontology(), CatalogActivities()
LIVING = {"sofa", "tv", "table", "carpet", "plant"}  # a living room with a coffee table, no chairs


def test_every_link_names_a_catalog_category_and_gives_a_reason():
    data = yaml.safe_load(activities.SOURCE.read_text())
    assert set(data) == set(activities.activities())
    for name, entry in data.items():
        links = {**entry.get("possible_with", {}), **entry.get("arguable_with", {})}
        assert entry.get("possible_with"), f"{name}: nothing makes it possible"
        for key, reason in links.items():
            assert all(part.strip() in CATEGORIES for part in key.split("+")), (name, key)
            assert len(reason.split()) >= 3, (name, key, reason)


def test_a_link_without_a_reason_or_to_an_unknown_category_is_refused(tmp_path):
    bad = tmp_path / "activities.yaml"
    bad.write_text("cooking:\n  possible_with:\n    stove: ''\n")
    with pytest.raises(ValueError, match="reason"):
        activities.load(bad)
    bad.write_text("cooking:\n  possible_with:\n    hob: a hob is where food is cooked\n")
    with pytest.raises(ValueError, match="unknown categories"):
        activities.load(bad)


@pytest.mark.parametrize("onto", [GENERATOR, CHECKER], ids=["generator", "checker"])
def test_a_living_room_with_a_coffee_table_is_not_a_dining_room_nor_its_opposite(onto):
    possible, arguable = onto.possible(LIVING), onto.arguable(LIVING)
    assert {"watching tv", "relaxing"} <= possible
    assert "dining" not in possible            # a table without chairs does not make a dining room ...
    assert "dining" in arguable                # ... but a person could argue one eats there: never a wrong option
    assert {"sleeping", "working"} <= arguable  # a nap on the sofa, a laptop on the table
    wrong = set(onto.activities) - arguable
    assert {"cooking", "bathing", "using the toilet", "doing laundry", "printing", "playing music"} <= wrong
    assert not {"reading", "relaxing", "drinking", "eating", "storing"} & wrong  # possible almost anywhere


@pytest.mark.parametrize("onto", [GENERATOR, CHECKER], ids=["generator", "checker"])
def test_objects_that_belong_together_make_an_activity_possible_only_together(onto):
    assert "dining" in onto.possible({"table", "chair"})
    assert "dining" not in onto.possible({"chair"}) and "dining" in onto.arguable({"table"})
    assert "cooking" in onto.possible({"stove"}) and "cooking" not in onto.possible({"fridge"})
    assert "cooking" in onto.arguable({"fridge"}) and "cooking" not in onto.arguable({"bed", "wardrobe"})
    bathroom = {"toilet", "washstand", "bath", "towel"}
    assert onto.possible(bathroom) >= {"using the toilet", "washing", "bathing"}
    assert "dressing" in onto.arguable(bathroom) and "cooking" not in onto.arguable(bathroom)


def test_the_generator_and_the_checker_agree_on_every_single_object():
    for category in CATEGORIES:
        assert GENERATOR.possible({category}) == CHECKER.possible({category}), category
        assert GENERATOR.arguable({category}) == CHECKER.arguable({category}), category
