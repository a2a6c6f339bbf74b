"""Objects placed in their rooms (issue 3), checked on the geometry independently of the placer.

For every bundled scenario and some random small specs: counts match the spec, ids and fields
follow docs/formats.md, nothing overlaps in 3D (flat carpets and objects on their support
excepted), everything is inside its room, no object in a door's swing zone, supported objects
rest on a support surface of the mesh the renderer builds, wall things touch a wall, windows
and doors sit in openings, and an occupancy grid finds a walkable path from every door to a
free spot. Placement is deterministic; rooms that are too small raise a PlacementError that
names the room, the category and the YAML path.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from collections import Counter

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import ndimage
from shapely.geometry import Point, Polygon, box

from assets.catalog import get_category
from assets.models import build_model
from generator.layout.plan import LayoutError, layout, plan_to_scene
from generator.placement.place import PlacementError, place_objects
from generator.spec.scenario import parse_scenario
from tests.conftest import SCENARIOS, bundled_layout

TOL = 2e-3
FIELDS = {"id", "category", "room", "floor", "position", "yaw", "size", "footprint", "support", "attributes"}
FLAT = {"carpet"}
_CACHE: dict = {}


def placed(path):
    if path not in _CACHE:
        scenario, scene = bundled_layout(path)
        _CACHE[path] = (scenario, scene, place_objects(scenario, scene))
    return _CACHE[path]


def slug(label: str) -> str:
    return "-".join(label.lower().split())


def rect(o: dict) -> np.ndarray:
    """Expected CCW footprint corners from position, yaw and size."""
    x, y, _ = o["position"]
    w, d, _ = o["size"]
    th = math.radians(o["yaw"] - 90.0)
    c, s = math.cos(th), math.sin(th)
    local = [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)]
    return np.array([(x + c * lx - s * ly, y + s * lx + c * ly) for lx, ly in local])


def door_zone(door: dict) -> Polygon:
    x, y = door["position"]
    hw = door["width"] / 2 + 0.1
    if door["wall_axis"] == "x":
        return box(x - hw, y - 1.0, x + hw, y + 1.0)
    return box(x - 1.0, y - hw, x + 1.0, y + hw)


def inward(poly: Polygon, x: float, y: float, axis: str) -> tuple[float, float]:
    for n in (((0, 1), (0, -1)) if axis == "x" else ((1, 0), (-1, 0))):
        if poly.contains(Point(x + 0.1 * n[0], y + 0.1 * n[1])):
            return n
    raise AssertionError(f"opening at {(x, y)} is not on the room's boundary")


def z_overlap(a: dict, b: dict) -> float:
    top = min(a["position"][2] + a["size"][2], b["position"][2] + b["size"][2])
    return top - max(a["position"][2], b["position"][2])


# ---------------------------------------------------------------------------- the checks


def check_counts_and_format(scenario, scene, objects):
    want = Counter({(label, req.category): req.count for label, room in scenario.rooms.items() for req in room.objects})
    got = Counter((o["room"], o["category"]) for o in objects)
    assert got == want, f"counts differ: missing {want - got}, extra {got - want}"
    ids = [o["id"] for o in objects]
    assert len(set(ids)) == len(ids)
    expected_ids = {f"{slug(label)}/{cat}/{n}" for (label, cat), k in want.items() for n in range(1, k + 1)}
    assert set(ids) == expected_ids
    rooms = {r["label"]: r for r in scene["rooms"]}
    elevation = {f["floor"]: f["elevation"] for f in scene["floors"]}
    for o in objects:
        assert set(o) == FIELDS, o["id"]
        assert o["floor"] == rooms[o["room"]]["floor"]
        assert isinstance(o["attributes"].get("color"), str) and o["attributes"].get("material"), o["id"]
        assert 0.0 <= o["yaw"] < 360.0
        assert all(v > 0 for v in o["size"]), o["id"]
        fp = Polygon(o["footprint"])
        assert fp.is_valid and len(o["footprint"]) == 4
        assert shapely.geometry.polygon.signed_area(fp.exterior) > 0, f"{o['id']}: footprint not counter-clockwise"
        assert np.allclose(np.array(o["footprint"]), rect(o), atol=TOL), f"{o['id']}: footprint != size/yaw/position"
        assert o["position"][2] >= elevation[o["floor"]] - TOL
        for v in [*o["position"], o["yaw"], *o["size"], *(c for p in o["footprint"] for c in p)]:
            assert round(v, 4) == v, f"{o['id']}: {v} not rounded to 4 decimals"
    json.dumps(objects, sort_keys=True)  # plain JSON


def check_no_overlaps(objects):
    by_room: dict[str, list[dict]] = {}
    for o in objects:
        by_room.setdefault(o["room"], []).append(o)
    for members in by_room.values():
        fps = [Polygon(o["footprint"]) for o in members]
        for i, a in enumerate(members):
            for j in range(i + 1, len(members)):
                b = members[j]
                if a["support"] == b["id"] or b["support"] == a["id"]:
                    continue
                if (a["category"] in FLAT) != (b["category"] in FLAT):
                    continue   # a carpet is a floor layer: furniture may stand on it
                if {a["category"], b["category"]} == {"curtain", "window"}:
                    continue
                if {a["support"], b["support"]} == {"window", "door"}:
                    continue   # openings are where the layout put them (see test_openings_do_not_overlap)
                area = fps[i].intersection(fps[j]).area
                if area > 1e-4 and z_overlap(a, b) > 1e-3:
                    raise AssertionError(f"{a['id']} and {b['id']} overlap ({area:.4f} m², "
                                         f"{z_overlap(a, b):.3f} m in height)")


def check_inside_rooms_and_doors_clear(scene, objects):
    rooms = {r["label"]: r for r in scene["rooms"]}
    heights = {f["floor"]: (f["elevation"], f["height"]) for f in scene["floors"]}
    for o in objects:
        room = rooms[o["room"]]
        poly = Polygon(room["polygon"])
        fp = Polygon(o["footprint"])
        elev, height = heights[o["floor"]]
        top = o["position"][2] + o["size"][2]
        assert top <= elev + height + TOL, f"{o['id']} pokes through the ceiling"
        kind = o["support"]
        if kind in ("window", "door"):
            continue
        if kind == "wall":
            assert poly.buffer(-0.05 + TOL, join_style="mitre").contains(fp), f"{o['id']} leaves its room"
            gap = fp.distance(poly.exterior)
            assert abs(gap - 0.05) < TOL, f"{o['id']} hangs {gap:.3f} m from the wall line (wall surface: 0.05)"
        else:
            assert poly.buffer(-0.06 + TOL, join_style="mitre").contains(fp), f"{o['id']} is not inside {o['room']}"
        if kind == "ceiling":
            assert abs(top - (elev + height)) < TOL, f"{o['id']} does not hang from the ceiling"
        for door in scene["doors"]:
            if o["room"] in door["rooms"]:
                area = fp.intersection(door_zone(door)).area
                assert area < 1e-4, f"{o['id']} is in the swing zone of {door['id']} ({area:.3f} m²)"


def _support_surfaces(sup: dict) -> list[tuple[float, Polygon]]:
    """(height above the support's base, world rectangle) of each support surface."""
    w, d, h = sup["size"]
    if sup["support"] not in ("floor",) and sup["category"] in ("book", "clothes", "plate", "print"):
        return [(h, Polygon(sup["footprint"]))]          # a stack
    a = sup["attributes"]
    model = build_model(sup["category"], np.random.default_rng(a["model_seed"]), size=tuple(sup["size"]),
                        color=a["color"])
    out = []
    x, y = sup["position"][:2]
    th = math.radians(sup["yaw"] - 90.0)
    c, s = math.cos(th), math.sin(th)
    for surf in model.surfaces:
        pts = [(x + c * lx - s * ly, y + s * lx + c * ly)
               for lx, ly in ((surf.x0, surf.y0), (surf.x1, surf.y0), (surf.x1, surf.y1), (surf.x0, surf.y1))]
        out.append((surf.z, Polygon(pts)))
    return out


def check_supports(scene, objects):
    elevation = {f["floor"]: f["elevation"] for f in scene["floors"]}
    by_id = {o["id"]: o for o in objects}
    for o in objects:
        if o["support"] not in by_id:
            assert o["support"] in ("floor", "wall", "ceiling", "window", "door"), o["id"]
            if o["support"] == "floor":
                assert abs(o["position"][2] - elevation[o["floor"]]) < TOL, f"{o['id']} floats above the floor"
            continue
        sup = by_id[o["support"]]
        assert sup["room"] == o["room"], f"{o['id']} rests on something in another room"
        assert Polygon(sup["footprint"]).buffer(TOL).contains(Polygon(o["footprint"])), \
            f"{o['id']} overhangs its support {sup['id']}"
        rel = o["position"][2] - sup["position"][2]
        fp = Polygon(o["footprint"])
        ok = [abs(rel - z) < TOL and poly.buffer(TOL).contains(fp) for z, poly in _support_surfaces(sup)]
        assert any(ok), f"{o['id']} at {rel:.3f} m above {sup['id']} is on none of its support surfaces"


def check_openings(scene, objects):
    elevation = {f["floor"]: f["elevation"] for f in scene["floors"]}
    used: set[str] = set()
    for o in objects:
        if o["category"] == "window":
            assert o["support"] == "window"
            match = [w for w in scene["windows"] if w["room"] == o["room"]
                     and np.allclose(w["position"], o["position"][:2], atol=TOL)]
            assert len(match) == 1, f"{o['id']} is not in a window opening of {o['room']}"
            w = match[0]
            assert abs(o["size"][0] - w["width"]) < TOL and abs(o["size"][2] - w["height"]) < TOL
            assert abs(o["position"][2] - (elevation[o["floor"]] + w["sill"])) < TOL
            nx, ny = -w["normal"][0], -w["normal"][1]
            assert abs(o["yaw"] - math.degrees(math.atan2(ny, nx)) % 360) < TOL, f"{o['id']} faces out"
            assert w["id"] not in used
            used.add(w["id"])
        if o["category"] == "door":
            assert o["support"] == "door"
            match = [d for d in scene["doors"] if o["room"] in d["rooms"]
                     and np.allclose(d["position"], o["position"][:2], atol=TOL)]
            assert len(match) == 1, f"{o['id']} is not in a doorway of {o['room']}"
            assert match[0]["id"] not in used, f"doorway {match[0]['id']} has two doors"
            used.add(match[0]["id"])
    for label in {o["room"] for o in objects}:
        n_windows = sum(1 for o in objects if o["room"] == label and o["category"] == "window")
        assert n_windows == sum(1 for w in scene["windows"] if w["room"] == label)


def check_walkable(scene, objects, step=0.05):
    """Occupancy grid: every door of a room (and the start) reaches a spot with a free 0.5 m disc."""
    for room in scene["rooms"]:
        label = room["label"]
        poly = Polygon(room["polygon"])
        blockers = [Polygon(o["footprint"]) for o in objects
                    if o["room"] == label and o["support"] == "floor" and o["category"] not in FLAT]
        x0, y0, x1, y1 = poly.bounds
        xs, ys = np.arange(x0 + step / 2, x1, step), np.arange(y0 + step / 2, y1, step)
        gx, gy = np.meshgrid(xs, ys)
        inside = shapely.contains_xy(poly, gx, gy)
        pts = shapely.points(gx, gy)
        wall = shapely.distance(pts, poly.exterior)
        obst = shapely.distance(pts, shapely.union_all(blockers)) if blockers else np.full(gx.shape, np.inf)
        free = inside & (wall >= 0.35) & (obst >= 0.3)
        spot = free & (wall >= 0.55) & (obst >= 0.5)
        labels, _ = ndimage.label(free)
        starts = []
        for door in scene["doors"]:
            if label in door["rooms"]:
                x, y = door["position"]
                nx, ny = inward(poly, x, y, door["wall_axis"])
                starts.append((x + 0.4 * nx, y + 0.4 * ny, door["id"]))
        st = scene["start"]
        if st["floor"] == room["floor"] and poly.contains(Point(st["position"])):
            starts.append((*st["position"], "start"))
        comps = set()
        for x, y, name in starts:
            i, j = int((y - y0) // step), int((x - x0) // step)
            window = labels[max(i - 2, 0):i + 3, max(j - 2, 0):j + 3]
            found = set(window[window > 0].ravel().tolist())
            assert found, f"{label}: {name} is blocked (no free cell at its entry)"
            comps |= {min(found)}
        if not starts:
            assert spot.any(), f"{label}: no free spot"
            continue
        assert len(comps) == 1, f"{label}: doors are not connected to each other ({[s[2] for s in starts]})"
        comp = comps.pop()
        assert (spot & (labels == comp)).any(), f"{label}: no free spot (0.5 m disc) reachable from the doors"
        for o in objects:   # one sees into shelved furniture only from before it: one can stand there
            if o["room"] == label and o["category"] in ("wardrobe", "bookshelf") and o["support"] == "floor":
                fx, fy = math.cos(math.radians(o["yaw"])), math.sin(math.radians(o["yaw"]))
                ahead = (gx - o["position"][0]) * fx + (gy - o["position"][1]) * fy - o["size"][1] / 2
                across = np.abs(-(gx - o["position"][0]) * fy + (gy - o["position"][1]) * fx)
                before = (ahead > 0) & (ahead <= 0.8) & (across <= o["size"][0] / 2)
                assert (before & (labels == comp)).any(), f"{o['id']}: no standing room before it reachable from the doors"


def check_arrangement(objects):
    """What a person expects: beds against a wall with pillows at the head, sofas face the tv,
    chairs face a table or desk."""
    relations = place_relations(objects)
    facing = {(r["subject"], r["object"]) for r in relations if r["relation"] == "facing"}
    rooms: dict[str, list[dict]] = {}
    for o in objects:
        rooms.setdefault(o["room"], []).append(o)
    for members in rooms.values():
        cats = Counter(o["category"] for o in members)
        tvs = {o["id"] for o in members if o["category"] == "tv"}
        sofas = [o["id"] for o in members if o["category"] == "sofa"]
        if tvs and sofas:
            assert any((s, t) in facing for s in sofas for t in tvs), f"no sofa faces the tv in {members[0]['room']}"
        if cats["table"] or cats["desk"]:
            anchors = {o["id"] for o in members if o["category"] in ("table", "desk")}
            for o in members:
                if o["category"] == "chair":
                    assert any((o["id"], a) in facing for a in anchors), f"{o['id']} faces no table or desk"
    by_id = {o["id"]: o for o in objects}
    for o in objects:
        if o["category"] == "pillow" and by_id.get(o["support"], {}).get("category") == "bed":
            bed = by_id[o["support"]]
            th = math.radians(bed["yaw"])
            dx, dy = o["position"][0] - bed["position"][0], o["position"][1] - bed["position"][1]
            ly = dx * math.cos(th) + dy * math.sin(th)
            assert ly < 0, f"{o['id']} is not at the head of {bed['id']}"


def place_relations(objects):
    from generator.placement.place import object_relations
    return object_relations(objects)


def check_scene(scenario, scene, result):
    objects = result["objects"]
    check_counts_and_format(scenario, scene, objects)
    check_no_overlaps(objects)
    check_inside_rooms_and_doors_clear(scene, objects)
    check_supports(scene, objects)
    check_openings(scene, objects)
    check_walkable(scene, objects)
    by_id = {o["id"]: o for o in objects}
    for r in result["object_relations"]:
        assert r["relation"] in ("on", "next_to", "facing")
        assert r["subject"] in by_id and r["object"] in by_id
        assert by_id[r["subject"]]["room"] == by_id[r["object"]]["room"]
    on = {(r["subject"], r["object"]) for r in result["object_relations"] if r["relation"] == "on"}
    assert on == {(o["id"], o["support"]) for o in objects if o["support"] in by_id}


# ---------------------------------------------------------------------------- bundled scenarios


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_bundled_scenario_objects_are_placed_soundly(path):
    scenario, scene, result = placed(path)
    check_scene(scenario, scene, result)
    check_arrangement(result["objects"])


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_things_named_from_the_front_face_the_open_room(path):
    """A microwave, printer or tv on a support faces at least 1.5 m of open room before a wall,
    where a viewer can stand to see its front (scenario-05's microwave on a free-standing table
    faced the tv wall 1 m off: the walk could only show its back)."""
    from assets.vocabulary import named_from_front
    scenario, scene, result = placed(path)
    rooms = {r["label"]: Polygon(r["polygon"]) for r in scene["rooms"]}
    on_support = [o for o in result["objects"] if named_from_front(o["category"]) and "/" in o["support"]]
    for o in on_support:
        (x, y), a = o["position"][:2], math.radians(o["yaw"])
        ahead = shapely.LineString([(x, y), (x + 30 * math.cos(a), y + 30 * math.sin(a))])
        wall = Point(x, y).distance(ahead.intersection(rooms[o["room"]].exterior))
        assert wall >= 1.5, f"{o['id']} on {o['support']} faces a wall {wall:.2f} m off"


@pytest.mark.parametrize("path", SCENARIOS[:3], ids=[p.stem for p in SCENARIOS[:3]])
def test_placement_is_deterministic(path):
    scenario, scene, result = placed(path)
    again = place_objects(scenario, json.loads(json.dumps(scene)))
    assert json.dumps(again, sort_keys=True) == json.dumps(result, sort_keys=True)


def test_beds_stand_with_their_head_against_a_wall():
    for path in SCENARIOS:
        _, scene, result = placed(path)
        rooms = {r["label"]: Polygon(r["polygon"]) for r in scene["rooms"]}
        for o in result["objects"]:
            if o["category"] == "bed":
                head = rect(o)[:2]          # the local -y edge
                mid = Point(head.mean(axis=0))
                assert mid.distance(rooms[o["room"]].exterior) < 0.06 + TOL, f"{o['id']} head is off the wall"


def test_tvs_stand_on_a_stand_or_hang_on_the_wall_and_mice_sit_by_their_computer():
    seen = Counter()
    for path in SCENARIOS:
        _, _, result = placed(path)
        objects = {o["id"]: o for o in result["objects"]}
        for o in result["objects"]:
            room = [p for p in result["objects"] if p["room"] == o["room"]]
            if o["category"] == "tv":
                hosts = [p for p in room if p["category"] in ("stand", "cabinet")]
                if hosts:
                    assert objects.get(o["support"], {}).get("category") in ("stand", "cabinet"), o["id"]
                    seen["tv on stand"] += 1
                else:
                    assert o["support"] == "wall" and o["attributes"].get("wall_mounted") is True, o["id"]
                    seen["tv on wall"] += 1
            if o["category"] == "mouse":
                near = [p for p in room if p["category"] in ("laptop", "computer") and p["support"] == o["support"]
                        and Polygon(p["footprint"]).distance(Polygon(o["footprint"])) < 0.15]
                assert near, f"{o['id']} is not next to a laptop or computer"
                seen["mouse"] += 1
    assert seen["tv on stand"] and seen["tv on wall"] and seen["mouse"]


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_stand_with_no_tv_is_a_nightstand_beside_the_bed_not_a_console(seed):
    """The catalog's stands run 0.45-1.40 m wide (a tv's media console); one carrying no tv is a
    nightstand or side table. A 1.35-m "stand" under a bedroom window read as a dresser, and the
    person check could count sample-3-012's stands as 1, 3 or 4."""
    text = f"""name: stands
typology: single-story residence
seed: {seed}
rooms:
  bedroom: {{area: 16, objects: {{bed: 1, stand: 2}}}}
  living room: {{area: 20, objects: {{sofa: 1, tv: 1, stand: 2}}}}
trajectory: [living room, bedroom]
relations: {{adjacent: [[living room, bedroom]]}}
"""
    scenario = parse_scenario(text, "stands.yaml")
    objects = place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]
    stands = [o for o in objects if o["category"] == "stand"]
    hosts = {o["support"] for o in objects if o["category"] == "tv"}
    assert len(stands) == 4 and len(hosts & {s["id"] for s in stands}) == 1
    bed = next(o for o in objects if o["category"] == "bed")
    head = rect(bed)[:2]  # the local -y edge, against the wall
    for s in stands:
        if s["id"] not in hosts:
            assert s["size"][0] <= 0.6 + 1e-9, f"{s['id']}: {s['size'][0]} m wide"
        if s["room"] == "bedroom":  # one at each side of the bed's head
            assert min(Point(c).distance(Polygon(s["footprint"])) for c in head) < 0.3, f"{s['id']} is not by the bed"
    left, right = (Point(c) for c in head)
    by = sorted(min((left.distance(Polygon(s["footprint"])), "left"), (right.distance(Polygon(s["footprint"])), "right"))[1]
                for s in stands if s["room"] == "bedroom")
    assert by == ["left", "right"]


@pytest.mark.parametrize("seed", range(1, 7))
def test_cabinets_keep_off_a_beds_head(seed):
    """A cabinet beside a bed's head reads as a nightstand (person check of sample-1-000: "how
    many nightstands? 3" could be answered 4 or 5). 6 of the 34 bedrooms of the first 28 specs
    of `sample --seed 1` had one; cabinets now take another wall where the room has one."""
    text = f"""name: cabinets
typology: single-story residence
seed: {seed}
rooms:
  bedroom: {{area: 14, objects: {{bed: 1, stand: 1, cabinet: 2, lamp: 1, chair: 1}}}}
  living room: {{area: 16, objects: {{sofa: 1, table: 1}}}}
trajectory: [living room, bedroom]
relations: {{adjacent: [[living room, bedroom]]}}
"""
    scenario = parse_scenario(text, "cabinets.yaml")
    objects = place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]
    bed = next(o for o in objects if o["category"] == "bed")
    corners = rect(bed)           # head edge first (local -y), then the foot edge
    head_half = Polygon([corners[0], corners[1], (corners[1] + corners[2]) / 2, (corners[0] + corners[3]) / 2])
    cabinets = [o for o in objects if o["category"] == "cabinet"]
    assert len(cabinets) == 2
    for c in cabinets:
        assert Polygon(c["footprint"]).distance(head_half) > 0.4, f"{c['id']} stands by the bed's head"


