"""Where to stand in a room and how to look around so that every object of it is seen.

Viewing model (the camera of formats.camera: at 640x480 with a 70 deg horizontal FOV the
vertical half-FOV `vfov_half` is atan(tan(35 deg) * 3/4) = 27.7 deg, passed in by the walk
planner from its Camera): an object is *seen* from a standpoint when it is
within its reach (MAX_VIEW m, less for small things: large enough in the frame to count as seen,
docs/ground-truth.md), some pitch in [MIN_PITCH, MAX_PITCH] (down to LOOK_DOWN_PITCH for glasses, up to LOOK_UP_PITCH for bulbs) puts part of it (all of a small
thing) well inside the vertical field of view, and at least half of the rays from the eye to sample points on it
clear every other object's box (a 3-D check against footprint prisms) and every wall.
Standpoints are picked greedily (set cover) on the free grid of the room, trading coverage,
view quality and the time to walk there, pan and walk on.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from assets.categories import BACKED_SEATS, BULB_SOCKET_H, bulb_glass_height
from assets.vocabulary import named_broadside, named_from_front
from generator.walk.motion import WALK_SPEED
from generator.walk.space import FLAT_HEIGHT, Field, Leg, base_z

CENTRE_HALF = 25.0       # "near the image centre": within this many degrees of the view axis (of 35 at 70 deg
                         # HFOV; at 25 deg a thing's centre is 107 px inside the edge of a 640-px frame)
V_MARGIN = 6.0           # keep this much of the object (deg) inside the vertical FOV - or all of a small
EDGE_DEG = 4.0           # one and this much more (up to V_MARGIN in all): the id pass counts an object only
                         # where a 16-px square of it (2.0 deg) lies beyond the 32-px strip along the frame's
                         # edges (3.7 deg of 480 px; render.idcolors), and either way at least that much of it
                         # does. With only half of a small thing inside, an apple on a table 1 m away sat in
                         # the bottom strip for a whole 1 s stop and was never seen (sample-1-005).
MIN_PITCH = -25.0
MAX_PITCH = 8.0
MAX_VIEW = 5.0           # metres, centre to centre
# "Seen" needs 0.1% of the frame (docs/ground-truth.md). At 70 deg HFOV and 4:3 an object of
# silhouette A m^2 at d m covers about 0.68 * A / d^2 of the frame; planning for twice that
# (a partly hidden or cut-off view still counts) puts small things within sqrt(340 * A) m.
SILHOUETTE_REACH = 340.0
MIN_REACH = 1.2          # metres: even a tiny thing is planned for from at least this far ...
# ... except low things that stand up and show only their front: open eyeglasses stand on rims
# and temple tips, a wire frame round two 3.4-cm lenses. The id pass lists a thing only where a
# 16-px square of it shows (2.0 deg at 640x480, render.idcolors.block_side), so they need their
# 4-cm height to span about 2.5 deg: within BLOCK_REACH times it. Planned as flat things from
# 1.2-1.8 m, all 9 eyeglasses of the sampled and bundled renders went unseen.
STAND_UP = frozenset({"eyeglasses"})
BLOCK_REACH = 23.0       # 1 / tan(2.5 deg)
# Within that reach, glasses on a 0.47-m bedside stand lie 50-60 deg below the eye: no pitch
# down to MIN_PITCH shows them clear of the edge strip (the band was empty beyond 0.99 m and
# the reach ends at 0.95), so the walk never planned a look, and 5 of 7 sampled glasses, all
# on stands or beds, went unseen. A person looks down at a nightstand: these may be looked at
# down to LOOK_DOWN_PITCH.
LOOK_DOWN_PITCH = -40.0
# A bulb hangs 2.4-2.6 m up from the middle of the ceiling: up to MAX_PITCH the frame shows it
# only from 1.45 m or more away, which a small bathroom does not have (4 of 50 sampled bulbs,
# all in bathrooms, went unseen). A person glances up at a lamp: bulbs may be looked up at to
# LOOK_UP_PITCH.
LOOK_UP = frozenset({"bulb"})
LOOK_UP_PITCH = 25.0
NEAR_REACH = 0.8         # metres: the closest reach planned for (a standpoint keeps 0.32 m off furniture)
MIN_FRAMES = 15
FRONT_DEG = 60.0         # a thing named only from its front is planned for from within this of its
                         # front direction (the questions accept 70: docs/ground-truth.md "Seen")
QUALITY_WEIGHT = 1.0     # seconds of walking a fully good view of one object is worth


@dataclass
class Target:
    id: str
    category: str
    room: str
    x: float
    y: float
    z0: float            # absolute bottom
    z1: float            # absolute top
    poly: np.ndarray     # footprint corners (K, 2), counter-clockwise
    samples: np.ndarray  # (P, 3) points on the object the rays aim at
    support: str
    excluded: frozenset[str]  # ids that never occlude it (its supports, things on it)
    min_vis: float = 0.5      # fraction of clear rays that counts as seen (lower for things
                              # mostly hidden from everywhere, e.g. a carpet under a bed)
    reach: float = MAX_VIEW   # metres within which it is large enough in the frame to count as seen
    front: tuple[float, float] | None = None  # the way a thing named only from its front faces
                                              # (assets.vocabulary.FRONT_ONLY), or the seat it lies on
                                              # (assets.categories.BACKED_SEATS): seen from there only
    back_too: bool = False    # ... or from its back as well (NAMED_BROADSIDE: a sofa, not end-on)
    min_pitch: float = MIN_PITCH  # the lowest pitch it is looked at with
    max_pitch: float = MAX_PITCH  # the highest


def _ccw(poly: np.ndarray) -> np.ndarray:
    x, y = poly[:, 0], poly[:, 1]
    area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return poly if area >= 0 else poly[::-1]


def targets_of(scene: dict, room: str, elevation: float) -> list[Target]:
    objs = {o["id"]: o for o in scene.get("objects", [])}
    out = []
    for o in scene.get("objects", []):
        if o.get("room") != room:
            continue
        out.append(_target(o, objs, elevation))
    return out


def _target(o: dict, objs: dict, elevation: float) -> Target:
    pos = o["position"]
    z0 = base_z(o, elevation)
    w, d, h = (float(v) for v in (o.get("size") or [0.3, 0.3, 0.3]))
    if o["category"] == "bulb":   # the glass, not the cord to the ceiling: a 0.5-m box made the walk plan
        h = min(h, bulb_glass_height(w) + BULB_SOCKET_H)   # bulbs from 4 m and aim above them (6 of 44 unseen)
    z1 = z0 + h
    if o.get("footprint"):
        poly = _ccw(np.asarray(o["footprint"], float))
    else:
        poly = np.array([[pos[0] - w / 2, pos[1] - d / 2], [pos[0] + w / 2, pos[1] - d / 2],
                         [pos[0] + w / 2, pos[1] + d / 2], [pos[0] - w / 2, pos[1] + d / 2]])
    cx, cy = float(pos[0]), float(pos[1])
    yaw = math.radians(float(o.get("yaw", 90.0)) - 90.0)
    ux, uy = math.cos(yaw), math.sin(yaw)   # local x (width) in the world
    vx, vy = -uy, ux                          # local y (depth, front)
    mid = z0 + 0.55 * h
    top = z1 - min(0.02, h / 4)
    upright = h >= 0.1 or o["category"] in STAND_UP
    if not upright:  # flat things (carpets, mats, books): a 3 x 3 grid over the top
        samples = [(cx + a * w * ux + b * d * vx, cy + a * w * uy + b * d * vy, top)
                   for a in (-0.4, 0.0, 0.4) for b in (-0.4, 0.0, 0.4)]
    else:
        samples = [(cx, cy, mid), (cx, cy, top)]
        for a, b in ((0.38, 0.38), (-0.38, 0.38), (0.38, -0.38), (-0.38, -0.38)):
            samples.append((cx + a * w * ux + b * d * vx, cy + a * w * uy + b * d * vy, top if h < 0.3 else mid))
    # never occluded by what holds it up or stands on it
    excluded = set()
    sup = o.get("support")
    seen = set()
    while sup in objs and sup not in seen:
        seen.add(sup)
        excluded.add(sup)
        sup = objs[sup].get("support")
    for other in objs.values():
        if other.get("support") == o["id"]:
            excluded.add(other["id"])
    # silhouette: side on for things with height, half the top for flat ones seen from above
    silhouette = max(w, d) * h if upright else 0.5 * w * d
    if o["category"] == "bulb":
        silhouette *= math.pi / 4   # a round glass in its box
    if o["category"] in STAND_UP:
        reach = float(np.clip(min(math.sqrt(SILHOUETTE_REACH * silhouette), BLOCK_REACH * h), NEAR_REACH, MAX_VIEW))
    else:
        reach = float(np.clip(math.sqrt(SILHOUETTE_REACH * silhouette), MIN_REACH, MAX_VIEW))
    broadside = named_broadside(o["category"])
    front = (vx, vy) if named_from_front(o["category"]) or broadside else None
    seat = objs.get(o.get("support"))
    if front is None and seat is not None and seat["category"] in BACKED_SEATS:
        seat_yaw = math.radians(float(seat.get("yaw", 90.0)))   # its front, where the back does not hide it
        front = (math.cos(seat_yaw), math.sin(seat_yaw))
    return Target(o["id"], o["category"], o["room"], cx, cy, z0, z1, poly, np.array(samples), str(o.get("support")),
                  frozenset(excluded), reach=reach, front=front, back_too=broadside,
                  min_pitch=LOOK_DOWN_PITCH if o["category"] in STAND_UP else MIN_PITCH,
                  max_pitch=LOOK_UP_PITCH if o["category"] in LOOK_UP else MAX_PITCH)


@dataclass
class Occluder:
    id: str
    poly: np.ndarray  # CCW
    z0: float
    z1: float


def occluders_of(scene: dict, floor: int, elevation: float, room: str | None) -> list[Occluder]:
    out = []
    for o in scene.get("objects", []):
        if o.get("floor", 0) != floor or (room is not None and o.get("room") != room) or not o.get("footprint"):
            continue
        h = float(o["size"][2])
        if h < FLAT_HEIGHT or o.get("support") == "window":
            continue
        z0 = base_z(o, elevation)
        out.append(Occluder(o["id"], _ccw(np.asarray(o["footprint"], float)), z0, z0 + h))
    return out


@dataclass
class OccluderPack:
    """Occluder prisms as padded arrays (O occluders x K edges) for vectorized ray tests."""

    ids: list[str]
    vx: np.ndarray
    vy: np.ndarray
    nx: np.ndarray
    ny: np.ndarray
    z0: np.ndarray
    z1: np.ndarray


def pack(occluders: list[Occluder]) -> OccluderPack:
    k = max([len(o.poly) for o in occluders] + [3])
    n = len(occluders)
    vx, vy, nx, ny = (np.zeros((n, k)) for _ in range(4))
    for i, o in enumerate(occluders):
        poly = np.vstack([o.poly, np.repeat(o.poly[-1:], k - len(o.poly), axis=0)])
        nxt = np.vstack([poly[1:len(o.poly)], poly[:1], np.repeat(poly[:1], k - len(o.poly), axis=0)])
        vx[i], vy[i] = poly[:, 0], poly[:, 1]
        nx[i] = nxt[:, 1] - poly[:, 1]   # outward normals of a CCW polygon;
        ny[i] = -(nxt[:, 0] - poly[:, 0])  # padded edges are degenerate (zero normal)
    return OccluderPack([o.id for o in occluders], vx, vy, nx, ny, np.array([o.z0 for o in occluders]),
                        np.array([o.z1 for o in occluders]))


def clear_fraction(ex: np.ndarray, ey: np.ndarray, ez: float, tg: "Target", occ: OccluderPack,
                   walls: np.ndarray) -> np.ndarray:
    """For eyes (ex, ey, ez): the fraction of the rays to the target's sample points that
    no other object's prism (footprint x [z0, z1]) and no wall cuts."""
    ex, ey = np.asarray(ex, float), np.asarray(ey, float)
    sx, sy, sz = tg.samples[:, 0], tg.samples[:, 1], tg.samples[:, 2]
    blocked = np.zeros((len(ex), len(sx)), bool)
    use = np.array([i != tg.id and i not in tg.excluded for i in occ.ids], bool)
    if use.any():
        vx, vy, nx, ny = occ.vx[use], occ.vy[use], occ.nx[use], occ.ny[use]
        z0, z1 = occ.z0[use], occ.z1[use]
        num = nx[None, :, :] * (ex[:, None, None] - vx[None]) + ny[None, :, :] * (ey[:, None, None] - vy[None])  # (C,O,K)
        dx = sx[None, :] - ex[:, None]
        dy = sy[None, :] - ey[:, None]                                                                        # (C,P)
        den = nx[None, None] * dx[:, :, None, None] + ny[None, None] * dy[:, :, None, None]                    # (C,P,O,K)
        num = num[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = -num / den
        t_in = np.maximum(np.max(np.where(den < -1e-12, t, 0.0), axis=-1), 0.0)
        t_out = np.minimum(np.min(np.where(den > 1e-12, t, 1.0), axis=-1), 0.98)  # last 2 %: the target itself
        outside = np.any((np.abs(den) <= 1e-12) & (num > 0), axis=-1)
        hit = (t_in < t_out) & ~outside                                                                       # (C,P,O)
        dz = (sz - ez)[None, :, None]
        za, zb = ez + t_in * dz, ez + t_out * dz
        lo, hi = np.minimum(za, zb), np.maximum(za, zb)
        blocked |= np.any(hit & (hi > z0[None, None]) & (lo < z1[None, None]), axis=-1)
    # walls: aim 0.15 m short of the sample (wall-mounted things sit on the wall line)
    for p in range(len(sx)):
        length = np.maximum(np.hypot(sx[p] - ex, sy[p] - ey), 1e-6)
        f = np.maximum(0.0, (length - 0.15) / length)
        blocked[:, p] |= _segments_cross(ex, ey, ex + f * (sx[p] - ex), ey + f * (sy[p] - ey), walls)
    clear = 1.0 - blocked.mean(axis=1)
    if tg.front is not None:   # behind or beside it, a microwave is a box: only its front names it
        dx, dy = ex - tg.x, ey - tg.y
        along = dx * tg.front[0] + dy * tg.front[1]
        ahead = (np.abs(along) if tg.back_too else along) >= math.cos(math.radians(FRONT_DEG)) * np.hypot(dx, dy)
        clear = np.where(ahead, clear, 0.0)
    return clear


def _segments_cross(px, py, qx, qy, walls: np.ndarray) -> np.ndarray:
    """(C,) segments p->q crossing any wall piece (M, 4)."""
    if len(walls) == 0:
        return np.zeros(np.shape(px), bool)
    ax, ay, bx, by = (walls[:, k][None, :] for k in range(4))
    px, py, qx, qy = (np.asarray(v, float)[:, None] for v in (px, py, qx, qy))

    def orient(x1, y1, x2, y2, x3, y3):
        return (x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1)

    d1 = orient(ax, ay, bx, by, px, py)
    d2 = orient(ax, ay, bx, by, qx, qy)
    d3 = orient(px, py, qx, qy, ax, ay)
    d4 = orient(px, py, qx, qy, bx, by)
    return np.any((d1 * d2 < -1e-12) & (d3 * d4 < -1e-12), axis=1)


@dataclass
class ViewTable:
    """Per candidate standpoint (rows) and target (columns)."""

    xy: np.ndarray          # (C, 2)
    cells: np.ndarray       # (C, 2) grid cells
    dist: np.ndarray        # (C, T) metres
    bearing: np.ndarray     # (C, T) degrees
    vis: np.ndarray         # (C, T) fraction of clear rays
    vfeasible: np.ndarray   # (C, T)
    pitch: np.ndarray       # (C, T) preferred pitch
    band_lo: np.ndarray     # (C, T) pitch range that shows the object
    band_hi: np.ndarray


def elevation_band(d: np.ndarray, z0: float, z1: float, eye_z: float, vfov_half: float,
                   min_pitch: float = MIN_PITCH, max_pitch: float = MAX_PITCH):
    """Preferred pitch and the pitch range that keeps part of the object in view (vfov_half:
    half the camera's vertical field of view, degrees; pitches from min_pitch to max_pitch)."""
    d = np.maximum(d, 0.05)
    e_top = np.degrees(np.arctan2(z1 - eye_z, d))
    e_bot = np.degrees(np.arctan2(z0 - eye_z, d))
    # the view spans [pitch - vfov_half, pitch + vfov_half]; it must overlap the object's
    # [e_bot, e_top] by m: V_MARGIN deg, or all of a smaller object and EDGE_DEG more
    m = np.minimum(V_MARGIN, (e_top - e_bot) + EDGE_DEG)
    lo = e_bot + m - vfov_half   # lower pitches leave the object above the picture
    hi = e_top - m + vfov_half   # higher pitches leave it below
    # aim a little above the middle of the object (gentle pitch, the object in the lower
    # half of the image); never up unless nothing else shows it
    zc = min(z0 + 0.5 * (z1 - z0), eye_z - 0.1)
    preferred = np.clip(np.degrees(np.arctan2(zc - eye_z, d)) + 8.0, min_pitch, 0.0)
    preferred = np.clip(preferred, np.maximum(lo, min_pitch), np.minimum(hi, max_pitch))
    feasible = (np.maximum(lo, min_pitch) <= np.minimum(hi, max_pitch))
    return np.clip(preferred, min_pitch, max_pitch), lo, hi, feasible


def view_table(xy: np.ndarray, cells: np.ndarray, targets: list[Target], occluders: OccluderPack, eye_z: float,
               walls: np.ndarray, *, vfov_half: float) -> ViewTable:
    c = len(xy)
    t = len(targets)
    dist = np.zeros((c, t))
    bearing = np.zeros((c, t))
    vis = np.zeros((c, t))
    vfeas = np.zeros((c, t), bool)
    pitch = np.zeros((c, t))
    blo = np.zeros((c, t))
    bhi = np.zeros((c, t))
    ex, ey = xy[:, 0], xy[:, 1]
    for k, tg in enumerate(targets):
        dx, dy = tg.x - ex, tg.y - ey
        dist[:, k] = np.hypot(dx, dy)
        bearing[:, k] = np.degrees(np.arctan2(dy, dx))
        p, lo, hi, feas = elevation_band(dist[:, k], tg.z0, tg.z1, eye_z, vfov_half, tg.min_pitch, tg.max_pitch)
        pitch[:, k], blo[:, k], bhi[:, k], vfeas[:, k] = p, lo, hi, feas
        vis[:, k] = clear_fraction(ex, ey, eye_z, tg, occluders, walls)
        if tg.front is not None and not (vis[:, k] > 0).any():   # no standpoint shows its front:
            tg.front = None                                      # any clear view beats none
            vis[:, k] = clear_fraction(ex, ey, eye_z, tg, occluders, walls)
    return ViewTable(xy, cells, dist, bearing, vis, vfeas, pitch, blo, bhi)


def seen_frames(xs: np.ndarray, ys: np.ndarray, eye_z: float, yaw: np.ndarray, pitch: np.ndarray, tg: Target,
                occluders: OccluderPack, walls: np.ndarray, half: float = CENTRE_HALF, *,
                vfov_half: float) -> np.ndarray:
    """Per frame: is the target within `half` deg of the view axis, inside the vertical
    field of view, within its reach and at least half unoccluded?"""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    dx, dy = tg.x - xs, tg.y - ys
    d = np.hypot(dx, dy)
    bearing = np.degrees(np.arctan2(dy, dx))
    _, lo, hi, _ = elevation_band(d, tg.z0, tg.z1, eye_z, vfov_half)
    ok = (np.abs((bearing - np.asarray(yaw) + 180.0) % 360.0 - 180.0) <= half) & (d <= tg.reach)
    ok &= (np.asarray(pitch) >= lo - 1e-6) & (np.asarray(pitch) <= hi + 1e-6)
    idx = np.nonzero(ok)[0]
    if len(idx) == 0:
        return ok
    ok[idx] = clear_fraction(xs[idx], ys[idx], eye_z, tg, occluders, walls) >= tg.min_vis - 1e-9
    return ok


def settle_min_vis(table: ViewTable, targets: list[Target]) -> list[int]:
    """Lower the visibility a target needs where no standpoint shows half of it; returns the
    targets no standpoint shows at all (hidden)."""
    hidden = []
    for k, tg in enumerate(targets):
        reach = table.vis[:, k][(table.dist[:, k] <= MAX_VIEW) & table.vfeasible[:, k]]
        best = float(reach.max()) if len(reach) else 0.0
        if best <= 1e-9:
            hidden.append(k)
            tg.min_vis = 0.5
        else:
            tg.min_vis = min(0.5, max(0.1, round(0.75 * best, 3)))
    return hidden


def covered(table: ViewTable, strict: np.ndarray, targets: list[Target] | None = None) -> np.ndarray:
    """(C, T) whether each target counts as seen from each candidate (`strict` targets -
    those the render said were under-seen - need every ray clear and a closer view)."""
    n = table.vis.shape[1]
    need = np.array([t.min_vis for t in targets]) if targets else np.full(n, 0.5)
    reach = np.array([t.reach for t in targets]) if targets else np.full(n, MAX_VIEW)
    ok = (table.dist <= reach[None, :]) & table.vfeasible & (table.vis >= need[None, :] - 1e-9)
    tight = ((table.dist <= np.minimum(3.2, reach)[None, :]) & (table.dist >= np.minimum(0.9, 0.8 * reach)[None, :])
             & table.vfeasible
             & (table.vis >= 0.99))
    return np.where(strict[None, :], tight, ok)


def quality(table: ViewTable) -> np.ndarray:
    d = table.dist
    dq = np.clip(np.minimum((d - 0.4) / 0.8, (6.0 - d) / 2.5), 0.3, 1.0)
    return table.vis * dq


def sweep_arc(bearings: np.ndarray) -> tuple[float, float]:
    """Smallest arc (start, length) going counter-clockwise that holds all bearings."""
    b = np.sort(np.mod(bearings, 360.0))
    if len(b) == 1:
        return float(b[0]), 0.0
    gaps = np.diff(np.concatenate([b, [b[0] + 360.0]]))
    k = int(np.argmax(gaps))
    start = b[(k + 1) % len(b)]
    return float(start), float(360.0 - gaps[k])


def candidate_cells(leg: Leg, room_index: int, fld: Field, spacing: int = 2) -> np.ndarray:
    fs = leg.fs
    mask = leg.roomy & (fs.space == room_index) & np.isfinite(fld.dist)
    comfy = mask & (fs.d_obj >= 0.45) & (leg.d_wall >= 0.5)
    if comfy.sum() >= 4:
        mask = comfy
    ii, jj = np.nonzero(mask)
    sub = (ii % spacing == 0) & (jj % spacing == 0)
    if sub.sum() >= 4:
        ii, jj = ii[sub], jj[sub]
    return np.stack([ii, jj], axis=1)


def close_cells(leg: Leg, room_index: int, fld: Field, targets: list[Target], taken: np.ndarray) -> np.ndarray:
    """Free cells of the room, beyond the comfortable ones `candidate_cells` keeps (`taken`),
    within reach of `targets`: standpoints for things no comfortable one shows, such as glasses
    on a nightstand in the 0.9-m gap between a bed and the wall (sample-1-000, -012), or past
    a bed's corner where the walk squeezes by (sample-1-009: 0.28 m off the bed)."""
    fs = leg.fs
    mask = leg.free & (fs.space == room_index) & np.isfinite(fld.dist)
    if len(taken):
        mask[taken[:, 0], taken[:, 1]] = False
    ii, jj = np.nonzero(mask)
    if len(ii) == 0 or not targets:
        return np.zeros((0, 2), int)
    xy = np.array([fs.centre(i, j) for i, j in zip(ii, jj)])
    near = np.zeros(len(ii), bool)
    for tg in targets:
        near |= np.hypot(xy[:, 0] - tg.x, xy[:, 1] - tg.y) <= tg.reach
    return np.stack([ii[near], jj[near]], axis=1)


def angle_to(a: float, b: float) -> float:
    """Signed smallest rotation from a to b (degrees)."""
    return float((b - a + 180.0) % 360.0 - 180.0)


def choose_viewpoints(table: ViewTable, targets: list[Target], strict: np.ndarray, d_in: np.ndarray,
                      h_in: np.ndarray, d_out: np.ndarray | None, h_out: np.ndarray | None,
                      hidden: list[int] = ()) -> list[tuple[int, list[int]]]:
    """Set cover: [(candidate row, [target columns it is responsible for])]. Each of the
    FIRST_CANDIDATES most promising first standpoints is completed greedily and the plan
    that takes least time (`plan_seconds`: walking in, panning, walking on) wins, so a
    standpoint near the way in that shows most objects within one short sweep beats one in
    the middle of the room that shows them all around. `hidden` targets (no standpoint
    shows any of them) are only added to the pan of the nearest standpoint chosen for the
    others. The standpoints are visited in the order that takes least time."""
    if not targets:
        return []
    cov = covered(table, strict, targets)
    qual = quality(table)
    remaining = np.ones(len(targets), bool)
    remaining[list(hidden)] = False
    firsts: list[int | None] = [None]
    if remaining.any():
        counts = (cov & remaining[None, :]).sum(axis=1)
        score = counts - 0.15 * d_in  # more objects first, then nearer the way in
        order = np.lexsort((np.arange(len(score)), -score))
        firsts += [int(r) for r in order[:FIRST_CANDIDATES] if counts[r] > 0]
    best = None
    for first in firsts:
        chosen = _greedy_cover(table, targets, strict, cov, qual, remaining.copy(), d_in, h_in, d_out, h_out, first)
        t = plan_seconds(chosen, table, d_in, h_in, d_out, h_out)
        t += WEAK_S * sum(1 for row, cols in chosen for k in cols if not cov[row, k])
        t += STOP_S * (len(chosen) - 1)
        if first is None:
            stops = len(chosen)
        elif len(chosen) > stops:
            continue  # never more standpoints than the plain greedy cover
        if best is None or t < best[0] - 1e-9:
            best = (t, chosen)
    chosen = best[1]
    if 2 <= len(chosen) <= 5:  # visit the standpoints in the order that takes least time
        chosen = list(min(itertools.permutations(chosen),
                          key=lambda p: plan_seconds(list(p), table, d_in, h_in, d_out, h_out)))
    if not chosen and len(hidden):
        chosen.append((int(np.argmin(d_in)), []))
    for k in hidden:
        n = min(range(len(chosen)), key=lambda n: table.dist[chosen[n][0], k])
        if table.dist[chosen[n][0], k] <= 6.0:
            chosen[n][1].append(int(k))
    return chosen


FIRST_CANDIDATES = 40    # first standpoints tried (each completed greedily) in choose_viewpoints
WALK_OVERHEAD_S = 0.5    # seconds a rest-to-rest walk takes beyond its length at full speed
PAN_DEG_S = 57.0         # degrees a pan turns per second on average (slower over objects, faster between)
TURN_OVERHEAD_S = 0.4    # the same for a turn on the spot
STOP_S = 2.0             # each further standpoint (a stop, a turn to walk on, a pan's lead-in)
WEAK_S = 6.0             # an object looked at from where it is only partly visible: likely extra looks


def pan_degrees(bearings: np.ndarray, yaw_in: float | None, yaw_out: float | None, lead: float = 6.0) -> float:
    """Degrees turned to pan across `bearings` (one sweep over their smallest arc, `lead`
    past either end) arriving facing `yaw_in` and leaving towards `yaw_out` (None: either
    is free)."""
    if len(bearings) == 0:
        return 0.0 if yaw_in is None or yaw_out is None else abs(angle_to(yaw_in, yaw_out))
    start, arc = sweep_arc(bearings)
    best = None
    for s0, s1 in ((start - lead, start + arc + lead), (start + arc + lead, start - lead)):
        t = arc + 2 * lead
        if yaw_in is not None and np.isfinite(yaw_in):
            t += abs(angle_to(yaw_in, s0))
        if yaw_out is not None and np.isfinite(yaw_out):
            t += abs(angle_to(s1, yaw_out))
        best = t if best is None else min(best, t)
    return float(best)


def plan_seconds(chosen: list[tuple[int, list[int]]], table: ViewTable, d_in: np.ndarray, h_in: np.ndarray,
                 d_out: np.ndarray | None, h_out: np.ndarray | None) -> float:
    """Rough seconds a plan of standpoints takes: walking in and between standpoints
    (straight lines inside the room, x1.2), one pan from each, walking on."""
    if not chosen:
        return 0.0
    t = 0.0
    prev = None
    for n, (row, cols) in enumerate(chosen):
        if prev is None:
            dist, yaw_in = float(d_in[row]), float(h_in[row])
        else:
            dx, dy = table.xy[row] - table.xy[prev]
            dist = 1.2 * math.hypot(dx, dy)
            yaw_in = math.degrees(math.atan2(dy, dx))
        if dist > 1e-6:
            t += dist / WALK_SPEED + WALK_OVERHEAD_S
        if n + 1 < len(chosen):
            dx, dy = table.xy[chosen[n + 1][0]] - table.xy[row]
            yaw_out = math.degrees(math.atan2(dy, dx))
        else:
            yaw_out = None if h_out is None else float(h_out[row])
        t += pan_degrees(table.bearing[row, cols], yaw_in, yaw_out) / PAN_DEG_S + TURN_OVERHEAD_S
        prev = row
    if d_out is not None:
        t += float(d_out[chosen[-1][0]]) / WALK_SPEED
    return t


def _greedy_cover(table: ViewTable, targets: list[Target], strict: np.ndarray, cov: np.ndarray, qual: np.ndarray,
                  remaining: np.ndarray, d_in: np.ndarray, h_in: np.ndarray, d_out: np.ndarray | None,
                  h_out: np.ndarray | None, first: int | None) -> list[tuple[int, list[int]]]:
    """Greedy cover (most objects first, then least time) starting from standpoint `first`
    (None: the greedy choice)."""
    chosen: list[tuple[int, list[int]]] = []
    walk_in = d_in.copy()
    is_first = True
    while remaining.any():
        counts = (cov & remaining[None, :]).sum(axis=1)
        best_count = counts.max()
        if best_count == 0:
            # what no standpoint shows well: look at it from where it is least hidden
            rest = np.nonzero(remaining)[0]
            loose = (table.dist[:, rest] <= 6.0) & table.vfeasible[:, rest]
            score = (loose * (0.5 + table.vis[:, rest])).sum(axis=1) - 0.05 * walk_in
            row = int(np.argmax(score))
            chosen.append((row, [int(k) for k in rest]))
            break
        if is_first and first is not None:
            row = first
        else:
            rows = np.nonzero(counts == best_count)[0]
            cost = np.zeros(len(rows))
            for n, row in enumerate(rows):
                cols = np.nonzero(cov[row] & remaining)[0]
                start, arc = sweep_arc(table.bearing[row, cols])
                end = start + arc
                h = h_in[row] if is_first else None
                turn_in = 0.0 if h is None or not np.isfinite(h) else min(abs(angle_to(h, start)), abs(angle_to(h, end)))
                turn_out = 0.0
                if d_out is not None and h_out is not None and remaining.sum() == best_count and np.isfinite(h_out[row]):
                    turn_out = min(abs(angle_to(end, h_out[row])), abs(angle_to(start, h_out[row])))
                t = walk_in[row] / 0.8 + (arc + turn_in + turn_out) / (0.85 * PAN_DEG_S)
                if d_out is not None and remaining.sum() == best_count:
                    t += d_out[row] / 0.8
                t -= QUALITY_WEIGHT * qual[row, cols].sum()
                cost[n] = t
            row = int(rows[int(np.argmin(cost))])
        cols = [int(k) for k in np.nonzero(cov[row] & remaining)[0]]
        chosen.append((row, cols))
        remaining[cols] = False
        # what a standpoint already chosen shows at least partly is looked at from there
        # (the rendered visibility decides; under-seen objects come back as `strict`)
        for k in np.nonzero(remaining & ~strict)[0]:
            # glasses' reach is the id pass's block, not a rough size: no slack (sample-1-013's
            # were left to a standpoint 1.31 m off and went unseen)
            slack = 0.0 if targets[k].category in STAND_UP else 0.5
            loose = [(table.vis[r, k], n) for n, (r, _) in enumerate(chosen)
                     if table.dist[r, k] <= targets[k].reach + slack and table.vfeasible[r, k] and table.vis[r, k] >= 0.2]
            if loose:
                _, n = max(loose)
                chosen[n][1].append(int(k))
                remaining[k] = False
        # walking on from this standpoint (straight-line estimate inside one room)
        walk_in = np.hypot(table.xy[:, 0] - table.xy[row, 0], table.xy[:, 1] - table.xy[row, 1]) * 1.2
        is_first = False
    return chosen
