"""Geometric checks of a laid-out scene, straight from SPEC section 2's definitions."""

from itertools import combinations

from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from generator.layout import relations


def polygons(scene, floor):
    found = [(r["label"], Polygon(r["polygon"])) for r in scene["rooms"] if r["floor"] == floor]
    found += [(h["id"], Polygon(h["polygon"])) for h in scene["hallways"] if h["floor"] == floor]
    found += [("stairs", Polygon(s["polygon"])) for s in scene["stairs"][:1]]
    return found


def assert_plan_is_sound(scenario, scene):
    floors = sorted({r["floor"] for r in scene["rooms"]})
    rooms = {r["label"]: r for r in scene["rooms"]}
    assert set(rooms) == set(scenario.rooms)
    for floor in floors:
        spaces = polygons(scene, floor)
        for (a, pa), (b, pb) in combinations(spaces, 2):
            assert pa.intersection(pb).area < 1e-6, f"{a} overlaps {b} on floor {floor}"
    for label, room in rooms.items():
        poly = Polygon(room["polygon"])
        assert poly.is_valid and poly.area > 2.0
        # rectilinear: every edge runs along x or y
        pts = room["polygon"] + room["polygon"][:1]
        assert all(abs(p[0] - q[0]) < 1e-9 or abs(p[1] - q[1]) < 1e-9 for p, q in zip(pts, pts[1:]))
        wanted = scenario.rooms[label].area
        if wanted:
            assert abs(poly.area - wanted) <= 0.1 * wanted, f"{label}: {poly.area:.1f} m2 for {wanted} asked"
    # the first room sits on the plan's south edge and the start pose is inside it, facing north
    first = Polygon(rooms[scenario.trajectory[0]]["polygon"])
    south = min(Polygon(r["polygon"]).bounds[1] for r in scene["rooms"] + scene["hallways"] + scene["stairs"])
    assert abs(first.bounds[1] - south) < 1e-6
    assert first.contains(Point(scene["start"]["position"]))
    assert scene["start"]["heading"] == [0, 1]
    # adjacency, straight from the definition: same floor, >= 1.0 m shared wall, a doorway in it
    for a, b in scenario.relations.adjacent:
        pa, pb = Polygon(rooms[a]["polygon"]), Polygon(rooms[b]["polygon"])
        assert rooms[a]["floor"] == rooms[b]["floor"]
        shared = pa.boundary.intersection(pb.boundary).length
        assert shared >= 1.0 - 1e-6, f"{a}/{b} share {shared:.2f} m"
        doors = [d for d in scene["doors"] if set(d["rooms"]) == {a, b}]
        assert doors and pa.boundary.distance(Point(doors[0]["position"])) < 1e-6
        assert pb.boundary.distance(Point(doors[0]["position"])) < 1e-6
    # vertical, straight from the definition
    for a, b in scenario.relations.vertical:
        pa, pb = Polygon(rooms[a]["polygon"]), Polygon(rooms[b]["polygon"])
        assert abs(rooms[a]["floor"] - rooms[b]["floor"]) == 1
        assert pa.intersection(pb).area >= 0.5 * min(pa.area, pb.area)
    # opposite: never adjacent, and each opens onto a common space through a door
    for pair in scenario.relations.opposite_pairs():
        a, b = pair
        assert list(pair) not in scene["relations"]["adjacent"]
        opens = lambda room: {x for d in scene["doors"] if room in d["rooms"] for x in d["rooms"] if x != room}  # noqa: E731
        assert opens(a) & opens(b), f"{a} and {b} share no space"
    # windows sit on exterior walls of their rooms, as many as the spec asks
    for label in scenario.rooms:
        assert sum(w["room"] == label for w in scene["windows"]) == scenario.rooms[label].count("window")
    for w in scene["windows"]:
        outline = unary_union([p for _, p in polygons(scene, w["floor"])])
        assert outline.boundary.distance(Point(w["position"])) < 1e-6
    # the full rule set, incl. opposite groups and hallway-only routes between trajectory rooms
    assert relations.check_scene(scenario, scene) == []
