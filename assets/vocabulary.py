"""The English words for object categories: display name, singular, plural, counted phrase.

The one place the project turns a category into words: questions (queries.text), the walk's
narration, the contact sheet labels and the parsing of user input (assets.catalog's alias and
plural normalisation) all use these functions, so "bookshelves" is spelt the same everywhere.

Inflection is the `inflect` package's; `_PLURAL` overrides it only where it is wrong for our
nouns (tests/test_vocabulary.py holds every category's plural, checked by hand). It is imported
on first use, never by importing this module; the display name needs no inflect at all.
"""

from __future__ import annotations

import importlib
import sys
import types
from functools import cache

# Display name of a category where the key is not what a person calls one object of it.
# Questions use the display name; the checker reads it back (queries.check_facts.category_named).
_DISPLAY: dict[str, str] = {
    "clothes": "garment",        # one object is one folded shirt or sweater: "how many garment(s)"
}

# Plural of a (last) word where inflect's is wrong for what the category is.
_PLURAL: dict[str, str] = {
    "clothes": "clothes",        # plural-only noun; inflect adds an s ("clothess")
    "eyeglasses": "eyeglasses",  # plural-only noun, one pair; inflect: "eyeglassess"
    "fruit": "fruit",            # "three fruit" (one piece each); inflect: "fruits"
}
# Singular of a (last) word where inflect's is wrong: the forms above ("clothes" -> "clothe")
# and plurals people write for our nouns that inflect does not know.
_SINGULAR: dict[str, str] = {p: s for s, p in _PLURAL.items()} | {
    "mouses": "mouse",           # the other plural of a computer mouse; inflect: "mous"
}


@cache
def _engine():
    """inflect's engine, imported without its run-time type checks: inflect 7 wraps its API in
    typeguard's @typechecked, which re-parses and compiles inflect's source once per wrapped
    function, 1.6 s of every process that words a category (jaraco/inflect#212, open). We pass
    it plain strings, so it sees an identity decorator while it is imported."""
    if "inflect" not in sys.modules:
        real = sys.modules.get("typeguard")
        shim = types.ModuleType("typeguard")
        shim.typechecked = lambda target=None, **_: target if target is not None else (lambda f: f)
        sys.modules["typeguard"] = shim
        try:
            importlib.import_module("inflect")
        finally:
            if real is None:
                del sys.modules["typeguard"]
            else:
                sys.modules["typeguard"] = real
    return sys.modules["inflect"].engine()


def display_name(category: str) -> str:
    """What a person calls the category in text (the key itself unless `_DISPLAY` says otherwise)."""
    return _DISPLAY.get(category, category)


def singular(noun: str) -> str:
    """The singular of a plural noun or noun phrase: 'bookshelves' -> 'bookshelf', 'knives' ->
    'knife', 'exercise bikes' -> 'exercise bike', 'clothes' -> 'clothes'. A singular usually comes
    back unchanged ('cup', 'glass'), but a few singulars ending in s do not ('bus' -> 'bu'):
    parse with it, and check the result against known names."""
    *head, last = noun.split(" ")
    if last in _SINGULAR:
        return " ".join([*head, _SINGULAR[last]])
    return _engine().singular_noun(noun) or noun


def plural(category: str, n: int = 2) -> str:
    """The category's display name as a noun for `n` of them: 'bookshelf' -> 'bookshelves',
    'mouse' -> 'mice', 'clothes' -> 'clothes'; n == 1 gives the singular."""
    name = display_name(category)
    return name if n == 1 else _plural(name)


@cache
def _plural(name: str) -> str:
    *head, last = name.split(" ")
    if last in _PLURAL:
        return " ".join([*head, _PLURAL[last]])
    return _engine().plural_noun(name)


def count_phrase(n: int, category: str) -> str:
    """'1 knife', '3 knives', '0 chairs', '2 garments' (clothes)."""
    return f"{n} {plural(category, n)}"


