"""Is the placed scene physically possible? A check of scene.json, independent of the placer.

`check_scene(scene)` reads only what scene.json holds (objects with position, yaw, size and
support; rooms, floors, walls' openings, stairwells) and, with `meshes=True`, the meshes the
renderer builds (`assets.models.build_model`). It uses its own geometry (oriented boxes from
position/yaw/size, separating-axis overlap depths, shapely only for room containment) and none
of placement's helpers, so it checks them. It returns a list of `Violation`s (empty: sound).

What must hold (TOL = 1 cm):
  floor      an object on the floor has its bottom on the floor surface of its floor;
  ceiling    an object on the ceiling has its top at the ceiling;
  wall       an object on a wall has its back on a wall surface (0.05 m in from the wall
             line: walls are 0.1 m thick), not over a doorway, nor over a window (curtains
             excepted: they hang in front of one);
  opening    a window or door object fills an opening of its room (position, sill, width);
  support    an object on another rests on it: its bottom at the height of one of the
             support's surfaces (the mesh's declared surfaces; a support without any, such as
             a book in a stack, offers its top), its footprint within that surface, the
             support's mesh has upward faces there around the object's centre (its centre
             within the hull of the contact: a pot between a stove's grates would tip), and
             no part of the support's mesh is inside the object's box (a shelf above); with
             `meshes=False` (fast, no mesh built) only: its bottom within the support's height
             and its footprint within the support's;
  room       every object (but windows and doors, which sit in the wall) lies inside its room
             within the wall surfaces, between floor and ceiling, off the stairwells;
  overlap    no two objects' boxes (an open door's: with its leaf swung into the room, with
             meshes) interpenetrate by more than PENETRATION, except an object
             and the things resting on it (directly or in a stack), and a floor object
             standing on a carpet (which is PENETRATION-thin or a bit more).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

TOL = 0.01            # contact tolerance (m)
PENETRATION = 0.01    # boxes may interpenetrate this deep (m)
WALL_HALF = 0.05      # walls are 0.1 m thick, centred on the room polygon's edges
FLOOR_LAYERS = frozenset({"carpet"})      # things stand on them, legs sunk in the pile
IN_OPENING = ("window", "door")
FIXED = ("floor", "wall", "ceiling", "window", "door")


@dataclass(frozen=True)
class Violation:
    rule: str                 # floor | ceiling | wall | opening | support | room | overlap
    ids: tuple[str, ...]      # the object(s) at fault
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class PhysicalError(ValueError):
    """A placed scene that is not physically possible; lists the violations."""

    def __init__(self, violations: list[Violation]):
        self.violations = violations
        shown = "\n  ".join(str(v) for v in violations[:20])
        more = f"\n  ... and {len(violations) - 20} more" if len(violations) > 20 else ""
        super().__init__(f"{len(violations)} physical violation(s) in the placed scene:\n  {shown}{more}")


# ---------------------------------------------------------------------------- boxes


@dataclass
class _Box:
    o: dict
    corners: np.ndarray        # (4, 2) CCW: back-left, back-right, front-right, front-left
    axes: np.ndarray           # (2, 2) unit: local x (width), local y (front)
    z0: float
    z1: float

    @property
    def id(self) -> str:
        return self.o["id"]


def _box(o: dict, lo=None, hi=None) -> _Box:
    """The object's box; or the box of local bounds lo..hi ([x, y, z], its own frame)."""
    x, y, z = (float(v) for v in o["position"])
    w, d, h = (float(v) for v in o["size"])
    if lo is None:
        lo, hi = (-w / 2, -d / 2, 0.0), (w / 2, d / 2, h)
    yaw = math.radians(float(o["yaw"]))
    front = np.array([math.cos(yaw), math.sin(yaw)])
    right = np.array([front[1], -front[0]])          # local +x: the front turned clockwise
    c = np.array([x, y])
    corners = np.array([c + right * lo[0] + front * lo[1], c + right * hi[0] + front * lo[1],
                        c + right * hi[0] + front * hi[1], c + right * lo[0] + front * hi[1]])
    return _Box(o, corners, np.array([right, front]), z + lo[2], z + hi[2])


