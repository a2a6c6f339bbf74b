"""Task table and the thresholds behind validity rules 2-4 (SPEC section 5).

The generator and the independent checker (queries/check.py) share these numbers, and only
these: each computes its answers with its own code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# task id -> (category, regime, option count of its MCQ form; None = number answer)
TASKS: dict[str, tuple[str, str, int | None]] = {
    "appearance_order": ("chronology", "extractive", 4),
    "relative_direction": ("direction", "extractive", None),  # 2/3/4 options by level
    "relative_distance": ("distance", "extractive", 4),
    "route_plan": ("planning", "extractive", 4),
    "object_counting": ("counting", "extractive", None),
    "memory_action": ("chronology", "abstractive", 5),
    "map_direction": ("direction", "abstractive", 4),
    "map_scale": ("distance", "abstractive", 5),
    "simulation": ("planning", "abstractive", 5),
    "global_counting": ("counting", "abstractive", None),
}

LETTERS = "ABCDE"

# Rules of SPEC section 5, as reported in rejection counters.
RULES = {
    1: "exactly one true option",
    2: "named things visible",
    3: "margins",
    4: "trajectory constraints",
    5: "balance / no giveaway",
    6: "deterministic",
}


@dataclass(frozen=True)
class Thresholds:
    min_pixels: int | None = None      # None: the min_pixels written in visibility.json
    min_frames: int = 15               # an object is seen in a run of >= this many consecutive frames (0.5 s)
    seen_frame_fraction: float = 0.001 # ... each covering >= this fraction of the frame (docs/ground-truth.md)
    angle_margin_deg: float = 15.0     # direction answers at least this far from a sector boundary
    distance_margin: float = 0.25      # second-nearest >= (1 + margin) * nearest (3-D box distances)
    distance_gap_m: float = 0.30       # ... and at least this much farther in metres
    min_pair_distance_m: float = 0.5   # closer objects give unstable directions
    stand_ring_m: float = 0.5          # relative direction: standpoints this far out from the anchor ...
    stand_step_m: float = 0.1          # ... this far apart along that outline
    appearance_gap_s: float = 2.0      # first appearances this far apart: a viewer may know a thing
                                       # up to 1.5 s after it first shows at the frame edge
    scale_correct_tol: float = 0.10    # true ratio within this of the correct option
    scale_distractor_gap: float = 0.25 # every distractor farther than this from the ratio
    min_reference_d2: float = 1.0      # map scale reference pairs closer than this are unstable
    covisible_min_pixels: int = 1      # rooms with this many pixels in the same frame co-occur
    together_m: float = 1.0            # look-alike instances whose boxes' centres are this close are
                                       # counted only when seen together for min_frames (a viewer who
                                       # sees one, then the other from elsewhere, may take them for one)
    bedside_m: float = 0.4             # a cabinet this near a bed, level with its head half, is a
                                       # bedside cabinet (assets.vocabulary.BEDSIDE_ALIKE)
    grid_cell_m: float = 0.15          # route plan occupancy grid
    clearance_m: float = 0.15          # robot radius kept from walls and furniture
    min_leg_m: float = 0.3             # a route's "go forward" walks at least this long
    stand_by_m: float = 0.45           # "by X" (a route's stops): within this of X's footprint,
    far_stand_by_m: float = 0.8        # ... or this where nothing that near is free
    landmark_max_m: float = 1.0        # "go forward until X": X within this of the turn point
    # Route plan turns: boundaries at 45 deg (straight/side) and 135 deg (side/back, as VSI's
    # "back"), each kept angle_margin_deg away.
    turn_none_deg: float = 30.0        # |turn| at most this: no turn
    turn_side_deg: tuple[float, float] = (60.0, 120.0)  # left/right band
    turn_back_deg: float = 150.0       # at or above: turn back

    def pixels(self, file_min_pixels: int, width: int = 0, height: int = 0) -> int:
        """Pixels that make a frame count towards "seen": 0.1% of the frame (and at least the
        file's own listing threshold) unless overridden."""
        if self.min_pixels is not None:
            return self.min_pixels
        return max(file_min_pixels, math.ceil(self.seen_frame_fraction * width * height))


DEFAULT = Thresholds()
