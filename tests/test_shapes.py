"""L-shaped rooms (generator.layout.shapes): known corners by hand, then through layout,
placement and the walk on a bundled scenario."""

from __future__ import annotations


import pytest
import yaml
from shapely.geometry import Point, Polygon, box

from generator.layout.plan import LayoutError, layout, plan_to_scene
from generator.layout.shapes import ARM_MIN, carve_l, notch
from generator.spec.scenario import parse_scenario
from tests.conftest import ROOT
from tests.layout_checks import assert_plan_is_sound


def test_an_isolated_room_loses_its_north_east_corner():
    room = box(0, 0, 6, 5)
    shaped = carve_l(room, [], [])
    assert shaped.area == pytest.approx(30 - 2.7 * 2.2)     # 45% of each side, in 0.1 m steps
    assert len(shaped.exterior.coords) - 1 == 6             # an L has six corners
    assert not shaped.contains(Point(5.5, 4.5)) and shaped.contains(Point(0.5, 4.5))


def test_the_cut_corner_touches_no_other_space_and_has_nothing_above_it():
    room = box(0, 0, 6, 5)
    east = box(6, 3, 9, 6)           # a neighbour beside the north-east corner
    shaped = carve_l(room, [east], [])
    assert shaped.contains(Point(5.5, 4.5)) and not shaped.contains(Point(0.5, 4.5))   # north-west taken
    above_nw = box(0, 3, 2, 5)       # the floor above covers the north-west corner too
    shaped = carve_l(room, [east], [above_nw])
    assert not shaped.contains(Point(5.5, 0.5))                                       # south-east then
    for other in (east, above_nw):
        assert shaped.union(other).area == pytest.approx(shaped.area + other.area - shaped.intersection(other).area)
    assert carve_l(room, [east], [above_nw], keep=Point(5.5, 0.4)) is not None         # south-west left
    assert carve_l(room, [box(-3, -3, 9, 0), box(-3, 5, 9, 8)], []) is None            # all four touch


def test_a_room_too_small_for_two_arms_has_no_l():
    assert notch(box(0, 0, 3.1, 6), "north-east") is None       # 3.1 m: arms of 2 m leave < 1.2 m
    cut = notch(box(0, 0, ARM_MIN + 1.2, 6), "south-west")
    assert cut is not None and cut.bounds[2] == pytest.approx(1.2)


def _spec(shape_room: str, **changes) -> str:
    doc = yaml.safe_load((ROOT / "scenarios" / "scenario-02.yaml").read_text())
    doc["rooms"][shape_room]["shape"] = "L"
    for label, area in changes.items():
        doc["rooms"][label.replace("_", " ")]["area"] = area
    return yaml.safe_dump(doc, sort_keys=False)


def test_an_l_room_lays_out_places_and_is_walked(tmp_path):
    from formats.camera import Camera
    from generator.placement.place import place_objects
    from generator.walk.plan import plan_walk

    scenario = parse_scenario(_spec("living room"), "l.yaml")
    plan = layout(scenario)
    scene = plan_to_scene(plan)                      # the relations still hold (self-check)
    assert_plan_is_sound(scenario, scene)
    room = Polygon(next(r["polygon"] for r in scene["rooms"] if r["label"] == "living room"))
    assert len(room.exterior.coords) - 1 == 6
    rect = parse_scenario(yaml.safe_dump(yaml.safe_load((ROOT / "scenarios" / "scenario-02.yaml").read_text())), "r.yaml")
    rect_room = Polygon(next(r["polygon"] for r in plan_to_scene(layout(rect))["rooms"] if r["label"] == "living room"))
    assert room.within(rect_room.buffer(1e-9)) and room.area < rect_room.area - 2.0   # the same rectangle, less a corner
    scene["objects"] = place_objects(scenario, scene)["objects"]
    for obj in scene["objects"]:
        if obj["room"] == "living room":
            assert Polygon(obj["footprint"]).within(room.buffer(0.06)), obj["id"]
    walk = plan_walk(scenario, scene, camera=Camera.standard(320, 240))
    inside = [f for f in walk["frames"] if f["room"] == "living room"]
    assert inside and all(room.contains(Point(f["position"][:2])) for f in inside)
    cut = rect_room.difference(room)                  # the outside corner: never walked into
    assert min(cut.distance(Point(f["position"][:2])) for f in walk["frames"] if f["floor"] == 0) > 0.25