def _open_door_box(o: dict) -> _Box:
    """An open door's box: the frame in the wall and the leaf swung into the room."""
    from assets.models import build_model

    a = o["attributes"]
    model = build_model("door", np.random.default_rng(a["model_seed"]), size=tuple(o["size"]),
                        open_angle=a["open_angle"])
    lo, hi = model.bounds
    return _box(o, lo, hi)


def _depth(a: _Box, b: _Box) -> float:
    """Penetration depth of two oriented boxes (separating axes; <= 0: apart or touching)."""
    depth = min(a.z1, b.z1) - max(a.z0, b.z0)
    for axis in (*a.axes, *b.axes):
        pa, pb = a.corners @ axis, b.corners @ axis
        depth = min(depth, min(pa.max(), pb.max()) - max(pa.min(), pb.min()))
        if depth <= 0:
            return depth
    return depth


# ---------------------------------------------------------------------------- the check


def check_scene(scene: dict, meshes: bool = True) -> list[Violation]:
    """Every physical violation of the scene's placed objects (see the module's docstring)."""
    if hasattr(scene, "model_dump"):      # a formats.scene.Scene
        scene = scene.model_dump(mode="json")
    objects = list(scene.get("objects") or [])
    by_id = {o["id"]: o for o in objects}
    boxes = {o["id"]: _box(o) for o in objects}
    floors = {f["floor"]: (float(f["elevation"]), float(f["height"])) for f in scene["floors"]}
    rooms = {r["label"]: r for r in scene["rooms"]}
    cache: dict = {}          # support id -> (surfaces, mesh)
    out: list[Violation] = []
    for o in objects:
        if o["room"] not in rooms or o["floor"] not in floors:
            out.append(Violation("room", (o["id"],), f"{o['id']} is in no room of the scene ({o['room']!r})"))
            continue
        out += _check_footprint(o, boxes[o["id"]])
        out += _check_room(scene, o, boxes[o["id"]], rooms[o["room"]], floors[o["floor"]])
        kind = o["support"]
        elev, height = floors[o["floor"]]
        z0, z1 = boxes[o["id"]].z0, boxes[o["id"]].z1
        if kind == "floor" and abs(z0 - elev) > TOL:
            out.append(Violation("floor", (o["id"],), f"{o['id']} stands on the floor but its bottom is "
                                                      f"{z0 - elev:+.3f} m from the floor surface"))
        elif kind == "ceiling" and abs(z1 - (elev + height)) > TOL:
            out.append(Violation("ceiling", (o["id"],), f"{o['id']} hangs from the ceiling but its top is "
                                                        f"{z1 - elev - height:+.3f} m from it"))
        elif kind == "wall":
            out += _check_wall(scene, o, boxes[o["id"]], rooms[o["room"]], elev)
        elif kind in IN_OPENING:
            out += _check_opening(scene, o, elev)
        elif kind not in FIXED:
            out += _check_support(o, by_id, boxes, meshes, cache)
    if meshes:      # open doors take the room their leaf swings through
        boxes = {**boxes, **{o["id"]: _open_door_box(o) for o in objects
                             if o["category"] == "door" and o["attributes"].get("open_angle")}}
    out += _check_overlaps(objects, boxes, by_id)
    return out


def assert_physical(scene: dict, meshes: bool = True) -> None:
    """Raise PhysicalError naming every violation, if any."""
    found = check_scene(scene, meshes=meshes)
    if found:
        raise PhysicalError(found)


def _check_footprint(o: dict, b: _Box) -> list[Violation]:
    fp = np.asarray(o["footprint"], float)
    if fp.shape != (4, 2):
        return [Violation("room", (o["id"],), f"{o['id']}: footprint has {len(fp)} corners, not 4")]
    far = max(np.min(np.hypot(*(b.corners - p).T)) for p in fp)
    if far > TOL:
        return [Violation("room", (o["id"],), f"{o['id']}: footprint is {far:.3f} m off the box of its "
                                              f"position, yaw and size")]
    return []


