"""Colour frames a coverage extension renders again, planned only (no rendering): the first
walk and the walk extended with extra looks, cut into chunks as render/frame_cache.py cuts
them, at several chunk sizes.

    PYTHONPATH=. python tools/extension_cost.py SPEC "{'room': ['object id', ...]}"
    PYTHONPATH=. python tools/extension_cost.py SPEC random   # 3 objects drawn with seed 1

Prints the frames of both walks, the extended walk's poses the first walk does not have, and
per chunk size the chunks and the colour frames in chunks whose segment the first walk's
render does not have (those are rendered again).
"""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from egoscene.pipeline import Options, run_layout  # noqa: E402
from generator.doors import door_poses  # noqa: E402
from generator.placement.place import place_objects  # noqa: E402
from generator.spec.scenario import load_scenario  # noqa: E402
from generator.walk.plan import plan_walk  # noqa: E402
from render.frame_cache import chunk_bounds, chunk_limits, pose_key, segment_key  # noqa: E402


def main(spec: str, looks: str) -> None:
    scenario = load_scenario(Path(spec))
    scene, _ = run_layout(scenario, None)
    placed = place_objects(scenario, scene)
    scene["objects"], scene["object_relations"] = placed["objects"], placed.get("object_relations", [])
    if looks == "random":
        extra: dict[str, list[str]] = {}
        for o in random.Random(1).sample(scene["objects"], 3):
            extra.setdefault(o["room"], []).append(o["id"])
    else:
        extra = ast.literal_eval(looks)
    camera = Options().camera()

    def keys(t):
        return [pose_key(p) for p in door_poses(scene, t["frames"], t["fps"])]

    first = keys(plan_walk(scenario, scene, camera=camera))
    extended = keys(plan_walk(scenario, scene, extra_looks=extra, camera=camera))
    print(f"extra looks {extra}")
    print(f"frames {len(first)} -> {len(extended)}, new poses {len(set(extended) - set(first))}")
    for most in (150, 60, 30):
        old = {segment_key(first[a:b]) for a, b in chunk_bounds(first, *chunk_limits(most))}
        cut = chunk_bounds(extended, *chunk_limits(most))
        again = sum(b - a for a, b in cut if segment_key(extended[a:b]) not in old)
        print(f"at most {most} frames a chunk: {len(cut)} chunks, colour rendered again {again}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
