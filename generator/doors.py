"""Door leaves in the doorways, opened only while the walk passes through them: where each leaf
hangs and swings follows from the scene (a fact the renderer draws, render.doors, and tools
such as tools/leaf_stare.py measure walks against).

Why: with every doorway open, rooms show through doorways from the hallway and from each
other, so two rooms a map question compares are nearly always in one frame somewhere and
such questions could not be asked (SPEC rule 5: the rooms compared are never visible in one
frame). Real homes have doors; here each doorway between a room and another space has a
leaf that is closed except while the camera goes through it: it swings open over half a
second before the camera reaches the doorway, stays open while the camera is within
OPEN_RADIUS of it, and closes behind it.

The state of every leaf is a function of the walk's poses (not of time), so the frame
cache, which names frames by pose (render.frame_cache), stays valid: `door_poses` adds each
frame's open angles to its pose, and the cache key includes them. Through a glance or side
trip that the coverage loop inserts (trajectory.json `insertions`) the leaves hold still, so
the first walk's frames keep theirs (`held_angles`).

Doorways left without a leaf: those filled by a `door` object of the spec (it stays as
placed), openings onto stairs and between two hallway pieces. A leaf swings into a room (the
entrance into its hallway), hinged on the jamb from which, standing open, it hides the fewest
things, then from which it opens flattest against a wall (its own wall, or the side wall by a
corner; furniture and walls bound the angle); one that would hide something from either jamb
opens onto the hallway instead. A leaf opens less only where the camera would otherwise come
too close to it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from shapely.geometry import LineString, Point, Polygon

OPEN_RADIUS = 1.5      # m: the leaf stays open while the camera is this close to the doorway
RAMP_S = 0.5           # s: swinging open / closed
HOLD_S = 2.0           # s: open at most this long before and after the doorway (unless in the way)
IN_DOORWAY = 0.3       # m: a camera this close to the door line, within the opening, is in it
CLEARANCE = 0.25       # m: an open leaf keeps this far from the camera
MAX_OPEN = 160.0       # deg: fully open, nearly flat against the wall beside the door
MIN_OPEN = 80.0        # deg: never less (the walk goes through)
LEAF_T = 0.04          # leaf thickness (m), as assets' door builder
JAMB_LINING = 0.015    # m: the casing's lining inside the opening (render.shell)


@dataclass(frozen=True)
class Leaf:
    door: str
    floor: int
    hinge: tuple[float, float]    # world xy of the hinge axis
    closed_deg: float             # direction from the hinge along the closed leaf (deg CCW from +x)
    turn: int                     # +1: opening turns the leaf counter-clockwise, -1 clockwise
    width: float                  # leaf width (m)
    height: float                 # opening height (m)
    centre: tuple[float, float]   # doorway centre
    axis: str                     # "x": the wall runs east-west
    room_side: float              # +1/-1: the swing side along the wall's normal (+y or +x)
    max_open: float = MAX_OPEN    # deg: the widest angle the room's walls and furniture allow

    def yaw(self, angle_deg: float) -> float:
        """Direction from the hinge along the leaf opened by angle_deg (deg CCW from +x)."""
        return self.closed_deg + self.turn * angle_deg

    def tip(self, angle_deg: float) -> tuple[float, float]:
        """The free edge of the leaf opened by angle_deg (towards the swing side)."""
        a = math.radians(self.yaw(angle_deg))
        return self.hinge[0] + self.width * math.cos(a), self.hinge[1] + self.width * math.sin(a)


def _spaces(scene: dict) -> dict[str, tuple[int, Polygon]]:
    out = {r["label"]: (r["floor"], Polygon(r["polygon"])) for r in scene.get("rooms", [])}
    out.update({f"hallway:{h['id']}": (h["floor"], Polygon(h["polygon"])) for h in scene.get("hallways", [])})
    return out


def _filled_by_object(scene: dict) -> set[str]:
    return {(o.get("attributes") or {}).get("opening") for o in scene.get("objects", [])
            if o.get("category") == "door"} - {None}


def _obstacles(scene: dict, room: str, height: float) -> list[Polygon]:
    """Footprints in `room` whose bottom is below the leaf's top. position[2] is world z, so it is
    taken from above the room's floor: compared as it was, no object on an upper floor ever
    stopped a leaf, which swung flat over a bathroom's mirror (sample-1-002) and through furniture."""
    elevation = {int(f["floor"]): float(f["elevation"]) for f in scene.get("floors", [])}
    return [Polygon(o["footprint"]).buffer(0.03) for o in scene.get("objects", [])
            if o.get("room") == room and o.get("footprint")
            and float(o["position"][2]) - elevation.get(int(o.get("floor", 0)), 0.0) < height]