# ----------------------------------------------------------------------------- counting words
# Categories whose one object models several things a viewer would count one by one (a stack
# of paper; a curtain's two panels on one rod, which a person check of sample-1-073 counted as
# 2 or 4 for 2 curtains): never counted. A fruit is one piece, clothes one folded garment: both
# counted.
UNCOUNTABLE: frozenset[str] = frozenset({"print", "curtain"})

# Categories a viewer easily takes for one another: never asked about where another member of
# the group could be meant (docs/ground-truth.md "Names").
LOOKALIKE_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"table", "desk"}),
    frozenset({"lamp", "floor lamp"}),
    frozenset({"sink", "washstand"}),
    frozenset({"cabinet", "cupboard"}),
    # a washstand stands on a two-door cabinet: the person check of sample-1-003 saw a bathroom's
    # washstand cabinet first and took it for "the first cabinet" of an appearance order
    frozenset({"cabinet", "washstand"}),
    frozenset({"cup", "tumbler"}),
    frozenset({"fruit", "apple"}),     # an apple is a fruit too: "how many fruit" must not hinge on it
)

# Categories that look alike only where they stand: a cabinet at a bed's head is a bedside
# cabinet, a nightstand to a viewer (person check of sample-1-000: two cabinets beside beds, one
# with a lamp on it, made "how many nightstands? 3" answerable 4 or 5). Where such a cabinet
# stands, neither category is asked about in its room, nor in the building (docs/ground-truth.md
# "Names"). Placement keeps cabinets off beds' heads; this covers rooms where nothing else fits.
BEDSIDE_ALIKE: frozenset[str] = frozenset({"cabinet", "stand"})


# Categories the video shows more of than the scene lists: the renderer hangs a door leaf in
# every doorway that has no `door` object (generator/doors.py), and a viewer takes each leaf for a
# door. A `door` object always has look-alikes: never named or counted (docs/ground-truth.md "Names").
DRAWN_ALIKE: frozenset[str] = frozenset({"door"})


# Categories a viewer names only from the front: seen from behind or side-on they are a plain
# box or slab (person check: a microwave seen only from its back was taken for a printer; a
# bookshelf seen side-on and a safe seen as a dark cube were named by elimination). Their
# "seen" counts only frames with the camera in front of them (docs/ground-truth.md "Seen").
FRONT_ONLY: frozenset[str] = frozenset({
    "air conditioner", "bookshelf", "coffee machine", "computer", "cupboard", "dishwasher",
    "fireplace", "fridge", "locker", "microwave", "oven", "piano", "printer", "safe", "tv",
    "vending machine", "wardrobe", "washing machine", "picture", "mirror", "eyeglasses",
})

# ... and of those, the ones named only from nearly in front (the questions: within 45 deg, not
# 70): a pair of glasses shows its two rims side by side only from there. Person check of
# sample-1-000 at 320x240: pairs seen from 29 and 32 deg off their front read as glasses; one
# seen from 62 deg off was "a blue wire bracket" (the rims edge-on).
FRONT_ONLY_NARROW: frozenset[str] = frozenset({"eyeglasses"})


# Categories a viewer names from the front or the back, not end-on: seen end-on, a sofa is a
# seat with two arms, an armchair (person check of large-house: a navy sofa seen only end-on
# was counted as an armchair). Their "seen" counts only frames with the camera before or
# behind their long side (docs/ground-truth.md "Seen").
NAMED_BROADSIDE: frozenset[str] = frozenset({"sofa"})


