"""The vocabulary a category entry is written in: placement kinds, group modes and
the `Category` record (data only; the entries are in `assets.categories`).

Conventions: sizes are (w, d, h) in metres of the object's axis-aligned bounds in its own
frame (x = width, y = depth, +y = the side the object faces, z up, origin at the footprint
centre on the floor).
"""

from __future__ import annotations

from dataclasses import dataclass


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

Size = tuple[float, float, float]


@dataclass(frozen=True)
class Category:
    name: str
    size_min: Size                      # (w, d, h) metres
    size_max: Size
    placement: str                      # one of PLACEMENTS
    material: str                       # main material (wood, fabric, metal, ...)
    colors: tuple[str, ...]             # colour variants of the main part (COLORS names)
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
