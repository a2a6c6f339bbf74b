"""grid.json: the 10x10 floor-plan label grid per floor in the start frame (SPEC section 6).

Written by generator.layout.grid.build_grid from scene.json. The start frame has its origin at
the start position, +y along the start heading and +x to its right; cells span x in [-5, 5)
and y in [0, 10) grid units.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel

GRID_SIZE = 10

Row = Annotated[list[str], Field(min_length=GRID_SIZE, max_length=GRID_SIZE,
                                 description="10 cell labels, west to east (x = -5 ... 4 grid units).")]


class GridStart(StrictModel):
    cell: tuple[int, int] = Field(description="Grid cell of the start position, [column, row] relative to the origin: [0, 0].")
    position: tuple[float, float] = Field(description="Start position [x, y] in metres, world frame (scene.json start).")
    heading: tuple[int, int] = Field(description="Start heading, an axis-aligned unit vector in the world frame: the grid's +y.")
    floor: int = Field(ge=0, description="Floor of the start pose.")


class FloorGrid(StrictModel):
    floor: int = Field(ge=0, description="Floor number.")
    grid: list[Row] = Field(min_length=GRID_SIZE, max_length=GRID_SIZE,
                            description="10 rows of labels, the first row is y = 9 (farthest ahead), the last y = 0.")


class Grid(FileModel):
    """Ground truth of the floor-plan task: which space covers each cell."""

    FORMAT: ClassVar[str] = "egoscene.grid/1"
    FILENAME: ClassVar[str] = "grid.json"

    format: Literal["egoscene.grid/1"] = Field(description=TAG_DESCRIPTION)
    unit: float = Field(gt=0, description="Cell side in metres: the smallest multiple of 0.5 m that fits the whole plan.")
    labels: list[str] = Field(description="Every label a cell can take: the room labels (sorted), then `hallway`, then `none`.")
    start: GridStart
    floors: list[FloorGrid] = Field(min_length=1, description="One grid per floor, ascending.")

    @model_validator(mode="after")
    def _known_labels(self):
        known = set(self.labels)
        for f in self.floors:
            unknown = sorted({label for row in f.grid for label in row} - known)
            if unknown:
                raise ValueError(f"floor {f.floor}: cell labels {unknown} are not in labels")
        return self