@pytest.mark.parametrize("seed", range(1, 5))
def test_a_thing_left_to_chance_stands_out_from_what_it_lies_on(seed):
    """A grey garment on a grey duvet could barely be made out (sample-3-012). Drawn colours
    give way to the next of the category's colours at least MIN_CONTRAST away from the
    support's; a colour the spec gives is kept."""
    from assets.colors import color_rgb
    from generator.placement.room import MIN_CONTRAST

    text = f"""name: contrast
typology: single-story residence
seed: {seed}
rooms:
  bedroom: {{area: 14, objects: {{bed: {{count: 1, color: grey}}, pillow: 2, clothes: 3, stand: 1, book: 2}}}}
  living room: {{area: 16, objects: {{table: {{count: 1, color: white}}, cup: 3, plate: 2, sofa: 1}}}}
  dressroom: {{type: bedroom, area: 10, objects: {{bed: {{count: 1, color: grey}}, clothes: {{count: 2, color: grey}}}}}}
trajectory: [living room, bedroom, dressroom]
relations: {{adjacent: [[living room, bedroom], [living room, dressroom]]}}
"""
    scenario = parse_scenario(text, "contrast.yaml")
    objects = {o["id"]: o for o in place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]}
    checked = 0
    for o in objects.values():
        under = objects.get(o["support"])
        if under is None:
            continue
        if o["room"] == "dressroom":  # the spec's grey, on grey
            assert o["attributes"]["color"] == "grey"
            continue
        a, b = color_rgb(o["attributes"]["color"]), color_rgb(under["attributes"]["color"])
        gap = sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5
        assert gap >= MIN_CONTRAST or len(get_category(o["category"]).colors) == 1, (o["id"], under["id"], gap)
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_openings_do_not_overlap(path):
    """Window and door objects fill the layout's openings, so the openings must be apart."""
    _, scene, _ = placed(path)
    spans = []
    for o in scene["doors"] + scene["windows"]:
        x, y = o["position"]
        axis = o.get("wall_axis") or ("x" if o["normal"][1] else "y")
        half = o["width"] / 2
        spans.append((o["id"], o["floor"], box(x - half, y - 0.05, x + half, y + 0.05) if axis == "x"
                      else box(x - 0.05, y - half, x + 0.05, y + half)))
    for i, (a, fa, pa) in enumerate(spans):
        for b, fb, pb in spans[i + 1:]:
            assert fa != fb or pa.intersection(pb).area < 1e-6, f"{a} and {b} overlap"


