"""U-shaped stairs inside the stairwell rectangle: the one description of the stair geometry.

The renderer builds the stair meshes from `stair_geometry` and the walk climbs along
`walk_path` / `stairwell_route`, so both read the same numbers. Pure geometry, no bpy.

Public API
----------
* `stair_geometry(stair, scene=None) -> StairGeometry`: steps, landings, divider (`Box`es),
  `openings` {floor: wall segment}, `entries` {floor: `Entry` - where a walker crosses the
  opening: `door` on the wall line, `inside` on the landing, `outside` in the hallway}.
* `walk_path(stair, going_up, scene=None) -> [(x, y, z)]`: the walking line of one flight
  pair from the opening of its start floor to the opening of its end floor.
* `stairwell_route(scene, from_floor, to_floor) -> [(x, y, z_world)]`: the same through
  several flight pairs without leaving the well (crossing the intermediate landings).
The walking line keeps to the middle of each flight, turns on the half landing along a half
circle and rounds its corners on the floor landings.

Convention
----------
The stairwell is the axis-aligned rectangle `stair["polygon"]` (the same on every floor).
Its long axis is split along `u`, measured from the *landing end* E1 (u = 0) to the far end
E2 (u = L); across it `s` is measured from the *side-A* long wall (s = 0) to the side-B
wall (s = S). Going up from floor a to floor b (b = a + 1)::

      E1 ----------------- u --------------------------> E2
      | floor landing |  flight 1 (side A), up +u ...  | half   |
      | (floor a / b) |  flight 2 (side B), up -u ...  | landing|

* the floor landing, u in [0, D], full width, at the floor elevation of a (and of b: the
  landing of floor b is directly above the one of floor a); boxes: `landing-b` (the landing
  of floor b) for every flight pair, `landing-a` only for the lowest pair of the well, where
  it is the floor of the whole well - so stacked pairs never emit the same slab twice;
* flight 1 on side A, from u = D to u = D + run, rises from floor a to half a storey (1.5 m)
  in `RISERS` risers (`RISERS - 1` treads of `tread`; the half landing is the last step);
* the half landing at E2, u in [D + run, L], full width, at 1.5 m;
* flight 2 on side B, from u = D + run back to u = D, rises from 1.5 m to floor b (3.0 m);
* a thin divider wall between the two flights (u in [D, D + run]).

E1 is the end of the long axis nearest to where the stairwell opens onto the hallways
(`bottom`/`top` of every flight of the stairwell), side A the long wall the openings are on
(flight 1 starts beside the opening, so a walker enters, turns towards E2 and climbs). When
the openings are on the E1 end wall, side A is the right-hand wall looking from E1 to E2.

The opening of floor f is a `OPENING_WIDTH` piece of the wall the stairwell shares with a
hallway of floor f (with `scene`: the longest shared piece, pushed towards E1 so that it
faces the landing; without `scene`: centred on the `bottom`/`top` point). On the topmost
floor of the stairwell, when that opening reaches past the landing along side A, a
*gallery* (floor slab at floor b, over the low end of flight 1) extends the landing to it.

For the renderer: build every `StairGeometry.steps`, `.landings` and `.divider` box of every
flight pair (`[stair_geometry(s, scene) for s in scene["stairs"]]`); no other floor or
ceiling slab goes inside the stairwell rectangle (the well is open from its bottom floor to
its top ceiling; `landing-a` is its floor); cut `openings[f]` (a wall segment) out of the
stairwell wall of floor f, as a doorway without a door. Where a U-stair cannot serve the
openings the layout made (an opening out of reach of the landing end), `stair_geometry`
raises `StairError` saying so.

All boxes are `(x0, y0, x1, y1, z0, z1)` in world x/y and z relative to floor a's floor
surface (`elevation` = a * 3.0). Walk points are `(x, y, z)` with z the height of the
walking surface (the feet) relative to floor a; on a flight z follows the line through the
middle of every tread (z at the middle of tread k equals its top), so eye height = elevation
+ z + 1.6 m.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

STOREY = 3.0            # floor-to-floor height (floor f at z = 3.0 f)
HALF = STOREY / 2       # each flight rises half a storey
RISERS = 9              # risers per flight: 9 x 0.1667 m
TREAD = 0.28            # tread depth
MIN_HALF_LANDING = 1.1  # depth of the half landing (room to turn round)
OPENING_WIDTH = 1.1     # clear width of the opening onto the hallway
SLAB = 0.2              # thickness of landings and galleries
WAIST = 0.15            # steps are slabs: tread top down to (lower tread top - WAIST)
DIVIDER = 0.06          # thickness of the wall between the two flights
BODY = 0.35             # clearance the walker keeps from walls and edges inside the well
END_MARGIN = 0.1        # opening kept this far from the ends of the shared wall
GALLERY_MAX = 1.4       # a top-floor gallery covers at most this much of flight 1 (its lowest 5 treads)


class StairError(ValueError):
    """The stairwell cannot be walked (e.g. its opening does not reach the landing)."""


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float
    z0: float
    z1: float
    kind: str = ""  # step-1-3 (flight 1, 3rd tread) | landing-a | half-landing | landing-b | gallery-b | divider

    def as_tuple(self) -> tuple[float, float, float, float, float, float]:
        return (self.x0, self.y0, self.x1, self.y1, self.z0, self.z1)


@dataclass(frozen=True)
class Entry:
    """Where a walker crosses the opening of one floor: `door` on the wall line, `inside` on
    the landing (strip centre), `outside` in the hallway; `span` the opening itself."""

    floor: int
    span: tuple[tuple[float, float], tuple[float, float]]
    door: tuple[float, float]
    inside: tuple[float, float]
    outside: tuple[float, float]
    normal: tuple[float, float]  # out of the stairwell, into the hallway
    wall: str                    # "side-A" | "side-B" | "E1"
    u: float                     # u of the crossing (long wall) or s (E1 wall)


@dataclass
class StairGeometry:
    id: str
    floors: tuple[int, int]
    elevation: float                      # floor a's floor surface
    polygon: list[list[float]]
    axis: str                             # "x" | "y": direction of the long axis
    length: float                         # L
    width: float                          # S
    landing_depth: float                  # D
    half_landing_depth: float             # L - D - run
    tread: float
    riser: float
    run: float                            # (RISERS - 1) * tread
    steps: list[Box] = field(default_factory=list)
    landings: list[Box] = field(default_factory=list)
    divider: Box | None = None
    openings: dict[int, tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=dict)
    entries: dict[int, Entry] = field(default_factory=dict)
    top_of_well: bool = True              # no flight continues above floor b
    _frame: tuple = ()                    # (x0, y0, x1, y1, e1_high, a_high)

    # ----------------------------------------------------------------- frame conversion
    def xy(self, s: float, u: float) -> tuple[float, float]:
        x0, y0, x1, y1, e1_high, a_high = self._frame
        if self.axis == "y":
            y = y1 - u if e1_high else y0 + u
            x = x1 - s if a_high else x0 + s
        else:
            x = x1 - u if e1_high else x0 + u
            y = y1 - s if a_high else y0 + s
        return (round(x, 4) + 0.0, round(y, 4) + 0.0)

    def su(self, x: float, y: float) -> tuple[float, float]:
        x0, y0, x1, y1, e1_high, a_high = self._frame
        if self.axis == "y":
            u = y1 - y if e1_high else y - y0
            s = x1 - x if a_high else x - x0
        else:
            u = x1 - x if e1_high else x - x0
            s = y1 - y if a_high else y - y0
        return s, u

    def box(self, s0: float, s1: float, u0: float, u1: float, z0: float, z1: float, kind: str) -> Box:
        (ax, ay), (bx, by) = self.xy(s0, u0), self.xy(s1, u1)
        return Box(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by), round(z0, 4), round(z1, 4), kind)

    # ----------------------------------------------------------------- walking
    @property
    def s_a(self) -> float:
        return self.width / 4

    @property
    def s_b(self) -> float:
        return 3 * self.width / 4


def _rect(polygon: list[list[float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _well_stairs(stair: dict, scene: dict | None) -> list[dict]:
    if not scene:
        return [stair]
    rect = _rect(stair["polygon"])
    same = [s for s in scene.get("stairs", []) if _rect(s["polygon"]) == rect]
    return sorted(same, key=lambda s: s["floors"][0]) or [stair]


def _shared_wall(rect, scene: dict | None, floor: int, point) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The longest straight piece of the stairwell boundary shared with a hallway of `floor`."""
    if not scene:
        return None
    x0, y0, x1, y1 = rect
    best = None
    for hall in scene.get("hallways", []):
        if hall["floor"] != floor:
            continue
        hx0, hy0, hx1, hy1 = _rect(hall["polygon"])
        pts = hall["polygon"]
        for p, q in zip(pts, pts[1:] + pts[:1]):
            # edges of the (rectilinear) hallway lying on a stairwell side
            for line, coord, lo, hi in (("x", x0, y0, y1), ("x", x1, y0, y1), ("y", y0, x0, x1), ("y", y1, x0, x1)):
                if line == "x" and abs(p[0] - coord) < 1e-6 and abs(q[0] - coord) < 1e-6:
                    a, b = max(lo, min(p[1], q[1])), min(hi, max(p[1], q[1]))
                    seg = ((coord, a), (coord, b))
                elif line == "y" and abs(p[1] - coord) < 1e-6 and abs(q[1] - coord) < 1e-6:
                    a, b = max(lo, min(p[0], q[0])), min(hi, max(p[0], q[0]))
                    seg = ((a, coord), (b, coord))
                else:
                    continue
                if b - a > 1e-6 and (best is None or b - a > best[0] + 1e-9):
                    best = (b - a, seg)
    return best[1] if best else None


