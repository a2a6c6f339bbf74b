"""The Route Plan's walking grid: a room's free space (furniture grown by the robot's clearance),
an 8-connected occupancy graph on it, A* legs pulled taut, and the places "by" a thing one walks
up to (docs/ground-truth.md "Route plan")."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import shapely
import shapely.prepared
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from queries.geometry import FLAT_M, heading_deg, wrap
from queries.model import SceneObject, supports_under
from queries.params import Thresholds

NON_BLOCKING_SUPPORT = ("ceiling", "wall", "window")
NEAR_ON_FURNITURE = 1.0  # by a thing on furniture: by the furniture, within this of the thing


def base_of(obj: SceneObject, by_id: dict[str, SceneObject]) -> SceneObject | None:
    """What one walks up to for `obj`: the object itself when it stands on the floor or hangs on
    a wall, else the furniture under it (followed down); None for ceiling things and for flat
    things on the floor."""
    obj = ([obj] + supports_under(obj, by_id))[-1]
    if obj.support == "floor" and obj.size[2] < FLAT_M:
        return None
    return obj if obj.support in ("floor", "wall", "window") else None


# "beginning at the picture" where a desk stands before the picture: a viewer may stand before
# the desk, facing the picture over it, rather than in the gap beside the desk's end where the
# free floor "by" it is (person check of scenario-06: "beginning at the picture facing the desk"
# read as west of the desk facing east, "turn back"; the key stood north of it facing south,
# "turn right"). Such a start's first turn must also read the same from before the furniture:
# FRONT_BLOCKED of the strip FRONT_DEPTH_M before its face covered counts as furniture before
# it, and the free places straight before it up to FRONT_REACH_M out are where one may stand.
FRONT_DEPTH_M = 0.6
FRONT_BLOCKED = 0.5
FRONT_REACH_M = 1.6


def blocks(obj: SceneObject) -> bool:
    """Floor furniture (and things standing on it) blocks walking; wall/ceiling items and flat
    things on the floor (carpets) don't."""
    return obj.support not in NON_BLOCKING_SUPPORT and obj.size[2] >= FLAT_M


def free_space(room_polygon, objects, clearance: float):
    room = Polygon(room_polygon).buffer(-clearance, join_style="mitre")
    obstacles = [Polygon(o.footprint).buffer(clearance) for o in objects if blocks(o)]
    return room.difference(unary_union(obstacles)) if obstacles else room


def occupancy_graph(free, cell: float) -> nx.Graph:
    """8-connected grid graph of free cell centres (diagonals only where both sides are free)."""
    minx, miny, maxx, maxy = free.bounds
    xs = np.arange(minx + cell / 2, maxx, cell)
    ys = np.arange(miny + cell / 2, maxy, cell)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    ok = shapely.contains_xy(free, gx, gy)
    graph = nx.Graph()
    for i, j in zip(*np.nonzero(ok)):
        graph.add_node((int(i), int(j)), xy=(float(xs[i]), float(ys[j])))
    for (i, j) in list(graph.nodes):
        for di, dj in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = (i + di, j + dj)
            if n not in graph:
                continue
            if di and dj and ((i + di, j) not in graph or (i, j + dj) not in graph):
                continue
            graph.add_edge((i, j), n, weight=cell * math.hypot(di, dj))
    return graph


def cells_beside(graph: nx.Graph, shape, reach: float, near=None, near_m: float = 0.0) -> list:
    """Free cells within `reach` of a footprint (anywhere "by" it) and, with `near`, within
    `near_m` of that shape too. Empty when it cannot be walked up to: then it is no stop of a
    route (the checker would refuse it)."""
    ranked = sorted((shape.distance(Point(xy)), node) for node, xy in graph.nodes(data="xy")
                    if isinstance(node, tuple))
    return [node for d, node in ranked if d <= reach
            and (near is None or near.distance(Point(graph.nodes[node]["xy"])) <= near_m)]