# Categories drawn as a thin open frame round see-through parts: open eyeglasses (rims, bridge
# and temples about 1 cm thick). Seen whole and close enough to name, they still never fill the
# solid square the id pass asks of other things (render.idcolors.block_side): at 0.86 m, looked
# down at on a nightstand, a pair covered 0.19% of the frame in a 33 x 29 px box of the 320 x 240
# id pass, yet its widest solid patch was 3 px. For these the square is looked for in the
# region's convex hull, the outline a viewer sees (docs/ground-truth.md "Seen"). A headphone is
# a band over two ear cups: seen along its width the cups are edge-on, 3.5 cm wide, so its own
# pixels hold the square only from within about a metre, while its outline (band and cups, a
# shape a viewer names at once) holds it from about 2 m (generator.walk.view plans it so).
OPEN_FRAME: frozenset[str] = frozenset({"eyeglasses", "headphone"})


def named_broadside(category: str) -> bool:
    """Does a viewer need to see the category's long side (front or back) to name it?"""
    return category in NAMED_BROADSIDE


def named_from_nearly_in_front(category: str) -> bool:
    """Does a viewer need to see the category from nearly straight in front to name it?"""
    return category in FRONT_ONLY_NARROW


def named_from_front(category: str) -> bool:
    """Does a viewer need to see the category's front to name it?"""
    return category in FRONT_ONLY


def countable(category: str) -> bool:
    """Is one object of the category one thing a viewer counts?"""
    return category not in UNCOUNTABLE


def lookalikes(category: str) -> frozenset[str]:
    """The other categories a viewer could confuse with this one (empty for most)."""
    return frozenset().union(*(g for g in LOOKALIKE_GROUPS if category in g)) - {category}


# ----------------------------------------------------------------------------- colour words
# The basic colour word a viewer calls an object by (assets.colors names). Colours left out sit
# between two words (tan, beige, cream, light and dark grey, silver, gold, terracotta, teal, oak,
# pine, mahogany): an object of such a colour is never named by it, nor told apart from another
# of its kind by colour (docs/ground-truth.md "Names").
COLOUR_WORDS: dict[str, str] = {
    "red": "red", "dark red": "red", "orange": "orange", "yellow": "yellow",
    "green": "green", "dark green": "green", "lime": "green",
    "blue": "blue", "light blue": "blue", "navy": "blue", "purple": "purple", "pink": "pink",
    "brown": "brown", "dark brown": "brown", "walnut": "brown",
    "white": "white", "grey": "grey", "black": "black",
}
# Dark shades a viewer can take for black where the light is low (a navy sofa's shaded side).
NEAR_BLACK: frozenset[str] = frozenset({"navy", "dark green", "dark brown"})
# Categories whose look is their main colour: it covers at least 60% of what one sees of the
# model from any side, a little from above, in every colour variant (tests/test_vocabulary.py
# measures it). Left out though it passes: a window (its frame; one sees the view through it).
# Below it: a bed (bedding), a picture or mirror (the frame), a tv or laptop (the screen), a
# bowl (white inside), a pot (lid and handles), a plant (its pot), a bench, a mouse, a plate, ...
COLOURED: frozenset[str] = frozenset({
    "air conditioner", "apple", "bath", "book", "bookshelf", "cabinet", "carpet", "chair",
    "clothes", "coffee machine", "cup", "cupboard", "curtain", "desk", "dishwasher", "eyeglasses",
    "fridge", "fruit", "handbag", "headphone", "lamp", "locker", "microwave", "oven", "piano",
    "pillow", "printer", "safe", "sofa", "stand", "stove", "table", "telephone",
    "toilet", "towel", "vase", "vending machine", "wardrobe", "washing machine", "yoga mat",
})


def colour_word(category: str, color: str) -> str | None:
    """The word a viewer calls an object of `category` in `color` by ("red"), or None when the
    colour has no one word or the category does not look its main colour."""
    return COLOUR_WORDS.get(color) if category in COLOURED else None


def told_apart_by_colour(category: str, a: str, b: str) -> bool:
    """Would a viewer call two objects of `category` in colours `a` and `b` by different words?"""
    wa, wb = colour_word(category, a), colour_word(category, b)
    if wa is None or wb is None or wa == wb:
        return False
    return not ((wa == "black" and b in NEAR_BLACK) or (wb == "black" and a in NEAR_BLACK))
