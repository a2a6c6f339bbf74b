"""The checker's own definitions (docs/ground-truth.md): thresholds, the task table and the
question wording it reads questions back with.

Written from docs/ground-truth.md, not imported from the query generator (queries/params.py,
text.py, ...): tests/test_queries_check.py fails if any queries/check*.py module imports a
generation module. Where a number here changes, docs/ground-truth.md changes with it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from formats.queries import LETTERS  # noqa: F401  (the record format's option letters)

# task -> (category, regime), docs/ground-truth.md "The ten tasks"
TASKS: dict[str, tuple[str, str]] = {
    "appearance_order": ("chronology", "extractive"),
    "relative_direction": ("direction", "extractive"),
    "relative_distance": ("distance", "extractive"),
    "route_plan": ("planning", "extractive"),
    "object_counting": ("counting", "extractive"),
    "memory_action": ("chronology", "abstractive"),
    "map_direction": ("direction", "abstractive"),
    "map_scale": ("distance", "abstractive"),
    "simulation": ("planning", "abstractive"),
    "global_counting": ("counting", "abstractive"),
}
OPTION_COUNTS = {"appearance_order": {4}, "relative_direction": {2, 3, 4}, "relative_distance": {4},
                 "route_plan": {4}, "memory_action": {5}, "map_direction": {4}, "map_scale": {5},
                 "simulation": {4, 5}}


@dataclass(frozen=True)
class Rules:
    """docs/ground-truth.md, section "Seen" and the per-task margins."""

    seen_frame_fraction: float = 0.001   # an object covers >= 0.1% of the frame ...
    seen_seconds: float = 0.5            # ... in a run of consecutive frames this long
    min_pixels: int | None = None        # override of the per-frame pixels (egoscene check --min-pixels)
    min_frames: int | None = None        # override of the run length in frames (--min-frames)
    appearance_gap_s: float = 2.0        # first appearances of listed categories this far apart
    angle_margin_deg: float = 15.0       # directions this far from a boundary
    min_pair_distance_m: float = 0.5     # relative direction / route objects this far apart (centres)
    stand_ring_m: float = 0.5            # standing by X: anywhere on the outline 0.5 m out from X ...
    stand_step_m: float = 0.1            # ... sampled every 0.1 m (and X's centre)
    distance_ratio: float = 0.25         # second-nearest >= (1 + ratio) * nearest (3-D) ...
    distance_gap_m: float = 0.30         # ... and this much farther
    scale_correct_tol: float = 0.10      # map scale: the answer within 10% of the true ratio
    scale_distractor_gap: float = 0.25   # every distractor more than 25% away from it
    opposite_overlap_m: float = 0.5      # rooms face across one hallway over at least this
    clearance_m: float = 0.15            # route plan: walking keeps this from walls and furniture
    stand_by_m: float = 0.45             # "by X": within this of X's footprint
    turn_none_deg: float = 30.0          # route turns: |turn| <= 30 is no turn,
    turn_side: tuple[float, float] = (60.0, 120.0)   # 60..120 left/right,
    turn_back_deg: float = 150.0         # >= 150 turn back; anything else is unclear
    front_deg: float = 70.0              # a thing named from its front: the camera this close to its facing ...
    narrow_front_deg: float = 45.0       # ... or this close, named only from nearly in front (glasses)
    shown_share: float = 0.15            # a counted instance shows >= 15% of its whole box projection ...
    shown_near_m: float = 0.05           # ... (a box reaching this close to or behind the camera fills the view)
    bedside_m: float = 0.4               # a cabinet this near a bed, beside its head, is a nightstand to a viewer
    together_m: float = 1.0              # counted look-alikes this close (box centres) are seen in one frame for 0.5 s
    by_m: float = 0.5                    # "the chair by the window": boxes this close (3-D) ...
    by_margin_m: float = 1.0             # ... every other chair in the room this much farther
    flat_m: float = 0.05                 # things lower than this are walked on (no neighbour)
    no_neighbour_supports: tuple[str, ...] = ("ceiling",)   # a ceiling light names nothing

    def pixels(self, width: int, height: int, file_min: int) -> int:
        if self.min_pixels is not None:
            return self.min_pixels
        return max(file_min, math.ceil(self.seen_frame_fraction * width * height))

    def run_frames(self, fps: float) -> int:
        if self.min_frames is not None:
            return self.min_frames
        return max(1, math.ceil(self.seen_seconds * fps - 1e-9))


DEFAULT = Rules()

# ----------------------------------------------------------------------------- question wording
COUNTING = "How many {category}(s) are in the {room}?"
GLOBAL_COUNTING = "How many {plural} are observed across all rooms in the video?"
APPEARANCE = "What will be the first-time appearance order of the following categories in the video: {cats}?"
DISTANCE = ("Measuring from the closest point of each object, which of these objects "
            "({objects}) is the closest to the {target}?")
DIRECTION_STEM = "If I am standing by the {a} and facing the {b}, "
DIRECTION = {
    "easy": DIRECTION_STEM + "is the {c} to the left or the right of the {b}?",
    "medium": DIRECTION_STEM + ("is the {c} to my left, right, or back? An object is to my back "
                                "if I would have to turn at least 135 degrees in order to face it."),
    "hard": DIRECTION_STEM + ("is the {c} to my front-left, front-right, back-left, or back-right? "
                              "The directions refer to the quadrants of a Cartesian plane (if I am "
                              "standing at the origin and facing along the positive y-axis)."),
}
ROUTE = ("You are a robot beginning at the {start} facing the {facing}. You want to navigate to "
         "the {goal}. You will perform the following actions (Note: for each [please fill in], "
         "choose either 'turn back,' 'turn left,' or 'turn right.'): {steps}. "
         "You have reached the final destination.")
ROUTE_FORWARD = "Go forward until the {x}"
ROUTE_FILL = "[please fill in]"
MEMORY_ACTION = ("Based on the objects visible in the {ordinal} room you entered (counting the room "
                 "where the video starts as the first, hallways and stairs not at all), what activity is "
                 "possible in that room?")
MAP_DIRECTION = ("Given that the {a} is {anchor} of the {b}, what is the direction of the {c} "
                 "relative to the {d}?")
MAP_SCALE = ("Given that the Squared Distance between the {a} and the {b} is 1. Based on this scale, "
             "what is the relative Squared Distance between the {c} and the {d}?")
SIMULATION = ("Based on the egocentric video, which of the given statements about the layout "
              "is true?")
OPPOSITE = "Which room is located directly opposite to the {room}?"
STATEMENTS = {
    "adjacent": "The {a} is adjacent to the {b}.",
    "opposite": "The {a} is located directly opposite to the {b}.",
    "corner": "The {a} is located in the corner.",
    "between": "The {a} is located between the {b} and {c}.",
    "one_way": "There is only one way from the {a} to the {b}.",
    "passed": "To get from the {a} to the {b}, you have to pass through {n} {objects}.",
}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth")


def ordinal_index(word: str) -> int | None:
    """'first' -> 0, '16th' -> 15."""
    if word in ORDINALS:
        return ORDINALS.index(word)
    m = re.fullmatch(r"(\d+)th", word)
    return int(m[1]) - 1 if m else None


def pattern(template: str) -> re.Pattern:
    """A regex matching a filled template; each {slot} becomes a named group."""
    parts = re.split(r"\{(\w+)\}", template)
    out, seen = "", set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out += re.escape(part)
        elif part in seen:
            out += f"(?P={part})"
        else:
            seen.add(part)
            out += f"(?P<{part}>.+?)"
    return re.compile(f"^{out}$")