def stair_geometry(stair: dict, scene: dict | None = None) -> StairGeometry:
    """The U-stair of one flight pair (`stair` from scene["stairs"]).

    Pass `scene` (as both the renderer and the walk do) so that the openings follow the
    walls actually shared with the hallways and stacked flights agree on the landing end;
    without it the stair is treated as the only one of its well.
    """
    a, b = stair["floors"]
    rect = _rect(stair["polygon"])
    x0, y0, x1, y1 = rect
    axis = "y" if (y1 - y0) >= (x1 - x0) else "x"
    length, width = (y1 - y0, x1 - x0) if axis == "y" else (x1 - x0, y1 - y0)
    well = _well_stairs(stair, scene)
    points = [tuple(s[k]) for s in well for k in ("bottom", "top")]
    top_floor = max(s["floors"][1] for s in well)
    # landing end: the end of the long axis nearest the openings
    along = [p[1] if axis == "y" else p[0] for p in points]
    mid = (y0 + y1) / 2 if axis == "y" else (x0 + x1) / 2
    e1_high = sum(along) / len(along) >= mid
    # side A: the long wall most openings are on
    lo_side, hi_side = (x0, x1) if axis == "y" else (y0, y1)
    across = [p[0] if axis == "y" else p[1] for p in points]
    on_lo = sum(abs(c - lo_side) < 1e-6 for c in across)
    on_hi = sum(abs(c - hi_side) < 1e-6 for c in across)
    if on_lo or on_hi:
        a_high = on_hi > on_lo
    else:  # openings on the end wall: side A on the right looking from E1 to E2
        # looking along -axis (e1 high) the right hand is +x for axis y / -y for axis x
        a_high = e1_high if axis == "y" else not e1_high
    tread = min(TREAD, (length - MIN_HALF_LANDING - 1.0) / (RISERS - 1))
    run = (RISERS - 1) * tread
    half_depth = MIN_HALF_LANDING
    depth = length - run - half_depth
    riser = HALF / RISERS
    g = StairGeometry(id=stair["id"], floors=(a, b), elevation=round(a * STOREY, 4), polygon=stair["polygon"],
                      axis=axis, length=length, width=width, landing_depth=round(depth, 4),
                      half_landing_depth=round(half_depth, 4), tread=round(tread, 4), riser=round(riser, 4),
                      run=round(run, 4), top_of_well=(b == top_floor), _frame=(x0, y0, x1, y1, e1_high, a_high))
    half_w = width / 2
    for k in range(1, RISERS):  # treads 1..8 of each flight (the 9th riser lands on the half landing / floor b)
        top1 = k * riser
        g.steps.append(g.box(0, half_w, depth + (k - 1) * tread, depth + k * tread,
                             max(0.0, top1 - riser - WAIST), top1, f"step-1-{k}"))
        top2 = HALF + k * riser
        g.steps.append(g.box(half_w, width, depth + run - k * tread, depth + run - (k - 1) * tread,
                             top2 - riser - WAIST, top2, f"step-2-{k}"))
    bottom_floor = min(s["floors"][0] for s in well)
    if a == bottom_floor:  # the well's floor (floor a's landing and the floor under the flights)
        g.landings.append(g.box(0, width, 0, length, -SLAB, 0.0, "landing-a"))
    g.landings.append(g.box(0, width, depth + run, length, HALF - SLAB, HALF, "half-landing"))
    g.landings.append(g.box(0, width, 0, depth, STOREY - SLAB, STOREY, "landing-b"))
    g.divider = g.box(half_w - DIVIDER / 2, half_w + DIVIDER / 2, depth, depth + run, 0.0, STOREY, "divider")
    for floor, key in ((a, "bottom"), (b, "top")):
        span = _opening_span(g, rect, scene, floor, stair[key])
        g.openings[floor] = span
    # gallery on the top floor when the opening there reaches past the landing along side A
    if g.top_of_well:
        (p, q) = g.openings[b]
        (sp, up), (sq, uq) = g.su(*p), g.su(*q)
        on_side_a = abs(sp) < 1e-6 and abs(sq) < 1e-6
        if on_side_a and max(up, uq) > depth - BODY:  # (only over the low end of flight 1: headroom)
            g.landings.append(g.box(0, half_w - DIVIDER / 2, depth, min(max(up, uq), depth + GALLERY_MAX), STOREY - SLAB,
                                    STOREY, "gallery-b"))
    for floor in (a, b):
        g.entries[floor] = _entry(g, floor)
    return g


