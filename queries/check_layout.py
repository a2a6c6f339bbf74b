"""The checker's own evaluation of Simulation statements (True, False, or None = unclear).

Definitions of docs/ground-truth.md, its own code: shared walls from collinear edges, rooms
facing each other measured on the plan (never scene.json's `relations`), building corners by
probing the four quadrants around each vertex, routes as networkx simple paths.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from functools import cached_property
from itertools import islice

import networkx as nx
from shapely import contains_xy
from shapely.geometry import Polygon
from shapely.ops import unary_union

from queries.check_doors import doorways_seen
from queries.check_facts import (Facts, centroid, length_inside, point_polygon_gap, polygon_gap,
                                  segment_polygon_gap)
from queries.check_rules import DEFAULT

GAP = 0.3
NEIGHBOURS = 1.0  # rooms nearer than this without a doorway look side by side: "not adjacent" is unclear
EPS = 1e-6    # thresholds are met within rounding: the generator's own arithmetic differs
PROBE = 0.5   # corner probes: steps in the outline smaller than this are not corners
WALL = 0.95   # ... and each wall of a corner runs on for about a metre
SHORT_WALL = 0.55  # a corner with a shorter wall on a side: never "not in the corner" beside it
OUTERMOST = 15     # degrees of directions in which a corner is the building's farthest point
STRAIGHT = 135     # degrees: "between" bends no more than this from a straight line (not an L)
OUTSIDE_SIDE = 0.5  # a room in the corner has outside wall along this share of both its sides there


def _edges(poly):
    return list(zip(poly, poly[1:] + poly[:1]))


def shared_wall(p, q) -> float:
    """Length of p's boundary running along q's boundary (parallel edges within GAP)."""
    total = 0.0
    for a, b in _edges(list(p)):
        for c, d in _edges(list(q)):
            if a[1] == b[1] and c[1] == d[1] and abs(a[1] - c[1]) <= GAP:      # both east-west
                lo, hi = max(min(a[0], b[0]), min(c[0], d[0])), min(max(a[0], b[0]), max(c[0], d[0]))
            elif a[0] == b[0] and c[0] == d[0] and abs(a[0] - c[0]) <= GAP:    # both north-south
                lo, hi = max(min(a[1], b[1]), min(c[1], d[1])), min(max(a[1], b[1]), max(c[1], d[1]))
            else:
                continue
            total += max(0.0, hi - lo)
    return total


class LayoutCheck:
    def __init__(self, facts: Facts):
        self.f = facts
        scene = facts.scene
        self.poly = {r.label: [tuple(p) for p in r.polygon] for r in scene.rooms}
        self.floor = {r.label: r.floor for r in scene.rooms}
        self.doors = Counter()
        self.door_list = defaultdict(list)
        self.nbrs = defaultdict(set)
        for d in scene.doors:
            a, b = d.rooms
            if "outside" in (a, b):
                continue
            self.doors[frozenset((a, b))] += 1
            self.door_list[frozenset((a, b))].append(d)
            self.nbrs[a].add(b)
            self.nbrs[b].add(a)
        self.outside_doors = sum("outside" in d.rooms for d in scene.doors)
        self._seen_out: dict = {}   # seen_out_of, per room (asked for every pair)
        self._building = {}
        for floor in {r.floor for r in scene.rooms}:
            shapes = [Polygon(r.polygon) for r in scene.rooms if r.floor == floor]
            shapes += [Polygon(s.polygon) for s in facts.spaces if s.floor == floor]
            self._building[floor] = unary_union(shapes).buffer(GAP / 2)

    @cached_property
    def doors_seen(self) -> set[str]:
        return doorways_seen(self.f.files.scene, self.f.files.trajectory)

    def every_door_seen(self) -> bool:
        """Every doorway between two spaces of the building was seen (else one may add a way)."""
        return all(d.id in self.doors_seen for ds in self.door_list.values() for d in ds)

    def adjacent(self, a, b):
        if self.floor[a] != self.floor[b]:
            return None
        door = self.doors[frozenset((a, b))] > 0
        if door and shared_wall(self.poly[a], self.poly[b]) >= 1.0 - EPS:
            # a viewer knows two rooms connect only from a doorway the video shows
            return True if any(d.id in self.doors_seen for d in self.door_list[frozenset((a, b))]) else None
        if not door and polygon_gap(self.poly[a], self.poly[b]) >= NEIGHBOURS - EPS:
            return False
        return None

    def _overlap(self, a, b, rooms=False, any_space=False):
        """Metres (in 5 cm columns) along which a shared hallway or stairs (with `rooms`: a shared
        room; with `any_space`: any hallway, stairs or room of their floor) fills the whole gap
        between the two rooms; negative if their extents do not overlap; None if no such space
        between."""
        best = None
        if any_space:
            between = [r for r in self.poly if self.floor[r] == self.floor[a]]
            between += [s.node for s in self.f.spaces if s.floor == self.floor[a]]
        else:
            between = [h for h in self.nbrs[a] & self.nbrs[b] if (h in self.poly) == rooms]
        for h in sorted(set(between) - {a, b}):
            shape = self._space(h).buffer(GAP / 2)
            pa, pb = self.poly[a], self.poly[b]
            for k in (0, 1):
                j = 1 - k
                a_lo, a_hi = min(p[k] for p in pa), max(p[k] for p in pa)
                b_lo, b_hi = min(p[k] for p in pb), max(p[k] for p in pb)
                lo, hi = (a_hi, b_lo) if a_hi <= b_lo else (b_hi, a_lo)
                if hi - lo < GAP:
                    continue
                o0 = max(min(p[j] for p in pa), min(p[j] for p in pb))
                o1 = min(max(p[j] for p in pa), max(p[j] for p in pb))
                if o1 <= o0:
                    found = o1 - o0
                else:
                    step, n_across = 0.05, max(2, int((hi - lo) / 0.05))
                    cols = [o0 + step * (i + 0.5) for i in range(int((o1 - o0) / step))]
                    across = [lo + (hi - lo) * (i + 0.5) / n_across for i in range(n_across)]
                    full = 0
                    for c in cols:
                        xs = [c] * n_across if k == 1 else across
                        ys = across if k == 1 else [c] * n_across
                        full += bool(contains_xy(shape, xs, ys).all())
                    if full * step <= GAP:   # slivers from the wall-gap buffer are not facing
                        continue
                    found = full * step
                best = found if best is None else max(best, found)
        return best

    def _space(self, node):
        if node in self.poly:
            return Polygon(self.poly[node])
        return next(Polygon(s.polygon) for s in self.f.spaces if s.node == node)

    def opposite(self, a, b):
        """"a is directly opposite to b" holds or fails seen from both rooms; else unclear."""
        one, other = self.opposite_from(a, b), self.opposite_from(b, a)
        return one if one == other else None

    def opposite_from(self, x, y):
        """Directly opposite for a viewer stepping out of x: one floor, no door between them,
        both open onto one hallway that fills the gap between their facing walls over >= 0.5 m
        (measured on the plan), and x's doorway looks straight across at y's wall. Rooms facing
        across a third room are on either side of it: unclear either way."""
        if self.floor[x] != self.floor[y]:
            return False
        if self.doors[frozenset((x, y))]:
            return False
        ahead = y in self.seen_out_of(x)
        overlap = self._overlap(x, y)
        if overlap is not None and overlap >= DEFAULT.opposite_overlap_m - EPS:
            # squarely across: neither faces a third room about as broadly (sample-5-000's
            # laundry faces the study over 1 m, piano room 2 over 2.4 m)
            rivals = [self._overlap(r, z) for r in (x, y) for z in self.poly
                      if z not in (x, y) and self.floor[z] == self.floor[x]]
            if any(o is not None and o > overlap - DEFAULT.opposite_overlap_m for o in rivals):
                return None
            return True if ahead else None
        across_room = self._overlap(x, y, rooms=True)
        if across_room is not None and across_room > EPS:
            return None
        across_any = self._overlap(x, y, any_space=True)   # a stairwell only one opens onto
        if across_any is not None and across_any > EPS:
            return None
        if overlap is None or overlap < EPS:
            return None if ahead else False
        return None

    def seen_out_of(self, x) -> set:
        """Rooms straight ahead of a viewer in x's doorways onto a hallway or stairs: march from
        the doorway's centre square to its wall in 5 cm steps while inside that space; the room
        the line enters within 0.35 m after it (exactly one; not a room whose corner it passes
        by) is what the doorway faces."""
        if x in self._seen_out:
            return self._seen_out[x]
        found = self._seen_out[x] = set()
        for d in self.f.scene.doors:
            if x not in d.rooms:
                continue
            node = d.rooms[0] if d.rooms[1] == x else d.rooms[1]
            if node == "outside" or node in self.poly:
                continue
            shape = self._space(node).buffer(GAP / 2)
            px, py = d.position[0], d.position[1]
            dx, dy = (0.0, 1.0) if d.wall_axis == "x" else (1.0, 0.0)
            if contains_xy(Polygon(self.poly[x]), px + dx * GAP, py + dy * GAP):
                dx, dy = -dx, -dy
            k = 1
            while k < 1200 and contains_xy(shape, px + dx * 0.05 * k, py + dy * 0.05 * k):
                k += 1
            if k == 1:
                continue
            # the wall ahead: within GAP beyond the space the line must be inside the room
            ahead = [(px + dx * 0.05 * (k + j), py + dy * 0.05 * (k + j)) for j in range(1, 8)]
            near = [r for r in self.poly if r != x and self.floor[r] == d.floor
                    and any(contains_xy(Polygon(self.poly[r]), qx, qy) for qx, qy in ahead)]
            if len(near) == 1:
                found.add(near[0])
        return found

    def _building_corner(self, v, floor, reach=WALL):
        """The quadrant (sx, sy) around v that is the building's inside, when exactly one is and
        its two walls run on for `reach` (about a metre): probes along each wall are inside,
        probes just beyond it outside; else None."""
        inside = lambda x, y: bool(contains_xy(self._building[floor], x, y))  # noqa: E731
        quads = [(sx, sy) for sx in (-1, 1) for sy in (-1, 1)
                 if inside(v[0] + sx * PROBE, v[1] + sy * PROBE)]
        if len(quads) != 1:
            return None
        sx, sy = quads[0]
        along_x = inside(v[0] + sx * reach, v[1] + sy * PROBE) and not inside(v[0] + sx * reach, v[1] - sy * PROBE)
        along_y = inside(v[0] + sx * PROBE, v[1] + sy * reach) and not inside(v[0] - sx * PROBE, v[1] + sy * reach)
        return (sx, sy) if along_x and along_y else None

    def _is_building_corner(self, v, floor, reach=WALL) -> bool:
        return self._building_corner(v, floor, reach) is not None

    def _floor_vertices(self, floor) -> list:
        """Every corner of the floor's rooms, hallways and stairs."""
        vertices = [v for r, p in self.poly.items() if self.floor[r] == floor for v in p]
        return vertices + [v for s in self.f.spaces if s.floor == floor for v in s.polygon]

    def _outermost(self, v, floor, quad) -> bool:
        """v sticks out of the building: for OUTERMOST degrees of directions pointing out of
        its corner, no room or hallway corner lies farther that way (a corner at the bottom of
        a notch in the outline has only the notch's own side for it)."""
        sx, sy = quad
        points = [p for p in self._floor_vertices(floor) if math.dist(p, v) > PROBE]
        clear = 0
        for deg in range(91):
            ux, uy = -sx * math.cos(math.radians(deg)), -sy * math.sin(math.radians(deg))
            clear += all((p[0] - v[0]) * ux + (p[1] - v[1]) * uy <= GAP for p in points)
        return clear >= OUTERMOST

    def _outside_along(self, a, v, floor, step, out) -> float:
        """Share of room a's wall running from its corner v in direction `step` (a unit axis
        vector) that has the outside right behind it (PROBE beyond, direction `out`), probed
        every 5 cm for as long as it is the room's wall (inside the room on one side, not on
        the other)."""
        room = Polygon(self.poly[a])
        on_wall = lambda t: (contains_xy(room, v[0] + step[0] * t - out[0] * 0.05, v[1] + step[1] * t - out[1] * 0.05)  # noqa: E731
                             and not contains_xy(room, v[0] + step[0] * t + out[0] * 0.05, v[1] + step[1] * t + out[1] * 0.05))
        along = []
        t = 0.1
        while on_wall(t) and t < 100:
            along.append(t)
            t += 0.05
        if not along:
            return 0.0
        return sum(not contains_xy(self._building[floor], v[0] + step[0] * t + out[0] * PROBE,
                                   v[1] + step[1] * t + out[1] * PROBE) for t in along) / len(along)

    def corner(self, a):
        floor = self.floor[a]
        touching = False
        for v in self.poly[a]:
            quad = self._building_corner(v, floor)
            if quad is not None and self._outermost(v, floor, quad):
                touching = True
                sx, sy = quad
                if min(self._outside_along(a, v, floor, (sx, 0), (0, -sy)),
                       self._outside_along(a, v, floor, (0, sy), (-sx, 0))) >= OUTSIDE_SIDE - EPS:
                    return True
        if touching:   # a corner room whose side is mostly inside wall: a corner only on the plan
            return None
        vertices = self._floor_vertices(floor)
        # corners whose walls run on for only half a metre count too: to some viewers a corner
        corners = [v for v in vertices if self._is_building_corner(v, floor, reach=SHORT_WALL)]
        if all(point_polygon_gap(v, self.poly[a]) >= 1.0 - EPS for v in corners):
            return False
        return None

    def between(self, a, b, c):
        if len({self.floor[a], self.floor[b], self.floor[c]}) > 1 or len({a, b, c}) < 3:
            return None
        cb, cc, ca = centroid(self.poly[b]), centroid(self.poly[c]), centroid(self.poly[a])
        dx, dy = cc[0] - cb[0], cc[1] - cb[1]
        t = ((ca[0] - cb[0]) * dx + (ca[1] - cb[1]) * dy) / (dx * dx + dy * dy)
        # through the room for a metre and a quarter of the way, not across a corner of it
        through = length_inside(cb, cc, self.poly[a])
        # and on the way: B and C on either side of it, not one south and one east of it
        ab, ac, bc = math.dist(ca, cb), math.dist(ca, cc), math.hypot(dx, dy)
        bend = math.degrees(math.acos(max(-1.0, min(1.0, (ab * ab + ac * ac - bc * bc) / max(2 * ab * ac, 1e-9)))))
        if (through >= max(1.0, 0.25 * bc) - EPS and 0.2 - EPS <= t <= 0.8 + EPS
                and bend >= STRAIGHT - EPS):
            return True
        if segment_polygon_gap(cb, cc, self.poly[a]) >= 1.0 - EPS:
            return False
        return None

    def routes(self, a, b):
        """Simple routes a -> b through doorways (networkx); None when the count is unclear."""
        if self.outside_doors >= 2:
            return None
        graph = nx.Graph((x, y) for x, ys in self.nbrs.items() for y in ys)
        if a not in graph or b not in graph:
            return []
        found = [list(r) for r in islice(nx.all_simple_paths(graph, a, b), 13)]
        if len(found) > 12 or any(self.doors[frozenset(p)] > 1 for r in found for p in zip(r, r[1:])):
            return None
        return sorted(found)

    def only_one_way(self, a, b):
        """One route: true; two or more routes without a shortcut (a doorway between two of a
        route's non-consecutive stops), as a person counts ways: false; else unclear. Only when
        every doorway was seen."""
        routes = self.routes(a, b)
        if not routes or not self.every_door_seen():
            return None
        if len(routes) == 1:
            return True
        direct = [r for r in routes
                  if all(r[j] not in self.nbrs[r[i]] for i in range(len(r)) for j in range(i + 2, len(r)))]
        return False if len(direct) >= 2 else None