# ---------------------------------------------------------------------------- errors


def test_room_too_small_raises_placement_error_naming_the_room():
    text = """name: tiny
typology: single-story residence
seed: 3
rooms:
  box room: {type: storage, area: 4, objects: {wardrobe: 2, bed: 2, sofa: 2, piano: 1}}
  hall: {type: living room}
trajectory: [hall, box room]
relations: {adjacent: [[hall, box room]]}
"""
    scenario = parse_scenario(text, "tiny.yaml")
    scene = plan_to_scene(layout(scenario))
    with pytest.raises(PlacementError) as info:
        place_objects(scenario, scene)
    err = info.value
    assert isinstance(err, LayoutError)
    assert err.room == "box room"
    assert err.path.startswith("rooms.box room.objects.")
    text = str(err)
    assert "tiny.yaml" in text and "rooms.box room.objects." in text and "'box room'" in text and "fix:" in text


def test_more_doors_than_doorways_is_refused():
    text = """name: doors
typology: single-story residence
rooms:
  kitchen: {objects: {door: 5}}
  hall: {type: living room}
trajectory: [hall, kitchen]
relations: {adjacent: [[hall, kitchen]]}
"""
    scenario = parse_scenario(text, "doors.yaml")
    scene = plan_to_scene(layout(scenario))
    with pytest.raises(PlacementError) as info:
        place_objects(scenario, scene)
    assert info.value.path == "rooms.kitchen.objects.door" and "doorway" in str(info.value)


