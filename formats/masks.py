"""masks/legend.json: what the values of the optional instance masks mean (`--passes masks`).

The masks (masks/<frame:06d>.png, 16-bit single channel) are the renderer's instance-ID pass
decoded to indices (render.passes): the pixels visibility.json was counted from. Index 0 is
the outside (sky, ground, exterior walls); every room, hallway, stairwell and object has its
own index, the same as the `egoscene_id` extra of its node in scene.glb.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel


class MaskInstance(StrictModel):
    """One index of the masks."""

    index: int = Field(ge=1, le=4095, description="The pixel value in the masks (16-bit PNG).")
    kind: Literal["room", "hallway", "stairs", "object"] = Field(
        description="room: its floor, walls, ceiling and lamps; hallway / stairs: a hallway's or stairwell's "
                    "surfaces; object: a placed object (scene.json objects[]).")
    key: str = Field(description="The object's id, the room's label, or `hallway:<id>` / `stairs:<id>` "
                                 "(as in scene.json and visibility.json).")
    category: str = Field(description="The object's category; a room's type; `hallway` or `stairs`.")
    room: str | None = Field(description="The room the object stands in; a room's own label; null for hallways "
                                         "and stairwells.")


class MaskLegend(FileModel):
    """The legend of the instance masks of one scenario."""

    FORMAT: ClassVar[str] = "egoscene.masks/1"
    FILENAME: ClassVar[str] = "legend.json"

    format: Literal["egoscene.masks/1"] = Field(description=TAG_DESCRIPTION)
    width: int = Field(gt=0, description="Mask width in pixels: the id pass's (visibility.json id_pass.width, "
                                         "half the video width by default).")
    height: int = Field(gt=0, description="Mask height in pixels (the id pass's).")
    video_width: int = Field(gt=0, description="Video width; one mask pixel covers video_width / width video pixels "
                                               "across (an integer).")
    video_height: int = Field(gt=0, description="Video height.")
    first_frame: int = Field(ge=0, description="Frame number of the first mask (masks/<frame:06d>.png).")
    frame_count: int = Field(ge=1, description="Masks written: one per frame of trajectory.json, numbered "
                                               "first_frame .. first_frame + frame_count - 1.")
    instances: list[MaskInstance] = Field(description="Every non-zero index, ascending; 0 (absent) is the outside.")

    @model_validator(mode="after")
    def _consistent(self):
        indices = [i.index for i in self.instances]
        if indices != sorted(set(indices)):
            raise ValueError("instances must have distinct indices in ascending order")
        if self.video_width % self.width or self.video_height % self.height \
                or self.video_width // self.width != self.video_height // self.height:
            raise ValueError(f"{self.width}x{self.height} is not the video {self.video_width}x{self.video_height} "
                             "divided by one integer")
        return self
