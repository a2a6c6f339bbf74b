"""Plane geometry for the generator: headings, direction sectors with margins, distances.

Angles are degrees, counter-clockwise positive (so a positive angle from my heading is to my
left), in (-180, 180].
"""

from __future__ import annotations

import math

from shapely.geometry import Polygon

from queries.model import Point, Room, SceneObject

FLAT_M = 0.05   # things lower than this lie on the floor (carpets, mats): walked on, stood on, no neighbour


def heading_deg(frm: Point, to: Point) -> float:
    return math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0]))


def wrap(angle: float) -> float:
    """Into (-180, 180]."""
    a = math.fmod(angle, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return a


def relative_angle(origin: Point, facing: Point, target: Point) -> float:
    """Angle of target as seen from origin, relative to the heading origin -> facing."""
    return wrap(heading_deg(origin, target) - heading_deg(origin, facing))


def dist(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def _clear_of(angle: float, boundaries: tuple[float, ...], margin: float) -> bool:
    return all(abs(wrap(angle - b)) >= margin for b in boundaries)


def direction_label(level: str, angle: float, margin: float) -> str | None:
    """VSI-Bench answer for a relative angle, or None if within margin of a sector boundary."""
    if level == "easy":
        if not _clear_of(angle, (0.0, 180.0), margin):
            return None
        return "left" if angle > 0 else "right"
    if level == "medium":
        if not _clear_of(angle, (0.0, 135.0, -135.0), margin):
            return None
        if abs(angle) >= 135.0:
            return "back"
        return "left" if angle > 0 else "right"
    if level == "hard":
        if not _clear_of(angle, (0.0, 90.0, -90.0, 180.0), margin):
            return None
        front = abs(angle) < 90.0
        left = angle > 0
        return f"{'front' if front else 'back'}-{'left' if left else 'right'}"
    raise ValueError(level)


def compass_label(angle: float, margin: float) -> str | None:
    """East/North/West/South for a world angle (0 = east), None near a 45-degree boundary."""
    if not _clear_of(angle, (45.0, 135.0, -135.0, -45.0), margin):
        return None
    index = int(((angle + 45.0) % 360.0) // 90.0)
    return ("East", "North", "West", "South")[index]


def room_centre(room: Room) -> Point:
    c = Polygon(room.polygon).centroid
    return (c.x, c.y)


def footprint_distance(a: SceneObject, b: SceneObject) -> float:
    """Closest-point distance between two footprints (0 when they touch or overlap)."""
    return Polygon(a.footprint).distance(Polygon(b.footprint))


def standpoints(footprint, ring_m: float, step_m: float) -> list[Point]:
    """Where a person "standing by" an object may stand (docs/ground-truth.md): points `step_m`
    apart along the outline `ring_m` out from its footprint (shapely buffer, round joins, 8
    segments per quarter circle), from the outline's first vertex."""
    ring = Polygon(footprint).buffer(ring_m, quad_segs=8).exterior
    n = max(8, math.ceil(ring.length / step_m))
    return [ring.interpolate(i / n, normalized=True).coords[0] for i in range(n)]


def box_distance(a: SceneObject, b: SceneObject) -> float:
    """3-D closest-point distance between two oriented boxes (footprint x [z, z + height]):
    the boxes are products of a footprint and a height interval, so the squared distance is
    the footprints' squared distance plus the height intervals' squared gap."""
    za, zb = (a.position[2], a.position[2] + a.size[2]), (b.position[2], b.position[2] + b.size[2])
    dz = max(0.0, za[0] - zb[1], zb[0] - za[1])
    return math.hypot(footprint_distance(a, b), dz)


def at_bed_head(thing: SceneObject, bed: SceneObject, reach_m: float) -> bool:
    """Does `thing` stand beside the bed's head: its footprint within `reach_m` of the bed's, its
    centre level with the head half (a bed's front, +y in its frame, is its foot end)?"""
    yaw = math.radians(bed.yaw)
    along = ((thing.position[0] - bed.position[0]) * math.cos(yaw)
             + (thing.position[1] - bed.position[1]) * math.sin(yaw))
    return along < 0 and Polygon(thing.footprint).distance(Polygon(bed.footprint)) <= reach_m
