"""The checker's own reading of which doorways the video shows (docs/ground-truth.md,
"Doorways"), written apart from queries/doors.py: the opening's centre is taken into camera
coordinates with each frame's `cam_to_world`, walls are cut with shapely.

Seen: the camera passes within 0.35 m of the opening's centre, or for 0.5 s of consecutive
frames that centre (0.6 m below the eye) lies 0.5-8 m away, at least 3 deg inside the image's
edges, viewed less than 75 deg off the doorway's axis, with no wall line crossed on the way
(a doorway on it would show its closed leaf) and the camera at least 2.5 m from every other
doorway the walk passes within 2.5 s of the frame (only those leaves stand open), counted in
the walk's frames or in those of the walk without its `insertions` (leaves hold still through
a glance or side trip).
"""

from __future__ import annotations

import math

import numpy as np
from shapely.geometry import LineString

from formats.scene import Scene
from formats.trajectory import Trajectory


class DoorSight:
    """Per frame: is a doorway's opening in view (the definition above, without walking through)?"""

    def __init__(self, scene: Scene, trajectory: Trajectory):
        cam = trajectory.camera
        self.trajectory = trajectory
        self.run_needed = max(1, round(0.5 * trajectory.fps))
        self.half_h, self.half_v = math.radians(cam.hfov_deg / 2 - 3), math.radians(cam.vfov_deg / 2 - 3)
        self.walls = {}
        for w in scene.walls:
            self.walls.setdefault(w.floor, []).append(LineString([w.a, w.b]))
        passes = lambda d: [f.frame for f in trajectory.frames  # noqa: E731
                            if f.floor == d.floor and math.dist(f.position[:2], d.position) <= 0.35]
        self.opened = [(d.floor, tuple(d.position), d.id, passes(d)) for d in scene.doors]
        kept = np.ones(len(trajectory.frames), bool)
        for first, end in trajectory.insertions:
            kept[first:end] = False
        self.first_walk_time = np.cumsum(kept)   # frames of the walk without insertions so far

    def blocked(self, floor, a, b) -> bool:
        sight = LineString([a, b])
        for wall in self.walls.get(floor, []):
            hit = sight.intersection(wall)
            for p in getattr(hit, "geoms", [hit]):
                if p.is_empty or p.geom_type != "Point":
                    continue
                return True   # a wall, or another doorway whose leaf would stand in the way
        return False

    def in_view(self, door, f) -> bool:
        if f.floor != door.floor:
            return False
        centre = np.array(door.position, dtype=float)
        normal = np.array([1.0, 0.0]) if door.wall_axis == "y" else np.array([0.0, 1.0])
        here = np.array(f.position[:2], dtype=float)
        m = np.array(f.cam_to_world, dtype=float)
        target = np.array([centre[0], centre[1], f.position[2] - 0.6])
        x, y, z = m[:, :3].T @ (target - m[:, 3])
        away = centre - here
        dist = float(np.linalg.norm(away))
        if not (z > 0 and 0.5 <= dist <= 8.0 and abs(math.atan2(x, z)) <= self.half_h
                and abs(math.atan2(y, math.hypot(x, z))) <= self.half_v
                and abs(away @ normal) / dist >= math.cos(math.radians(75))):
            return False
        if any(fl == f.floor and oid != door.id and math.dist(c, f.position[:2]) < 2.5
               and any(min(abs(f.frame - p), abs(int(self.first_walk_time[f.frame] - self.first_walk_time[p])))
                       <= 2.5 * self.trajectory.fps for p in passes)
               for fl, c, oid, passes in self.opened):
            return False   # by a doorway the walk passes about now: its leaf may stand open in the way
        return not self.blocked(door.floor, tuple(here), tuple(centre - 0.05 * away / dist))

    def runs(self, door, room: str | None = None) -> list[tuple[int, int]]:
        """[first, last] of each run of >= 0.5 s in view with no wall line crossed at all (a
        door seen through another doorway would be behind that one's closed leaf), from inside
        `room` when given."""
        out, start, prev = [], None, None
        for f in self.trajectory.frames:
            ok = (room is None or f.room == room) and self.in_view(door, f)
            if ok and start is not None and f.frame == prev + 1:
                prev = f.frame
                continue
            if start is not None and prev - start + 1 >= self.run_needed:
                out.append((start, prev))
            start, prev = (f.frame, f.frame) if ok else (None, None)
        if start is not None and prev - start + 1 >= self.run_needed:
            out.append((start, prev))
        return out


def doorways_seen(scene: Scene, trajectory: Trajectory) -> set[str]:
    sight = DoorSight(scene, trajectory)
    seen = set()
    for door in scene.doors:
        centre = np.array(door.position, dtype=float)
        run = 0
        for f in trajectory.frames:
            if f.floor != door.floor:
                run = 0
                continue
            if np.linalg.norm(np.array(f.position[:2], dtype=float) - centre) <= 0.35:
                seen.add(door.id)
                break
            run = run + 1 if sight.in_view(door, f) else 0
            if run >= sight.run_needed:
                seen.add(door.id)
                break
    return seen
