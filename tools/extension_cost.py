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
from render.frame_cache import segment_key, walk_chunks  # noqa: E402


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

    def poses(t):
        return door_poses(scene, t["frames"], t["fps"], t.get("insertions", [])), t.get("motion_starts", [])

    first, first_starts = poses(plan_walk(scenario, scene, camera=camera))
    extended, extended_starts = poses(plan_walk(scenario, scene, extra_looks=extra, camera=camera))
    print(f"extra looks {extra}")
    for most in (150, 90, 60, 30):
        keys_a, chunks_a = walk_chunks(first, most, first_starts)
        keys_b, chunks_b = walk_chunks(extended, most, extended_starts)
        if most == 150:
            print(f"frames {len(keys_a)} -> {len(keys_b)}, new poses {len(set(keys_b) - set(keys_a))}")
        old = {segment_key(keys_a[a:b]) for a, b in chunks_a}
        again = sum(b - a for a, b in chunks_b if segment_key(keys_b[a:b]) not in old)
        print(f"at most {most} frames a chunk: first walk {len(chunks_a)} chunks, extended {len(chunks_b)}, "
              f"colour rendered again {again}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
