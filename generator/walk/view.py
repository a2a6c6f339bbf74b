"""Where to stand in a room and how to look around so that every object of it is seen.

Viewing model (the camera of formats.camera: at 640x480 with a 70 deg horizontal FOV the
vertical half-FOV `vfov_half` is atan(tan(35 deg) * 3/4) = 27.7 deg, passed in by the walk
planner from its Camera): an object is *seen* from a standpoint when it is
within its reach (MAX_VIEW m, less for small things: large enough in the frame to count as seen,
docs/ground-truth.md), some pitch in [MIN_PITCH, MAX_PITCH] (down to LOOK_DOWN_PITCH for glasses, up to LOOK_UP_PITCH for bulbs) puts part of it (all of a small
thing) well inside the vertical field of view, and at least half of the rays from the eye to sample points on it
clear every other object's box (a 3-D check against footprint prisms) and every wall.
Which standpoints to use is generator.walk.cover's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import shapely
from shapely.geometry import Polygon

from assets.categories import BACKED_SEATS, BULB_SOCKET_H, INNER_SHELVES, bulb_glass_height
from assets.shelves import side_walls
from assets.vocabulary import named_broadside, named_from_front, named_from_nearly_in_front
from formats.camera import EYE_HEIGHT
from generator.walk.space import FLAT_HEIGHT, base_z

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
# A question counts a thing only where its visible pixels are 15% of its whole projected box, the
# part beyond the frame's edges included (docs/ground-truth.md "Counting"). Planned for by the
# vertical overlap alone, a toilet 0.8 m away showed its lid and cistern at the frame's bottom
# and fell short, so 16 of 67 sampled walks went back to their toilets (extra looks, 5-13 s each).
# So a pitch must also keep SHOWN_IN_VIEW of the box's height in the picture, its nearest bottom
# edge to its farthest top edge (a model fills about half its box).
SHOWN_IN_VIEW = 0.5
MAX_VIEW = 5.0           # metres, centre to centre
# "Seen" needs 0.1% of the frame (docs/ground-truth.md). At 70 deg HFOV and 4:3 an object of
# silhouette A m^2 at d m covers about 0.68 * A / d^2 of the frame; planning for twice that
# (a partly hidden or cut-off view still counts) puts small things within sqrt(340 * A) m.
SILHOUETTE_REACH = 340.0
MIN_REACH = 1.2          # metres: even a tiny thing is planned for from at least this far ...
# ... except low things that stand up and show only their front: open eyeglasses stand on rims
# and temple tips, a wire frame round two 3.4-cm lenses. The id pass lists them only where their
# outline (convex hull, assets.vocabulary.OPEN_FRAME) holds a 16-px square (2.0 deg at 640x480,
# render.idcolors.block_side), so they need their 4-cm height to span about 2.5 deg: within
# BLOCK_REACH times it. Planned as flat things from
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
# Things whose outline fills little of their box's face: a bulb is a round glass in its box; a
# headphone seen along its width (ear cups edge-on under the band) covers 0.0073 of the 0.032 m^2
# its box shows (measured on the model), and 2 of the first 3 sampled headphones, planned for as
# solid boxes from 2.3-3.1 m, covered under 0.1% of the frame there and went unseen.
SILHOUETTE_FILL = {"bulb": math.pi / 4, "headphone": 0.22}
# A flat thing lying at about eye height or above (a folded shirt on a wardrobe's 1.5-m shelf)
# shows only its front edge, never its top: like standing glasses, it must be near enough for
# its height to span the square. Planned by its top from 3.4 m, such a shirt went unseen
# (sample-1-006).
EDGE_ON_M = 0.15
NEAR_REACH = 0.8         # metres: the closest reach planned for (a standpoint keeps 0.32 m off furniture)
MIN_FRAMES = 15
FRONT_DEG = 60.0         # a thing named only from its front is planned for from within this of its
                         # front direction (the questions accept 70: docs/ground-truth.md "Seen")
NARROW_FRONT_DEG = 40.0  # ... and glasses (FRONT_ONLY_NARROW) from within this (the questions accept 45)
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
                                              # (assets.categories.BACKED_SEATS) or the shelved furniture
                                              # it lies in (INNER_SHELVES): seen from there only
    back_too: bool = False    # ... or from its back as well (NAMED_BROADSIDE: a sofa, not end-on)
    front_deg: float = FRONT_DEG  # how far off `front` it is planned for from
    min_pitch: float = MIN_PITCH  # the lowest pitch it is looked at with
    max_pitch: float = MAX_PITCH  # the highest


def _width_axis(o: dict) -> tuple[float, float]:
    """The world direction of an object's local x (its width); its front is this turned 90 deg
    counter-clockwise (scene.json `yaw`, degrees, is the way the front faces)."""
    yaw = math.radians(float(o.get("yaw", 90.0)) - 90.0)
    return math.cos(yaw), math.sin(yaw)


def _ccw(poly: np.ndarray) -> np.ndarray:
    x, y = poly[:, 0], poly[:, 1]
    area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return poly if area >= 0 else poly[::-1]


def targets_of(scene: dict, room: str, elevation: float, eye_height: float = EYE_HEIGHT) -> list[Target]:
    objs = {o["id"]: o for o in scene.get("objects", [])}
    out = []
    for o in scene.get("objects", []):
        if o.get("room") != room:
            continue
        out.append(_target(o, objs, elevation, eye_height))
    return out


def _target(o: dict, objs: dict, elevation: float, eye_height: float) -> Target:
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
    ux, uy = _width_axis(o)                   # local x (width) in the world
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
        if not on_inner_shelf(o, objs[sup]):   # on its top: its walls (_shelf_walls) hide nothing of it
            excluded.update(shelf_wall_ids(objs[sup]))
        sup = objs[sup].get("support")
    for other in objs.values():
        if other.get("support") == o["id"]:
            excluded.add(other["id"])
    # silhouette: side on for things with height, half the top for flat ones seen from above
    silhouette = max(w, d) * h if upright else 0.5 * w * d
    silhouette *= SILHOUETTE_FILL.get(o["category"], 1.0)
    if o["category"] in STAND_UP or (not upright and z1 > elevation + eye_height - EDGE_ON_M):
        reach = float(np.clip(min(math.sqrt(SILHOUETTE_REACH * silhouette), BLOCK_REACH * h), NEAR_REACH, MAX_VIEW))
    else:
        reach = float(np.clip(math.sqrt(SILHOUETTE_REACH * silhouette), MIN_REACH, MAX_VIEW))
    broadside = named_broadside(o["category"])
    front = (vx, vy) if named_from_front(o["category"]) or broadside else None
    seat = objs.get(o.get("support"))
    if front is None and seat is not None and (seat["category"] in BACKED_SEATS or on_inner_shelf(o, seat)):
        seat_yaw = math.radians(float(seat.get("yaw", 90.0)))   # its front, where the back does not hide it
        front = (math.cos(seat_yaw), math.sin(seat_yaw))
    return Target(o["id"], o["category"], o["room"], cx, cy, z0, z1, poly, np.array(samples), str(o.get("support")),
                  frozenset(excluded), reach=reach, front=front, back_too=broadside,
                  front_deg=NARROW_FRONT_DEG if named_from_nearly_in_front(o["category"]) else FRONT_DEG,
                  min_pitch=LOOK_DOWN_PITCH if o["category"] in STAND_UP else MIN_PITCH,
                  max_pitch=LOOK_UP_PITCH if o["category"] in LOOK_UP else MAX_PITCH)


def on_inner_shelf(o: dict, support: dict) -> bool:
    """Does `o` lie on a shelf of INNER_SHELVES furniture below its top (between its panels)?"""
    top = float(support["position"][2]) + float(support["size"][2])
    return support["category"] in INNER_SHELVES and float(o["position"][2]) < top - 0.05


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
        out += _shelf_walls(o, z0)
    return out


def _shelf_walls(o: dict, z0: float) -> list[Occluder]:
    """The walls beside shelved furniture's open shelves (assets.shelves) as occluders of their
    own: they hide what lies on a shelf from the side, which the furniture's box - never an
    occluder of what it holds - does not."""
    walls = side_walls(o["category"], o["size"])
    if not walls:
        return []
    cx, cy = float(o["position"][0]), float(o["position"][1])
    ux, uy = _width_axis(o)
    out = []
    for wall_id, (x0, x1, y0, y1, b, t) in zip(shelf_wall_ids(o), walls):
        corners = np.array([[cx + x * ux - y * uy, cy + x * uy + y * ux] for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))])
        out.append(Occluder(wall_id, _ccw(corners), z0 + b, z0 + t))
    return out


def shelf_wall_ids(o: dict) -> list[str]:
    """Occluder ids of the walls beside `o`'s open shelves (none for other furniture)."""
    return [f"{o['id']}#wall{k}" for k in range(len(side_walls(o["category"], o["size"])))]


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
        ahead = (np.abs(along) if tg.back_too else along) >= math.cos(math.radians(tg.front_deg)) * np.hypot(dx, dy)
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


