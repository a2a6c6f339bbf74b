"""Is a counted instance shown *whole enough* to count (docs/ground-truth.md "Counting")?

A chair seen only as a dark strip behind another chair meets "seen" (0.1% of the frame, a
solid square) yet a viewer does not count it. So every instance a count counts must, for 0.5 s
of consecutive seen frames, show at least SHOWN_SHARE of its outline: its visible pixels
(visibility.json) over the area of its projected 3-D box, the whole of it, also the part beyond
the frame's edges, but at most the image (a thing larger than the view shows SHOWN_SHARE of the
image). Not clipped to the frame: a toilet seen only as its cistern's top at the bottom edge, 1.1 m
away, filled the clipped part of its outline and was counted, yet a viewer does not see a toilet.
A frame where the box reaches behind the camera counts as shown (it fills the view). The camera
is rebuilt from each frame's position, yaw and pitch.

A thing lying flat on the floor (a carpet) has furniture standing on it by design: what can ever
show of it is its footprint less the footprints of the things standing on it, so its outline is
that part's projection (the desk and chair on a file room's carpet left it at 15-17% of its
whole outline at best; the rug's exposed border is what a viewer names it by).
"""

from __future__ import annotations

import math

from shapely.geometry import MultiPoint, Polygon
from shapely.ops import unary_union

from assets.vocabulary import named_from_nearly_in_front
from queries.geometry import FLAT_M
from queries.model import Frame, SceneObject

SHOWN_SHARE = 0.15
NEAR_M = 0.05


def exposed_part(obj: SceneObject, others) -> Polygon | None:
    """The part of a flat floor thing's footprint that nothing standing on the floor covers;
    None for any other thing, or when nothing of it is left uncovered (then its whole box counts)."""
    if obj.support != "floor" or obj.size[2] >= FLAT_M:
        return None
    own = Polygon(obj.footprint)
    cover = [Polygon(o.footprint) for o in others if o.id != obj.id and o.room == obj.room and o.floor == obj.floor
             and o.support == "floor" and o.size[2] >= FLAT_M]
    left = own.difference(unary_union(cover)) if cover else own
    return None if left.is_empty or left.area <= 0 else left


def outline_area(obj: SceneObject, frame: Frame, fov_deg: float, width: int, height: int,
                 exposed: Polygon | None = None) -> float | None:
    """Pixels the projection of the object's box covers on the image plane, in and beyond the
    frame, at most the image's; None when the box reaches behind the camera. With `exposed` (a
    flat thing's uncovered part, exposed_part), the projection of that part at its top."""
    yaw, pitch = math.radians(frame.yaw), math.radians(frame.pitch)
    forward = (math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch))
    right = (math.sin(yaw), -math.cos(yaw), 0.0)
    up = (right[1] * forward[2] - right[2] * forward[1], right[2] * forward[0] - right[0] * forward[2],
          right[0] * forward[1] - right[1] * forward[0])
    focal = (width / 2) / math.tan(math.radians(fov_deg) / 2)
    z0, z1 = obj.position[2], obj.position[2] + obj.size[2]

    def image(x, y, z):
        d = (x - frame.position[0], y - frame.position[1], z - frame.position[2])
        depth = sum(a * b for a, b in zip(d, forward))
        if depth < NEAR_M:
            return None
        return (width / 2 + focal * sum(a * b for a, b in zip(d, right)) / depth,
                height / 2 - focal * sum(a * b for a, b in zip(d, up)) / depth)

    if exposed is not None:
        area = 0.0
        for part in getattr(exposed, "geoms", [exposed]):
            if part.geom_type != "Polygon":
                continue
            ring = [image(x, y, z1) for x, y in part.exterior.coords]
            holes = [[image(x, y, z1) for x, y in hole.coords] for hole in part.interiors]
            if None in ring or any(None in h for h in holes):
                return None
            area += Polygon(ring, holes).area
        return min(area, width * height)
    points = [image(x, y, z) for x, y in obj.footprint for z in (z0, z1)]
    if None in points:
        return None
    return min(MultiPoint(points).convex_hull.area, width * height)


FRONT_DEG = 70.0   # the camera within this of a thing's front direction sees its front (not its side)
NARROW_FRONT_DEG = 45.0   # ... for a thing named only from nearly in front (FRONT_ONLY_NARROW: glasses)


def _off_front(obj: SceneObject, frame: Frame) -> float:
    """Degrees (0-180) between the direction the object's front faces (scene.json yaw) and the
    camera, seen from the object's centre on the floor plan; 0 for a camera right over it."""
    dx, dy = frame.position[0] - obj.position[0], frame.position[1] - obj.position[1]
    if dx == 0 and dy == 0:
        return 0.0
    return abs((math.degrees(math.atan2(dy, dx)) - obj.yaw + 180.0) % 360.0 - 180.0)


def sees_front(obj: SceneObject, frame: Frame) -> bool:
    """Is the camera in front of the object: within FRONT_DEG of the direction its front faces
    (NARROW_FRONT_DEG for a thing named only from nearly in front)?"""
    limit = NARROW_FRONT_DEG if named_from_nearly_in_front(obj.category) else FRONT_DEG
    return _off_front(obj, frame) <= limit


def sees_broadside(obj: SceneObject, frame: Frame) -> bool:
    """Is the camera before or behind the object's long side: within FRONT_DEG of the direction
    its front or its back faces (not end-on)?"""
    off = _off_front(obj, frame)
    return off <= FRONT_DEG or off >= 180.0 - FRONT_DEG


def first_whole_run(obj: SceneObject, seen_frames: list[int], pixels: dict[int, int], frames: dict[int, Frame],
                    fov_deg: float, width: int, height: int, run: int, exposed: Polygon | None = None) -> int | None:
    """The first frame of the first run of `run` consecutive seen frames each showing
    >= SHOWN_SHARE of the box's outline (of a flat thing's `exposed` part); None if there is no such run."""
    streak, prev = 0, None
    for f in seen_frames:
        area = outline_area(obj, frames[f], fov_deg, width, height, exposed)
        ok = area is None or area <= 0 or pixels.get(f, 0) >= SHOWN_SHARE * area   # <= 0: degenerate box
        streak = (streak + 1 if prev is not None and f == prev + 1 else 1) if ok else 0
        prev = f if ok else None
        if streak >= run:
            return f - run + 1
    return None
