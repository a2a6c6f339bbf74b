"""Room shapes other than the solver's rectangle: an L is the rectangle less one outside corner.

The corner cut away becomes outside. It is taken only where nothing else is: no other room,
hallway or stairwell of the floor touches it (so every shared wall, doorway and relation the
solver made stays as it was) and no space of the floor above stands over it. Both arms of the
L stay at least ARM_MIN wide, so furniture and the walk still fit.
"""

from __future__ import annotations

import math

from shapely.geometry import Point, Polygon, box

ARM_MIN = 2.0        # m: each arm of the L at least this wide
NOTCH_MIN = 1.2      # m: the cut-out at least this deep on each side (else it reads as a nook)
NOTCH_SHARE = 0.45   # the cut-out takes at most this share of each side
CORNERS = ("north-east", "north-west", "south-east", "south-west")   # tried in this order


def _snap_down(v: float, step: float = 0.1) -> float:
    return math.floor(v / step + 1e-9) * step


def notch(rect: Polygon, corner: str) -> Polygon | None:
    """The corner rectangle an L cuts from `rect`, or None when the room is too small for one."""
    x0, y0, x1, y1 = rect.bounds
    w = _snap_down(min(NOTCH_SHARE * (x1 - x0), x1 - x0 - ARM_MIN))
    d = _snap_down(min(NOTCH_SHARE * (y1 - y0), y1 - y0 - ARM_MIN))
    if w < NOTCH_MIN or d < NOTCH_MIN:
        return None
    xs = (x1 - w, x1) if corner.endswith("east") else (x0, x0 + w)
    ys = (y1 - d, y1) if corner.startswith("north") else (y0, y0 + d)
    return box(xs[0], ys[0], xs[1], ys[1])


def carve_l(rect: Polygon, others: list[Polygon], above: list[Polygon], keep: Point | None = None) -> Polygon | None:
    """`rect` as an L: less the first corner of CORNERS that touches none of `others` (the
    floor's other spaces), lies under none of `above` (the next floor's spaces) and stays
    0.5 m clear of `keep` (the start pose); None when no corner qualifies."""
    for corner in CORNERS:
        cut = notch(rect, corner)
        if cut is None:
            return None
        if any(cut.buffer(0.01).intersects(o) for o in others):
            continue
        if any(cut.intersection(a).area > 1e-6 for a in above):
            continue
        if keep is not None and cut.distance(keep) < 0.5:
            continue
        return rect.difference(cut)
    return None
