"""The checker's own reading of the scene: visibility, names, room order, plane geometry.

Written separately from the generator's modules on purpose (queries/check.py must not agree
with the generator just because they share a bug): different formulas where there is a
choice (shoelace centroids, segment distances, quadrant bearings, room order from frames).
"""

from __future__ import annotations

import math

from queries.model import Scenario, SceneObject
from queries.params import Thresholds


class Facts:
    def __init__(self, scenario: Scenario, th: Thresholds):
        self.sc, self.th = scenario, th
        self.scene = scenario.scene
        vis = scenario.visibility
        self.min_pixels = th.min_pixels if th.min_pixels is not None else vis.min_pixels
        self.fps = scenario.trajectory.fps or vis.fps
        self.obj = {o.id: o for o in self.scene.objects}
        self.room = {r.label: r for r in self.scene.rooms}
        self.good_obj = {k: {f for f, p in zip(t.frames, t.pixels) if p >= self.min_pixels}
                         for k, t in vis.objects.items()}
        if vis.rooms is not None:
            self.good_room = {k: {f for f, p in zip(t.frames, t.pixels) if p >= self.min_pixels}
                              for k, t in vis.rooms.items()}
        else:
            self.good_room = {}
            for f in scenario.trajectory.frames:
                if f.room:
                    self.good_room.setdefault(f.room, set()).add(f.frame)

    # ------------------------------------------------------------- visibility
    def object_visible(self, oid: str) -> bool:
        return len(self.good_obj.get(oid, ())) >= self.th.min_frames

    def room_visible(self, label: str) -> bool:
        return len(self.good_room.get(label, ())) >= self.th.min_frames

    def rooms_share_frame(self, a: str, b: str) -> bool | None:
        rooms = self.sc.visibility.rooms
        if rooms is None:
            return None
        def frames(label):
            t = rooms.get(label)
            return {f for f, p in zip(t.frames, t.pixels) if p >= self.th.covisible_min_pixels} if t else set()
        return not frames(a).isdisjoint(frames(b))

    # ------------------------------------------------------------- names
    def resolve(self, name: str) -> SceneObject | None:
        """'sofa' (only sofa anywhere) or 'sofa in the living room' (only sofa there)."""
        category, room = name, None
        if " in the " in name:
            category, room = name.split(" in the ", 1)
            if room not in self.room:
                category, room = name, None
        hits = [o for o in self.scene.objects
                if o.category == category and (room is None or o.room == room)]
        if room is None and len({o.room for o in hits}) > 1:
            return None
        return hits[0] if len(hits) == 1 else None

    def room_order(self) -> list[str]:
        """Rooms in the order the camera first stands in them (from the frames, not events)."""
        order: list[str] = []
        for f in sorted(self.sc.trajectory.frames, key=lambda f: f.frame):
            if f.room and f.room not in order:
                order.append(f.room)
        return order

    def event_order(self) -> list[str]:
        order: list[str] = []
        for e in self.sc.trajectory.events:
            if e.get("type") == "enter_room" and e.get("room") and e["room"] not in order:
                order.append(e["room"])
        return order


# ----------------------------------------------------------------- plane geometry
def centroid(poly) -> tuple[float, float]:
    """Area centroid by the shoelace formula."""
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        w = x0 * y1 - x1 * y0
        a += w
        cx += (x0 + x1) * w
        cy += (y0 + y1) * w
    return (cx / (3 * a), cy / (3 * a))


def bearing(origin, forward_to, target) -> float:
    """Clockwise angle of target from the forward direction, degrees in (-180, 180]."""
    fx, fy = forward_to[0] - origin[0], forward_to[1] - origin[1]
    vx, vy = target[0] - origin[0], target[1] - origin[1]
    right = vx * fy - vy * fx          # component along the right-hand perpendicular (scaled)
    ahead = vx * fx + vy * fy
    return math.degrees(math.atan2(right, ahead))


def angular_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _seg_point(p, a, b) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(a, b, c, d) -> bool:
    return (_cross(a, b, c) * _cross(a, b, d) < 0) and (_cross(c, d, a) * _cross(c, d, b) < 0)


def _inside(p, poly) -> bool:
    """Even-odd ray casting."""
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def polygon_gap(p, q) -> float:
    """Closest-point distance between two simple polygons (0 if they touch or overlap)."""
    p, q = list(p), list(q)
    if _inside(p[0], q) or _inside(q[0], p):
        return 0.0
    ep = list(zip(p, p[1:] + p[:1]))
    eq = list(zip(q, q[1:] + q[:1]))
    if any(_segments_cross(a, b, c, d) for a, b in ep for c, d in eq):
        return 0.0
    return min(min(_seg_point(a, c, d) for a, _ in ep for c, d in eq),
               min(_seg_point(c, a, b) for c, _ in eq for a, b in ep))


def point_polygon_gap(p, poly) -> float:
    poly = list(poly)
    if _inside(p, poly):
        return 0.0
    return min(_seg_point(p, a, b) for a, b in zip(poly, poly[1:] + poly[:1]))


def segment_polygon_gap(a, b, poly) -> float:
    poly = list(poly)
    if _inside(a, poly) or _inside(b, poly):
        return 0.0
    edges = list(zip(poly, poly[1:] + poly[:1]))
    if any(_segments_cross(a, b, c, d) for c, d in edges):
        return 0.0
    return min(min(_seg_point(v, a, b) for v in poly), _seg_point(a, *edges[0]),
               min(min(_seg_point(a, c, d), _seg_point(b, c, d)) for c, d in edges))


def length_inside(a, b, poly, step: float = 0.01) -> float:
    """Length of segment a-b inside the polygon, by sampling."""
    n = max(1, int(math.dist(a, b) / step))
    poly = list(poly)
    inside = sum(_inside((a[0] + (b[0] - a[0]) * (i + 0.5) / n, a[1] + (b[1] - a[1]) * (i + 0.5) / n), poly)
                 for i in range(n))
    return inside * math.dist(a, b) / n
