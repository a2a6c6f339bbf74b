"""The camera: the single source of truth for intrinsics, extrinsics and the visibility rule.

The walk plans what the camera can see with it, the renderer poses Blender's camera with it,
trajectory.json records it (`camera` and every frame's `cam_to_world`), and the visibility
threshold (pixels that make an object "seen" in one frame) is derived from it.

Conventions (also written into trajectory.json as `camera.convention`):

- World frame (docs/formats.md): metres, +x east, +y north, +z up. A pose is a position, a
  yaw (degrees counter-clockwise from +x, 90 = facing north) and a pitch (degrees up from the
  horizon); there is no roll.
- Camera frame (OpenCV): +x right, +y down, +z forward (the viewing direction).
- `cam_to_world` = [R | t] (3 rows of 4): a point X_cam in camera coordinates is at
  X_world = R @ X_cam + t in the world; the columns of R are the camera's right, down and
  forward directions in world coordinates and t is the camera position.
- Pinhole intrinsics with square pixels: u = fx * x / z + cx, v = fy * y / z + cy for a point
  (x, y, z) in camera coordinates, z > 0. Pixel coordinates: u to the right, v down, origin at
  the top-left corner of the image, so pixel (i, j) (column i, row j) covers
  [i, i+1) x [j, j+1) and has its centre at (i + 0.5, j + 0.5); the principal point is the
  image centre (cx, cy) = (width / 2, height / 2).
- The horizontal field of view spans the full image width: fx = (width / 2) / tan(hfov / 2).

Blender (render/scene_builder.py) poses its camera, which looks along its local -Z with
local +Y up, with the XYZ Euler angles (90 deg + pitch, 0, yaw - 90 deg) and sensor fit
HORIZONTAL at `hfov_deg`; `cam_to_world` is exactly that rotation with the Y and Z axes
flipped (Blender camera axes -> OpenCV camera axes).
"""

from __future__ import annotations

import math
from typing import ClassVar, Sequence

from pydantic import Field, computed_field

from formats.base import StrictModel

HFOV_DEG = 70.0         # SPEC section 4: horizontal field of view about 70 deg
EYE_HEIGHT = 1.6        # SPEC section 4: camera at eye height, about 1.6 m above the floor
MIN_PIXELS_REFERENCE = (50, 640, 480)  # 50 px make an object "seen" in a 640x480 frame

CONVENTION = (
    "world: metres, +x east, +y north, +z up; camera (OpenCV): +x right, +y down, +z forward; "
    "cam_to_world = [R | t] (3x4): X_world = R @ X_cam + t, R's columns are the camera's right, down and "
    "forward directions in the world, t its position; pinhole with square pixels: u = fx * x / z + cx, "
    "v = fy * y / z + cy; pixel (i, j) covers [i, i+1) x [j, j+1) from the top-left image corner, "
    "so the image centre (cx, cy) = (width / 2, height / 2); yaw: degrees counter-clockwise from +x "
    "(90 = north), pitch: degrees up from the horizon, no roll"
)

Matrix3x4 = list[list[float]]


class Camera(StrictModel):
    """A pinhole camera with square pixels, its principal point at the image centre, carried
    at `eye_height` above the floor."""

    DERIVED: ClassVar[tuple[str, ...]] = ("fx", "fy", "cx", "cy", "vfov_deg", "convention")

    width: int = Field(gt=0, description="Image width in pixels.")
    height: int = Field(gt=0, description="Image height in pixels.")
    hfov_deg: float = Field(gt=0.0, lt=180.0, description="Horizontal field of view in degrees, across the full image width.")
    eye_height: float = Field(gt=0.0, description="Height of the camera centre above the floor surface the walker stands on, "
                                                   "in metres (on stairs: above the step under the walker).")

    @classmethod
    def standard(cls, width: int = 640, height: int = 480) -> "Camera":
        """The project's camera (SPEC section 4: 70 deg horizontal FOV at 1.6 m) at a frame size."""
        return cls(width=width, height=height, hfov_deg=HFOV_DEG, eye_height=EYE_HEIGHT)

    @computed_field(description="Focal length along u in pixels: (width / 2) / tan(hfov_deg / 2).")
    @property
    def fx(self) -> float:
        return (self.width / 2.0) / math.tan(math.radians(self.hfov_deg) / 2.0)

    @computed_field(description="Focal length along v in pixels; equal to fx (square pixels).")
    @property
    def fy(self) -> float:
        return self.fx

    @computed_field(description="Principal point u in pixels: width / 2 (the image centre; pixel i is centred at i + 0.5).")
    @property
    def cx(self) -> float:
        return self.width / 2.0

    @computed_field(description="Principal point v in pixels: height / 2 (the image centre; pixel row j is centred at j + 0.5).")
    @property
    def cy(self) -> float:
        return self.height / 2.0

    @computed_field(description="Vertical field of view in degrees: 2 * atan((height / 2) / fy).")
    @property
    def vfov_deg(self) -> float:
        return math.degrees(2.0 * math.atan((self.height / 2.0) / self.fy))

    @computed_field(description="The conventions of camera, extrinsics and pixel coordinates, in words.")
    @property
    def convention(self) -> str:
        return CONVENTION

    # ------------------------------------------------------------------ derived rules

    def intrinsics(self) -> list[list[float]]:
        """K, the 3x3 intrinsic matrix."""
        return [[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]]

    def min_pixels(self) -> int:
        """Pixels an object must cover in one frame to count as visible in it: 50 px at 640x480,
        scaled with the frame area (at least 1)."""
        px, w, h = MIN_PIXELS_REFERENCE
        return max(1, round(px * self.width * self.height / (w * h)))

    def project(self, cam_to_world: Sequence[Sequence[float]], point: Sequence[float]) -> tuple[float, float, float]:
        """(u, v, depth) of a world point; depth <= 0 means behind the camera."""
        x, y, z = world_to_camera(cam_to_world, point)
        if z <= 0:
            return (math.nan, math.nan, z)
        return (self.fx * x / z + self.cx, self.fy * y / z + self.cy, z)


def rotation(yaw_deg: float, pitch_deg: float) -> list[list[float]]:
    """R of `cam_to_world`: columns right, down, forward (world coordinates) for a camera looking
    along yaw (deg counter-clockwise from +x) and pitch (deg up), no roll."""
    cy_, sy_ = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    cp, sp = math.cos(math.radians(pitch_deg)), math.sin(math.radians(pitch_deg))
    forward = (cy_ * cp, sy_ * cp, sp)
    right = (sy_, -cy_, 0.0)
    up = (-cy_ * sp, -sy_ * sp, cp)          # right x forward
    down = (-up[0], -up[1], -up[2])
    return [[right[i], down[i], forward[i]] for i in range(3)]


def camera_to_world(position: Sequence[float], yaw_deg: float, pitch_deg: float) -> Matrix3x4:
    """`cam_to_world` [R | t] (3 rows of 4) of a pose: OpenCV camera axes, world frame of
    docs/formats.md."""
    r = rotation(yaw_deg, pitch_deg)
    return [[r[i][0], r[i][1], r[i][2], float(position[i])] for i in range(3)]


def world_to_camera(cam_to_world: Sequence[Sequence[float]], point: Sequence[float]) -> tuple[float, float, float]:
    """Camera coordinates (x right, y down, z forward) of a world point: R^T (X - t)."""
    d = [float(point[i]) - float(cam_to_world[i][3]) for i in range(3)]
    return tuple(sum(cam_to_world[i][k] * d[i] for i in range(3)) for k in range(3))  # type: ignore[return-value]
