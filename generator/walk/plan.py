"""The egocentric walk: scene.json -> trajectory.json (30 fps poses, events, narration).

Public API
----------
`plan_walk(scenario, scene, extra_looks=None, diagnostics=None, *, camera) -> dict` gives the
content of trajectory.json (formats.trajectory.Trajectory, docs/formats.md), recording the
`camera` (formats.camera.Camera: its vertical field of view decides which pitches keep an
object in the picture, its eye height where the eye is); `walk_summary(trajectory) -> dict`
the figures for the manifest. A walk that cannot be planned raises `WalkError` naming the
rooms / stairwell.

What the walk does
------------------
It starts at the plan's start pose (first room, south edge, facing north, eye at camera.eye_height
above the floor), visits the rooms in the scenario's trajectory order and, in each room, stands where
it can see the room's objects (walk_view: greedy set cover of standpoints, trading coverage,
view quality and walking/turning time) and pans across them in one smooth sweep ordered to
minimise turning (fast over empty stretches, slower over objects, the pitch easing down for
low things) so that every object spends at least 15 frames near the image centre: within
20 deg of the view axis (of the 35 deg half field of view), partly inside the vertical field
of view and at least half unoccluded (3-D rays against the other objects' boxes; walls in
2D). Objects already seen that well on the way in are left out of the sweep; where the sweep
falls short it is redone with short stops. Between rooms the walk passes through doorways,
hallways and the stairwell only (walk_space: a 0.1 m free-space grid per floor with the other
rooms' doors closed, >= 0.35 m from wall centre lines and >= 0.32 m from furniture where
there is room (0.22 m squeezing), Dijkstra, string pulling, corner cutting) and climbs the
U-stairs of `generator.stairs`.

Limits (walk_motion): walking <= 0.97 m/s, accelerating/braking at 1 m/s^2, slower at corners
(the gaze turns over a window around each corner) and on stairs (0.6 m/s along a flight);
turning <= 57 deg/s (per frame <= 1.9 deg), panning over objects at 52 deg/s; pitch within
[-25, 8] deg changing at <= 30 deg/s. `yaw` in the output is wrapped to [0, 360).

`extra_looks` {room: [object ids]} (objects the rendered visibility found under-seen) makes
those objects need a fully unobstructed view from 0.9-3.2 m and adds a 1 s stop on each.
`diagnostics`, when given a dict, receives the standpoints per room, the objects looked at
from where they are only partly visible ("weak") or that no standpoint shows ("hidden"),
last-resort looks ("notes") and timings.

Deterministic: no randomness at all; floats rounded to 4 decimals.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import shapely

from assets.vocabulary import plural
from formats.base import dump_model
from formats.camera import Camera
from formats.trajectory import Trajectory
from generator import stairs as stairs_mod
from generator.walk import motion as wm
from generator.walk import view as wv
from generator.walk.space import FloorSpace, NoPath, build_floors

DWELL_EXTRA = 30        # frames of dwell on an object named in extra_looks
PAN_LEAD = 6.0          # degrees the pan starts before the first / ends after the last object
LOOK_NARRATION_HALF = 10.0
MIN_TURN_NARRATED = 20.0


class WalkError(RuntimeError):
    pass


@dataclass
class _LookContext:
    label: str
    targets: list
    strict: np.ndarray
    occluders: list
    eye_z: float
    walls: np.ndarray
    start: int  # first frame of the walk that led into the room
    floor: int
    hidden: set = field(default_factory=set)  # targets no standpoint shows: panned over, not checked
    cache: dict = field(default_factory=dict)


@dataclass
class _Room:
    label: str
    floor: int
    polygon: list


def plan_walk(scenario, scene: dict, extra_looks: dict[str, list[str]] | None = None,
              diagnostics: dict | None = None, *, camera: Camera) -> dict:
    """trajectory.json content for `scene` (with objects) visiting `scenario.trajectory`, seen
    through `camera`."""
    planner = _Planner(scenario, scene, extra_looks or {}, camera)
    try:
        traj = planner.run()
    except stairs_mod.StairError as exc:
        raise WalkError(f"{scenario.name}: {exc}") from exc
    if diagnostics is not None:
        diagnostics.update(planner.diag)
    return traj


class _Planner:
    def __init__(self, scenario, scene: dict, extra_looks: dict[str, list[str]], camera: Camera):
        self.scenario = scenario
        self.camera = camera
        self.eye = camera.eye_height
        self.vfov_half = camera.vfov_deg / 2.0
        self.scene = scene
        self.extra = {room: set(ids) for room, ids in extra_looks.items()}
        known = {o["id"] for o in scene.get("objects", [])}
        self.order = list(scenario.trajectory)
        self.rooms = {r["label"]: _Room(r["label"], r["floor"], r["polygon"]) for r in scene["rooms"]}
        self.elev = {f["floor"]: float(f["elevation"]) for f in scene["floors"]}
        self.tl = wm.Timeline()
        # viewpoints: standpoints per room; weak: objects looked at from where they are only
        # partly visible; hidden: objects no standpoint shows at all; notes: last-resort looks
        self.diag: dict = {"viewpoints": {}, "weak": {}, "hidden": {}, "notes": [], "timings_s": {}}
        for room, ids in sorted(self.extra.items()):
            for oid in sorted(ids - known):
                self.diag["notes"].append(f"extra_looks: unknown object {oid} in {room} ignored")

    # ------------------------------------------------------------------ helpers
    def hallways(self, floor: int) -> set[str]:
        return {n for n in self.fs[floor].names if n.startswith("hallway:")}

    def room_index(self, label: str) -> int:
        return self.fs[self.rooms[label].floor].names.index(label)

    def leg(self, floor: int, spaces: set[str]):
        return self.fs[floor].leg(frozenset(spaces))

    def representative(self, leg, label: str) -> tuple[float, float]:
        """A free point of room `label` on `leg` near its middle."""
        poly = shapely.Polygon(self.rooms[label].polygon)
        c = poly.representative_point() if not poly.contains(poly.centroid) else poly.centroid
        i, j = leg.snap(c.x, c.y, radius=3.0)
        return leg.fs.centre(i, j)

    def stair_entry(self, floor: int, other: int) -> stairs_mod.Entry:
        """Where the walk enters the stairwell on `floor` to go towards floor `other`."""
        lower = floor if other > floor else floor - 1
        stair = next((s for s in self.scene["stairs"] if s["floors"] == [lower, lower + 1]), None)
        if stair is None:
            raise WalkError(f"no stairs between floors {lower} and {lower + 1}")
        try:
            return stairs_mod.stair_geometry(stair, self.scene).entries[floor]
        except stairs_mod.StairError as exc:
            raise WalkError(str(exc)) from exc

    # ------------------------------------------------------------------ main
    def run(self) -> dict:
        t0 = time.perf_counter()
        self.fs: dict[int, FloorSpace] = build_floors(self.scene)
        self.diag["timings_s"]["space"] = round(time.perf_counter() - t0, 3)
        start = self.scene["start"]
        f0 = start["floor"]
        sx, sy = start["position"]
        hx, hy = start.get("heading", [0, 1])
        self.tl.start(sx, sy, self.elev[f0] + self.eye, math.degrees(math.atan2(hy, hx)), 0.0, f0)
        first = self.order[0]
        if self.rooms[first].floor != f0:
            raise WalkError(f"the start pose is on floor {f0} but {first} is on floor {self.rooms[first].floor}")
        t1 = time.perf_counter()
        for idx, label in enumerate(self.order):
            self.visit(idx, label)
        self.diag["timings_s"]["plan"] = round(time.perf_counter() - t1, 3)
        t2 = time.perf_counter()
        out = self.finish()
        self.diag["timings_s"]["output"] = round(time.perf_counter() - t2, 3)
        return out

    def visit(self, idx: int, label: str) -> None:
        room = self.rooms[label]
        floor = room.floor
        tl = self.tl
        x, y = tl.x[-1], tl.y[-1]
        pieces: list[tuple] = []  # walk pieces to reach the room, before the first standpoint
        if idx == 0:
            arrive_leg = self.leg(floor, {label})
            f_in = self._field(arrive_leg, (x, y), "the start pose")
        else:
            prev = self.rooms[self.order[idx - 1]]
            if prev.floor == floor:
                arrive_leg = self.leg(floor, {prev.label, label} | self.hallways(floor))
                f_in = self._field(arrive_leg, (x, y), prev.label)
            else:
                entry_from = self.stair_entry(prev.floor, floor)
                entry_to = self.stair_entry(floor, prev.floor)
                leave_leg = self.leg(prev.floor, {prev.label} | self.hallways(prev.floor))
                path, skel = self._path(lambda: leave_leg.field(x, y), entry_from.outside,
                                        f"from {prev.label} to the stairs on floor {prev.floor}")
                pieces.append(("floor", prev.floor, path, skel))
                route = stairs_mod.stairwell_route(self.scene, prev.floor, floor)
                pieces.append(("stairs", (prev.floor, floor), route, None))
                arrive_leg = self.leg(floor, {label} | self.hallways(floor))
                f_in = self._field(arrive_leg, entry_to.outside, f"the stairs on floor {floor}")
        # where to go next (for choosing standpoints that are on the way)
        d_out = h_out = None
        nxt_field = None
        if idx + 1 < len(self.order):
            nxt = self.rooms[self.order[idx + 1]]
            if nxt.floor == floor:
                out_leg = self.leg(floor, {label, nxt.label} | self.hallways(floor))
                nxt_field = self._field(out_leg, self.representative(out_leg, nxt.label), nxt.label)
            else:
                out_leg = self.leg(floor, {label} | self.hallways(floor))
                nxt_field = self._field(out_leg, self.stair_entry(floor, nxt.floor).outside, f"the stairs on floor {floor}")
        targets = wv.targets_of(self.scene, label, self.elev[floor])
        strict = np.array([t.id in self.extra.get(label, set()) for t in targets], bool)
        cells = wv.candidate_cells(arrive_leg, self.room_index(label), f_in)
        if len(cells) == 0:
            raise WalkError(f"{label}: no free floor to stand on that can be reached through doorways and hallways only "
                            f"(furniture blocks the way, or the room opens only onto other rooms)")
        xy = np.array([arrive_leg.fs.centre(i, j) for i, j in cells])
        occ = wv.pack(wv.occluders_of(self.scene, floor, self.elev[floor], label))
        eye_z = self.elev[floor] + self.eye
        table = wv.view_table(xy, cells, targets, occ, eye_z, arrive_leg.fs.walls, vfov_half=self.vfov_half)
        hidden = wv.settle_min_vis(table, targets)
        if hidden:
            self.diag["hidden"][label] = [targets[k].id for k in hidden]
        d_in = f_in.dist[cells[:, 0], cells[:, 1]]
        h_in = np.array([_nan(f_in.heading_near(i, j)) for i, j in cells])
        if nxt_field is not None:
            d_out = nxt_field.dist[cells[:, 0], cells[:, 1]]
            d_out = np.where(np.isfinite(d_out), d_out, 1e3)
            h_out = np.array([_nan(nxt_field.heading_to_source(i, j)) for i, j in cells])
        chosen = wv.choose_viewpoints(table, targets, strict, d_in, h_in, d_out, h_out, hidden)
        if not chosen:  # nothing to look at: step inside the room
            best = int(np.argmin(d_in + (0.0 if d_out is None else d_out)))
            inside = np.nonzero(d_in >= min(1.0, d_in.max()))[0]
            if len(inside):
                best = int(inside[np.argmin((d_in + (0.0 if d_out is None else d_out))[inside])])
            chosen = [(best, [])]
        self.diag["viewpoints"][label] = [[round(float(v), 4) for v in xy[row]] for row, _ in chosen]
        cov = wv.covered(table, strict, targets)
        weak = [targets[k].id for row, cols in chosen for k in cols if not cov[row, k] and k not in hidden]
        if weak:
            self.diag["weak"][label] = weak
        room_start = tl.n
        ctx = _LookContext(label, targets, strict, occ, eye_z, arrive_leg.fs.walls, room_start, floor, set(hidden))
        for n, (row, cols) in enumerate(chosen):
            vx, vy = (float(v) for v in xy[row])
            if n == 0:
                pieces.append(("floor", floor, *self._path(lambda: f_in, (vx, vy), f"into {label}")))
            else:
                inner = self.leg(floor, {label})
                here = (tl.x[-1], tl.y[-1])
                pieces.append(("floor", floor, *self._path(lambda: inner.field(*here), (vx, vy), f"within {label}")))
            self.walk(pieces)
            pieces = []
            exit_heading = None
            if n == len(chosen) - 1 and nxt_field is not None:
                exit_heading = _nan(nxt_field.heading_to_source(*cells[row]))
                if not np.isfinite(exit_heading):
                    exit_heading = None
            self.look(ctx, table, row, cols, exit_heading)
        self._narrate_looks(ctx)

    def _field(self, leg, source, what: str):
        try:
            return leg.field(*source)
        except NoPath as exc:
            raise WalkError(f"{self.scenario.name}: no room to stand near {what}: {exc}") from exc

    def _path(self, make_field, goal, what: str):
        try:
            return make_field().path_to(*goal)
        except NoPath as exc:
            raise WalkError(f"{self.scenario.name}: no way {what} through doorways and hallways only, clear of "
                            f"furniture: {exc}") from exc

    # ------------------------------------------------------------------ walking
    def walk(self, pieces: list[tuple]) -> None:
        """Concatenate floor paths and stair routes into one rest-to-rest walk."""
        tl = self.tl
        pts: list[tuple[float, float, float]] = []
        speed: list[float] = []
        pitch: list[float] = []
        stairs_flag: list[bool] = []
        stair_spans = []
        skeleton: list[tuple[float, float]] = []  # straight-line version for the narration
        for kind, info, path, skel in pieces:
            if kind == "floor":
                skeleton += list(skel)
                z = self.elev[info] + self.eye
                for p in path:
                    if pts and math.hypot(p[0] - pts[-1][0], p[1] - pts[-1][1]) < 1e-6 and abs(z - pts[-1][2]) < 1e-6:
                        continue
                    if pts:
                        speed.append(wm.WALK_SPEED)
                    pts.append((p[0], p[1], z))
                    pitch.append(0.0)
                    stairs_flag.append(False)
            else:
                f_from, f_to = info
                going_down = f_to < f_from
                begin = len(pts)
                for k, (x, y, zf) in enumerate(path):
                    z = zf + self.eye
                    if pts and math.hypot(x - pts[-1][0], y - pts[-1][1]) < 1e-6 and abs(z - pts[-1][2]) < 1e-6:
                        continue
                    if pts:
                        climbing = abs(z - pts[-1][2]) > 1e-6
                        speed.append(wm.STAIR_SPEED if climbing else wm.STAIR_LANDING_SPEED)
                    pts.append((x, y, z))
                    # look down at the steps going down, a little up going up
                    nxt = path[k + 1] if k + 1 < len(path) else None
                    prv = path[k - 1] if k > 0 else None
                    on_flight = (nxt is not None and abs(nxt[2] - zf) > 1e-6) or (prv is not None and abs(prv[2] - zf) > 1e-6)
                    pitch.append((-14.0 if going_down else 3.0) if on_flight and 0 < k < len(path) - 1 else 0.0)
                    stairs_flag.append(True)
                stair_spans.append((begin, len(pts) - 1, f_from, f_to))
                skeleton.append(None)  # a break: the stairs are narrated as one action
        if len(pts) < 2:
            return
        arr = np.array(pts)
        # turn on the spot towards the path first
        first_seg = math.degrees(math.atan2(arr[1, 1] - arr[0, 1], arr[1, 0] - arr[0, 0]))
        d = wv.angle_to(tl.yaw[-1], first_seg)
        if abs(d) > wm.BLEND_TURN:
            d -= math.copysign(wm.BLEND_TURN * 0.75, d)
            a, b = tl.turn(d, pitch_to=0.0)
            self._narrate_turn(a, b, d)
        elif abs(tl.pitch[-1]) > 0.05:
            tl.turn(0.0, pitch_to=0.0)
        start_frame = tl.n
        s_at, lam = tl.walk(arr, np.array(speed), np.array(pitch), np.array(stairs_flag, bool))
        # narration: straight pieces and turns outside the stairs, one line per stair trip
        in_stairs = np.zeros(len(arr), bool)
        for b0, b1, f_from, f_to in stair_spans:
            in_stairs[b0:b1 + 1] = True
            fa = start_frame + int(np.searchsorted(lam, s_at[b0] - 1e-9))
            fb = start_frame + int(np.searchsorted(lam, s_at[b1] - 1e-9))
            verb = "climb the stairs" if f_to > f_from else "go down the stairs"
            tl.narration.append((fa, min(fb, tl.last), f"{verb} to floor {f_to}"))
        self._narrate_walk(arr, s_at, lam, start_frame, skeleton)

    def _narrate_turn(self, a: int, b: int, d: float) -> None:
        if b >= a and abs(d) >= 10:
            self.tl.narration.append((a, b, f"turn {'left' if d > 0 else 'right'} {int(5 * round(abs(d) / 5))} degrees"))

    def _narrate_walk(self, arr, s_at, lam, start_frame, skeleton) -> None:
        """'walk forward' per straight piece of the string-pulled path, 'turn' at its corners
        (frames found by projecting the skeleton onto the corner-cut path actually walked)."""
        tl = self.tl
        xy = arr[:, :2]

        def arc_of(p):
            a, b = xy[:-1], xy[1:]
            ab = b - a
            ll = np.maximum((ab ** 2).sum(axis=1), 1e-12)
            t = np.clip(((p - a) * ab).sum(axis=1) / ll, 0.0, 1.0)
            d = np.linalg.norm(a + t[:, None] * ab - p, axis=1)
            k = int(np.argmin(d))
            return s_at[k] + t[k] * math.sqrt(ll[k]) * (1.0 if s_at[k + 1] - s_at[k] > 0 else 0.0)

        def frame_at(s):
            return start_frame + min(int(np.searchsorted(lam, s - 1e-9)), len(lam) - 1)

        runs, cur = [], []
        for p in skeleton:
            if p is None:
                if len(cur) > 1:
                    runs.append(cur)
                cur = []
            elif not cur or math.hypot(p[0] - cur[-1][0], p[1] - cur[-1][1]) > 1e-6:
                cur.append(p)
        if len(cur) > 1:
            runs.append(cur)
        for run in runs:
            pts = np.array(run)
            seg = np.diff(pts, axis=0)
            length = np.linalg.norm(seg, axis=1)
            heading = np.degrees(np.arctan2(seg[:, 1], seg[:, 0]))
            arcs = [arc_of(p) for p in pts]
            # merge nearly straight continuations
            pieces = [[0, 1]]
            for k in range(1, len(seg)):
                if abs(wv.angle_to(heading[pieces[-1][0]], heading[k])) < MIN_TURN_NARRATED:
                    pieces[-1][1] = k + 1
                else:
                    pieces.append([k, k + 1])
            for n, (a, b) in enumerate(pieces):
                if n > 0:
                    d = wv.angle_to(heading[pieces[n - 1][1] - 1], heading[a])
                    s_c = arcs[a]
                    tl.narration.append((frame_at(max(s_c - 0.4, arcs[pieces[n - 1][0]])), frame_at(min(s_c + 0.4, arcs[b])),
                                         f"turn {'left' if d > 0 else 'right'} {int(5 * round(abs(d) / 5))} degrees"))
                dist = float(length[a:b].sum())
                if dist >= 0.25:
                    tl.narration.append((frame_at(arcs[a]), frame_at(arcs[b]), f"walk forward {dist:.1f} m"))

    # ------------------------------------------------------------------ looking
    def seen(self, ctx: _LookContext, k: int, first: int, half: float = wv.CENTRE_HALF) -> np.ndarray:
        """Per frame from `first` on: target k near the image centre (see walk_view.seen_frames).
        Results for the default half-angle are cached per frame (frames only ever get
        appended or truncated)."""
        tl = self.tl
        cache = ctx.cache.setdefault((k, half), np.zeros(0, bool))
        done = min(len(cache), tl.n - ctx.start)
        if done < tl.n - ctx.start:
            a = ctx.start + done
            ok = wv.seen_frames(np.asarray(tl.x[a:]), np.asarray(tl.y[a:]), ctx.eye_z, np.asarray(tl.yaw[a:]),
                                np.asarray(tl.pitch[a:]), ctx.targets[k], ctx.occluders, ctx.walls, half,
                                vfov_half=self.vfov_half)
            ok &= (np.asarray(tl.floor[a:]) == ctx.floor) & ~np.asarray(tl.stairs[a:], bool)
            cache = np.concatenate([cache[:done], ok])
        else:
            cache = cache[:tl.n - ctx.start]
        ctx.cache[(k, half)] = cache
        return cache[first - ctx.start:]

    def look(self, ctx: _LookContext, table: wv.ViewTable, row: int, cols: list[int], exit_heading: float | None) -> None:
        """Pan across the objects `cols` from standpoint `row` (those already seen well on
        the way in are left out, unless the render asked for a longer look)."""
        tl = self.tl
        need = wv.MIN_FRAMES + 3
        cols = [c for c in cols if ctx.strict[c] or self.seen(ctx, c, ctx.start).sum() < need]
        pan_cols = cols
        cols = [c for c in cols if c not in ctx.hidden]
        if pan_cols:
            # pan; where an object falls short, redo the pan with a short stop on it
            mark = tl.n
            stops = {c: DWELL_EXTRA for c in pan_cols if ctx.strict[c]}
            before = None
            for attempt in range(3):
                self._pan(ctx, table, row, pan_cols, exit_heading, stops)
                short = {c: need - int(self.seen(ctx, c, ctx.start).sum()) for c in cols}
                short = {c: v for c, v in short.items() if v > 3}
                if before is not None:  # a stop that did not help is not worth repeating
                    short = {c: v for c, v in short.items() if v < before.get(c, 10 ** 6)}
                if not short or attempt == 2:
                    break
                before = short
                tl.truncate(mark)
                for c, v in short.items():
                    stops[c] = stops.get(c, 0) + v + 2
        # last resort: turn to whatever is still short and hold
        for c in cols:
            if self.seen(ctx, c, ctx.start).sum() >= wv.MIN_FRAMES + 1:
                continue
            b = float(table.bearing[row, c])
            d = wv.angle_to(tl.yaw[-1], b)
            a, e = tl.turn(d, pitch_to=float(table.pitch[row, c]))
            self._narrate_turn(a, e, d)
            tl.hold(wv.MIN_FRAMES + 3)
            self.diag["notes"].append(f"{ctx.label}: extra look at {ctx.targets[c].id}")

    def _pan(self, ctx: _LookContext, table: wv.ViewTable, row: int, cols: list[int], exit_heading: float | None,
             stops: dict[int, int]) -> None:
        tl = self.tl
        bearings = table.bearing[row, cols]
        prefs = table.pitch[row, cols]
        lo = np.maximum(table.band_lo[row, cols], wv.MIN_PITCH)
        hi = np.minimum(table.band_hi[row, cols], wv.MAX_PITCH)
        yaw = tl.yaw[-1]
        start, arc = wv.sweep_arc(bearings)
        best = None
        for direction in (1.0, -1.0):
            s0 = start - PAN_LEAD if direction > 0 else start + arc + PAN_LEAD
            s1 = start + arc + PAN_LEAD if direction > 0 else start - PAN_LEAD
            approach = wv.angle_to(yaw, s0)
            merged = abs(approach) < 1.0 or math.copysign(1.0, approach) == direction
            cost = abs(approach) + arc + 2 * PAN_LEAD + (0.0 if merged else 15.0)
            if exit_heading is not None:
                cost += abs(wv.angle_to(s1, exit_heading))
            if best is None or cost < best[0] - 1e-9:
                best = (cost, direction, s0, approach, merged)
        _, direction, s0, approach, merged = best
        if not merged:
            a, b = tl.turn(approach)
            self._narrate_turn(a, b, approach)
            lead = 0.0
        else:
            lead = abs(approach)
        yaw0 = tl.yaw[-1]
        # progress (degrees turned from yaw0) at which each object passes the view axis
        rel = np.mod(direction * (bearings - (yaw0 + direction * lead)), 360.0)
        rel = np.where(rel > 359.0, rel - 360.0, rel)
        theta = lead + rel
        total = max(lead + arc + 2 * PAN_LEAD, float(theta.max()) + PAN_LEAD)
        grid = np.linspace(0.0, total, max(8, int(math.ceil(total))) + 1)
        # pitch: the objects' preferred pitch, smoothed, kept inside the corridor of pitches
        # that show every object near the view axis at that moment
        w = np.exp(-((grid[:, None] - theta[None, :]) / 20.0) ** 2)
        pref = (w * prefs[None, :]).sum(axis=1) / np.maximum(w.sum(axis=1), 1e-9)
        ramp = wm.smoothstep(grid / max(10.0, lead))
        pitch = tl.pitch[-1] + (pref - tl.pitch[-1]) * ramp
        near = np.abs(grid[:, None] - theta[None, :]) <= wv.CENTRE_HALF + 2.0
        c_lo = np.full(len(grid), -90.0)
        c_hi = np.full(len(grid), 90.0)
        for g in range(len(grid)):
            ks = np.nonzero(near[g])[0]
            if len(ks) == 0:
                continue
            band_lo, band_hi = lo[ks].max(), hi[ks].min()
            if band_lo > band_hi:
                k = ks[int(np.argmin(np.abs(grid[g] - theta[ks])))]
                band_lo, band_hi = lo[k], hi[k]
            c_lo[g], c_hi[g] = band_lo, band_hi
        c_lo[0], c_hi[0] = tl.pitch[-1], tl.pitch[-1]
        kernel = np.ones(15) / 15.0
        for _ in range(4):
            pitch = np.clip(pitch, c_lo, c_hi)
            padded = np.concatenate([np.full(7, pitch[0]), pitch, np.full(7, pitch[-1])])
            pitch = np.convolve(padded, kernel, mode="valid")
        pitch = np.clip(pitch, c_lo, c_hi)
        rate = np.where(np.any(np.abs(grid[:, None] - theta[None, :]) <= wv.CENTRE_HALF + 3.0, axis=1), wm.PAN_RATE,
                        wm.TURN_RATE)
        # dwell points: objects named in extra_looks
        holds = sorted((float(theta[k]), stops[c]) for k, c in enumerate(cols) if c in stops)
        done = 0.0
        pan_start = tl.n
        for stop, frames in holds + [(total, 0)]:
            if stop - done >= 0.5:
                sub = (grid >= done - 1e-9) & (grid <= stop + 1e-9)
                g = np.concatenate([[done], grid[sub], [stop]])
                tl.pan(direction * (stop - done), (g - done, np.interp(g, grid, pitch)), (g - done, np.interp(g, grid, rate)))
                done = stop
            tl.hold(frames)
        if tl.n > pan_start:
            self._narrate_turn(pan_start, tl.last, direction * total)

    def _narrate_looks(self, ctx: _LookContext) -> None:
        """'look at the X' over the longest run of frames with X near the image centre."""
        tl = self.tl
        entries = []
        for k, tg in enumerate(ctx.targets):
            near = np.nonzero(self.seen(ctx, k, ctx.start, LOOK_NARRATION_HALF))[0]
            if len(near) == 0:
                near = np.nonzero(self.seen(ctx, k, ctx.start))[0]
            if len(near) == 0:
                continue
            runs = np.split(near, np.nonzero(np.diff(near) > 1)[0] + 1)
            run = max(runs, key=len)
            entries.append((ctx.start + int(run[0]), ctx.start + int(run[-1]), tg.category))
        entries.sort()
        merged: list[list] = []
        for a, b, cat in entries:
            if merged and merged[-1][2] == cat and a <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], b)
                merged[-1][3] += 1
            else:
                merged.append([a, b, cat, 1])
        for a, b, cat, count in merged:
            tl.narration.append((a, b, f"look at the {plural(cat, count)}"))

    # ------------------------------------------------------------------ output
    def finish(self) -> dict:
        tl = self.tl
        n = tl.n
        x = np.round(np.array(tl.x), 4)  # labels from the positions as written
        y = np.round(np.array(tl.y), 4)
        floors = np.array(tl.floor)
        on_stairs = np.array(tl.stairs)
        labels: list[str | None] = [None] * n
        for r in self.rooms.values():
            sel = np.nonzero((floors == r.floor) & ~on_stairs)[0]
            if len(sel) == 0:
                continue
            inside = shapely.contains_xy(shapely.Polygon(r.polygon), x[sel], y[sel])
            for k in sel[inside]:
                labels[k] = r.label
        events = []
        if labels[0] is not None:
            events.append({"frame": 0, "type": "enter_room", "room": labels[0], "floor": int(floors[0])})
        for k in range(1, n):
            if labels[k] != labels[k - 1]:
                if labels[k - 1] is not None:
                    events.append({"frame": k, "type": "leave_room", "room": labels[k - 1], "floor": int(floors[k - 1])})
                if labels[k] is not None:
                    events.append({"frame": k, "type": "enter_room", "room": labels[k], "floor": int(floors[k])})
            if on_stairs[k] and not on_stairs[k - 1]:
                events.append({"frame": k, "type": "start_stairs", "floor": int(floors[k - 1])})
            if not on_stairs[k] and on_stairs[k - 1]:
                events.append({"frame": k, "type": "end_stairs", "floor": int(floors[k])})
        narration = list(tl.narration)
        for e in events:
            if e["type"] in ("enter_room", "leave_room") and e["frame"] > 0:
                verb = "enter" if e["type"] == "enter_room" else "leave"
                narration.append((e["frame"], min(e["frame"] + 14, n - 1), f"{verb} the {e['room']}"))
        narration = sorted({(int(a), int(b), t) for a, b, t in narration if b >= a})
        frames = []
        for k in range(n):
            yaw = round(tl.yaw[k] % 360.0, 4) % 360.0
            frames.append({"frame": k, "t": round(k / wm.FPS, 4), "position": [_r(tl.x[k]), _r(tl.y[k]), _r(tl.z[k])],
                           "yaw": yaw + 0.0, "pitch": _r(tl.pitch[k]), "room": labels[k], "floor": int(floors[k])})
        traj = Trajectory(format=Trajectory.FORMAT, fps=wm.FPS, camera=self.camera, frames=frames, events=events,
                          narration=[{"frames": [a, b], "text": t} for a, b, t in narration])
        return dump_model(traj)  # with every frame's cam_to_world


def _r(v: float) -> float:
    return round(float(v), 4) + 0.0


def _nan(v):
    return float("nan") if v is None else float(v)


# ---------------------------------------------------------------------------- summary


def walk_summary(trajectory: dict) -> dict:
    """Figures for the manifest: frames, duration, metres walked and climbed, rooms in order."""
    frames = trajectory["frames"]
    fps = trajectory.get("fps", wm.FPS)
    pos = np.array([f["position"] for f in frames], float).reshape(-1, 3)
    step = np.diff(pos, axis=0)
    walked = float(np.linalg.norm(step[:, :2], axis=1).sum()) if len(pos) > 1 else 0.0
    climbed = float(np.abs(step[:, 2]).sum()) if len(pos) > 1 else 0.0
    yaw = np.array([f["yaw"] for f in frames], float)
    turned = float(np.abs(wm.wrap180(np.diff(yaw))).sum()) if len(yaw) > 1 else 0.0
    visited = [e["room"] for e in trajectory["events"] if e["type"] == "enter_room"]
    return {
        "frames": len(frames),
        "fps": fps,
        "duration_s": round(len(frames) / fps, 2),
        "metres_walked": round(walked, 2),
        "metres_climbed": round(climbed, 2),
        "degrees_turned": round(turned, 1),
        "rooms_visited": visited,
        "floors_visited": sorted({f["floor"] for f in frames}),
        "stairs_trips": sum(1 for e in trajectory["events"] if e["type"] == "start_stairs"),
        "looks": sum(1 for n in trajectory["narration"] if n["text"].startswith("look at")),
    }
