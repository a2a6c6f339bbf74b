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
it can see the room's objects (walk_view: set cover of standpoints - each of the 40 most promising
first standpoints completed greedily, the plan with the least estimated time winning, never with
more standpoints than the plain greedy cover, visited in the order that takes least time) and
pans across them in one smooth sweep ordered to minimise turning (fast over empty stretches,
slower over objects and slower still over small things seen from near the edge of their reach,
the pitch easing down for low things) so that every object spends at least 15 frames near the
image centre: within 25 deg of the view axis (of the 35 deg half field of view), inside the vertical
field of view (6 deg of it, or all of a small thing and 4 deg more: the id pass ignores a strip
along the frame's edges) and at least half unoccluded (3-D rays against the other objects'
boxes; walls in 2D; what lies on a seat or on a shelf inside a bookshelf or wardrobe only from
before it). Objects already seen that well on the way in are left out of the sweep; where the sweep
falls short it is redone with short stops. Between rooms the walk passes through doorways,
hallways and the stairwell only (walk_space: a 0.1 m free-space grid per floor with the other
rooms' doors closed, >= 0.35 m from wall centre lines and >= 0.32 m from furniture where
there is room (0.22 m squeezing), Dijkstra, string pulling, corner cutting) and climbs the
U-stairs of `generator.stairs`.

Turning and walking overlap where a person's would: a walk sets off up to 67 deg off its
direction (turning on the spot first only beyond BLEND_TURN = 90 deg), ends up to 90 deg off it,
the gaze turning towards where the pan will start over the last metre while slowing down, and
eases the pitch back to level while walking rather than standing still for it. Planned on the
bundled scenario-01..06 and office-floor (tools/walk_timing.py, no coverage extensions) this
takes 8.6-12.4 s of video per room, mean 10.4 s (large-house 10.5, three-story-house 13.5: long
hallways and two stair trips; 2026-11-29, since things are looked at from where half their box's
height fits in the picture; 8.5-11.9 s before, but more walks went back for coverage);
VAEX-Bench's videos average about 6 s per room. What
is left is mostly walking (about 5 m a room, 7.2 s with the turns made while walking) and turning
on the spot (about 155 deg a room, 3.1 s) at the SPEC's limits (about 1 m/s, at most about 60
deg/s); walking at 1.6 m/s and turning at 150 deg/s would still take 7.7 s a room.

Limits (walk_motion): walking <= 1.0 m/s, accelerating/braking at 2 m/s^2, slower at corners
(the gaze turns over a window around each corner) and on stairs (0.6 m/s along a flight);
turning <= 60 deg/s (per frame <= 2 deg) at <= 300 deg/s^2, panning over objects at 60 deg/s
(48 over small things near the edge of their reach); pitch within [-25, 8] deg changing at
<= 60 deg/s. `yaw` in the output is wrapped to [0, 360).

`extra_looks` {room: [object ids]} (objects the rendered visibility found under-seen) adds a
1 s stop on each, seen fully unobstructed from 0.9-3.2 m, without changing the room's plan:
from a look whose standpoint shows it so, a glance (turn to it, stop, turn back) before or after
that look; else a side trip from the nearest standpoint goes to one that does and comes back to
where that look ended, facing as it did. So an extended walk is the first walk, pose for pose,
with glances and side trips inserted, and its render reuses the first walk's frames.
`diagnostics`, when given a dict, receives the standpoints per room, the objects looked at
from where they are only partly visible ("weak") or that no standpoint shows ("hidden"),
last-resort looks ("notes") and timings.

Code: this module plans the route and the standpoints room by room; generator.walk.route
walks each stretch, generator.walk.looking pans across the objects from a standpoint and
generator.walk.record turns the finished timeline into trajectory.json content.

Deterministic: no randomness at all; floats rounded to 4 decimals.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import shapely

from formats.camera import Camera
from generator import stairs as stairs_mod
from generator.walk import motion as wm
from generator.walk import cover
from generator.walk import view as wv
from generator.walk.looking import LookContext, look, narrate_looks, pan_entry
from generator.walk.record import trajectory_record
from generator.walk.route import turn_to, walk
from generator.walk.space import OBJECT_CLEARANCE_MIN, FloorSpace, NoPath, build_floors


STEP_M = 0.5   # a side trip this short is a step aside, the gaze kept where it is