def test_small_things_without_any_support_are_refused_not_dropped():
    text = """name: cups
typology: single-story residence
rooms:
  bedroom: {objects: {cup: 2, wardrobe: 1}}
  hall: {type: living room}
trajectory: [hall, bedroom]
relations: {adjacent: [[hall, bedroom]]}
"""
    scenario = parse_scenario(text, "cups.yaml")
    scene = plan_to_scene(layout(scenario))
    with pytest.raises(PlacementError) as info:
        place_objects(scenario, scene)
    assert info.value.path == "rooms.bedroom.objects.cup" and "table" in str(info.value)


def test_clothes_with_nothing_to_lie_on_are_refused_not_dropped_on_the_floor():
    text = """name: clothes
typology: single-story residence
rooms:
  dressroom: {objects: {clothes: 2, mirror: 1}}
  hall: {type: living room}
trajectory: [hall, dressroom]
relations: {adjacent: [[hall, dressroom]]}
"""
    scenario = parse_scenario(text, "clothes.yaml")
    scene = plan_to_scene(layout(scenario))
    with pytest.raises(PlacementError) as info:
        place_objects(scenario, scene)
    assert info.value.path == "rooms.dressroom.objects.clothes" and "wardrobe" in str(info.value)


def test_a_fruit_goes_into_the_bowl_on_the_table():
    text = """name: fruit
typology: single-story residence
rooms:
  kitchen: {objects: {table: 1, bowl: 1, fruit: 2}}
  hall: {type: living room}
trajectory: [hall, kitchen]
relations: {adjacent: [[hall, kitchen]]}
"""
    scenario = parse_scenario(text, "fruit.yaml")
    objects = {o["id"]: o for o in place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]}
    assert objects["kitchen/bowl/1"]["support"] == "kitchen/table/1"
    # the bowl's flat bottom holds one piece; the other lies on the table beside it
    assert sorted(objects[f"kitchen/fruit/{i}"]["support"] for i in (1, 2)) == ["kitchen/bowl/1", "kitchen/table/1"]


