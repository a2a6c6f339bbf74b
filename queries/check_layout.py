"""The checker's own evaluation of Simulation statements (True, False, or None = unclear).

Same definitions as queries/layout_facts.py, different code: shared walls from collinear
edges, building corners by probing the four quadrants around each vertex, routes by DFS.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from shapely import contains_xy
from shapely.geometry import Polygon
from shapely.ops import unary_union

from queries.check_facts import Facts, centroid, length_inside, polygon_gap, segment_polygon_gap

GAP = 0.3
PROBE = 0.25


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
        self.poly = {r.label: list(r.polygon) for r in scene.rooms}
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
        self.claimed = {frozenset(p) for p in scene.relations.get("opposite", [])}
        self._building = {}
        for floor in {r.floor for r in scene.rooms}:
            shapes = [Polygon(r.polygon) for r in scene.rooms if r.floor == floor]
            shapes += [Polygon(s.polygon) for s in scene.spaces if s.floor == floor]
            self._building[floor] = unary_union(shapes).buffer(GAP / 2)

    def adjacent(self, a, b):
        if self.floor[a] != self.floor[b]:
            return None
        door = self.doors[frozenset((a, b))] > 0
        if door and shared_wall(self.poly[a], self.poly[b]) >= 1.0:
            return True
        if not door and polygon_gap(self.poly[a], self.poly[b]) > GAP:
            return False
        return None

    def _overlap(self, a, b):
        best = None
        for h in (self.nbrs[a] & self.nbrs[b]) - {a, b}:
            for da in self.door_list[frozenset((a, h))]:
                for db in self.door_list[frozenset((b, h))]:
                    if da.wall_axis != db.wall_axis:
                        continue
                    k = 1 if da.wall_axis == "x" else 0
                    mid = (da.position[k] + db.position[k]) / 2
                    if (centroid(self.poly[a])[k] - mid) * (centroid(self.poly[b])[k] - mid) >= 0:
                        continue
                    j = 1 - k
                    lo = max(min(p[j] for p in self.poly[a]), min(p[j] for p in self.poly[b]))
                    hi = min(max(p[j] for p in self.poly[a]), max(p[j] for p in self.poly[b]))
                    best = hi - lo if best is None else max(best, hi - lo)
        return best

    def opposite(self, a, b):
        if self.floor[a] != self.floor[b]:
            return False
        claimed = frozenset((a, b)) in self.claimed
        if self.doors[frozenset((a, b))]:
            return None if claimed else False
        overlap = self._overlap(a, b)
        if claimed and overlap is not None and overlap >= 0.5:
            return True
        if not claimed and (overlap is None or overlap < 0):
            return False
        return None

    def _is_building_corner(self, v, floor) -> bool:
        xs = [v[0] + dx for dx in (-PROBE, PROBE) for _ in (0, 1)]
        ys = [v[1] + dy for _ in (0, 1) for dy in (-PROBE, PROBE)]
        return int(contains_xy(self._building[floor], xs, ys).sum()) == 1

    def corner(self, a):
        floor = self.floor[a]
        if any(self._is_building_corner(v, floor) for v in self.poly[a]):
            return True
        vertices = [v for r, p in self.poly.items() if self.floor[r] == floor for v in p]
        vertices += [v for s in self.f.scene.spaces if s.floor == floor for v in s.polygon]
        corners = [v for v in vertices if self._is_building_corner(v, floor)]
        if all(polygon_gap([v, v, v], self.poly[a]) >= 1.0 for v in corners):
            return False
        return None

    def between(self, a, b, c):
        if len({self.floor[a], self.floor[b], self.floor[c]}) > 1 or len({a, b, c}) < 3:
            return None
        cb, cc, ca = centroid(self.poly[b]), centroid(self.poly[c]), centroid(self.poly[a])
        dx, dy = cc[0] - cb[0], cc[1] - cb[1]
        t = ((ca[0] - cb[0]) * dx + (ca[1] - cb[1]) * dy) / (dx * dx + dy * dy)
        if length_inside(cb, cc, self.poly[a]) >= 1.0 and 0.2 <= t <= 0.8:
            return True
        if segment_polygon_gap(cb, cc, self.poly[a]) >= 1.0:
            return False
        return None

    def routes(self, a, b):
        """Simple routes a -> b by DFS; None when the count is unclear."""
        if self.outside_doors >= 2:
            return None
        found = []

        def walk(node, path):
            if len(found) > 12:
                return
            if node == b:
                found.append(list(path))
                return
            for n in sorted(self.nbrs[node]):
                if n not in path:
                    path.append(n)
                    walk(n, path)
                    path.pop()

        walk(a, [a])
        if len(found) > 12 or any(self.doors[frozenset(p)] > 1 for r in found for p in zip(r, r[1:])):
            return None
        return found