def _wall_axes(axis: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """(normal, along) unit vectors of a doorway's wall; "x": the wall runs east-west."""
    return ((0.0, 1.0), (1.0, 0.0)) if axis == "x" else ((1.0, 0.0), (0.0, 1.0))


def _leaf(d: dict, poly: Polygon, s: float, obstacles: list[Polygon]) -> tuple[Leaf, float, float, int]:
    """The leaf of doorway d swinging into the space `poly`, hinged on the jamb at -1 (west or
    south) or +1 along the wall; how far its free edge, fully open, stays from the space's
    walls; the distance from that jamb to the space's corner; and how many of the obstacles
    it hides standing open (_hidden)."""
    cx, cy = (float(v) for v in d["position"])
    normal, along = _wall_axes(d["wall_axis"])
    side = 1.0 if poly.contains(Point(cx + 0.3 * normal[0], cy + 0.3 * normal[1])) else -1.0
    half = float(d["width"]) / 2 - JAMB_LINING
    jx, jy = cx + s * half * along[0], cy + s * half * along[1]
    start = (jx + 0.1 * side * normal[0], jy + 0.1 * side * normal[1])
    hit = LineString([start, (start[0] + 50 * s * along[0], start[1] + 50 * s * along[1])]).intersection(poly.exterior)
    corner = Point(start).distance(hit) if not hit.is_empty else 50.0
    hinge = (jx + side * normal[0] * LEAF_T / 2, jy + side * normal[1] * LEAF_T / 2)   # closed: centred in the wall
    closed = math.degrees(math.atan2(-s * along[1], -s * along[0])) % 360.0
    # opening turns the leaf towards the swing side: counter-clockwise if that is to its left
    swing = (side * normal[0], side * normal[1])
    turn = 1 if (-s * along[0]) * swing[1] - (-s * along[1]) * swing[0] > 0 else -1
    leaf = Leaf(d["id"], int(d["floor"]), hinge, closed, turn, 2 * half - 0.006, float(d["height"]),
                (cx, cy), d["wall_axis"], side)
    leaf = replace(leaf, max_open=_widest(leaf, poly.buffer(-0.07), obstacles))
    return leaf, poly.exterior.distance(Point(leaf.tip(leaf.max_open))), corner, _hidden(leaf, poly, obstacles)


def _hidden(leaf: Leaf, poly: Polygon, footprints: list[Polygon]) -> int:
    """How many of the footprints the fully open leaf hides from most places near the doorway
    inside the room (where it stands open while the camera is there): the sight line from at
    least two in three of those places to the footprint's centre crosses the leaf."""
    (sx, sy), (ax, ay) = _wall_axes(leaf.axis)
    side = leaf.room_side
    leaf_line = LineString([leaf.hinge, leaf.tip(leaf.max_open)])
    eyes = [Point(leaf.centre[0] + side * n * sx + u * ax, leaf.centre[1] + side * n * sy + u * ay)
            for n in (0.6, 1.2) for u in (-0.5, 0.0, 0.5)]
    eyes = [e for e in eyes if poly.contains(e) and e.distance(leaf_line) > CLEARANCE]
    if not eyes:
        return 0
    hidden = 0
    for f in footprints:
        c = f.centroid
        if sum(LineString([e, c]).intersects(leaf_line) for e in eyes) * 3 >= 2 * len(eyes):
            hidden += 1
    return hidden


def leaves(scene: dict) -> list[Leaf]:
    """One leaf per doorway that has a room on at least one side, or leads outside (see the
    module doc). It swings into a room (the entrance into its hallway), or onto the hallway
    where, standing open in the room, it would hide something whichever jamb it hangs on: in a
    sampled reception with a plant in each corner beside the door, the leaf stood open over
    one plant whenever the walk was near, and that plant never showed a pixel (sample-1-022)."""
    spaces = _spaces(scene)
    filled = _filled_by_object(scene)
    out = []
    for d in scene.get("doors", []):
        sides = list(d["rooms"])
        if d["id"] in filled or any(s.startswith("stairs:") for s in sides):
            continue
        rooms = [s for s in sides if s in spaces and not s.startswith("hallway:")]
        if not rooms and "outside" in sides:        # the entrance swings into the hallway
            rooms = [s for s in sides if s in spaces]
        if not rooms:
            continue
        best = _best_leaf(scene, d, spaces, rooms)
        halls = [s for s in sides if s.startswith("hallway:") and s in spaces and s not in rooms]
        if best[3] > 0 and halls:   # standing open it hides something either way: open onto the hallway
            best = max(best, _best_leaf(scene, d, spaces, halls), key=_hung_as_people_hang_it)
        out.append(best[0])
    return out


def _best_leaf(scene: dict, d: dict, spaces: dict, into: list[str]) -> tuple[Leaf, float, float, int]:
    """The best-ranked leaf of doorway d swinging into one of the spaces `into`."""
    obstacles = {r: _obstacles(scene, r, float(d["height"])) for r in into}
    choices = [_leaf(d, spaces[r][1], hinge_sign, obstacles[r]) for r in into for hinge_sign in (-1.0, 1.0)]
    return max(choices, key=_hung_as_people_hang_it)


def _hung_as_people_hang_it(choice: tuple[Leaf, float, float, int]) -> tuple:
    """Rank of a (leaf, gap, jamb-to-corner distance, things hidden) choice, `gap` being how far
    the fully open leaf's free edge stays from the room's walls: the leaf that hides fewest
    things behind it, then the one that opens flattest against a wall (its own or the side wall
    by a corner), to 5 cm, then the widest opening, then the jamb nearer a corner. Ranked by
    opening alone, a leaf hinged on the jamb away from a corner, stopped by furniture or by
    the camera stepping in just past the doorway (open_angles), stood open in the middle of the
    room: in sampled scenarios it hid a bathroom's toilet (never in a frame) and a bedroom's
    chair for the whole visit. Ranked without the things hidden, the leaf of a 1.9-m-wide
    bathroom swung against the side wall over a towel, which the walk, looking in from beside
    the doorway where the leaf stands open, never showed (sample-1-011)."""
    leaf, gap, corner, hidden = choice
    return (-hidden, -round(gap / 0.05), leaf.max_open, -round(corner, 6))


def _widest(leaf: Leaf, inside: Polygon, obstacles: list[Polygon]) -> float:
    """The widest angle up to MAX_OPEN (5 deg steps) the leaf swings to without its free part
    leaving `inside` or touching an obstacle; MIN_OPEN when even that is blocked."""
    best = MIN_OPEN
    for angle in np.arange(MIN_OPEN, MAX_OPEN + 1e-9, 5.0):
        a = math.radians(leaf.yaw(float(angle)))
        pts = [Point(leaf.hinge[0] + r * math.cos(a), leaf.hinge[1] + r * math.sin(a))
               for r in np.linspace(0.15, leaf.width, 8)]
        if not all(inside.contains(p) for p in pts) or any(o.intersects(q) for o in obstacles for q in pts):
            break
        best = float(angle)
    return best


def _segment_distance(px, py, ax, ay, bx, by) -> np.ndarray:
    """Distances from points (px, py) to the segment a-b."""
    dx, dy = bx - ax, by - ay
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / max(dx * dx + dy * dy, 1e-12), 0.0, 1.0)
    return np.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[(first, last)] of the True runs of a boolean array."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], mask.astype(np.int8), [0]))))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2])]


