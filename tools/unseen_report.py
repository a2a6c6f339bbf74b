"""Objects the walk never showed clearly, across finished scenario folders (manifest.json
`walk.unseen`): the share unseen per category, then for each unseen object the numbers that
usually say why.

    python tools/unseen_report.py OUT_DIR_OR_SCENARIO_FOLDER...

Per object: its support and box; its best pixel share and longest run of frames at 0.1% of the
frame (the "seen" rule needs 15); frames with it inside the picture clear of the id pass's edge
strip within 2 m (0 there: the walk never came close, often a room it cannot get into); frames
with it within 2 m but low in the bottom edge strip (a view aimed too high); the most of its
box's outline it ever shows (a named thing must show 15% for 0.5 s: docs/ground-truth.md "Seen").
Reads only the output files, so it runs on any finished batch.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

NEAR_M = 2.0
STRIP_DEG = 3.7     # the id pass's 32-px edge strip at 640x480, in degrees (tests/test_walk_view.py)
SEEN_SHARE = 0.001  # 0.1% of the frame (docs/ground-truth.md "Seen")


def scenario_folders(paths: list[str]) -> list[Path]:
    out = []
    for p in map(Path, paths):
        if not p.is_dir():
            sys.exit(f"error {p}: no such folder (fix: a finished scenario folder or a batch's --out folder)")
        out += [p] if (p / "manifest.json").exists() else sorted(d for d in p.iterdir() if (d / "manifest.json").exists())
    return out


def read(folder: Path, name: str) -> dict:
    return json.loads((folder / name).read_text())


def best_shown(oid: str, scene: dict, traj: dict, vis: dict) -> float:
    """The largest share of its box's outline (queries.shown) the object shows in any frame."""
    from queries.model import parse_scene, parse_trajectory
    from queries.shown import exposed_part, outline_area

    parsed, frames = parse_scene(scene), {f.frame: f for f in parse_trajectory(traj).frames}
    obj = next(o for o in parsed.objects if o.id == oid)
    exposed, track = exposed_part(obj, parsed.objects), vis["objects"].get(oid, {"frames": [], "pixels": []})
    best = 0.0
    for f, p in zip(track["frames"], track["pixels"]):
        area = outline_area(obj, frames[f], traj["camera"]["hfov_deg"], vis["width"], vis["height"], exposed)
        best = max(best, 1.0 if not area else min(1.0, p / area))   # coarse id pixels can overrun a tiny outline
    return best


def why(folder: Path, oid: str, scene: dict, traj: dict, vis: dict) -> str:
    o = next(x for x in scene["objects"] if x["id"] == oid)
    frames = traj["frames"]
    hhalf, vhalf = traj["camera"]["hfov_deg"] / 2, traj["camera"]["vfov_deg"] / 2
    pos = np.array([f["position"] for f in frames])
    yaw, pitch = np.array([f["yaw"] for f in frames]), np.array([f["pitch"] for f in frames])
    floor = np.array([f["floor"] for f in frames]) == o["floor"]
    (x, y, z), (_, _, h) = o["position"], o["size"]
    dist = np.hypot(x - pos[:, 0], y - pos[:, 1])
    off = (np.degrees(np.arctan2(y - pos[:, 1], x - pos[:, 0])) - yaw + 180.0) % 360.0 - 180.0
    top = np.degrees(np.arctan2(z + h - pos[:, 2], dist)) - pitch
    bottom = np.degrees(np.arctan2(z - pos[:, 2], dist)) - pitch
    across = floor & (np.abs(off) < hhalf - STRIP_DEG)
    inside = across & (top > -vhalf + STRIP_DEG) & (bottom < vhalf - STRIP_DEG)
    low = across & (bottom < -vhalf + STRIP_DEG) & (top > -vhalf)
    track = vis["objects"].get(oid, {"frames": [], "pixels": []})
    area = vis["width"] * vis["height"]
    good = set(f for f, p in zip(track["frames"], track["pixels"]) if p >= SEEN_SHARE * area)
    longest = run = 0
    for k in range(len(frames)):
        run = run + 1 if k in good else 0
        longest = max(longest, run)
    near = inside & (dist < NEAR_M)
    closest = f"{dist[inside].min():.2f} m" if inside.any() else "never"
    best = max(track["pixels"], default=0) / area * 100
    return (f"{folder.name} {oid:30s} on {o['support'][:24]:24s} {o['size'][0]:.2f}x{o['size'][1]:.2f}x{h:.2f} m"
            f" | best {best:.3f}% run {longest:3d} | in view <{NEAR_M:g} m: {int(near.sum()):4d} frames"
            f" (closest in view {closest}) | low in the bottom strip <{NEAR_M:g} m: {int((low & (dist < NEAR_M)).sum())}"
            f" | shows at most {best_shown(oid, scene, traj, vis):.0%} of its outline")


def main(paths: list[str]) -> None:
    total, unseen, lines = Counter(), Counter(), []
    for folder in scenario_folders(paths):
        manifest, scene = read(folder, "manifest.json"), read(folder, "scene.json")
        ids = sorted(i for group in (manifest["walk"].get("unseen") or {}).values() for i in group)
        for o in scene["objects"]:
            total[o["category"]] += 1
            unseen[o["category"]] += o["id"] in ids
        if ids:
            traj, vis = read(folder, "trajectory.json"), read(folder, "visibility.json")
            lines += [why(folder, oid, scene, traj, vis) for oid in ids]
    print(f"objects {sum(total.values())}, unseen {sum(unseen.values())}")
    for category in sorted(total, key=lambda c: (-unseen[c] / total[c], c)):
        if unseen[category]:
            print(f"  {category:18s} {unseen[category]:3d} / {total[category]:4d}")
    print(*lines, sep="\n")


if __name__ == "__main__":
    main(sys.argv[1:])