def _opening_span(g: StairGeometry, rect, scene, floor: int, point) -> tuple[tuple[float, float], tuple[float, float]]:
    shared = _shared_wall(rect, scene, floor, point)
    if shared is None:  # centred on the layout's point, along the wall it lies on
        x0, y0, x1, y1 = rect
        px, py = point
        half = OPENING_WIDTH / 2
        if abs(px - x0) < 1e-6 or abs(px - x1) < 1e-6:
            return ((px, round(py - half, 4)), (px, round(py + half, 4)))
        return ((round(px - half, 4), py), (round(px + half, 4), py))
    (px, py), (qx, qy) = shared
    (sp, up), (sq, uq) = g.su(px, py), g.su(qx, qy)
    length = abs(uq - up) if abs(sp - sq) < 1e-6 else abs(sq - sp)
    width = min(OPENING_WIDTH, max(0.0, length - 2 * END_MARGIN))
    if abs(sp - sq) < 1e-6:  # on a long wall: push towards E1 (the landing)
        lo = min(up, uq) + END_MARGIN
        s_wall = sp
        ends = ((s_wall, lo), (s_wall, lo + width))
    else:  # on an end wall: centred
        c = (sp + sq) / 2
        ends = ((c - width / 2, up), (c + width / 2, up))
    (ax, ay), (bx, by) = g.xy(*ends[0]), g.xy(*ends[1])
    return ((min(ax, bx), min(ay, by)), (max(ax, bx), max(ay, by)))


