"""Looking around in a room: from each standpoint one smooth pan across its objects (short
stops where an object falls short, a last-resort turn-and-hold), which frames show an
object near the image centre, and the 'look at the ...' narration."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from assets.vocabulary import plural
from generator.walk import motion as wm
from generator.walk import view as wv
from generator.walk.route import turn_to

DWELL_EXTRA = 30        # frames of dwell on an object named in extra_looks
PAN_LEAD = 6.0          # degrees the pan starts before the first / ends after the last object
LOOK_NARRATION_HALF = 10.0
SMALL_NEAR = 0.7        # beyond this share of its reach a small thing is panned over at SLOW_PAN_RATE


@dataclass
class LookContext:
    """What the looks in one room need: its targets, occluders and walls, where its frames start,
    the camera's vertical half field of view and where last-resort looks are noted."""
    label: str
    targets: list
    occluders: list
    eye_z: float
    walls: np.ndarray
    start: int  # first frame of the walk that led into the room
    floor: int
    vfov_half: float  # half the camera's vertical field of view, degrees
    notes: list       # diagnostics: last-resort looks
    hidden: set = field(default_factory=set)  # targets no standpoint shows: panned over, not checked
    cache: dict = field(default_factory=dict)

    def truncate(self, tl: wm.Timeline, n: int) -> None:
        """Drop the timeline's frames from `n` on, and what seen() has cached about them."""
        tl.truncate(n)
        for key, got in self.cache.items():
            self.cache[key] = got[:n - self.start]


def seen(tl: wm.Timeline, ctx: LookContext, k: int, first: int, half: float = wv.CENTRE_HALF) -> np.ndarray:
    """Per frame from `first` on: target k near the image centre (see walk_view.seen_frames).
    Results for the default half-angle are cached per frame (frames only ever get
    appended or truncated)."""
    cache = ctx.cache.setdefault((k, half), np.zeros(0, bool))
    done = min(len(cache), tl.n - ctx.start)
    if done < tl.n - ctx.start:
        a = ctx.start + done
        ok = wv.seen_frames(np.asarray(tl.x[a:]), np.asarray(tl.y[a:]), ctx.eye_z, np.asarray(tl.yaw[a:]),
                            np.asarray(tl.pitch[a:]), ctx.targets[k], ctx.occluders, ctx.walls, half,
                            vfov_half=ctx.vfov_half)
        ok &= (np.asarray(tl.floor[a:]) == ctx.floor) & ~np.asarray(tl.stairs[a:], bool)
        cache = np.concatenate([cache[:done], ok])
    else:
        cache = cache[:tl.n - ctx.start]
    ctx.cache[(k, half)] = cache
    return cache[first - ctx.start:]


def look(tl: wm.Timeline, ctx: LookContext, table: wv.ViewTable, row: int, cols: list[int],
         exit_heading: float | None, dwell: set[int] = frozenset(), ignore: tuple[int, int] | None = None) -> None:
    """Pan across the objects `cols` from standpoint `row` (those already seen well on
    the way in are left out), stopping DWELL_EXTRA frames on each of `dwell` (extra looks:
    the render showed them too little). Frames [ignore) do not count as seeing anything: the
    look is then the one it would be without them."""
    need = wv.MIN_FRAMES + 3

    def seen_so_far(c: int) -> int:
        n = int(seen(tl, ctx, c, ctx.start).sum())
        if ignore is not None:
            n -= int(seen(tl, ctx, c, ignore[0])[:ignore[1] - ignore[0]].sum())
        return n

    cols = [c for c in cols if c in dwell or seen_so_far(c) < need]
    pan_cols = cols
    cols = [c for c in cols if c not in ctx.hidden]
    if pan_cols:
        # pan; where an object falls short, redo the pan with a short stop on it
        mark = tl.n
        stops = {c: DWELL_EXTRA for c in pan_cols if c in dwell}
        before = None
        for attempt in range(3):
            _pan(tl, ctx, table, row, pan_cols, exit_heading, stops, dwell)
            short = {c: need - seen_so_far(c) for c in cols}
            short = {c: v for c, v in short.items() if v > 3}
            if before is not None:  # a stop that did not help is not worth repeating
                short = {c: v for c, v in short.items() if v < before.get(c, 10 ** 6)}
            if not short or attempt == 2:
                break
            before = short
            ctx.truncate(tl, mark)
            for c, v in short.items():
                stops[c] = stops.get(c, 0) + v + 2
    # last resort: turn to whatever is still short and hold
    for c in cols:
        if seen_so_far(c) >= wv.MIN_FRAMES + 1:
            continue
        turn_to(tl, float(table.bearing[row, c]), float(table.pitch[row, c]))
        tl.hold(wv.MIN_FRAMES + 3)
        ctx.notes.append(f"{ctx.label}: extra look at {ctx.targets[c].id}")


