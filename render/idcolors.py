"""Object ids <-> exact flat colours of the id pass (pure numpy, no bpy).

Each channel carries 4 bits as one of 16 levels spaced 17 apart in 8-bit output
(0, 17, ..., 255), so decoding tolerates small rounding errors (+-8) and ids up to 4095 fit.
Id 0 is "nothing" (sky, ground, exterior), drawn black.
"""

from __future__ import annotations

import numpy as np

LEVELS = 16
STEP = 255 // (LEVELS - 1)      # 17
MAX_IDS = LEVELS ** 3


def id_to_levels(i: int) -> tuple[int, int, int]:
    if not 0 <= i < MAX_IDS:
        raise ValueError(f"id {i} out of range 0..{MAX_IDS - 1}")
    return i % LEVELS, (i // LEVELS) % LEVELS, i // (LEVELS * LEVELS)


def id_to_rgba(i: int) -> tuple[float, float, float, float]:
    """The colour to give an object in the id scene (scene-linear = output with 'Raw')."""
    r, g, b = id_to_levels(i)
    return (r * STEP / 255.0, g * STEP / 255.0, b * STEP / 255.0, 1.0)


def decode_bgr(img: np.ndarray) -> np.ndarray:
    """An 8-bit BGR image (as cv2 reads it) -> int32 id map."""
    lv = (img.astype(np.int32) + STEP // 2) // STEP
    return lv[..., 2] + LEVELS * lv[..., 1] + LEVELS * LEVELS * lv[..., 0]


def count_ids(ids: np.ndarray) -> np.ndarray:
    """Pixel count per id (index = id)."""
    return np.bincount(ids.ravel(), minlength=MAX_IDS)


def assign_ids(scene: dict) -> dict[tuple[str, str], int]:
    """(kind, key) -> id for everything the id pass distinguishes, in a fixed order:
    rooms ("room", label), hallways and stairwells ("space", "hallway:<id>" | "stairs:<id>"),
    then objects ("object", id). Id 0 is the outside."""
    from render.shell import collect_spaces

    ids: dict[tuple[str, str], int] = {}
    for sp in collect_spaces(scene):
        kind = "room" if sp.kind == "room" else "space"
        ids.setdefault((kind, sp.key), len(ids) + 1)
    for obj in scene.get("objects", []):
        ids.setdefault(("object", obj["id"]), len(ids) + 1)
    if len(ids) >= MAX_IDS:
        raise ValueError(f"{len(ids)} rooms and objects exceed the id pass capacity {MAX_IDS - 1}")
    return ids