def _entry(g: StairGeometry, floor: int) -> Entry:
    (p, q) = g.openings[floor]
    (sp, up), (sq, uq) = g.su(*p), g.su(*q)
    depth = g.landing_depth
    reach = depth - g.tread / 2 - 0.05  # floor-level part of the landing strip before flight 1's ramp
    if floor == g.floors[1]:
        reach = depth - BODY
        for land in g.landings:
            if land.kind == "gallery-b":
                _, ug0 = g.su(land.x0, land.y0)
                _, ug1 = g.su(land.x1, land.y1)
                reach = max(ug0, ug1) - BODY
    if abs(sp - sq) < 1e-6:  # long wall
        wall = "side-A" if sp < g.width / 2 else "side-B"
        lo, hi = min(up, uq) + BODY, max(up, uq) - BODY
        lo = max(lo, BODY)
        hi = min(hi, reach)
        centre = (up + uq) / 2
        if lo > hi + 1e-9:
            raise StairError(_misplaced(g, floor, p, q, reach))
        u = min(max(centre, lo), hi)
        s_in = g.s_a if wall == "side-A" else g.s_b
        s_out = -0.45 if wall == "side-A" else g.width + 0.45
        door, inside, outside = g.xy(sp, u), g.xy(s_in, u), g.xy(s_out, u)
        coord = u
    else:  # end wall E1 (u = 0)
        wall = "E1"
        if up > g.length / 2:
            raise StairError(_misplaced(g, floor, p, q, reach))
        lo, hi = min(sp, sq) + BODY, max(sp, sq) - BODY
        s = min(max((sp + sq) / 2, lo), hi) if lo <= hi else (sp + sq) / 2
        door, inside, outside = g.xy(s, up), g.xy(s, max(up, 0.0) + 0.55), g.xy(s, up - 0.45)
        coord = s
    n = (outside[0] - door[0], outside[1] - door[1])
    norm = (n[0] ** 2 + n[1] ** 2) ** 0.5
    return Entry(floor, g.openings[floor], door, inside, outside, (round(n[0] / norm, 4) + 0.0, round(n[1] / norm, 4) + 0.0),
                 wall, round(coord, 4))


