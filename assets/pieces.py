"""Pieces several builder modules share: door and drawer fronts with their handles, four legs,
and a few fixed colours."""

from __future__ import annotations

import numpy as np

from assets.geometry import cuboid, disc_y, frustum, rod

DARK_WOOD = (0.22, 0.13, 0.07)
BLACK = (0.05, 0.05, 0.06)
STEEL = (0.78, 0.79, 0.80)
WHITE = (0.93, 0.93, 0.91)


def fronts(x0, x1, z0, z1, y, rows, cols, kind="door", handle="knob", gap=0.004, t=0.018,
           hinge_left=True):
    """Door or drawer fronts on the face y (protruding t towards +y) plus their handles.

    Returns (panels, handles). Door pairs get handles at the meeting edge; drawers centred.
    """
    panels, handles = [], []
    xs = np.linspace(x0, x1, cols + 1)
    zs = np.linspace(z0, z1, rows + 1)
    for r in range(rows):
        for c in range(cols):
            xa, xb, za, zb = xs[c] + gap, xs[c + 1] - gap, zs[r] + gap, zs[r + 1] - gap
            panels.append(cuboid(xa, xb, y, y + t, za, zb))
            if handle == "none":
                continue
            if kind == "drawer":
                hx, hz = (xa + xb) / 2, zb - min(0.05, (zb - za) / 2)
            else:
                opens_right = (c % 2 == 0) if cols > 1 else hinge_left
                hx = xb - 0.04 if opens_right else xa + 0.04
                hz = za + (zb - za) * (0.85 if zb > 1.2 else 0.8) if za < 0.9 else za + 0.08
                if zb - za > 1.2:
                    hz = min(1.05, (za + zb) / 2)
            yt = y + t
            if handle == "knob":
                handles.append(disc_y(0.012, yt, yt + 0.022, hx, hz, 12))
            elif handle == "bar" and kind == "drawer":
                half = min(0.08, (xb - xa) / 4)
                handles += [rod((hx - half, yt + 0.025, hz), (hx + half, yt + 0.025, hz), 0.006),
                            rod((hx - half, yt, hz), (hx - half, yt + 0.025, hz), 0.005),
                            rod((hx + half, yt, hz), (hx + half, yt + 0.025, hz), 0.005)]
            else:  # vertical bar on doors
                half = min(0.12, (zb - za) / 5)
                handles += [rod((hx, yt + 0.025, hz - half), (hx, yt + 0.025, hz + half), 0.006),
                            rod((hx, yt, hz - half), (hx, yt + 0.025, hz - half), 0.005),
                            rod((hx, yt, hz + half), (hx, yt + 0.025, hz + half), 0.005)]
    return panels, handles


def four_legs(w, d, z1, thick, inset=0.0, round_legs=False, taper=1.0):
    legs = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            x = sx * (w / 2 - inset - thick / 2)
            y = sy * (d / 2 - inset - thick / 2)
            if round_legs:
                legs.append(frustum(thick / 2 * taper, thick / 2, 0, z1, x, y, 12))
            else:
                legs.append(cuboid(x - thick / 2, x + thick / 2, y - thick / 2, y + thick / 2, 0, z1))
    return legs
