"""Room shell materials (floors, walls, ceilings, trims, stairs) per room type; pure data.

The renderer builds the shell geometry from scene.json and asks `shell_style(room_type)` for
its materials. Wall colours differ by room type so rooms are distinguishable in the video;
floors follow use: wood in bedrooms/living spaces, tiles in kitchens/bathrooms, carpet in
offices. `floor_pattern` tells the renderer which procedural pattern (if any) to draw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from assets.materials import Material, make_material


@dataclass(frozen=True)
class ShellStyle:
    room_kind: str
    floor: Material
    wall: Material
    ceiling: Material
    baseboard: Material
    door_frame: Material
    floor_pattern: str          # planks | tiles | carpet | concrete
    pattern_size: float         # plank width / tile edge in metres (0 for carpet/concrete)
    pattern_color: tuple[float, float, float]   # grout / plank-joint colour (sRGB)


_WOOD = {"oak": (0.66, 0.47, 0.28), "light oak": (0.78, 0.62, 0.42), "walnut": (0.42, 0.27, 0.16),
         "pine": (0.84, 0.7, 0.48), "grey oak": (0.58, 0.52, 0.45)}
_TILE = {"white": (0.9, 0.9, 0.88), "grey": (0.62, 0.63, 0.64), "beige": (0.82, 0.76, 0.64),
         "slate": (0.35, 0.37, 0.4), "terracotta": (0.72, 0.42, 0.28)}
_CARPET = {"blue grey": (0.38, 0.42, 0.5), "charcoal": (0.28, 0.28, 0.3), "green grey": (0.4, 0.46, 0.42),
           "taupe": (0.55, 0.5, 0.45)}

# room kind -> (floor kind, floor colour options, wall colour (sRGB), pattern)
_ROOM_STYLES: dict[str, tuple[str, tuple[str, ...], tuple[float, float, float]]] = {
    "kitchen": ("tile", ("white", "grey", "terracotta", "beige"), (0.96, 0.9, 0.7)),       # butter yellow
    "bathroom": ("tile", ("white", "grey", "slate"), (0.72, 0.86, 0.9)),                     # pale aqua
    "toilet": ("tile", ("white", "grey"), (0.78, 0.9, 0.86)),                                # mint
    "bedroom": ("wood", ("oak", "light oak", "walnut"), (0.8, 0.76, 0.88)),                  # lavender
    "kids room": ("wood", ("light oak", "pine"), (0.95, 0.8, 0.78)),                         # peach
    "living room": ("wood", ("oak", "walnut", "grey oak"), (0.93, 0.86, 0.74)),              # warm beige
    "dining room": ("wood", ("walnut", "oak"), (0.9, 0.76, 0.66)),                           # terracotta blush
    "dressroom": ("wood", ("light oak", "oak"), (0.9, 0.82, 0.88)),                          # rose
    "office": ("carpet", ("blue grey", "charcoal", "taupe"), (0.86, 0.88, 0.9)),             # cool grey
    "meeting room": ("carpet", ("charcoal", "blue grey"), (0.78, 0.84, 0.92)),               # pale blue
    "study": ("wood", ("walnut", "oak"), (0.78, 0.86, 0.74)),                                # sage
    "library": ("wood", ("walnut",), (0.74, 0.8, 0.7)),                                      # deeper sage
    "gym": ("concrete", ("grey",), (0.8, 0.84, 0.86)),                                       # concrete blue-grey
    "laundry": ("tile", ("white", "grey"), (0.8, 0.9, 0.95)),                                # ice blue
    "storage": ("concrete", ("grey",), (0.85, 0.84, 0.8)),
    "garage": ("concrete", ("grey",), (0.78, 0.78, 0.76)),
    "hallway": ("wood", ("oak", "grey oak"), (0.94, 0.93, 0.9)),                             # off-white
    "stairs": ("wood", ("oak",), (0.94, 0.93, 0.9)),
    "lobby": ("tile", ("beige", "grey"), (0.92, 0.9, 0.84)),
    "balcony": ("tile", ("terracotta", "grey"), (0.9, 0.88, 0.84)),
    "room": ("wood", ("oak",), (0.9, 0.9, 0.88)),                                            # fallback
}

# what people call rooms -> room kind
_ROOM_ALIASES = {
    "living": "living room", "lounge": "living room", "livingroom": "living room", "family room": "living room",
    "sitting room": "living room", "tv room": "living room",
    "bed room": "bedroom", "master bedroom": "bedroom", "guest room": "bedroom", "guest bedroom": "bedroom",
    "kids bedroom": "kids room", "nursery": "kids room", "children room": "kids room", "child room": "kids room",
    "bath": "bathroom", "bath room": "bathroom", "shower room": "bathroom", "restroom": "toilet", "wc": "toilet",
    "powder room": "toilet", "lavatory": "toilet",
    "dining": "dining room", "diningroom": "dining room",
    "dressing room": "dressroom", "dress room": "dressroom", "walk in closet": "dressroom", "closet": "dressroom",
    "wardrobe room": "dressroom",
    "workroom": "office", "work room": "office", "home office": "office", "cubicle": "office",
    "conference room": "meeting room", "boardroom": "meeting room",
    "study room": "study", "den": "study", "reading room": "library",
    "fitness room": "gym", "exercise room": "gym", "home gym": "gym",
    "laundry room": "laundry", "utility room": "laundry", "utility": "laundry",
    "storeroom": "storage", "store room": "storage", "pantry": "storage", "storage room": "storage",
    "hall": "hallway", "corridor": "hallway", "entrance": "hallway", "entry": "hallway", "foyer": "hallway",
    "entrance hall": "hallway", "staircase": "stairs", "stair": "stairs",
    "reception": "lobby", "lobby area": "lobby", "terrace": "balcony", "patio": "balcony",
    "kitchenette": "kitchen", "pantry kitchen": "kitchen", "break room": "kitchen",
}

# Objects a person expects in each room kind (for random specs and sanity checks).
ROOM_OBJECTS: dict[str, tuple[str, ...]] = {
    "kitchen": ("fridge", "stove", "oven", "sink", "microwave", "dishwasher", "cabinet", "cupboard", "pot",
                "cup", "plate", "bowl", "coffee machine", "table", "chair", "fruit", "apple", "tumbler", "wine"),
    "bathroom": ("toilet", "bath", "washstand", "mirror", "towel", "washing machine", "cabinet", "plant"),
    "toilet": ("toilet", "washstand", "mirror", "towel"),
    "bedroom": ("bed", "pillow", "wardrobe", "stand", "lamp", "mirror", "curtain", "carpet", "clothes", "book",
                "desk", "chair", "picture", "air conditioner"),
    "kids room": ("bed", "pillow", "desk", "chair", "book", "bookshelf", "lamp", "carpet", "wardrobe"),
    "living room": ("sofa", "tv", "stand", "table", "carpet", "plant", "picture", "floor lamp", "fireplace",
                    "bookshelf", "curtain", "vase", "piano", "pillow", "air conditioner"),
    "dining room": ("table", "chair", "plate", "bowl", "cup", "wine", "tumbler", "cupboard", "vase", "picture"),
    "dressroom": ("wardrobe", "mirror", "clothes", "handbag", "cabinet", "bench"),
    "office": ("desk", "chair", "computer", "laptop", "mouse", "printer", "print", "telephone", "locker",
               "cabinet", "bookshelf", "plant", "cup", "safe", "headphone", "eyeglasses"),
    "meeting room": ("table", "chair", "tv", "telephone", "laptop", "plant", "print"),
    "study": ("desk", "chair", "computer", "lamp", "book", "bookshelf", "eyeglasses", "headphone"),
    "library": ("bookshelf", "book", "table", "chair", "lamp", "floor lamp"),
    "gym": ("cycle", "exercise machine", "yoga mat", "locker", "bench", "towel", "tv"),
    "laundry": ("washing machine", "sink", "cabinet", "clothes", "towel"),
    "storage": ("cabinet", "cupboard", "locker", "safe", "bookshelf"),
    "lobby": ("sofa", "table", "plant", "vending machine", "picture", "bench"),
    "hallway": ("bench", "picture", "plant", "mirror", "cabinet"),
}


# What tells a viewer a room's kind (docs/ground-truth.md "Rooms a viewer can tell"): questions
# name rooms by label, and a person watching the video tells the kitchen by its fridge or stove,
# not by the colour of its walls. Kinds not listed (a "piano room", a hallway) are told by
# anything in them.
ROOM_SIGNS: dict[str, tuple[str, ...]] = {
    "kitchen": ("fridge", "stove", "oven", "sink", "microwave", "dishwasher", "coffee machine"),
    "bathroom": ("toilet", "bath", "washstand"),
    "toilet": ("toilet", "washstand"),
    "bedroom": ("bed", "wardrobe"),
    "kids room": ("bed",),
    "living room": ("sofa", "tv", "fireplace", "piano"),
    "dining room": ("table",),
    "dressroom": ("wardrobe", "clothes", "handbag"),
    "office": ("desk", "computer", "laptop", "printer", "locker"),
    "meeting room": ("table",),
    "study": ("desk", "computer", "bookshelf"),
    "library": ("bookshelf",),
    "gym": ("cycle", "exercise machine", "yoga mat"),
    "laundry": ("washing machine",),
    "storage": ("cabinet", "cupboard", "locker", "safe", "bookshelf"),
    "lobby": ("sofa", "bench", "desk"),
}


def numbered(label: str) -> tuple[str, int] | None:
    """("bedroom", 2) for "bedroom 2"; None for a label without a number at its end. Rooms named
    alike are numbered as the walk enters them (docs/ground-truth.md "Rooms a viewer can tell")."""
    m = re.match(r"^(.*\D)\s*(\d+)$", label)
    return (m[1].strip(), int(m[2])) if m else None


def room_signs(room_type: str) -> tuple[str, ...] | None:
    """The categories that tell a viewer this room's kind; None: anything in it does."""
    return ROOM_SIGNS.get(room_kind(room_type))