def in_swing(leaf: Leaf, xy: np.ndarray) -> np.ndarray:
    """Which points xy (on the leaf's floor) stand where the leaf swings: within its width and
    CLEARANCE of the hinge, on its swing side of the door line or in the doorway. A camera
    there keeps the leaf open, stopped short of it, in front of the lens."""
    cx, cy = leaf.centre
    v = (xy[:, 1] - cy) if leaf.axis == "x" else (xy[:, 0] - cx)
    return (v * leaf.room_side > -IN_DOORWAY) & (
        np.hypot(xy[:, 0] - leaf.hinge[0], xy[:, 1] - leaf.hinge[1]) < leaf.width + CLEARANCE)


def open_angles(leaf: Leaf, xy: np.ndarray, floors: np.ndarray, fps: int) -> np.ndarray:
    """The leaf's opening angle (deg) in every frame of a walk (camera positions xy, floors).

    Engaged: the camera crosses the door line within the opening, or stands in the doorway.
    The leaf is open from when the camera comes within OPEN_RADIUS of the doorway (at most
    HOLD_S before) until it is OPEN_RADIUS past it (at most HOLD_S after), as a person closes
    a door behind them - and in any case while the camera stands where the leaf swings. It
    opens to the first angle of ANGLES that keeps the leaf CLEARANCE from the camera all
    along (a walk turning right behind a door never walks into it) and swings over RAMP_S on
    either side (smoothstep)."""
    n = len(xy)
    angles = np.zeros(n)
    if n == 0:
        return angles
    on_floor = floors == leaf.floor
    cx, cy = leaf.centre
    a_idx, n_idx = (0, 1) if leaf.axis == "x" else (1, 0)
    u = xy[:, a_idx] - (cx, cy)[a_idx]                 # along the wall
    v = xy[:, n_idx] - (cx, cy)[n_idx]                 # across it
    half = leaf.width / 2
    within = on_floor & (np.abs(u) < half)
    crossing = np.zeros(n, bool)
    crossing[1:] = within[1:] & within[:-1] & (np.sign(v[1:]) != np.sign(v[:-1]))
    engaged = crossing | (within & (np.abs(v) < IN_DOORWAY))
    near = on_floor & (np.hypot(u, v) <= OPEN_RADIUS)
    in_sweep = on_floor & in_swing(leaf, xy)
    ramp = max(1, int(round(RAMP_S * fps)))
    hold = int(round(HOLD_S * fps))
    for first, last in _runs(engaged):
        a, b = first, last
        while a > 0 and ((near[a - 1] and a - 1 >= first - hold) or in_sweep[a - 1]):
            a -= 1
        while b < n - 1 and ((near[b + 1] and b + 1 <= last + hold) or in_sweep[b + 1]):
            b += 1
        lo, hi = max(0, a - ramp), min(n - 1, b + ramp)
        full, best = leaf.max_open, -1.0
        for cand in np.arange(leaf.max_open, MIN_OPEN - 1e-9, -10.0):   # widest that keeps clear of the camera
            tx, ty = leaf.tip(float(cand))
            gap = float(_segment_distance(xy[lo:hi + 1, 0], xy[lo:hi + 1, 1], *leaf.hinge, tx, ty).min())
            if gap >= CLEARANCE:
                full = float(cand)
                break
            if gap > best:
                full, best = float(cand), gap
        k = np.arange(lo, hi + 1)
        # distance in frames to the open run [a, b]; smoothstep over the ramp
        dist = np.maximum(np.maximum(a - k, k - b), 0) / ramp
        x = np.clip(1.0 - dist, 0.0, 1.0)
        angles[lo:hi + 1] = np.maximum(angles[lo:hi + 1], full * x * x * (3 - 2 * x))
    return np.round(angles, 2)


