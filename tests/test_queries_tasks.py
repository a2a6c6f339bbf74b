"""The ten tasks on hand-built scenes whose answers are worked out by hand
(tests/fixtures/queries/README.md), including the cases that must be refused."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from fixtures.queries.builder import house, obj, tiny_house, tiny_objects
from queries.engine import build_queries
from queries.geometry import compass_label, direction_label
from queries.layout_facts import Layout
from queries.check_layout import LayoutCheck
from queries.model import Scenario, parse_scene, parse_trajectory, parse_visibility
from queries.ontology import FIXTURE_ONTOLOGY
from queries.check import check_records
from queries.check_facts import Files
from formats.base import load_model
from formats.scene import Scene as SceneFile
from formats.trajectory import Trajectory as TrajectoryFile
from formats.visibility import Visibility as VisibilityFile
from queries.route_grid import RoomPlanner, classify_turn
from queries import check_route
from queries.check_facts import Facts
from queries.check_rules import DEFAULT as CHECK_RULES
import shapely
from shapely.geometry import Point, Polygon
from queries.params import DEFAULT


def scenario(files) -> Scenario:
    vis = files["visibility.json"]
    if "rooms" not in vis:  # house(room_vis=False): no room visibility known (a file always has it)
        visibility = dataclasses.replace(parse_visibility({**vis, "rooms": {}}), rooms=None)
    else:
        visibility = parse_visibility(vis)
    return Scenario(parse_scene(files["scene.json"]), parse_trajectory(files["trajectory.json"]), visibility)


def scenario_seen(files):
    from queries.evidence import Seen
    return Seen(scenario(files), DEFAULT)


def check_files(files) -> Files:
    """The checker reads the same hand-built files through the format models."""
    return Files(load_model(files["scene.json"], SceneFile, "scene.json"),
                 load_model(files["trajectory.json"], TrajectoryFile, "trajectory.json"),
                 load_model(files["visibility.json"], VisibilityFile, "visibility.json"))


def run(files, per_task=3, thresholds=DEFAULT):
    records, report = build_queries(scenario(files), per_task, thresholds, ontology=FIXTURE_ONTOLOGY)
    return records, report


def mcqs(records, task):
    return [r for r in records if r["task"] == task and r["format"] == "mcq"]


def of_task(records, task, fmt=None):
    return [r for r in records if r["task"] == task and (fmt is None or r["format"] == fmt)]


# ----------------------------------------------------------------------------- counting
def counting_room(unseen=()):
    objs = [obj("kitchen/chair/1", 1, 1), obj("kitchen/chair/2", 2, 1), obj("kitchen/chair/3", 3, 1),
            obj("kitchen/plant/1", 1, 3), obj("kitchen/plant/2", 3, 3)]
    return house({"kitchen": [0, 0, 4, 4]}, objs, ["kitchen"], unseen=unseen)


def test_object_counting_counts_instances_and_refuses_an_unseen_one():
    records, report = run(counting_room(unseen=("kitchen/plant/2",)))
    counting = of_task(records, "object_counting")
    assert [(r["question"], r["answer"]) for r in counting] == [("How many chair(s) are in the kitchen?", 3)]
    assert counting[0]["format"] == "number" and counting[0]["answer_text"] == "3"
    assert counting[0]["evidence"]["objects"] == ["kitchen/chair/1", "kitchen/chair/2", "kitchen/chair/3"]
    assert report.reasons["object_counting"] == {"rule3: an instance never seen": 1}


def test_a_counted_instance_must_show_enough_of_itself():
    """A chair that shows a tenth of its box's outline (a strip behind another chair: seen, yet
    no viewer counts it) keeps the chairs from being counted; the checker says so too."""
    objs = [obj("kitchen/chair/1", 1, 4), obj("kitchen/chair/2", 2, 4), obj("kitchen/chair/3", 3, 4)]
    files = house({"kitchen": [0, 0, 4, 6]}, objs, ["kitchen"])   # 3.5 m ahead of the camera at (2, 0.5)
    records, _ = run(files)
    asked = [r for r in of_task(records, "object_counting") if "chair" in r["question"]]
    assert [r["answer"] for r in asked] == [3]
    track = files["visibility.json"]["objects"]["kitchen/chair/2"]
    whole = track["pixels"][0]                            # half the outline (the fixture's rule)
    assert whole > 5 * 308                                # a tenth of it is still over 0.1% of the frame
    track["pixels"] = [whole // 5] * len(track["pixels"])
    records, report = run(files)
    assert not [r for r in of_task(records, "object_counting") if "chair" in r["question"]]
    assert report.reasons["object_counting"] == {"rule3: an instance never shown whole enough to count": 1}
    messages = [p.message for p in check_records(asked, check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert "instances never shown whole enough to count: ['kitchen/chair/2']" in messages


def _two_chairs(dx: float, second_from: int, colours=("grey", "grey")):
    """Two chairs `dx` apart, the second seen from frame `second_from` on (the first from 10)."""
    a, b = obj("kitchen/chair/1", 1.0, 4), obj("kitchen/chair/2", 1.0 + dx, 4)
    a["attributes"]["color"], b["attributes"]["color"] = colours
    return house({"kitchen": [0, 0, 4, 6]}, [a, b], ["kitchen"], first_frames={"kitchen/chair/2": second_from})


def test_look_alikes_side_by_side_are_counted_only_when_seen_together():
    """Person check of sample-42-000: two blue bowls 0.58 m apart on a kitchen table, either
    side of a microwave, each seen only when the other was out of view; the viewer counted one
    of them. Two look-alikes nearer than 1 m are counted only when seen together for 0.5 s;
    told apart by colour, or farther apart, they need not be (docs/ground-truth.md)."""
    def chairs_asked(files):
        records, report = run(files)
        return [r["answer"] for r in of_task(records, "object_counting")], report, records

    together, apart = 20, 60     # the first chair's frames are 10-39; the second's 30 from here
    assert chairs_asked(_two_chairs(0.6, together))[0] == [2]
    asked, report, _ = chairs_asked(_two_chairs(0.6, apart))
    assert asked == []
    assert report.reasons["object_counting"] == {"rule3: look-alike instances side by side never seen together": 1}
    assert chairs_asked(_two_chairs(0.6, 26))[0] == []    # frames 26-39 together: 14, under 0.5 s
    assert chairs_asked(_two_chairs(0.6, 25))[0] == [2]   # 25-39: 15 frames, 0.5 s
    assert chairs_asked(_two_chairs(0.6, apart, ("red", "blue")))[0] == [2]
    assert chairs_asked(_two_chairs(0.6, apart, ("red", "dark red")))[0] == []   # both "red"
    assert chairs_asked(_two_chairs(1.2, apart))[0] == [2]
    # the checker, on its own, finds the pair a record would have counted
    files = _two_chairs(0.6, apart)
    _, _, records = chairs_asked(_two_chairs(0.6, together))
    problems = [p.message for p in check_records(records, check_files(files), ontology=FIXTURE_ONTOLOGY)
                if "together" in p.message]
    assert problems == ["look-alikes side by side never seen together: [('kitchen/chair/1', 'kitchen/chair/2')]"]
    assert not [p for p in check_records(records, check_files(_two_chairs(0.6, together)), ontology=FIXTURE_ONTOLOGY)
                if "together" in p.message]


def _outline_in_and_beyond_frame(o: dict, eye=(2.0, 0.5, 1.6)) -> tuple[float, float]:
    """(area of the box's projection inside the 640x480 frame, area of all of it) for the
    fixtures' camera at `eye` looking north, level: a pinhole written out here, not the engine's."""
    from shapely.geometry import MultiPoint, box as frame_box
    focal = 320 / math.tan(math.radians(35))
    points = [(320 + focal * (x - eye[0]) / (y - eye[1]), 240 - focal * (z - eye[2]) / (y - eye[1]))
              for x, y in o["footprint"] for z in (0.0, o["size"][2])]
    hull = MultiPoint(points).convex_hull
    return hull.intersection(frame_box(0, 0, 640, 480)).area, hull.area


def test_a_thing_cut_by_the_frame_edge_shows_too_little_of_itself_to_count():
    """large-house's toilet was seen only as its cistern's top at the frame's bottom edge, 1.1 m
    away: every pixel of its box inside the frame showed, yet a viewer sees no toilet. A chair
    1.6 m ahead of the level camera stands mostly below the frame; showing half of what is in
    the frame is under 15% of its whole outline, so the chairs are not counted (the rule once
    clipped the outline to the frame and counted it). The same chair farther away is counted."""
    far = [obj("kitchen/chair/1", 1, 4), obj("kitchen/chair/3", 3, 4)]
    near = obj("kitchen/chair/2", 2, 2.1 + 0.2)                      # its near face 1.6 m ahead
    inside, whole = _outline_in_and_beyond_frame(near)
    assert 0 < inside < 0.25 * whole                                 # the premise: mostly below the frame
    files = house({"kitchen": [0, 0, 4, 6]}, [*far, near], ["kitchen"])
    track = files["visibility.json"]["objects"]["kitchen/chair/2"]
    track["pixels"] = [math.ceil(0.5 * inside)] * len(track["pixels"])   # half of the part in frame
    assert 0.5 * inside >= 0.2 * inside and 0.5 * inside < 0.15 * whole
    records, report = run(files)
    assert not [r for r in of_task(records, "object_counting") if "chair" in r["question"]]
    assert report.reasons["object_counting"] == {"rule3: an instance never shown whole enough to count": 1}
    assert Facts(check_files(files), CHECK_RULES).first_whole("kitchen/chair/2") is None
    # farther off, all of it in the frame, the same chair is counted
    files = house({"kitchen": [0, 0, 4, 6]}, [*far, obj("kitchen/chair/2", 2, 4)], ["kitchen"])
    records, _ = run(files)
    assert [r["answer"] for r in of_task(records, "object_counting") if "chair" in r["question"]] == [3]


def _flat_outline(x0, y0, x1, y1, z=0.01, eye=(2.0, 0.5, 1.6)) -> float:
    """Image area of a floor rectangle at height z for the fixtures' level camera looking north."""
    from shapely.geometry import Polygon as Poly
    focal = 320 / math.tan(math.radians(35))
    return Poly([(320 + focal * (x - eye[0]) / (y - eye[1]), 240 - focal * (z - eye[2]) / (y - eye[1]))
                 for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]).area


def test_a_carpet_is_shown_whole_by_what_no_furniture_covers():
    """A carpet (3 x 2 m) under a table that covers all but a 0.2-m border: what can show of it
    is the border, and showing 30% of that is shown whole, though under 15% of the whole carpet.
    The same pixels on a bare carpet are not. Generator and checker agree."""
    carpet = obj("lounge/carpet/1", 2.0, 3.5, w=3.0, d=2.0)
    carpet["size"][2] = 0.01
    table = obj("lounge/table/1", 2.0, 3.5, w=2.6, d=1.6)
    border = _flat_outline(0.5, 2.5, 3.5, 4.5) - _flat_outline(0.7, 2.7, 3.3, 4.3)
    _, whole = _outline_in_and_beyond_frame(carpet)
    pixels = math.ceil(0.3 * border)
    assert 308 < pixels < 0.15 * whole                       # seen, yet under 15% of the carpet's outline
    for things, expected in (([carpet, table], True), ([carpet], False)):
        files = house({"lounge": [0, 0, 4, 6]}, [dict(t) for t in things], ["lounge"])
        track = files["visibility.json"]["objects"]["lounge/carpet/1"]
        track["pixels"] = [pixels] * len(track["pixels"])
        sc = scenario(files)
        shown = scenario_seen(files).shown_whole(next(o for o in sc.scene.objects if o.id == "lounge/carpet/1"))
        assert shown is expected
        assert Facts(check_files(files), CHECK_RULES).shown_whole("lounge/carpet/1") is expected


def test_a_room_is_shown_by_the_frame_with_the_most_of_its_things_not_a_bare_wall():
    """sample-3-001's kitchen was evidenced by a side trip's frame of bare wall: the room's own
    surfaces fill such a frame, so it had the most room pixels."""
    files = counting_room()
    kitchen = files["visibility.json"]["rooms"]["kitchen"]
    wall = kitchen["frames"][-1]                       # after the things' 30 frames: nothing in view
    kitchen["pixels"] = [9000 if f == wall else 5000 - f for f in kitchen["frames"]]
    seen = scenario_seen(files)
    assert seen.room_evidence("kitchen") == [0, 10]    # first seen; all five things (from frame 10)
    kitchen["pixels"] = [9000 if f in (wall, 25) else 5000 for f in kitchen["frames"]]
    assert scenario_seen(files).room_evidence("kitchen") == [0, 25]   # of those, the most room
    files["visibility.json"]["objects"] = {}
    assert scenario_seen(files).room_evidence("kitchen") == [0, 25]   # no things: the most room


def test_a_room_is_shown_by_its_big_furniture_rather_than_by_many_small_things():
    """sample-3-001's bedroom was evidenced by its desk corner (a desk, a chair, a picture, a
    plant): a person knows a bedroom by its bed."""
    small = [obj(f"bedroom/cup/{k}", 1 + 0.5 * k, 1, w=0.08, d=0.08) for k in range(1, 5)]
    bed = obj("bedroom/bed/1", 2, 3, w=1.6, d=2.0)
    files = house({"bedroom": [0, 0, 4, 4]}, small + [bed], ["bedroom"],
                  first_frames={**{o["id"]: 10 for o in small}, "bedroom/bed/1": 60})
    assert scenario_seen(files).room_evidence("bedroom") == [0, 60]   # the bed alone beats four cups


def test_object_counting_never_asks_about_single_objects():
    files = house({"kitchen": [0, 0, 4, 4]}, [obj("kitchen/chair/1", 1, 1), obj("kitchen/plant/1", 3, 3)], ["kitchen"])
    records, report = run(files)
    assert of_task(records, "object_counting") == []
    assert "object_counting" in report.shortfall


def test_a_thing_named_from_its_front_is_seen_only_from_the_front():
    # Person check (scenario-05, seed 6): a microwave seen only from its back was taken for a
    # printer. The tiny house's tv turned to face north, away from the camera at the living
    # room's south edge, is never seen: no question names it, and the checker refuses a record
    # that does (generator and checker).
    facing_camera = tiny_house()
    records, _ = run(facing_camera, per_task=6)
    naming_tv = [r for r in records if "living-room/tv/1" in r["evidence"]["objects"]]
    assert naming_tv
    objects = [dict(o, yaw=90.0) if o["id"] == "living-room/tv/1" else o for o in tiny_objects()]
    turned = tiny_house(objects=objects)
    records, _ = run(turned, per_task=6)
    assert not [r for r in records if "living-room/tv/1" in r["evidence"]["objects"]]
    assert not any(" tv" in r["question"] for r in records)
    from queries.check_facts import load_files
    from fixtures.queries.builder import write
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        facts_files = load_files(write(tmp, turned))
        found = {(p.id, p.kind) for p in check_records(naming_tv, facts_files, ontology=FIXTURE_ONTOLOGY)}
    assert all((r["id"], "ungrounded") in found for r in naming_tv if r["format"] == "mcq")



def test_a_sofa_seen_only_end_on_is_not_seen():
    # Person check (large-house): a navy sofa shown only end-on read as an armchair, so "how
    # many sofas? 3" was disputed. The camera stands south of the sofa looking north: a sofa
    # facing east or west shows it its end and is not seen; facing south (its front) or north
    # (its back) it is (generator and checker).
    from queries.evidence import Seen
    for yaw, expected in ((0.0, False), (180.0, False), (90.0, True), (270.0, True)):
        files = house({"lounge": [0, 0, 6, 6]}, [obj("lounge/sofa/1", 3, 3, w=2.0, d=0.9, yaw=yaw)], ["lounge"])
        assert Seen(scenario(files), DEFAULT).object_seen("lounge/sofa/1") is expected
        assert Facts(check_files(files), CHECK_RULES).object_visible("lounge/sofa/1") is expected

def test_glasses_are_seen_only_from_nearly_in_front():
    # Person check (sample-1-000, 320x240): pairs seen from 29 and 32 deg off their front read as
    # glasses, one seen from 62 deg off was "a blue wire bracket" (rims edge-on). Glasses need the
    # camera within 45 deg of their front, a microwave within 70 (generator and checker). The
    # camera stands due south of the thing (bearing 270 from it).
    from queries.evidence import Seen
    for category, off, expected in (("eyeglasses", 30.0, True), ("eyeglasses", -40.0, True),
                                    ("eyeglasses", 60.0, False), ("eyeglasses", -50.0, False),
                                    ("microwave", 60.0, True), ("microwave", 80.0, False)):
        files = house({"lounge": [0, 0, 6, 6]}, [obj(f"lounge/{category}/1", 3, 3, w=0.3, d=0.3, yaw=(270.0 + off) % 360)],
                      ["lounge"])
        assert Seen(scenario(files), DEFAULT).object_seen(f"lounge/{category}/1") is expected, (category, off)
        assert Facts(check_files(files), CHECK_RULES).object_visible(f"lounge/{category}/1") is expected, (category, off)


# ----------------------------------------------------------------------------- appearance order
def appearance_room(first, **kw):
    objs = [obj(f"living-room/{c}/1", 0.5 + i * 0.7, 1) for i, c in enumerate(first)]
    return house({"living room": [0, 0, 5, 4]}, objs, ["living room"],
                 first_frames={f"living-room/{c}/1": f for c, f in first.items()}, **kw)


# The rooms of these hand-built houses are 5 s long, so the gap is set to 1 s here (the default
# is 2 s: test_appearance_order_default_gap_is_two_seconds).
GAP_1S = dataclasses.replace(DEFAULT, appearance_gap_s=1.0)


def test_appearance_order_default_gap_is_two_seconds():
    records, report = run(appearance_room({"bed": 10, "tv": 40, "sofa": 70, "lamp": 100}))
    assert mcqs(records, "appearance_order") == []
    assert report.reasons["appearance_order"] == {"rule3: first appearances within 2 s": 1}


def test_appearance_order_answers_and_refuses_close_firsts():
    # lamp and plant first appear 5 frames (0.17 s) apart: every set with both is refused
    records, report = run(appearance_room({"bed": 10, "tv": 40, "sofa": 70, "lamp": 100, "plant": 105}), per_task=5,
                          thresholds=GAP_1S)
    got = {frozenset(r["answer_text"].split(", ")): r["answer_text"] for r in mcqs(records, "appearance_order")}
    assert got == {frozenset({"bed", "tv", "sofa", "lamp"}): "bed, tv, sofa, lamp",
                   frozenset({"bed", "tv", "sofa", "plant"}): "bed, tv, sofa, plant"}
    assert report.reasons["appearance_order"] == {"rule3: first appearances within 1 s": 3}
    for r in mcqs(records, "appearance_order"):
        assert len(r["options"]) == 4 and len(set(r["options"])) == 4
        assert all(sorted(o.split(", ")) == sorted(r["answer_text"].split(", ")) for o in r["options"])


def test_appearance_order_one_second_apart_is_allowed_a_frame_less_is_not():
    records, _ = run(appearance_room({"bed": 10, "tv": 40, "sofa": 70, "lamp": 100}), thresholds=GAP_1S)
    assert [r["answer_text"] for r in mcqs(records, "appearance_order")] == ["bed, tv, sofa, lamp"]
    records, report = run(appearance_room({"bed": 10, "tv": 40, "sofa": 69, "lamp": 100}), thresholds=GAP_1S)
    assert mcqs(records, "appearance_order") == []
    assert report.reasons["appearance_order"] == {"rule3: first appearances within 1 s": 1}


def glimpsed(extra: str, glimpse: int):
    """bed 10, tv 40, sofa 70, lamp 100 (clear views) plus a second `extra` glimpsed (5 frames)
    at `glimpse`, never seen."""
    first = {"living-room/bed/1": 10, "living-room/tv/1": 40, "living-room/sofa/1": 70,
             "living-room/lamp/1": 100, f"living-room/{extra}/2": glimpse}
    objs = [obj(f"living-room/{c}/1", 0.5 + i * 0.7, 1) for i, c in enumerate(("bed", "tv", "sofa", "lamp"))]
    objs.append(obj(f"living-room/{extra}/2", 4.5, 3))
    return house({"living room": [0, 0, 5, 4]}, objs, ["living room"], first_frames=first,
                 unseen=(f"living-room/{extra}/2",))


def test_appearance_order_first_appearance_is_the_first_clear_run_and_glimpses_agree():
    # a bed glimpsed at frame 2 does not change the order: asked, answered by the clear views
    records, _ = run(glimpsed("bed", 2), thresholds=GAP_1S)
    [r] = mcqs(records, "appearance_order")
    assert r["answer_text"] == "bed, tv, sofa, lamp"
    assert r["derivation"]["first_frames"] == {"bed": 10, "tv": 40, "sofa": 70, "lamp": 100}
    # a lamp glimpsed at frame 20, before the tv is first seen: a viewer could order it second
    records, report = run(glimpsed("lamp", 20), thresholds=GAP_1S)
    assert mcqs(records, "appearance_order") == []
    assert report.reasons["appearance_order"] == {
        "rule3: first glimpses come in another order than first clear views": 1}


def test_a_glimpse_without_the_square_still_counts_as_a_glimpse():
    """Person check of sample-11-000: a vase on a mantel 3.9 m off, about 2 deg wide, showed
    plainly 10 s before its region first held the id pass's square, so visibility.json listed
    it only later and the vase came after the floor lamp, a viewer saw it before. Its
    `first_glimpse` (any frame with min_pixels of it) now counts as a glimpse, in the generator
    and in the checker."""
    files = appearance_room({"bed": 10, "tv": 40, "sofa": 70, "lamp": 100})
    records, _ = run(files, thresholds=GAP_1S)
    [asked] = mcqs(records, "appearance_order")
    assert asked["answer_text"] == "bed, tv, sofa, lamp"
    lamp = files["visibility.json"]["objects"]["living-room/lamp/1"]
    lamp["first_glimpse"] = 20                      # shown before the tv, never as a square
    records, report = run(files, thresholds=GAP_1S)
    assert mcqs(records, "appearance_order") == []
    assert report.reasons["appearance_order"] == {
        "rule3: first glimpses come in another order than first clear views": 1}
    messages = [p.message for p in check_records([asked], check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert any("glimpse" in m for m in messages), messages


def test_appearance_order_refuses_a_first_view_too_partial_to_name():
    """scenario-04's bedroom carpet first showed as a fringe under the bed (1% of the frame for
    0.8 s): seen, but a viewer who names it only once most of it shows puts it after the next
    category. Here the bed's first 30 frames show under 15% of its outline and its first whole
    view comes after the tv's: the set is refused, and the checker refuses the question asked
    before the bed's first view shrank."""
    files = appearance_room({"bed": 10, "tv": 40, "sofa": 70, "lamp": 100})
    records, _ = run(files, thresholds=GAP_1S)
    [asked] = mcqs(records, "appearance_order")
    assert asked["answer_text"] == "bed, tv, sofa, lamp"
    assert asked["derivation"]["first_whole_views"] == {"bed": 10, "tv": 40, "sofa": 70, "lamp": 100}
    bed = files["visibility.json"]["objects"]["living-room/bed/1"]
    whole = bed["pixels"][0]
    bed["frames"] = list(range(10, 40)) + list(range(45, 75))
    bed["pixels"] = [400] * 30 + [whole] * 30                      # 400 px: seen, a sliver of its outline
    records, report = run(files, thresholds=GAP_1S)
    assert mcqs(records, "appearance_order") == []
    assert report.reasons["appearance_order"] == {
        "rule3: first whole views come in another order than first clear views": 1}
    messages = [p.message for p in check_records([asked], check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert any(m.startswith("first whole views {'bed': 45, 'tv': 40") for m in messages), messages


# ----------------------------------------------------------------------------- relative direction
# fridge (6,3), stove (6,9), sink (3,6) - the README's kitchen (2,1), (2,3), (1,2) three times
# as far apart, so the answer holds from anywhere 0.5 m around the object one stands by.
DIRECTIONS = {
    ("fridge", "stove", "sink"): ("left", "left", "front-left"),      # +45
    ("stove", "fridge", "sink"): ("right", "right", "front-right"),   # -45
    ("fridge", "sink", "stove"): ("right", "right", "front-right"),   # -45
    ("sink", "fridge", "stove"): ("left", "left", None),              # +90: on the hard boundary
    ("sink", "stove", "fridge"): ("right", "right", None),            # -90
    ("stove", "sink", "fridge"): ("left", "left", "front-left"),      # +45
}
LEVEL = {"easy": 0, "medium": 1, "hard": 2}


def kitchen_three(**kw):
    objs = [obj("kitchen/fridge/1", 6, 3, 0.6, 0.6), obj("kitchen/stove/1", 6, 9, 0.6, 0.6),
            obj("kitchen/sink/1", 3, 6, 0.6, 0.6)]
    return house({"kitchen": [0, 0, 12, 12]}, objs, ["kitchen"], **kw)


def test_relative_direction_matches_the_hand_table():
    records, report = run(kitchen_three(), per_task=6)
    got = mcqs(records, "relative_direction")
    assert len(got) >= 4
    for r in got:
        d = r["derivation"]
        key = tuple(d[k].split("/")[1] for k in ("standing", "facing", "target"))
        assert r["answer_text"] == DIRECTIONS[key][LEVEL[d["level"]]], r["question"]
        assert len(r["options"]) == {"easy": 2, "medium": 3, "hard": 4}[d["level"]]
    assert {r["derivation"]["level"] for r in got} == {"easy", "medium", "hard"}
    assert set(report.reasons.get("relative_direction", {})) <= {
        "rule3: direction within 15 deg of a sector boundary from some standpoint by the object"}
    first = got[0]
    assert first["question"].startswith("If I am standing by the ")
    assert first["question"].endswith("is the " + first["derivation"]["target"].split("/")[1]
                                      + " to the left or the right of the "
                                      + first["derivation"]["facing"].split("/")[1] + "?")


def sofa_room(lamp_support="floor"):
    """A 2.4 m sofa at (3, 2), a tv at (3, 5.5) ahead of it, a lamp at (3.8, 3.6): from the sofa's
    centre the lamp is front-right (27 deg), from 0.5 m beyond its east end it is to the left."""
    objs = [obj("living-room/sofa/1", 3, 2, 2.4, 0.9), obj("living-room/tv/1", 3, 5.5, 1.0, 0.3),
            obj("living-room/lamp/1", 3.8, 3.6, 0.3, 0.3, support=lamp_support)]
    return house({"living room": [0, 0, 7, 7]}, objs, ["living room"])


def test_relative_direction_holds_all_around_the_object_you_stand_by():
    records, report = run(sofa_room(), per_task=6)
    for r in mcqs(records, "relative_direction"):
        d = r["derivation"]
        assert (d["standing"], d["target"]) != ("living-room/sofa/1", "living-room/lamp/1"), r["question"]
        assert d["standpoints"] > 40
    assert report.reasons["relative_direction"][
        "rule3: direction within 15 deg of a sector boundary from some standpoint by the object"] >= 1
    # a lamp hanging from the ceiling is nothing to stand by
    records, report = run(sofa_room("ceiling"), per_task=6)
    assert all(r["derivation"]["standing"] != "living-room/lamp/1" for r in mcqs(records, "relative_direction"))
    assert report.reasons["relative_direction"]["rule3: one can stand only by a floor-standing object"] >= 1


def test_a_scene_whose_only_clear_direction_is_back_asks_it_at_the_level_that_has_it():
    """Three chairs in a row 3 m apart: by the middle one facing an end one, the other end is
    behind you (155-180 deg from every place 0.5 m round it), and by an end one the others are
    straight ahead. Only 'medium' has a 'back'; the levels take turns from 'easy', so without
    the second pass over the triples that missed only their level's margins the scene got
    no question at all."""
    objs = [obj("hall/chair/1", 1, 4, 0.4, 0.4), obj("hall/table/1", 4, 4, 0.4, 0.4),
            obj("hall/sofa/1", 7, 4, 0.4, 0.4)]
    files = house({"hall": [0, 0, 8, 8]}, objs, ["hall"])
    records, _ = run(files, per_task=3)
    got = mcqs(records, "relative_direction")
    assert check_records(of_task(records, "relative_direction"), check_files(files), ontology=FIXTURE_ONTOLOGY) == []
    assert sorted((r["derivation"]["standing"], r["derivation"]["facing"]) for r in got) == [
        ("hall/table/1", "hall/chair/1"), ("hall/table/1", "hall/sofa/1")]
    assert {(r["derivation"]["level"], r["answer_text"]) for r in got} == {("medium", "back")}


@pytest.mark.parametrize("angle, level, expected", [
    (14.9, "easy", None), (15.0, "easy", "left"), (-15.1, "easy", "right"), (170.0, "easy", None),
    (120.1, "medium", None), (119.9, "medium", "left"), (150.0, "medium", "back"), (-150.0, "medium", "back"),
    (180.0, "medium", "back"), (100.0, "hard", None), (106.0, "hard", "back-left"),
    (-45.0, "hard", "front-right"), (165.0, "hard", "back-left"), (166.0, "hard", None),
])
def test_direction_sectors_and_margins(angle, level, expected):
    assert direction_label(level, angle, 15.0) == expected


def test_compass_margins():
    assert compass_label(0.0, 15) == "East" and compass_label(92.4, 15) == "North"
    assert compass_label(36.0, 15) is None and compass_label(-150.0, 15) == "West"
    assert compass_label(-90.0, 15) == "South" and compass_label(-61.0, 15) == "South"
    assert compass_label(-59.0, 15) is None


# ----------------------------------------------------------------------------- relative distance
def study(unseen=()):
    objs = [o for o in tiny_objects() if o["room"] == "study"]
    return house({"study": [0, 6, 3.5, 10]}, objs, ["study"], unseen=unseen)


def test_relative_distance_nearest_and_refusals():
    records, report = run(study(), per_task=5)
    got = {r["derivation"]["target"]: r for r in mcqs(records, "relative_distance")}
    # computer, book and lamp: the desk is clearly nearest; desk: computer and lamp tie at
    # 0.40 m; bookshelf: computer 1.84 m vs book 1.87 m, within 15%
    assert {t: r["answer_text"] for t, r in got.items()} == {
        "study/computer/1": "desk", "study/book/1": "desk", "study/lamp/1": "desk"}
    assert report.reasons["relative_distance"] == {"rule3: nearest and second-nearest within 25% or 0.3 m": 2}
    r = got["study/book/1"]
    assert r["question"] == ("Measuring from the closest point of each object, which of these objects ("
                             + ", ".join(r["options"]) + ") is the closest to the book?")
    assert r["derivation"]["distances"]["study/desk/1"] == pytest.approx(0.55)


def test_relative_distance_is_measured_between_3d_boxes():
    """A ceiling bulb above the desk is not 'closest' to it: its box hangs 1.7 m above the desk's
    top (the footprints overlap, which a 2-D measure would call 0 m)."""
    objs = [o for o in tiny_objects() if o["room"] == "study"]
    desk = next(o for o in objs if o["category"] == "desk")
    light = obj("study/bulb/1", desk["position"][0], desk["position"][1], 0.3, 0.3, support="ceiling")
    light["position"][2], light["size"][2] = 2.5, 0.2
    records, _ = run(house({"study": [0, 6, 3.5, 10]}, objs + [light], ["study"]), per_task=8)
    for r in mcqs(records, "relative_distance"):
        d = r["derivation"]["distances"]
        if r["derivation"]["target"] == "study/desk/1" and "study/bulb/1" in d:
            assert d["study/bulb/1"] == pytest.approx(2.5 - 0.8)
        if r["derivation"]["target"] == "study/bulb/1":
            assert d["study/desk/1"] == pytest.approx(1.7)
    from queries.model import parse_scene
    from queries.geometry import box_distance
    scene = parse_scene(house({"study": [0, 6, 3.5, 10]}, objs + [light], ["study"])["scene.json"])
    by_id = {o.id: o for o in scene.objects}
    assert box_distance(by_id["study/desk/1"], by_id["study/bulb/1"]) == pytest.approx(1.7)


def test_relative_distance_refuses_unseen_objects():
    records, report = run(study(unseen=("study/computer/1",)), per_task=5)
    assert mcqs(records, "relative_distance") == []
    assert report.reasons["relative_distance"] == {"rule2: named object or room not seen": 5}


def desk_with_laptop():
    """A laptop on a desk with a chair at it, a plant, a sofa and a bookshelf further off: the
    desk is nearest to the laptop (0 m), and a reader knows it without the video."""
    laptop = obj("office/laptop/1", 1.5, 3.0, 0.35, 0.25, support="office/desk/1")
    laptop["position"][2], laptop["size"][2] = 0.75, 0.03
    objs = [obj("office/desk/1", 1.5, 3.0, 1.2, 0.6), laptop, obj("office/chair/1", 1.5, 4.0, 0.5, 0.5),
            obj("office/plant/1", 4.0, 1.0), obj("office/sofa/1", 4.6, 3.2, 0.9, 2.0),
            obj("office/bookshelf/1", 3.0, 5.5, 1.0, 0.4)]
    return house({"office": [0, 0, 6, 6]}, objs, ["office"])


def test_relative_distance_never_offers_what_the_target_stands_on_or_holds(monkeypatch):
    files = desk_with_laptop()
    records, report = run(files, per_task=6)
    asked = mcqs(records, "relative_distance")
    assert asked, "the scene has other questions to ask"
    def offered_with_its_support(r):
        target, options = r["derivation"]["target"], set(r["derivation"]["distances"])
        return (target, "office/desk/1" in options, "office/laptop/1" in options) in (
            ("office/laptop/1", True, False), ("office/desk/1", False, True))

    assert not [r["question"] for r in asked if offered_with_its_support(r)]
    assert report.reasons["relative_distance"]["rule7: an option holds the target or rests on it"] >= 1
    # the independent check finds such a question when the generator lets one through
    import queries.extractive as extractive
    monkeypatch.setattr(extractive, "supports_under", lambda *_: [])
    records, _ = run(files, per_task=6)
    given = [r for r in mcqs(records, "relative_distance") if offered_with_its_support(r)]
    assert given
    kinds = {p.kind for p in check_records(given, check_files(files), ontology=FIXTURE_ONTOLOGY)}
    assert "giveaway" in kinds


# ----------------------------------------------------------------------------- route plan
SQUARE = ["sofa", "tv", "table", "lamp"]  # counter-clockwise corners of a 2 m square


def square_room(extra=()):
    pos = {"sofa": (5, 1), "tv": (7, 1), "table": (7, 3), "lamp": (5, 3)}
    return house({"living room": [4, 0, 8, 4]}, [obj(f"living-room/{c}/1", *pos[c]) for c in SQUARE] + list(extra),
                 ["living room"])


def test_route_plan_turns_follow_the_walk_around_the_square():
    records, report = run(square_room(), per_task=8)
    got = mcqs(records, "route_plan")
    assert len(got) >= 3
    for r in got:
        d = r["derivation"]
        s, (m,), g = d["start"].split("/")[1], [x.split("/")[1] for x in d["landmarks"]], d["goal"].split("/")[1]
        i = SQUARE.index(s)
        assert SQUARE.index(g) == (i + 2) % 4                  # only diagonal trips are asked
        counter_clockwise = SQUARE.index(m) == (i + 1) % 4
        assert r["answer_text"] == ("turn right, turn left" if counter_clockwise else "turn left, turn right")
        assert d["facing"].split("/")[1] not in (s, m, g)
        assert r["question"] == (
            f"You are a robot beginning at the {s} facing the {d['facing'].split('/')[1]}. You want to "
            f"navigate to the {g}. You will perform the following actions (Note: for each [please fill in], "
            f"choose either 'turn back,' 'turn left,' or 'turn right.'): 1. [please fill in] 2. Go forward "
            f"until the {m} 3. [please fill in] 4. Go forward until the {g}. You have reached the final destination.")
        assert len(set(r["options"])) == 4
    # trips between neighbouring corners are straight: the only landmarks that turn clearly are
    # the two other corners (a 6 m walk round for a 2 m trip: too long, or, where the walks
    # between the places by the corners are short enough, no fifth object is left to face);
    # one other corner turns 135 deg
    reasons = report.reasons["route_plan"]
    assert set(reasons) <= {"rule5: landmark detour much longer than the shortest walk",
                            "rule3: no other object to face"} and sum(reasons.values()) == 8


def test_route_stops_are_things_one_walks_up_to_and_the_checker_says_so():
    """By the vase on the table is by the table, near the vase; a ceiling light is no stop."""
    files = square_room([obj("living-room/vase/1", 6.85, 3.1, w=0.2, d=0.2, support="living-room/table/1"),
                         obj("living-room/picture/1", 6, 3.9, w=0.6, d=0.05, support="wall"),
                         obj("living-room/light/1", 6, 2, w=0.3, d=0.3, support="ceiling")])
    scene = files["scene.json"]
    records, _ = run(files, per_task=8)
    routes = mcqs(records, "route_plan")
    assert len(routes) >= 3
    for r in routes:
        d = r["derivation"]
        assert "living-room/light/1" not in {d["start"], d["goal"], *d["landmarks"]}
    assert not check_records(records, check_files(files), ontology=FIXTURE_ONTOLOGY)
    # where one stands "by the vase": by the table (0.4 x 0.4 at (7, 3)), within 1 m of the vase
    facts = Facts(check_files(files), CHECK_RULES)
    vase, table, light = (facts.resolve(c) for c in ("vase", "table", "light"))
    free = check_route.free_space(facts, "living room", CHECK_RULES)
    points = check_route.stand_points(vase, free, facts)
    assert len(points) > 0 and len(check_route.stand_points(light, free, facts)) == 0
    near_table = shapely.distance(Polygon(table.footprint), shapely.points(points))
    assert near_table.max() <= 0.4 + 1e-6
    assert shapely.distance(Polygon(vase.footprint), shapely.points(points)).max() <= 1.0 + 1e-6
    sc = scenario(files)
    by_id = {o.id: o for o in sc.scene.objects}
    planner = RoomPlanner(sc.scene.rooms[0].polygon, list(sc.scene.objects), DEFAULT, by_id)
    cells = [planner.xy(n) for n in planner.beside(by_id["living-room/vase/1"])]
    assert cells and planner.beside(by_id["living-room/light/1"]) == []
    assert max(Polygon(table.footprint).distance(Point(c)) for c in cells) <= planner.reach + 1e-9
    assert max(Polygon(vase.footprint).distance(Point(c)) for c in cells) <= 1.0 + 1e-9
    # the same record about a goal that hangs from the ceiling is refused
    goal = routes[0]["derivation"]["goal"]
    for o in scene["objects"]:
        if o["id"] == goal:
            o["support"] = "ceiling"
    problems = [p for p in check_records([routes[0]], check_files(files), ontology=FIXTURE_ONTOLOGY)
                if p.kind == "ambiguity"]
    assert [p.message for p in problems] == [f"one cannot walk up to {goal}: it hangs from the ceiling or lies flat"]


def routed(rec: dict, start: str, landmark: str, goal: str, facing: str | None = None) -> dict:
    """A one-landmark route-plan record rewritten to start, landmark and goal (and facing)."""
    q = rec["question"]
    if facing:
        q = re.sub(r"beginning at the \w+ facing the \w+", f"beginning at the {start} facing the {facing}", q)
    else:
        q = re.sub(r"beginning at the \w+ facing", f"beginning at the {start} facing", q)
    q = re.sub(r"Go forward until the \w+ 3\.", f"Go forward until the {landmark} 3.", q)
    q = re.sub(r"Go forward until the \w+\. You have", f"Go forward until the {goal}. You have", q)
    q = re.sub(r"navigate to the \w+\.", f"navigate to the {goal}.", q)
    return {**rec, "question": q}


def test_the_checker_refuses_a_route_that_passes_its_stop_and_comes_back():
    """sofa -> tv -> the plant half-way between them: the walk passed the plant and comes back."""
    files = square_room([obj("living-room/plant/1", 6, 1.05)])
    records, _ = run(files, per_task=8)
    rec = dict(mcqs(records, "route_plan")[0])
    rec = routed(rec, "sofa", "tv", "plant")
    messages = [p.message for p in check_records([rec], check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert "the route passes living-room/plant/1 on the way to living-room/tv/1 and comes back" in messages


def test_a_route_never_leaves_a_place_and_comes_back_beside_it():
    """Person check (office-floor): plant -> desk -> sofa -> the chair at that desk ("turn back,
    turn back"). Here sofa -> table -> the chair 0.2 m from the sofa: refused by the generator
    and, on its own, by the checker."""
    from queries.route_plan import _centre_turns_clear
    files = square_room([obj("living-room/chair/1", 5, 1.6)])
    sc = scenario(files)
    by_id = {o.id: o for o in sc.scene.objects}
    sofa, table, chair, tv = (by_id[f"living-room/{c}/1"] for c in ("sofa", "table", "chair", "tv"))
    assert _centre_turns_clear([sofa, table, chair], DEFAULT, by_id) is False
    assert _centre_turns_clear([sofa, tv, table], DEFAULT, by_id) is True   # a route that does not come back
    records, _ = run(files, per_task=8)
    for r in mcqs(records, "route_plan"):
        d = r["derivation"]
        assert {d["start"], d["goal"]} != {"living-room/sofa/1", "living-room/chair/1"} or not d["landmarks"]
    rec = dict(mcqs(records, "route_plan")[0])
    rec = routed(rec, "sofa", "table", "chair")
    messages = [p.message for p in check_records([rec], check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert "the route leaves living-room/sofa/1 and comes back beside it at living-room/chair/1" in messages


def test_the_first_turn_reads_the_same_wherever_one_stands_by_the_start():
    """Person check (office-floor): "beginning at the sofa facing the plant" by a 2 m sofa with
    the plant at one end reads left at one end and turn back at the other."""
    from types import SimpleNamespace
    from queries.route_plan import FIRST_TURN_MARGIN_DEG, _first_turn_steady
    ctx, facing = SimpleNamespace(th=DEFAULT), SimpleNamespace(xy=(0.0, 10.0))
    right = (["turn right"], True)
    m = FIRST_TURN_MARGIN_DEG
    assert _first_turn_steady(ctx, [(0.0, 0.0), (5.0, -1.0)], (10.0, 0.0), facing, right, m)   # -90, -103 deg
    assert not _first_turn_steady(ctx, [(0.0, 0.0), (0.0, 12.0)], (10.0, 0.0), facing, right, m)  # +40: no turn
    # person checks: a first turn of 135-140 deg from beside the start was read "left or back?";
    # past the middle of the unclear band (135) it reads the other way: 3 deg short of it is the limit
    far_left = SimpleNamespace(xy=(-10.0, 0.0))        # facing west from the origin
    to = lambda deg: (math.cos(math.radians(180 + deg)), math.sin(math.radians(180 + deg)))  # noqa: E731
    left = (["turn left"], True)
    assert _first_turn_steady(ctx, [(0.0, 0.0)], to(131.0), far_left, left, m)
    assert not _first_turn_steady(ctx, [(0.0, 0.0)], to(133.0), far_left, left, m)
    assert not _first_turn_steady(ctx, [(0.0, 0.0)], to(47.0), far_left, left, m)
    assert [check_route.nearer_turn(a, CHECK_RULES) for a in (44, 46, 134, -136, 150)] == [
        "none", "turn left", "turn left", "turn back", "turn back"]
    # the checker on its own: a 3 m bench along the south wall, facing the tv, first to the lamp:
    # a left from the bench's middle, no turn from its east end
    files = square_room([obj("living-room/bench/1", 6, 0.25, w=3.0, d=0.3)])
    records, _ = run(files, per_task=8)
    rec = dict(mcqs(records, "route_plan")[0])
    rec = routed(rec, "bench", "lamp", "table", facing="tv")
    messages = [p.message for p in check_records([rec], check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert "the first turn is turn left from the start's centre but none from elsewhere by it" in messages, messages


def test_the_first_turn_is_tried_from_every_place_by_a_boxed_in_start():
    """A window behind a desk (scenario-06, seed 7): the route grid had one cell by the window,
    in the corner at one end, so the generator shipped "beginning at the window facing the
    picture: turn left", which the checker refused: from the gap at the window's other end it is
    a turn back. The generator now also tries every place within 0.45 m of the window."""
    from queries.route_grid import stand_area_points
    files = house({"office": [0, 0, 4, 4]}, [
        obj("office/window/1", 0.0, 2.0, w=0.1, d=1.2, support="wall"),
        obj("office/desk/1", 0.55, 1.75, w=0.7, d=1.2),
        obj("office/picture/1", 0.0, 0.5, w=0.05, d=0.6, support="wall")], ["office"])
    sc = scenario(files)
    by_id = {o.id: o for o in sc.scene.objects}
    planner = RoomPlanner(sc.scene.rooms[0].polygon, list(sc.scene.objects), DEFAULT, by_id)
    window = by_id["office/window/1"]
    cells = [planner.xy(n) for n in planner.beside(window)]
    area = stand_area_points(planner, window)
    assert cells and all(y > 2.4 for _, y in cells)   # the grid: only past the desk's north end
    assert any(y < 1.05 for _, y in area)             # ... a person also stands past its south end
    assert max(Polygon(window.footprint).distance(Point(p)) for p in area) <= DEFAULT.stand_by_m + 1e-9
    assert not any(planner.free.distance(Point(p)) > 1e-9 for p in area)
    # every stand point the checker samples by the window is near one the generator tries
    facts = Facts(check_files(files), CHECK_RULES)
    free = check_route.free_space(facts, "office", CHECK_RULES)
    theirs = check_route.stand_points(facts.resolve("window"), free, facts)
    assert len(theirs) and max(min(math.dist(t, p) for p in area) for t in theirs) <= 0.05


@pytest.mark.parametrize("angle, expected", [
    (0, "none"), (30, "none"), (31, None), (59, None), (60, "turn left"), (-90, "turn right"),
    (121, None), (149, None), (150, "turn back"), (-180, "turn back")])
def test_turn_classes(angle, expected):
    assert classify_turn(angle, DEFAULT) == expected


# ----------------------------------------------------------------------------- tiny house
def ordinal_of(record) -> str:
    return re.search(r"in the (\w+) room you entered", record["question"])[1]


def test_memory_action_hand_answers():
    records, report = run(tiny_house(), per_task=5)
    got = {ordinal_of(r): r for r in mcqs(records, "memory_action")}
    assert set(got) == {"second", "third", "fourth", "fifth"}
    assert got["second"]["answer_text"] in {"Dining", "Relaxing", "Watching tv"}   # living room
    assert got["third"]["answer_text"] == "Sleeping"                               # bedroom
    assert got["fourth"]["answer_text"] == "Bathing"                               # bathroom
    assert got["fifth"]["answer_text"] in {"Reading", "Working"}                    # study
    possible = {"second": {"dining", "relaxing", "watching tv"}, "third": {"sleeping"},
                "fourth": {"bathing"}, "fifth": {"reading", "working"}}
    for k, r in got.items():
        assert len(r["options"]) == 5
        wrong = [o.lower() for o in r["options"] if o != r["answer_text"]]
        assert not set(wrong) & possible[k]
    assert report.reasons["memory_action"] == {"rule4: the first room needs no memory of the walk": 1}
    assert got["third"]["question"] == ("Based on the objects visible in the third room you entered (counting "
                                        "the room where the video starts as the first, hallways and stairs "
                                        "not at all), what activity is possible in that room?")


def test_memory_action_refuses_a_room_whose_activity_the_next_room_also_affords():
    objects = tiny_objects() + [obj("bathroom/bed/1", 10, 7, 1.4, 1.0)]
    records, report = run(tiny_house(objects=objects), per_task=5)
    ordinals = {ordinal_of(r) for r in mcqs(records, "memory_action")}
    assert "third" not in ordinals   # the bedroom: sleeping is possible in the bathroom next
    assert report.reasons["memory_action"][
        "rule4: every possible activity is also possible in the previous/next room"] == 1


# c relative to d, room centres: kitchen (2,2), living room (6,2), bedroom (10,2),
# study (1.75,8), bathroom (10.25,8). Pairs near a 45-degree boundary are absent.
MAP_DIRECTIONS = {
    ("study", "kitchen"): "North", ("kitchen", "study"): "South",
    ("bedroom", "kitchen"): "East", ("kitchen", "bedroom"): "West",
    ("bedroom", "living room"): "East", ("living room", "bedroom"): "West",
    ("study", "bathroom"): "West", ("bathroom", "study"): "East",
    ("living room", "kitchen"): "East", ("kitchen", "living room"): "West",      # anchors only:
    ("bathroom", "bedroom"): "North", ("bedroom", "bathroom"): "South",          # co-visible
}


def test_map_direction_hand_answers_and_refusals():
    records, report = run(tiny_house(), per_task=6)
    got = mcqs(records, "map_direction")
    assert {frozenset(r["derivation"]["query"]) for r in got} == {
        frozenset(p) for p in [("study", "kitchen"), ("bedroom", "kitchen"), ("bedroom", "living room"),
                               ("study", "bathroom")]}
    for r in got:
        c, d = r["derivation"]["query"]
        a, b = r["derivation"]["anchor"]
        assert r["answer_text"] == MAP_DIRECTIONS[(c, d)]
        assert r["question"] == (f"Given that the {a} is {MAP_DIRECTIONS[(a, b)].lower()} of the {b}, what is "
                                 f"the direction of the {c} relative to the {d}?")
        assert sorted(r["options"]) == ["East", "North", "South", "West"]
    assert report.rejections["map_direction"] == {"rule3": 8, "rule4": 4}


# squared centre distances (m^2), worked out in the README
D2 = {frozenset(k): v for k, v in {
    ("kitchen", "living room"): 16, ("living room", "bedroom"): 16, ("kitchen", "bedroom"): 64,
    ("study", "bathroom"): 72.25, ("kitchen", "study"): 36.0625, ("bedroom", "bathroom"): 36.0625,
    ("living room", "study"): 54.0625, ("living room", "bathroom"): 54.0625,
    ("kitchen", "bathroom"): 104.0625, ("bedroom", "study"): 104.0625}.items()}


def test_map_scale_hand_ratios():
    records, report = run(tiny_house(), per_task=10)   # more than there are: every pair is tried
    got = mcqs(records, "map_scale")
    assert got
    for r in got:
        ratio = D2[frozenset(r["derivation"]["query"])] / D2[frozenset(r["derivation"]["reference"])]
        value = float(r["answer_text"])
        assert abs(ratio - value) <= 0.1 * value
        assert all(abs(float(o) - ratio) > 0.25 * ratio for o in r["options"] if o != r["answer_text"])
        assert frozenset(r["derivation"]["query"]) not in {frozenset(("kitchen", "living room")),
                                                           frozenset(("bedroom", "bathroom"))}
    assert report.reasons["map_scale"]["rule4: compared rooms visible in one frame"] == 2


def test_map_scale_worked_example():
    from queries.abstractive import scale_option
    assert scale_option(64 / 16, 0.10) == 4          # kitchen-bedroom over kitchen-living room
    assert scale_option(54.0625 / 16, 0.10) is None  # 3.38: 12.6% from 3, 15.5% from 4
    assert scale_option(36.0625 / 16, 0.10) == 2.5   # 2.25: 10% below 2.5


def test_layout_facts_of_the_tiny_house():
    lay = Layout(scenario(tiny_house()).scene)
    assert lay.adjacent("kitchen", "living room") is True
    assert lay.adjacent("kitchen", "study") is False
    assert lay.adjacent("living room", "bedroom") is None     # shared wall, no door: unclear
    assert lay.opposite("kitchen", "study") is True and lay.opposite("bathroom", "bedroom") is True
    assert lay.opposite("living room", "study") is False and lay.opposite("kitchen", "living room") is False
    assert [lay.corner(r) for r in ("kitchen", "living room", "bedroom", "study", "bathroom")] == [
        True, False, True, True, True]
    assert lay.between("living room", "kitchen", "bedroom") is True
    assert lay.between("kitchen", "living room", "bedroom") is False
    assert len(lay.routes("study", "bathroom")) == 1 and len(lay.routes("kitchen", "living room")) == 2
    assert len(lay.routes("kitchen", "study")) == 2 and len(lay.routes("bedroom", "study")) == 1


def test_rooms_a_thick_wall_apart_are_never_called_not_adjacent():
    # Person check (large-house): bedroom 1 and the entrance hall, 0.3 m apart on one side of a
    # hallway without a doorway between them, were shipped as "not adjacent"; a viewer sees two
    # neighbouring rooms. Only rooms a metre or more apart (a hallway between) are not adjacent.
    rooms = {"kitchen": [0, 0, 4, 4], "study": [4.5, 0, 8.5, 4], "bedroom": [0, 5.5, 4, 9.5],
             "gym": [10, 0, 13, 4]}
    files = house(rooms, [obj("kitchen/stove/1", 1, 1)], list(rooms), hallways={"h0": [0, 4, 13, 5.5]},
                  doors=[((r, "hallway:h0"), ((x0 + x1) / 2, 4 if y0 == 0 else 5.5), "x")
                         for r, (x0, y0, x1, y1) in rooms.items()])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    for judge in (lay.adjacent, check.adjacent):
        assert judge("kitchen", "study") is None      # 0.5 m apart: looks like one thick wall
        assert judge("kitchen", "bedroom") is False   # across the 1.5 m hallway
        assert judge("study", "gym") is False         # 1.5 m apart


def test_simulation_opposite_form_and_statements():
    # the walk crosses the hallway by the kitchen's doorway facing the study's (queries/facing.py)
    records, report = run(tiny_house(between=(2.0, 4.3)), per_task=6)
    got = mcqs(records, "simulation")
    opposite = {r["question"]: r["answer_text"] for r in got if r["derivation"]["form"] == "opposite"}
    assert opposite == {"Which room is located directly opposite to the study?": "kitchen"}
    # the kitchen's question would need the bedroom as a wrong option, but the two face each
    # other across the living room (kitchen | living room | bedroom): neither opposite nor not
    assert Layout(scenario(tiny_house()).scene).opposite("kitchen", "bedroom") is None
    # bedroom/bathroom are opposite on the plan, but the walk never shows them facing each other
    assert report.reasons["simulation"]["rule2: rooms never shown facing each other"] >= 1
    # crossing by the bedroom's doorway facing the bathroom's instead: the video shows them
    # facing, but also in one frame; the kitchen and the study are never shown facing
    across, across_report = run(tiny_house(between=(10.1, 4.3)), per_task=6)
    assert not [r for r in mcqs(across, "simulation") if r["derivation"]["form"] == "opposite"]
    assert across_report.reasons["simulation"]["rule4: compared rooms visible in one frame"] >= 2
    for r in got:
        if r["derivation"]["form"] == "statements":
            assert len(r["options"]) == 5
            assert r["answer_text"] not in ("The kitchen is adjacent to the living room.",
                                            "The living room is adjacent to the kitchen.")
            twin = next(t for t in records if t["id"] == r["id"] + "-ff")
            assert all(o in twin["question"] for o in r["options"])


def test_global_counting_hand_answers():
    records, _ = run(tiny_house(), per_task=5)
    got = {r["question"]: r["answer"] for r in of_task(records, "global_counting")}
    assert got == {"How many cups are observed across all rooms in the video?": 2,
                   "How many lamps are observed across all rooms in the video?": 2}
    records, report = run(tiny_house(unseen=("study/lamp/1",)), per_task=5)
    assert [r["question"] for r in of_task(records, "global_counting")] == [
        "How many cups are observed across all rooms in the video?"]
    assert report.reasons["global_counting"] == {"rule3: an instance never seen": 1}


def test_abstractive_tasks_refuse_without_room_visibility():
    records, report = run(tiny_house(room_vis=False), per_task=3)
    assert mcqs(records, "map_direction") == [] and mcqs(records, "map_scale") == []
    assert "rule4: no room visibility to prove the rooms are never in one frame" in report.reasons["map_direction"]


# ----------------------------------------------------------------------------- countable, look-alikes (issue 10, item 5)
def mixed_room():
    """A dining room with 2 paper stacks, 2 tables and a desk (a look-alike of a table), 2 chairs,
    and one of several other things; a kitchen with a sofa and a plant."""
    objs = [obj("dining-room/print/1", 1, 1), obj("dining-room/print/2", 1, 3),
            obj("dining-room/table/1", 3, 1), obj("dining-room/table/2", 3, 3), obj("dining-room/desk/1", 5, 1),
            obj("dining-room/chair/1", 5, 3), obj("dining-room/chair/2", 7, 1), obj("dining-room/bed/1", 7, 3.2),
            obj("kitchen/chair/1", 9.5, 1), obj("kitchen/plant/1", 11, 3)]
    return house({"dining room": [0, 0, 8, 4], "kitchen": [8, 0, 12, 4]}, objs, ["dining room", "kitchen"],
                 doors=[(("dining room", "kitchen"), (8, 2), "y")])


def test_counting_leaves_out_uncountable_and_look_alike_categories():
    records, report = run(mixed_room(), per_task=5)
    counted = {r["derivation"]["category"] for r in of_task(records, "object_counting")}
    assert counted == {"chair"}                     # not print (several sheets), not table (desk beside)
    assert report.reasons["object_counting"] == {
        "rule1: a look-alike category in the same room": 1,
        "rule1: one object of the category is several things to count": 1}
    assert {r["derivation"]["category"] for r in of_task(records, "global_counting")} == {"chair"}
    named = {o for r in records if r["task"] in ("relative_direction", "relative_distance", "route_plan")
             for o in r["evidence"]["objects"]}
    assert "dining-room/desk/1" not in named        # a table stands in the same room
    from queries.check import check_records
    from queries.check_facts import load_files
    from fixtures.queries.builder import write
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        files = load_files(write(tmp, mixed_room()))
        assert check_records(records, files, ontology=FIXTURE_ONTOLOGY) == []
        bad = dict(next(r for r in records if r["task"] == "object_counting"))
        bad["question"], bad["answer"], bad["answer_text"] = "How many print(s) are in the dining room?", 2, "2"
        kinds = {p.kind for p in check_records([bad], files, ontology=FIXTURE_ONTOLOGY) if p.id == bad["id"]}
        assert "format" in kinds
        bad["question"], bad["answer"], bad["answer_text"] = "How many table(s) are in the dining room?", 2, "2"
        kinds = {p.kind for p in check_records([bad], files, ontology=FIXTURE_ONTOLOGY) if p.id == bad["id"]}
        assert "ambiguity" in kinds


# ----------------------------------------------------------------------------- one floor per map (issue 10, item 4)
def two_storey():
    """The tiny house with the study and the bathroom moved one floor up (same footprints)."""
    files = tiny_house()
    scene = files["scene.json"]
    scene["floors"].append({"floor": 1, "elevation": 3.0, "height": 2.8})
    for room in scene["rooms"]:
        if room["label"] in ("study", "bathroom"):
            room["floor"] = 1
    for o in scene["objects"]:
        if o["room"] in ("study", "bathroom"):
            o["floor"], o["position"][2] = 1, 3.0
    return files


def test_map_direction_and_scale_compare_rooms_of_one_floor():
    files = two_storey()
    floor = {r["label"]: r["floor"] for r in files["scene.json"]["rooms"]}
    records, _ = run(files, per_task=6)
    maps = [r for r in records if r["task"] in ("map_direction", "map_scale") and r["format"] == "mcq"]
    assert maps
    for r in maps:
        assert len({floor[x] for x in r["evidence"]["rooms"]}) == 1, r["question"]
    # the checker refuses a map question across floors
    from queries.check import check_records
    from queries.check_facts import load_files
    from fixtures.queries.builder import write
    import tempfile
    r = dict(next(r for r in maps if r["task"] == "map_direction"))
    a, b = r["derivation"]["anchor"]
    upstairs = "study" if "study" not in r["question"] else "bathroom"
    r["question"] = r["question"].replace(f"the {a} is", f"the {upstairs} is", 1)
    with tempfile.TemporaryDirectory() as tmp:
        found = {p.kind for p in check_records([r], load_files(write(tmp, files)), ontology=FIXTURE_ONTOLOGY)
                 if p.id == r["id"]}
    assert "ambiguity" in found


def test_map_direction_holds_on_the_map_turned_to_the_anchor():
    # Person check (scenario-05): "Given that the lounge is north of the main office" (the line
    # runs 19 deg west of north) asked for the file room from the main office: north on the plan,
    # but 44.5 deg, on the boundary, on a map turned so the lounge is exactly north. Here the
    # kitchen is 19.8 deg west of north of the bedroom and the gym 65 deg (north) from the study:
    # turned by the kitchen anchor the gym is at 45.2 deg, too close to call.
    import math
    rooms = {"bedroom": [0, 0, 4, 4], "kitchen": [-3.6, 10, 0.4, 14], "study": [20, 0, 24, 4],
             "gym": [22 + 10 * math.cos(math.radians(65)) - 2, 2 + 10 * math.sin(math.radians(65)) - 2,
                     22 + 10 * math.cos(math.radians(65)) + 2, 2 + 10 * math.sin(math.radians(65)) + 2]}
    files = house(rooms, [obj(f"{k}/bench/1", v[0] + 1, v[1] + 1) for k, v in rooms.items()], list(rooms))
    records, _ = run(files, per_task=12)
    got = mcqs(records, "map_direction")
    assert got
    for r in got:
        if set(r["derivation"]["query"]) == {"gym", "study"}:
            assert set(r["derivation"]["anchor"]) != {"kitchen", "bedroom"}, r["question"]
    r = dict(next(r for r in got if set(r["derivation"]["query"]) == {"gym", "study"}))
    c, d = r["derivation"]["query"]
    r["question"] = (f"Given that the kitchen is north of the bedroom, what is the direction of the {c} "
                     f"relative to the {d}?")
    from queries.check_facts import load_files
    from fixtures.queries.builder import write
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        found = {p.kind for p in check_records([r], load_files(write(tmp, files)), ontology=FIXTURE_ONTOLOGY)
                 if p.id == r["id"]}
    assert "margin" in found   # (and "format": a lone MCQ without its free-form twin)


# ----------------------------------------------------------------------------- door leaves, end rooms (person check)
def chain_house(extra=()):
    """kitchen | living room | bedroom in a row, one doorway between neighbours: the only way from
    the kitchen to the bedroom passes the living room. A plant in the kitchen (where the way
    starts) and one in the middle, a sofa only in the middle, a chair only in the bedroom."""
    objs = [obj("kitchen/plant/1", 1, 1), obj("living-room/plant/1", 5, 1), obj("living-room/sofa/1", 6, 3),
            obj("bedroom/chair/1", 10, 1), obj("bedroom/bed/1", 10, 3, 1.4, 1.0), *extra]
    return house({"kitchen": [0, 0, 4, 4], "living room": [4, 0, 8, 4], "bedroom": [8, 0, 12, 4]}, objs,
                 ["kitchen", "living room", "bedroom"],
                 doors=[(("kitchen", "living room"), (4, 2), "y"), (("living room", "bedroom"), (8, 2), "y")])


def test_pass_through_statements_hold_whether_or_not_a_viewer_counts_the_end_rooms():
    import numpy as np
    from queries.check_layout import LayoutCheck
    from queries.check_abstractive import statement_truth
    from queries.context import Context
    from queries.simulation import _passed_statements

    files = chain_house()
    ctx = Context(scenario(files), DEFAULT, FIXTURE_ONTOLOGY, np.random.default_rng(0))
    said = {s.text: s.truth for s in _passed_statements(ctx, Layout(ctx.scene), "kitchen", "bedroom",
                                                         ["kitchen", "living room", "bedroom"])}
    way = "To get from the kitchen to the bedroom, you have to pass through "
    # the sofa is only in the middle: 1 either way; plants are 1 (middle) or 2 (with the kitchen):
    # nothing true is said of plants, and the false count is above both readings
    assert said[way + "1 sofa."] is True and said[way + "2 sofas."] is False
    assert said[way + "3 plants."] is False and said[way + "2 chairs."] is False
    assert {s for s in said if "plant" in s} == {way + "3 plants."}

    facts = Facts(check_files(files), CHECK_RULES)
    lay = LayoutCheck(facts)
    lay.__dict__["doors_seen"] = {d.id for d in facts.scene.doors}   # as if the video showed both doorways
    truth = lambda s: statement_truth(way + s, facts, lay)[0]  # noqa: E731
    assert truth("1 sofa.") is True and truth("2 sofas.") is False
    assert truth("1 plant.") is None and truth("2 plants.") is None
    assert truth("3 plants.") is False and truth("1 chair.") is None and truth("2 chairs.") is False


def test_a_door_object_is_never_named_for_the_door_leaves_look_like_doors():
    doors = [obj("living-room/door/1", 6, 0.05, 0.9, 0.1, support="wall"),
             obj("living-room/door/2", 6, 3.95, 0.9, 0.1, support="wall"),
             obj("kitchen/cup/1", 2, 2, 0.1, 0.1), obj("kitchen/cup/2", 3, 3, 0.1, 0.1)]   # something to count
    files = chain_house(doors)
    records, report = run(files, per_task=6)
    assert records
    for r in records:
        assert not {"living-room/door/1", "living-room/door/2"} & set(r["evidence"].get("objects", [])), r["question"]
        assert " door" not in r["question"].lower(), r["question"]
    assert report.reasons["object_counting"].get("rule1: a look-alike category in the same room", 0) >= 1
    # the checker's own reading: a question about the door is ambiguous while doorways show leaves
    bad = dict(next(r for r in records if r["task"] == "object_counting"))
    bad["question"], bad["answer"], bad["answer_text"] = "How many door(s) are in the living room?", 2, "2"
    kinds = {p.kind for p in check_records([bad], check_files(files), ontology=FIXTURE_ONTOLOGY) if p.id == bad["id"]}
    assert "ambiguity" in kinds


def test_a_room_by_a_corner_with_a_short_wall_is_neither_in_the_corner_nor_not():
    """Person check (scenario-04's homegym): a convex building corner whose wall on one side
    runs only 0.8 m before a step reads as a corner to some viewers. The gym's only outline
    corner is such a one (study | gym | living room over a kitchen; the living room's north wall
    0.8 m south of the gym's)."""
    from queries.check_layout import LayoutCheck

    rooms = {"kitchen": [0, 0, 10, 4], "study": [0, 4, 3, 8], "gym": [3, 4, 6, 8], "living room": [6, 4, 10, 7.2]}
    files = house(rooms, [obj("gym/bench/1", 4.5, 6)], list(rooms),
                  doors=[(("kitchen", "study"), (1.5, 4), "x"), (("kitchen", "gym"), (4.5, 4), "x"),
                         (("kitchen", "living room"), (8, 4), "x")])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    for judge in (lay.corner, check.corner):
        assert judge("gym") is None
        assert judge("study") is True and judge("living room") is True and judge("kitchen") is True
    rooms["living room"] = [6, 4, 10, 8]   # no step: the gym's top edge is one straight wall
    files = house(rooms, [obj("gym/bench/1", 4.5, 6)], list(rooms))
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.corner("gym") is False and check.corner("gym") is False


def test_a_room_by_a_corner_inside_a_notch_of_the_outline_is_neither_in_the_corner_nor_not():
    """Person check (sample-3-003's reception): a room on the building's south side held a
    convex corner of the outline only because of a 2.5 m outside notch beside it, south of the
    locker room, which the video cannot show. A viewer places it on the building's side. The
    rooms at the hull's corners, and the end of an L's arm, stay in the corner."""
    from queries.check_layout import LayoutCheck

    rooms = {"lounge": [0, 0, 5, 6], "reception": [5, 0, 8.5, 6], "locker room": [8.5, 2.5, 11, 6],
             "office": [11, 0, 15, 6]}
    files = house(rooms, [obj("reception/desk/1", 6.5, 3)], list(rooms),
                  doors=[(("lounge", "reception"), (5, 3), "y"), (("reception", "locker room"), (8.5, 4), "y"),
                         (("locker room", "office"), (11, 4), "y")])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    for judge in (lay.corner, check.corner):
        assert judge("reception") is None
        assert judge("lounge") is True and judge("office") is True
        assert judge("locker room") is False
    rooms["locker room"] = [8.5, 0, 11, 6]   # no notch: the south side is one straight wall
    files = house(rooms, [obj("reception/desk/1", 6.5, 3)], list(rooms))
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.corner("reception") is False and check.corner("reception") is False
    # an L whose long arm runs far north: the short arm's end is a corner of the hull all the same
    rooms = {"kitchen": [0, 0, 10, 2], "study": [0, 2, 4, 12]}
    files = house(rooms, [obj("kitchen/stove/1", 8, 1)], list(rooms), doors=[(("kitchen", "study"), (2, 2), "x")])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.corner("kitchen") is True and check.corner("kitchen") is True
    assert lay.corner("study") is True and check.corner("study") is True


def test_a_room_whose_side_at_the_corner_is_mostly_inside_wall_is_not_clearly_in_the_corner():
    """Person check of large-house: "the dining room is located in the corner", the middle room
    of the east side, held a corner of the outline only because the living room's outside wall
    south of it steps back 1.4 m; its south side is 1.4 m of outside wall and 2.6 m of wall to
    the living room, and no frame shows the step. The rooms at the plain corners stay in it."""
    from queries.check_layout import LayoutCheck

    rooms = {"living room": [0, 0, 12.6, 4], "study": [0, 4, 10, 11], "dining room": [10, 4, 14, 7.5],
             "kitchen": [10, 7.5, 14, 11]}
    files = house(rooms, [obj("dining-room/table/1", 12, 6)], list(rooms),
                  doors=[(("living room", "study"), (5, 4), "x"), (("living room", "dining room"), (11, 4), "x"),
                         (("dining room", "kitchen"), (12, 7.5), "x")])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    for judge in (lay.corner, check.corner):
        assert judge("dining room") is None
        assert judge("kitchen") is True and judge("living room") is True and judge("study") is True
    rooms["living room"] = [0, 0, 14, 4]   # no step: the dining room is on the east side, not in a corner
    files = house(rooms, [obj("dining-room/table/1", 12, 6)], list(rooms))
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.corner("dining room") is False and check.corner("dining room") is False


def test_a_room_the_line_only_clips_is_not_between():
    """Scenario-02 in a new person check: "the kitchen is located between the bathroom and the
    living room" - the bathroom east of the kitchen, the living room north of it: the line
    between their centres crosses only a corner of the kitchen (about 1 m of its 5.9 m), the
    hallway lies between them as much. Three rooms in a row stay between."""
    from queries.check_layout import LayoutCheck

    rooms = {"kitchen": [1.6, 0, 5.8, 3.1], "bathroom": [5.8, 0, 7.8, 3.1], "living room": [0, 3.1, 4.7, 7.8]}
    files = house(rooms, [obj("kitchen/stove/1", 3, 1)], list(rooms),
                  doors=[(("kitchen", "bathroom"), (5.8, 1.5), "y"), (("kitchen", "living room"), (3, 3.1), "x")])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.between("kitchen", "bathroom", "living room") is None
    assert check.between("kitchen", "bathroom", "living room") is None
    row = {"kitchen": [0, 0, 4, 4], "hall": [4, 0, 5.5, 4], "bathroom": [5.5, 0, 9.5, 4]}   # a narrow middle room
    files = house(row, [obj("kitchen/stove/1", 1, 1)], list(row))
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.between("hall", "kitchen", "bathroom") is True and check.between("hall", "kitchen", "bathroom") is True


def test_a_room_at_the_bend_of_an_l_is_not_clearly_between():
    """Person check (sample-3-003): "lounge 1 is located between lounge 3 and the meeting room"
    with lounge 3 south of it and the meeting room east of it: the line between their centres
    runs 45% of its length through the big lounge, yet the way bends by 66 deg there, and a
    viewer calls that an L, not between. Moved in line with the others, it is between."""
    from queries.check_layout import LayoutCheck

    rooms = {"lounge 1": [0, 3, 7, 9], "lounge 3": [0, 0, 3, 3], "meeting room": [7, 3, 10, 9]}
    files = house(rooms, [obj("lounge-1/sofa/1", 2, 7)], list(rooms),
                  doors=[(("lounge 1", "lounge 3"), (1.5, 3), "x"), (("lounge 1", "meeting room"), (7, 6), "y")])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.between("lounge 1", "lounge 3", "meeting room") is None
    assert check.between("lounge 1", "lounge 3", "meeting room") is None
    rooms["lounge 3"] = [-3, 3, 0, 9]   # west of the lounge instead: B, room and C in a row
    files = house(rooms, [obj("lounge-1/sofa/1", 2, 7)], list(rooms))
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.between("lounge 1", "lounge 3", "meeting room") is True
    assert check.between("lounge 1", "lounge 3", "meeting room") is True


def test_direction_and_distance_questions_spread_over_the_rooms():
    """A task's questions come one per room before any room gets a second (scenario-02 shipped
    all nine direction, distance and route questions in its kitchen). In the tiny house the
    kitchen, living room, study and bathroom (with its one door) each allow relative direction
    questions; the living room and study relative distance ones (five unique things)."""
    for per_task in (2, 3, 4):
        records, _ = run(tiny_house(), per_task=per_task)
        for task, rooms in (("relative_direction", 4), ("relative_distance", 2)):
            got = [r["evidence"]["rooms"][0] for r in mcqs(records, task)]
            assert len(got) == per_task
            counts = sorted(got.count(room) for room in set(got))
            assert len(set(got)) == min(rooms, per_task) and counts[-1] - counts[0] <= 1, (task, got)


# ----------------------------------------------------------------------------- names by a neighbour
def office_of_chairs(second_chair=(4.0, 4.0)):
    """Three chairs; chair 1 stands 0.2 m from the office's only bookshelf, the others 3 m off."""
    objs = [obj("office/bookshelf/1", 0.4, 2.5, w=0.4, d=1.0), obj("office/chair/1", 1.0, 2.5),
            obj("office/chair/2", *second_chair), obj("office/chair/3", 4.0, 1.0),
            obj("office/sofa/1", 5.0, 2.5, w=0.8, d=2.0), obj("office/plant/1", 2.5, 4.3),
            obj("office/lamp/1", 2.5, 0.7)]
    return house({"office": [0, 0, 6, 5]}, objs, ["office"])


def test_one_of_several_chairs_is_named_by_its_neighbour_and_the_checker_reads_it_back():
    files = office_of_chairs()
    records, _ = run(files, per_task=12)
    named = [r for r in records if "chair by the bookshelf" in r["question"] + " ".join(r.get("options") or [])]
    assert named, "the chair by the bookshelf is asked about"
    for r in named:
        assert "office/chair/1" in r["evidence"]["objects"]
        assert "office/chair/2" not in r["evidence"]["objects"] and "office/chair/3" not in r["evidence"]["objects"]
        # a name never leans on another object of its question
        assert "office/bookshelf/1" not in r["evidence"]["objects"]
    assert not any(re.search(r"\bchair\b(?! by)", r["question"]) for r in records if r["task"] != "object_counting")
    assert not check_records(records, check_files(files), ontology=FIXTURE_ONTOLOGY)
    facts = Facts(check_files(files), CHECK_RULES)
    assert facts.resolve("chair by the bookshelf").id == "office/chair/1"
    assert facts.resolve("chair by the sofa") is None       # chairs 2 and 3 are equally near it
    # a second chair 0.8 m from the bookshelf: "the chair by the bookshelf" is no longer clear
    # (and chair 3, now the only one near the sofa, is "the chair by the sofa")
    near = office_of_chairs(second_chair=(1.0, 3.8))
    again, _ = run(near, per_task=12)
    texts = " ".join(r["question"] + " ".join(r.get("options") or []) for r in again)
    assert "chair by the bookshelf" not in texts and "chair by the sofa" in texts
    assert not check_records(again, check_files(near), ontology=FIXTURE_ONTOLOGY)
    problems = check_records(named, check_files(near), ontology=FIXTURE_ONTOLOGY)
    assert any("'chair by the bookshelf' names no single object" in p.message for p in problems)


def test_a_distance_question_never_names_by_a_neighbour_it_asks_about():
    """Five nameable things, one of them 'the chair by the bookshelf': "closest to the bookshelf"
    with the chair among the options, or "closest to the chair by the bookshelf" with the
    bookshelf, would give itself away; the other three targets are asked about or refused on
    their margins."""
    files = office_of_chairs()
    records, report = run(files, per_task=12)
    assert mcqs(records, "relative_distance") == []
    assert report.reasons["relative_distance"] == {"rule5: a name ties the target to an option": 2,
                                                   "rule3: nearest and second-nearest within 25% or 0.3 m": 3}
    rec = dict(next(r for r in mcqs(records, "relative_direction") if r["derivation"]["level"] == "easy"))
    options = ["chair by the bookshelf", "sofa", "plant", "lamp"]
    rec.update(task="relative_distance", category="distance", options=options, answer="A", answer_text=options[0],
               question="Measuring from the closest point of each object, which of these objects ("
                        + ", ".join(options) + ") is the closest to the bookshelf?")
    messages = [p.message for p in check_records([rec], check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert "'chair by the bookshelf' is named by another object of the question (office/bookshelf/1)" in messages


# ----------------------------------------------------------------------------- names by colour
def lounge_of_sofas(*colors):
    """Sofas of the given colours 2.5 m apart along the lounge's north wall (no neighbour near
    one alone), with a unique table, plant and lamp."""
    objs = [obj(f"lounge/sofa/{k + 1}", 1.0 + 2.5 * k, 4.4, w=1.6, d=0.8) for k in range(len(colors))]
    for o, color in zip(objs, colors):
        o["attributes"]["color"] = color
    objs += [obj("lounge/table/1", 3.0, 2.0, w=1.0, d=0.6), obj("lounge/plant/1", 6.5, 1.0),
             obj("lounge/lamp/1", 0.5, 0.7)]
    return house({"lounge": [0, 0, 7, 5]}, objs, ["lounge"])


def _named(records) -> str:
    return " ".join(r["question"] + " ".join(r.get("options") or []) for r in records)


def test_one_of_several_sofas_is_named_by_its_colour_only_where_every_colour_has_its_own_word():
    files = lounge_of_sofas("dark red", "navy")          # "red" and "blue"
    records, _ = run(files, per_task=12)
    texts = _named(records)
    assert "red sofa" in texts and "blue sofa" in texts
    for r in records:
        if "red sofa" in r["question"] + " ".join(r.get("options") or []):
            assert "lounge/sofa/1" in r["evidence"]["objects"]
    assert not check_records(records, check_files(files), ontology=FIXTURE_ONTOLOGY)
    facts = Facts(check_files(files), CHECK_RULES)
    assert facts.resolve("red sofa").id == "lounge/sofa/1" and facts.resolve("blue sofa").id == "lounge/sofa/2"
    assert facts.resolve("navy sofa") is None and facts.resolve("green sofa") is None
    # a third sofa in "red" shares sofa 1's word: it loses its colour name, sofa 2 keeps "blue"
    three = lounge_of_sofas("dark red", "navy", "red")
    again, _ = run(three, per_task=12)
    assert "red sofa" not in _named(again) and "blue sofa" in _named(again)
    problems = check_records(records, check_files(three), ontology=FIXTURE_ONTOLOGY)
    assert any("'red sofa' names no single object" in p.message for p in problems)


@pytest.mark.parametrize("colors", [("navy", "black"),     # a navy sofa in shade reads as black
                                    ("grey", "beige"),      # beige has no one word
                                    ("teal", "red")])       # nor has teal: the red one could be either
def test_sofas_a_viewer_could_call_by_one_colour_word_are_never_named_by_colour(colors):
    files = lounge_of_sofas(*colors)
    records, _ = run(files, per_task=12)
    assert not any(f"{word} sofa" in _named(records) for word in ("red", "blue", "black", "grey", "green"))
    facts = Facts(check_files(files), CHECK_RULES)
    assert all(facts.resolve(f"{word} sofa") is None for word in ("red", "blue", "black", "grey"))


def _as_a_sliver(files, oid: str) -> None:
    """Show `oid` as a sliver: over 0.1% of the frame (seen) but under 15% of its box's outline."""
    o = next(o for o in files["scene.json"]["objects"] if o["id"] == oid)
    _, whole = _outline_in_and_beyond_frame(o, eye=(3.5, 0.5, 1.6))
    sliver = max(400, math.floor(0.1 * whole))                    # 400 px: 0.13% of the frame
    assert sliver < 0.15 * whole
    track = files["visibility.json"]["objects"][oid]
    track["pixels"] = [sliver] * len(track["pixels"])


def test_a_thing_seen_only_as_a_sliver_is_never_named():
    """Person check of sample-1-016: "the black chair" was seen only as a thin black strip behind
    another chair. A question names, or names a thing by, only what shows enough of itself to be
    counted (15% of its box's outline for 0.5 s); the checker refuses such a name on its own."""
    files = lounge_of_sofas("dark red", "navy")
    records, _ = run(files, per_task=12)
    named_red = [r for r in records if "red sofa" in _named([r])]
    assert named_red
    _as_a_sliver(files, "lounge/sofa/1")
    again, _ = run(files, per_task=12)
    assert "red sofa" not in _named(again) and "blue sofa" in _named(again)
    assert not [r for r in again if "lounge/sofa/1" in r["evidence"]["objects"]]
    problems = [p.message for p in check_records(named_red, check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert "'red sofa' (lounge/sofa/1) is never shown whole enough to tell what it is" in problems
    assert not check_records(again, check_files(files), ontology=FIXTURE_ONTOLOGY)


def test_a_thing_is_never_named_by_a_neighbour_seen_only_as_a_sliver():
    """Two grey sofas, a lamp 0.15 m from one of them: "the sofa by the lamp", until the lamp
    shows only a sliver of itself; then neither the lamp nor the sofa by it is named."""
    objs = [obj("lounge/sofa/1", 1.5, 4.4, w=1.6, d=0.8), obj("lounge/sofa/2", 5.0, 4.4, w=1.6, d=0.8),
            obj("lounge/lamp/1", 2.6, 4.4), obj("lounge/table/1", 3.5, 2.5, w=1.0, d=0.6),
            obj("lounge/plant/1", 6.5, 1.0), obj("lounge/cabinet/1", 6.5, 2.6)]
    files = house({"lounge": [0, 0, 7, 5]}, objs, ["lounge"])
    records, _ = run(files, per_task=12)
    by_lamp = [r for r in records if "sofa by the lamp" in _named([r])]
    assert by_lamp
    _as_a_sliver(files, "lounge/lamp/1")
    again, _ = run(files, per_task=12)
    assert "lamp" not in _named(again)
    problems = [p.message for p in check_records(by_lamp, check_files(files), ontology=FIXTURE_ONTOLOGY)]
    assert "'sofa by the lamp' leans on lounge/lamp/1, never shown clearly" in problems


def test_a_pendant_bulb_needs_only_to_be_seen():
    """A pendant bulb's box is mostly cord (its glass, seen whole, is 13-25% of the outline) and
    nothing stands before it: seen is enough to name it, where a lamp showing as much is not."""
    bulb = obj("lounge/bulb/1", 3.5, 1.5, w=0.08, d=0.08, support="ceiling")   # 1 m ahead, above
    bulb["position"][2], bulb["size"][2] = 2.2, 0.55
    files = house({"lounge": [0, 0, 7, 5]}, [bulb, obj("lounge/lamp/1", 2.6, 4.4)], ["lounge"])
    for oid in ("lounge/bulb/1", "lounge/lamp/1"):
        track = files["visibility.json"]["objects"][oid]
        track["pixels"] = [400] * len(track["pixels"])       # seen (0.13% of the frame)
    seen, facts = scenario_seen(files), Facts(check_files(files), CHECK_RULES)
    by_id = {o.id: o for o in scenario(files).scene.objects}
    bulb_o, lamp_o = by_id["lounge/bulb/1"], by_id["lounge/lamp/1"]
    assert not seen.shown_whole(bulb_o) and not seen.shown_whole(lamp_o)   # both under 15% of their box
    assert seen.object_seen("lounge/bulb/1") and facts.object_clear("lounge/bulb/1")
    assert not seen.object_seen("lounge/lamp/1") and not facts.object_clear("lounge/lamp/1")


def test_rooms_facing_across_a_third_room_are_not_called_opposite():
    """west | middle | east in a row, doors west-middle and middle-east, the layout claiming
    west opposite east: a viewer says they are on either side of the middle room, so neither
    the generator nor the checker calls them opposite or not; across a hallway they are."""
    doors = [(("west", "middle"), (4, 2), "y"), (("middle", "east"), (8, 2), "y")]
    relations = {"adjacent": [], "opposite": [["east", "west"]], "vertical": []}
    across_room = house({"west": [0, 0, 4, 4], "middle": [4, 0, 8, 4], "east": [8, 0, 12, 4]}, [],
                        ["west", "middle", "east"], doors=doors, relations=relations)
    hall_doors = [(("west", "hallway:h0"), (4, 2), "y"), (("hallway:h0", "east"), (8, 2), "y")]
    across_hall = house({"west": [0, 0, 4, 4], "east": [8, 0, 12, 4]}, [], ["west", "east"],
                        doors=hall_doors, hallways=[("h0", [4, 0, 8, 4])], relations=relations)
    for files, expected in ((across_room, None), (across_hall, True)):
        assert Layout(scenario(files).scene).opposite("west", "east") is expected
        assert LayoutCheck(Facts(check_files(files), CHECK_RULES)).opposite("west", "east") is expected


def test_rooms_facing_across_a_space_only_one_opens_onto_are_not_clearly_not_opposite():
    """Person check of sample-1-073: the dining room lies due east of the living room across
    the stairwell, which only the living room opens onto; asked "which room is directly opposite
    the living room?", a viewer could pick it, so it is no wrong option. Rooms nowhere facing
    each other stay not opposite."""
    from queries.check_layout import LayoutCheck

    # west | stairwell | east under one long room north of them all; each opens only north
    rooms = {"west": [0, 0, 4, 4], "east": [6, 0, 10, 4], "north": [0, 4, 10, 8]}
    doors = [(("west", "north"), (2, 4), "x"), (("hallway:h0", "north"), (5, 4), "x"), (("east", "north"), (8, 4), "x")]
    files = house(rooms, [], list(rooms), doors=doors, hallways=[("h0", [4, 0, 6, 4])])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.opposite("west", "east") is None and check.opposite("west", "east") is None
    rooms["east"] = [6, -5, 10, -1]   # south-east of the stairwell: nowhere facing the west room
    doors[2] = (("east", "hallway:h0"), (6, -1), "x")
    files = house(rooms, [], list(rooms), doors=doors, hallways=[("h0", [4, -1, 6, 4])])
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.opposite("west", "east") is False and check.opposite("west", "east") is False



def test_directly_opposite_is_what_the_doorway_looks_at():
    """Person check (large-house): the laundry overlaps the entrance hall across the hallway by
    1.3 m, but leaving the hall a viewer faces the exterior door, the laundry off to the side.
    Here the hall's doorway (x 5) looks across the hallway at the exterior wall by the entrance,
    while the laundry (x 6.5-10) overlaps the hall (x 4-8) by 1.5 m and its doorway (x 7) looks
    straight at the hall. Seen from the laundry the hall is opposite; seen from the hall nothing
    is, so "which room is opposite the hall" is unclear, and so is the statement either way.
    The bedroom's doorway looks straight at the study's and they overlap by 3 m: opposite."""
    rooms = {"hall": [4, 0, 8, 4], "laundry": [6.5, 6, 10, 10], "bedroom": [9, 0, 13, 4],
             "study": [10.5, 6, 14, 10]}
    doors = [(("hall", "hallway:h0"), (5, 4), "x"), (("laundry", "hallway:h0"), (7, 6), "x"),
             (("bedroom", "hallway:h0"), (11.5, 4), "x"), (("study", "hallway:h0"), (11.5, 6), "x"),
             (("hallway:h0", "outside"), (5.5, 6), "x")]
    relations = {"adjacent": [], "opposite": [["hall", "laundry"], ["bedroom", "study"]], "vertical": []}
    files = house(rooms, [], list(rooms), doors=doors, hallways=[("h0", [4, 4, 14, 6])], relations=relations)
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    for judge in (lay, check):
        assert judge.opposite_from("laundry", "hall") is True
        assert judge.opposite_from("hall", "laundry") is None
        assert judge.opposite("hall", "laundry") is None and judge.opposite("laundry", "hall") is None
        assert judge.opposite_from("bedroom", "study") is True and judge.opposite("study", "bedroom") is True
        assert judge.opposite_from("hall", "study") is False and judge.opposite("study", "hall") is False
    assert lay.looks_across_at("hall") == set() and check.seen_out_of("hall") == set()
    assert lay.looks_across_at("bedroom") == {"study"} and check.seen_out_of("bedroom") == {"study"}
    # Person check (scenario-01): a doorway's line that passes a room's corner 0.25 m off into
    # the exterior wall looks at no room. The laundry moved west to x 5.25, the hall's doorway
    # line at x 5 runs past its corner: still nothing opposite the hall, seen from the hall.
    rooms["laundry"] = [5.25, 6, 10, 10]
    doors[-1] = (("hallway:h0", "outside"), (4.45, 6), "x")
    files = house(rooms, [], list(rooms), doors=doors, hallways=[("h0", [4, 4, 14, 6])], relations=relations)
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    assert lay.looks_across_at("hall") == set() and check.seen_out_of("hall") == set()
    assert lay.opposite_from("hall", "laundry") is None and check.opposite_from("hall", "laundry") is None
    assert lay.opposite_from("laundry", "hall") is True and check.opposite_from("laundry", "hall") is True

def test_a_room_facing_another_more_broadly_is_not_directly_opposite():
    """Person check of sample-5-000: the study's doorway looks across the hallway at the
    laundry's wall 0.45 m from its corner, the two facing over 1 m, while piano room 2 faces the
    laundry over 2.4 m: "the laundry is directly opposite the study" was arguable. Here the
    same plan: the study (x 0.5-4) and the piano room (x 4-7) north of the hallway, the kitchen
    (x 0-3) and the laundry (x 3-6.4) south of it."""
    rooms = {"study": [0.5, 6, 4, 10], "piano room": [4, 6, 7, 10], "kitchen": [0, 0, 3, 4], "laundry": [3, 0, 6.4, 4]}
    doors = [(("study", "hallway:h0"), (3.45, 6), "x"), (("piano room", "hallway:h0"), (5.5, 6), "x"),
             (("kitchen", "hallway:h0"), (1.5, 4), "x"), (("laundry", "hallway:h0"), (4.7, 4), "x")]
    relations = {"adjacent": [], "opposite": [["study", "laundry"], ["piano room", "laundry"]], "vertical": []}
    files = house(rooms, [], list(rooms), doors=doors, hallways=[("h0", [0, 4, 7, 6])], relations=relations)
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    for judge in (lay, check):
        assert judge.opposite_from("study", "laundry") is None      # the study's doorway looks at it
        assert judge.opposite_from("piano room", "laundry") is True and judge.opposite("laundry", "piano room") is True
    assert "laundry" in lay.looks_across_at("study") and "laundry" in check.seen_out_of("study")
    # the piano room moved off east (x 6.4-9.4): the laundry faces nothing else as broadly
    rooms["piano room"] = [6.4, 6, 9.4, 10]
    doors[1] = (("piano room", "hallway:h0"), (8, 6), "x")
    files = house(rooms, [], list(rooms), doors=doors, hallways=[("h0", [0, 4, 9.4, 6])], relations=relations)
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    for judge in (lay, check):    # still: the study faces the kitchen over 2.5 m
        assert judge.opposite_from("study", "laundry") is None
    rooms["kitchen"] = [-3, 0, 0, 4]
    doors[2] = (("kitchen", "hallway:h0"), (-1.5, 4), "x")
    files = house(rooms, [], list(rooms), doors=doors, hallways=[("h0", [-3, 4, 9.4, 6])], relations=relations)
    lay, check = Layout(scenario(files).scene), LayoutCheck(Facts(check_files(files), CHECK_RULES))
    for judge in (lay, check):    # the kitchen west of the study too: the laundry is what the study faces
        assert judge.opposite_from("study", "laundry") is True


# ----------------------------------------------------------------------------- a room's doors as things
def test_a_rooms_one_door_is_named_and_a_door_walked_through_is_told_by_where_it_leads():
    """The office's only doorway is 'the door in the office' (seen 4.5 m ahead for the whole
    visit); with a second doorway, to a store, only the door the walk went through is named,
    by where it leads."""
    door = [(("office", "hallway:h0"), (3, 5), "x")]
    one = office_of_chairs()
    one = house({"office": [0, 0, 6, 5]}, one["scene.json"]["objects"], ["office"], doors=door)
    records, _ = run(one, per_task=12)
    texts = " ".join(r["question"] + " ".join(r.get("options") or []) for r in records)
    assert "door in the office" in texts
    for r in records:
        assert ("office/door/door-0" in r["evidence"]["objects"]) == ("door in the office" in r["question"] + " ".join(r.get("options") or []))
        assert r["task"] not in ("object_counting", "global_counting", "appearance_order") or "door" not in r["question"]
        if r["task"] == "relative_direction":      # one stands by floor-standing things, not in a doorway
            assert not r["question"].startswith("If I am standing by the door")
        # from its opening or its leaf? (person check of large-house: the study's open leaf
        # stood 1 m from a book its opening is 1.9 m from): never measured from or to
        assert r["task"] != "relative_distance" or "office/door/door-0" not in r["evidence"]["objects"]
    assert not check_records(records, check_files(one), ontology=FIXTURE_ONTOLOGY)
    things = [obj("office/desk/1", 1, 1), obj("office/plant/1", 5, 1), obj("office/lamp/1", 1, 4),
              obj("office/cabinet/1", 4.2, 4.5), obj("office/sofa/1", 3, 2.5)]
    files = house({"office": [0, 0, 6, 5]}, things, ["office"], doors=door)
    records, _ = run(files, per_task=12)
    asked = next(r for r in records if r["task"] == "relative_distance" and r["format"] == "mcq")
    target = asked["question"].rsplit(" to the ", 1)[1].rstrip("?")
    door_asked = dict(asked, question=asked["question"].replace(f"to the {target}?", "to the door in the office?"))
    kinds = {p.kind for p in check_records([door_asked], check_files(files), ontology=FIXTURE_ONTOLOGY)
             if p.id == asked["id"]}
    assert "ambiguity" in kinds, kinds
    assert Facts(check_files(one), CHECK_RULES).resolve("door in the office").position[:2] == (3, 5)

    objs = one["scene.json"]["objects"] + [obj("store/box/1", 7.5, 3)]
    two_doors = door + [(("office", "store"), (6, 2.5), "y")]
    two = house({"office": [0, 0, 6, 5], "store": [6, 0, 9, 5]}, objs, ["office", "store"], doors=two_doors)
    records, _ = run(two, per_task=12)
    assert "door" not in " ".join(r["question"] + " ".join(r.get("options") or []) for r in records
                                  if r["task"] != "object_counting")
    # the walk from the office to the store passes through the hallway door
    hall = next(f for f in two["trajectory.json"]["frames"] if f["room"] is None)
    hall["position"][:2] = [3.0, 5.0]
    hall["cam_to_world"][0][3] = 3.0               # the derived copy agrees (the format checks it)
    records, _ = run(two, per_task=12)
    texts = " ".join(r["question"] + " ".join(r.get("options") or []) for r in records)
    assert "door to the hallway in the office" in texts and "door to the store" not in texts
    assert not check_records(records, check_files(two), ontology=FIXTURE_ONTOLOGY)


def test_a_door_seen_only_through_another_doorway_is_not_named():
    """The office's hallway door (3, 5) straight ahead of the camera is named; behind a wall at
    y = 3 whose doorway (closed leaf) lies on the line of sight it is not: nothing shows it."""
    from queries.doors import DoorView

    door = [(("office", "hallway:h0"), (3, 5), "x")]
    objs = office_of_chairs()["scene.json"]["objects"]
    plain = house({"office": [0, 0, 6, 5]}, objs, ["office"], doors=door)
    walled = house({"office": [0, 0, 6, 5]}, objs, ["office"],
                   doors=door + [(("closet", "pantry"), (3, 3), "x")])   # another doorway, in the line of sight
    walled["scene.json"]["walls"] = [{"floor": 0, "a": [0, 3], "b": [6, 3], "exterior": False}]
    for files, named in ((plain, True), (walled, False)):
        sc = scenario(files)
        view = DoorView(sc.scene, sc.trajectory)
        assert bool(view.frames_seen(sc.scene.doors[0])) is named
        facts = Facts(check_files(files), CHECK_RULES)
        assert (facts.resolve("door in the office") is not None) is named


def test_a_chair_is_named_by_the_rooms_door():
    """Chair 2 stands 0.15 m from the office's only doorway (4, 5), the others 3 m and more away:
    it is "the chair by the door in the office"; generator and checker agree."""
    objs = office_of_chairs(second_chair=(4.0, 4.6))["scene.json"]["objects"]
    files = house({"office": [0, 0, 6, 5]}, objs, ["office"], doors=[(("office", "hallway:h0"), (4, 5), "x")])
    records, _ = run(files, per_task=12)
    texts = " ".join(r["question"] + " ".join(r.get("options") or []) for r in records)
    assert "chair by the door in the office" in texts
    assert not check_records(records, check_files(files), ontology=FIXTURE_ONTOLOGY)
    assert Facts(check_files(files), CHECK_RULES).resolve("chair by the door in the office").id == "office/chair/2"


def test_a_start_on_a_wall_behind_furniture_is_also_stood_before_the_furniture():
    """Person check (scenario-06, 640x480): "beginning at the picture facing the desk", the
    picture over the desk's end: the key stood in the gap beside the desk (turn right), a viewer
    before the desk facing the picture over it (turn back). The first turn must now read the same
    from the free floor straight before the picture, beyond the desk; the checker agrees."""
    from types import SimpleNamespace
    from queries.route_grid import before_furniture_points, stand_area_points
    from queries.route_plan import FIRST_TURN_MARGIN_DEG, _first_turn_steady
    things = [obj("office/picture/1", 2.0, 0.03, w=0.6, d=0.05, support="wall", yaw=90.0),
              obj("office/cabinet/1", 0.5, 3.5), obj("office/plant/1", 3.5, 3.5), obj("office/lamp/1", 3.5, 1.5)]
    desk = obj("office/desk/1", 2.0, 0.4, w=1.4, d=0.7)
    files = house({"office": [0, 0, 4, 4]}, [*things, desk], ["office"])
    sc = scenario(files)
    by_id = {o.id: o for o in sc.scene.objects}
    planner = RoomPlanner(sc.scene.rooms[0].polygon, list(sc.scene.objects), DEFAULT, by_id)
    picture = by_id["office/picture/1"]
    before = before_furniture_points(planner, picture, sc.scene.rooms[0].polygon)
    assert before and all(y > 0.75 + DEFAULT.clearance_m - 1e-9 and 1.7 - 1e-9 <= x <= 2.3 + 1e-9 for x, y in before)
    beside = [planner.xy(n) for n in planner.beside(picture)] + stand_area_points(planner, picture)
    assert all(x < 1.3 or x > 2.7 for x, _ in beside)        # by it: only past the desk's ends
    # facing the desk, first to the cabinet: a left from the gap west of the desk, a turn back
    # from before the desk
    ctx, facing = SimpleNamespace(th=DEFAULT), by_id["office/desk/1"]
    west = [p for p in beside if p[0] < 1.3]
    left = (["turn left"], True)
    assert _first_turn_steady(ctx, west, (0.5, 3.5), facing, left, FIRST_TURN_MARGIN_DEG)
    assert not _first_turn_steady(ctx, west + before, (0.5, 3.5), facing, left, FIRST_TURN_MARGIN_DEG)
    # with nothing before it, a picture is stood by as before
    bare = house({"office": [0, 0, 4, 4]}, things, ["office"])
    sc_bare = scenario(bare)
    by_bare = {o.id: o for o in sc_bare.scene.objects}
    plan_bare = RoomPlanner(sc_bare.scene.rooms[0].polygon, list(sc_bare.scene.objects), DEFAULT, by_bare)
    assert before_furniture_points(plan_bare, by_bare["office/picture/1"], sc_bare.scene.rooms[0].polygon) == []
    # the checker, on its own: its places before the picture lie where the generator's do
    facts = Facts(check_files(files), CHECK_RULES)
    free = check_route.free_space(facts, "office", CHECK_RULES)
    theirs = check_route.before_points(facts.resolve("picture"), free, facts)
    assert len(theirs) and max(min(math.dist(t, p) for p in before) for t in theirs) <= 0.1
    facts_bare = Facts(check_files(bare), CHECK_RULES)
    free_bare = check_route.free_space(facts_bare, "office", CHECK_RULES)
    assert len(check_route.before_points(facts_bare.resolve("picture"), free_bare, facts_bare)) == 0
