"""The render's frame cache: what a frame, a video segment and a chunk are called on disk.

No bpy: the chunking and the names are plain Python (tested without Blender).

- An id frame is named by its camera pose (`pose_key`), so it is found again wherever the
  pose falls in the walk.
- The walk is cut into chunks at content-defined boundaries (`chunk_bounds`): a chunk ends
  after a frame whose pose key, read as a number, is 0 modulo `divisor` - once the chunk
  holds at least `min_len` frames - or when it reaches `max_len` frames (like rsync's or
  restic's content-defined chunking, over pose keys instead of bytes). A boundary depends
  only on the poses around it, not on frame indices, so frames inserted mid-walk (the
  coverage loop's extra looks) change only the chunk they fall in and at most a neighbour
  or two; every chunk before and after keeps its poses and so its name.
- A chunk also ends wherever the camera starts or stops moving or turning (`motion_ends`),
  and a chunk begins at each frame where the walk says a motion begins (trajectory.json
  `motion_starts`: a pan slowing to rest and a turn setting off from rest look continuous pose
  by pose). The coverage loop's extra looks, glances and side trips, go in between motions and
  come back to the pose they left, so both their ends are chunk ends in the first walk and in
  the extended one, and no frame of the first walk around them is rendered again but the one
  each ends on (door leaves hold still through them, generator.doors.held_angles, unless one
  would then come too close to the camera).
- A video segment is named by the pose keys of its frames (`segment_key`): rendered once,
  it is reused by every walk holding the same run of poses.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

# frames per video segment at most. Each chunk costs a Blender render call of about 40-55 ms
# (400 frames in 40 calls: +2.2 s on 39.4 s), and a changed chunk renders its old frames again.
# Planned over 12 sampled specs' extensions (frames rendered again, chunks of the first walk):
# at most 60 without motion ends 4204 / 997, with them 3545 / 1262, at most 90 with them
# 3619 / 950 - the fewest render calls for about the same frames.
CHUNKS = {"preview": 90, "photoreal": 30}
PNG_END = b"IEND\xaeB`\x82"


def _canonical(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def _camera(pose: dict) -> tuple[list[float], float, float]:
    """The camera of a pose at the precision that tells frames apart: position to 1e-5 m, yaw
    and pitch to 1e-4 deg."""
    return ([round(float(v), 5) for v in pose["position"]], round(float(pose["yaw"]), 4),
            round(float(pose["pitch"]), 4))


def pose_key(pose: dict) -> str:
    """16 hex digits naming what a frame shows: the camera pose (`_camera`) and the door
    leaves open in it (`doors`, generator.doors.door_poses)."""
    p, yaw, pitch = _camera(pose)
    key = {"p": p, "y": yaw, "t": pitch}
    if pose.get("doors"):
        key["d"] = {k: round(float(v), 2) for k, v in sorted(pose["doors"].items())}
    return hashlib.sha256(_canonical(key)).hexdigest()[:16]


def segment_key(keys: list[str]) -> str:
    return hashlib.sha256(",".join(keys).encode()).hexdigest()[:20]


# --- content-defined chunking ----------------------------------------------------------------

def chunk_limits(max_len: int) -> tuple[int, int, int]:
    """(min_len, divisor, max_len) for chunks of at most `max_len` frames: at least a quarter
    of it, then a boundary at each frame with probability 1/divisor (a quarter of it again),
    so chunks average a little under half of max_len (150 -> about 70 frames, 60 -> about 29)."""
    max_len = max(1, int(max_len))
    quarter = max(1, max_len // 4)
    return quarter, quarter, max_len


def _is_cut(key: str, divisor: int) -> bool:
    # the key is already a hash (sha256 of the pose): its low bits are uniformly distributed
    return divisor <= 1 or int(key, 16) % divisor == 0


def _motion(poses: list[dict]) -> list[tuple[bool, bool]]:
    """(moves, turns) of each frame against the one before, at pose_key's precision."""
    cams = [_camera(p) for p in poses]
    return [(False, False)] + [(a[0] != b[0], a[1:] != b[1:]) for a, b in zip(cams[1:], cams)]


