"""Room shells from scene.json as plain meshes (no bpy): walls with door/window openings,
floors, ceilings, baseboards, door casings, ceiling lamps, stairs, and light positions.

Walls in scene.json are zero-thickness centre lines; each is built as two half-thickness
slabs, one per side, so that every wall face belongs to the space it faces (a room's walls
carry the room's id in the visibility pass). Openings are left out of the slabs (no booleans):
a slab is cut into columns beside an opening and pieces below/above it.

Owners: a room label, `hallway:<id>`, `stairs:<id>` or `exterior` (outside faces, ground).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import trimesh
from shapely.geometry import Point, Polygon

from assets.materials import Material, make_material
from assets.shells import ShellStyle, exterior_wall_material, shell_style, stairs_material

WALL_T = 0.1            # wall thickness (m)
WALL_H = 2.8            # storey clear height (m)
FLOOR_STEP = 3.0        # floor-to-floor height (m)
EXT = WALL_T / 2 - 0.001  # wall end extension (closes corners, stays inside a crossing wall)
BASEBOARD_H, BASEBOARD_T = 0.08, 0.012
CASING_W, CASING_T = 0.06, 0.015
EXTERIOR = "exterior"
GROUND = make_material("concrete", (0.52, 0.56, 0.44))       # lawn-ish ground seen outside
LAMP = make_material("light", (1.0, 0.97, 0.9), emission=4.0)
LAMP_RIM = make_material("painted metal", (0.92, 0.92, 0.9))


@dataclass
class ShellPart:
    owner: str
    name: str
    mesh: trimesh.Trimesh
    material: Material


@dataclass
class Space:
    key: str                 # room label | hallway:<id> | stairs:<id>
    kind: str                # room | hallway | stairs
    floor: int
    polygon: Polygon
    style: ShellStyle


@dataclass
class LightSpot:
    owner: str
    position: tuple[float, float, float]   # just under the ceiling
    size: float                            # lamp panel edge (m)
    area: float                            # floor area this light serves (m^2)


@dataclass
class Shell:
    parts: list[ShellPart] = field(default_factory=list)
    lights: list[LightSpot] = field(default_factory=list)
    spaces: list[Space] = field(default_factory=list)

    def by_owner(self) -> dict[str, list[ShellPart]]:
        out: dict[str, list[ShellPart]] = defaultdict(list)
        for p in self.parts:
            out[p.owner].append(p)
        return dict(out)


def _quad_mesh(quads: list[np.ndarray]) -> trimesh.Trimesh:
    """Quads (4x3 arrays, counter-clockwise seen from the front) as one triangle mesh."""
    v = np.concatenate(quads)
    base = np.arange(0, len(v), 4)[:, None]
    f = np.concatenate([base + [0, 1, 2], base + [0, 2, 3]])
    return trimesh.Trimesh(v, f, process=False)


def _box(x0, x1, y0, y1, z0, z1) -> trimesh.Trimesh:
    x0, x1 = sorted((x0, x1))
    y0, y1 = sorted((y0, y1))
    z0, z1 = sorted((z0, z1))
    v = np.array([[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0],
                  [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]], float)
    f = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
                  [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]])
    return trimesh.Trimesh(v, f, process=False)


def _merge(meshes: list[trimesh.Trimesh]) -> trimesh.Trimesh:
    return trimesh.util.concatenate(meshes) if len(meshes) > 1 else meshes[0]


def rect_cells(polygon) -> list[tuple[float, float, float, float]]:
    """A rectilinear polygon as rectangles (x0, x1, y0, y1) on the grid of its coordinates,
    neighbouring cells merged along x per row (few, exact, all quads)."""
    poly = Polygon(polygon)
    xs = sorted({round(float(x), 6) for x, _ in polygon})
    ys = sorted({round(float(y), 6) for _, y in polygon})
    cells = []
    for j in range(len(ys) - 1):
        run = None
        for i in range(len(xs) - 1):
            inside = poly.contains(Point((xs[i] + xs[i + 1]) / 2, (ys[j] + ys[j + 1]) / 2))
            if inside and run is None:
                run = i
            if not inside and run is not None:
                cells.append((xs[run], xs[i], ys[j], ys[j + 1]))
                run = None
        if run is not None:
            cells.append((xs[run], xs[-1], ys[j], ys[j + 1]))
    return cells


def _flat(cells, z: float, up: bool) -> list[np.ndarray]:
    out = []
    for x0, x1, y0, y1 in cells:
        q = np.array([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]], float)
        out.append(q if up else q[::-1].copy())
    return out


def _shade(rgb, f):
    return tuple(min(1.0, c * f) for c in rgb)


def floor_parts(owner: str, cells, z: float, style: ShellStyle, seed: int) -> list[ShellPart]:
    """Floor surface with its pattern as geometry (works in Workbench and Cycles alike):
    planks = staggered boards in three shades over a dark joint layer; tiles = tiles over
    grout; carpet/concrete = plain."""
    rng = np.random.default_rng(seed)
    base = style.floor
    if style.floor_pattern not in ("planks", "tiles") or style.pattern_size <= 0:
        return [ShellPart(owner, "floor", _quad_mesh(_flat(cells, z, True)), base)]
    joint = Material(base.kind, (*style.pattern_color, 1.0), base.roughness)
    parts = [ShellPart(owner, "floor-joints", _quad_mesh(_flat(cells, z, True)), joint)]
    shades = [Material(base.kind, (*_shade(base.color[:3], f), 1.0), base.roughness)
              for f in ((1.0, 0.93, 1.06) if style.floor_pattern == "planks" else (1.0, 0.97))]
    quads: list[list[np.ndarray]] = [[] for _ in shades]
    zt = z + 0.002
    size = style.pattern_size
    gap = 0.004 if style.floor_pattern == "planks" else 0.006
    for x0, x1, y0, y1 in cells:
        if style.floor_pattern == "planks":
            # boards run along x, rows of width `size` along y, staggered joints along x
            ny = max(1, int(math.ceil((y1 - y0) / size - 1e-6)))
            for j in range(ny):
                ya, yb = y0 + j * size, min(y1, y0 + (j + 1) * size)
                x = x0 - float(rng.uniform(0, 1.2))
                while x < x1:
                    length = float(rng.uniform(0.9, 1.8))
                    xa, xb = max(x, x0), min(x + length, x1)
                    if xb - xa > 0.02:
                        k = int(rng.integers(len(shades)))
                        quads[k].append(np.array([[xa + gap / 2, ya + gap / 2, zt], [xb - gap / 2, ya + gap / 2, zt],
                                                  [xb - gap / 2, yb - gap / 2, zt], [xa + gap / 2, yb - gap / 2, zt]]))
                    x += length
        else:
            # tiles on a grid anchored at the origin so rooms line up
            for i in range(int(math.floor(x0 / size)), int(math.ceil(x1 / size))):
                for j in range(int(math.floor(y0 / size)), int(math.ceil(y1 / size))):
                    xa, xb = max(x0, i * size), min(x1, (i + 1) * size)
                    ya, yb = max(y0, j * size), min(y1, (j + 1) * size)
                    if xb - xa < 0.01 or yb - ya < 0.01:
                        continue
                    k = (i + j) % len(shades)
                    quads[k].append(np.array([[xa + gap / 2, ya + gap / 2, zt], [xb - gap / 2, ya + gap / 2, zt],
                                              [xb - gap / 2, yb - gap / 2, zt], [xa + gap / 2, yb - gap / 2, zt]]))
    for k, mat in enumerate(shades):
        if quads[k]:
            parts.append(ShellPart(owner, f"floor-{k}", _quad_mesh(quads[k]), mat))
    return parts


# --- walls ------------------------------------------------------------------------------------

@dataclass
class Opening:
    kind: str     # door | window | stair
    s0: float     # along the wall
    s1: float
    z0: float     # above the floor
    z1: float


def _wall_axis(a, b) -> str | None:
    if abs(a[1] - b[1]) < 1e-6:
        return "x"
    if abs(a[0] - b[0]) < 1e-6:
        return "y"
    return None


def _openings_on(axis: str, c: float, s0: float, s1: float, floor: int, scene: dict,
                 extra: list[dict]) -> list[Opening]:
    along, perp = (0, 1) if axis == "x" else (1, 0)
    out = []
    for d in scene.get("doors", []):
        if d.get("floor", 0) != floor or d.get("wall_axis") != axis:
            continue
        p = d["position"]
        if abs(p[perp] - c) > 0.03 or not (s0 - 1e-6 <= p[along] <= s1 + 1e-6):
            continue
        w = float(d.get("width", 0.9))
        out.append(Opening("door", p[along] - w / 2, p[along] + w / 2, 0.0, float(d.get("height", 2.1))))
    for wnd in scene.get("windows", []):
        if wnd.get("floor", 0) != floor:
            continue
        n = wnd.get("normal", [0, 1])
        w_axis = "x" if abs(n[1]) > abs(n[0]) else "y"
        p = wnd["position"]
        if w_axis != axis or abs(p[perp] - c) > 0.03 or not (s0 - 1e-6 <= p[along] <= s1 + 1e-6):
            continue
        w = float(wnd.get("width", 1.2))
        sill = float(wnd.get("sill", 0.9))
        out.append(Opening("window", p[along] - w / 2, p[along] + w / 2, sill, sill + float(wnd.get("height", 1.2))))
    for e in extra:      # stair openings: {floor, position, width, height, wall_axis}
        if e["floor"] != floor or e["wall_axis"] != axis:
            continue
        p = e["position"]
        if abs(p[perp] - c) > 0.03 or not (s0 - 1e-6 <= p[along] <= s1 + 1e-6):
            continue
        out.append(Opening("stair", p[along] - e["width"] / 2, p[along] + e["width"] / 2, 0.0, e["height"]))
    clipped = []
    for o in out:
        a, b = max(o.s0, s0), min(o.s1, s1)
        if b - a > 1e-3:
            clipped.append(Opening(o.kind, a, b, max(0.0, o.z0), min(WALL_H, o.z1)))
    return clipped


class _Locator:
    """Which space contains a point, per floor."""

    def __init__(self, spaces: list[Space]):
        self.by_floor: dict[int, list[Space]] = defaultdict(list)
        order = {"room": 0, "hallway": 1, "stairs": 2}
        for s in sorted(spaces, key=lambda s: order[s.kind]):
            self.by_floor[s.floor].append(s)

    def at(self, floor: int, x: float, y: float) -> Space | None:
        p = Point(x, y)
        for s in self.by_floor.get(floor, []):
            if s.polygon.contains(p):
                return s
        return None


def _wall_parts(scene: dict, spaces: list[Space], elevations: dict[int, float],
                extra_openings: list[dict]) -> list[ShellPart]:
    loc = _Locator(spaces)
    walls = [w for w in scene.get("walls", []) if _wall_axis(w["a"], w["b"])]
    # wall ends continued by a collinear wall are not extended (no overlapping coplanar faces)
    ends: dict[tuple, set] = defaultdict(set)
    for w in walls:
        axis = _wall_axis(w["a"], w["b"])
        for pt in (w["a"], w["b"]):
            ends[(w.get("floor", 0), axis, round(pt[0], 4), round(pt[1], 4))].add(id(w))
    ext_mat = exterior_wall_material()
    climbing_from = {s["floors"][0] for s in scene.get("stairs", [])}
    parts: list[ShellPart] = []
    for w in walls:
        floor = w.get("floor", 0)
        z_base = elevations.get(floor, floor * FLOOR_STEP)
        axis = _wall_axis(w["a"], w["b"])
        along, perp = (0, 1) if axis == "x" else (1, 0)
        c = float(w["a"][perp])
        s0, s1 = sorted((float(w["a"][along]), float(w["b"][along])))
        if s1 - s0 < 1e-4:
            continue
        openings = _openings_on(axis, c, s0, s1, floor, scene, extra_openings)

        def point(s, q):
            return (s, q) if axis == "x" else (q, s)

        def continued(s):
            key = (floor, axis, *(round(v, 4) for v in point(s, c)))
            return len(ends.get(key, ())) > 1
        ext0 = 0.0 if continued(s0) else EXT
        ext1 = 0.0 if continued(s1) else EXT
        # breakpoints: openings and the corners of neighbouring spaces on this line
        cuts = {s0, s1}
        for o in openings:
            cuts.update((o.s0, o.s1))
        for sp in loc.by_floor.get(floor, []):
            for x, y in sp.polygon.exterior.coords:
                pv = (x, y)
                if abs(pv[perp] - c) < 1e-6 and s0 < pv[along] < s1:
                    cuts.add(pv[along])
        cuts = sorted(cuts)
        for u0, u1 in zip(cuts[:-1], cuts[1:]):
            if u1 - u0 < 1e-4:
                continue
            mid = (u0 + u1) / 2
            hole = next((o for o in openings if o.s0 - 1e-6 <= mid <= o.s1 + 1e-6), None)
            a0 = u0 - (ext0 if abs(u0 - s0) < 1e-9 else 0.0)
            a1 = u1 + (ext1 if abs(u1 - s1) < 1e-9 else 0.0)
            for sign in (1, -1):
                space = loc.at(floor, *point(mid, c + sign * (WALL_T / 2 + 0.01)))
                owner = space.key if space else EXTERIOR
                mat = space.style.wall if space else ext_mat
                # a stairwell with a flight going up is open to the next floor: its walls
                # close the gap between this floor's ceiling height and the next floor
                top = WALL_H
                if space is not None and space.kind == "stairs" and floor in climbing_from:
                    top = elevations.get(floor + 1, (floor + 1) * FLOOR_STEP) - z_base
                if hole is None:
                    spans = [(0.0, top)]
                else:
                    spans = [(z0, z1) for z0, z1 in ((0.0, hole.z0), (hole.z1, top)) if z1 - z0 > 1e-3]
                q0, q1 = c, c + sign * WALL_T / 2
                meshes = []
                for z0, z1 in spans:
                    lo, hi = point(a0, q0), point(a1, q1)
                    meshes.append(_box(lo[0], hi[0], lo[1], hi[1], z_base + z0, z_base + z1))
                parts.append(ShellPart(owner, "wall", _merge(meshes), mat))
                if space is None:
                    continue
                trim = []
                # baseboard where the wall meets the floor
                if (hole is None or hole.z0 > 0.2) and space.kind != "stairs":
                    lo, hi = point(u0, q1), point(u1, q1 + sign * BASEBOARD_T)
                    trim.append(_box(lo[0], hi[0], lo[1], hi[1], z_base, z_base + BASEBOARD_H))
                if trim:
                    parts.append(ShellPart(owner, "baseboard", _merge(trim), space.style.baseboard))
        # casings around doors, on each side that faces a space
        for o in openings:
            if o.kind not in ("door", "stair"):
                continue
            mid = (o.s0 + o.s1) / 2
            for sign in (1, -1):
                space = loc.at(floor, *point(mid, c + sign * (WALL_T / 2 + 0.01)))
                if space is None:
                    continue
                q1, q2 = c + sign * WALL_T / 2, c + sign * (WALL_T / 2 + CASING_T)
                # casing: two legs and a head piece that do not overlap (no coplanar faces)
                boxes = []
                head = o.z1 + CASING_W < WALL_H
                top = o.z1 + (CASING_W if head else 0.0)
                for sa, sb in ((o.s0 - CASING_W, o.s0), (o.s1, o.s1 + CASING_W)):
                    if sa < s0 - EXT or sb > s1 + EXT:
                        continue
                    lo, hi = point(sa, q1), point(sb, q2)
                    boxes.append(_box(lo[0], hi[0], lo[1], hi[1], z_base, z_base + top))
                if head:
                    lo, hi = point(o.s0, q1), point(o.s1, q2)
                    boxes.append(_box(lo[0], hi[0], lo[1], hi[1], z_base + o.z1, z_base + top))
                # jamb lining inside the opening (the half on this side), slightly inset
                for s in (o.s0, o.s1):
                    d = 0.012 if s == o.s0 else -0.012
                    lo, hi = point(s, c), point(s + d, q1 - sign * 0.001)
                    boxes.append(_box(lo[0], hi[0], lo[1], hi[1], z_base, z_base + o.z1 - 0.012))
                lo, hi = point(o.s0, c), point(o.s1, q1 - sign * 0.001)
                boxes.append(_box(lo[0], hi[0], lo[1], hi[1], z_base + o.z1 - 0.012, z_base + o.z1))
                parts.append(ShellPart(space.key, "casing", _merge(boxes), space.style.door_frame))
    return parts


# --- stairs -----------------------------------------------------------------------------------

def stair_boxes(stair: dict, scene: dict, elevations: dict[int, float]):
    """Step, landing and divider boxes [(x0, x1, y0, y1, z0, z1)] (world z), the wall
    openings the flight needs onto the hallways, and lamp positions (over the landings).

    The geometry is generator.stairs.stair_geometry, the one the walk climbs.
    """
    from generator.stairs import stair_geometry
    geo = stair_geometry(stair, scene)
    z = elevations.get(geo.floors[0], geo.elevation)
    boxes = []
    for b in list(geo.steps) + list(geo.landings) + ([geo.divider] if geo.divider else []):
        boxes.append((b.x0, b.x1, b.y0, b.y1, z + b.z0, z + b.z1))
    lamps = []          # under the landing of the floor above / the top ceiling
    for land in geo.landings:
        if land.kind in ("landing-a", "landing-b"):
            lz = z + (0.0 if land.kind == "landing-a" else 3.0)
            if land.kind == "landing-b" and not geo.top_of_well:
                continue
            lamps.append(((land.x0 + land.x1) / 2, (land.y0 + land.y1) / 2, lz + WALL_H - 0.1))
    openings = []
    for floor, ((px, py), (qx, qy)) in geo.openings.items():
        axis = "x" if abs(py - qy) < 1e-6 else "y"
        width = abs(qx - px) if axis == "x" else abs(qy - py)
        openings.append({"floor": floor, "position": [(px + qx) / 2, (py + qy) / 2], "width": width,
                         "height": 2.1, "wall_axis": axis})
    return boxes, openings, lamps


# --- assembly ---------------------------------------------------------------------------------

def collect_spaces(scene: dict) -> list[Space]:
    spaces: list[Space] = []
    counts: dict[str, int] = defaultdict(int)
    from assets.shells import room_kind
    for r in scene.get("rooms", []):
        kind = room_kind(r.get("type") or r["label"])
        spaces.append(Space(r["label"], "room", r.get("floor", 0), Polygon(r["polygon"]),
                            shell_style(r.get("type") or r["label"], counts[kind])))
        counts[kind] += 1
    for i, h in enumerate(scene.get("hallways", [])):
        spaces.append(Space(f"hallway:{h['id']}", "hallway", h.get("floor", 0), Polygon(h["polygon"]),
                            shell_style("hallway", i)))
    # one stairwell space per (floor, polygon): flights stacked in one well share it; it is
    # named after the flight leaving that floor (else the one arriving)
    wells: dict[tuple, str] = {}
    for s in sorted(scene.get("stairs", []), key=lambda s: s["floors"][0]):
        for f in sorted(set(s["floors"])):
            key = (f, Polygon(s["polygon"]).wkb)
            if key not in wells or s["floors"][0] == f:
                wells[key] = s["id"]
    for (f, _), sid in wells.items():
        s = next(t for t in scene["stairs"] if t["id"] == sid)
        spaces.append(Space(f"stairs:{sid}", "stairs", f, Polygon(s["polygon"]), shell_style("stairs")))
    return spaces


def light_spots(space: Space, z: float, spacing: float = 3.0) -> list[LightSpot]:
    """Ceiling lamp positions: a grid about `spacing` apart inside the space (at least one)."""
    poly = space.polygon
    minx, miny, maxx, maxy = poly.bounds
    nx = max(1, int(round((maxx - minx) / spacing)))
    ny = max(1, int(round((maxy - miny) / spacing)))
    inner = poly.buffer(-0.4)
    pts = []
    for i in range(nx):
        for j in range(ny):
            p = Point(minx + (i + 0.5) * (maxx - minx) / nx, miny + (j + 0.5) * (maxy - miny) / ny)
            if not inner.is_empty and inner.contains(p):
                pts.append((p.x, p.y))
    if not pts:
        rp = poly.representative_point()
        pts = [(rp.x, rp.y)]
    area = poly.area / len(pts)
    return [LightSpot(space.key, (x, y, z), 0.45, area) for x, y in pts]


def build_shell(scene: dict, seed: int = 0) -> Shell:
    """Every static surface of the building, grouped by owner, plus ceiling light spots."""
    elevations = {f["floor"]: float(f.get("elevation", f["floor"] * FLOOR_STEP)) for f in scene.get("floors", [])}
    spaces = collect_spaces(scene)
    shell = Shell(spaces=spaces)
    stairs = scene.get("stairs", [])
    stair_openings: list[dict] = []
    stair_geo = {}
    for s in stairs:
        boxes, ops, lamps = stair_boxes(s, scene, elevations)
        stair_geo[s["id"]] = boxes
        area = Polygon(s["polygon"]).area
        shell.lights += [LightSpot(f"stairs:{s['id']}", lamp, 0.3, area) for lamp in lamps]
        for o in ops:          # stacked flights agree on the shared floor's opening
            if o not in stair_openings:
                stair_openings.append(o)
    for k, sp in enumerate(spaces):
        z = elevations.get(sp.floor, sp.floor * FLOOR_STEP)
        cells = rect_cells(list(sp.polygon.exterior.coords)[:-1])
        has_floor = has_ceiling = True
        if sp.kind == "stairs":
            sid = sp.key.split(":", 1)[1]
            flights = [s for s in stairs if Polygon(s["polygon"]).equals(sp.polygon)]
            arriving = any(s["floors"][-1] == sp.floor for s in flights)
            leaving = any(s["floors"][0] == sp.floor for s in flights)
            has_floor = not arriving          # the flight from below comes up through it
            has_ceiling = not leaving         # the flight going up passes through it
        if has_floor:
            if sp.kind == "stairs":
                shell.parts.append(ShellPart(sp.key, "floor", _quad_mesh(_flat(cells, z, True)), sp.style.floor))
            else:
                shell.parts += floor_parts(sp.key, cells, z, sp.style, seed * 7919 + k)
        if has_ceiling:
            shell.parts.append(ShellPart(sp.key, "ceiling", _quad_mesh(_flat(cells, z + WALL_H, False)),
                                         sp.style.ceiling))
            if sp.kind != "stairs":
                spots = light_spots(sp, z + WALL_H - 0.05)
                shell.lights += spots
                lamps, rims = [], []
                for spot in spots:
                    x, y, _ = spot.position
                    r = spot.size / 2
                    lamps.append(_box(x - r, x + r, y - r, y + r, z + WALL_H - 0.035, z + WALL_H - 0.03))
                    rims.append(_box(x - r - 0.02, x + r + 0.02, y - r - 0.02, y + r + 0.02,
                                     z + WALL_H - 0.03, z + WALL_H))
                shell.parts.append(ShellPart(sp.key, "lamp", _merge(lamps), LAMP))
                shell.parts.append(ShellPart(sp.key, "lamp-rim", _merge(rims), LAMP_RIM))
    for s in stairs:
        boxes = stair_geo[s["id"]]
        if boxes:
            mat = stairs_material()
            owner = f"stairs:{s['id']}"
            shell.parts.append(ShellPart(owner, "steps", _merge([_box(*b) for b in boxes]), mat))
    shell.parts += _wall_parts(scene, spaces, elevations, stair_openings)
    # the ground outside, a little below floor 0, seen through windows and doors
    xs = [x for sp in spaces for x, _ in sp.polygon.exterior.coords] or [0.0]
    ys = [y for sp in spaces for _, y in sp.polygon.exterior.coords] or [0.0]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    shell.parts.append(ShellPart(EXTERIOR, "ground", _quad_mesh(_flat([(cx - 150, cx + 150, cy - 150, cy + 150)],
                                                                       -0.02, True)), GROUND))
    return shell
