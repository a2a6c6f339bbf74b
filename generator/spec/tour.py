"""A short visiting order over a laid-out plan, for sampled specs.

A person filming a home walks it in an order that does not cross the corridor back and
forth; the sampler's first, random order did (about a quarter of a sampled walk's frames were
corridor). Distances run from room centre to room centre through the plan's doorways and
stairs (a graph of doorway points, networkx); the order is the shortest path over each
floor's rooms (Held-Karp), floor by floor as before, keeping the first room (it lies on the
plan's south edge, where the walk starts) and ending each floor but the top one by the stairs.
"""

from __future__ import annotations

import itertools
import math

import networkx as nx
from shapely.geometry import Point, Polygon

EXACT_UP_TO = 12  # rooms on a floor ordered exactly; beyond, nearest neighbour first
STAIR_TOUCH_M = 0.3  # a stair end this near a hallway opens onto it


def _graph(scene: dict) -> nx.Graph:
    """Nodes: each room's centre, each doorway, each stair end; edges: straight walks across
    one space between its centre and doorways (rooms), or between its doorways (hallways)."""
    graph = nx.Graph()
    spaces: dict[str, list] = {}
    for room in scene["rooms"]:
        c = Polygon(room["polygon"]).centroid
        graph.add_node(("room", room["label"]), xy=(c.x, c.y))
        spaces.setdefault(room["label"], []).append(("room", room["label"]))
    for door in scene["doors"]:
        node = ("door", door["id"])
        graph.add_node(node, xy=tuple(door["position"]))
        for space in door["rooms"]:
            spaces.setdefault(space, []).append(node)
    for stair in scene.get("stairs", []):
        ends = {stair["floors"][0]: stair["bottom"], stair["floors"][-1]: stair["top"]}
        for floor, xy in ends.items():
            node = ("stairs", stair["id"], floor)
            graph.add_node(node, xy=tuple(xy))
            for hall in scene["hallways"]:
                if hall["floor"] == floor and Polygon(hall["polygon"]).distance(Point(xy)) <= STAIR_TOUCH_M:
                    spaces.setdefault(f"hallway:{hall['id']}", []).append(node)
        a, b = (("stairs", stair["id"], f) for f in (stair["floors"][0], stair["floors"][-1]))
        graph.add_edge(a, b, weight=math.dist(*ends.values()))
    for nodes in spaces.values():
        for u, v in itertools.combinations(nodes, 2):
            graph.add_edge(u, v, weight=math.dist(graph.nodes[u]["xy"], graph.nodes[v]["xy"]))
    return graph


def _order(start, rooms: list, end, dist) -> list:
    """`rooms` in the order of the shortest path start -> all of them (-> end, when given)."""
    last = (lambda r: dist(r, end)) if end is not None else (lambda r: 0.0)
    if len(rooms) > EXACT_UP_TO:  # nearest neighbour: good enough, and quick
        order, here, left = [], start, list(rooms)
        while left:
            here = min(left, key=lambda r: (dist(here, r), r))
            order.append(here)
            left.remove(here)
        return order
    n = len(rooms)
    best = {(1 << k, k): (dist(start, rooms[k]), None) for k in range(n)}
    for size in range(2, n + 1):
        for subset in itertools.combinations(range(n), size):
            mask = sum(1 << k for k in subset)
            for k in subset:
                prev_mask = mask & ~(1 << k)
                best[mask, k] = min((best[prev_mask, j][0] + dist(rooms[j], rooms[k]), j)
                                    for j in subset if j != k)
    full = (1 << n) - 1
    k = min(range(n), key=lambda k: (best[full, k][0] + last(rooms[k]), k))
    order, mask = [], full
    while k is not None:
        order.append(rooms[k])
        mask, k = mask & ~(1 << k), best[mask, k][1]
    return order[::-1]


def short_tour(scene: dict, trajectory: list[str]) -> list[str]:
    """The rooms of `trajectory`, reordered for a short walk over `scene`'s plan: floor by
    floor (in the order the trajectory climbs them), its first room kept first."""
    graph = _graph(scene)
    floor_of = {r["label"]: r["floor"] for r in scene["rooms"]}
    lengths = {}

    def node(x):
        return x if isinstance(x, tuple) else ("room", x)

    def dist(a, b) -> float:
        key = (node(a), node(b))
        if key not in lengths:
            try:
                lengths[key] = nx.dijkstra_path_length(graph, *key)
            except nx.NetworkXNoPath:
                lengths[key] = math.inf
        return lengths[key]

    floors = list(dict.fromkeys(floor_of[r] for r in trajectory))
    arrive = {s["floors"][-1]: ("stairs", s["id"], s["floors"][-1]) for s in scene.get("stairs", [])}
    leave = {s["floors"][0]: ("stairs", s["id"], s["floors"][0]) for s in scene.get("stairs", [])}
    order: list[str] = []
    for i, floor in enumerate(floors):
        rooms = [r for r in trajectory if floor_of[r] == floor]
        if i == 0:
            start, rooms = rooms[0], rooms[1:]
            order.append(start)
        else:
            start = arrive.get(floor, order[-1])
        order += _order(start, rooms, leave.get(floor) if i + 1 < len(floors) else None, dist)
    return order
