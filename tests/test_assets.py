"""Object library: catalog data, name resolution, procedural models, room shells (no bpy)."""

from __future__ import annotations

import numpy as np
import pytest

from assets.catalog import (ACTIVITIES, CATEGORIES, COLORS, PLACEMENTS, affordances,
                            categories_affording, color_rgb, normalize_category, pick_color,
                            resolve_category, sample_size, suggest_category, support_heights)
from assets.models import build_model, raw_bounds
from assets.shells import ROOM_KINDS, ROOM_OBJECTS, room_kind, shell_style, wall_colors_distinct

ISSUE_CATEGORIES = [
    "air conditioner", "apple", "bath", "bed", "bench", "book", "bookshelf", "bowl", "bulb",
    "cabinet", "carpet", "chair", "clothes", "coffee machine", "computer", "cup", "cupboard",
    "curtain", "cycle", "desk", "dishwasher", "door", "exercise machine", "eyeglasses",
    "fireplace", "floor lamp", "fridge", "fruit", "handbag", "headphone", "lamp", "laptop",
    "locker", "microwave", "mirror", "mouse", "oven", "piano", "picture", "pillow", "plant",
    "plate", "pot", "printer", "print", "safe", "sink", "sofa", "stand", "stove", "table",
    "telephone", "toilet", "towel", "tumbler", "tv", "vase", "vending machine", "wardrobe",
    "washing machine", "washstand", "window", "wine", "yoga mat"]

SEEDS = (0, 1, 2)


def test_catalog_covers_issue_categories():
    assert sorted(CATEGORIES) == sorted(ISSUE_CATEGORIES)


@pytest.mark.parametrize("name", sorted(CATEGORIES))
def test_category_builds_within_declared_size(name):
    cat = CATEGORIES[name]
    for seed in SEEDS:
        model = build_model(name, np.random.default_rng(seed))
        assert model.parts and all(len(p.mesh.faces) > 0 for p in model.parts)
        for part in model.parts:
            assert np.isfinite(part.mesh.vertices).all(), part.name
            assert len(part.material.color) == 4 and all(0 <= c <= 1 for c in part.material.color)
        lo, hi = model.bounds
        np.testing.assert_allclose(hi - lo, model.size, atol=1e-6)
        np.testing.assert_allclose((lo + hi)[:2] / 2, 0, atol=1e-6)    # centred footprint
        assert abs(lo[2]) < 1e-6                                       # stands on z = 0
        assert all(a - 1e-6 <= s <= b + 1e-6 for a, s, b in zip(cat.size_min, model.size, cat.size_max))
        assert model.color in cat.colors


@pytest.mark.parametrize("name", sorted(CATEGORIES))
def test_builders_aim_for_the_requested_box(name):
    """Before fitting, a builder's geometry is already close to the requested size, so the
    final rescale never visibly distorts an object."""
    size = tuple((np.array(CATEGORIES[name].size_min) + CATEGORIES[name].size_max) / 2)
    lo, hi = raw_bounds(name, np.random.default_rng(7), size)
    rel = np.abs((hi - lo) - size) / np.asarray(size)
    assert rel.max() < 0.25, (name, (hi - lo).round(3), np.round(size, 3))


def test_same_seed_same_vertices_and_seeds_vary():
    for name in sorted(CATEGORIES):
        a = build_model(name, np.random.default_rng(11))
        b = build_model(name, np.random.default_rng(11))
        assert [p.name for p in a.parts] == [p.name for p in b.parts]
        for pa, pb in zip(a.parts, b.parts):
            assert np.array_equal(pa.mesh.vertices, pb.mesh.vertices)
            assert pa.material == pb.material
        c = build_model(name, np.random.default_rng(12))
        assert c.size != a.size or any(
            pa.mesh.vertices.shape != pc.mesh.vertices.shape or not np.array_equal(pa.mesh.vertices, pc.mesh.vertices)
            for pa, pc in zip(a.parts, c.parts)), name


def test_overrides_color_and_size():
    model = build_model("chair", np.random.default_rng(3), color="Red", size=(0.45, 0.5, 0.9))
    assert model.color == "red" and model.size == (0.45, 0.5, 0.9)
    main_colors = {p.material.color[:3] for p in model.parts}
    assert COLORS["red"] in main_colors
    # the override does not shift the rng stream: same style as the un-overridden build
    plain = build_model("chair", np.random.default_rng(3), size=(0.45, 0.5, 0.9))
    assert [p.name for p in plain.parts] == [p.name for p in model.parts]
    with pytest.raises(ValueError):
        build_model("chair", np.random.default_rng(0), color="ultraviolet")
    assert color_rgb("#ff0000") == (1.0, 0.0, 0.0) and color_rgb("Gray") == COLORS["grey"]


def test_wall_mounted_tv_and_open_door():
    tv = build_model("tv", np.random.default_rng(0), wall_mounted=True)
    assert tv.size[1] < 0.1 and "stand" not in [p.name for p in tv.parts]
    closed = build_model("door", np.random.default_rng(0), size=(0.9, 0.12, 2.1))
    opened = build_model("door", np.random.default_rng(0), size=(0.9, 0.12, 2.1), open_angle=90)
    assert opened.bounds[1][1] > closed.bounds[1][1] + 0.5   # the leaf swings out into +y