def _check_room(scene: dict, o: dict, b: _Box, room: dict, floor: tuple[float, float]) -> list[Violation]:
    elev, height = floor
    out = []
    if b.z0 < elev - TOL or b.z1 > elev + height + TOL:
        out.append(Violation("room", (o["id"],), f"{o['id']} spans z {b.z0:.3f}-{b.z1:.3f} m, outside its "
                                                 f"storey ({elev:.2f}-{elev + height:.2f} m)"))
    if o["support"] in IN_OPENING:
        return out
    inner = Polygon(room["polygon"]).buffer(-WALL_HALF + TOL, join_style="mitre")
    fp = Polygon(b.corners)
    if not inner.contains(fp):
        out.append(Violation("room", (o["id"],), f"{o['id']} pokes {fp.difference(inner).area:.4f} m² "
                                                 f"out of room {o['room']!r} (into or through a wall)"))
    if o["support"] == "floor":
        for st in scene.get("stairs") or []:
            if o["floor"] in st["floors"]:
                area = fp.intersection(Polygon(st["polygon"])).area
                if area > 1e-4:
                    out.append(Violation("room", (o["id"],), f"{o['id']} stands {area:.3f} m² in stairwell "
                                                             f"{st['id']}"))
    return out


def _check_wall(scene: dict, o: dict, b: _Box, room: dict, elev: float) -> list[Violation]:
    ring = Polygon(room["polygon"]).exterior
    back = b.corners[:2]
    gaps = [ring.distance(Point(p)) - WALL_HALF for p in (back[0], back.mean(axis=0), back[1])]
    if max(abs(g) for g in gaps) > TOL:
        return [Violation("wall", (o["id"],), f"{o['id']} hangs on a wall but its back is {max(gaps):.3f} m off "
                                              f"the wall surface")]
    out = []
    line = LineString(back)
    for door in scene["doors"]:
        if o["room"] in door["rooms"] and b.z0 < elev + door["height"] - TOL:
            if line.distance(_span(door["position"], door["width"], door["wall_axis"])) < WALL_HALF + TOL \
                    and _overlap_along(line, door["position"], door["width"], door["wall_axis"]) > TOL:
                out.append(Violation("wall", (o["id"],), f"{o['id']} hangs over doorway {door['id']}"))
    if o["category"] != "curtain":
        for win in scene["windows"]:
            axis = "x" if win["normal"][1] else "y"
            lo, hi = elev + win["sill"], elev + win["sill"] + win["height"]
            if win["room"] == o["room"] and b.z0 < hi - TOL and b.z1 > lo + TOL \
                    and line.distance(_span(win["position"], win["width"], axis)) < WALL_HALF + TOL \
                    and _overlap_along(line, win["position"], win["width"], axis) > TOL:
                out.append(Violation("wall", (o["id"],), f"{o['id']} hangs over window {win['id']}"))
    return out


def _span(position, width: float, axis: str) -> LineString:
    x, y = position
    if axis == "x":
        return LineString([(x - width / 2, y), (x + width / 2, y)])
    return LineString([(x, y - width / 2), (x, y + width / 2)])


def _overlap_along(line: LineString, position, width: float, axis: str) -> float:
    k = 0 if axis == "x" else 1
    coords = np.asarray(line.coords)[:, k]
    return min(coords.max(), position[k] + width / 2) - max(coords.min(), position[k] - width / 2)


def _check_opening(scene: dict, o: dict, elev: float) -> list[Violation]:
    x, y, z = o["position"]
    if o["support"] == "window":
        found = [w for w in scene["windows"] if w["room"] == o["room"]
                 and math.hypot(w["position"][0] - x, w["position"][1] - y) <= TOL
                 and abs(elev + w["sill"] - z) <= TOL and abs(w["width"] - o["size"][0]) <= TOL]
        what = "window opening"
    else:
        found = [d for d in scene["doors"] if o["room"] in d["rooms"]
                 and math.hypot(d["position"][0] - x, d["position"][1] - y) <= TOL
                 and abs(elev - z) <= TOL and abs(d["width"] - o["size"][0]) <= TOL]
        what = "doorway"
    if not found:
        return [Violation("opening", (o["id"],), f"{o['id']} fills no {what} of {o['room']!r} "
                                                 f"(at {x:.2f}, {y:.2f}, z {z:.2f})")]
    return []


# ---------------------------------------------------------------------------- supports


