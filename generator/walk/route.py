"""Walking between standpoints: floor paths and stair routes joined into one rest-to-rest walk
on the timeline, narrated as 'walk forward' and 'climb / go down the stairs' (turns are told
from the recorded yaw: record.turn_narration)."""

from __future__ import annotations

import math

import numpy as np

from generator.walk import motion as wm
from generator.walk import view as wv

MIN_CORNER_DEG = 20.0  # a path bending less than this at a corner is told as one "walk forward"


def walk(tl: wm.Timeline, pieces: list[tuple], elev: dict[int, float], eye: float, end_yaw: float | None = None) -> None:
    """Concatenate floor paths and stair routes into one rest-to-rest walk (eye `eye` m above
    the floors at elevations `elev`), appended to `tl` with its narration; `end_yaw`: the
    direction the gaze turns towards while slowing down at the end (Timeline.walk)."""
    pts: list[tuple[float, float, float]] = []
    speed: list[float] = []
    pitch: list[float] = []
    stairs_flag: list[bool] = []
    stair_spans = []
    skeleton: list[tuple[float, float]] = []  # straight-line version for the narration
    for kind, info, path, skel in pieces:
        if kind == "floor":
            skeleton += list(skel)
            z = elev[info] + eye
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
                z = zf + eye
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
        tl.turn(d, pitch_to=0.0)
    start_frame = tl.n
    s_at, lam = tl.walk(arr, np.array(speed), np.array(pitch), np.array(stairs_flag, bool), end_yaw)
    # narration: straight pieces outside the stairs, one line per stair trip
    in_stairs = np.zeros(len(arr), bool)
    for b0, b1, f_from, f_to in stair_spans:
        in_stairs[b0:b1 + 1] = True
        fa = start_frame + int(np.searchsorted(lam, s_at[b0] - 1e-9))
        fb = start_frame + int(np.searchsorted(lam, s_at[b1] - 1e-9))
        verb = "climb the stairs" if f_to > f_from else "go down the stairs"
        tl.narration.append((fa, min(fb, tl.last), f"{verb} to floor {f_to}"))
    _narrate_walk(tl, arr, s_at, lam, start_frame, skeleton)


def turn_to(tl: wm.Timeline, yaw: float, pitch: float) -> None:
    """Turn on the spot the short way to face `yaw` at `pitch`."""
    tl.turn(wv.angle_to(tl.yaw[-1], yaw), pitch_to=pitch)


def _narrate_walk(tl: wm.Timeline, arr, s_at, lam, start_frame, skeleton) -> None:
    """'walk forward' per straight piece of the string-pulled path (frames found by projecting
    the skeleton onto the corner-cut path actually walked)."""
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
            if abs(wv.angle_to(heading[pieces[-1][0]], heading[k])) < MIN_CORNER_DEG:
                pieces[-1][1] = k + 1
            else:
                pieces.append([k, k + 1])
        for a, b in pieces:
            dist = float(length[a:b].sum())
            if dist >= 0.25:
                tl.narration.append((frame_at(arcs[a]), frame_at(arcs[b]), f"walk forward {dist:.1f} m"))