def astar_between(graph: nx.Graph, sources: list, targets: list) -> list | None:
    """A* cell path from any source cell to any target cell: virtual end nodes joined at no
    cost let the walk leave the start object on the side that faces the goal."""
    if not sources or not targets:
        return None
    xy = nx.get_node_attributes(graph, "xy")
    graph.add_edges_from((("src", n) for n in sources), weight=0.0)
    graph.add_edges_from((("dst", n) for n in targets), weight=0.0)
    h = lambda u, v: 0.0 if isinstance(u, str) or isinstance(v, str) else math.dist(xy[u], xy[v])  # noqa: E731
    try:
        return nx.astar_path(graph, "src", "dst", heuristic=h, weight="weight")[1:-1]
    except nx.NetworkXNoPath:
        return None
    finally:
        graph.remove_nodes_from(("src", "dst"))


def pull_taut(points, walkable) -> list[tuple[float, float]]:
    """Greedy line-of-sight shortcutting: the fewest corners the walk needs."""
    out, i = [points[0]], 0
    while i < len(points) - 1:
        j = len(points) - 1
        while j > i + 1 and not walkable.covers(LineString([points[i], points[j]])):
            j -= 1
        out.append(points[j])
        i = j
    return out


def classify_turn(angle: float, th: Thresholds) -> str | None:
    """'none', 'turn left', 'turn right', 'turn back', or None inside a margin band."""
    a = abs(angle)
    if a <= th.turn_none_deg:
        return "none"
    if th.turn_side_deg[0] <= a <= th.turn_side_deg[1]:
        return "turn left" if angle > 0 else "turn right"
    if a >= th.turn_back_deg:
        return "turn back"
    return None


def turns_along(points, facing_xy, th: Thresholds) -> list[str | None]:
    """The turn before each leg of the polyline `points`, the first from facing p0 -> facing_xy."""
    headings = [heading_deg(points[0], facing_xy)]
    headings += [heading_deg(p, q) for p, q in zip(points, points[1:])]
    return [classify_turn(wrap(b - a), th) for a, b in zip(headings, headings[1:])]


def drop_straight_corners(points, th: Thresholds, walkable) -> list:
    """Remove corners where the path bends less than a turn and the shortcut stays walkable."""
    pts = list(points)
    changed = True
    while changed and len(pts) > 2:
        changed = False
        for k in range(1, len(pts) - 1):
            bend = wrap(heading_deg(pts[k], pts[k + 1]) - heading_deg(pts[k - 1], pts[k]))
            if abs(bend) <= th.turn_none_deg and walkable.covers(LineString([pts[k - 1], pts[k + 1]])):
                del pts[k]
                changed = True
                break
    return pts



class RoomPlanner:
    """Occupancy grid of one room and straight A* legs between its objects."""

    def __init__(self, polygon, objects, th: Thresholds, by_id: dict[str, SceneObject]):
        self._build(free_space(polygon, objects, th.clearance_m), th, by_id)

    def _build(self, free, th: Thresholds, by_id: dict[str, SceneObject]):
        self.th = th
        self.by_id = by_id
        self.free = free
        self.graph = occupancy_graph(self.free, th.grid_cell_m)
        self.walkable = shapely.prepared.prep(self.free.buffer(1e-3))  # line-of-sight tests
        self.reach = th.clearance_m + 1.5 * th.grid_cell_m
        self._beside: dict[str, list] = {}

    def beside(self, obj: SceneObject) -> list:
        if obj.id not in self._beside:
            base, cells = base_of(obj, self.by_id), []
            for reach in (self.reach, self.th.far_stand_by_m):   # far: a desk boxed in behind its chair
                if base is None or cells:
                    break
                near = None if base is obj else Polygon(obj.footprint)
                cells = cells_beside(self.graph, Polygon(base.footprint), reach, near, NEAR_ON_FURNITURE)
            self._beside[obj.id] = cells
        return self._beside[obj.id]

    def free_in(self, room: str):
        """The free space one stands in when in `room` (here the one room's)."""
        return self.free

    def xy(self, node) -> tuple[float, float]:
        return self.graph.nodes[node]["xy"]

    def _taut(self, cells) -> list:
        points = pull_taut([self.xy(n) for n in cells], self.walkable)
        return drop_straight_corners(points, self.th, self.walkable)

    def shortest(self, start: SceneObject, goal: SceneObject) -> list | None:
        """Taut shortest walk from beside start to beside goal (points), None if none."""
        cells = astar_between(self.graph, self.beside(start), self.beside(goal))
        if not cells:
            return None
        return self._taut(cells)

    def legs(self, stops: list[SceneObject]) -> tuple[list | None, str]:
        """Waypoints of a walk that goes straight from each stop to the next (each leg its own
        A*, starting where the last one ended); (None, why) when a leg is not one straight walk."""
        sources, points = self.beside(stops[0]), []
        for stop in stops[1:]:
            cells = astar_between(self.graph, sources, self.beside(stop))
            if not cells:
                return None, "no walkable route"
            if len(cells) < 2:
                return None, "two stops side by side"
            taut = self._taut(cells)
            if math.dist(taut[0], taut[-1]) < self.th.min_leg_m:
                return None, "two stops side by side"   # a walk this short has no direction
            if len(taut) != 2:
                return None, "a leg needs a turn the steps do not ask"
            points = points or [taut[0]]
            points.append(taut[-1])
            sources = [cells[-1]]
        return points, ""