def _support_surfaces(sup: dict, meshes: bool):
    """[(z above the support's base, (x0, x1, y0, y1) local rectangle)] and the mesh; without
    meshes (None, None): the object may rest anywhere within the support's box."""
    w, d, h = sup["size"]
    if not meshes:
        return None, None
    from assets.models import build_model

    a = sup["attributes"]
    extra = {k: a[k] for k in ("wall_mounted", "open_angle") if a.get(k) is not None}
    model = build_model(sup["category"], np.random.default_rng(a["model_seed"]), size=tuple(sup["size"]),
                        color=a["color"], **extra)
    surfaces = [(float(s.z), (float(s.x0), float(s.x1), float(s.y0), float(s.y1))) for s in model.surfaces]
    if not surfaces:
        surfaces = [(h, (-w / 2, w / 2, -d / 2, d / 2))]
    return surfaces, model.mesh()


def _local(box: _Box, pts: np.ndarray) -> np.ndarray:
    """World (x, y) points in the box's local frame (x along its width, y to its front)."""
    centre = box.corners.mean(axis=0)
    return (np.asarray(pts, float) - centre) @ box.axes.T


def _check_support(o: dict, by_id: dict, boxes: dict, meshes: bool, cache: dict) -> list[Violation]:
    sup = by_id.get(o["support"])
    if sup is None:
        return [Violation("support", (o["id"],), f"{o['id']} rests on {o['support']!r}, which is not in the scene")]
    if sup["room"] != o["room"]:
        return [Violation("support", (o["id"],), f"{o['id']} rests on {sup['id']} in another room")]
    b, sb = boxes[o["id"]], boxes[sup["id"]]
    if sup["id"] not in cache:
        cache[sup["id"]] = _support_surfaces(sup, meshes)
    surfaces, mesh = cache[sup["id"]]
    rel = b.z0 - sb.z0
    local = _local(sb, b.corners)
    if surfaces is None:
        w, d, h = sup["size"]
        surfaces = [(min(max(rel, 0.0), h), (-w / 2, w / 2, -d / 2, d / 2))]
    on = [s for s in surfaces if abs(rel - s[0]) <= TOL]
    if not on:
        heights = ", ".join(f"{s[0]:.3f}" for s in surfaces)
        return [Violation("support", (o["id"],), f"{o['id']} floats or sinks: its bottom is {rel:.3f} m above the "
                                                 f"base of its support {sup['id']}, whose surfaces are at {heights} m")]
    inside = [s for s in on if (local[:, 0] >= s[1][0] - TOL).all() and (local[:, 0] <= s[1][1] + TOL).all()
              and (local[:, 1] >= s[1][2] - TOL).all() and (local[:, 1] <= s[1][3] + TOL).all()]
    if not inside:
        return [Violation("support", (o["id"],), f"{o['id']} overhangs the surface of {sup['id']} it rests on "
                                                 f"(at {rel:.3f} m)")]
    if mesh is None:
        return []
    out = []
    verts = np.asarray(mesh.vertices, float)
    world = np.column_stack([verts[:, :2] @ sb.axes + sb.corners.mean(axis=0), verts[:, 2] + sb.z0])
    if not _contact_ok(world, np.asarray(mesh.faces), b):
        out.append(Violation("support", (o["id"],), f"{o['id']} is not held: the mesh of {sup['id']} has no "
                                                    f"upward face around its centre at its bottom "
                                                    f"(z {b.z0:.3f} m)"))
    cut = _inside_box(world, np.asarray(mesh.faces), b)
    if cut > 1e-5:
        out.append(Violation("support", (o["id"],), f"{o['id']} cuts into the mesh of {sup['id']} "
                                                    f"({cut * 1e4:.1f} cm² of its faces inside its box)"))
    return out


def _contact_ok(world: np.ndarray, faces: np.ndarray, box: _Box) -> bool:
    """Whether the support mesh's upward faces at the object's bottom (within TOL) under its
    footprint hold it: its centre lies within the hull of that contact (grates, slats count)."""
    tri = world[faces]
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    norm = np.linalg.norm(n, axis=1)
    keep = (norm > 1e-12) & (n[:, 2] > 0.9 * np.maximum(norm, 1e-12))
    keep &= np.abs(tri[:, :, 2].mean(axis=1) - box.z0) <= TOL
    lo, hi = box.corners.min(axis=0), box.corners.max(axis=0)
    keep &= (tri[:, :, :2].min(axis=1) < hi).all(axis=1) & (tri[:, :, :2].max(axis=1) > lo).all(axis=1)
    if not keep.any():
        return False
    fp = Polygon(box.corners)
    polys = shapely.polygons(tri[keep][:, :, :2])
    contact = shapely.union_all(shapely.intersection(shapely.make_valid(polys), fp))
    if contact.is_empty or contact.area < 1e-8:
        return False
    return bool(contact.convex_hull.buffer(1e-3).contains(Point(box.corners.mean(axis=0))))