def test_support_surfaces_match_catalog_levels():
    for name, cat in CATEGORIES.items():
        model = build_model(name, np.random.default_rng(5))
        expected = support_heights(name, model.size)
        assert len(model.support_heights) == len(expected), name
        np.testing.assert_allclose(model.support_heights, expected, atol=0.01, err_msg=name)
        assert cat.can_support == bool(expected)


def test_sample_size_and_color_are_seeded_and_in_range():
    for name, cat in CATEGORIES.items():
        rng = np.random.default_rng(1)
        w, d, h = sample_size(name, rng)
        assert all(a <= v <= b for a, v, b in zip(cat.size_min, (w, d, h), cat.size_max)), name
        if cat.round:
            assert w == d
        assert pick_color(name, np.random.default_rng(2)) == pick_color(name, np.random.default_rng(2))


@pytest.mark.parametrize("text, expected", [
    ("Cups", "cup"), ("cup", "cup"), ("Mugs", "cup"), ("bookcase", "bookshelf"),
    ("Bookshelves", "bookshelf"), ("shelves", "bookshelf"), ("television", "tv"), ("TVs", "tv"),
    ("bathtub", "bath"), ("exercise bike", "cycle"), ("Exercise_Bikes", "cycle"),
    ("dish washer", "dishwasher"), ("dish-washer", "dishwasher"), ("refrigerator", "fridge"),
    ("fridges", "fridge"), ("couch", "sofa"), ("sofas", "sofa"), ("couches", "sofa"),
    ("pc", "computer"), ("monitor", "computer"), ("potted plant", "plant"), ("plants", "plant"),
    ("desk lamp", "lamp"), ("painting", "picture"), ("photo frame", "picture"),
    ("prints", "print"), ("papers", "print"), ("wine bottle", "wine"), ("wine bottles", "wine"),
    ("glasses", "eyeglasses"), ("eyeglasses", "eyeglasses"), ("wine glasses", "tumbler"),
    ("clothes", "clothes"), ("dishes", "bowl"), ("lockers", "locker"), ("tumblers", "tumbler"),
    ("mice", "mouse"), ("benches", "bench"), ("yoga  mats", "yoga mat"), ("Floor Lamps", "floor lamp"),
    ("headphones", "headphone"), ("washing machines", "washing machine"), ("vending machines", "vending machine"),
    ("air conditioners", "air conditioner"), ("pillows", "pillow"), ("cushions", "pillow"),
    ("treadmill", "exercise machine"), ("nightstand", "stand"), ("rug", "carpet"), ("loo", "toilet"),
])
def test_aliases_and_plurals_resolve(text, expected):
    assert resolve_category(text) == expected
    assert normalize_category(text) == expected


def test_unknown_names_and_suggestions():
    for text in ("fridgee", "sofaa", "unicorn", "boxes", "spaceship"):
        assert resolve_category(text) is None
    assert normalize_category("Boxes") == "box"          # cleaned singular for error messages
    assert suggest_category("fridgee") == "fridge"
    assert suggest_category("sofaa") == "sofa"
    assert suggest_category("tabel") == "table"
    assert suggest_category("televison") == "tv"
    assert suggest_category("washingmachine") == "washing machine"
    assert suggest_category("unicorn") is None


def test_placement_and_affordance_data():
    names = set(CATEGORIES)
    for name, cat in CATEGORIES.items():
        assert cat.placement in PLACEMENTS
        assert isinstance(affordances(cat.name), tuple)
        assert set(affordances(cat.name)) <= set(ACTIVITIES)
        assert set(cat.supports) | set(cat.group_with) | set(cat.faces) <= names
        if cat.placement == "on_support":
            assert cat.supports and all(CATEGORIES[s].can_support for s in cat.supports), name
    for activity in ACTIVITIES:
        assert categories_affording(activity), activity
    assert affordances("stove") == ("cooking",) and "sleeping" in affordances("beds")
    assert "bathing" in affordances("bathtub") and "working" in affordances("computer")
    assert CATEGORIES["chair"].group_with == ("table", "desk")
    assert CATEGORIES["window"].placement == "in_window" and CATEGORIES["bulb"].placement == "ceiling"


def test_shell_styles():
    assert room_kind("Bedroom 2") == "bedroom" and room_kind("living_room") == "living room"
    assert room_kind("master bedroom") == "bedroom" and room_kind("somewhere") == "room"
    assert shell_style("bedroom").floor_pattern == "planks"
    assert shell_style("kitchen").floor_pattern == "tiles"
    assert shell_style("bathroom 1").floor_pattern == "tiles"
    assert shell_style("office").floor_pattern == "carpet"
    common = ["kitchen", "bathroom", "bedroom", "living room", "dining room", "office", "study",
              "dressroom", "hallway", "gym", "laundry"]
    assert wall_colors_distinct(common)
    for kind in ROOM_KINDS:
        style = shell_style(kind, variant=3)
        assert style.room_kind == kind
    for kind, objects in ROOM_OBJECTS.items():
        assert kind in ROOM_KINDS and set(objects) <= set(CATEGORIES)