def test_a_studys_books_fill_its_bookshelf_before_the_desk():
    text = """name: books
typology: single-story residence
rooms:
  study: {objects: {desk: 1, bookshelf: 1, book: 3}}
  hall: {type: living room}
trajectory: [hall, study]
relations: {adjacent: [[hall, study]]}
"""
    scenario = parse_scenario(text, "books.yaml")
    objects = place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]
    assert {o["support"] for o in objects if o["category"] == "book"} == {"study/bookshelf/1"}
    # each stands on a shelf, front cover to the room: taller than deep, turned like the shelf
    # (lying flat under the next shelf only a 2-5 cm edge showed; books went unseen)
    shelf = next(o for o in objects if o["category"] == "bookshelf")
    for book in (o for o in objects if o["category"] == "book"):
        w, d, h = book["size"]
        assert h > 0.18 and d < 0.06 and w > 0.12, book["size"]
        assert book["yaw"] == shelf["yaw"]
        assert shelf["position"][2] < book["position"][2] < shelf["position"][2] + shelf["size"][2] - h
    # side by side against the back panel, never one in front of another (a viewer counting
    # books saw only the front one's cover and the other's edge: person check, three-story-house)
    axis = 0 if abs(math.sin(math.radians(shelf["yaw"]))) > 0.5 else 1   # the shelf's width runs along x or y
    spans = sorted((round(o["position"][2], 3), Polygon(o["footprint"]).bounds[axis], Polygon(o["footprint"]).bounds[axis + 2])
                   for o in objects if o["category"] == "book")
    for (z1, lo1, hi1), (z2, lo2, hi2) in zip(spans, spans[1:]):
        assert z1 != z2 or hi1 <= lo2 + 1e-9, spans