def _inside_box(world: np.ndarray, faces: np.ndarray, b: _Box) -> float:
    """Area of the mesh's faces inside `b` shrunk by PENETRATION on every side."""
    from trimesh.intersections import slice_faces_plane

    centre = b.corners.mean(axis=0)
    w = float(np.linalg.norm(b.corners[1] - b.corners[0]))
    d = float(np.linalg.norm(b.corners[3] - b.corners[0]))
    local = np.column_stack([(world[:, :2] - centre) @ b.axes.T, world[:, 2]])
    lo = np.array([-w / 2 + PENETRATION, -d / 2 + PENETRATION, b.z0 + PENETRATION])
    hi = np.array([w / 2 - PENETRATION, d / 2 - PENETRATION, b.z1 - PENETRATION])
    if (lo >= hi).any():
        return 0.0
    keep = ((local[faces].min(axis=1) < hi) & (local[faces].max(axis=1) > lo)).all(axis=1)
    verts, tris = local, faces[keep]
    for k in range(3):
        for sign, at in ((1.0, lo), (-1.0, hi)):
            if not len(tris):
                return 0.0
            normal = np.zeros(3)
            normal[k] = sign
            origin = np.zeros(3)
            origin[k] = at[k]
            verts, tris = slice_faces_plane(verts, tris, normal, origin)[:2]
    if not len(tris):
        return 0.0
    t = np.asarray(verts)[np.asarray(tris)]
    return float(np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1).sum() / 2)


# ---------------------------------------------------------------------------- overlaps


def _chain(o: dict, by_id: dict) -> set[str]:
    """Ids of everything `o` rests on, directly or through a stack."""
    seen: set[str] = set()
    cur = o
    while cur["support"] in by_id and cur["support"] not in seen:
        seen.add(cur["support"])
        cur = by_id[cur["support"]]
    return seen


def _check_overlaps(objects: list[dict], boxes: dict, by_id: dict) -> list[Violation]:
    out = []
    chains = {o["id"]: _chain(o, by_id) for o in objects}
    per_floor: dict[int, list[dict]] = {}
    for o in objects:
        per_floor.setdefault(o["floor"], []).append(o)
    for members in per_floor.values():
        lo = np.array([boxes[o["id"]].corners.min(axis=0) for o in members])
        hi = np.array([boxes[o["id"]].corners.max(axis=0) for o in members])
        for i, a in enumerate(members):
            near = np.flatnonzero((lo[i + 1:] < hi[i] - PENETRATION).all(axis=1)
                                  & (hi[i + 1:] > lo[i] + PENETRATION).all(axis=1)) + i + 1
            for j in near:
                b = members[j]
                if a["id"] in chains[b["id"]] or b["id"] in chains[a["id"]]:
                    continue
                ba, bb = boxes[a["id"]], boxes[b["id"]]
                depth = _depth(ba, bb)
                if depth <= PENETRATION:
                    continue
                layer = [x for x in (a, b) if x["category"] in FLOOR_LAYERS and x["support"] == "floor"]
                if len(layer) == 1:
                    other = b if layer[0] is a else a
                    if other["support"] == "floor" or layer[0]["id"] in chains[other["id"]]:
                        continue      # standing on the rug
                area = Polygon(ba.corners).intersection(Polygon(bb.corners)).area
                out.append(Violation("overlap", (a["id"], b["id"]),
                                     f"{a['id']} and {b['id']} intersect: {depth * 100:.1f} cm deep, "
                                     f"{area:.4f} m² in plan"))
    return out


__all__ = ["PENETRATION", "TOL", "PhysicalError", "Violation", "assert_physical", "check_scene"]
