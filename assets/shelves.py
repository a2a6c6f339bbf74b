"""The walls beside the open shelves of shelved furniture (categories.INNER_SHELVES), in the
model's local frame (+y front, z up, origin at the footprint centre on the floor), shared by the
builders that make them and by the walk, which must know that they hide what lies on a shelf
from the side (the furniture's own box never occludes what it holds)."""

from __future__ import annotations

BOOKSHELF_PANEL = 0.022    # side panels and top board
WARDROBE_BOARD = 0.02      # side, divider and shelf boards
WARDROBE_SIDE = 0.015      # the carcass's outer side


def wardrobe_columns(w: float) -> int:
    """Columns across a wardrobe: doors over all but the last, which is the open shelf column."""
    return 3 if w > 1.3 else 2


def wardrobe_divider(w: float) -> float:
    """x of the left face of the divider between the doors and the open column."""
    return w / 2 - WARDROBE_SIDE - (w - 0.03) / wardrobe_columns(w)   # 0.03: both outer sides


def side_walls(category: str, size) -> list[tuple[float, float, float, float, float, float]]:
    """(x0, x1, y0, y1, z0, z1) boxes beside the open shelves, full depth: a bookshelf's two side
    panels; a wardrobe's door section (doors and divider) and its right side. [] otherwise."""
    w, d, h = (float(v) for v in size)
    if category == "bookshelf":
        t = BOOKSHELF_PANEL
        return [(-w / 2, -w / 2 + t, -d / 2, d / 2, 0.0, h), (w / 2 - t, w / 2, -d / 2, d / 2, 0.0, h)]
    if category == "wardrobe":
        x_open, t = wardrobe_divider(w), WARDROBE_BOARD
        return [(-w / 2, x_open + t, -d / 2, d / 2, 0.0, h), (w / 2 - WARDROBE_SIDE - t, w / 2, -d / 2, d / 2, 0.0, h)]
    return []