# ---------------------------------------------------------------------------- random specs

FURNITURE = {
    "bedroom": ["bed", "wardrobe", "stand", "lamp", "pillow", "book", "plant", "picture", "carpet", "mirror"],
    "living room": ["sofa", "tv", "table", "stand", "plant", "floor lamp", "carpet", "cup", "picture", "bulb"],
    "kitchen": ["fridge", "stove", "sink", "cupboard", "cabinet", "cup", "pot", "microwave", "table", "chair"],
    "study": ["desk", "chair", "computer", "mouse", "bookshelf", "book", "lamp", "air conditioner", "printer"],
    "dining room": ["table", "chair", "vase", "picture", "cabinet", "plate", "bowl", "curtain", "window"],
    "bathroom": ["toilet", "washstand", "bath", "towel", "mirror", "window"],
}


def make_spec(rng: random.Random) -> str:
    types = rng.sample(sorted(FURNITURE), rng.randint(1, 3))
    lines = ["name: random-objects", "typology: single-story residence", f"seed: {rng.randint(0, 999)}", "rooms:"]
    labels = []
    for i, kind in enumerate(types):
        pool = FURNITURE[kind]
        chosen = {c: 1 for c in rng.sample(pool, rng.randint(2, 5))}
        if "chair" in chosen:
            chosen["chair"] = rng.randint(1, 4)
        if "cup" in chosen or "book" in chosen:
            chosen.setdefault("table" if kind != "bedroom" else "stand", 1)
        if "pillow" in chosen:
            chosen.setdefault("bed", 1)
        if "mouse" in chosen or "computer" in chosen or "printer" in chosen:
            chosen.setdefault("desk", 1)
        if "curtain" in chosen:
            chosen.setdefault("window", 1)
        if {"plate", "bowl", "vase", "pot", "microwave", "lamp"} & set(chosen):
            chosen.setdefault("cabinet", 1)
        if kind != "bathroom" and rng.random() < 0.5:
            chosen["window"] = 1
        label = f"{kind} {i + 1}"
        labels.append(label)
        body = ", ".join(f"{c}: {n}" for c, n in sorted(chosen.items()))
        lines.append(f"  {label}: {{type: {kind}, area: {rng.choice([14, 16, 20])}, objects: {{{body}}}}}")
    lines.append("trajectory: [" + ", ".join(labels) + "]")
    if len(labels) > 1:
        lines.append("relations: {adjacent: [[" + ", ".join(labels) + "]]}")
    return "\n".join(lines) + "\n"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.integers(0, 10**9))