def shown_band(near: np.ndarray, far: np.ndarray, z0: float, z1: float, eye_z: float, vfov_half: float,
               min_pitch: float, max_pitch: float) -> tuple[np.ndarray, np.ndarray]:
    """Per standpoint, the pitches (lo, hi) that keep SHOWN_IN_VIEW of the object's box height in
    the picture (as projected: tangents off the view axis); lo > hi where none does. `near`,
    `far`: distances to the box's nearest and farthest side."""
    pitches = np.arange(min_pitch, max_pitch + 1e-9, 1.0)
    angles = [np.degrees(np.arctan2(z - eye_z, np.maximum(d, 0.05))) for z in (z0, z1) for d in (near, far)]
    bottom, top = np.minimum.reduce(angles)[:, None], np.maximum.reduce(angles)[:, None]
    image = lambda a: np.tan(np.radians(np.clip(a - pitches[None, :], -89.0, 89.0)))  # noqa: E731
    edge = math.tan(math.radians(vfov_half))
    whole = image(top) - image(bottom)
    inside = np.clip(image(top), -edge, edge) - np.clip(image(bottom), -edge, edge)
    ok = inside >= SHOWN_IN_VIEW * whole - 1e-9
    lo = np.where(ok.any(1), pitches[np.argmax(ok, 1)], np.inf)
    hi = np.where(ok.any(1), pitches[len(pitches) - 1 - np.argmax(ok[:, ::-1], 1)], -np.inf)
    return lo, hi