def _pan(tl: wm.Timeline, ctx: LookContext, table: wv.ViewTable, row: int, cols: list[int], exit_heading: float | None,
         stops: dict[int, int], dwell: set[int]) -> None:
    bearings = table.bearing[row, cols]
    prefs = table.pitch[row, cols]
    lo = np.maximum(table.band_lo[row, cols], [ctx.targets[c].min_pitch for c in cols])
    hi = np.minimum(table.band_hi[row, cols], [ctx.targets[c].max_pitch for c in cols])
    start, arc = wv.sweep_arc(bearings)
    direction, s0, approach, merged = _pan_direction(tl.yaw[-1], bearings, exit_heading)
    if not merged:
        tl.turn(approach)
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
    # an extra look (the rendered video showed the object too little) holds the object's own
    # pitch: averaged with its neighbours', a chair at a desk stayed a strip at the frame's
    # bottom edge under the desk, lamp and picture (sample-1-045). The planner's own short stops
    # keep the shared pitch: first walks stay as they were
    for k, c in enumerate(cols):
        if c in stops and c in dwell:
            at = np.abs(grid - theta[k]) <= wv.CENTRE_HALF
            pref[at], c_lo[at], c_hi[at] = prefs[k], lo[k], hi[k]
    pitch = tl.pitch[-1] + (pref - tl.pitch[-1]) * ramp
    c_lo[0], c_hi[0] = tl.pitch[-1], tl.pitch[-1]
    kernel = np.ones(15) / 15.0
    for _ in range(4):
        pitch = np.clip(pitch, c_lo, c_hi)
        padded = np.concatenate([np.full(7, pitch[0]), pitch, np.full(7, pitch[-1])])
        pitch = np.convolve(padded, kernel, mode="valid")
    pitch = np.clip(pitch, c_lo, c_hi)
    # speed: PAN_RATE over objects, slower over small things (their size limits their reach)
    # seen from near the edge of their reach - a few pixels over the threshold, they hold the
    # id pass's block only now and then - and TURN_RATE between objects
    reach = np.array([ctx.targets[c].reach for c in cols])
    small = (reach < wv.MAX_VIEW) & (table.dist[row, cols] > SMALL_NEAR * reach)
    over = np.where(small, wm.SLOW_PAN_RATE, wm.PAN_RATE)
    rate = np.where(np.abs(grid[:, None] - theta[None, :]) <= wv.CENTRE_HALF + 3.0, over[None, :], wm.TURN_RATE).min(axis=1)
    # dwell points: objects named in extra_looks
    holds = sorted((float(theta[k]), stops[c]) for k, c in enumerate(cols) if c in stops)
    done = 0.0
    for stop, frames in holds + [(total, 0)]:
        if stop - done >= 0.5:
            sub = (grid >= done - 1e-9) & (grid <= stop + 1e-9)
            g = np.concatenate([[done], grid[sub], [stop]])
            tl.pan(direction * (stop - done), (g - done, np.interp(g, grid, pitch)), (g - done, np.interp(g, grid, rate)))
            done = stop
        tl.hold(frames)


def _pan_direction(yaw: float, bearings: np.ndarray, exit_heading: float | None,
                   reversal: float = 15.0) -> tuple[float, float, float, bool]:
    """(direction, start yaw, approach turn, whether the approach turns the pan's way) of the
    pan over `bearings` that turns least from `yaw` (turning back costs `reversal` deg
    more) and ends nearest `exit_heading`."""
    start, arc = wv.sweep_arc(bearings)
    best = None
    for direction in (1.0, -1.0):
        s0 = start - PAN_LEAD if direction > 0 else start + arc + PAN_LEAD
        s1 = start + arc + PAN_LEAD if direction > 0 else start - PAN_LEAD
        approach = wv.angle_to(yaw, s0)
        merged = abs(approach) < 1.0 or math.copysign(1.0, approach) == direction
        cost = abs(approach) + arc + 2 * PAN_LEAD + (0.0 if merged else reversal)
        if exit_heading is not None:
            cost += abs(wv.angle_to(s1, exit_heading))
        if best is None or cost < best[0] - 1e-9:
            best = (cost, direction, s0, approach, merged)
    return best[1:]


def pan_entry(yaw: float, table: wv.ViewTable, row: int, cols: list[int], exit_heading: float | None) -> float | None:
    """Where the pan from standpoint `row` across `cols` will start for a walk arriving
    facing `yaw`: the walk turns the gaze there while slowing down (None: nothing to pan)."""
    if not cols:
        return None
    _, s0, _, _ = _pan_direction(yaw, table.bearing[row, cols], exit_heading, reversal=0.0)
    return float(s0)


def narrate_looks(tl: wm.Timeline, ctx: LookContext) -> None:
    """'look at the X' over the longest run of frames with X near the image centre."""
    entries = []
    for k, tg in enumerate(ctx.targets):
        near = np.nonzero(seen(tl, ctx, k, ctx.start, LOOK_NARRATION_HALF))[0]
        if len(near) == 0:
            near = np.nonzero(seen(tl, ctx, k, ctx.start))[0]
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
