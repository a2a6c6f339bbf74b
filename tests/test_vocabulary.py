"""assets.vocabulary: one English for every category, used by the questions, the narration and the
parsing of user input. The plurals below were written by hand, one per category."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assets import vocabulary
from assets.catalog import CATEGORIES, COLORS, normalize_category, resolve_category
from assets.vocabulary import count_phrase, display_name, plural, singular
from egoscene.pipeline import Options, generate
from fixtures.queries.builder import obj, tiny_house, tiny_objects, write
from queries import records as rec_mod
from queries import text
from queries.check import check_output
from queries.engine import generate_queries
from queries.ontology import FIXTURE_ONTOLOGY

ROOT = Path(__file__).resolve().parents[1]

PLURALS = {
    "air conditioner": "air conditioners", "apple": "apples", "bath": "baths", "bed": "beds",
    "bench": "benches", "book": "books", "bookshelf": "bookshelves", "bowl": "bowls",
    "bulb": "bulbs", "cabinet": "cabinets", "carpet": "carpets", "chair": "chairs",
    "clothes": "garments", "coffee machine": "coffee machines", "computer": "computers",
    "cup": "cups", "cupboard": "cupboards", "curtain": "curtains", "cycle": "cycles",
    "desk": "desks", "dishwasher": "dishwashers", "door": "doors",
    "exercise machine": "exercise machines", "eyeglasses": "eyeglasses",
    "fireplace": "fireplaces", "floor lamp": "floor lamps", "fridge": "fridges", "fruit": "fruit",
    "handbag": "handbags", "headphone": "headphones", "lamp": "lamps", "laptop": "laptops",
    "locker": "lockers", "microwave": "microwaves", "mirror": "mirrors", "mouse": "mice",
    "oven": "ovens", "piano": "pianos", "picture": "pictures", "pillow": "pillows",
    "plant": "plants", "plate": "plates", "pot": "pots", "print": "prints", "printer": "printers",
    "safe": "safes", "sink": "sinks", "sofa": "sofas", "stand": "stands", "stove": "stoves",
    "table": "tables", "telephone": "telephones", "toilet": "toilets", "towel": "towels",
    "tumbler": "tumblers", "tv": "tvs", "vase": "vases", "vending machine": "vending machines",
    "wardrobe": "wardrobes", "washing machine": "washing machines", "washstand": "washstands",
    "window": "windows", "wine": "wines", "yoga mat": "yoga mats",
}



def test_inflect_is_imported_without_its_type_checks_and_typeguard_is_left_as_it_was():
    """_engine imports inflect under an identity stand-in for typeguard's decorator (its
    instrumentation costs 1.6 s a process) and puts the real typeguard back afterwards; in a
    fresh interpreter, so no earlier test has imported inflect already."""
    from tests.conftest import in_fresh_python

    in_fresh_python(
        "import sys, typeguard\n"
        "from assets.vocabulary import plural, singular\n"
        "assert plural('bookshelf') == 'bookshelves' and singular('knives') == 'knife'\n"
        "import inflect\n"
        "assert inflect.typechecked.__module__ == 'assets.vocabulary', inflect.typechecked\n"
        "assert sys.modules['typeguard'] is typeguard and typeguard.typechecked.__module__.startswith('typeguard')\n"
    )
    # without a typeguard imported before, none is left behind either
    in_fresh_python("import sys\nfrom assets.vocabulary import plural\nplural('cup')\nassert 'typeguard' not in sys.modules\n")


def test_the_table_names_every_category():
    assert len(PLURALS) == 64 and set(PLURALS) == set(CATEGORIES)


@pytest.mark.parametrize("category, expected", sorted(PLURALS.items()))
def test_every_category_plural_and_back(category, expected):
    name = display_name(category)                  # what a question calls one of them
    assert plural(category) == expected
    assert plural(category, 1) == name
    assert singular(expected) == name              # the plural round-trips
    assert singular(category) == category          # and a singular stays
    assert normalize_category(expected) == category  # user input is read with the same words
    assert normalize_category(expected.title()) == category


def test_count_phrases():
    assert count_phrase(1, "bookshelf") == "1 bookshelf"
    assert count_phrase(3, "bookshelf") == "3 bookshelves"
    assert count_phrase(1, "knife") == "1 knife" and count_phrase(3, "knife") == "3 knives"
    assert count_phrase(0, "chair") == "0 chairs"
    assert count_phrase(2, "mouse") == "2 mice"
    assert count_phrase(1, "clothes") == "1 garment" and count_phrase(4, "clothes") == "4 garments"
    assert count_phrase(3, "fruit") == "3 fruit"
    assert count_phrase(2, "eyeglasses") == "2 eyeglasses"
    assert count_phrase(2, "washing machine") == "2 washing machines"


def test_singular_of_words_that_are_no_category():
    assert singular("knives") == "knife" and singular("shelves") == "shelf"
    assert singular("exercise bikes") == "exercise bike"
    assert singular("bottles of wine") == "bottle of wine"
    assert singular("mouses") == "mouse"             # the other plural of a computer mouse
    assert singular("glasses") == "glass"            # but "glasses" names eyeglasses as an alias:
    assert resolve_category("glasses") == "eyeglasses"
    assert resolve_category("wine glasses") == "tumbler"
    assert resolve_category("stacks of paper") == "print"
    assert resolve_category("chests of drawers") == "cabinet"


def test_display_names_name_one_category_each():
    # one clothes object is one folded garment: questions call it that; the checker maps every
    # display name back to exactly one category (queries.check_facts.category_named)
    assert {c: display_name(c) for c in CATEGORIES if display_name(c) != c} == {"clothes": "garment"}
    names = [display_name(c) for c in CATEGORIES]
    assert len(set(names)) == len(names)


def test_questions_pluralise_with_the_vocabulary(tmp_path):
    assert text.plural is plural
    objects = tiny_objects() + [
        obj("living-room/bookshelf/1", 6.0, 3.7, 0.8, 0.4),   # a second bookshelf (study has one)
        obj("kitchen/mouse/1", 0.5, 3.5, 0.1, 0.1), obj("study/mouse/1", 1.3, 8.2, 0.1, 0.1),
        obj("bedroom/fruit/1", 8.5, 3.5, 0.08, 0.08), obj("bathroom/fruit/1", 9.5, 7.0, 0.08, 0.08),
        obj("bedroom/print/1", 7.8, 3.5, 0.25, 0.3), obj("study/print/1", 1.8, 8.2, 0.25, 0.3),
        obj("bedroom/clothes/1", 8.2, 4.2, 0.3, 0.25), obj("bedroom/clothes/2", 9.0, 4.2, 0.3, 0.25),
        obj("study/clothes/1", 2.2, 8.6, 0.3, 0.25),
    ]
    out = write(tmp_path / "tiny", tiny_house(objects=objects))
    generate_queries(out, per_task=10, ontology=FIXTURE_ONTOLOGY)
    records = rec_mod.read_jsonl(out / "queries.jsonl")
    asked = {r["question"]: r["answer"] for r in records if r["task"] == "global_counting"}
    for noun in ("bookshelves", "mice"):
        assert asked[f"How many {noun} are observed across all rooms in the video?"] == 2
    # a fruit is one piece ("fruit" for several, issue 13); a print is a stack of paper: never counted
    assert asked["How many fruit are observed across all rooms in the video?"] == 2
    assert not [q for q in asked if "print" in q]
    assert asked["How many garments are observed across all rooms in the video?"] == 3   # clothes
    counted = {r["question"]: r["answer"] for r in records if r["task"] == "object_counting"}
    assert counted.get("How many garment(s) are in the bedroom?") == 2
    words = " ".join(r["question"] + " " + json.dumps(r.get("options")) for r in records)
    assert not re.search(r"\b(bookshelfs|mouses|fruits|clothes)\b", words)
    assert check_output(out, ontology=FIXTURE_ONTOLOGY) == []   # the checker reads them back


def test_narration_pluralises_with_the_vocabulary(tmp_path):
    # scenario-02's walk looks at the kitchen's fruit (one or several pieces): "look at the fruit"
    # (the walk's own rule wrote "fruits"). Every object named is a category or its plural.
    generate(ROOT / "scenarios" / "scenario-02.yaml", tmp_path, Options(until="trajectory"))
    narration = json.loads((tmp_path / "scenario-02" / "trajectory.json").read_text())["narration"]
    looked = [e["text"].removeprefix("look at the ") for e in narration if e["text"].startswith("look at the ")]
    names = set(CATEGORIES) | set(PLURALS.values()) | {display_name(c) for c in CATEGORIES}
    assert looked and [w for w in looked if w not in names] == []
    assert "fruit" in looked


def test_countable_and_look_alikes_by_hand():
    from assets.categories import CATEGORIES
    from assets.vocabulary import LOOKALIKE_GROUPS, UNCOUNTABLE, countable, lookalikes

    assert UNCOUNTABLE == {"print", "curtain"}   # a stack of paper, a pair of panels on one rod;
    assert not countable("print") and not countable("curtain")   # a fruit is one piece, clothes one garment
    assert countable("fruit") and countable("clothes") and countable("book")
    assert lookalikes("fruit") == {"apple"} and lookalikes("apple") == {"fruit"}   # an apple is a fruit
    assert lookalikes("desk") == {"table"} and lookalikes("floor lamp") == {"lamp"}
    assert lookalikes("washstand") == {"sink", "cabinet"} and lookalikes("cupboard") == {"cabinet"}
    assert lookalikes("cabinet") == {"cupboard", "washstand"}   # a washstand stands on a cabinet
    assert lookalikes("tumbler") == {"cup"} and lookalikes("sofa") == frozenset()
    assert all(c in CATEGORIES for g in LOOKALIKE_GROUPS for c in g)


def _in_main_colour(rgb, main) -> bool:
    """Is `rgb` the main colour, darker (times k >= 0.5) or a little lighter (at most 20% towards
    white), as Builder.main_as makes it?"""
    import numpy as np
    c, m = np.asarray(rgb[:3]), np.asarray(main)
    k = c.sum() / max(m.sum(), 1e-6)
    if 0.5 <= k <= 1.0 and np.allclose(c, m * k, atol=0.03):
        return True
    t = (c - m).sum() / max((1 - m).sum(), 1e-6)
    return 0 <= t <= 0.2 and np.allclose(c, m + (1 - m) * t, atol=0.03)


def _seen_main_colour_share(category: str, color: str, seed: int, grid: int = 16) -> float:
    """The share of what one sees of a built model in its main colour: orthographic views from
    eight sides, 25 deg from above, a grid of pixels over its bounding sphere, the nearest
    triangle under each pixel (a small z-buffer: trimesh's ray casting needs rtree)."""
    import numpy as np
    import trimesh

    from assets.catalog import color_rgb, sample_size
    from assets.models import build_model
    model = build_model(category, np.random.default_rng(seed + 10),
                        size=sample_size(category, np.random.default_rng(seed)), color=color)
    whole = trimesh.util.concatenate([p.mesh for p in model.parts])
    main = np.repeat([_in_main_colour(p.material.color, color_rgb(color)) for p in model.parts],
                     [len(p.mesh.faces) for p in model.parts])
    centre, radius = whole.bounding_sphere.primitive.center, whole.bounding_sphere.primitive.radius
    tris = whole.vertices[whole.faces] - centre
    pixels = np.linspace(-radius, radius, grid)
    pu, pv = (a.ravel() for a in np.meshgrid(pixels, pixels))
    seen = []
    for azimuth in np.radians(np.arange(0, 360, 45)):
        look = -np.array([np.cos(azimuth), np.sin(azimuth), np.tan(np.radians(25))])
        look /= np.linalg.norm(look)
        u = np.cross(look, [0, 0, 1])
        u /= np.linalg.norm(u)
        x, y, z = tris @ u, tris @ np.cross(u, look), tris @ look          # (faces, 3 corners)
        e1x, e1y, e2x, e2y = x[:, 1] - x[:, 0], y[:, 1] - y[:, 0], x[:, 2] - x[:, 0], y[:, 2] - y[:, 0]
        det = e1x * e2y - e1y * e2x
        ok = np.abs(det) > 1e-12
        dx, dy = pu[:, None] - x[ok, 0], pv[:, None] - y[ok, 0]          # (pixels, faces)
        l1 = (dx * e2y[ok] - dy * e2x[ok]) / det[ok]
        l2 = (e1x[ok] * dy - e1y[ok] * dx) / det[ok]
        depth = z[ok, 0] + l1 * (z[ok, 1] - z[ok, 0]) + l2 * (z[ok, 2] - z[ok, 0])
        depth = np.where((l1 >= 0) & (l2 >= 0) & (l1 + l2 <= 1), depth, np.inf)
        hit = np.isfinite(depth).any(axis=1)
        seen.append(main[ok][depth[hit].argmin(axis=1)])
    seen = np.concatenate(seen)
    return float(seen.mean())


@pytest.mark.parametrize("category", sorted(vocabulary.COLOURED))
def test_a_thing_named_by_its_colour_looks_its_main_colour(category):
    """docs/ground-truth.md "Names": "the red chair" is a chair one sees as red. In every colour
    variant of a category in COLOURED, at least 60% of what one sees of it is its main colour (a
    white chair with navy cushions read as blue in the person check; a bed's frame is hidden by
    white bedding)."""
    shares = {c: min(_seen_main_colour_share(category, c, s) for s in range(2))
              for c in CATEGORIES[category].colors}
    assert min(shares.values()) >= 0.6, shares


def test_colour_words_tell_apart_only_what_a_viewer_would():
    assert vocabulary.colour_word("sofa", "navy") == "blue" and vocabulary.colour_word("sofa", "walnut") == "brown"
    assert vocabulary.colour_word("sofa", "beige") is None and vocabulary.colour_word("bed", "white") is None
    assert vocabulary.told_apart_by_colour("sofa", "dark red", "navy")
    assert not vocabulary.told_apart_by_colour("sofa", "navy", "black")      # navy in shade reads black
    assert not vocabulary.told_apart_by_colour("chair", "walnut", "dark brown")
    assert not vocabulary.told_apart_by_colour("chair", "oak", "red")        # oak has no one word
    assert set(vocabulary.COLOUR_WORDS) <= set(COLORS) and vocabulary.NEAR_BLACK <= set(vocabulary.COLOUR_WORDS)
