"""The render's frame cache (render/frame_cache.py, issue 12 item 4): content-defined chunks,
so frames inserted mid-walk (the coverage loop's extra looks) re-render only the chunks
around them, and a resumed render renders only what is missing.

The chunking tests are plain Python; one small real render (64x48, 40 frames) checks it end
to end with the counts render.run reports."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from render.frame_cache import CHUNKS, chunk_bounds, chunk_limits, motion_ends, pose_key, segment_key, walk_chunks

ROOT = Path(__file__).resolve().parents[1]


def _keys(tag: str, n: int) -> list[str]:
    return [hashlib.sha256(f"{tag}{i}".encode()).hexdigest()[:16] for i in range(n)]


def _segments(keys: list[str], max_len: int) -> list[str]:
    return [segment_key(keys[a:b]) for a, b in chunk_bounds(keys, *chunk_limits(max_len))]


def test_same_keys_same_chunks_and_lengths_respected():
    keys = _keys("walk", 3000)
    for max_len in (150, 30, 8, 1):
        lo, _, hi = chunk_limits(max_len)
        bounds = chunk_bounds(keys, *chunk_limits(max_len))
        assert bounds == chunk_bounds(list(keys), *chunk_limits(max_len))
        assert bounds[0][0] == 0 and bounds[-1][1] == len(keys)
        assert all(a == b for (_, a), (b, _) in zip(bounds, bounds[1:]))        # contiguous, no gaps
        assert all(lo <= b - a <= hi for a, b in bounds[:-1])
        assert 1 <= bounds[-1][1] - bounds[-1][0] <= hi
    lengths = [b - a for a, b in chunk_bounds(keys, *chunk_limits(CHUNKS["preview"]))]
    assert 36 <= sum(lengths) / len(lengths) <= 48                               # about 42 frames on average


def test_a_stop_of_one_pose_is_cut_like_any_other_run():
    """A hold (the same pose for a second) gives equal keys; chunks still respect the limits."""
    keys = _keys("a", 100) + ["0" * 16] * 200 + _keys("b", 100)                  # "0"*16 is a cut candidate
    bounds = chunk_bounds(keys, *chunk_limits(150))
    assert all(37 <= b - a <= 150 for a, b in bounds[:-1])


def test_insertion_mid_walk_changes_only_the_chunks_around_it():
    """Measured over 76 insertion points of 40-50 new frames: in preview chunks (at most 150)
    2.0 chunks change on average and 4 at most; the old frames rendered again average 110 and
    stay within about 2 chunks of the maximum size."""
    base = _keys("walk", 3000)
    for max_len in (150, 60, 30):
        extra_frames = []
        for at in range(100, 2900, 37):
            for inserted in (_keys(f"look{at}", 40), [_keys(f"hold{at}", 1)[0]] * 30 + _keys(f"turn{at}", 20)):
                walk = base[:at] + inserted + base[at:]
                old = set(_segments(base, max_len))
                bounds = chunk_bounds(walk, *chunk_limits(max_len))
                changed = [(a, b) for a, b in bounds if segment_key(walk[a:b]) not in old]
                # the chunk the insertion falls in and the next one or two (resynchronised after that)
                assert all(a > at - max_len and b <= at + len(inserted) + 2.5 * max_len for a, b in changed)
                again = sum(b - a for a, b in changed) - len(inserted)      # old frames rendered again
                # at 60, an insertion holding one pose for 30 frames re-renders up to 161 old frames
                assert again <= (3.0 if max_len == 60 else 2.5) * max_len, (at, max_len, again)
                if max_len == 150:
                    assert len(changed) <= 4, (at, len(changed))
                extra_frames.append(again)
        assert sum(extra_frames) / len(extra_frames) <= max_len
    # fixed-size chunks (the old scheme) would have re-rendered everything after the insertion
    fixed = [segment_key(base[a:a + 150]) for a in range(0, 3000, 150)]
    walk = base[:1500] + _keys("x", 40) + base[1500:]
    assert sum(segment_key(walk[a:a + 150]) not in fixed for a in range(0, len(walk), 150)) > 10


def _walk(start, heading, n, step=0.03):
    """n frames walking from `start` along `heading` (degrees), the gaze ahead."""
    import math
    dx, dy = math.cos(math.radians(heading)) * step, math.sin(math.radians(heading)) * step
    return [{"position": [start[0] + dx * i, start[1] + dy * i, 1.6], "yaw": heading, "pitch": -4.0}
            for i in range(1, n + 1)]


def _turn(at, yaw0, yaw1, n):
    return [{"position": [at[0], at[1], 1.6], "yaw": yaw0 + (yaw1 - yaw0) * i / n, "pitch": -4.0}
            for i in range(1, n + 1)]


def test_a_side_trip_after_a_look_renders_no_frame_of_the_first_walk_again():
    """The coverage loop's side trip leaves where a look ended and comes back to that pose
    (generator/walk/plan.py): both ends are places where the camera starts or stops moving, so
    with motion ends every chunk of the first walk survives; by key alone, chunks around the
    trip would hold old frames."""
    into = _walk((0.0, 0.0), 0.0, 70)                                     # walk in ...
    stand = into[-1]["position"]
    look = _turn(stand, 0.0, 150.0, 90)                                   # ... pan at a standpoint ...
    on = _walk(stand, 150.0, 120)                                         # ... and walk on
    out = _walk(stand, 60.0, 25)                                          # a side trip: out, a stop, back
    back = _walk(out[-1]["position"], 240.0, 25)
    back[-1]["position"] = list(stand)
    trip = out + [dict(out[-1])] * 30 + back + _turn(stand, 240.0, 150.0 + 360.0, 20)
    trip[-1]["yaw"] = 150.0                                               # faces as the look ended
    first, extended = into + look + on, into + look + trip + on
    assert pose_key(trip[-1]) == pose_key(look[-1])
    assert {len(into) + len(look) - 1} <= motion_ends(first)             # where the look ends
    for max_len in (90, 30):
        keys_a, chunks_a = walk_chunks(first, max_len)
        keys_b, chunks_b = walk_chunks(extended, max_len)
        old = {segment_key(keys_a[a:b]) for a, b in chunks_a}
        changed = [(a, b) for a, b in chunks_b if segment_key(keys_b[a:b]) not in old]
        assert sum(b - a for a, b in changed) == len(trip), max_len      # the trip's frames only
        by_key = {segment_key(keys_a[a:b]) for a, b in chunk_bounds(keys_a, *chunk_limits(max_len))}
        again = sum(b - a for a, b in chunk_bounds(keys_b, *chunk_limits(max_len))
                    if segment_key(keys_b[a:b]) not in by_key)
        assert again > len(trip), max_len


def test_motion_ends_are_where_moving_or_turning_starts_or_stops():
    stand = [0.0, 0.0, 1.6]
    poses = ([{"position": stand, "yaw": 0.0, "pitch": 0.0}] * 3                     # 0-2 still
             + [{"position": stand, "yaw": 10.0 * i, "pitch": 0.0} for i in (1, 2)]  # 3-4 turn
             + [{"position": [0.1 * i, 0.0, 1.6], "yaw": 20.0, "pitch": 0.0} for i in (1, 2, 3)]  # 5-7 walk
             + [{"position": [0.3, 0.0, 1.6], "yaw": 20.0, "pitch": 0.0}])           # 8 still
    assert motion_ends(poses) == {2, 4, 7}
    assert motion_ends(poses[:1]) == frozenset()
    # a chunk ends after each of them even when it is short, never before min_len otherwise
    keys = [pose_key(p) for p in poses]
    assert chunk_bounds(keys, 5, 10 ** 9, 9, ends=motion_ends(poses)) == [(0, 3), (3, 5), (5, 8), (8, 9)]


def test_a_chunk_begins_at_each_motion_start_the_walk_records():
    """A pan that slows to rest and a turn that sets off from rest look alike pose by pose (the
    camera turns in every frame), so only the walk's motion_starts say where one motion ends."""
    stand = [0.0, 0.0, 1.6]
    poses = [{"position": stand, "yaw": 2.0 * i, "pitch": 0.0} for i in range(12)]   # pan, then turn on
    assert motion_ends(poses) == {0}   # the first frame counts as still
    keys, chunks = walk_chunks(poses, 40)
    assert chunks == [(0, 1), (1, 12)]
    keys, chunks = walk_chunks(poses, 40, starts=[7])
    assert chunks == [(0, 1), (1, 7), (7, 12)]