class WalkError(RuntimeError):
    pass


@dataclass
class _Room:
    label: str
    floor: int
    polygon: list


def plan_walk(scenario, scene: dict, extra_looks: dict[str, list[str]] | None = None,
              diagnostics: dict | None = None, *, camera: Camera, budget_s: float | None = None) -> dict:
    """trajectory.json content for `scene` (with objects) visiting `scenario.trajectory`, seen
    through `camera`. `budget_s`: wall seconds the planning may take before WalkError (it never
    changes the walk, only refuses a slow one)."""
    planner = _Planner(scenario, scene, extra_looks or {}, camera)
    planner.budget_s = budget_s
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
        t1, cpu0 = time.perf_counter(), time.process_time()
        for idx, label in enumerate(self.order):
            spent = time.process_time() - cpu0   # CPU, not wall: a batch on every core must not trip it
            if self.budget_s is not None and spent > self.budget_s:
                raise WalkError(f"planning the walk took more than {self.budget_s:g} CPU s ({spent:.0f} s, before {label}, "
                                f"room {idx + 1} of {len(self.order)}) (fix: --walk-budget with more seconds, or fewer "
                                "rooms or objects)")
            self.visit(idx, label)
        self.diag["timings_s"]["plan"] = round(time.perf_counter() - t1, 3)
        t2 = time.perf_counter()
        out = trajectory_record(self.tl, self.rooms.values(), self.camera)
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
        targets = wv.targets_of(self.scene, label, self.elev[floor], self.eye)
        cells = cover.candidate_cells(arrive_leg, self.room_index(label), f_in)
        if len(cells) == 0:
            raise WalkError(f"{label}: no free floor to stand on that can be reached through doorways and hallways only "
                            f"(furniture blocks the way, or the room opens only onto other rooms)")
        xy = np.array([arrive_leg.fs.centre(i, j) for i, j in cells])
        occ = wv.pack(wv.occluders_of(self.scene, floor, self.elev[floor], label))
        eye_z = self.elev[floor] + self.eye
        table, planned = wv.view_table(xy, cells, targets, occ, eye_z, arrive_leg.fs.walls, vfov_half=self.vfov_half)
        planned, hidden = wv.settle_min_vis(table, planned)
        unshown = [k for k in np.flatnonzero(~wv.covered(table, planned).any(axis=0)) if k not in hidden]
        extra = cover.close_cells(arrive_leg, self.room_index(label), f_in, [planned[k] for k in unshown], cells)
        if len(extra):   # no comfortable standpoint shows them: add the tighter ones near them
            cells = np.vstack([cells, extra])
            xy = np.array([arrive_leg.fs.centre(i, j) for i, j in cells])
            table, planned = wv.view_table(xy, cells, targets, occ, eye_z, arrive_leg.fs.walls,
                                           vfov_half=self.vfov_half)
            planned, hidden = wv.settle_min_vis(table, planned)
        targets = planned
        if hidden:
            self.diag["hidden"][label] = [targets[k].id for k in hidden]
        d_in = f_in.dist[cells[:, 0], cells[:, 1]]
        h_in = np.array([_nan(f_in.heading_near(i, j)) for i, j in cells])
        if nxt_field is not None:
            d_out = nxt_field.dist[cells[:, 0], cells[:, 1]]
            d_out = np.where(np.isfinite(d_out), d_out, 1e3)
            h_out = np.array([_nan(nxt_field.heading_to_source(i, j)) for i, j in cells])
        chosen = cover.choose_viewpoints(table, targets, d_in, h_in, d_out, h_out, hidden)
        if not chosen:  # nothing to look at: step inside the room
            best = int(np.argmin(d_in + (0.0 if d_out is None else d_out)))
            inside = np.nonzero(d_in >= min(1.0, d_in.max()))[0]
            if len(inside):
                best = int(inside[np.argmin((d_in + (0.0 if d_out is None else d_out))[inside])])
            chosen = [(best, [])]
        self.diag["viewpoints"][label] = [[round(float(v), 4) for v in xy[row]] for row, _ in chosen]
        cov = wv.covered(table, targets)
        weak = [targets[k].id for row, cols in chosen for k in cols if not cov[row, k] and k not in hidden]
        if weak:
            self.diag["weak"][label] = weak
        dwell, detour = self._fit_extra_looks(label, chosen, table, targets, hidden)
        room_start = tl.n
        ctx = LookContext(label, targets, occ, eye_z, arrive_leg.fs.walls, room_start, floor, self.vfov_half,
                          self.diag["notes"], set(hidden))
        trips = self._side_trips(ctx, arrive_leg, f_in, cells, detour, xy[[row for row, _ in chosen]]) if detour else {}
        for n, (row, cols) in enumerate(chosen):
            vx, vy = (float(v) for v in xy[row])
            if n == 0:
                pieces.append(("floor", floor, *self._path(lambda: f_in, (vx, vy), f"into {label}")))
            else:
                inner = self.leg(floor, {label})
                here = (tl.x[-1], tl.y[-1])
                pieces.append(("floor", floor, *self._path(lambda: inner.field(*here), (vx, vy), f"within {label}")))
            exit_heading = None
            if n == len(chosen) - 1 and nxt_field is not None:
                exit_heading = _nan(nxt_field.heading_to_source(*cells[row]))
                if not np.isfinite(exit_heading):
                    exit_heading = None
            walk(self.tl, pieces, self.elev, self.eye, _entry_yaw(pieces[-1][2], table, row, cols, exit_heading))
            pieces = []
            self._look(ctx, table, row, cols, exit_heading, dwell.get(n, set()))
            if n in trips:
                self._side_trip(ctx, *trips[n])
        narrate_looks(self.tl, ctx)

    def _fit_extra_looks(self, label: str, chosen: list, table, targets: list, hidden: list[int]):
        """Where the extra looks at `label`'s objects go: ({look n: targets it stops on}, targets
        for side trips). A look glances at an object where its standpoint gives the object a fully
        clear view from 0.9-3.2 m (view.covered, tight): the look that already pans over it,
        else the nearest such look; the rest get side trips (_side_trips)."""
        want = [k for k, t in enumerate(targets) if t.id in self.extra.get(label, set()) and k not in hidden]
        if not want:
            return {}, []
        tight = wv.covered(table, targets, tight=True)
        dwell: dict[int, set[int]] = {}
        detour = []
        for k in want:
            n = next((n for n, (row, cols) in enumerate(chosen) if k in cols and tight[row, k]), None)
            if n is None:   # another look, nearest first, whose standpoint shows it fully: panned over there too
                rows = [n for n, (row, _) in enumerate(chosen) if tight[row, k]]
                n = min(rows, key=lambda n: table.dist[chosen[n][0], k]) if rows else None
            if n is None:
                detour.append(k)
            else:
                dwell.setdefault(n, set()).add(k)
        return dwell, detour

    def _look(self, ctx: LookContext, table, row: int, cols: list[int], exit_heading, dwell: set[int]) -> None:
        """look(), with extra looks at `dwell` from the same standpoint: a glance that turns to
        them, stops on each and turns back, before the look or after it, whichever is shorter.
        The look itself is the first walk's, and so is the rest of the walk, frame for frame, and
        the glance's motions begin and end where the first walk's do (motion_starts): a render
        of the extended walk reuses every chunk of the first walk's (a look planned again with
        the stops inside its pan changed every frame of it: sample-3-010's extension rendered 545
        colour frames for 237 new ones)."""
        tl = self.tl
        if not dwell:
            look(tl, ctx, table, row, cols, exit_heading)
            return
        mark, notes = tl.n, len(ctx.notes)

        def undo() -> None:
            ctx.truncate(tl, mark)
            del ctx.notes[notes:]

        self._glance(ctx, table, row, dwell)   # measured before the look ...
        before = tl.n - mark
        undo()
        look(tl, ctx, table, row, cols, exit_heading)
        end = tl.n
        self._glance(ctx, table, row, dwell)   # ... and kept after it unless that is longer
        if tl.n - end <= before:
            tl.insertions.append((end, tl.n))
            return
        undo()
        self._glance(ctx, table, row, dwell)
        tl.insertions.append((mark, tl.n))
        look(tl, ctx, table, row, cols, exit_heading, ignore=(mark, tl.n))

    def _glance(self, ctx: LookContext, table, row: int, dwell: set[int]) -> None:
        """From where the walk stands: stop on each of `dwell`, then face as before."""
        *_, yaw0, pitch0, _ = self.tl.state()
        look(self.tl, ctx, table, row, sorted(dwell), yaw0, set(dwell))
        turn_to(self.tl, yaw0, pitch0)

    def _side_trips(self, ctx: LookContext, arrive_leg, f_in, cells: np.ndarray, want: list[int], homes: np.ndarray):
        """{look n: (view table, [(row, cols)])}: standpoints that show the objects `want` fully
        (cover.detour_viewpoints, among the room's comfortable standpoints and the tighter ones
        near them), each visited from the nearest of the room's standpoints `homes`."""
        near = cover.close_cells(arrive_leg, self.room_index(ctx.label), f_in, [ctx.targets[k] for k in want], cells)
        cells = np.vstack([cells, near]) if len(near) else cells
        xy = np.array([arrive_leg.fs.centre(i, j) for i, j in cells])
        table, _ = wv.view_table(xy, cells, ctx.targets, ctx.occluders, ctx.eye_z, ctx.walls, vfov_half=self.vfov_half)
        trips: dict[int, tuple] = {}
        for n, row, cols in cover.detour_viewpoints(table, ctx.targets, want, homes):
            trips.setdefault(n, (table, []))[1].append((row, cols))
        return trips

    def _side_trip(self, ctx: LookContext, table, stops: list[tuple[int, list[int]]]) -> None:
        """Walk to each of `stops` and stop on its objects, then walk back to where this look
        ended and face as it did: the rest of the walk is the first walk's, frame for frame, so
        a render of the extended walk reuses those frames."""
        tl, floor, label = self.tl, ctx.floor, ctx.label
        x0, y0, _, yaw0, pitch0, _ = tl.state()
        first = tl.n
        inner = self.leg(floor, {label})
        xy = table.xy
        for n, (row, cols) in enumerate(stops):
            to = (float(xy[row][0]), float(xy[row][1]))
            # the pan ends facing the way on (to the next stop, or back), or, a step from there,
            # what the next stop looks at, or where the look the trip left from ended
            nxt = stops[n + 1] if n + 1 < len(stops) else None
            nx, ny = xy[nxt[0]] if nxt else (x0, y0)
            if math.hypot(nx - to[0], ny - to[1]) > STEP_M:
                on = math.degrees(math.atan2(ny - to[1], nx - to[0]))
            else:
                on = float(table.bearing[nxt[0], nxt[1][0]]) if nxt else yaw0
            if not self._step(inner, to):
                try:
                    path, skel = inner.field(tl.x[-1], tl.y[-1]).path_to(*to)
                except NoPath:
                    ctx.notes.append(f"{label}: no way to an extra look at {', '.join(ctx.targets[k].id for k in cols)}")
                    continue
                walk(tl, [("floor", floor, path, skel)], self.elev, self.eye, _entry_yaw(path, table, row, cols, on))
            look(tl, ctx, table, row, cols, on, set(cols))
        if not self._step(inner, (x0, y0)):
            here = (tl.x[-1], tl.y[-1])
            path, skel = self._path(lambda: inner.field(*here), (x0, y0), f"back within {label}")
            walk(tl, [("floor", floor, path, skel)], self.elev, self.eye, yaw0)
        turn_to(tl, yaw0, pitch0)
        tl.insertions.append((first, tl.n))

    def _step(self, leg, to: tuple[float, float]) -> bool:
        """Step straight to `to` without turning to face the way, where it is at most STEP_M off
        and the line there keeps clear of walls and squeezes by furniture no closer than a walk
        may; False: too far, or blocked (walk instead)."""
        here = (self.tl.x[-1], self.tl.y[-1])
        if (math.hypot(to[0] - here[0], to[1] - here[1]) > STEP_M
                or not leg.segment_clear(here, to, objects=OBJECT_CLEARANCE_MIN)):
            return False
        self.tl.step(*to)
        return True

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


def _entry_yaw(path, table, row: int, cols: list[int], exit_heading: float | None) -> float | None:
    """Where the gaze turns while slowing down at the end of `path`: where the pan from
    standpoint `row` will start (looking.pan_entry; None for a path too short to have a way in)."""
    if len(path) < 2:
        return None
    arrive = math.degrees(math.atan2(path[-1][1] - path[-2][1], path[-1][0] - path[-2][0]))
    return pan_entry(arrive, table, row, cols, exit_heading)


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