def test_random_small_specs_are_placed_soundly(seed):
    # make_spec's 1-3 rooms of 14-20 m2 in an adjacency chain always lay out (100 of 100 seeds
    # measured), so a LayoutError here is a failure, not a reason to skip the example
    text = make_spec(random.Random(seed))
    scenario = parse_scenario(text, "random.yaml")
    scene = plan_to_scene(layout(scenario, work_budget=1.5))
    result = place_objects(scenario, scene)
    check_scene(scenario, scene, result)


def _placed_beside_a_hall(room: str, objects: str) -> tuple[list[dict], dict[str, dict]]:
    """The placed objects (and by id) of a two-room spec: `room` holding `objects`, and a hall."""
    text = f"""name: placed
typology: single-story residence
seed: 3
rooms:
  {room}: {{objects: {{{objects}}}}}
  hall: {{type: living room}}
trajectory: [hall, {room}]
relations: {{adjacent: [[hall, {room}]]}}
"""
    scenario = parse_scenario(text, "placed.yaml")
    placed = place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]
    return placed, {o["id"]: o for o in placed}


def _garments(clothes: int, others: str = "") -> list[tuple[float, str]]:
    objects, by_id = _placed_beside_a_hall("dressroom", f"wardrobe: 1, clothes: {clothes}{others}")
    return sorted((round(o["position"][2], 2), by_id[o["support"]]["category"])
                  for o in objects if o["category"] == "clothes")


def test_a_garment_lies_on_a_wardrobe_shelf_above_the_eye_only_when_nothing_lower_has_room():
    """A shelf above 1.45 m lies about level with the eye, whose view of a folded garment its
    board hides: the column's three lower shelves take a garment each, and with a bench in the room
    the fourth goes on the bench, not on the top shelf; with the wardrobe alone it still goes on the top shelf (never refused)."""
    alone = _garments(4)
    assert sum(z > 1.45 for z, _ in alone) == 1 and {s for _, s in alone} == {"wardrobe"}
    with_bench = _garments(4, ", bench: 1")
    assert all(z <= 1.45 for z, _ in with_bench)
    assert [s for _, s in with_bench].count("wardrobe") == 3 and [s for _, s in with_bench].count("bench") == 1


def test_the_walk_can_stand_before_a_wardrobe_a_bed_would_have_cut_off():
    """A sampled bedroom whose bed left its wardrobe's front reachable only through a 0.3 m gap:
    now the door-connected floor reaches 0.8 m before it, and the scene passes every check."""
    from generator.spec.scenario import load_scenario

    spec = Path(__file__).parent / "fixtures" / "placement" / "wardrobe-behind-bed.yaml"
    scenario = load_scenario(spec)
    scene = plan_to_scene(layout(scenario))
    check_scene(scenario, scene, place_objects(scenario, scene))


def _supports_of(category: str, objects: str) -> list[str]:
    placed, by_id = _placed_beside_a_hall("study", objects)
    return sorted(by_id[o["support"]]["category"] for o in placed if o["category"] == category)


def test_a_chair_pushed_in_at_a_desk_holds_a_garment_only_when_nothing_else_has_room():
    """Its seat is under the desk top and behind the chair's back: a garment or a bag goes on the
    bench when there is one, and on the chair only when the chair is all the room offers."""
    assert _supports_of("clothes", "desk: 1, chair: 1, clothes: 1, bench: 1") == ["bench"]
    assert _supports_of("handbag", "desk: 1, chair: 1, handbag: 1, bench: 1") == ["bench"]
    assert _supports_of("clothes", "desk: 1, chair: 1, clothes: 1") == ["chair"]