def view_table(xy: np.ndarray, cells: np.ndarray, targets: list[Target], occluders: OccluderPack, eye_z: float,
               walls: np.ndarray, *, vfov_half: float) -> tuple[ViewTable, list[Target]]:
    """What each candidate standpoint (xy, cells) sees of each target, and the targets as
    planned for: one whose front no standpoint shows is planned for from anywhere (front None);
    the given targets are left as they are."""
    targets = list(targets)
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
        vis[:, k] = clear_fraction(ex, ey, eye_z, tg, occluders, walls)
        if tg.front is not None and not (vis[:, k] > 0).any():   # no standpoint shows its front:
            targets[k] = tg = replace(tg, front=None)             # any clear view beats none
            vis[:, k] = clear_fraction(ex, ey, eye_z, tg, occluders, walls)
        near = shapely.distance(shapely.points(xy), Polygon(tg.poly))
        far = np.hypot(tg.poly[None, :, 0] - ex[:, None], tg.poly[None, :, 1] - ey[:, None]).max(1)
        s_lo, s_hi = shown_band(near, far, tg.z0, tg.z1, eye_z, vfov_half, tg.min_pitch, tg.max_pitch)
        both_lo, both_hi = np.maximum(lo, s_lo), np.minimum(hi, s_hi)
        shown = feas & (np.maximum(both_lo, tg.min_pitch) <= np.minimum(both_hi, tg.max_pitch))
        # only where some standpoint in reach shows it so, clear: else the overlap alone
        if (shown & (dist[:, k] <= tg.reach) & (vis[:, k] >= tg.min_vis - 1e-9)).any():
            lo, hi, feas = both_lo, both_hi, shown
            p = np.clip(p, np.maximum(lo, tg.min_pitch), np.minimum(hi, tg.max_pitch))
        pitch[:, k], blo[:, k], bhi[:, k], vfeas[:, k] = p, lo, hi, feas
    return ViewTable(xy, cells, dist, bearing, vis, vfeas, pitch, blo, bhi), targets


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


def settle_min_vis(table: ViewTable, targets: list[Target]) -> tuple[list[Target], list[int]]:
    """The targets with the visibility each needs lowered where no standpoint shows half of it,
    and the indices of those no standpoint shows at all (hidden)."""
    hidden, settled = [], []
    for k, tg in enumerate(targets):
        reach = table.vis[:, k][(table.dist[:, k] <= MAX_VIEW) & table.vfeasible[:, k]]
        best = float(reach.max()) if len(reach) else 0.0
        if best <= 1e-9:
            hidden.append(k)
            settled.append(replace(tg, min_vis=0.5))
        else:
            settled.append(replace(tg, min_vis=min(0.5, max(0.1, round(0.75 * best, 3)))))
    return settled, hidden


def covered(table: ViewTable, targets: list[Target] | None = None, *, tight: bool = False) -> np.ndarray:
    """(C, T) whether each target counts as seen from each candidate; `tight`: seen fully, every
    ray clear, from 0.9-3.2 m (what an extra look needs: the render showed the object too little)."""
    n = table.vis.shape[1]
    reach = np.array([t.reach for t in targets]) if targets else np.full(n, MAX_VIEW)
    if tight:
        return ((table.dist <= np.minimum(3.2, reach)[None, :]) & (table.dist >= np.minimum(0.9, 0.8 * reach)[None, :])
                & table.vfeasible & (table.vis >= 0.99))
    need = np.array([t.min_vis for t in targets]) if targets else np.full(n, 0.5)
    return (table.dist <= reach[None, :]) & table.vfeasible & (table.vis >= need[None, :] - 1e-9)


def sweep_arc(bearings: np.ndarray) -> tuple[float, float]:
    """Smallest arc (start, length) going counter-clockwise that holds all bearings."""
    b = np.sort(np.mod(bearings, 360.0))
    if len(b) == 1:
        return float(b[0]), 0.0
    gaps = np.diff(np.concatenate([b, [b[0] + 360.0]]))
    k = int(np.argmax(gaps))
    start = b[(k + 1) % len(b)]
    return float(start), float(360.0 - gaps[k])


def angle_to(a: float, b: float) -> float:
    """Signed smallest rotation from a to b (degrees)."""
    return float((b - a + 180.0) % 360.0 - 180.0)