def _misplaced(g: StairGeometry, floor: int, p, q, reach: float) -> str:
    end = g.xy(g.width / 2, 0.0)
    return (f"{g.id}: on floor {floor} the stairwell opens onto the hallway at {list(p)}-{list(q)}, out of reach of "
            f"the floor landing at the end of the stairwell near {list(end)} (a U-stair needs every floor's opening "
            f"within {reach:.2f} m of that end; fix in the layout: let the hallways of every floor touch the "
            f"stairwell at the same end)")


def _dedupe(points: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    out: list[tuple[float, float, float]] = []
    for p in points:
        if out and abs(out[-1][0] - p[0]) < 1e-6 and abs(out[-1][1] - p[1]) < 1e-6 and abs(out[-1][2] - p[2]) < 1e-6:
            continue
        out.append(p)
    # drop middle points of straight runs
    pruned = out[:1]
    for i in range(1, len(out) - 1):
        a, b, c = pruned[-1], out[i], out[i + 1]
        ab = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        bc = (c[0] - b[0], c[1] - b[1], c[2] - b[2])
        cross = (ab[1] * bc[2] - ab[2] * bc[1], ab[2] * bc[0] - ab[0] * bc[2], ab[0] * bc[1] - ab[1] * bc[0])
        dot = ab[0] * bc[0] + ab[1] * bc[1] + ab[2] * bc[2]
        if max(abs(c_) for c_ in cross) < 1e-9 and dot > 0:
            continue
        pruned.append(b)
    if len(out) > 1:
        pruned.append(out[-1])
    return pruned


def _landing_link(g: StairGeometry, entry: Entry, join_s: float, join_u: float, z: float) -> list[tuple[float, float, float]]:
    """From the opening (door on the wall) to (join_s, join_u) on the landing, in (s, u, z)."""
    s_door, u_door = g.su(*entry.door)
    s_in, u_in = g.su(*entry.inside)
    pts = [(s_door, u_door, z), (s_in, u_in, z)]
    if abs(s_in - join_s) < 1e-6:
        pts.append((join_s, join_u, z))
        return pts
    u_cross = u_in if entry.wall == "E1" else min(u_in, g.landing_depth - 0.55)
    pts += [(s_in, u_cross, z), (join_s, u_cross, z), (join_s, join_u, z)]
    return pts


def _flight_pair_up(g: StairGeometry) -> list[tuple[float, float, float]]:
    """(s, u, z) from the foot of flight 1 to the head of flight 2."""
    d, run, t = g.landing_depth, g.run, g.tread
    sa, sb = g.s_a, g.s_b
    # round the half landing: a half circle of radius S/4 from flight 1's axis to flight 2's
    uc, r, mid = d + run + t / 2, (sb - sa) / 2, (sa + sb) / 2
    turn = [(mid - r * math.cos(math.pi * k / 8), uc + r * math.sin(math.pi * k / 8), HALF) for k in range(9)]
    return [(sa, d - t / 2, 0.0)] + turn + [(sb, d - t / 2, STOREY)]


def _fillet(pts: list[tuple[float, float, float]], radius: float = 0.45) -> list[tuple[float, float, float]]:
    """Round the corners of level stretches (landings) with circular arcs."""
    pts = _dedupe(pts)
    out = [pts[0]]
    for i in range(1, len(pts) - 1):
        a, p, b = out[-1], pts[i], pts[i + 1]
        if not (abs(a[2] - p[2]) < 1e-9 and abs(b[2] - p[2]) < 1e-9):
            out.append(p)
            continue
        la = math.hypot(a[0] - p[0], a[1] - p[1])
        lb = math.hypot(b[0] - p[0], b[1] - p[1])
        ua = ((a[0] - p[0]) / la, (a[1] - p[1]) / la)
        ub = ((b[0] - p[0]) / lb, (b[1] - p[1]) / lb)
        cos_t = max(-1.0, min(1.0, ua[0] * ub[0] + ua[1] * ub[1]))
        inner = math.acos(cos_t)  # angle at the corner between the two legs
        if inner > math.radians(150) or inner < math.radians(20):
            out.append(p)
            continue
        tan_half = math.tan(inner / 2)
        cut = min(0.45 * la, 0.45 * lb, radius / tan_half)
        r = cut * tan_half
        p1 = (p[0] + ua[0] * cut, p[1] + ua[1] * cut)
        p2 = (p[0] + ub[0] * cut, p[1] + ub[1] * cut)
        bis = (ua[0] + ub[0], ua[1] + ub[1])
        nb = math.hypot(*bis)
        centre_d = r / math.sin(inner / 2)
        c = (p[0] + bis[0] / nb * centre_d, p[1] + bis[1] / nb * centre_d)
        a1 = math.atan2(p1[1] - c[1], p1[0] - c[0])
        a2 = math.atan2(p2[1] - c[1], p2[0] - c[0])
        da = (a2 - a1 + math.pi) % (2 * math.pi) - math.pi
        for k in range(7):
            ang = a1 + da * k / 6
            out.append((c[0] + r * math.cos(ang), c[1] + r * math.sin(ang), p[2]))
    out.append(pts[-1])
    return out


def _to_world(g: StairGeometry, pts, z_offset: float = 0.0) -> list[tuple[float, float, float]]:
    out = []
    for s, u, z in _fillet(pts):
        x, y = g.xy(s, u)
        out.append((x, y, round(z + z_offset, 4) + 0.0))
    return _dedupe(out)


def walk_path(stair: dict, going_up: bool, scene: dict | None = None) -> list[tuple[float, float, float]]:
    """Centre-line points (x, y, z) from the opening of the start floor to the opening of
    the end floor; z = walking surface relative to floor a (eye = elevation + z + 1.6)."""
    g = stair_geometry(stair, scene)
    a, b = g.floors
    flights = _flight_pair_up(g)
    up = _landing_link(g, g.entries[a], flights[0][0], flights[0][1], 0.0)[:-1] + flights
    up += list(reversed(_landing_link(g, g.entries[b], flights[-1][0], flights[-1][1], STOREY)))[1:]
    pts = _to_world(g, up)
    return pts if going_up else list(reversed(pts))


def stairwell_route(scene: dict, from_floor: int, to_floor: int) -> list[tuple[float, float, float]]:
    """Points (x, y, z_abs) from the opening on `from_floor` to the opening on `to_floor`,
    through every flight between them without leaving the well; z_abs = absolute height of
    the walking surface (world z of the feet)."""
    if from_floor == to_floor:
        raise ValueError("stairwell_route needs two different floors")
    lo, hi = sorted((from_floor, to_floor))
    by_floor = {s["floors"][0]: s for s in scene.get("stairs", [])}
    chain = []
    for f in range(lo, hi):
        if f not in by_floor or by_floor[f]["floors"][1] != f + 1:
            raise StairError(f"no stairs from floor {f} to floor {f + 1}")
        chain.append(stair_geometry(by_floor[f], scene))
    pts: list[tuple[float, float, float]] = []  # (s, u, z_abs) in the well's common frame
    for i, g in enumerate(chain):
        if g._frame != chain[0]._frame:
            raise StairError("the flights of one stairwell disagree on its layout")
        a, b = g.floors
        flights = _flight_pair_up(g)
        part = []
        if i == 0:
            part += _landing_link(g, g.entries[a], flights[0][0], flights[0][1], 0.0)[:-1]
        part += flights
        if i == len(chain) - 1:
            part += list(reversed(_landing_link(g, g.entries[b], flights[-1][0], flights[-1][1], STOREY)))[1:]
        else:  # cross the landing of floor b from the head of flight 2 to the foot of the next flight 1
            nxt = chain[i + 1]
            nf = _flight_pair_up(nxt)
            u_cross = g.landing_depth - 0.55
            part += [(flights[-1][0], u_cross, STOREY), (nf[0][0], u_cross, STOREY)]
        pts += [(s_, u_, z + g.elevation) for s_, u_, z in part]
    out = _to_world(chain[0], pts)
    return out if from_floor < to_floor else list(reversed(out))


def well_problems(scene: dict) -> list[str]:
    """Why the stairs of `scene` cannot be built or walked (empty when they can): for the
    layout's self-check, so that a plan the U-stair cannot serve is refused early."""
    problems = []
    for stair in scene.get("stairs", []):
        try:
            stair_geometry(stair, scene)
        except StairError as exc:
            problems.append(str(exc))
    return problems
