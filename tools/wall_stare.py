"""Frames that stare at a bare wall: most of the picture (more than 60%, more than 90%) is wall
with no object on or before it (issue 12 item 5: "don't stare at walls"), on the walks as
planned (no rendering) or on finished scenario folders.

    PYTHONPATH=. python tools/wall_stare.py [names...] [--cache /tmp/walk_scenes.pkl] [--size 64]
    PYTHONPATH=. python tools/wall_stare.py --out OUT_DIR      # finished scenario folders

Each frame is ray-cast at a small size with tools/seen_proxy.py (objects as boxes, walls with
their doorways open, door frames and leaves not drawn; floors and ceilings count as not wall).
Per scenario: the share of frames over each threshold, the longest run over the higher one in
seconds and the room where it starts, and the mean wall share of all frames.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.seen_proxy import id_maps  # noqa: E402

THRESHOLDS = (0.6, 0.9)


def wall_shares(scene: dict, traj: dict, width: int) -> np.ndarray:
    """Per frame, the share of the picture that is bare wall."""
    shares = np.zeros(len(traj["frames"]))
    for k, ids in id_maps(scene, traj, width):
        shares[k] = float((ids == -1).mean())
    return shares


def summary(name: str, scene: dict, traj: dict, width: int) -> dict:
    shares = wall_shares(scene, traj, width)
    over = shares > THRESHOLDS[-1]
    edges = np.diff(np.concatenate([[0], over.astype(int), [0]]))
    starts, ends = np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]
    fps = traj.get("fps", 30)
    longest = int((ends - starts).max()) if len(starts) else 0
    where = traj["frames"][int(starts[np.argmax(ends - starts)])]["room"] if len(starts) else None
    return {"scenario": name, "frames": len(shares), "over": [float((shares > t).mean()) for t in THRESHOLDS],
            "longest_s": longest / fps, "longest_room": where, "mean_wall": float(shares.mean())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/walk_scenes.pkl"))
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--out", type=Path, default=None, help="a folder of finished scenario folders instead")
    args = ap.parse_args()
    rows = []
    if args.out is not None:
        for d in sorted(p.parent for p in args.out.glob("*/trajectory.json")):
            scene = json.loads((d / "scene.json").read_text())
            traj = json.loads((d / "trajectory.json").read_text())
            rows.append(summary(d.name, scene, traj, args.size))
            print(_line(rows[-1]), flush=True)
    else:
        from generator.walk.plan import plan_walk
        from tools.walk_timing import CAMERA, furnished_all

        names = args.names or sorted(p.stem for p in (ROOT / "scenarios").glob("*.yaml"))
        for name, (scenario, scene) in furnished_all(names, args.cache).items():
            rows.append(summary(name, scene, plan_walk(scenario, scene, camera=CAMERA), args.size))
            print(_line(rows[-1]), flush=True)
    frames = sum(r["frames"] for r in rows)
    pooled = [sum(r["over"][i] * r["frames"] for r in rows) / max(frames, 1) for i in range(len(THRESHOLDS))]
    print(f"pooled over {frames} frames: " + ", ".join(f"{100 * p:.1f}% over {t:.0%} bare wall"
                                                     for p, t in zip(pooled, THRESHOLDS))
          + f"; longest run over {THRESHOLDS[-1]:.0%} {max((r['longest_s'] for r in rows), default=0):.1f} s")


def _line(r: dict) -> str:
    over = "  ".join(f">{t:.0%} {100 * o:5.1f}%" for t, o in zip(THRESHOLDS, r["over"]))
    return (f"{r['scenario']:18s} frames {r['frames']:5d}  {over}  "
            f"longest {r['longest_s']:4.1f} s ({r['longest_room']})  mean wall {100 * r['mean_wall']:4.1f}%")


if __name__ == "__main__":
    main()
