"""A Blender-free stand-in for the rendered "seen" check (docs/ground-truth.md "Seen"), to
compare walks without rendering: every frame is ray-cast at a small id-pass size against the
objects as solid boxes (footprint prisms from their bottom to their top) and the walls (doorways
open), and an object counts as seen where it covers 0.1% of the frame and holds the id pass's
block inside the border margin (render.idcolors) for 15 consecutive frames.

Boxes are cruder than the rendered meshes (a table is a solid block, a chair a full box), so the
count of objects it calls unseen is a relative measure: compare two walks of one scene.

    PYTHONPATH=. python tools/seen_proxy.py [names...] [--cache /tmp/walk_scenes.pkl] [--size 160]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import LineString, box
from shapely.ops import unary_union

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import idcolors  # noqa: E402
from tools.walk_timing import CAMERA, furnished_all  # noqa: E402


def _prism(o: dict) -> tuple[np.ndarray, float, float]:
    if o.get("footprint"):
        poly = np.asarray(o["footprint"], float)
    else:
        x, y = o["position"][:2]
        w, d = o["size"][:2]
        poly = np.array([[x - w / 2, y - d / 2], [x + w / 2, y - d / 2], [x + w / 2, y + d / 2], [x - w / 2, y + d / 2]])
    x, y = poly[:, 0], poly[:, 1]
    if 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) < 0:
        poly = poly[::-1]
    z0 = float(o["position"][2])
    return poly, z0, z0 + float(o["size"][2])


def _walls(scene: dict, floor: int) -> np.ndarray:
    lines = unary_union([LineString([w["a"], w["b"]]) for w in scene["walls"] if w["floor"] == floor])
    gaps = []
    for d in scene["doors"]:
        if d["floor"] == floor:
            x, y = d["position"]
            h = d["width"] / 2
            gaps.append(box(x - h, y - 0.01, x + h, y + 0.01) if d["wall_axis"] == "x" else box(x - 0.01, y - h, x + 0.01, y + h))
    if gaps:
        lines = lines.difference(unary_union(gaps))
    segs = []
    for g in getattr(lines, "geoms", [lines]):
        c = np.asarray(g.coords)
        segs += [(*c[i], *c[i + 1]) for i in range(len(c) - 1)]
    return np.array(segs, float).reshape(-1, 4)


def id_maps(scene: dict, traj: dict, width: int):
    """Yields (frame index, id map) with ids 1.. in scene object order, 0 nothing, -1 wall."""
    height = width * 3 // 4
    fx = (width / 2) / math.tan(math.radians(CAMERA.hfov_deg / 2))
    u, v = np.meshgrid(np.arange(width) + 0.5, np.arange(height) + 0.5)
    dirs_cam = np.stack([(u - width / 2) / fx, (v - height / 2) / fx, np.ones_like(u)], -1).reshape(-1, 3)
    objs = scene["objects"]
    prisms = [_prism(o) for o in objs]
    centre = np.array([[p[:, 0].mean(), p[:, 1].mean(), (z0 + z1) / 2] for p, z0, z1 in prisms])
    radius = np.array([math.hypot(*(p.max(0) - p.min(0))) / 2 + (z1 - z0) / 2 for p, z0, z1 in prisms])
    floors = np.array([o["floor"] for o in objs])
    index = {o["id"]: i for i, o in enumerate(objs)}
    holds = {i: set() for i in range(len(objs))}  # i -> everything resting on i, directly or not
    for i, o in enumerate(objs):
        sup, seen = o.get("support"), set()
        while sup in index and sup not in seen:
            seen.add(sup)
            holds[index[sup]].add(i)
            sup = objs[index[sup]].get("support")
    elev = {f["floor"]: (f["elevation"], f["elevation"] + f.get("height", 2.8)) for f in scene["floors"]}
    walls = {f: _walls(scene, f) for f in elev}
    for k, fr in enumerate(traj["frames"]):
        m = np.asarray(fr["cam_to_world"], float)
        r, t = m[:, :3], m[:, 3]
        d = dirs_cam @ r.T
        rel = centre - t
        dist = np.linalg.norm(rel, axis=1)
        cosang = (rel @ r[:, 2]) / np.maximum(dist, 1e-9)
        ang = np.degrees(np.arccos(np.clip(cosang, -1, 1)))
        near = np.nonzero((floors == fr["floor"]) & (dist <= 12.0)
                          & (ang <= 50.0 + np.degrees(np.arctan2(radius, np.maximum(dist, 1e-3)))))[0]
        depth = np.full((len(near), len(d)), np.inf)
        for n, i in enumerate(near):
            poly, z0, z1 = prisms[i]
            nxt = np.roll(poly, -1, axis=0)
            nx, ny = nxt[:, 1] - poly[:, 1], -(nxt[:, 0] - poly[:, 0])
            num = nx * (t[0] - poly[:, 0]) + ny * (t[1] - poly[:, 1])          # (K,)
            den = d[:, :1] * nx[None] + d[:, 1:2] * ny[None]                     # (N,K)
            with np.errstate(divide="ignore", invalid="ignore"):
                tt = -num[None] / den
                t_in = np.max(np.where(den < -1e-12, tt, 0.0), axis=1)
                t_out = np.min(np.where(den > 1e-12, tt, np.inf), axis=1)
                outside = np.any((np.abs(den) <= 1e-12) & (num[None] > 0), axis=1)
                tz0 = (z0 - t[2]) / d[:, 2]
                tz1 = (z1 - t[2]) / d[:, 2]
            zlo = np.where(np.abs(d[:, 2]) > 1e-12, np.minimum(tz0, tz1), np.where((t[2] >= z0) & (t[2] <= z1), 0.0, np.inf))
            zhi = np.where(np.abs(d[:, 2]) > 1e-12, np.maximum(tz0, tz1), np.where((t[2] >= z0) & (t[2] <= z1), np.inf, -np.inf))
            a = np.maximum(t_in, zlo)
            b = np.minimum(t_out, zhi)
            hit = (a <= b) & ~outside & (b > 0)
            depth[n] = np.where(hit, np.maximum(a, 0.0), np.inf)
        # a thing never hides what rests on it (a bed's box holds its pillows, a cupboard's its cups)
        for n, i in enumerate(near):
            for m, j in enumerate(near):
                if j in holds[i]:
                    depth[n, np.isfinite(depth[m])] = np.inf
        best = np.full(len(d), np.inf)
        ids = np.zeros(len(d), np.int32)
        if len(near):
            k_best = np.argmin(depth, axis=0)
            best = depth[k_best, np.arange(len(d))]
            ids = np.where(np.isfinite(best), near[k_best] + 1, 0).astype(np.int32)
        w = walls[fr["floor"]]
        if len(w):
            lo, hi = elev[fr["floor"]]
            ax, ay, bx, by = w.T
            ex, ey = bx - ax, by - ay
            den = d[:, :1] * ey[None] - d[:, 1:2] * ex[None]
            with np.errstate(divide="ignore", invalid="ignore"):
                tw = ((ax - t[0]) * ey - (ay - t[1]) * ex)[None] / den
                s = ((ax - t[0])[None] * d[:, 1:2] - (ay - t[1])[None] * d[:, :1]) / den
            zw = t[2] + tw * d[:, 2:3]
            ok = (np.abs(den) > 1e-12) & (tw > 1e-6) & (s >= 0) & (s <= 1) & (zw >= lo) & (zw <= hi)
            tw = np.where(ok, tw, np.inf).min(axis=1)
            closer = tw < best
            best[closer] = tw[closer]
            ids[closer] = -1
        yield k, ids.reshape(height, width)


def unseen(scene: dict, traj: dict, width: int = 160, min_frames: int = 15) -> list[str]:
    n_obj = len(scene["objects"])
    height = width * 3 // 4
    min_px = math.ceil(0.001 * width * height)
    side, margin = idcolors.block_side(width), idcolors.border_margin(width)
    good = np.zeros((len(traj["frames"]), n_obj + 1), bool)
    for k, ids in id_maps(scene, traj, width):
        pos = ids + 1  # wall -> 0, nothing -> 1, objects -> 2..
        counts = np.bincount(pos.ravel(), minlength=n_obj + 2)
        blocks = idcolors.ids_with_block(pos, side, margin)
        row = np.zeros(n_obj + 2, bool)
        row[blocks] = True
        good[k] = (counts >= min_px)[1:] & row[1:]
    out = []
    for i, o in enumerate(scene["objects"]):
        col = good[:, i + 1].astype(int)
        runs = np.diff(np.concatenate([[0], col, [0]]))
        starts, ends = np.nonzero(runs == 1)[0], np.nonzero(runs == -1)[0]
        if not len(starts) or (ends - starts).max() < min_frames:
            out.append(o["id"])
    return out


def main() -> None:
    from generator.walk.plan import plan_walk

    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/walk_scenes.pkl"))
    ap.add_argument("--size", type=int, default=160)
    args = ap.parse_args()
    names = args.names or sorted(p.stem for p in (ROOT / "scenarios").glob("*.yaml"))
    scenes = furnished_all(names, args.cache)
    total = 0
    for name in names:
        scenario, scene = scenes[name]
        traj = plan_walk(scenario, scene, camera=CAMERA)
        miss = unseen(scene, traj, args.size)
        total += len(miss)
        print(f"{name:18s} frames {len(traj['frames']):5d} objects {len(scene['objects']):3d} unseen {len(miss)}: {miss}",
              flush=True)
    print("total unseen", total)


if __name__ == "__main__":
    main()