def test_a_deletion_or_change_also_stays_local():
    base = _keys("walk", 3000)
    edited = base[:900] + base[960:1800] + _keys("new", 5) + base[1805:]
    old, new = _segments(base, 150), _segments(edited, 150)
    assert len([s for s in new if s not in set(old)]) <= 6


# --- one small real render ---------------------------------------------------------------------

W, H = 64, 48


def _trajectory(poses: list[tuple[list[float], float]]) -> dict:
    from formats.base import dump_model
    from formats.camera import Camera
    from formats.trajectory import Trajectory

    frames = [{"frame": i, "t": round(i / 30, 4), "position": pos, "yaw": yaw % 360.0, "pitch": -4.0,
               "room": "kitchen", "floor": 0} for i, (pos, yaw) in enumerate(poses)]
    return dump_model(Trajectory(format=Trajectory.FORMAT, fps=30, camera=Camera.standard(W, H), frames=frames,
                                 events=[], narration=[]))


def _render(tmp: Path, out: Path, traj: dict, name: str) -> dict:
    from tests.test_render import two_rooms

    scene_path, traj_path = tmp / "scene.json", tmp / f"{name}.json"
    scene_path.write_text(json.dumps(two_rooms()))
    traj_path.write_text(json.dumps(traj))
    done = subprocess.run([sys.executable, "-m", "render.run", str(scene_path), str(traj_path), str(out),
                           "--min-pixels", "5", "--chunk", "8"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _plan(traj: dict):
    from formats.base import dump_model, load_model
    from formats.trajectory import Trajectory
    from render.frame_cache import Plan

    poses = [dump_model(f) for f in load_model(traj, Trajectory, "test").frames]
    return Plan(poses, Path("."), 8)


@pytest.mark.render
def test_extended_walk_renders_only_the_chunks_around_the_insertion(tmp_path):
    walk = [([2.0, 1.6 + 0.02 * i, 1.6], 90.0 + i) for i in range(40)]
    look = [([2.0, 1.6 + 0.02 * 19, 1.6], 109.0 + 3 * min(k, 4)) for k in range(1, 7)]  # an extra look at frame 20:
    # a turn of 4 poses, then a stop (the last pose 3 times)
    first, extended = _trajectory(walk), _trajectory(walk[:20] + look + walk[20:])
    out = tmp_path / "out"
    r1 = _render(tmp_path, out, first, "first")
    assert r1["status"] == "done" and r1["rendered"]["color_frames"] == 40 and r1["rendered"]["id_frames"] == 40

    old, new = _plan(first), _plan(extended)
    fresh = [(a, b) for (a, b), s in zip(new.chunks, new.segments) if s not in set(old.segments)]
    r2 = _render(tmp_path, out, extended, "extended")
    assert r2["status"] == "done" and r2["frames"] == 46
    assert r2["rendered"]["id_frames"] == 4                                          # only the new poses, once each
    assert r2["rendered"]["decoded"] == 4                                            # ... and decoded
    assert r2["rendered"]["color_frames"] == sum(b - a for a, b in fresh)            # only the changed chunks ...
    assert r2["rendered"]["color_frames"] <= 6 + 2 * 8                               # ... around the insertion
    assert all(a < 26 + 8 and b > 20 - 8 for a, b in fresh)

    # the same bytes as a render of the extended walk from scratch
    scratch = tmp_path / "scratch"
    r3 = _render(tmp_path, scratch, extended, "extended")
    assert r3["rendered"]["color_frames"] == 46
    for name in ("video.mp4", "visibility.json"):
        assert (out / name).read_bytes() == (scratch / name).read_bytes(), name

    # resume: one segment and two id frames lost -> exactly those are rendered again
    frames_dir = next((out / ".frames").iterdir())
    (out / "video.mp4").unlink()
    c = len(new.chunks) // 2
    (frames_dir / f"seg_{new.segments[c]}.mp4").unlink()
    for j in (2, 41):
        (frames_dir / f"i_{new.keys[j]}.png").unlink()
    r4 = _render(tmp_path, out, extended, "extended")
    a, b = new.chunks[c]
    # (the two poses were decoded before: same pose, same pixels, so nothing is decoded again)
    assert {k: r4["rendered"][k] for k in ("chunks", "color_frames", "id_frames", "decoded")} == \
        {"chunks": len(new.chunks), "color_frames": b - a, "id_frames": 2, "decoded": 0}
    assert (out / "video.mp4").read_bytes() == (scratch / "video.mp4").read_bytes()
    shutil.rmtree(tmp_path / "scratch")