def motion_ends(poses: list[dict]) -> frozenset[int]:
    """Indices after which the camera starts or stops moving or turning: chunk ends that depend
    only on the three poses around them."""
    motion = _motion(poses)
    return frozenset(i for i in range(len(poses) - 1) if motion[i] != motion[i + 1])


def chunk_bounds(keys: list[str], min_len: int, divisor: int, max_len: int,
                 ends: frozenset[int] = frozenset()) -> list[tuple[int, int]]:
    """Cut `keys` into chunks [(start, end)]: a chunk ends after a key that `_is_cut` picks
    once it is at least `min_len` long, at `max_len`, and after every index in `ends`. Equal
    key lists (and ends) give equal chunks; every chunk is at most max_len long, and at least
    min_len unless it ends at one of `ends` or is the last."""
    if not 1 <= min_len <= max_len:
        raise ValueError(f"chunk lengths must satisfy 1 <= min ({min_len}) <= max ({max_len})")
    bounds: list[tuple[int, int]] = []
    start = 0
    for i, key in enumerate(keys):
        length = i + 1 - start
        if length >= max_len or i in ends or (length >= min_len and _is_cut(key, divisor)):
            bounds.append((start, i + 1))
            start = i + 1
    if start < len(keys):
        bounds.append((start, len(keys)))
    return bounds


def walk_chunks(poses: list[dict], max_len: int, starts=()) -> tuple[list[str], list[tuple[int, int]]]:
    """The pose keys of a walk (poses with their door leaves, generator.doors.door_poses) and
    its chunks of at most `max_len` frames; a chunk also begins at each of `starts` (the walk's
    motion_starts, formats.trajectory)."""
    keys = [pose_key(p) for p in poses]
    ends = motion_ends(poses) | {k - 1 for k in starts if 0 < k < len(poses)}
    return keys, chunk_bounds(keys, *chunk_limits(max_len), ends=frozenset(ends))


# --- files ------------------------------------------------------------------------------------

def id_path(frames_dir: Path, key: str) -> Path:
    return frames_dir / f"i_{key}.png"


def segment_path(frames_dir: Path, key: str) -> Path:
    return frames_dir / f"seg_{key}.mp4"


def png_complete(path: Path) -> bool:
    try:
        if path.stat().st_size < 64:
            return False
        with open(path, "rb") as fh:
            fh.seek(-12, os.SEEK_END)
            return fh.read(12).endswith(PNG_END)
    except OSError:
        return False


class Plan:
    """The trajectory cut into content-defined chunks, with what exists on disk."""

    def __init__(self, poses: list[dict], frames_dir: Path, max_len: int, starts=()):
        self.poses = poses
        self.frames_dir = frames_dir
        self.keys, self.chunks = walk_chunks(poses, max_len, starts)
        self.segments = [segment_key(self.keys[a:b]) for a, b in self.chunks]

    def segment_done(self, c: int) -> bool:
        return segment_path(self.frames_dir, self.segments[c]).exists()

    def ids_done(self, j: int) -> bool:
        return id_path(self.frames_dir, self.keys[j]).exists()

    def chunk_done(self, c: int) -> bool:
        a, b = self.chunks[c]
        return self.segment_done(c) and all(self.ids_done(j) for j in range(a, b))

    def frames_done(self) -> int:
        return sum(b - a for c, (a, b) in enumerate(self.chunks) if self.chunk_done(c))

    def keep(self) -> set[str]:
        """File names this trajectory uses (the rest of the cache can go)."""
        return {id_path(self.frames_dir, k).name for k in self.keys} | \
               {segment_path(self.frames_dir, s).name for s in self.segments}
