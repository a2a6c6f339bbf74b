"""Object categories: names, aliases, sizes, placement rules, colours and affordances.

Pure data plus lookup helpers; no bpy and no mesh code (that is in `assets.models`), so the
validator, placement and the query engine can import it cheaply.

Conventions: sizes are (w, d, h) in metres of the object's axis-aligned bounds in its own
frame (x = width, y = depth, +y = the side the object faces, z up, origin at the footprint
centre on the floor). Colours are sRGB in [0, 1].
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

import numpy as np

from assets.vocabulary import singular

# The activity ontology of the Memory-Action task (lower-case, as shown in options).
ACTIVITIES: tuple[str, ...] = (
    "cooking",
    "dining",
    "eating",
    "drinking",
    "sleeping",
    "working",
    "studying",
    "reading",
    "bathing",
    "washing",
    "using the toilet",
    "doing laundry",
    "dressing",
    "exercising",
    "relaxing",
    "watching tv",
    "playing music",
    "listening to music",
    "making calls",
    "printing",
    "storing",
)

# How an object is placed (see docs/formats.md `support`):
#   floor_wall    on the floor, back (-y) against a wall
#   floor_corner  on the floor, in a room corner
#   floor_free    on the floor, free-standing (may be grouped, e.g. chair around table)
#   on_support    on top of another object (see Category.supports)
#   wall_mounted  hung on a wall, bottom at Category.mount_height
#   in_window     fills a window opening (window only)
#   in_doorway    fills a door opening (door only)
#   ceiling       hangs from the ceiling, top at the ceiling
PLACEMENTS: tuple[str, ...] = (
    "floor_wall",
    "floor_corner",
    "floor_free",
    "on_support",
    "wall_mounted",
    "in_window",
    "in_doorway",
    "ceiling",
)

# How a grouped object relates to its group anchor (Category.group_with).
GROUP_MODES: tuple[str, ...] = ("around", "next_to", "on", "over", "facing")

# Named colours (sRGB). Spec `color:` values and Category.colors use these names.
COLORS: dict[str, tuple[float, float, float]] = {
    "red": (0.80, 0.10, 0.10),
    "dark red": (0.50, 0.06, 0.08),
    "orange": (0.95, 0.50, 0.10),
    "yellow": (0.95, 0.82, 0.15),
    "green": (0.18, 0.60, 0.22),
    "dark green": (0.08, 0.30, 0.12),
    "lime": (0.60, 0.85, 0.25),
    "teal": (0.10, 0.55, 0.55),
    "blue": (0.15, 0.35, 0.80),
    "light blue": (0.55, 0.75, 0.92),
    "navy": (0.08, 0.12, 0.35),
    "purple": (0.50, 0.22, 0.65),
    "pink": (0.95, 0.55, 0.70),
    "brown": (0.45, 0.28, 0.15),
    "dark brown": (0.26, 0.15, 0.08),
    "tan": (0.78, 0.62, 0.42),
    "beige": (0.88, 0.82, 0.68),
    "cream": (0.95, 0.92, 0.82),
    "white": (0.93, 0.93, 0.91),
    "light grey": (0.75, 0.75, 0.75),
    "grey": (0.50, 0.50, 0.50),
    "dark grey": (0.25, 0.25, 0.27),
    "black": (0.06, 0.06, 0.07),
    "silver": (0.78, 0.79, 0.80),
    "gold": (0.85, 0.68, 0.25),
    "terracotta": (0.76, 0.38, 0.22),
    "oak": (0.74, 0.55, 0.33),
    "walnut": (0.42, 0.27, 0.16),
    "pine": (0.86, 0.72, 0.50),
    "mahogany": (0.45, 0.16, 0.10),
}
_COLOR_ALIASES = {"gray": "grey", "light gray": "light grey", "dark gray": "dark grey",
                  "maroon": "dark red", "violet": "purple", "olive": "dark green",
                  "cyan": "teal", "wooden": "oak", "wood": "oak"}


def color_rgb(name: str) -> tuple[float, float, float] | None:
    """sRGB of a colour name (or '#rrggbb'); None if unknown."""
    key = " ".join(str(name).lower().replace("_", " ").replace("-", " ").split())
    key = _COLOR_ALIASES.get(key, key)
    if key in COLORS:
        return COLORS[key]
    if re.fullmatch(r"#[0-9a-f]{6}", key):
        return tuple(int(key[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    return None


def normalize_color(name: str) -> str | None:
    """Canonical colour name ('Gray' -> 'grey'), the hex string itself, or None."""
    key = " ".join(str(name).lower().replace("_", " ").replace("-", " ").split())
    key = _COLOR_ALIASES.get(key, key)
    return key if color_rgb(key) is not None else None


Size = tuple[float, float, float]


@dataclass(frozen=True)
class Category:
    name: str
    size_min: Size                      # (w, d, h) metres
    size_max: Size
    placement: str                      # one of PLACEMENTS
    material: str                       # main material (wood, fabric, metal, ...)
    colors: tuple[str, ...]             # colour variants of the main part (COLORS names)
    affordances: tuple[str, ...]        # activities (ACTIVITIES) the object affords
    aliases: tuple[str, ...] = ()
    materials: tuple[str, ...] = ()     # every material the model uses
    supports: tuple[str, ...] = ()      # categories it may stand on (on_support)
    support_levels: tuple[float, ...] = ()  # heights (fractions of h) others can stand on
    group_with: tuple[str, ...] = ()    # anchor categories it is placed relative to
    group_mode: str | None = None       # one of GROUP_MODES
    faces: tuple[str, ...] = ()         # categories its front (+y) should face
    mount_height: float | None = None   # wall_mounted: z of the bottom edge
    fallback_placement: str | None = None  # used when no support/anchor is available
    round: bool = False                 # circular footprint: w == d
    front_clearance: float = 0.0        # free floor needed in front (+y) to use it

    @property
    def can_support(self) -> bool:
        return bool(self.support_levels)

    @property
    def top_height_fraction(self) -> float | None:
        """Highest support level as a fraction of h (None if nothing can stand on it)."""
        return max(self.support_levels) if self.support_levels else None


# Supports for small things people put down.
_TABLETOP = ("table", "desk", "cabinet", "stand")
_SHELF = _TABLETOP + ("bookshelf",)


def _c(name: str, size_min: Size, size_max: Size, placement: str, material: str,
       colors: tuple[str, ...], affordances: tuple[str, ...], **kw) -> Category:
    return Category(name, size_min, size_max, placement, material, colors, affordances, **kw)


_CATEGORY_LIST: tuple[Category, ...] = (
    _c("air conditioner", (0.80, 0.20, 0.28), (1.00, 0.28, 0.34), "wall_mounted", "plastic",
       ("white", "cream"), (), aliases=("ac", "a/c", "air con", "aircon", "air conditioning",
                                         "air conditioning unit"),
       materials=("plastic",), mount_height=2.0),
    _c("apple", (0.07, 0.07, 0.075), (0.09, 0.09, 0.095), "on_support", "food",
       ("red", "dark red", "green"), ("eating",), supports=_TABLETOP, round=True,
       materials=("food", "wood", "leaves")),
    _c("bath", (1.50, 0.70, 0.50), (1.80, 0.80, 0.62), "floor_wall", "ceramic",
       ("white", "cream"), ("bathing",),
       aliases=("bathtub", "bath tub", "tub", "bathing tub"), materials=("ceramic", "metal"),
       front_clearance=0.6),
    _c("bed", (0.95, 1.95, 0.85), (1.80, 2.15, 1.15), "floor_wall", "fabric",
       ("white", "light blue", "beige", "grey", "navy", "pink"), ("sleeping", "relaxing"),
       aliases=("double bed", "single bed", "twin bed", "queen bed", "king bed", "bunk", "mattress"),
       materials=("wood", "fabric"), support_levels=(0.5,), front_clearance=0.6),
    _c("bench", (1.00, 0.35, 0.42), (1.60, 0.45, 0.48), "floor_wall", "wood",
       ("oak", "walnut", "pine", "dark brown"), ("relaxing",),
       aliases=("park bench", "wooden bench", "seat bench"), materials=("wood", "metal"),
       support_levels=(1.0,), fallback_placement="floor_free", front_clearance=0.5),
    _c("book", (0.14, 0.20, 0.02), (0.19, 0.26, 0.05), "on_support", "paper",
       ("red", "blue", "green", "navy", "dark red", "orange", "purple", "teal"),
       ("reading", "studying"), aliases=("novel", "notebook", "textbook", "hardcover"),
       supports=_SHELF + ("bed", "sofa"), materials=("paper",)),
    _c("bookshelf", (0.75, 0.28, 1.70), (1.00, 0.36, 2.00), "floor_wall", "wood",
       ("oak", "walnut", "white", "pine", "dark brown"), ("reading", "storing"),
       aliases=("bookcase", "book shelf", "book case", "shelf", "shelving", "shelving unit",
                "bookshelves"),
       materials=("wood",), support_levels=(0.04, 0.24, 0.44, 0.64, 0.84, 1.0),
       front_clearance=0.6),
    _c("bowl", (0.14, 0.14, 0.06), (0.20, 0.20, 0.09), "on_support", "ceramic",
       ("white", "blue", "teal", "red", "yellow", "cream"), ("dining", "eating"),
       aliases=("dish", "salad bowl", "soup bowl", "cereal bowl"), supports=_TABLETOP,
       round=True, materials=("ceramic",)),
    _c("bulb", (0.07, 0.07, 0.35), (0.12, 0.12, 0.60), "ceiling", "glass",
       ("cream", "white", "yellow"), (),
       aliases=("light bulb", "lightbulb", "pendant light", "ceiling light", "light"),
       round=True, materials=("glass", "plastic")),
    _c("cabinet", (0.80, 0.40, 0.75), (1.20, 0.50, 0.95), "floor_wall", "wood",
       ("white", "oak", "walnut", "grey", "cream"), ("storing",),
       aliases=("sideboard", "dresser", "chest of drawers", "drawer", "drawers", "counter",
                "kitchen counter", "countertop", "credenza", "filing cabinet"),
       materials=("wood", "metal"), support_levels=(1.0,), front_clearance=0.6),
    _c("carpet", (1.40, 1.00, 0.008), (3.00, 2.20, 0.02), "floor_free", "carpet",
       ("red", "beige", "navy", "grey", "teal", "dark red"), (),
       aliases=("rug", "area rug", "mat", "floor mat"), materials=("carpet",)),
    _c("chair", (0.42, 0.45, 0.80), (0.52, 0.56, 1.00), "floor_free", "wood",
       ("oak", "walnut", "black", "white", "red", "blue", "grey"), (),
       aliases=("dining chair", "office chair", "desk chair", "seat", "stool"),
       materials=("wood", "fabric", "metal"), support_levels=(0.5,),
       group_with=("table", "desk"), group_mode="around", faces=("table", "desk"),
       front_clearance=0.3),
    _c("clothes", (0.62, 0.42, 0.08), (0.75, 0.52, 0.14), "on_support", "fabric",
       ("red", "blue", "white", "grey", "green", "yellow", "black"), ("dressing",),
       aliases=("cloth", "clothing", "shirt", "t-shirt", "tshirt", "shirts", "laundry",
                "garment", "garments", "outfit"),
       supports=("bed", "sofa", "chair", "table", "cabinet", "bench"),
       materials=("fabric",)),
    _c("coffee machine", (0.22, 0.30, 0.30), (0.30, 0.40, 0.40), "on_support", "metal",
       ("black", "silver", "red", "white"), ("drinking",),
       aliases=("coffee maker", "espresso machine", "coffeemaker", "coffee", "espresso maker"),
       supports=("cabinet", "table", "stand", "sink"), materials=("metal", "plastic", "glass")),
    _c("computer", (0.50, 0.35, 0.40), (0.70, 0.45, 0.55), "on_support", "plastic",
       ("black", "dark grey", "silver", "white"), ("working", "studying"),
       aliases=("pc", "desktop", "desktop computer", "monitor", "computer monitor", "screen",
                "display", "imac", "workstation"),
       supports=("desk", "table"), materials=("plastic", "screen", "metal")),
    _c("cup", (0.10, 0.08, 0.08), (0.13, 0.095, 0.11), "on_support", "ceramic",
       ("red", "yellow", "blue", "white", "green", "orange"), ("drinking",),
       aliases=("mug", "coffee cup", "tea cup", "teacup", "coffee mug"), supports=_SHELF,
       materials=("ceramic",)),
    _c("cupboard", (0.80, 0.40, 1.80), (1.00, 0.50, 2.05), "floor_wall", "wood",
       ("white", "oak", "cream", "walnut", "light blue"), ("storing",),
       aliases=("hutch", "china cabinet", "pantry", "kitchen cupboard", "display cabinet"),
       materials=("wood", "glass", "metal"), support_levels=(0.47,), front_clearance=0.6),
    _c("curtain", (1.40, 0.08, 2.20), (2.40, 0.15, 2.50), "wall_mounted", "fabric",
       ("beige", "cream", "navy", "dark red", "light blue", "grey", "green"), (),
       aliases=("curtains", "drape", "drapes", "drapery", "blind", "blinds"),
       group_with=("window",), group_mode="over", mount_height=0.02,
       materials=("fabric", "metal")),
    _c("cycle", (0.50, 1.00, 1.10), (0.60, 1.20, 1.30), "floor_free", "metal",
       ("black", "red", "dark grey", "silver", "blue"), ("exercising",),
       aliases=("exercise bike", "exercise bicycle", "stationary bike", "stationary bicycle",
                "spin bike", "bike", "bicycle", "exercise cycle"),
       materials=("metal", "plastic", "rubber"), front_clearance=0.5),
    _c("desk", (1.00, 0.60, 0.72), (1.60, 0.80, 0.77), "floor_wall", "wood",
       ("oak", "walnut", "white", "black", "pine"), ("working", "studying"),
       aliases=("office desk", "writing desk", "computer desk", "work desk", "study desk"),
       materials=("wood", "metal"), support_levels=(1.0,), front_clearance=0.8),
    _c("dishwasher", (0.58, 0.58, 0.82), (0.62, 0.64, 0.88), "floor_wall", "metal",
       ("silver", "white", "black"), ("washing",),
       aliases=("dish washer", "dishwashing machine"), materials=("metal", "plastic"),
       support_levels=(1.0,), front_clearance=0.7),
    _c("door", (0.80, 0.10, 2.00), (1.00, 0.16, 2.20), "in_doorway", "wood",
       ("white", "oak", "walnut", "grey", "cream"), (),
       aliases=("doorway", "wooden door", "entrance", "front door"),
       materials=("wood", "metal")),
    _c("exercise machine", (0.70, 1.60, 1.30), (0.90, 2.00, 1.50), "floor_free", "metal",
       ("black", "dark grey", "silver"), ("exercising",),
       aliases=("treadmill", "running machine", "elliptical", "cross trainer",
                "exercise equipment", "fitness machine", "gym machine", "rowing machine"),
       materials=("metal", "rubber", "plastic"), front_clearance=0.5),
    _c("eyeglasses", (0.13, 0.13, 0.035), (0.15, 0.15, 0.045), "on_support", "plastic",
       ("black", "red", "blue", "purple"), ("reading",),
       aliases=("glasses", "eyeglass", "spectacles", "reading glasses", "sunglasses",
                "eye glasses", "specs"),
       supports=_TABLETOP + ("bed", "bookshelf"), materials=("plastic", "glass")),
    _c("fireplace", (1.20, 0.35, 1.00), (1.60, 0.50, 1.20), "floor_wall", "stone",
       ("white", "cream", "grey", "terracotta", "dark red"), ("relaxing",),
       aliases=("fire place", "hearth", "fireside", "wood stove", "chimney"),
       materials=("stone", "metal", "wood", "fire"), support_levels=(1.0,),
       front_clearance=0.8),
    _c("floor lamp", (0.30, 0.30, 1.50), (0.45, 0.45, 1.80), "floor_corner", "metal",
       ("black", "silver", "gold", "white"), ("reading",),
       aliases=("standing lamp", "standard lamp", "floorlamp", "torchiere"),
       round=True, materials=("metal", "fabric")),
    _c("fridge", (0.60, 0.62, 1.70), (0.90, 0.75, 1.90), "floor_wall", "metal",
       ("white", "silver", "black", "cream"), ("cooking", "storing"),
       aliases=("refrigerator", "freezer", "fridge freezer", "refridgerator"),
       materials=("metal", "plastic"), front_clearance=0.8),
    _c("fruit", (0.22, 0.16, 0.07), (0.30, 0.22, 0.09), "on_support", "food",
       ("yellow",), ("eating",),
       aliases=("banana", "bananas", "orange", "oranges", "fruit bowl", "fruits", "pear",
                "grapes"),
       supports=_TABLETOP, materials=("food",)),
    _c("handbag", (0.28, 0.12, 0.28), (0.38, 0.17, 0.38), "on_support", "leather",
       ("black", "dark brown", "tan", "red", "beige", "navy"), (),
       aliases=("bag", "purse", "hand bag", "tote", "tote bag", "shoulder bag"),
       supports=("table", "chair", "sofa", "bed", "cabinet", "bench", "stand"),
       materials=("leather", "metal"), fallback_placement="floor_wall"),
    _c("headphone", (0.17, 0.08, 0.18), (0.20, 0.10, 0.21), "on_support", "plastic",
       ("black", "white", "red", "blue", "silver"), ("listening to music",),
       aliases=("headphones", "headset", "earphone", "earphones", "headphone set"),
       supports=_TABLETOP, materials=("plastic", "fabric", "metal")),
    _c("lamp", (0.20, 0.20, 0.35), (0.35, 0.35, 0.60), "on_support", "fabric",
       ("cream", "white", "beige", "light blue", "yellow"), ("reading",),
       aliases=("desk lamp", "table lamp", "bedside lamp", "reading lamp", "night lamp",
                "lampshade"),
       supports=("stand", "desk", "table", "cabinet"), round=True,
       materials=("fabric", "ceramic", "metal")),
    _c("laptop", (0.30, 0.22, 0.19), (0.38, 0.27, 0.24), "on_support", "metal",
       ("silver", "dark grey", "black", "white"), ("working", "studying"),
       aliases=("notebook computer", "laptop computer", "macbook", "notebook pc"),
       supports=("desk", "table", "bed", "sofa"), materials=("metal", "plastic", "screen")),
    _c("locker", (0.60, 0.45, 1.75), (0.95, 0.50, 1.90), "floor_wall", "metal",
       ("grey", "blue", "teal", "red", "light grey"), ("storing", "dressing"),
       aliases=("lockers", "metal locker", "gym locker", "locker cabinet"),
       materials=("metal",), support_levels=(1.0,), front_clearance=0.7),
    _c("microwave", (0.44, 0.34, 0.26), (0.55, 0.42, 0.32), "on_support", "metal",
       ("white", "black", "silver"), ("cooking",),
       aliases=("microwave oven", "micro wave"),
       supports=("cabinet", "table", "stand", "cupboard"),
       materials=("metal", "glass", "plastic"), fallback_placement="floor_wall"),
    _c("mirror", (0.40, 0.02, 0.60), (0.80, 0.04, 1.20), "wall_mounted", "mirror",
       ("gold", "black", "white", "oak", "silver"), ("dressing",),
       aliases=("wall mirror", "looking glass", "vanity mirror"),
       materials=("mirror", "wood"), mount_height=0.9),
    _c("mouse", (0.20, 0.16, 0.035), (0.24, 0.20, 0.042), "on_support", "plastic",
       ("white", "black", "red", "silver", "blue"), ("working",),
       aliases=("computer mouse", "mice", "mousepad", "mouse pad"),
       supports=("desk", "table"), group_with=("computer", "laptop"), group_mode="next_to",
       materials=("plastic", "fabric")),
    _c("oven", (0.58, 0.58, 0.82), (0.62, 0.65, 0.90), "floor_wall", "metal",
       ("silver", "black", "white"), ("cooking",),
       aliases=("cooker", "range oven", "wall oven", "baking oven"),
       materials=("metal", "glass"), support_levels=(1.0,), front_clearance=0.8),
    _c("piano", (1.40, 0.55, 1.10), (1.55, 0.65, 1.30), "floor_wall", "wood",
       ("black", "walnut", "mahogany", "white"), ("playing music",),
       aliases=("upright piano", "keyboard piano", "grand piano", "pianoforte"),
       materials=("wood", "plastic", "metal"), support_levels=(1.0,), front_clearance=0.8),
    _c("picture", (0.30, 0.02, 0.30), (0.90, 0.04, 0.70), "wall_mounted", "wood",
       ("black", "gold", "oak", "white", "walnut"), (),
       aliases=("painting", "photo", "photo frame", "picture frame", "frame", "poster",
                "artwork", "art", "photograph", "wall art", "canvas"),
       materials=("wood", "paper"), mount_height=1.2),
    _c("pillow", (0.50, 0.35, 0.12), (0.70, 0.50, 0.18), "on_support", "fabric",
       ("white", "cream", "light blue", "grey", "pink", "yellow", "teal"), ("sleeping",),
       aliases=("cushion", "throw pillow", "pillows", "bed pillow"),
       supports=("bed", "sofa"), group_with=("bed", "sofa"), group_mode="on",
       materials=("fabric",)),
    _c("plant", (0.35, 0.35, 0.70), (0.60, 0.60, 1.30), "floor_corner", "leaves",
       ("green", "dark green", "lime"), (),
       aliases=("potted plant", "house plant", "houseplant", "pot plant", "flower",
                "flowers", "flower pot", "flowerpot", "tree", "indoor plant", "succulent"),
       round=True, materials=("leaves", "ceramic")),
    _c("plate", (0.22, 0.22, 0.018), (0.28, 0.28, 0.03), "on_support", "ceramic",
       ("white", "cream", "blue", "teal"), ("dining", "eating"),
       aliases=("dinner plate", "dish plate", "saucer"), supports=_TABLETOP, round=True,
       materials=("ceramic",)),
    _c("pot", (0.26, 0.18, 0.15), (0.36, 0.26, 0.22), "on_support", "metal",
       ("silver", "black", "red", "dark grey"), ("cooking",),
       aliases=("cooking pot", "saucepan", "pan", "stock pot", "stockpot", "casserole",
                "kettle"),
       supports=("stove", "table", "cabinet", "sink"), materials=("metal",)),
    _c("print", (0.21, 0.30, 0.008), (0.25, 0.34, 0.03), "on_support", "paper",
       ("white",), ("reading", "working"),
       aliases=("prints", "paper", "papers", "paper stack", "stack of paper", "document",
                "documents", "printout", "sheet", "sheets"),
       supports=_TABLETOP, materials=("paper",)),
    _c("printer", (0.40, 0.34, 0.20), (0.50, 0.45, 0.30), "on_support", "plastic",
       ("white", "black", "light grey", "dark grey"), ("printing",),
       aliases=("laser printer", "inkjet printer", "copier", "photocopier", "scanner"),
       supports=("desk", "table", "cabinet", "stand"), materials=("plastic", "paper"),
       fallback_placement="floor_wall"),
    _c("safe", (0.40, 0.40, 0.40), (0.60, 0.55, 0.70), "floor_corner", "metal",
       ("dark grey", "black", "grey", "dark green"), ("storing",),
       aliases=("strongbox", "strong box", "safe box", "vault", "safety box"),
       materials=("metal",), support_levels=(1.0,), front_clearance=0.5),
    _c("sink", (0.80, 0.58, 1.10), (1.20, 0.64, 1.25), "floor_wall", "metal",
       ("white", "grey", "oak", "navy", "cream"), ("washing", "cooking"),
       aliases=("kitchen sink", "basin", "wash basin"),
       materials=("metal", "wood"), support_levels=(0.74,), front_clearance=0.7),
    _c("sofa", (1.60, 0.80, 0.75), (2.40, 1.00, 0.92), "floor_wall", "fabric",
       ("grey", "navy", "beige", "dark green", "brown", "red", "teal"), ("relaxing",),
       aliases=("couch", "settee", "loveseat", "love seat", "sectional", "davenport"),
       materials=("fabric", "wood"), support_levels=(0.5,), faces=("tv", "fireplace"),
       fallback_placement="floor_free", front_clearance=0.8),
    _c("stand", (0.45, 0.35, 0.45), (1.40, 0.45, 0.62), "floor_wall", "wood",
       ("oak", "walnut", "white", "black", "dark brown"), ("storing",),
       aliases=("tv stand", "nightstand", "night stand", "bedside table", "side table",
                "media console", "tv cabinet", "end table", "tv unit", "bedside cabinet"),
       materials=("wood", "metal"), support_levels=(1.0,), front_clearance=0.4),
    _c("stove", (0.58, 0.58, 0.88), (0.90, 0.65, 0.94), "floor_wall", "metal",
       ("white", "silver", "black", "cream"), ("cooking",),
       aliases=("cooktop", "hob", "gas stove", "range", "cooking range", "stovetop",
                "burner", "electric stove"),
       materials=("metal", "wood"), support_levels=(1.0,), front_clearance=0.8),
    _c("table", (0.80, 0.75, 0.72), (1.80, 1.00, 0.78), "floor_free", "wood",
       ("oak", "walnut", "white", "pine", "black", "dark brown"), ("dining",),
       aliases=("dining table", "kitchen table", "coffee table", "meeting table",
                "conference table", "round table", "dinner table"),
       materials=("wood",), support_levels=(1.0,), front_clearance=0.6),
    _c("telephone", (0.18, 0.18, 0.08), (0.23, 0.22, 0.12), "on_support", "plastic",
       ("black", "white", "red", "dark grey", "cream"), ("making calls",),
       aliases=("phone", "landline", "desk phone", "telephone set", "office phone"),
       supports=_TABLETOP, materials=("plastic",)),
    _c("toilet", (0.36, 0.64, 0.78), (0.42, 0.74, 0.90), "floor_wall", "ceramic",
       ("white", "cream"), ("using the toilet",),
       aliases=("wc", "water closet", "lavatory", "toilet bowl", "commode", "loo"),
       materials=("ceramic", "metal"), front_clearance=0.6),
    _c("towel", (0.40, 0.08, 0.50), (0.70, 0.12, 0.75), "wall_mounted", "fabric",
       ("white", "blue", "teal", "pink", "yellow", "beige", "red"), ("bathing",),
       aliases=("bath towel", "hand towel", "towels", "towel rail", "towel rack"),
       materials=("fabric", "metal"), mount_height=0.9),
    _c("tumbler", (0.065, 0.065, 0.10), (0.085, 0.085, 0.14), "on_support", "glass",
       ("light blue",), ("drinking",),
       aliases=("glass", "drinking glass", "water glass", "wine glass", "beaker",
                "tumbler glass", "cup glass"),
       supports=_TABLETOP + ("sink",), round=True, materials=("glass", "liquid")),
    _c("tv", (0.80, 0.18, 0.50), (1.45, 0.30, 0.90), "on_support", "plastic",
       ("black", "dark grey", "silver"), ("watching tv",),
       aliases=("television", "tv set", "television set", "flat screen", "flatscreen",
                "smart tv", "telly"),
       supports=("stand", "cabinet", "table"), fallback_placement="wall_mounted",
       mount_height=1.0, materials=("plastic", "screen")),
    _c("vase", (0.12, 0.12, 0.20), (0.20, 0.20, 0.40), "on_support", "ceramic",
       ("blue", "white", "terracotta", "teal", "red", "cream", "yellow"), (),
       aliases=("flower vase", "urn", "jar"),
       supports=_SHELF + ("fireplace", "piano"), round=True, materials=("ceramic",)),
    _c("vending machine", (0.85, 0.72, 1.80), (1.00, 0.85, 1.90), "floor_wall", "metal",
       ("red", "blue", "white", "black", "green"), ("drinking", "eating"),
       aliases=("vending", "snack machine", "drinks machine", "soda machine",
                "drink machine", "vendor machine"),
       materials=("metal", "glass", "plastic"), front_clearance=0.9),
    _c("wardrobe", (1.00, 0.55, 1.90), (1.60, 0.65, 2.20), "floor_wall", "wood",
       ("white", "oak", "walnut", "pine", "grey"), ("dressing", "storing"),
       aliases=("closet", "armoire", "clothes cabinet", "clothes closet", "wardrobe closet"),
       materials=("wood", "metal"), front_clearance=0.8),
    _c("washing machine", (0.58, 0.55, 0.82), (0.62, 0.62, 0.88), "floor_wall", "metal",
       ("white", "silver", "dark grey"), ("doing laundry",),
       aliases=("washer", "washing-machine", "laundry machine", "clothes washer", "dryer",
                "tumble dryer", "washer dryer"),
       materials=("metal", "glass", "plastic"), support_levels=(1.0,), front_clearance=0.7),
    _c("washstand", (0.50, 0.42, 0.95), (0.90, 0.55, 1.05), "floor_wall", "ceramic",
       ("white", "oak", "grey", "navy", "walnut"), ("washing",),
       aliases=("vanity", "bathroom sink", "wash stand", "washbasin", "lavabo",
                "bathroom vanity", "vanity unit", "hand basin"),
       materials=("ceramic", "wood", "metal"), support_levels=(0.82,), front_clearance=0.6),
    _c("window", (0.60, 0.08, 0.60), (2.00, 0.16, 1.60), "in_window", "wood",
       ("white", "oak", "dark grey", "black"), (),
       aliases=("windows", "window frame", "windowpane", "window pane"),
       materials=("wood", "glass")),
    _c("wine", (0.075, 0.075, 0.29), (0.085, 0.085, 0.33), "on_support", "glass",
       ("dark green", "dark red", "brown"), ("drinking",),
       aliases=("wine bottle", "bottle", "bottle of wine", "red wine", "white wine",
                "champagne", "beer bottle"),
       supports=_SHELF, round=True, materials=("glass", "paper", "metal")),
    _c("yoga mat", (0.58, 1.50, 0.08), (0.66, 1.85, 0.12), "floor_free", "rubber",
       ("purple", "teal", "pink", "blue", "green", "orange"), ("exercising",),
       aliases=("yogamat", "exercise mat", "gym mat", "fitness mat", "pilates mat"),
       materials=("rubber",), front_clearance=0.3),
)

CATEGORIES: dict[str, Category] = {c.name: c for c in _CATEGORY_LIST}

# alias -> canonical name (canonical names map to themselves)
ALIASES: dict[str, str] = {}
for _cat in _CATEGORY_LIST:
    for _alias in (_cat.name, *_cat.aliases):
        _key = " ".join(_alias.lower().replace("_", " ").replace("-", " ").split())
        if _key in ALIASES and ALIASES[_key] != _cat.name:
            raise ValueError(f"alias {_key!r} claimed by {ALIASES[_key]!r} and {_cat.name!r}")
        ALIASES[_key] = _cat.name

def _clean(text: str) -> str:
    return " ".join(str(text).lower().replace("_", " ").replace("-", " ").split())


def normalize_category(text: str) -> str:
    """Canonical category name if `text` names one, else its cleaned singular form.

    Lower-cases, collapses spaces/underscores/hyphens, singularizes with assets.vocabulary
    ("Cups" -> cup, "bookshelves" -> bookshelf, "clothes" stays) and resolves aliases.
    """
    key = _clean(text)
    if key in ALIASES or not key:
        return ALIASES.get(key, key)
    *head, last = key.split(" ")
    # the whole phrase ("bottles of wine"), then its last word ("stack of papers")
    candidates = (singular(key), " ".join([*head, singular(last)]))
    return next((ALIASES[c] for c in candidates if c in ALIASES), candidates[0])


def resolve_category(text: str) -> str | None:
    """Canonical category name, or None if `text` names no known category."""
    name = normalize_category(text)
    return name if name in CATEGORIES else None


def suggest_category(text: str) -> str | None:
    """Nearest canonical name (via names and aliases), for 'did you mean' messages."""
    key = normalize_category(text)
    if key in CATEGORIES:
        return key
    # canonical names first so "fridgee" suggests fridge, not an alias-derived neighbour
    match = (difflib.get_close_matches(key, list(CATEGORIES), n=1, cutoff=0.75)
             or difflib.get_close_matches(key, list(ALIASES), n=1, cutoff=0.7))
    return ALIASES[match[0]] if match else None


def get_category(name: str) -> Category:
    """The Category for a name or alias; KeyError (with a suggestion) if unknown."""
    canonical = resolve_category(name)
    if canonical is None:
        hint = suggest_category(name)
        raise KeyError(f"unknown category {name!r}" + (f"; did you mean {hint!r}?" if hint else ""))
    return CATEGORIES[canonical]


def affordances(category: str) -> tuple[str, ...]:
    """Activities the category affords (empty tuple if none)."""
    return get_category(category).affordances


def categories_affording(activity: str) -> tuple[str, ...]:
    """Sorted categories that afford `activity`."""
    return tuple(sorted(c.name for c in _CATEGORY_LIST if activity in c.affordances))


def pick_color(category: str, rng: np.random.Generator) -> str:
    """A colour variant name for one instance (always draws once from rng)."""
    colors = get_category(category).colors
    return colors[int(rng.integers(len(colors)))]


def sample_size(category: str, rng: np.random.Generator) -> Size:
    """A (w, d, h) within the category's range (always draws three numbers from rng)."""
    cat = get_category(category)
    u = rng.random(3)
    lo, hi = np.array(cat.size_min), np.array(cat.size_max)
    w, d, h = (lo + u * (hi - lo)).round(4).tolist()
    if cat.round:
        d = w
    return (w, d, h)


