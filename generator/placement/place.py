"""Object placement (issue 3): every object a scenario names, placed in its room.

`place_objects(scenario, scene)` takes the layout's scene dict (rooms, doors, windows, ...)
and returns `{"objects": [...], "object_relations": [...]}` in the scene.json format of
docs/formats.md. Placement is done room by room (generator.placement.room) with a private
seeded generator per room and attempt, so it is deterministic and rooms do not disturb each
other's random numbers. A room whose objects do not fit raises PlacementError naming the
room, the category that does not fit and the YAML path, after several seeded attempts with
smaller sizes and tighter clearances.

Object attributes: `color` and `material` (the spec's, else drawn; a drawn colour stands out from
that of the thing it lies on, room.shown_colour), any other spec attribute,
`model_seed`, and what the mesh builder needs besides: `wall_mounted: true` (a tv without a
stand), `open_angle` (doors stand open at 90 degrees so the camera can pass), `opening` (the
window/door id a window or door object fills). The renderer must build each object as
`build_model(category, np.random.default_rng(model_seed), size=size, color=color,
wall_mounted=..., open_angle=...)`: the support surfaces placement put things on are those of
exactly that mesh (a round table top, a sofa's seat between its arms, shelf heights).

Object relations (`object_relations`), each `{"relation", "subject", "object"}`:
  on       subject rests on object (object = its support)
  next_to  boxes within NEXT_TO metres in 3D, same room; subject < object by id; has `distance`
  facing   subject's front points at object (its centre within FACING_DEG of the subject's yaw,
           or the ray along the yaw hits its footprint), e.g. sofa -> tv, chair -> table
"""

from __future__ import annotations

import math
import time

from shapely.geometry import LineString, Polygon

from assets.catalog import get_category
from generator.placement.room import place_room
from generator.placement.state import NoFit, PlacementError, RoomState, slug
from generator.placement.supports import LAST_SUPPORTS
from formats.seeding import stage_rng

NEXT_TO = 0.5
FACING_DEG = 30.0
FACING_MAX_DIST = 6.0
ATTEMPTS = 6
# subject category -> object categories a "facing" relation is worth stating for
FACING_PAIRS = {
    "sofa": ("tv", "fireplace", "table"),
    "chair": ("table", "desk", "tv"),
    "bench": ("piano", "tv", "table"),
    "tv": ("sofa", "bed", "chair", "table"),
    "bed": ("tv",),
    "cycle": ("tv",),
    "exercise machine": ("tv",),
}
NO_RELATION_KINDS = ("window", "door", "ceiling")

__all__ = ["PlacementError", "place_objects", "object_relations", "room_walk_spot", "slug"]


def place_objects(scenario, scene: dict, budget_s: float | None = None) -> dict:
    """Objects and object relations for `scene` (scene.json without objects). `budget_s`: CPU
    seconds the placement may take (of this process: a loaded machine does not trip it); checked before each room's attempt, it never changes a
    placement, it refuses a slow one (PlacementError naming the room reached and the fix)."""
    rooms = {r["label"]: r for r in scene["rooms"]}
    taken_doors: set[str] = set()
    objects: list[dict] = []
    started = time.process_time()

    def in_budget(label: str) -> None:
        spent = time.process_time() - started
        if budget_s is not None and spent > budget_s:
            raise PlacementError(f"{scenario.source}: placing the objects took more than {budget_s:g} CPU s "
                                 f"({spent:.0f} s, before room {label!r}) (fix: fewer objects per room, "
                                 "or a larger --scene-budget)")

    for label in sorted(rooms, key=lambda lb: (rooms[lb]["floor"], lb)):
        spec_room = scenario.rooms.get(label)
        if spec_room is None or not spec_room.objects:
            continue
        objects.extend(_place_room(scenario, scene, rooms[label], spec_room, taken_doors, in_budget))
    objects.sort(key=lambda o: _id_key(o["id"]))
    _check_physical(scene, objects)
    return {"objects": objects, "object_relations": object_relations(objects)}


def _check_physical(scene: dict, objects: list[dict]) -> None:
    """The independent box-level check (generator.placement.physical, ~0.1 s): a violation is
    a bug of the placer, refused here with the objects named rather than rendered."""
    from generator.placement.physical import check_scene

    found = check_scene({**scene, "objects": objects}, meshes=False)
    if found:
        shown = "; ".join(str(v) for v in found[:10]) + (f"; and {len(found) - 10} more" if len(found) > 10 else "")
        raise PlacementError(f"placement made a physically impossible scene (a bug in generator.placement, "
                             f"please report it with the spec): {shown}")


def _id_key(object_id: str):
    room, category, n = object_id.rsplit("/", 2)
    return (room, category, int(n))


def _place_room(scenario, scene, room: dict, spec_room, taken_doors: set[str], in_budget=lambda label: None) -> list[dict]:
    failures: list[NoFit] = []
    # each attempt with the preferences of LAST_SUPPORTS, and where they bind, once more without
    relaxable = any(req.category in LAST_SUPPORTS for req in spec_room.objects)
    for attempt, strict in [(a, s) for a in range(ATTEMPTS) for s in ((True, False) if relaxable else (True,))]:
        in_budget(room["label"])
        rng = stage_rng(scenario.seed, f"placement:{room['label']}" + (f"#{attempt}" if attempt else ""))
        placer = RoomState(scenario, scene, room, spec_room, rng, attempt, taken_doors, strict)
        try:
            result = place_room(placer)
        except NoFit as exc:
            failures.append(exc)
            if exc.final:
                break
            continue
        taken_doors.update(placer.used_doors)
        return result
    raise _error(scenario, room, spec_room, failures)


