"""10x10 floor-plan grid ground truth in the start frame (SPEC section 6, paper Table 9).

Start frame: origin at the camera's first position, +y its first heading, +x to its right.
Cells span x in [-5, 5), y in [0, 10) grid units; the unit is the smallest step of a 0.5 m
ladder that fits the whole plan. A cell takes the label covering most of it when that label
covers at least half of it, else "none".
"""

from __future__ import annotations

import math

from shapely.geometry import Polygon, box

from formats.grid import Grid

GRID_SIZE = 10
UNIT_STEP = 0.5
BEHIND_TOLERANCE = 0.5  # the strip between the start pose and the south wall is not counted
NONE = "none"
HALLWAY = "hallway"


def _labelled_spaces(scene: dict, floor: int) -> list[tuple[str, Polygon]]:
    spaces = [(r["label"], Polygon(r["polygon"])) for r in scene["rooms"] if r["floor"] == floor]
    spaces += [(HALLWAY, Polygon(h["polygon"])) for h in scene["hallways"] if h["floor"] == floor]
    # the stairwell belongs to the corridor system on every floor it serves
    spaces += [(HALLWAY, Polygon(s["polygon"])) for s in scene.get("stairs", []) if floor in s["floors"]]
    return spaces


def _to_start_frame(scene: dict, x: float, y: float) -> tuple[float, float]:
    (sx, sy), (hx, hy) = scene["start"]["position"], scene["start"]["heading"]
    dx, dy = x - sx, y - sy
    # right of heading (hx, hy) is (hy, -hx)
    return dx * hy - dy * hx, dx * hx + dy * hy


def _frame_polygon(scene: dict, poly: Polygon) -> Polygon:
    return Polygon([_to_start_frame(scene, x, y) for x, y in poly.exterior.coords])


def grid_unit(scene: dict) -> float:
    floors = sorted({r["floor"] for r in scene["rooms"]})
    x_reach, y_reach = 0.0, 0.0
    for floor in floors:
        for _, poly in _labelled_spaces(scene, floor):
            minx, miny, maxx, maxy = _frame_polygon(scene, poly).bounds
            if miny < -BEHIND_TOLERANCE - 1e-9:
                raise ValueError("the plan extends behind the start pose; the start must be on the south edge")
            x_reach = max(x_reach, -minx, maxx)
            y_reach = max(y_reach, maxy)
    steps = max(math.ceil(x_reach / (GRID_SIZE / 2) / UNIT_STEP - 1e-9), math.ceil(y_reach / GRID_SIZE / UNIT_STEP - 1e-9), 1)
    return steps * UNIT_STEP


def floor_grid(scene: dict, floor: int, unit: float) -> list[list[str]]:
    spaces = [(label, _frame_polygon(scene, poly)) for label, poly in _labelled_spaces(scene, floor)]
    cell_area = unit * unit
    rows = []
    for j in reversed(range(GRID_SIZE)):  # first row is y = 9
        row = []
        for i in range(-GRID_SIZE // 2, GRID_SIZE // 2):
            cell = box(i * unit, j * unit, (i + 1) * unit, (j + 1) * unit)
            cover: dict[str, float] = {}
            for label, poly in spaces:
                if poly.intersects(cell):
                    cover[label] = cover.get(label, 0.0) + poly.intersection(cell).area
            best = max(sorted(cover), key=lambda k: cover[k], default=None)
            row.append(best if best is not None and cover[best] >= 0.5 * cell_area - 1e-9 else NONE)
        rows.append(row)
    return rows


def build_grid(scene: dict) -> dict:
    unit = grid_unit(scene)
    floors = sorted({r["floor"] for r in scene["rooms"]})
    labels = sorted(r["label"] for r in scene["rooms"]) + [HALLWAY, NONE]
    return {
        "format": Grid.FORMAT,
        "unit": unit,
        "labels": labels,
        "start": {"cell": [0, 0], "position": scene["start"]["position"], "heading": scene["start"]["heading"],
                  "floor": scene["start"]["floor"]},
        "floors": [{"floor": f, "grid": floor_grid(scene, f, unit)} for f in floors],
    }