@pytest.mark.parametrize("seed", range(1, 5))
def test_curtains_hang_at_windows_when_the_room_has_several(seed):
    """Curtains were placed at a window only when nothing else stood at their heights: with a
    second window there always was, and 48 of 66 sampled curtains hung on blank walls (person
    check of sample-1-073: two curtains beside a living room's three windows). Each curtain now
    hangs before a window of its own."""
    text = f"""name: curtains
typology: single-story residence
seed: {seed}
rooms:
  living room: {{area: 24, objects: {{sofa: 1, window: 3, curtain: 2}}}}
  kitchen: {{area: 12, objects: {{fridge: 1, window: 2, curtain: 2}}}}
trajectory: [living room, kitchen]
relations: {{adjacent: [[living room, kitchen]]}}
"""
    scenario = parse_scenario(text, "curtains.yaml")
    objects = place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]
    windows = [o for o in objects if o["category"] == "window"]
    for room in ("living room", "kitchen"):
        hung = [o for o in objects if o["category"] == "curtain" and o["room"] == room]
        assert len(hung) == 2
        at = [min((math.dist(c["position"][:2], w["position"][:2]), w["id"]) for w in windows if w["room"] == room)
              for c in hung]
        assert all(d < 0.5 for d, _ in at), at
        assert len({w for _, w in at}) == 2, at


def _stands_before(host: dict, window: dict, strip: float = 0.8) -> bool:
    """Does `host` stand in front of `window`: within `strip` of its wall and overlapping its
    width (measured here in the window's own frame, not with the placement's zones)."""
    yaw = math.radians(window["yaw"])
    ux, uy = math.cos(yaw), math.sin(yaw)
    dx, dy = host["position"][0] - window["position"][0], host["position"][1] - window["position"][1]
    along, off = dx * ux + dy * uy, abs(-dx * uy + dy * ux)
    return abs(along) < window["size"][0] / 2 + host["size"][0] / 2 - 0.05 and off < strip


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_tv_on_a_stand_does_not_stand_before_a_window_when_a_wall_is_free(seed):
    """The window check measured a tv's stand alone (0.6 m, under the 0.9-m sill), so the tv
    on it rose before the window: 17 of the 46 tvs on stands of `sample --n 100 --seed 1`
    (seen in the person check of sample-42-000: its bedroom tv before the south window)."""
    text = f"""name: tvs
typology: single-story residence
seed: {seed}
rooms:
  living room: {{area: 24, objects: {{sofa: 1, tv: 1, stand: 1, window: 2}}}}
  bedroom: {{area: 14, objects: {{bed: 1, tv: 1, stand: 1, window: 1}}}}
trajectory: [living room, bedroom]
relations: {{adjacent: [[living room, bedroom]]}}
"""
    scenario = parse_scenario(text, "tvs.yaml")
    objects = place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]
    by_id = {o["id"]: o for o in objects}
    for room in ("living room", "bedroom"):
        tv = next(o for o in objects if o["category"] == "tv" and o["room"] == room)
        host = by_id[tv["support"]]
        assert host["category"] == "stand"
        top = tv["position"][2] + tv["size"][2]
        for window in (o for o in objects if o["category"] == "window" and o["room"] == room):
            assert top <= window["position"][2] or not _stands_before(host, window), (room, window["id"])


def test_a_pot_stands_on_a_dishwasher_or_an_oven_only_when_nothing_else_has_room():
    """A pot on a unit with knobs reads as a stove (person check of large-house: its black
    dishwasher with a pot on top): pots go on the stove, the counters and the table first."""
    kitchen = "dishwasher: 1, oven: 1, cabinet: 1, stove: 1, pot: 4"
    assert set(_supports_of("pot", kitchen)) <= {"stove", "cabinet"}
    assert set(_supports_of("pot", "dishwasher: 1, oven: 1, table: 1, pot: 3")) == {"table"}
    assert set(_supports_of("pot", "dishwasher: 1, oven: 1, pot: 2")) <= {"dishwasher", "oven"}   # all there is


def test_pictures_of_one_room_each_show_another_print():
    """A picture's print was one of four drawn from its model seed, so two pictures of a room
    repeated one about a quarter of the time (person check of sample-11-000: the same flower
    print on two walls of the study, which a viewer may count as one picture seen twice)."""
    text = """name: pictures
typology: single-story residence
rooms:
  living room: {area: 30, objects: {sofa: 1, picture: 4}}
  study: {area: 12, objects: {desk: 1, picture: 1}}
trajectory: [living room, study]
relations: {adjacent: [[living room, study]]}
"""
    from assets.builders_fixtures import ARTWORKS

    for seed in range(6):
        scenario = parse_scenario(text.replace("rooms:", f"seed: {seed}\nrooms:"), "pictures.yaml")
        objects = place_objects(scenario, plan_to_scene(layout(scenario)))["objects"]
        shown = [o["attributes"].get("artwork") for o in objects if o["category"] == "picture"]
        living = [a for o, a in zip([o for o in objects if o["category"] == "picture"], shown) if o["room"] == "living room"]
        assert sorted(living) == sorted(ARTWORKS), seed
        alone = next(o for o in objects if o["category"] == "picture" and o["room"] == "study")
        assert "artwork" not in alone["attributes"]          # a lone picture keeps the print it drew


def test_a_picture_shows_the_print_it_is_given():
    def parts(artwork=None):
        extra = {"artwork": artwork} if artwork else {}
        return {p.name for p in build_model("picture", np.random.default_rng(3), size=(0.6, 0.04, 0.5), **extra).parts}
    assert {"sky", "ground"} <= parts("sea") and "hill" not in parts("sea")
    assert {"a", "b", "c", "d"} <= parts("abstract")
    assert {"vase", "blooms"} <= parts("flowers")
    assert "hill" in parts("landscape")