def support_heights(category: str, size: Size) -> tuple[float, ...]:
    """Heights (m above the object's base) where other objects can stand, lowest first."""
    h = size[2]
    return tuple(round(f * h, 4) for f in sorted(get_category(category).support_levels))


def _check() -> None:
    """Import-time consistency checks of the data above (cheap, catches typos early)."""
    for cat in _CATEGORY_LIST:
        assert cat.placement in PLACEMENTS, cat.name
        assert cat.group_mode is None or cat.group_mode in GROUP_MODES, cat.name
        assert all(a in ACTIVITIES for a in cat.affordances), cat.name
        assert all(c in COLORS for c in cat.colors) and cat.colors, cat.name
        assert all(lo <= hi for lo, hi in zip(cat.size_min, cat.size_max)), cat.name
        for ref in (*cat.supports, *cat.group_with, *cat.faces):
            assert ref in {c.name for c in _CATEGORY_LIST}, (cat.name, ref)
        if cat.placement == "on_support":
            assert cat.supports, cat.name
        if cat.placement == "wall_mounted" or cat.fallback_placement == "wall_mounted":
            assert cat.mount_height is not None, cat.name


_check()


def suggest_color(text: str) -> str | None:
    """Nearest colour name, for 'did you mean' messages about `color:` values."""
    key = " ".join(str(text).lower().replace("_", " ").replace("-", " ").split())
    names = list(COLORS) + list(_COLOR_ALIASES)
    match = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    return _COLOR_ALIASES.get(match[0], match[0]) if match else None