def room_kind(room_type: str) -> str:
    """Canonical room kind for a room type or label ('Bedroom 2' -> 'bedroom')."""
    key = " ".join(re.sub(r"[_\-]+", " ", str(room_type).lower()).split())
    key = re.sub(r"\s*\d+$", "", key)           # trailing number: 'bedroom 2'
    key = _ROOM_ALIASES.get(key, key)
    if key in _ROOM_STYLES:
        return key
    for kind in sorted(_ROOM_STYLES, key=len, reverse=True):   # 'small kitchen' -> kitchen
        if kind != "room" and kind in key:
            return kind
    for alias in sorted(_ROOM_ALIASES, key=len, reverse=True):
        if alias in key:
            return _ROOM_ALIASES[alias]
    return "room"


def shell_style(room_type: str, variant: int = 0) -> ShellStyle:
    """Materials of a room's shell. `variant` picks among the floor options of the kind
    (pass e.g. the room's index, so two bedrooms can differ) - no randomness inside."""
    kind = room_kind(room_type)
    floor_kind, options, wall_rgb = _ROOM_STYLES[kind]
    option = options[variant % len(options)]
    if floor_kind == "wood":
        floor = make_material("wood", _WOOD[option], roughness=0.45)
        pattern, size, joint = "planks", 0.18, tuple(c * 0.75 for c in _WOOD[option])
    elif floor_kind == "tile":
        floor = make_material("tile", _TILE[option])
        pattern, size, joint = "tiles", 0.3 if kind != "bathroom" else 0.2, (0.55, 0.55, 0.53)
    elif floor_kind == "carpet":
        floor = make_material("carpet", _CARPET[option])
        pattern, size, joint = "carpet", 0.0, _CARPET[option]
    else:
        floor = make_material("concrete", (0.6, 0.6, 0.6))
        pattern, size, joint = "concrete", 0.0, (0.6, 0.6, 0.6)
    wall_kind = "tile" if kind in ("bathroom", "toilet") else "plaster"
    return ShellStyle(
        room_kind=kind,
        floor=floor,
        wall=make_material(wall_kind, wall_rgb),
        ceiling=make_material("plaster", (0.96, 0.96, 0.95)),
        baseboard=make_material("wood", (0.95, 0.95, 0.93), roughness=0.4),
        door_frame=make_material("wood", (0.95, 0.95, 0.93), roughness=0.4),
        floor_pattern=pattern,
        pattern_size=size,
        pattern_color=joint,  # type: ignore[arg-type]
    )


def hallway_style(variant: int = 0) -> ShellStyle:
    return shell_style("hallway", variant)


def stairs_material() -> Material:
    return make_material("wood", _WOOD["oak"], roughness=0.4)


def exterior_wall_material() -> Material:
    """Outside face of exterior walls (seen through windows and doors to 'outside')."""
    return make_material("plaster", (0.85, 0.82, 0.76))


def wall_colors_distinct(kinds: list[str], min_distance: float = 0.05) -> bool:
    """True if the wall colours of these room kinds differ pairwise by at least
    `min_distance` (Euclidean, sRGB) - used by tests to keep rooms distinguishable."""
    cols = [np.array(_ROOM_STYLES[room_kind(k)][2]) for k in kinds]
    return all(np.linalg.norm(a - b) >= min_distance for i, a in enumerate(cols) for b in cols[i + 1:])


ROOM_KINDS: tuple[str, ...] = tuple(_ROOM_STYLES)
