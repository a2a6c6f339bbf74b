"""Kinematics of the walk: turn plans (polylines, pans) into 30 fps poses within the limits.

Every motion is a 1-D progress variable (metres along a path, or degrees of a turn) with a
speed limit that may vary along it; a forward/backward pass gives the fastest profile that
starts and ends at rest and never exceeds the limit or the acceleration, and the frames
sample it every 1/30 s. Yaw and pitch are functions of the progress, and the limit includes
what keeps their rates under YAW_RATE / PITCH_RATE.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from formats.camera import EYE_HEIGHT

FPS = 30
EYE = EYE_HEIGHT  # only tells floors apart by z (any eye height well below a storey does)
WALK_SPEED = 1.0           # m/s (SPEC 4: walking about 1 m/s)
WALK_ACCEL = 2.0           # m/s^2: half a second from standing to full pace
STAIR_SPEED = 0.6          # m/s along a flight (3-D): about 2 steps a second
STAIR_LANDING_SPEED = 0.8
TURN_RATE = 60.0           # deg/s, turning on the spot (SPEC 4: at most about 60)
WALK_TURN_RATE = 60.0      # deg/s, turning while walking
PAN_RATE = 60.0            # deg/s over the objects of a look-around (50 deg about the centre = 25 frames)
SLOW_PAN_RATE = 48.0       # deg/s over a small thing seen from near its reach (31 frames)
TURN_ACCEL = 300.0         # deg/s^2: a third of a second up to full turning speed
KINK_STEP = 0.05           # m/s: half the change of velocity allowed at a corner of the path
KINK_MIN_SPEED = 0.12
END_ZONE = 0.15            # m: corners this close to either end of a walk do not turn the gaze
BLEND_TURN = 90.0          # deg: a walk may start this far off its direction (3/4 of it beyond), turning as it goes
PITCH_RATE = 60.0          # deg/s (limit 61)
STOREY = 3.0
CORNER_WINDOW = 0.9        # m: half-width of the stretch over which the gaze turns at a corner
END_BLEND = 90.0           # deg: a walk may end this far off its direction (the gaze turning towards
END_WINDOW = 1.0           # what comes next over the last END_WINDOW m, while slowing down)


def smoothstep(t):
    t = np.clip(t, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def dsmoothstep(t):
    t = np.clip(t, 0.0, 1.0)
    return 6.0 * t * (1.0 - t)


def profile(length: float, grid: np.ndarray, vlim: np.ndarray, accel: float) -> np.ndarray:
    """Progress at frames 1, 2, ... (the last one == length) of a rest-to-rest motion."""
    if length <= 1e-9:
        return np.zeros(0)
    v = np.maximum(np.asarray(vlim, float).copy(), 0.005)
    n = len(grid) - 1
    step = np.diff(grid)
    v[0] = 0.0
    v[-1] = 0.0
    for i in range(n):
        v[i + 1] = min(v[i + 1], math.sqrt(v[i] * v[i] + 2 * accel * step[i]))
    for i in range(n - 1, -1, -1):
        v[i] = min(v[i], math.sqrt(v[i + 1] * v[i + 1] + 2 * accel * step[i]))
    dt = 2 * step / np.maximum(v[:-1] + v[1:], 1e-9)
    t = np.concatenate([[0.0], np.cumsum(dt)])
    frames = int(math.ceil(t[-1] * FPS - 1e-9))
    tk = np.arange(1, frames + 1) / FPS
    # constant acceleration within each interval: the speed is continuous in time
    idx = np.clip(np.searchsorted(t, tk, side="right") - 1, 0, n - 1)
    tau = np.minimum(tk - t[idx], dt[idx])
    acc = (v[idx + 1] - v[idx]) / np.maximum(dt[idx], 1e-12)
    lam = np.minimum(grid[idx] + v[idx] * tau + 0.5 * acc * tau * tau, grid[idx + 1])
    lam[-1] = length
    return lam


def steepest(values: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """|slope| at each grid node: the larger of the slopes of its two neighbouring intervals."""
    d = np.abs(np.diff(values)) / np.maximum(np.diff(grid), 1e-12)
    return np.maximum(np.concatenate([[0.0], d]), np.concatenate([d, [0.0]]))


def wrap180(a):
    return (np.asarray(a) + 180.0) % 360.0 - 180.0


@dataclass
class Timeline:
    """Accumulated frames: x, y, z (eye, world), yaw (unwrapped deg), pitch (deg), floor."""

    x: list[float] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    z: list[float] = field(default_factory=list)
    yaw: list[float] = field(default_factory=list)
    pitch: list[float] = field(default_factory=list)
    floor: list[int] = field(default_factory=list)
    stairs: list[bool] = field(default_factory=list)
    narration: list[tuple[int, int, str]] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # first frame of each motion (turn, pan, walk, hold, ...)
    insertions: list[tuple[int, int]] = field(default_factory=list)  # [first, end) of extra looks put into the walk

    def start(self, x, y, z, yaw, pitch, floor):
        self._append([x], [y], [z], [yaw], [pitch], [floor], [False])

    def _append(self, x, y, z, yaw, pitch, floor, on_stairs):
        if len(x):
            self.starts.append(len(self.x))
        self.x += list(map(float, x))
        self.y += list(map(float, y))
        self.z += list(map(float, z))
        self.yaw += list(map(float, yaw))
        self.pitch += list(map(float, pitch))
        self.floor += list(map(int, floor))
        self.stairs += list(map(bool, on_stairs))

    @property
    def n(self) -> int:
        return len(self.x)

    @property
    def last(self) -> int:
        return len(self.x) - 1

    def state(self):
        return self.x[-1], self.y[-1], self.z[-1], self.yaw[-1], self.pitch[-1], self.floor[-1]

    # ------------------------------------------------------------------ primitives
    def truncate(self, n: int) -> None:
        """Forget every frame from `n` on (and narration that starts there)."""
        for name in ("x", "y", "z", "yaw", "pitch", "floor", "stairs"):
            del getattr(self, name)[n:]
        self.narration = [e for e in self.narration if e[0] < n]
        self.starts = [k for k in self.starts if k < n]
        self.insertions = [(a, min(b, n)) for a, b in self.insertions if a < n]

    def step(self, x1: float, y1: float) -> tuple[int, int]:
        """A short step to (x1, y1) without turning the gaze (aside or back, as one shifts to see
        past something), the position easing over at most WALK_ACCEL. Returns the frame range."""
        x0, y0, z, yaw, pitch, floor = self.state()
        d = math.hypot(x1 - x0, y1 - y0)
        first = self.n
        if d < 1e-6:
            return first, first - 1
        frames = max(6, int(math.ceil(math.sqrt(6.0 * d / WALK_ACCEL) * FPS)))   # smoothstep: peak a = 6 d / T^2
        tau = smoothstep(np.arange(1, frames + 1) / frames)
        self._append(x0 + (x1 - x0) * tau, y0 + (y1 - y0) * tau, [z] * frames, [yaw] * frames, [pitch] * frames,
                     [floor] * frames, [self.stairs[-1]] * frames)
        return first, self.last

    def hold(self, frames: int) -> None:
        if frames <= 0:
            return
        x, y, z, yaw, pitch, floor = self.state()
        self._append([x] * frames, [y] * frames, [z] * frames, [yaw] * frames, [pitch] * frames, [floor] * frames,
                     [self.stairs[-1]] * frames)

    def turn(self, dyaw: float, pitch_to: float | None = None, rate: float = TURN_RATE) -> tuple[int, int]:
        """Turn on the spot by `dyaw` degrees (signed, CCW positive), easing the pitch to
        `pitch_to` on the way. Returns the frame range."""
        x, y, z, yaw0, p0, floor = self.state()
        p1 = p0 if pitch_to is None else pitch_to
        first = self.n
        if abs(dyaw) < 0.5:
            if abs(p1 - p0) < 0.05:
                return first, first - 1
            frames = max(6, int(math.ceil(1.5 * abs(p1 - p0) / PITCH_RATE * FPS)))
            tau = smoothstep(np.arange(1, frames + 1) / frames)
            self._append([x] * frames, [y] * frames, [z] * frames, yaw0 + dyaw * tau, p0 + (p1 - p0) * tau,
                         [floor] * frames, [self.stairs[-1]] * frames)
            return first, self.last
        span = abs(dyaw)
        grid = np.linspace(0.0, span, max(8, int(math.ceil(span / 0.5))) + 1)
        tau = grid / span
        dp = np.abs((p1 - p0) * dsmoothstep(tau) / span)
        vlim = np.minimum(rate, PITCH_RATE / np.maximum(dp, 1e-9))
        lam = profile(span, grid, vlim, TURN_ACCEL)
        k = len(lam)
        self._append([x] * k, [y] * k, [z] * k, yaw0 + math.copysign(1.0, dyaw) * lam,
                     p0 + (p1 - p0) * smoothstep(lam / span), [floor] * k, [self.stairs[-1]] * k)
        return first, self.last

    def pan(self, dyaw: float, pitch_at: tuple[np.ndarray, np.ndarray], rate_at: tuple[np.ndarray, np.ndarray]) -> tuple[int, int]:
        """Turn by `dyaw` with the pitch a function of the progress (degrees turned so far)
        and a speed limit that also depends on it: the look-around pan."""
        x, y, z, yaw0, p0, floor = self.state()
        first = self.n
        span = abs(dyaw)
        if span < 0.5:
            return first, first - 1
        grid = np.linspace(0.0, span, max(8, int(math.ceil(span / 0.5))) + 1)
        pitch = np.interp(grid, *pitch_at)
        pitch[0] = p0
        slope = steepest(pitch, grid)
        vlim = np.minimum(np.interp(grid, *rate_at), PITCH_RATE / np.maximum(slope, 1e-9))
        lam = profile(span, grid, vlim, TURN_ACCEL)
        k = len(lam)
        self._append([x] * k, [y] * k, [z] * k, yaw0 + math.copysign(1.0, dyaw) * lam, np.interp(lam, grid, pitch),
                     [floor] * k, [self.stairs[-1]] * k)
        return first, self.last

    def walk(self, pts: np.ndarray, speed: np.ndarray, pitch: np.ndarray,
             on_stairs: np.ndarray, end_yaw: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Walk along the polyline `pts` (N, 3: x, y, eye z) starting and ending at rest.
        `speed[i]` limits segment i, `pitch[i]` is the pitch at vertex i, `on_stairs[i]` says
        whether vertex i is in the stairwell; the floor of a frame is the storey nearest to
        the feet (ties go to the floor the walk started on). The gaze
        follows the path, turning over a window around each corner; with `end_yaw` it turns
        towards that direction (at most END_BLEND deg off the path) over the last END_WINDOW m,
        as one does slowing down to look at something. Returns (the arc length at every
        vertex, the arc length at every new frame)."""
        seg = np.diff(pts, axis=0)
        seg_len = np.linalg.norm(seg, axis=1)
        keep = np.concatenate([[True], seg_len > 1e-6])
        pts, pitch, on_stairs = pts[keep], pitch[keep], on_stairs[keep]
        speed = speed[keep[1:]]
        seg = np.diff(pts, axis=0)
        seg_len = np.linalg.norm(seg, axis=1)
        s_at = np.concatenate([[0.0], np.cumsum(seg_len)])
        total = float(s_at[-1])
        if total < 1e-6:
            return s_at, np.zeros(0)
        heading = np.degrees(np.arctan2(seg[:, 1], seg[:, 0]))
        x0, y0, z0, yaw0, p0, floor0 = self.state()
        # the gaze starts where it is and turns to the path over the first metre or so
        # (the caller turns on the spot first when that is more than BLEND_TURN)
        d0 = float(wrap180(heading[0] - yaw0))
        base = yaw0 + d0
        corners = [(0.0, min(CORNER_WINDOW, total), d0)] if abs(d0) > 1e-6 else []
        for i in range(1, len(heading)):
            d = float(wrap180(heading[i] - heading[i - 1]))
            if abs(d) <= 1e-6 or s_at[i] < END_ZONE or s_at[i] > total - END_ZONE:
                continue  # no gaze turn for the first / last few centimetres
            # windows of neighbouring corners may overlap (a smoothed heading); they only
            # must not reach past either end of the walk
            w = min(CORNER_WINDOW, s_at[i], total - s_at[i])
            corners.append((s_at[i], w, d))
        d_end = 0.0
        if end_yaw is not None:
            d_end = float(np.clip(wrap180(end_yaw - heading[-1]), -END_BLEND, END_BLEND))
        n = max(16, int(math.ceil(total / 0.01)))
        grid = np.linspace(0.0, total, n + 1)
        speed_cap = np.full(len(grid), np.inf)
        yaw = np.full_like(grid, base)
        dyaw = np.zeros_like(grid)
        yaw -= d0
        for sc, w, d in corners:
            if sc == 0.0:  # the initial blend: from 0 to w
                t = grid / w
                yaw += d * smoothstep(t)
                dyaw += np.abs(d * dsmoothstep(t) / w)
                continue
            t = (grid - (sc - w)) / (2 * w)
            yaw += d * smoothstep(t)
            dyaw += np.abs(d * dsmoothstep(t) / (2 * w))
        if abs(d_end) > 1e-6:  # turning towards what comes next while slowing down
            w = min(END_WINDOW, total)
            t = (grid - (total - w)) / w
            yaw += d_end * smoothstep(t)
            dyaw += np.abs(d_end * dsmoothstep(t) / w)
        # kinks the path keeps (corners that could not be cut): slow down so that the
        # velocity turns by at most 2 * KINK_STEP m/s at once
        for i in range(1, len(seg)):
            u, v = seg[i - 1] / seg_len[i - 1], seg[i] / seg_len[i]
            half = 0.5 * math.acos(max(-1.0, min(1.0, float(np.dot(u, v)))))
            if half > 1e-4:
                cap = max(KINK_MIN_SPEED, KINK_STEP / math.sin(half))
                near = np.abs(grid - s_at[i]) <= 0.011
                speed_cap[near] = np.minimum(speed_cap[near], cap)
        seg_idx = np.clip(np.searchsorted(s_at, grid, side="right") - 1, 0, len(seg_len) - 1)
        p = np.interp(grid, s_at, pitch)
        # the pitch eases from where it is to the path's over the first metre or so (the
        # walk does not stand still to level the gaze first)
        w0 = min(CORNER_WINDOW, total)
        p += (p0 - p[0]) * (1.0 - smoothstep(grid / w0))
        dp = steepest(p, grid)
        vlim = np.minimum(np.minimum(speed[seg_idx], speed_cap), WALK_TURN_RATE / np.maximum(dyaw, 1e-9))
        vlim = np.minimum(vlim, PITCH_RATE / np.maximum(dp, 1e-9))
        lam = profile(total, grid, vlim, WALK_ACCEL)
        xs = np.interp(lam, s_at, pts[:, 0])
        ys = np.interp(lam, s_at, pts[:, 1])
        zs = np.interp(lam, s_at, pts[:, 2])
        vi = np.clip(np.searchsorted(s_at, lam, side="right") - 1, 0, len(pts) - 1)
        d = (zs - EYE) / STOREY - floor0
        fl = floor0 + np.where(d >= 0, np.ceil(d - 0.5), np.floor(d + 0.5)).astype(int)
        st = on_stairs[vi] & on_stairs[np.minimum(vi + 1, len(pts) - 1)]
        self._append(xs, ys, zs, np.interp(lam, grid, yaw), np.interp(lam, grid, p), fl, st)
        return s_at, lam
