"""Scenario YAML: what is accepted, what is refused, and how the refusal reads."""

import json
from pathlib import Path

import pytest

from egoscene.cli import main
from generator.spec.scenario import SpecError, json_schema, load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]

VALID = """
name: tiny
typology: single-story residence
seed: 3
rooms:
  kitchen:
    objects: {Fridge: 1, Cups: 3, chair: {count: 2, color: red}}
  living room:
    objects: {sofa: 2, television: 1}
  bedroom 2:
    objects: {bed: 1}
trajectory: [kitchen, living room, bedroom 2]
relations:
  adjacent: [[kitchen, living room]]
  opposite: [[kitchen, bedroom 2]]
"""


def test_valid_spec_normalizes_names_types_and_attributes():
    s = parse_scenario(VALID, "tiny.yaml")
    kitchen = s.rooms["kitchen"]
    assert {o.category: o.count for o in kitchen.objects} == {"chair": 2, "cup": 3, "fridge": 1}
    assert next(o for o in kitchen.objects if o.category == "chair").attributes == {"color": "red"}
    assert s.rooms["living room"].count("tv") == 1  # alias television -> tv
    assert s.rooms["bedroom 2"].type == "bedroom"  # trailing number dropped
    assert s.relations.adjacent == (("kitchen", "living room"),)
    assert s.relations.opposite_pairs() == {("bedroom 2", "kitchen")}


def test_chains_and_groups_expand_to_pairs():
    text = VALID.replace("adjacent: [[kitchen, living room]]", "adjacent: [[kitchen, [living room, bedroom 2]]]").replace(
        "opposite: [[kitchen, bedroom 2]]", "opposite: []")
    s = parse_scenario(text)
    assert s.relations.adjacent == (("bedroom 2", "kitchen"), ("kitchen", "living room"))


def _bad(mutate: str, replace_with: str) -> str:
    assert mutate in VALID
    return VALID.replace(mutate, replace_with)


BAD_CASES = {
    "unknown category": (_bad("Fridge: 1", "fridgee: 1"), "rooms.kitchen.objects.fridgee", "fridge"),
    "unknown room in relation": (_bad("[[kitchen, living room]]", "[[kitchen, livingroom]]"), "relations.adjacent[0][1]", "living room"),
    "trajectory misses a room": (_bad("[kitchen, living room, bedroom 2]", "[kitchen, living room]"), "trajectory", "bedroom 2"),
    "trajectory repeats a room": (_bad("[kitchen, living room, bedroom 2]", "[kitchen, living room, kitchen, bedroom 2]"), "trajectory[2]", "exactly once"),
    "trajectory names unknown room": (_bad("[kitchen, living room, bedroom 2]", "[kitchen, living room, bedroom 3]"), "trajectory[2]", "bedroom 2"),
    "duplicate label": (_bad("  bedroom 2:\n", "  kitchen:\n    objects: {cup: 1}\n  bedroom 2:\n"), "line", "once"),
    "labels differing by case": (_bad("  bedroom 2:\n", "  Kitchen:\n    objects: {cup: 1}\n  bedroom 2:\n"), "rooms.Kitchen", "distinct"),
    "zero count": (_bad("Cups: 3", "Cups: 0"), "rooms.kitchen.objects.Cups", "whole number"),
    "negative count": (_bad("Cups: 3", "Cups: -2"), "rooms.kitchen.objects.Cups", "whole number"),
    "fractional count": (_bad("Cups: 3", "Cups: 2.5"), "rooms.kitchen.objects.Cups", "whole number"),
    "boolean count": (_bad("Cups: 3", "Cups: yes"), "rooms.kitchen.objects.Cups", "whole number"),
    "text count": (_bad("Cups: 3", "Cups: three"), "rooms.kitchen.objects.Cups", "whole number"),
    "unknown typology": (_bad("typology: single-story residence", "typology: castle"), "typology", "office"),
    "bad name": (_bad("name: tiny", "name: Tiny House"), "name", "lower-case"),
    "misspelt field": (_bad("trajectory:", "trajectroy:"), "trajectroy", "trajectory"),
    "adjacent and opposite": (_bad("opposite: [[kitchen, bedroom 2]]", "opposite: [[kitchen, living room]]"), "relations.opposite[0]", "drop one"),
    "relation with one item": (_bad("[[kitchen, living room]]", "[[kitchen]]"), "relations.adjacent[0]", "two"),
    "upper floor in single story": (_bad("    objects: {bed: 1}", "    floor: 1\n    objects: {bed: 1}"), "rooms.bedroom 2.floor", "multi-story"),
    "unknown colour": (_bad("color: red", "color: rde"), "rooms.kitchen.objects.chair.color", "red"),
    "merged duplicate category": (_bad("Cups: 3", "Cups: 3, cup: 1"), "rooms.kitchen.objects.cup", "merge"),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_input_is_refused_with_path_and_fix(case, tmp_path):
    text, path, fix_hint = BAD_CASES[case]
    spec = tmp_path / "bad.yaml"
    spec.write_text(text)
    with pytest.raises(SpecError) as info:
        load_scenario(spec)
    rendered = str(info.value)
    assert str(spec) in rendered
    assert path in rendered
    assert "fix:" in rendered and fix_hint in rendered
    # the CLI refuses it too and writes nothing
    out = tmp_path / "out"
    assert main(["generate", str(spec), "--out", str(out)]) != 0
    assert not out.exists() or not any(out.iterdir())


def test_multi_story_relations_checked_against_floors():
    text = """
name: two
typology: multi-story residence
rooms:
  a: {floor: 0}
  b: {floor: 1}
  c: {floor: 3}
trajectory: [a, b, c]
relations:
  adjacent: [[a, b]]
  vertical: [[a, c]]
"""
    with pytest.raises(SpecError) as info:
        parse_scenario(text, "two.yaml")
    message = str(info.value)
    assert "cannot be adjacent" in message
    assert "consecutive floors" in message
    assert "no room on floor 2" in message


def test_multi_story_needs_two_floors():
    with pytest.raises(SpecError, match="at least two floors"):
        parse_scenario("name: x\ntypology: multi-story residence\nrooms: {a: {}}\ntrajectory: [a]\n")


def test_unreadable_and_non_mapping_files(tmp_path):
    with pytest.raises(SpecError, match="cannot read file"):
        load_scenario(tmp_path / "missing.yaml")
    with pytest.raises(SpecError, match="YAML mapping"):
        parse_scenario("- just\n- a list\n")
    with pytest.raises(SpecError, match="invalid YAML"):
        parse_scenario("name: [unclosed\n")


def test_committed_json_schema_is_current():
    committed = json.loads((ROOT / "scenarios" / "scenario.schema.json").read_text())
    assert committed == json_schema()


def test_spec_hash_ignores_formatting_but_not_content():
    a = parse_scenario(VALID)
    b = parse_scenario(VALID.replace("seed: 3", "seed:    3   # same"))
    c = parse_scenario(VALID.replace("seed: 3", "seed: 4"))
    assert a.spec_hash() == b.spec_hash() != c.spec_hash()
