"""The object categories: one `Category` entry per kind of object (sizes, placement, colours,
aliases), the name -> Category table and the alias -> name table.

Pure data checked at import time; the lookup functions are in `assets.catalog`.
"""

from __future__ import annotations

from assets.colors import COLORS
from assets.ontology import GROUP_MODES, PLACEMENTS, Category, Size

# Supports for small things people put down.
_TABLETOP = ("table", "desk", "cabinet", "stand")
_SHELF = _TABLETOP + ("bookshelf",)
# Kitchen work surfaces: counters (cabinet), the cupboard's ledge, the worktop beside a sink,
# and the tops of the units under the worktop. Appliances stand on these, never on the floor.
_KITCHEN = ("cabinet", "cupboard", "sink", "dishwasher", "oven")


def _c(name: str, size_min: Size, size_max: Size, placement: str, material: str,
       colors: tuple[str, ...], **kw) -> Category:
    return Category(name, size_min, size_max, placement, material, colors, **kw)


_CATEGORY_LIST: tuple[Category, ...] = (
    _c("air conditioner", (0.80, 0.20, 0.28), (1.00, 0.28, 0.34), "wall_mounted", "plastic",
       ("white", "cream"), aliases=("ac", "a/c", "air con", "aircon", "air conditioning",
                                         "air conditioning unit"),
       materials=("plastic",), mount_height=2.0),
    _c("apple", (0.07, 0.07, 0.075), (0.09, 0.09, 0.095), "on_support", "food",
       ("red", "dark red", "green"), supports=_TABLETOP, round=True,
       materials=("food", "wood", "leaves")),
    _c("bath", (1.50, 0.70, 0.50), (1.80, 0.80, 0.62), "floor_wall", "ceramic",
       ("white", "cream"),
       aliases=("bathtub", "bath tub", "tub", "bathing tub"), materials=("ceramic", "metal"),
       front_clearance=0.6),
    _c("bed", (0.95, 1.95, 0.85), (1.80, 2.15, 1.15), "floor_wall", "fabric",
       ("white", "light blue", "beige", "grey", "navy", "pink"),
       aliases=("double bed", "single bed", "twin bed", "queen bed", "king bed", "bunk", "mattress"),
       materials=("wood", "fabric"), support_levels=(0.5,), front_clearance=0.6),
    _c("bench", (1.00, 0.35, 0.42), (1.60, 0.45, 0.48), "floor_wall", "wood",
       ("oak", "walnut", "pine", "dark brown"),
       aliases=("park bench", "wooden bench", "seat bench"), materials=("wood", "metal"),
       support_levels=(1.0,), fallback_placement="floor_free", front_clearance=0.5),
    _c("book", (0.14, 0.20, 0.02), (0.19, 0.26, 0.05), "on_support", "paper",
       ("red", "blue", "green", "navy", "dark red", "orange", "purple", "teal"),
       aliases=("novel", "notebook", "textbook", "hardcover"),
       supports=("bookshelf", "desk", "table", "cabinet", "stand", "bed", "sofa"), materials=("paper",)),
    _c("bookshelf", (0.75, 0.28, 1.70), (1.00, 0.36, 2.00), "floor_wall", "wood",
       ("oak", "walnut", "white", "pine", "dark brown"),
       aliases=("bookcase", "book shelf", "book case", "shelf", "shelving", "shelving unit",
                "bookshelves"),
       materials=("wood",), support_levels=(0.24, 0.44, 0.64, 0.84, 1.0),   # boxes on the bottom one
       front_clearance=0.6),
    _c("bowl", (0.16, 0.16, 0.06), (0.24, 0.24, 0.09), "on_support", "ceramic",
       ("white", "blue", "teal", "red", "yellow", "cream"),
       aliases=("dish", "salad bowl", "soup bowl", "cereal bowl", "fruit bowl"), supports=_TABLETOP,
       round=True, materials=("ceramic",), support_levels=(0.15,)),   # a fruit on its flat inside bottom
    _c("bulb", (0.07, 0.07, 0.35), (0.12, 0.12, 0.60), "ceiling", "glass",
       ("cream", "white", "yellow"),
       aliases=("light bulb", "lightbulb", "pendant light", "ceiling light", "light"),
       round=True, materials=("glass", "plastic")),
    _c("cabinet", (0.80, 0.40, 0.75), (1.20, 0.50, 0.95), "floor_wall", "wood",
       ("white", "oak", "walnut", "grey", "cream"),
       aliases=("sideboard", "dresser", "chest of drawers", "drawer", "drawers", "counter",
                "kitchen counter", "countertop", "credenza", "filing cabinet"),
       materials=("wood", "metal"), support_levels=(1.0,), front_clearance=0.6),
    _c("carpet", (1.40, 1.00, 0.008), (3.00, 2.20, 0.02), "floor_free", "carpet",
       ("red", "beige", "navy", "grey", "teal", "dark red"),
       aliases=("rug", "area rug", "mat", "floor mat"), materials=("carpet",)),
    _c("chair", (0.42, 0.45, 0.80), (0.52, 0.56, 1.00), "floor_free", "wood",
       ("oak", "walnut", "black", "white", "red", "blue", "grey"),
       aliases=("dining chair", "office chair", "desk chair", "seat", "stool"),
       materials=("wood", "fabric", "metal"), support_levels=(0.5,),
       group_with=("table", "desk"), group_mode="around", faces=("table", "desk"),
       front_clearance=0.3),
    _c("clothes", (0.26, 0.22, 0.03), (0.36, 0.30, 0.07), "on_support", "fabric",
       ("red", "blue", "white", "grey", "green", "yellow", "black"),
       aliases=("cloth", "clothing", "shirt", "t-shirt", "tshirt", "shirts", "laundry",
                "garment", "garments", "outfit", "sweater", "jumper"),
       # one folded garment; on a bed, a chair or a seat, in a wardrobe's shelves, on a dresser
       # or on a washing machine: never on the floor (the room is refused instead)
       supports=("wardrobe", "bed", "chair", "sofa", "bench", "cabinet", "washing machine"),
       materials=("fabric",)),
    _c("coffee machine", (0.22, 0.30, 0.30), (0.30, 0.40, 0.40), "on_support", "metal",
       ("black", "silver", "red", "white"),
       aliases=("coffee maker", "espresso machine", "coffeemaker", "coffee", "espresso maker"),
       supports=_KITCHEN + ("table",), materials=("metal", "plastic", "glass")),
    _c("computer", (0.50, 0.35, 0.40), (0.70, 0.45, 0.55), "on_support", "plastic",
       ("black", "dark grey", "silver", "white"),
       aliases=("pc", "desktop", "desktop computer", "monitor", "computer monitor", "screen",
                "display", "imac", "workstation"),
       supports=("desk", "table"), materials=("plastic", "screen", "metal")),
    _c("cup", (0.10, 0.08, 0.08), (0.13, 0.095, 0.11), "on_support", "ceramic",
       ("red", "yellow", "blue", "white", "green", "orange"),
       aliases=("mug", "coffee cup", "tea cup", "teacup", "coffee mug"), supports=_SHELF,
       materials=("ceramic",)),
    _c("cupboard", (0.80, 0.40, 1.80), (1.00, 0.50, 2.05), "floor_wall", "wood",
       ("white", "oak", "cream", "walnut", "light blue"),
       aliases=("hutch", "china cabinet", "pantry", "kitchen cupboard", "display cabinet"),
       materials=("wood", "glass", "metal"), support_levels=(0.47,), front_clearance=0.6),
    _c("curtain", (1.40, 0.08, 2.20), (2.40, 0.15, 2.50), "wall_mounted", "fabric",
       ("beige", "cream", "navy", "dark red", "light blue", "grey", "green"),
       aliases=("curtains", "drape", "drapes", "drapery", "blind", "blinds"),
       group_with=("window",), group_mode="over", mount_height=0.02,
       materials=("fabric", "metal")),
    _c("cycle", (0.50, 1.00, 1.10), (0.60, 1.20, 1.30), "floor_free", "metal",
       ("black", "red", "dark grey", "silver", "blue"),
       aliases=("exercise bike", "exercise bicycle", "stationary bike", "stationary bicycle",
                "spin bike", "bike", "bicycle", "exercise cycle"),
       materials=("metal", "plastic", "rubber"), front_clearance=0.5),
    _c("desk", (1.00, 0.60, 0.72), (1.60, 0.80, 0.77), "floor_wall", "wood",
       ("oak", "walnut", "white", "black", "pine"),
       aliases=("office desk", "writing desk", "computer desk", "work desk", "study desk"),
       materials=("wood", "metal"), support_levels=(1.0,), front_clearance=0.8),
    _c("dishwasher", (0.58, 0.58, 0.82), (0.62, 0.64, 0.88), "floor_wall", "metal",
       ("silver", "white", "black"),
       aliases=("dish washer", "dishwashing machine"), materials=("metal", "plastic"),
       support_levels=(1.0,), front_clearance=0.7),
    _c("door", (0.80, 0.10, 2.00), (1.00, 0.16, 2.20), "in_doorway", "wood",
       ("white", "oak", "walnut", "grey", "cream"),
       aliases=("doorway", "wooden door", "entrance", "front door"),
       materials=("wood", "metal")),
    _c("exercise machine", (0.70, 1.60, 1.30), (0.90, 2.00, 1.50), "floor_free", "metal",
       ("black", "dark grey", "silver"),
       aliases=("treadmill", "running machine", "elliptical", "cross trainer",
                "exercise equipment", "fitness machine", "gym machine", "rowing machine"),
       materials=("metal", "rubber", "plastic"), front_clearance=0.5),
    _c("eyeglasses", (0.13, 0.13, 0.035), (0.15, 0.15, 0.045), "on_support", "plastic",
       ("black", "red", "blue", "purple"),
       aliases=("glasses", "eyeglass", "spectacles", "reading glasses", "sunglasses",
                "eye glasses", "specs"),
       # not the bed, unless nothing else has room (placement's secondary supports): 4 cm high, they
       # must be seen from within a metre (generator.walk.view.STAND_UP), and a bed's middle is further
       supports=_TABLETOP + ("bookshelf",), materials=("plastic", "glass")),
    _c("fireplace", (1.20, 0.35, 1.00), (1.60, 0.50, 1.20), "floor_wall", "stone",
       ("white", "cream", "grey", "terracotta", "dark red"),
       aliases=("fire place", "hearth", "fireside", "wood stove", "chimney"),
       materials=("stone", "metal", "wood", "fire"), support_levels=(1.0,),
       front_clearance=0.8),
    _c("floor lamp", (0.30, 0.30, 1.50), (0.45, 0.45, 1.80), "floor_corner", "metal",
       ("black", "silver", "gold", "white"),
       aliases=("standing lamp", "standard lamp", "floorlamp", "torchiere"),
       round=True, materials=("metal", "fabric")),
    _c("fridge", (0.60, 0.62, 1.70), (0.90, 0.75, 1.90), "floor_wall", "metal",
       ("white", "silver", "black", "cream"),
       aliases=("refrigerator", "freezer", "fridge freezer", "refridgerator"),
       materials=("metal", "plastic"), front_clearance=0.8),
    _c("fruit", (0.07, 0.07, 0.095), (0.085, 0.085, 0.11), "on_support", "food",
       ("orange", "green", "yellow"),
       aliases=("orange", "oranges", "fruits", "pear", "pears", "piece of fruit"),
       # one piece: an orange (colour orange, a leafy stem filling the box's height) or a pear
       # (green, yellow); in a bowl first, else on a table or a kitchen counter
       supports=("bowl", "table", "cabinet", "cupboard", "sink", "dishwasher"), round=True,
       materials=("food", "wood", "leaves")),
    _c("handbag", (0.28, 0.12, 0.28), (0.38, 0.17, 0.38), "on_support", "leather",
       ("black", "dark brown", "tan", "red", "beige", "navy"),
       aliases=("bag", "purse", "hand bag", "tote", "tote bag", "shoulder bag"),
       supports=("table", "chair", "sofa", "bed", "cabinet", "bench", "stand"),
       materials=("leather", "metal"), fallback_placement="floor_wall"),
    _c("headphone", (0.17, 0.08, 0.18), (0.20, 0.10, 0.21), "on_support", "plastic",
       ("black", "white", "red", "blue", "silver"),
       aliases=("headphones", "headset", "earphone", "earphones", "headphone set"),
       supports=_TABLETOP, materials=("plastic", "fabric", "metal")),
    _c("lamp", (0.20, 0.20, 0.35), (0.35, 0.35, 0.60), "on_support", "fabric",
       ("cream", "white", "beige", "light blue", "yellow"),
       aliases=("desk lamp", "table lamp", "bedside lamp", "reading lamp", "night lamp",
                "lampshade"),
       supports=("stand", "desk", "table", "cabinet"), round=True,
       materials=("fabric", "ceramic", "metal")),
    _c("laptop", (0.30, 0.22, 0.19), (0.38, 0.27, 0.24), "on_support", "metal",
       ("silver", "dark grey", "black", "white"),
       aliases=("notebook computer", "laptop computer", "macbook", "notebook pc"),
       supports=("desk", "table", "bed", "sofa"), materials=("metal", "plastic", "screen")),
    _c("locker", (0.30, 0.45, 1.75), (0.40, 0.50, 1.90), "floor_wall", "metal",   # one door: one locker
       ("grey", "blue", "teal", "red", "light grey"),
       aliases=("lockers", "metal locker", "gym locker", "locker cabinet"),
       materials=("metal",), support_levels=(1.0,), front_clearance=0.7),
    _c("microwave", (0.44, 0.34, 0.26), (0.55, 0.42, 0.32), "on_support", "metal",
       ("white", "black", "silver"),
       aliases=("microwave oven", "micro wave"),
       supports=_KITCHEN + ("table",), materials=("metal", "glass", "plastic")),
    _c("mirror", (0.40, 0.02, 0.60), (0.80, 0.04, 1.20), "wall_mounted", "mirror",
       ("gold", "black", "white", "oak", "silver"),
       aliases=("wall mirror", "looking glass", "vanity mirror"),
       materials=("mirror", "wood"), mount_height=0.9),
    _c("mouse", (0.20, 0.16, 0.035), (0.24, 0.20, 0.042), "on_support", "plastic",
       ("white", "black", "red", "silver", "blue"),
       aliases=("computer mouse", "mice", "mousepad", "mouse pad"),
       supports=("desk", "table"), group_with=("computer", "laptop"), group_mode="next_to",
       materials=("plastic", "fabric")),
    _c("oven", (0.58, 0.58, 0.82), (0.62, 0.65, 0.90), "floor_wall", "metal",
       ("silver", "black", "white"),
       aliases=("cooker", "range oven", "wall oven", "baking oven"),
       materials=("metal", "glass"), support_levels=(1.0,), front_clearance=0.8),
    _c("piano", (1.40, 0.55, 1.10), (1.55, 0.65, 1.30), "floor_wall", "wood",
       ("black", "walnut", "mahogany", "white"),
       aliases=("upright piano", "keyboard piano", "grand piano", "pianoforte"),
       materials=("wood", "plastic", "metal"), support_levels=(1.0,), front_clearance=0.8),
    _c("picture", (0.30, 0.02, 0.30), (0.90, 0.04, 0.70), "wall_mounted", "wood",
       ("black", "gold", "oak", "white", "walnut"),
       aliases=("painting", "photo", "photo frame", "picture frame", "frame", "poster",
                "artwork", "art", "photograph", "wall art", "canvas"),
       materials=("wood", "paper"), mount_height=1.2),
    _c("pillow", (0.50, 0.35, 0.12), (0.70, 0.50, 0.18), "on_support", "fabric",
       ("white", "cream", "light blue", "grey", "pink", "yellow", "teal"),
       aliases=("cushion", "throw pillow", "pillows", "bed pillow"),
       supports=("bed", "sofa"), group_with=("bed", "sofa"), group_mode="on",
       materials=("fabric",)),
    _c("plant", (0.35, 0.35, 0.70), (0.60, 0.60, 1.30), "floor_corner", "leaves",
       ("green", "dark green", "lime"),
       aliases=("potted plant", "house plant", "houseplant", "pot plant", "flower",
                "flowers", "flower pot", "flowerpot", "tree", "indoor plant", "succulent"),
       round=True, materials=("leaves", "ceramic")),
    _c("plate", (0.22, 0.22, 0.018), (0.28, 0.28, 0.03), "on_support", "ceramic",
       ("white", "cream", "blue", "teal"),
       aliases=("dinner plate", "dish plate", "saucer"), supports=("table", "cabinet", "cupboard", "sink", "dishwasher"),
       round=True,
       materials=("ceramic",)),
    _c("pot", (0.26, 0.18, 0.15), (0.36, 0.26, 0.22), "on_support", "metal",
       ("silver", "black", "red", "dark grey"),
       aliases=("cooking pot", "saucepan", "pan", "stock pot", "stockpot", "casserole",
                "kettle"),
       supports=("stove",) + _KITCHEN + ("table",), materials=("metal",)),
    _c("print", (0.21, 0.30, 0.008), (0.25, 0.34, 0.03), "on_support", "paper",
       ("white",),
       aliases=("prints", "paper", "papers", "paper stack", "stack of paper", "document",
                "documents", "printout", "sheet", "sheets"),
       supports=_TABLETOP, materials=("paper",)),
    _c("printer", (0.40, 0.34, 0.20), (0.50, 0.45, 0.30), "on_support", "plastic",
       ("white", "black", "light grey", "dark grey"),
       aliases=("laser printer", "inkjet printer", "copier", "photocopier", "scanner"),
       supports=("desk", "table", "cabinet", "stand"), materials=("plastic", "paper"),
       fallback_placement="floor_wall"),
    _c("safe", (0.40, 0.40, 0.40), (0.60, 0.55, 0.70), "floor_corner", "metal",
       ("dark grey", "black", "grey", "dark green"),
       aliases=("strongbox", "strong box", "safe box", "vault", "safety box"),
       materials=("metal",), support_levels=(1.0,), front_clearance=0.5),
    _c("sink", (0.80, 0.58, 1.10), (1.20, 0.64, 1.25), "floor_wall", "metal",
       ("white", "grey", "oak", "navy", "cream"),
       aliases=("kitchen sink", "basin", "wash basin"),
       materials=("metal", "wood"), support_levels=(0.74,), front_clearance=0.7),
    _c("sofa", (1.60, 0.80, 0.75), (2.40, 1.00, 0.92), "floor_wall", "fabric",
       ("grey", "navy", "beige", "dark green", "brown", "red", "teal"),
       aliases=("couch", "settee", "loveseat", "love seat", "sectional", "davenport"),
       materials=("fabric", "wood"), support_levels=(0.5,), faces=("tv", "fireplace"),
       fallback_placement="floor_free", front_clearance=0.8),
    _c("stand", (0.45, 0.35, 0.45), (1.40, 0.45, 0.62), "floor_wall", "wood",
       ("oak", "walnut", "white", "black", "dark brown"),
       aliases=("tv stand", "nightstand", "night stand", "bedside table", "side table",
                "media console", "tv cabinet", "end table", "tv unit", "bedside cabinet"),
       materials=("wood", "metal"), support_levels=(1.0,), front_clearance=0.4),
    _c("stove", (0.58, 0.58, 0.88), (0.90, 0.65, 0.94), "floor_wall", "metal",
       ("white", "silver", "black", "cream"),
       aliases=("cooktop", "hob", "gas stove", "range", "cooking range", "stovetop",
                "burner", "electric stove"),
       materials=("metal", "wood"), support_levels=(1.0,), front_clearance=0.8),
    _c("table", (0.80, 0.75, 0.72), (1.80, 1.00, 0.78), "floor_free", "wood",
       ("oak", "walnut", "white", "pine", "black", "dark brown"),
       aliases=("dining table", "kitchen table", "coffee table", "meeting table",
                "conference table", "round table", "dinner table"),
       materials=("wood",), support_levels=(1.0,), front_clearance=0.6),
    _c("telephone", (0.18, 0.18, 0.08), (0.23, 0.22, 0.12), "on_support", "plastic",
       ("black", "white", "red", "dark grey", "cream"),
       aliases=("phone", "landline", "desk phone", "telephone set", "office phone"),
       supports=_TABLETOP, materials=("plastic",)),
    _c("toilet", (0.36, 0.64, 0.78), (0.42, 0.74, 0.90), "floor_wall", "ceramic",
       ("white", "cream"),
       aliases=("wc", "water closet", "lavatory", "toilet bowl", "commode", "loo"),
       materials=("ceramic", "metal"), front_clearance=0.6),
    _c("towel", (0.40, 0.08, 0.50), (0.70, 0.12, 0.75), "wall_mounted", "fabric",
       ("white", "blue", "teal", "pink", "yellow", "beige", "red"),
       aliases=("bath towel", "hand towel", "towels", "towel rail", "towel rack"),
       materials=("fabric", "metal"), mount_height=0.9),
    _c("tumbler", (0.065, 0.065, 0.10), (0.085, 0.085, 0.14), "on_support", "glass",
       ("light blue",),
       aliases=("glass", "drinking glass", "water glass", "wine glass", "beaker",
                "tumbler glass", "cup glass"),
       supports=_TABLETOP + ("sink",), round=True, materials=("glass", "liquid")),
    _c("tv", (0.80, 0.18, 0.50), (1.45, 0.30, 0.90), "on_support", "plastic",
       ("black", "dark grey", "silver"),
       aliases=("television", "tv set", "television set", "flat screen", "flatscreen",
                "smart tv", "telly"),
       supports=("stand", "cabinet"), fallback_placement="wall_mounted",
       mount_height=1.0, materials=("plastic", "screen")),
    _c("vase", (0.12, 0.12, 0.20), (0.20, 0.20, 0.40), "on_support", "ceramic",
       ("blue", "white", "terracotta", "teal", "red", "cream", "yellow"),
       aliases=("flower vase", "urn", "jar"),
       supports=_SHELF + ("fireplace", "piano"), round=True, materials=("ceramic",)),
    _c("vending machine", (0.85, 0.72, 1.80), (1.00, 0.85, 1.90), "floor_wall", "metal",
       ("red", "blue", "white", "black", "green"),
       aliases=("vending", "snack machine", "drinks machine", "soda machine",
                "drink machine", "vendor machine"),
       materials=("metal", "glass", "plastic"), front_clearance=0.9),
    _c("wardrobe", (1.00, 0.55, 1.90), (1.60, 0.65, 2.20), "floor_wall", "wood",
       ("white", "oak", "walnut", "pine", "grey"),
       aliases=("closet", "armoire", "clothes cabinet", "clothes closet", "wardrobe closet"),
       # the shelves of its open column (folded clothes lie there; nothing on its 2 m top)
       materials=("wood", "metal"), support_levels=(0.2, 0.4, 0.6, 0.8), front_clearance=0.8),
    _c("washing machine", (0.58, 0.55, 0.82), (0.62, 0.62, 0.88), "floor_wall", "metal",
       ("white", "silver", "dark grey"),
       aliases=("washer", "washing-machine", "laundry machine", "clothes washer", "dryer",
                "tumble dryer", "washer dryer"),
       materials=("metal", "glass", "plastic"), support_levels=(1.0,), front_clearance=0.7),
    _c("washstand", (0.50, 0.42, 0.95), (0.90, 0.55, 1.05), "floor_wall", "ceramic",
       ("white", "oak", "grey", "navy", "walnut"),
       aliases=("vanity", "bathroom sink", "wash stand", "washbasin", "lavabo",
                "bathroom vanity", "vanity unit", "hand basin"),
       materials=("ceramic", "wood", "metal"), support_levels=(0.82,), front_clearance=0.6),
    _c("window", (0.60, 0.08, 0.60), (2.00, 0.16, 1.60), "in_window", "wood",
       ("white", "oak", "dark grey", "black"),
       aliases=("windows", "window frame", "windowpane", "window pane"),
       materials=("wood", "glass")),
    _c("wine", (0.075, 0.075, 0.29), (0.085, 0.085, 0.33), "on_support", "glass",
       ("dark green", "dark red", "brown"),
       aliases=("wine bottle", "bottle", "bottle of wine", "red wine", "white wine",
                "champagne", "beer bottle"),
       supports=_SHELF, round=True, materials=("glass", "paper", "metal")),
    _c("yoga mat", (0.58, 1.50, 0.08), (0.66, 1.85, 0.12), "floor_free", "rubber",
       ("purple", "teal", "pink", "blue", "green", "orange"),
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


BULB_SOCKET_H = 0.05

# Seats whose back (along the local -y side, as the sofa and chair builders make it) hides
# what lies on the seat from anyone behind it: the walk looks at those things from the front
# (generator.walk.view). Planned from behind, a pillow and a book on a sofa were in view for
# 2-3 s of a sampled walk and never showed a pixel (sample-1-005, -013).
BACKED_SEATS = frozenset({"sofa", "chair"})

# Furniture with shelves inside side panels, open only at the front (the bookshelf; the
# wardrobe's open column, as their builders make them): what lies on a shelf below the top is
# hidden by the panels from the side and from behind, so the walk looks at it from before the
# furniture (generator.walk.view). Planned from 62 deg off the front, three folded shirts in a
# wardrobe's column were in view for 100 frames of a sampled walk and never showed a pixel
# (sample-1-009).
INNER_SHELVES = frozenset({"bookshelf", "wardrobe"})


def bulb_glass_height(width: float) -> float:
    """Height of a hanging bulb's glass (the rest of its box, up to the ceiling, is socket and
    cord): the builder's shape, and what the walk must bring into view (generator.walk.view)."""
    return min(0.14, 1.05 * width)


def _check() -> None:
    """Import-time consistency checks of the data above (cheap, catches typos early)."""
    for cat in _CATEGORY_LIST:
        assert cat.placement in PLACEMENTS, cat.name
        assert cat.group_mode is None or cat.group_mode in GROUP_MODES, cat.name
        assert all(c in COLORS for c in cat.colors) and cat.colors, cat.name
        assert all(lo <= hi for lo, hi in zip(cat.size_min, cat.size_max)), cat.name
        for ref in (*cat.supports, *cat.group_with, *cat.faces):
            assert ref in {c.name for c in _CATEGORY_LIST}, (cat.name, ref)
        if cat.placement == "on_support":
            assert cat.supports, cat.name
        if cat.placement == "wall_mounted" or cat.fallback_placement == "wall_mounted":
            assert cat.mount_height is not None, cat.name


_check()
