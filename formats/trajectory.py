"""trajectory.json: the egocentric walk, one camera pose per frame, and the camera itself.

Written by the walk stage (generator.walk.plan.plan_walk). Version 2 added `camera`
(intrinsics, formats.camera.Camera) and every frame's extrinsics `cam_to_world`.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Union

from pydantic import Field, computed_field, model_validator

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel
from formats.camera import Camera, Matrix3x4, camera_to_world


class Frame(StrictModel):
    """One rendered frame: where the camera is and where it looks."""

    DERIVED: ClassVar[tuple[str, ...]] = ("cam_to_world",)

    frame: int = Field(ge=0, description="Frame number, consecutive from 0.")
    t: float = Field(ge=0, description="Time in seconds: frame / fps.")
    position: tuple[float, float, float] = Field(description="Camera centre [x, y, z] in metres, world frame "
                                                             "(z = floor elevation + camera.eye_height, on stairs the step's).")
    yaw: float = Field(ge=0.0, lt=360.0, description="Viewing direction, degrees counter-clockwise from +x (90 = north), in [0, 360).")
    pitch: float = Field(ge=-90.0, le=90.0, description="Degrees up from the horizon (negative = looking down).")
    room: str | None = Field(description="Label of the room the camera stands in; null in hallways and on stairs.")
    floor: int = Field(ge=0, description="Floor the camera is on (on stairs: the floor it left, until it arrives).")

    @computed_field(description="Extrinsics [R | t], 3 rows of 4: X_world = R @ X_cam + t with OpenCV camera axes "
                                "(x right, y down, z forward); derived from position, yaw and pitch (see camera.convention).")
    @property
    def cam_to_world(self) -> Matrix3x4:
        return camera_to_world(self.position, self.yaw, self.pitch)


class RoomEvent(StrictModel):
    frame: int = Field(ge=0, description="First frame of the new state.")
    type: Literal["enter_room", "leave_room"] = Field(description="The camera's position entered or left a room.")
    room: str = Field(description="Room label.")
    floor: int = Field(ge=0, description="Floor of the room.")


class StairsEvent(StrictModel):
    frame: int = Field(ge=0, description="First frame of the new state.")
    type: Literal["start_stairs", "end_stairs"] = Field(description="The camera stepped onto or off a flight of stairs.")
    floor: int = Field(ge=0, description="start_stairs: the floor left; end_stairs: the floor reached.")


Event = Annotated[Union[RoomEvent, StairsEvent], Field(discriminator="type")]


class Narration(StrictModel):
    frames: tuple[int, int] = Field(description="[first, last] frame of the action, inclusive.")
    text: str = Field(description="An atomic action in words, e.g. `walk forward 2.6 m`, `turn left 90 degrees`, "
                                  "`look at the sofa`, `enter the kitchen`. Turns may overlap walks (turning while "
                                  "walking) but not each other, and each tells the angle the camera's yaw turns by "
                                  "over its frames (rounded to 5 degrees; turns under 10 are not told).")


class Trajectory(FileModel):
    """The walk: one pose per frame at `fps`, room-entry events and a narration."""

    FORMAT: ClassVar[str] = "egoscene.trajectory/2"
    FILENAME: ClassVar[str] = "trajectory.json"

    format: Literal["egoscene.trajectory/2"] = Field(description=TAG_DESCRIPTION)
    fps: int = Field(gt=0, description="Frames per second of the walk and the video.")
    camera: Camera = Field(description="The camera every frame is rendered with (intrinsics, conventions).")
    frames: list[Frame] = Field(description="One pose per frame, frame numbers 0, 1, 2, ...")
    events: list[Event] = Field(description="Room entries and exits and stair flights, in frame order.")
    narration: list[Narration] = Field(description="Atomic actions, sorted by first frame.")
    motion_starts: list[int] = Field(default_factory=list, description=(
        "Frames where one motion of the walk begins (a turn, a pan, a walk, a stop), the camera at rest "
        "just before: the render cuts its frame cache's chunks there, so a walk extended by inserting "
        "motions between them reuses every chunk of the first walk's render."))
    insertions: list[tuple[int, int]] = Field(default_factory=list, description=(
        "[first, end) frame ranges the coverage loop inserted into the first walk: glances and side trips "
        "to objects the first render showed too little of. Door leaves hold still through them, so the "
        "first walk's frames keep their leaves and the render reuses them. Empty for a first walk."))

    @model_validator(mode="after")
    def _consecutive(self):
        for k, f in enumerate(self.frames):
            if f.frame != k:
                raise ValueError(f"frames[{k}].frame is {f.frame}; frames must be numbered 0, 1, 2, ... in order")
        if any(not 0 < k < len(self.frames) for k in self.motion_starts) or self.motion_starts != sorted(set(self.motion_starts)):
            raise ValueError("motion_starts must be increasing frame numbers inside the walk (not 0)")
        ends = [0] + [b for _, b in self.insertions]
        if any(not (end <= a < b <= len(self.frames) and a > 0) for end, (a, b) in zip(ends, self.insertions)):
            raise ValueError("insertions must be ordered, disjoint [first, end) frame ranges inside the walk, "
                             "after frame 0")
        return self
