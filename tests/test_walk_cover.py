"""generator.walk.cover.detour_viewpoints: where the side trips for extra looks go, on view
tables written by hand (no scene)."""

from __future__ import annotations

import numpy as np

from generator.walk.cover import detour_viewpoints
from generator.walk.view import Target, ViewTable


def _target(k: int, reach: float = 5.0) -> Target:
    return Target(id=f"room/cup/{k}", category="cup", room="room", x=0.0, y=0.0, z0=0.8, z1=0.9,
                  poly=np.zeros((4, 2)), samples=np.zeros((1, 3)), support="room/table/1", excluded=frozenset(),
                  reach=reach)


def _table(xy, dist, vis) -> ViewTable:
    xy, dist, vis = np.array(xy, float), np.array(dist, float), np.array(vis, float)
    zeros = np.zeros_like(dist)
    return ViewTable(xy, xy.astype(int), dist, zeros, vis, np.ones_like(dist, bool), zeros, zeros - 30, zeros + 30)


def test_one_stop_that_shows_both_beats_two_and_each_trip_leaves_from_the_nearest_standpoint():
    # candidates: 0 shows cup 0 fully, 1 shows both fully, 2 shows cup 1 fully and is nearest home 1
    table = _table([[0, 0], [2, 0], [4, 0]], [[1.5, 4.0], [1.5, 1.5], [4.0, 1.5]],
                   [[1.0, 0.2], [1.0, 1.0], [0.3, 1.0]])
    homes = np.array([[0.0, 0.0], [4.0, 0.0]])
    assert detour_viewpoints(table, [_target(0), _target(1)], [0, 1], homes) == [(0, 1, [0, 1])]
    # without candidate 1, two stops: cup 0 from candidate 0 (home 0), cup 1 from candidate 2 (home 1)
    table = _table([[0, 0], [4, 0]], [[1.5, 4.0], [4.0, 1.5]], [[1.0, 0.2], [0.3, 1.0]])
    assert detour_viewpoints(table, [_target(0), _target(1)], [0, 1], homes) == [(0, 0, [0]), (1, 1, [1])]


def test_what_no_standpoint_shows_fully_is_looked_at_from_within_its_reach_or_not_at_all():
    # cup 0 is half hidden from candidate 0 (1.5 m) and wholly clear from candidate 1, but 4 m
    # off: beyond its 1.2 m reach it would not show, so the trip goes to candidate 0
    table = _table([[0, 0], [3, 0]], [[1.5], [4.0]], [[0.5], [1.0]])
    homes = np.array([[3.0, 0.0]])
    assert detour_viewpoints(table, [_target(0, reach=1.6)], [0], homes) == [(0, 0, [0])]
    # within its reach nothing shows any of it: no trip at all (a hold far off would not help)
    table = _table([[0, 0], [3, 0]], [[1.5], [4.0]], [[0.0], [1.0]])
    assert detour_viewpoints(table, [_target(0, reach=1.6)], [0], homes) == []


def test_seen_after_a_look_is_redone_counts_the_frames_of_the_new_look_only():
    """look() redoes a pan with stops by dropping its frames (LookContext.truncate); seen()
    caches per frame, and a cache kept past the drop counted the old pan's frames for the new
    one's (4 of the first 10 specs of `sample --n 16 --seed 3` walked longer for it)."""
    from generator.walk import motion as wm
    from generator.walk import view as wv
    from generator.walk.looking import LookContext, seen
    from generator.walk.space import build_floors
    from tests.test_walk import VFOV_HALF, furnished, walked

    scenario, scene = furnished("scenario-02")
    room = scenario.trajectory[0]
    walk = walked("scenario-02")
    frames = [f for f in walk["frames"] if f["room"] == room and f["floor"] == 0][:400]
    targets = wv.targets_of(scene, room, 0.0, 1.6)
    occ = wv.pack(wv.occluders_of(scene, 0, 0.0, room))
    walls = build_floors(scene)[0].walls

    def replay(upto):   # the walk's first frames in the room, then a turn away and a hold
        tl, ctx = wm.Timeline(), LookContext(room, targets, occ, 1.6, walls, 0, 0, VFOV_HALF, [])
        tl._append(*([f["position"][i] for f in frames[:upto]] for i in range(3)), [f["yaw"] for f in frames[:upto]],
                   [f["pitch"] for f in frames[:upto]], [0] * upto, [False] * upto)
        return tl, ctx

    tl, ctx = replay(len(frames))
    k, first = next((k, int(np.flatnonzero(seen(tl, ctx, k, 0))[0])) for k in range(len(targets))
                    if seen(tl, ctx, k, 0).any())
    ctx.truncate(tl, first)          # as look() does before panning again
    tl.turn(180.0)
    tl.hold(len(frames))
    fresh_tl, fresh = replay(first)
    fresh_tl.turn(180.0)
    fresh_tl.hold(len(frames))
    assert np.array_equal(seen(tl, ctx, k, 0), seen(fresh_tl, fresh, k, 0))
