"""Frames whose view axis meets an open door leaf less than 1 m ahead, across finished scenario
folders: the walk does not know where leaves hang (generator/doors.py decides from the scene and
the walk's poses), so it may stand where a leaf swings open and look at it.

    PYTHONPATH=. python tools/leaf_stare.py OUT_DIR_OR_SCENARIO_FOLDER...

Per scenario: such frames, their share of the video, and the longest run in seconds. On the
sampled walks of 2026-11-27, 1.0% of the frames of 22 walks, the longest run 4.2 s (sample-1-013's
bedroom 2, where the camera stood inside the leaf's sweep, so the leaf could not close).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

from generator.doors import leaves, open_angles

AHEAD_M = 1.0


def stare_frames(scene: dict, trajectory: dict) -> np.ndarray:
    """Per frame: does the view axis meet an open leaf within AHEAD_M?"""
    frames = trajectory["frames"]
    xy = np.array([f["position"][:2] for f in frames], float)
    floors = np.array([f["floor"] for f in frames], int)
    yaw = np.radians([f["yaw"] for f in frames])
    stare = np.zeros(len(frames), bool)
    for leaf in leaves(scene):
        angles = open_angles(leaf, xy, floors, int(trajectory["fps"]))
        for k in np.flatnonzero(angles > 0):
            hx, hy = leaf.hinge
            tx, ty = leaf.tip(float(angles[k]))
            ox, oy = xy[k]
            dx, dy = math.cos(yaw[k]), math.sin(yaw[k])
            ex, ey = tx - hx, ty - hy
            den = dx * ey - dy * ex
            if abs(den) < 1e-9:
                continue
            along = ((hx - ox) * ey - (hy - oy) * ex) / den      # metres along the view axis
            on_leaf = ((hx - ox) * dy - (hy - oy) * dx) / den    # 0..1 from hinge to tip
            stare[k] |= 0.0 < along < AHEAD_M and 0.0 <= on_leaf <= 1.0
    return stare


def longest_run(mask: np.ndarray) -> int:
    best = run = 0
    for v in mask:
        run = run + 1 if v else 0
        best = max(best, run)
    return best


def main(paths: list[str]) -> None:
    for root in map(Path, paths):
        folders = [root] if (root / "trajectory.json").exists() else sorted(p for p in root.iterdir() if (p / "trajectory.json").exists())
        for d in folders:
            traj = json.loads((d / "trajectory.json").read_text())
            stare = stare_frames(json.loads((d / "scene.json").read_text()), traj)
            print(f"{d.name}: {int(stare.sum())} of {len(stare)} frames ({100 * stare.mean():.1f}%) face an open leaf "
                  f"within {AHEAD_M:g} m; longest run {longest_run(stare) / traj['fps']:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