def _error(scenario, room: dict, spec_room, failures: list[NoFit]) -> PlacementError:
    # report the failure that got furthest (most objects placed), first category on ties
    worst = max(failures, key=lambda f: f.placed_count)
    poly = Polygon(room["polygon"])
    x0, y0, x1, y1 = poly.bounds
    path = f"rooms.{room['label']}.objects.{worst.category}"
    need = _floor_need(spec_room)
    fix = worst.fix or (f"give rooms.{room['label']}.area a larger value (now {poly.area:.1f} m²; its floor "
                        f"objects need about {need:.1f} m² with the space in front of them, plus walkways "
                        f"and door swings) or ask for fewer objects in it")
    message = (f"{scenario.source}: {path}: {worst.reason} in room {room['label']!r} "
               f"({x1 - x0:.1f} x {y1 - y0:.1f} m, {poly.area:.1f} m²) after {len(failures)} attempt"
               f"{'s' if len(failures) > 1 else ''} (fix: {fix})")
    return PlacementError(message, room=room["label"], category=worst.category, path=path)


def _floor_need(spec_room) -> float:
    """Floor area the room's floor-standing objects take at their smallest, with front clearance."""
    total = 0.0
    for req in spec_room.objects:
        cat = get_category(req.category)
        if cat.placement in ("floor_wall", "floor_corner", "floor_free") and req.category != "carpet":
            w, d, _ = cat.size_min
            total += req.count * w * (d + cat.front_clearance)
    return total


# ---------------------------------------------------------------------------- relations


def _box(o: dict):
    return Polygon(o["footprint"]), o["position"][2], o["position"][2] + o["size"][2]


def object_relations(objects: list[dict]) -> list[dict]:
    """on / next_to / facing relations between the objects of each room (sorted)."""
    out: list[dict] = []
    by_id = {o["id"]: o for o in objects}
    for o in objects:
        if o["support"] in by_id:
            out.append({"relation": "on", "subject": o["id"], "object": o["support"]})
    rooms: dict[str, list[dict]] = {}
    for o in objects:
        if o["support"] not in NO_RELATION_KINDS and o["category"] != "carpet":
            rooms.setdefault(o["room"], []).append(o)
    for members in rooms.values():
        boxes = {o["id"]: _box(o) for o in members}
        for i, a in enumerate(members):
            fa, za0, za1 = boxes[a["id"]]
            for b in members[i + 1:]:
                if a["support"] == b["id"] or b["support"] == a["id"]:
                    continue
                fb, zb0, zb1 = boxes[b["id"]]
                dz = max(0.0, max(za0, zb0) - min(za1, zb1))
                dist = math.hypot(fa.distance(fb), dz)
                if dist <= NEXT_TO:
                    s, t = sorted((a["id"], b["id"]))
                    out.append({"relation": "next_to", "subject": s, "object": t, "distance": round(dist, 4)})
        for a in members:
            targets = FACING_PAIRS.get(a["category"], ())
            if not targets:
                continue
            ax, ay = a["position"][:2]
            yaw = math.radians(a["yaw"])
            for b in members:
                if b is a or b["category"] not in targets or b["support"] == a["id"] or a["support"] == b["id"]:
                    continue
                bx, by = b["position"][:2]
                dist = math.hypot(bx - ax, by - ay)
                if dist < 1e-6 or dist > FACING_MAX_DIST:
                    continue
                cosang = ((bx - ax) * math.cos(yaw) + (by - ay) * math.sin(yaw)) / dist
                reach = (ax + FACING_MAX_DIST * math.cos(yaw), ay + FACING_MAX_DIST * math.sin(yaw))
                ray = LineString([(ax, ay), reach])
                if cosang >= math.cos(math.radians(FACING_DEG)) or ray.intersects(boxes[b["id"]][0]):
                    out.append({"relation": "facing", "subject": a["id"], "object": b["id"]})
    out.sort(key=lambda r: (r["relation"], _id_key(r["subject"]), _id_key(r["object"])))
    return out


# ---------------------------------------------------------------------------- inspection


def room_walk_spot(scene: dict, label: str) -> tuple[float, float] | None:
    """A free spot (SPOT_RADIUS disc) in room `label` reachable from all its doors, or None.

    Uses the objects already in `scene["objects"]`: every floor-standing object except flat
    carpets blocks the camera. Tests and the trajectory stage can use it.
    """
    from generator.placement import geom

    room = next(r for r in scene["rooms"] if r["label"] == label)
    poly = Polygon(room["polygon"])
    obstacles = [Polygon(o["footprint"]) for o in scene.get("objects", [])
                 if o["room"] == label and o["support"] == "floor" and o["category"] != "carpet"]
    base, _ = geom.walk_spaces(poly, [])
    doors = [d for d in scene["doors"] if label in d["rooms"]]
    entries = [geom.door_entry(poly, d, base) for d in doors]
    spot = geom.walkable(poly, obstacles, entries)
    return None if spot is None else (spot.x, spot.y)
