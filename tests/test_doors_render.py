"""Door leaves (generator.doors, render.doors): which doorways get one, which way they swing, and when the walk
opens them - hand-built plans and walks, no Blender."""

from __future__ import annotations

import math

import numpy as np
import pytest

from generator.doors import CLEARANCE, MAX_OPEN, MIN_OPEN, _segment_distance, door_poses, leaves, open_angles
from render.frame_cache import pose_key

FPS = 30


def _scene(objects=(), door_object=False, entrance=False):
    """Room A (x 0-4) and room B (x 4-8), both y 0-4, one 0.9 m doorway in the wall x = 4 at
    y = 2; a hallway strip y -1.2-0 under both; optionally an entrance from it to the outside."""
    doors = [{"id": "door-1", "rooms": ["A", "B"], "floor": 0, "position": [4.0, 2.0], "width": 0.9,
              "height": 2.1, "wall_axis": "y"}]
    if entrance:
        doors.append({"id": "door-2", "rooms": ["hallway:h0", "outside"], "floor": 0, "position": [8.0, -0.6],
                      "width": 0.9, "height": 2.1, "wall_axis": "y"})
    objs = list(objects)
    if door_object:
        objs.append({"id": "A/door/1", "category": "door", "room": "A", "position": [4.0, 2.0, 0.0],
                     "footprint": [[3.95, 1.55], [4.05, 1.55], [4.05, 2.45], [3.95, 2.45]],
                     "attributes": {"opening": "door-1"}})
    return {"rooms": [{"label": "A", "floor": 0, "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]},
                      {"label": "B", "floor": 0, "polygon": [[4, 0], [8, 0], [8, 4], [4, 4]]}],
            "hallways": [{"id": "h0", "floor": 0, "polygon": [[0, -1.2], [8, -1.2], [8, 0], [0, 0]]}],
            "doors": doors, "objects": objs, "floors": [{"floor": 0, "elevation": 0.0}]}


def _walk(points, step=1.0 / FPS):
    """Poses walking straight between the points at 1 m/s (floor 0)."""
    poses = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        n = max(1, int(round(math.hypot(x1 - x0, y1 - y0) / step)))
        for k in range(n):
            t = k / n
            poses.append({"frame": len(poses), "position": [x0 + t * (x1 - x0), y0 + t * (y1 - y0), 1.6],
                          "yaw": 0.0, "pitch": 0.0, "floor": 0, "room": None})
    return poses


def _angles(scene, poses, door="door-1"):
    return np.array([p.get("doors", {}).get(door, 0.0) for p in door_poses(scene, poses, FPS)])


def test_a_leaf_in_each_doorway_with_a_room_but_not_in_one_a_door_object_fills():
    assert [leaf.door for leaf in leaves(_scene())] == ["door-1"]
    assert leaves(_scene(door_object=True)) == []
    assert [leaf.door for leaf in leaves(_scene(entrance=True))] == ["door-1", "door-2"]


def test_the_open_leaf_stays_inside_the_room_it_swings_into_and_lies_against_the_wall():
    (leaf,) = leaves(_scene())
    assert leaf.max_open == MAX_OPEN                 # nothing in the way
    tip = leaf.tip(leaf.max_open)
    room = (0, 4) if tip[0] < 4 else (4, 8)
    assert room[0] < tip[0] < room[1] and 0 < tip[1] < 4
    assert abs(tip[0] - 4.0) < 0.35                   # nearly flat against the wall x = 4
    closed = leaf.tip(0.0)                            # closed: in the wall line, across the opening
    assert abs(closed[0] - 4.0) < 0.03 and abs(abs(closed[1] - leaf.hinge[1]) - leaf.width) < 1e-9


def test_furniture_beside_the_door_moves_the_hinge_or_narrows_the_swing():
    # a cabinet against the wall x = 4 on both sides of the door in A, and north of it in B
    cab = lambda x0, x1, y0, y1, room: {"id": f"{room}/c{y0}", "category": "cabinet", "room": room,  # noqa: E731
                                        "position": [(x0 + x1) / 2, (y0 + y1) / 2, 0.0],
                                        "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
    objs = [cab(3.5, 3.95, 2.5, 3.5, "A"), cab(3.5, 3.95, 0.5, 1.5, "A"), cab(4.05, 4.5, 2.5, 3.5, "B")]
    (leaf,) = leaves(_scene(objs))
    tip = leaf.tip(leaf.max_open)
    assert tip[0] > 4.0 and tip[1] < 2.0              # into B, towards its free south side
    assert leaf.max_open == MAX_OPEN
    objs.append(cab(4.05, 4.5, 0.5, 1.5, "B"))        # now both sides of both rooms are taken
    (leaf,) = leaves(_scene(objs))
    assert MIN_OPEN <= leaf.max_open < 120


def test_furniture_stops_a_leaf_on_an_upper_floor_as_on_the_ground_floor():
    """Objects' position[2] is world z: on a floor 3 m up, a cabinet's bottom is at z = 3.0, still
    below the leaf's 2.1 m top (once, none stopped a leaf above the ground floor)."""
    cab = lambda x0, x1, y0, y1, room: {"id": f"{room}/c{y0}", "category": "cabinet", "room": room,  # noqa: E731
                                        "floor": 0, "position": [(x0 + x1) / 2, (y0 + y1) / 2, 0.0],
                                        "footprint": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
    objs = [cab(3.5, 3.95, 2.5, 3.5, "A"), cab(3.5, 3.95, 0.5, 1.5, "A"), cab(4.05, 4.5, 2.5, 3.5, "B"),
            cab(4.05, 4.5, 0.5, 1.5, "B")]
    (ground,) = leaves(_scene(objs))
    upper = _scene([{**o, "floor": 1, "position": [*o["position"][:2], 3.0]} for o in objs])
    for space in upper["rooms"] + upper["hallways"]:
        space["floor"] = 1
    upper["doors"][0]["floor"] = 1
    upper["floors"] = [{"floor": 0, "elevation": 0.0}, {"floor": 1, "elevation": 3.0}]
    (leaf,) = leaves(upper)
    assert leaf.max_open == ground.max_open < 120


def test_a_door_by_a_corner_is_hinged_there_and_opens_against_the_side_wall():
    scene = _scene()
    scene["doors"][0]["position"] = [4.0, 0.6]       # jambs at y 0.15 and 1.05: the south corner 0.15 m away
    (leaf,) = leaves(scene)
    assert leaf.hinge[1] < 0.3                        # on the corner's jamb
    assert leaf.max_open == pytest.approx(90.0, abs=5.0)      # the south wall stops it
    tip = leaf.tip(leaf.max_open)
    assert abs(tip[0] - 4.0) > 0.8 and tip[1] < 0.35  # it lies along the south wall, out of the room
    # a camera stepping in just past the doorway is clear of it, so it opens all the way
    xy = np.array([(4.4, 0.6), (3.9, 0.6)] + [(3.6, 0.7)] * 20)
    assert open_angles(leaf, xy, np.zeros(len(xy), int), FPS).max() == leaf.max_open


@pytest.mark.parametrize("towel_x", [2.40, 4.20])
def test_a_leaf_is_hung_so_that_it_hides_nothing_behind_it(towel_x):
    """A 1.9-m-wide bathroom with its door in the middle of the south wall: hinged on either
    jamb, the open leaf meets the side wall 0.5 m off. Hung on the west jamb it stood over a
    towel on the west wall (sample-1-011), which the walk, looking in from beside the doorway
    where the leaf stands open, never showed. It hangs on the jamb away from the towel."""
    x0, x1 = 2.35, 4.25
    towel = {"id": "bath/towel/1", "category": "towel", "room": "bath", "floor": 0,
             "position": [towel_x, 5.39, 0.9],
             "footprint": [[towel_x - 0.05, 5.11], [towel_x + 0.05, 5.11], [towel_x + 0.05, 5.67], [towel_x - 0.05, 5.67]]}
    scene = {"rooms": [{"label": "bath", "floor": 0, "polygon": [[x0, 5.0], [x1, 5.0], [x1, 8.4], [x0, 8.4]]}],
             "hallways": [{"id": "h0", "floor": 0, "polygon": [[0.0, 3.8], [8.0, 3.8], [8.0, 5.0], [0.0, 5.0]]}],
             "doors": [{"id": "door-7", "rooms": ["bath", "hallway:h0"], "floor": 0, "position": [3.3, 5.0],
                        "width": 0.9, "height": 2.1, "wall_axis": "x"}],
             "objects": [towel], "floors": [{"floor": 0, "elevation": 0.0}]}
    (leaf,) = leaves(scene)
    tip = leaf.tip(leaf.max_open)
    assert tip[1] > 5.0                                             # into the bathroom
    assert (leaf.hinge[0] > 3.3) == (towel_x < 3.3)                 # on the jamb away from the towel
    assert abs(tip[0] - towel_x) > 0.5
    (bare,) = leaves({**scene, "objects": []})                      # without the towel: the usual rule
    assert bare.max_open >= leaf.max_open


def test_a_leaf_that_would_hide_something_on_either_jamb_opens_onto_the_hallway():
    """A 1.9-m-wide bathroom with a towel on each side wall beside its door: hung on either
    jamb, the leaf standing open covers one towel (in a sampled reception with a plant in each
    corner beside the door, that plant never showed a pixel: sample-1-022). It opens onto the
    hallway instead; with one towel it still swings into the room, away from the towel."""
    x0, x1 = 2.35, 4.25

    def towel(n, x):
        return {"id": f"bath/towel/{n}", "category": "towel", "room": "bath", "floor": 0, "position": [x, 5.39, 0.9],
                "footprint": [[x - 0.05, 5.11], [x + 0.05, 5.11], [x + 0.05, 5.67], [x - 0.05, 5.67]]}
    scene = {"rooms": [{"label": "bath", "floor": 0, "polygon": [[x0, 5.0], [x1, 5.0], [x1, 8.4], [x0, 8.4]]}],
             "hallways": [{"id": "h0", "floor": 0, "polygon": [[0.0, 3.8], [8.0, 3.8], [8.0, 5.0], [0.0, 5.0]]}],
             "doors": [{"id": "door-7", "rooms": ["bath", "hallway:h0"], "floor": 0, "position": [3.3, 5.0],
                        "width": 0.9, "height": 2.1, "wall_axis": "x"}],
             "objects": [towel(1, 2.40), towel(2, 4.20)], "floors": [{"floor": 0, "elevation": 0.0}]}
    (leaf,) = leaves(scene)
    assert leaf.room_side < 0 and leaf.tip(leaf.max_open)[1] < 5.0    # swung south, onto the hallway
    (one,) = leaves({**scene, "objects": [towel(1, 2.40)]})
    assert one.room_side > 0 and one.hinge[0] > 3.3                  # into the bathroom, away from the towel


def test_walking_through_opens_the_leaf_before_the_doorway_and_closes_it_behind():
    poses = _walk([(1.0, 2.0), (7.0, 2.0)])          # A -> B through the door at x = 4
    ang = _angles(_scene(), poses)
    x = np.array([p["position"][0] for p in poses])
    (leaf,) = leaves(_scene())
    assert ang[np.argmin(abs(x - 4.0))] == leaf.max_open      # fully open in the doorway
    assert ang[x < 2.0].max() == 0 and ang[x > 6.2].max() == 0  # closed far before and far after
    assert ang[(x > 2.6) & (x < 3.0)].min() > 0                # already opening 1-1.4 m before it
    assert np.all(np.diff(ang[x < 4.0]) >= 0)                  # it swings one way, smoothly
    assert np.abs(np.diff(ang)).max() < 20


def test_walking_past_a_door_in_the_hallway_leaves_it_closed():
    scene = _scene(entrance=True)
    scene["doors"].append({"id": "door-3", "rooms": ["A", "hallway:h0"], "floor": 0, "position": [2.0, 0.0],
                           "width": 0.9, "height": 2.1, "wall_axis": "x"})
    poses = _walk([(0.5, -0.6), (7.5, -0.6)])          # along the hallway, 0.6 m from the doors
    assert _angles(scene, poses, "door-3").max() == 0
    assert _angles(scene, poses, "door-2").max() == 0   # the entrance stays shut


def test_a_camera_standing_where_the_leaf_would_lie_gets_a_narrower_opening():
    (leaf,) = leaves(_scene())
    assert leaf.tip(90.0)[0] < 4.0                    # it swings into A (x < 4)
    mid = leaf.tip(leaf.max_open)
    stop = ((leaf.hinge[0] + mid[0]) / 2 - 0.05, (leaf.hinge[1] + mid[1]) / 2)  # on the fully open leaf
    xy = np.array([(4.1, 2.0), (3.9, 2.0)] + [stop] * 20)    # through the doorway, then stand there
    ang = open_angles(leaf, xy, np.zeros(len(xy), int), FPS)
    assert 0 < ang.max() < leaf.max_open
    assert _segment_distance(xy[:, 0], xy[:, 1], *leaf.hinge, *leaf.tip(float(ang.max()))).min() >= CLEARANCE
    far = np.array([(4.1, 2.0), (3.9, 2.0)] + [(3.0, 2.6)] * 20)   # standing clear of it: wide open
    assert open_angles(leaf, far, np.zeros(len(far), int), FPS).max() == leaf.max_open


def test_door_states_are_part_of_the_frame_key():
    pose = {"frame": 0, "position": [1.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0, "floor": 0, "room": "A"}
    assert pose_key(pose) == pose_key({**pose, "doors": {}})
    assert pose_key(pose) != pose_key({**pose, "doors": {"door-1": 160.0}})
    assert pose_key({**pose, "doors": {"door-1": 80.0}}) != pose_key({**pose, "doors": {"door-1": 160.0}})


@pytest.mark.parametrize("floor", [0, 1])
def test_only_walks_on_the_door_floor_open_it(floor):
    poses = _walk([(1.0, 2.0), (7.0, 2.0)])
    for p in poses:
        p["floor"] = floor
    xy = np.array([p["position"][:2] for p in poses])
    ang = open_angles(leaves(_scene())[0], xy, np.full(len(poses), floor), FPS)
    assert (ang.max() > 0) == (floor == 0)


def _insert(poses, at, block):
    """`poses` with `block` (poses) put in before frame `at`, renumbered, and the insertion."""
    out = [dict(p) for p in poses[:at]] + [dict(p) for p in block] + [dict(p) for p in poses[at:]]
    for k, p in enumerate(out):
        p["frame"] = k
    return out, [(at, at + len(block))]


def _states(scene, poses, insertions=()):
    return [p.get("doors", {}) for p in door_poses(scene, poses, FPS, insertions)]


def test_a_glance_put_into_a_walk_leaves_the_first_walks_door_leaves_as_they_were():
    """The coverage loop puts a 3-s glance into the walk just past the doorway, the leaf open
    behind the camera. The leaf waits through it, and every frame of the first walk keeps its
    leaf, so the render reuses them. Timed over the whole extended walk, the leaf closed 2 s
    after the doorway, during the glance, and the first walk's frames after it changed."""
    scene = _scene()
    first = _walk([(1.0, 2.0), (7.0, 2.0)])
    at = next(k for k, p in enumerate(first) if p["position"][0] >= 4.6)
    here = first[at - 1]
    glance = [{**here, "yaw": 2.0 * k} for k in range(1, 46)] + [{**here, "yaw": 90.0 - 2.0 * k} for k in range(1, 46)]
    extended, insertions = _insert(first, at, glance)
    before = _states(scene, first)
    after = _states(scene, extended, insertions)
    assert after[:at] + after[at + len(glance):] == before                     # the first walk's leaves
    assert all(s == before[at - 1] for s in after[at:at + len(glance)])         # held through the glance
    assert before[at - 1]["door-1"] > 0                                           # (open there)
    timed = _states(scene, extended)
    assert timed[:at] + timed[at + len(glance):] != before


def test_an_insertion_through_the_doorway_opens_the_leaf_as_the_whole_walk_would():
    """A side trip from room A through the closed door into B and back: a leaf held shut would
    be walked through, so the leaf follows the whole extended walk and opens for the trip."""
    scene = _scene()
    first = _walk([(1.0, 1.0), (2.0, 2.0), (2.0, 3.5)])
    at = next(k for k, p in enumerate(first) if p["position"][1] >= 2.0)
    trip = _walk([first[at - 1]["position"][:2], (5.0, 2.0), first[at - 1]["position"][:2]])
    extended, insertions = _insert(first, at, trip)
    assert max(s.get("door-1", 0.0) for s in _states(scene, first)) == 0
    after = _states(scene, extended, insertions)
    assert after == _states(scene, extended)
    assert max(s.get("door-1", 0.0) for s in after[at:at + len(trip)]) > MIN_OPEN


def test_an_insertion_that_would_walk_into_the_held_leaf_moves_it_as_the_whole_walk_would():
    """From B into A, where the leaf swings open against the wall; a side trip just past the
    doorway walks round to stand 0.24 m from where the open leaf lies. The leaf follows the
    whole walk (it closes behind the camera, clear of it) rather than hold open into it."""
    scene = _scene()
    (leaf,) = leaves(scene)
    first = _walk([(7.0, 2.0), (3.0, 2.0), (1.0, 2.0)])
    at = next(k for k, p in enumerate(first) if p["position"][0] <= 3.0)
    here = first[at - 1]["position"][:2]
    go, back = _walk([here, (3.0, 0.8), (3.45, 0.75)]), _walk([(3.45, 0.75), (3.0, 0.8), here])
    trip = go + [dict(back[0])] * 30 + back
    extended, insertions = _insert(first, at, trip)
    before = _states(scene, first)
    held = before[at - 1]["door-1"]
    xy = np.array([p["position"][:2] for p in trip])
    assert _segment_distance(xy[:, 0], xy[:, 1], *leaf.hinge, *leaf.tip(held)).min() < CLEARANCE
    after = _states(scene, extended, insertions)
    assert after == _states(scene, extended)
    assert after != before[:at] + [before[at - 1]] * len(trip) + before[at:]     # not held
    angles = [s.get("door-1", 0.0) for s in after[at:at + len(trip)]]
    assert all(a == 0 or _segment_distance(xy[k:k + 1, 0], xy[k:k + 1, 1], *leaf.hinge, *leaf.tip(a)).min() >= CLEARANCE
               for k, a in enumerate(angles))