def path_length(points) -> float:
    return sum(math.dist(p, q) for p, q in zip(points, points[1:]))


def stand_area_points(plan: RoomPlanner, obj: SceneObject, step: float = 0.05) -> list[tuple[float, float]]:
    """Every place "by" `obj` on a `step` lattice (docs: within stand_by_m of what one walks up
    to, within 1 m of the thing when it rests on furniture, far_stand_by_m where nothing that near
    is free), not only the A* grid's cells: by a window behind a desk the grid had one cell in a
    corner, while a person also stands in the gap at the window's other end."""
    base = base_of(obj, plan.by_id)
    if base is None:
        return []
    shape, near = Polygon(base.footprint), (None if base is obj else Polygon(obj.footprint))
    for reach in (plan.th.stand_by_m, plan.th.far_stand_by_m):
        area = plan.free_in(obj.room).intersection(shape.buffer(reach))
        if near is not None:
            area = area.intersection(near.buffer(NEAR_ON_FURNITURE))
        if area.is_empty:
            continue
        points = _lattice(area, step, boundary=True)
        if points:
            return points
    return []


def _lattice(area, step: float, boundary: bool) -> list[tuple[float, float]]:
    """The points of a `step` lattice over `area`'s bounds that lie inside it (or, with
    `boundary`, on its edge)."""
    minx, miny, maxx, maxy = area.bounds
    gx, gy = np.meshgrid(np.arange(minx, maxx + step, step), np.arange(miny, maxy + step, step))
    inside = shapely.contains_xy(area, gx, gy)
    if boundary:
        inside |= shapely.dwithin(area.boundary, shapely.points(gx, gy), 1e-9)
    return [(float(x), float(y)) for x, y in zip(gx[inside], gy[inside])]


def _front_strip(obj: SceneObject, room, depth: float) -> Polygon:
    """The strip before a thing on a wall: its width along the wall, `depth` out into the room."""
    shape = Polygon(obj.footprint)
    corners = np.asarray(shape.minimum_rotated_rectangle.exterior.coords)[:4]
    sides = np.roll(corners, -1, axis=0) - corners
    k = int(np.argmax(np.hypot(sides[:, 0], sides[:, 1])))
    half = sides[k] / 2
    normal = np.array([-half[1], half[0]]) / np.hypot(*half)
    centre = np.array(shape.centroid.coords[0])
    if not room.contains(Point(*(centre + 0.3 * normal))):
        normal = -normal
    return Polygon([centre - half, centre + half, centre + half + depth * normal, centre - half + depth * normal])


def before_furniture_points(plan: RoomPlanner, obj: SceneObject, room_polygon,
                            step: float = 0.05) -> list[tuple[float, float]]:
    """For a thing on a wall with floor furniture before it (FRONT_BLOCKED of its front strip):
    the free places straight before it, beyond the furniture, up to FRONT_REACH_M out; else []."""
    if obj.support not in ("wall", "window"):
        return []
    room = Polygon(room_polygon)
    near = _front_strip(obj, room, FRONT_DEPTH_M)
    furniture = [Polygon(o.footprint) for o in plan.by_id.values()
                 if o.room == obj.room and o.support == "floor" and o.size[2] >= FLAT_M]
    if not furniture or near.intersection(unary_union(furniture)).area < FRONT_BLOCKED * near.area:
        return []
    area = _front_strip(obj, room, FRONT_REACH_M).intersection(plan.free_in(obj.room))
    return [] if area.is_empty else _lattice(area, step, boundary=False)
