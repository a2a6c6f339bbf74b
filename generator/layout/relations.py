"""Relations re-derived from finished geometry (a scene dict as in scene.json).

This is the independent check of the layout: it knows nothing of how the plan was searched,
only SPEC section 2's definitions, applied to polygons and doors.
"""

from __future__ import annotations

from itertools import combinations

import networkx as nx
from shapely.geometry import Point, Polygon, box

from generator.layout.geometry import contact_segments
from generator.spec.scenario import Scenario, pair_key

MIN_SHARED_WALL = 1.0
MIN_OPPOSITE_OVERLAP = 0.5
MIN_VERTICAL_SHARE = 0.5
TOL = 1e-6


def _spaces(scene: dict) -> dict[str, tuple[int, Polygon]]:
    spaces = {r["label"]: (r["floor"], Polygon(r["polygon"])) for r in scene["rooms"]}
    spaces.update({f"hallway:{h['id']}": (h["floor"], Polygon(h["polygon"])) for h in scene["hallways"]})
    return spaces


def _doors_between(scene: dict) -> dict[frozenset, list[dict]]:
    found: dict[frozenset, list[dict]] = {}
    for door in scene["doors"]:
        found.setdefault(frozenset(door["rooms"]), []).append(door)
    return found


def _door_in_wall(door: dict, a: Polygon, b: Polygon) -> bool:
    point = Point(door["position"])
    return any(seg.distance(point) < TOL and seg.length + TOL >= door["width"] for seg in contact_segments(a, b))


def adjacent_pairs(scene: dict) -> set[tuple[str, str]]:
    """Same floor, a shared wall of at least 1.0 m, and a doorway in it."""
    spaces, doors = _spaces(scene), _doors_between(scene)
    rooms = [r["label"] for r in scene["rooms"]]
    found = set()
    for a, b in combinations(rooms, 2):
        (fa, pa), (fb, pb) = spaces[a], spaces[b]
        if fa != fb:
            continue
        walls = contact_segments(pa, pb)
        if not walls or max(s.length for s in walls) < MIN_SHARED_WALL - TOL:
            continue
        if any(_door_in_wall(d, pa, pb) for d in doors.get(frozenset((a, b)), [])):
            found.add(pair_key(a, b))
    return found


def _openings(scene: dict) -> dict[str, set[str]]:
    """space -> rooms that have a doorway into it."""
    spaces = _spaces(scene)
    opens: dict[str, set[str]] = {}
    for door in scene["doors"]:
        a, b = door["rooms"]
        if a in spaces and b in spaces and _door_in_wall(door, spaces[a][1], spaces[b][1]):
            opens.setdefault(a, set()).add(b)
            opens.setdefault(b, set()).add(a)
    return opens


_FACING = {("x", -1): "north", ("x", 1): "south", ("y", -1): "east", ("y", 1): "west"}


def opposite_facts(scene: dict) -> list[dict]:
    """Every (a, b, space) where rooms a and b both open onto `space`, have parallel walls
    facing each other across it, and those walls' projections overlap by >= 0.5 m with the
    strip between them inside the space. `a_faces` is the direction a looks into the space."""
    spaces, opens = _spaces(scene), _openings(scene)
    adjacent = adjacent_pairs(scene)
    rooms = sorted(r["label"] for r in scene["rooms"])
    facts = []
    for space, (floor, poly) in sorted(spaces.items()):
        members = sorted(r for r in opens.get(space, set()) if r in rooms and r != space and spaces[r][0] == floor)
        for a, b in combinations(members, 2):
            if pair_key(a, b) in adjacent:
                continue
            fact = _facing(a, spaces[a][1], b, spaces[b][1], poly)
            if fact:
                facts.append({"a": a, "b": b, "space": space, "a_faces": fact})
    return facts


def _facing(a: str, pa: Polygon, b: str, pb: Polygon, space: Polygon) -> str | None:
    inside = space.buffer(TOL)
    for wa in contact_segments(pa, space):
        for wb in contact_segments(pb, space):
            (a0x, a0y), (a1x, a1y) = wa.coords[0], wa.coords[-1]
            (b0x, b0y), (b1x, b1y) = wb.coords[0], wb.coords[-1]
            if abs(a0y - a1y) < TOL and abs(b0y - b1y) < TOL and abs(a0y - b0y) > TOL:
                axis, at_a, at_b = "x", a0y, b0y
                lo = max(min(a0x, a1x), min(b0x, b1x))
                hi = min(max(a0x, a1x), max(b0x, b1x))
                a_side = 1 if pa.centroid.y > at_a else -1  # +1: a lies north of its wall
                b_side = 1 if pb.centroid.y > at_b else -1
            elif abs(a0x - a1x) < TOL and abs(b0x - b1x) < TOL and abs(a0x - b0x) > TOL:
                axis, at_a, at_b = "y", a0x, b0x
                lo = max(min(a0y, a1y), min(b0y, b1y))
                hi = min(max(a0y, a1y), max(b0y, b1y))
                a_side = 1 if pa.centroid.x > at_a else -1
                b_side = 1 if pb.centroid.x > at_b else -1
            else:
                continue
            if hi - lo < MIN_OPPOSITE_OVERLAP - TOL:
                continue
            # facing: a on the low side looking up and b on the high side looking down, or reverse
            if not ((at_a < at_b and a_side == -1 and b_side == 1) or (at_a > at_b and a_side == 1 and b_side == -1)):
                continue
            strip = box(lo, min(at_a, at_b), hi, max(at_a, at_b)) if axis == "x" else box(min(at_a, at_b), lo, max(at_a, at_b), hi)
            if inside.contains(strip):
                return _FACING[(axis, a_side)]
    return None