def test_an_l_where_no_corner_is_free_is_refused_naming_the_room():
    with pytest.raises(LayoutError, match=r"rooms\.kitchen\.shape: L needs a corner"):
        layout(parse_scenario(_spec("kitchen"), "k.yaml"))


# ---------------------------------------------------------------------------- hallways with a turn


def _hallway_spec(name: str, shape: str) -> str:
    doc = yaml.safe_load((ROOT / "scenarios" / f"{name}.yaml").read_text())
    doc["hallway_shape"] = shape
    return yaml.safe_dump(doc, sort_keys=False)


def _arms(hall: Polygon) -> tuple[float, float]:
    """How far each arm of an L runs on past the corner square (the corridor's width)."""
    x0, y0, x1, y1 = hall.bounds
    notch = box(x0, y0, x1, y1).difference(hall)     # the bounding box less the L: one rectangle
    nx0, ny0, nx1, ny1 = notch.bounds
    width_ns, width_ew = (x1 - x0) - (nx1 - nx0), (y1 - y0) - (ny1 - ny0)
    return (x1 - x0) - width_ns, (y1 - y0) - width_ew


def test_an_l_hallway_lays_out_places_and_is_walked():
    from formats.camera import Camera
    from generator.placement.place import place_objects
    from generator.walk.plan import plan_walk
    from tests.test_walk import check_inside_walkable_space_away_from_walls, check_never_inside_furniture

    scenario = parse_scenario(_hallway_spec("scenario-03", "L"), "l-hall.yaml")
    assert scenario.hallway_shape == "L" and scenario.to_json()["hallway_shape"] == "L"
    scene = plan_to_scene(layout(scenario))
    assert_plan_is_sound(scenario, scene)                       # every relation still holds
    halls = [Polygon(h["polygon"]) for h in scene["hallways"]]
    assert len(halls) == 1 and len(halls[0].exterior.coords) - 1 == 6       # one corridor, six corners
    assert min(_arms(halls[0])) >= 2.0 - 1e-6                               # both arms run on >= 2 m
    scene["objects"] = place_objects(scenario, scene)["objects"]
    walk = plan_walk(scenario, scene, camera=Camera.standard(320, 240))
    check_inside_walkable_space_away_from_walls(scenario, scene, walk)
    check_never_inside_furniture(scenario, scene, walk)
    in_hall = [Point(f["position"][:2]) for f in walk["frames"] if halls[0].contains(Point(f["position"][:2]))]
    assert in_hall                                                           # the walk goes along it


def test_a_straight_hallway_is_one_rectangle_and_any_is_the_default():
    straight = parse_scenario(_hallway_spec("scenario-03", "straight"), "s.yaml")
    halls = plan_to_scene(layout(straight))["hallways"]
    assert [len(h["polygon"]) for h in halls] == [4]
    plain = parse_scenario((ROOT / "scenarios" / "scenario-03.yaml").read_text(), "p.yaml")
    assert plain.hallway_shape == "any" and "hallway_shape" not in plain.to_json()   # spec hashes unchanged


def test_an_l_hallway_the_relations_rule_out_is_refused_with_the_way_out():
    with pytest.raises(LayoutError, match=r"hallway_shape: any instead of L"):
        layout(parse_scenario(_hallway_spec("scenario-01", "L"), "l1.yaml"))


def test_an_unknown_hallway_shape_is_refused():
    from generator.spec.scenario import SpecError

    with pytest.raises(SpecError, match=r"hallway_shape"):
        parse_scenario(_hallway_spec("scenario-03", "U"), "u.yaml")