def held_angles(leaf: Leaf, xy: np.ndarray, floors: np.ndarray, fps: int,
                insertions: list[tuple[int, int]]) -> np.ndarray:
    """open_angles of a walk into which the coverage loop inserted glances and side trips
    (`insertions`, [first, end) frame ranges): the walk without them sets the leaf's angles,
    and the leaf holds still through each insertion at the angle of the frame before it - so
    the first walk's frames keep their leaves, and a render of the extended walk reuses them
    (sample-3-007's side trips changed door leaves' timing around them, and 143 first-walk
    frames were rendered again). Where an insertion comes within CLEARANCE of the held leaf
    (open, or shut across a doorway it goes through), the leaf follows the whole walk instead."""
    n = len(xy)
    inserted = np.zeros(n, bool)
    for a, b in insertions:
        inserted[a:b] = True
    if not inserted.any():
        return open_angles(leaf, xy, floors, fps)
    angles = np.zeros(n)
    angles[~inserted] = open_angles(leaf, xy[~inserted], floors[~inserted], fps)
    for a, b in sorted(insertions):
        angles[a:b] = angles[a - 1] if a > 0 else (angles[b] if b < n else 0.0)
    k = np.flatnonzero(inserted & (floors == leaf.floor))
    if len(k) and _too_close(leaf, xy[k], angles[k]):
        return open_angles(leaf, xy, floors, fps)
    return angles


def _too_close(leaf: Leaf, xy: np.ndarray, angles: np.ndarray) -> bool:
    """Whether a camera at xy comes within CLEARANCE of the leaf opened to angles."""
    for angle in np.unique(angles):
        at = angles == angle
        tx, ty = leaf.tip(float(angle))
        if _segment_distance(xy[at, 0], xy[at, 1], *leaf.hinge, tx, ty).min() < CLEARANCE:
            return True
    return False


def door_poses(scene: dict, poses: list[dict], fps: int, insertions: list[tuple[int, int]] = ()) -> list[dict]:
    """The poses with `doors`: {door id: opening angle} of the leaves not closed in that frame
    (frames with every leaf closed are returned unchanged). `insertions`: the walk's glances
    and side trips, through which the leaves hold still (held_angles)."""
    if not poses:
        return []
    xy = np.array([[float(p["position"][0]), float(p["position"][1])] for p in poses])
    floors = np.array([int(p["floor"]) for p in poses])
    states: list[dict[str, float]] = [{} for _ in poses]
    for leaf in leaves(scene):
        for j in np.flatnonzero(ang := held_angles(leaf, xy, floors, fps, list(insertions))):
            states[j][leaf.door] = float(ang[j])
    return [{**p, "doors": s} if s else p for p, s in zip(poses, states)]