def vertical_pairs(scene: dict) -> set[tuple[str, str]]:
    """Consecutive floors, footprints overlapping by >= 50% of the smaller room."""
    spaces = _spaces(scene)
    rooms = [r["label"] for r in scene["rooms"]]
    found = set()
    for a, b in combinations(rooms, 2):
        (fa, pa), (fb, pb) = spaces[a], spaces[b]
        if abs(fa - fb) == 1 and pa.intersection(pb).area >= MIN_VERTICAL_SHARE * min(pa.area, pb.area) - TOL:
            found.add(pair_key(a, b))
    return found


def realized_relations(scene: dict) -> dict:
    opposite = sorted({pair_key(f["a"], f["b"]) for f in opposite_facts(scene)})
    return {
        "adjacent": [list(p) for p in sorted(adjacent_pairs(scene))],
        "opposite": [list(p) for p in opposite],
        "vertical": [list(p) for p in sorted(vertical_pairs(scene))],
    }


def walk_graph(scene: dict) -> nx.Graph:
    """Spaces joined by doorways; stairwells join the hallways they open onto, floor to floor."""
    g = nx.Graph()
    spaces = _spaces(scene)
    g.add_nodes_from(spaces)
    for space, others in _openings(scene).items():
        for other in others:
            g.add_edge(space, other)
    for k, stair in enumerate(scene.get("stairs", [])):
        node = f"stairs:{k}"
        poly = Polygon(stair["polygon"])
        for name, (floor, space) in spaces.items():
            if name.startswith("hallway:") and floor in stair["floors"]:
                if any(s.length >= MIN_SHARED_WALL - TOL for s in contact_segments(poly, space)):
                    g.add_edge(node, name)
    return g


def check_scene(scenario: Scenario, scene: dict) -> list[str]:
    """Problems with a realized scene against its spec; empty when every relation holds."""
    problems = []
    adjacent, vertical = adjacent_pairs(scene), vertical_pairs(scene)
    facts = opposite_facts(scene)
    for a, b in scenario.relations.adjacent:
        if (a, b) not in adjacent:
            problems.append(f"adjacent {a} - {b} does not hold (needs a shared wall >= 1.0 m with a doorway)")
    for a, b in scenario.relations.vertical:
        if (a, b) not in vertical:
            problems.append(f"vertical {a} - {b} does not hold (needs >= 50% footprint overlap on consecutive floors)")
    for group in scenario.relations.opposite:
        if not _group_holds(group.side_a, group.side_b, facts):
            problems.append(f"opposite {list(group.side_a)} - {list(group.side_b)} does not hold")
    g = walk_graph(scene)
    rooms = {r["label"] for r in scene["rooms"]}
    for a, b in zip(scenario.trajectory, scenario.trajectory[1:]):
        allowed = g.subgraph([n for n in g if n not in rooms or n in (a, b)])
        if not nx.has_path(allowed, a, b):
            problems.append(f"trajectory {a} -> {b}: no way through hallways/stairs only")
    return problems


_OPPOSITE_DIR = {"north": "south", "south": "north", "east": "west", "west": "east"}


def _group_holds(side_a: tuple[str, ...], side_b: tuple[str, ...], facts: list[dict]) -> bool:
    """One shared space with all of side_a facing one way and all of side_b the other, every
    room opposite at least one room of the other group."""
    oriented = []  # (room, other, space, direction room faces)
    for f in facts:
        oriented.append((f["a"], f["b"], f["space"], f["a_faces"]))
        oriented.append((f["b"], f["a"], f["space"], _OPPOSITE_DIR[f["a_faces"]]))
    for space in {f["space"] for f in facts}:
        for direction in _OPPOSITE_DIR:
            ok_a = all(any(r == a and o in side_b and s == space and d == direction for r, o, s, d in oriented) for a in side_a)
            ok_b = all(any(r == b and o in side_a and s == space and d == _OPPOSITE_DIR[direction] for r, o, s, d in oriented) for b in side_b)
            if ok_a and ok_b:
                return True
    return False
