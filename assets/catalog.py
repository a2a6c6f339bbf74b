"""Object categories: names, aliases, sizes, placement rules, colours and affordances.

Pure data plus lookup helpers; no bpy and no mesh code (that is in `assets.models`), so the
validator, placement and the query engine can import it cheaply. The data lives in
`assets.ontology` (activities, placement kinds, the Category record), `assets.categories`
(the category entries and alias table) and `assets.colors` (named colours); this module
re-exports it and holds the lookup, normalisation and sampling functions.

Conventions: sizes are (w, d, h) in metres of the object's axis-aligned bounds in its own
frame (x = width, y = depth, +y = the side the object faces, z up, origin at the footprint
centre on the floor). Colours are sRGB in [0, 1].
"""

from __future__ import annotations

import difflib

import numpy as np

from assets.categories import ALIASES, CATEGORIES
from assets.colors import COLORS, color_rgb, normalize_color, suggest_color
from assets.activities import activities as _activities
from assets.ontology import GROUP_MODES, PLACEMENTS, Category, Size
from assets.vocabulary import singular

__all__ = [
    "ACTIVITIES", "ALIASES", "CATEGORIES", "COLORS", "GROUP_MODES", "PLACEMENTS", "Category",
    "Size", "affordances", "categories_affording", "color_rgb", "get_category",
    "normalize_category", "normalize_color", "pick_color", "resolve_category", "sample_size",
    "suggest_category", "suggest_color", "support_heights",
]


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
    """Activities the category makes possible on its own (assets/activities.yaml)."""
    from assets import activities

    return activities.affordances(get_category(category).name)


ACTIVITIES: tuple[str, ...] = _activities()  # Memory-Action's activities (assets/activities.yaml)


def categories_affording(activity: str) -> tuple[str, ...]:
    """Sorted categories that make `activity` possible on their own."""
    return tuple(sorted(c for c in CATEGORIES if activity in affordances(c)))


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
