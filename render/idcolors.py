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


def block_side(id_width: int) -> int:
    """Side (id-pass pixels) of the square an object's visible region must hold somewhere in a
    frame for the frame to list it: 8 at a 320-px-wide id pass (16x16 px of a 640x480 video,
    2.5% of its width), at least 2. Checked on frames of scenario-01: a washstand's 12-px edge
    past a door jamb and a bookshelf's strip behind a chair (neither recognisable) are not
    listed at 640x480; a cup seen whole at 0.1% of the frame (about 17x17 px) is."""
    return max(2, round(8 * id_width / 320))


def border_margin(id_width: int) -> int:
    """Id-pass pixels along the frame's edges where the square does not count: twice the
    square's side (32 px of a 640-px-wide video, 5% of its width), so an object sliding in at
    the edge is seen once it shows 48 px (a third of a washstand 2 m away), not a 16-px strip.
    On scenario-01 a washstand and a bookshelf were listed from strips at the frame's edge."""
    return 2 * block_side(id_width)


def ids_with_block(ids: np.ndarray, side: int, margin: int = 0, hull_ids=()) -> np.ndarray:
    """The ids whose region holds a side x side square of pixels somewhere in the map, at least
    `margin` pixels inside its edges. For `hull_ids` (things drawn as thin open frames,
    assets.vocabulary.OPEN_FRAME) the square is looked for in the convex hull of the region's
    part inside the margin instead: the outline of a pair of glasses, not its wire."""
    if margin:
        ids = ids[margin: ids.shape[0] - margin, margin: ids.shape[1] - margin]
    h, w = ids.shape
    if h < side or w < side:
        return np.zeros(0, ids.dtype)
    solid = _ids_with_square(ids, side)
    hulls = [i for i in hull_ids if i not in solid and _hull_holds_square(ids == i, side)]
    return np.union1d(solid, np.asarray(hulls, ids.dtype))


def _hull_holds_square(mask: np.ndarray, side: int) -> bool:
    import cv2

    points = cv2.findNonZero(mask.astype(np.uint8))
    if points is None:
        return False
    hull = np.zeros(mask.shape, np.uint8)
    # the hull of pixel centres, drawn with the pixels on it: a region's own pixels are inside
    cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
    return bool(cv2.erode(hull, np.ones((side, side), np.uint8), borderValue=0).any())


def _ids_with_square(ids: np.ndarray, side: int) -> np.ndarray:
    h, w = ids.shape
    # rows first: where `side` pixels to the right all carry the id, then `side` such rows down
    row = np.ones((h, w - side + 1), bool)
    for dx in range(1, side):
        row &= ids[:, dx: dx + w - side + 1] == ids[:, : w - side + 1]
    anchor = ids[: h - side + 1, : w - side + 1]
    same = row[: h - side + 1].copy()
    for dy in range(1, side):
        same &= row[dy: dy + h - side + 1] & (ids[dy: dy + h - side + 1, : w - side + 1] == anchor)
    return np.unique(anchor[same])


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
