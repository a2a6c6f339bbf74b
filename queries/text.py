"""Question templates (SPEC section 5 / VSI-Bench for extractive, paper Table 6 for abstractive)
and the small wording helpers they need. The checker parses questions with these same strings.
"""

from __future__ import annotations

from collections import Counter

from assets.vocabulary import display_name, plural  # noqa: F401  (questions and the checker pluralise with it)
from queries.model import Scene, SceneObject

COUNTING = "How many {category}(s) are in the {room}?"
DISTANCE = ("Measuring from the closest point of each object, which of these objects "
            "({objects}) is the closest to the {target}?")  # objects: "a, b, c, d"
DIRECTION_STEM = "If I am standing by the {a} and facing the {b}, "
DIRECTION = {
    "easy": DIRECTION_STEM + "is the {c} to the left or the right of the {b}?",
    "medium": DIRECTION_STEM + ("is the {c} to my left, right, or back? An object is to my back "
                                "if I would have to turn at least 135 degrees in order to face it."),
    "hard": DIRECTION_STEM + ("is the {c} to my front-left, front-right, back-left, or back-right? "
                              "The directions refer to the quadrants of a Cartesian plane (if I am "
                              "standing at the origin and facing along the positive y-axis)."),
}
DIRECTION_OPTIONS = {
    "easy": ("left", "right"),
    "medium": ("left", "right", "back"),
    "hard": ("front-left", "front-right", "back-left", "back-right"),
}
ROUTE = ("You are a robot beginning at the {start} facing the {facing}. You want to navigate to "
         "the {goal}. You will perform the following actions (Note: for each [please fill in], "
         "choose either 'turn back,' 'turn left,' or 'turn right.'): {steps}. "
         "You have reached the final destination.")
ROUTE_FORWARD = "Go forward until the {x}"
ROUTE_FILL = "[please fill in]"
APPEARANCE = "What will be the first-time appearance order of the following categories in the video: {cats}?"

MEMORY_ACTION = ("Based on the objects visible in the {ordinal} room you entered (counting the room "
                 "where the video starts as the first, hallways and stairs not at all), what activity is "
                 "possible in that room?")
MAP_DIRECTION = ("Given that the {a} is {anchor} of the {b}, what is the direction of the {c} "
                 "relative to the {d}?")
MAP_SCALE = ("Given that the Squared Distance between the {a} and the {b} is 1. Based on this scale, "
             "what is the relative Squared Distance between the {c} and the {d}?")
SIMULATION = ("Based on the egocentric video, which of the given statements about the layout "
              "is true?")
SIMULATION_FREE = SIMULATION + " Statements: {statements} Answer with the one true statement."
OPPOSITE = "Which room is located directly opposite to the {room}?"
GLOBAL_COUNTING = "How many {plural} are observed across all rooms in the video?"

STATEMENTS = {
    "adjacent": "The {a} is adjacent to the {b}.",
    "opposite": "The {a} is located directly opposite to the {b}.",
    "corner": "The {a} is located in the corner.",
    "between": "The {a} is located between the {b} and {c}.",
    "one_way": "There is only one way from the {a} to the {b}.",
    "passed": "To get from the {a} to the {b}, you have to pass through {n} {objects}.",
}

COMPASS = ("East", "North", "West", "South")  # 0, 90, 180, 270 degrees from +x

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth")

def ordinal(index: int) -> str:
    """0 -> 'first'."""
    return ORDINALS[index] if index < len(ORDINALS) else f"{index + 1}th"


def object_name(obj: SceneObject, scene: Scene) -> str:
    """The category's display name alone when no other room has one, else 'name in the room'."""
    same = Counter(o.room for o in scene.objects if o.category == obj.category)
    name = display_name(obj.category)
    return name if len(same) == 1 else f"{name} in the {obj.room}"


def activity_text(activity: str) -> str:
    """Option text for an activity, capitalised as in Table 6 ('Cooking')."""
    return activity[:1].upper() + activity[1:]


def number_text(value: float) -> str:
    """1.0 -> '1', 0.5 -> '0.5' (map scale options)."""
    return f"{value:g}"
