"""The checker's own reading of "the video shows the two rooms facing each other" (docs/ground-
truth.md "directly opposite"): a room is directly opposite another only where a viewer saw it so.

For at least 0.5 s of frames: the camera is in a hallway both rooms open onto and sees both
doorways onto it, or it is within 1.5 m of one room's doorway onto it (in the hallway or in that
room) and sees the other's. Sees: the doorway's centre within 6 m and at least 10 deg inside the
edge of the horizontal field of view, and the sight line, marched in 5 cm steps, runs through the
hallway (grown 10 cm), leaving the room the camera is in through its own doorway.
"""

from __future__ import annotations

import math

from shapely import contains_xy
from shapely.geometry import Polygon

INSIDE_EDGE_DEG = 10.0
FAR_M = 6.0
BY_DOOR_M = 1.5
STEP_M = 0.05


def _looks_at(cam, forward, target, half_deg: float) -> bool:
    vx, vy = target[0] - cam[0], target[1] - cam[1]
    dist = math.hypot(vx, vy)
    if dist > FAR_M or dist == 0:
        return False
    cos = (vx * forward[0] + vy * forward[1]) / dist
    return cos >= math.cos(math.radians(half_deg))


def _sight_clear(cam, target, hall: Polygon, room: Polygon | None, door) -> bool:
    n = max(1, int(math.dist(cam, target) / STEP_M))
    left_room = room is None
    for k in range(1, n):
        px, py = cam[0] + (target[0] - cam[0]) * k / n, cam[1] + (target[1] - cam[1]) * k / n
        if not left_room:
            if contains_xy(room, px, py):
                continue
            left_room = True     # the first step out of the room must be through its doorway
            if math.dist((px, py), door.position) > door.width / 2 + STEP_M:
                return False
        if not contains_xy(hall, px, py):
            return False
    return True


def shows_facing(facts, x: str, y: str) -> bool:
    """Do at least facts.run frames show rooms x and y facing each other across a hallway?"""
    scene, trajectory = facts.scene, facts.files.trajectory
    rooms = {r.label: Polygon(r.polygon).buffer(-0.02) for r in scene.rooms}
    halls = {s.node: Polygon(s.polygon) for s in facts.spaces if s.node.startswith("hallway:")}
    grown = {k: p.buffer(0.1) for k, p in halls.items()}

    def onto(room, hall):
        return [d for d in scene.doors if room in d.rooms and hall in d.rooms]
    pairs = [(h, dx, dy) for h in sorted(halls) for dx in onto(x, h) for dy in onto(y, h)]
    half = trajectory.camera.hfov_deg / 2 - INSIDE_EDGE_DEG
    count = 0
    for f in trajectory.frames:
        cam = (f.position[0], f.position[1])
        forward = (math.cos(math.radians(f.yaw)), math.sin(math.radians(f.yaw)))
        for h, dx, dy in pairs:
            if f.floor != dx.floor:
                continue
            if contains_xy(halls[h], *cam):
                ahead = [_looks_at(cam, forward, d.position, half) and _sight_clear(cam, d.position, grown[h], None, d)
                         for d in (dx, dy)]
                seen = all(ahead) or (ahead[1] and math.dist(cam, dx.position) <= BY_DOOR_M) or \
                    (ahead[0] and math.dist(cam, dy.position) <= BY_DOOR_M)
            else:
                seen = False
                for own, mine, theirs in ((x, dx, dy), (y, dy, dx)):
                    if (contains_xy(rooms[own], *cam) and math.dist(cam, mine.position) <= BY_DOOR_M
                            and _looks_at(cam, forward, theirs.position, half)
                            and _sight_clear(cam, theirs.position, grown[h], rooms[own], mine)):
                        seen = True
            if seen:
                count += 1
                break
        if count >= facts.run:
            return True
    return False
