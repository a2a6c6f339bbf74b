"""The paper's floor-plan prediction prompt (VAEX Table 9), filled in for one scenario."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from queries.grid_score import GRID_COLS, GRID_ROWS, HALLWAY_LABEL, NONE_LABEL

# Table 9 verbatim except the label list (filled in) and straight quotes.
_TEMPLATE = """\
Watch the video and reconstruct the floor plan on a {rows}×{cols} grid. Output strictly in JSON format.

Labels:
{labels}

Coordinate System:
Assume the camera's start position in frame 1 is exactly at the start point.
Start: (0, 0) | Bounds: (-5, 0), (5, 0), (-5, 10), (5, 10){scale}

Output Format (Example):
{{
  "reasoning": "Briefly trace the trajectory.",
  "grid": [
    [{none}, {first}, {first}, ...], // y={top}
    [{none}, {first}, {first}, ...], // y={second_row}
    ...
    [{none}, {second}, {none}, ...] // y=0
  ]
}}"""


def prompt_labels(labels: Sequence[str]) -> list[str]:
    """All rooms (sorted), then "hallway" and "none", as the prompt lists them."""
    rooms = sorted({label for label in labels if label not in (HALLWAY_LABEL, NONE_LABEL)})
    return [*rooms, HALLWAY_LABEL, NONE_LABEL]


def scale_text(unit: float) -> str:
    """What a viewer needs to place rooms on the grid (issue 10, item 10)."""
    return (f"\nEach grid cell is {unit:g} m x {unit:g} m. Up (increasing y) is the direction the camera "
            f"faces in frame 1; x increases to its right.")


def grid_prompt(labels: Sequence[str], extra: str | None = None, unit: float | None = None) -> str:
    """Table 9's prompt with the scenario's labels; `extra` is appended as its own paragraph;
    with `unit` (grid.json's cell side in metres) the coordinate system states the cell size
    and that up is the starting heading."""
    ordered = prompt_labels(labels)
    rooms = ordered[:-2]
    # The paper's example shows two of the scenario's rooms; fall back to hallway if needed.
    first = rooms[0] if rooms else HALLWAY_LABEL
    second = rooms[1] if len(rooms) > 1 else first
    text = _TEMPLATE.format(
        rows=GRID_ROWS, cols=GRID_COLS, top=GRID_ROWS - 1, second_row=GRID_ROWS - 2,
        labels=", ".join(json.dumps(label, ensure_ascii=False) for label in ordered),
        none=json.dumps(NONE_LABEL), first=json.dumps(first, ensure_ascii=False),
        second=json.dumps(second, ensure_ascii=False), scale=scale_text(unit) if unit else "",
    )
    if extra:
        text += "\n\n" + extra.strip()
    return text


def grid_prompt_for(grid_json: Mapping[str, Any], floor: int | None = None,
                    extra: str | None = None) -> str:
    """The prompt for a loaded grid.json (all of its labels, as the paper lists all rooms).

    Multi-floor buildings: with `floor` the model is asked for that floor only; without it,
    for one grid per floor in the {"floors": [...]} form that `score_file` reads.
    """
    floors = sorted(int(f["floor"]) for f in grid_json.get("floors", []))
    notes = []
    if len(floors) > 1 or (floor is not None and floor != 0):
        if floor is not None:
            notes.append(f"The building has {len(floors)} floors (floor 0 is the ground floor). "
                         f"Reconstruct floor {floor} only, in the same coordinate system.")
        else:
            example = ", ".join(f'{{"floor": {f}, "grid": [...]}}' for f in floors)
            notes.append(f"The building has {len(floors)} floors (floor 0 is the ground "
                         f"floor). Output one grid per floor, in the same coordinate system: "
                         f'{{"reasoning": "...", "floors": [{example}]}}')
    if extra:
        notes.append(extra.strip())
    return grid_prompt(grid_json.get("labels", []), "\n\n".join(notes) or None, grid_json.get("unit"))
