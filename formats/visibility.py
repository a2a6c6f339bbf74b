"""visibility.json: what the rendered video shows, per object and room, frame by frame.

Written by the renderer (render.run) from its instance-ID pass: every object and every room
surface (floor, walls, ceiling) is drawn in its own exact colour and counted per frame.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel


class Track(StrictModel):
    """The frames in which one object or room covers at least `min_pixels` pixels and its
    visible region holds an `id_pass.block` square at least `id_pass.margin` pixels inside the
    frame's edges (a sliver, or a strip at the frame's edge, is not listed; for
    `id_pass.hull_categories` the region's convex hull holds it)."""

    frames: list[int] = Field(description="Frame numbers, ascending: at least `min_pixels` video pixels, and the "
                                          "region holds a square of `id_pass.block` x `id_pass.block` id-pass "
                                          "pixels at least `id_pass.margin` pixels inside the frame's edges (a "
                                          "narrow strip, or one at the frame's edge, is not listed).")
    pixels: list[int] = Field(description="Pixels it covers in each of those frames, in video pixels "
                                          "(id-pass counts scaled by the area ratio, rounded).")
    first_frame: int | None = Field(description="The first of `frames`; null when it was never visible.")
    first_glimpse: int | None = Field(default=None, description=(
        "The first frame with at least `min_pixels` video pixels of it, whether or not its region holds "
        "the square (a thin thing far off, a strip at the frame's edge): the first moment a viewer may "
        "notice it. Null when never; absent in files written before the field (then `first_frame`)."))

    @model_validator(mode="after")
    def _consistent(self):
        if len(self.frames) != len(self.pixels):
            raise ValueError(f"{len(self.frames)} frames but {len(self.pixels)} pixel counts")
        if self.first_frame != (self.frames[0] if self.frames else None):
            raise ValueError(f"first_frame {self.first_frame} is not the first of frames")
        if self.first_frame is not None and self.first_glimpse is not None and self.first_glimpse > self.first_frame:
            raise ValueError(f"first_glimpse {self.first_glimpse} is after first_frame {self.first_frame}")
        return self


class IdPass(StrictModel):
    width: int = Field(gt=0, description="Width of the instance-ID pass in pixels (the video width / an integer).")
    height: int = Field(gt=0, description="Height of the instance-ID pass in pixels (same aspect ratio as the video).")
    block: int = Field(ge=1, description="Side in id-pass pixels of the square a region must hold for its frame to be "
                                         "listed (render.idcolors.block_side: 8 at a 320-px-wide id pass, at least 2).")
    margin: int = Field(ge=0, description="Id-pass pixels along the frame's edges where that square does not count "
                                          "(render.idcolors.border_margin: twice `block`, 5% of the width).")
    hull_categories: list[str] = Field(default_factory=list, description=(
        "Categories drawn as thin open frames round see-through parts (assets.vocabulary.OPEN_FRAME: "
        "eyeglasses): for these the square is looked for in the convex hull of the region inside the "
        "margin, the outline a viewer sees, not in the wire itself. Absent in files written before "
        "the rule: no such categories."))


class Visibility(FileModel):
    """Per object and room of scene.json: the frames where it is visible and how large."""

    FORMAT: ClassVar[str] = "egoscene.visibility/3"
    FILENAME: ClassVar[str] = "visibility.json"

    format: Literal["egoscene.visibility/3"] = Field(description=TAG_DESCRIPTION)
    width: int = Field(gt=0, description="Video width in pixels (trajectory.json camera.width).")
    height: int = Field(gt=0, description="Video height in pixels (trajectory.json camera.height).")
    fps: int = Field(gt=0, description="Frames per second.")
    min_pixels: int = Field(ge=1, description="Video pixels an object or room must cover in a frame to be listed in it "
                                              "(formats.camera.Camera.min_pixels: 50 at 640x480, scaled with the area).")
    id_pass: IdPass
    profile: Literal["preview", "photoreal"] = Field(description="Render profile of the video.")
    objects: dict[str, Track] = Field(description="Object id -> track; every object of scene.json has an entry.")
    rooms: dict[str, Track] = Field(description="Room label -> track of its floor, walls and ceiling.")
    inputs_hash: str = Field(description="sha256 of what decides how frames look (scene, profile, sizes, renderer code); "
                                         "a re-render with the same inputs is skipped.")
    trajectory_hash: str = Field(description="sha256 of the rendered poses.")
    video_sha256: str = Field(description="sha256 of video.mp4 rendered together with this file.")
