"""Named colours: the sRGB table that spec `color:` values and category colour variants use,
their aliases ('gray' -> 'grey'), and lookup, normalisation and 'did you mean' helpers.

Colours are sRGB in [0, 1]. No project imports (data plus stdlib).
"""

from __future__ import annotations

import difflib
import re

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


def suggest_color(text: str) -> str | None:
    """Nearest colour name, for 'did you mean' messages about `color:` values."""
    key = " ".join(str(text).lower().replace("_", " ").replace("-", " ").split())
    names = list(COLORS) + list(_COLOR_ALIASES)
    match = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    return _COLOR_ALIASES.get(match[0], match[0]) if match else None
