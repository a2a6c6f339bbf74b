"""The walk's record: the finished timeline as trajectory.json content (frames with the room
each is in, enter/leave-room and stairs events, the narration)."""

from __future__ import annotations

import numpy as np
import shapely

from formats.base import dump_model
from formats.camera import Camera
from formats.trajectory import Trajectory
from generator.walk import motion as wm


def trajectory_record(tl: wm.Timeline, rooms, camera: Camera) -> dict:
    """trajectory.json content of the finished timeline: frames with their room, room and
    stairs events, the narration (the timeline's plus entering / leaving rooms)."""
    n = tl.n
    x = np.round(np.array(tl.x), 4)  # labels from the positions as written
    y = np.round(np.array(tl.y), 4)
    floors = np.array(tl.floor)
    on_stairs = np.array(tl.stairs)
    labels: list[str | None] = [None] * n
    for r in rooms:
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
    narration = list(tl.narration) + turn_narration(np.array(tl.yaw), wm.FPS, tl.starts)
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
    traj = Trajectory(format=Trajectory.FORMAT, fps=wm.FPS, camera=camera, frames=frames, events=events,
                      narration=[{"frames": [a, b], "text": t} for a, b, t in narration],
                      motion_starts=sorted(set(k for k in tl.starts if 0 < k < n)),
                      insertions=sorted((a, b) for a, b in tl.insertions if a < b))
    return dump_model(traj)  # with every frame's cam_to_world


TURNING = 2.0        # deg/s: the gaze turning slower than this is at rest
PAUSE_S = 0.5        # a turn that stops for at most this long and goes on the same way is one turn
MIN_TOLD_DEG = 10.0  # smaller turns are not told


def turn_narration(yaw: np.ndarray, fps: int, starts=()) -> list[tuple[int, int, str]]:
    """'turn left/right N degrees' over each turn the camera makes, read from its unwrapped yaw
    per frame: within each motion of the walk (`starts`: its first frames - a turn, a pan, a
    walk), runs of frames turning one way (with short pauses inside), each told with the angle
    the yaw actually turns by. Told by the planner's parts, a turn while walking came out as the
    path's corner and the gaze's blend on top of each other ('turn left 90' and 'turn right 40'
    over the same frames)."""
    step = np.diff(yaw)                                            # step k: frame k -> k + 1
    way = np.sign(step) * (np.abs(step) * fps >= TURNING)
    motion = np.searchsorted(np.asarray(sorted(starts), int), np.arange(1, len(yaw)), side="right")
    runs: list[list[int]] = []   # [first step, last step, way]
    for k in np.flatnonzero(way):
        w = int(way[k])
        if runs and runs[-1][2] == w and k - runs[-1][1] - 1 <= PAUSE_S * fps and motion[k] == motion[runs[-1][1]]:
            runs[-1][1] = int(k)
        else:
            runs.append([int(k), int(k), w])
    told = []
    for first, last, _ in runs:
        angle = float(yaw[last + 1] - yaw[first])
        if abs(angle) >= MIN_TOLD_DEG:
            told.append((first, last + 1, f"turn {'left' if angle > 0 else 'right'} {int(5 * round(abs(angle) / 5))} degrees"))
    return told


def _r(v: float) -> float:
    return round(float(v), 4) + 0.0
