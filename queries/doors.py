"""Which doorways the video shows (docs/ground-truth.md, "Doorways"): statements that rest on
doors (adjacency, "only one way", what a route passes) may speak only of doorways a viewer saw.

A doorway is **seen** when the camera walks through it, or when for at least 0.5 s of
consecutive frames its opening's centre (0.6 m below eye height) is inside the frame by a
margin, 0.5 m to 8 m away, looked at less than 75 deg off the doorway's axis (not edge-on), with
no wall line in between on the floor plan (not even through another doorway: its leaf is
closed unless the walk passes it), from at least 2.5 m from every other doorway the walk passes
within 2.5 s of the frame (so no open leaf stands in the way) - in the walk's time, or in the
first walk's, through whose glances and side trips the leaves hold still.
"""

from __future__ import annotations

import math

from queries.model import Door, Frame, Scene, Trajectory

MIN_RUN_S = 0.5          # as "seen" for objects and rooms
NEAR, FAR = 0.5, 8.0     # metres from the camera
EDGE_ON_DEG = 75.0       # looked at more obliquely than this, an opening is a sliver
FRAME_MARGIN_DEG = 3.0   # the centre is this far inside the image edges
BELOW_EYE = 0.6          # the opening's centre, 1.0 m above a floor seen from 1.6 m
THROUGH = 0.35           # walking through: the camera passes this close to the opening's centre
LEAVES_SHUT = 2.5        # a leaf opens only around the time the walk passes its doorway (generator/doors.py:
LEAF_OPEN_S = 2.5        # at most 2 s before and after): seen from this far from every doorway passed within
                         # this long of the frame, no open leaf stands in the way


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _crosses(p, q, a, b) -> tuple[float, float] | None:
    """Where segment pq properly crosses segment ab, or None."""
    d1, d2, d3, d4 = _cross(a, b, p), _cross(a, b, q), _cross(p, q, a), _cross(p, q, b)
    if (d1 > 0) == (d2 > 0) or (d3 > 0) == (d4 > 0) or 0.0 in (d1, d2, d3, d4):
        return None
    t = d1 / (d1 - d2)
    return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))


def _first_walk_clock(trajectory: Trajectory) -> list[int]:
    """Per frame, its frame in the walk without its insertions (an inserted frame counts as the
    frame before it): door leaves keep that walk's timing (generator/doors.held_angles)."""
    inserted = set()
    for first, end in trajectory.insertions:
        inserted.update(range(first, end))
    clock, now = [], 0
    for f in trajectory.frames:
        if f.frame not in inserted and f.frame > 0:
            now += 1
        clock.append(now)
    return clock


class DoorView:
    def __init__(self, scene: Scene, trajectory: Trajectory):
        self.scene, self.trajectory = scene, trajectory
        self.hfov, self.vfov = trajectory.fov_deg
        self.open_frames = LEAF_OPEN_S * trajectory.fps
        self._passes = {d.id: [f.frame for f in trajectory.frames if f.floor == d.floor
                               and math.dist((f.position[0], f.position[1]), d.position) <= THROUGH]
                        for d in scene.doors}   # the frames the walk passes each doorway: only then its leaf opens
        self._clock = _first_walk_clock(trajectory)
        self.min_run = max(1, round(MIN_RUN_S * trajectory.fps))
        self.seen = {d.id for d in scene.doors if self._seen(d)}

    def _about_now(self, frame: int, other: int) -> bool:
        """Whether `other` is within LEAF_OPEN_S of `frame`, in the walk or in its first walk."""
        return abs(frame - other) <= self.open_frames or abs(self._clock[frame] - self._clock[other]) <= self.open_frames

    def _visible(self, door: Door, f: Frame) -> bool:
        if f.floor != door.floor:
            return False
        cam = (f.position[0], f.position[1])
        if any(d.floor == f.floor and d.id != door.id and math.dist(cam, d.position) < LEAVES_SHUT
               and any(self._about_now(f.frame, p) for p in self._passes[d.id]) for d in self.scene.doors):
            return False
        cam = (f.position[0], f.position[1])
        dx, dy = door.position[0] - cam[0], door.position[1] - cam[1]
        dist = math.hypot(dx, dy)
        if not NEAR <= dist <= FAR:
            return False
        # the opening's centre in the camera's own axes (a pitched camera tilts both image angles)
        yaw, pitch = math.radians(f.yaw), math.radians(f.pitch)
        forward = (math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch))
        right = (math.sin(yaw), -math.cos(yaw), 0.0)
        up = (-math.sin(pitch) * math.cos(yaw), -math.sin(pitch) * math.sin(yaw), math.cos(pitch))
        d = (dx, dy, -BELOW_EYE)
        ahead, across, above = (sum(a * b for a, b in zip(d, v)) for v in (forward, right, up))
        if ahead <= 0:
            return False
        if abs(math.degrees(math.atan2(across, ahead))) > self.hfov / 2 - FRAME_MARGIN_DEG:
            return False
        if abs(math.degrees(math.atan2(above, math.hypot(across, ahead)))) > self.vfov / 2 - FRAME_MARGIN_DEG:
            return False
        axis = (1.0, 0.0) if door.wall_axis == "y" else (0.0, 1.0)  # the doorway's axis: across its wall
        if abs(dx * axis[0] + dy * axis[1]) / dist < math.cos(math.radians(EDGE_ON_DEG)):
            return False
        end = (door.position[0] - 0.05 * dx / dist, door.position[1] - 0.05 * dy / dist)
        for w in self.scene.walls:
            if w.floor != door.floor:
                continue
            if _crosses(cam, end, w.a, w.b) is not None:   # through another doorway: behind its leaf
                return False
        return True

    def _seen(self, door: Door) -> bool:
        if self.walked_through(door):
            return True
        run = 0
        for f in self.trajectory.frames:
            run = run + 1 if self._visible(door, f) else 0
            if run >= self.min_run:
                return True
        return False

    def walked_through(self, door: Door) -> bool:
        return bool(self._passes[door.id])

    def frames_seen(self, door: Door, room: str | None = None) -> list[int]:
        """Frames inside runs of at least 0.5 s in which the doorway is in view (as for `seen`,
        not counting walking through), only from inside `room` when given."""
        out, run = [], []
        for f in self.trajectory.frames:
            if (room is None or f.room == room) and self._visible(door, f):
                run.append(f.frame)
                continue
            if len(run) >= self.min_run:
                out += run
            run = []
        return out + (run if len(run) >= self.min_run else [])

    def doors_between(self, a: str, b: str) -> list[Door]:
        return [d for d in self.scene.doors if set(d.rooms) == {a, b}]

    def all_inner_seen(self) -> bool:
        """Every doorway between two spaces of the building (not to the outside) was seen."""
        return all(d.id in self.seen for d in self.scene.doors if "outside" not in d.rooms)
