"""Seconds of walk video per room on the bundled scenarios, planned only (no rendering, no
coverage extensions): layout -> placement -> plan_walk as tests/test_walk.py does it.

    PYTHONPATH=. python tools/walk_timing.py [names...] [--cache /tmp/walk_scenes.pkl]

Per scenario: rooms, seconds, seconds per room, and where the time goes - walking (the
position moves; turning while walking counts here), turning on the spot (position fixed,
yaw changing: pans and turns), pitch only, standing still - plus degrees turned per room
(on the spot / while walking) and standpoints per room.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from formats.camera import Camera  # noqa: E402
from generator.walk.plan import plan_walk  # noqa: E402

CAMERA = Camera.standard(640, 480)


def furnished_all(names, cache: Path | None):
    from egoscene.pipeline import run_layout
    from generator.placement.place import place_objects
    from generator.spec.scenario import load_scenario

    store = {}
    if cache and cache.exists():
        store = pickle.loads(cache.read_bytes())
    out = {}
    for name in names:
        if name not in store:
            scenario = load_scenario(ROOT / "scenarios" / f"{name}.yaml")
            scene = dict(run_layout(scenario)[0])
            scene["objects"] = place_objects(scenario, scene)["objects"]
            store[name] = (scenario, scene)
            if cache:
                cache.write_bytes(pickle.dumps(store))
        out[name] = store[name]
    return out


def breakdown(traj: dict, rooms: int) -> dict:
    f = traj["frames"]
    pos = np.array([fr["position"] for fr in f], float)
    yaw = np.array([fr["yaw"] for fr in f], float)
    pitch = np.array([fr["pitch"] for fr in f], float)
    moved = np.linalg.norm(np.diff(pos, axis=0), axis=1) > 1e-4
    dyaw = np.abs((np.diff(yaw) + 180.0) % 360.0 - 180.0)
    turned = dyaw > 1e-3
    pitched = np.abs(np.diff(pitch)) > 1e-3
    fps = traj["fps"]
    n = len(f)
    speed = np.linalg.norm(np.diff(pos, axis=0), axis=1) * fps
    stairs = np.abs(np.diff(pos[:, 2])) > 1e-6
    flat = moved & ~stairs
    # walking slower than 0.9 m/s while the gaze turns fast (the turn limits the pace)
    slowturn = flat & (speed < 0.9) & (dyaw * fps > 30.0)
    return {
        "m": np.linalg.norm(np.diff(pos, axis=0), axis=1)[flat].sum() / rooms,
        "stairs": stairs.sum() / fps / rooms,
        "slowturn": slowturn.sum() / fps / rooms,
        "rooms": rooms,
        "s": n / fps,
        "s/room": n / fps / rooms,
        "walk": moved.sum() / fps / rooms,
        "turn": (~moved & turned).sum() / fps / rooms,
        "pitch": (~moved & ~turned & pitched).sum() / fps / rooms,
        "still": (~moved & ~turned & ~pitched).sum() / fps / rooms,
        "deg_spot": dyaw[~moved].sum() / rooms,
        "deg_walk": dyaw[moved].sum() / rooms,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--check", action="store_true", help="also run tests/test_walk.py's checks on every walk")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/walk_scenes.pkl"))
    args = ap.parse_args()
    names = args.names or sorted(p.stem for p in (ROOT / "scenarios").glob("*.yaml"))
    scenes = furnished_all(names, args.cache)
    cols = ["rooms", "s", "s/room", "walk", "m", "stairs", "slowturn", "turn", "pitch", "still", "deg_spot", "deg_walk", "stops/room", "plan_s"]
    print(f"{'scenario':18s}" + "".join(f"{c:>10s}" for c in cols))
    rows = []
    for name in names:
        scenario, scene = scenes[name]
        diag: dict = {}
        t0 = time.perf_counter()
        traj = plan_walk(scenario, scene, diagnostics=diag, camera=CAMERA)
        b = breakdown(traj, len(scenario.trajectory))
        b["stops/room"] = sum(len(v) for v in diag["viewpoints"].values()) / len(scenario.trajectory)
        b["plan_s"] = time.perf_counter() - t0
        rows.append(b)
        print(f"{name:18s}" + "".join(f"{b[c]:10.1f}" if c != "rooms" else f"{b[c]:10d}" for c in cols), flush=True)
        if args.check:
            from tests.test_walk import check_walk

            try:
                check_walk(scenario, scene, traj)
            except AssertionError as exc:
                print(f"   CHECK FAILED: {str(exc)[:300]}")
        if diag["notes"]:
            print("   notes:", diag["notes"])
    mean = {c: float(np.mean([r[c] for r in rows])) for c in cols}
    print(f"{'mean':18s}" + "".join(f"{mean[c]:10.1f}" for c in cols))
    total = sum(r["s"] for r in rows) / sum(r["rooms"] for r in rows)
    print(f"pooled s/room {total:.2f}; max s/room {max(r['s/room'] for r in rows):.2f}")


if __name__ == "__main__":
    main()
