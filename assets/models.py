"""Procedural 3D models for every catalog category (trimesh parts with materials).

`build_model(category, rng, size=None, color=None, **attributes)` returns an AssetModel in the
object's local frame: origin at the footprint centre on the floor, +y = the object's front,
z up, bounds exactly `size` = (w, d, h). The same rng state, size and attributes give
identical vertices. Builders live in `assets.builders_*` and register with `@builder(name)`
(assets.builder); assets.library imports them all, so the registry is complete here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import trimesh

from assets.builder import Builder, Part, SupportSurface
from assets.catalog import get_category, normalize_color, pick_color, sample_size
from assets.library import BUILDERS

__all__ = ["AssetModel", "Part", "SupportSurface", "build_model", "raw_bounds"]


@dataclass
class AssetModel:
    category: str
    size: tuple[float, float, float]          # (w, d, h) metres = bounds of all parts
    parts: list[Part]
    color: str                                # colour name of the main part
    material: str                             # material kind of the main part
    surfaces: list[SupportSurface] = field(default_factory=list)

    @property
    def support_heights(self) -> tuple[float, ...]:
        return tuple(sorted({round(s.z, 4) for s in self.surfaces}))

    @property
    def bounds(self) -> np.ndarray:
        """[[xmin, ymin, zmin], [xmax, ymax, zmax]] over all parts."""
        return _bounds(self.parts)

    def mesh(self) -> trimesh.Trimesh:
        """All parts as one mesh (collision, footprints)."""
        return trimesh.util.concatenate([p.mesh for p in self.parts])

    def attributes(self) -> dict:
        return {"color": self.color, "material": self.material}


def _bounds(parts: list[Part]) -> np.ndarray:
    lo = np.min([p.mesh.bounds[0] for p in parts], axis=0)
    hi = np.max([p.mesh.bounds[1] for p in parts], axis=0)
    return np.array([lo, hi])


def build_model(category: str, rng: np.random.Generator, *, size=None, color=None,
                fit: bool = True, **attributes) -> AssetModel:
    """Build one instance of `category` (name or alias).

    rng draws are made in a fixed order (colour, size, then style) whatever is overridden, so
    an instance is reproducible from (rng state, size, color, attributes). `color` (a COLORS
    name or '#rrggbb') sets the main part's colour; `size` = (w, d, h) sets the bounds.
    `fit` rescales the result to exactly `size` (builders aim for it; this removes the
    last millimetres). Category-specific attributes: tv `wall_mounted=True` (no stand),
    door `open_angle` (degrees; an open door exceeds its nominal depth, so it is not fitted).
    """
    cat = get_category(category)
    drawn_color = pick_color(cat.name, rng)
    drawn_size = sample_size(cat.name, rng)
    if color is not None:
        color_name = normalize_color(color)
        if color_name is None:
            raise ValueError(f"unknown colour {color!r} for {cat.name}")
    else:
        color_name = drawn_color
    if size is None:
        size = drawn_size
        if cat.name == "tv" and attributes.get("wall_mounted"):
            size = (size[0], 0.06, size[2])
    b = Builder(cat.name, rng, size, color_name, attributes)
    BUILDERS[cat.name](b)
    parts = [p for p in b.parts if len(p.mesh.faces)]
    surfaces = b.surfaces
    if fit and not (cat.name == "door" and attributes.get("open_angle")):
        parts, surfaces = _fit(parts, surfaces, (b.w, b.d, b.h))
    return AssetModel(cat.name, (b.w, b.d, b.h), parts, color_name, b.main.kind, surfaces)


def _fit(parts: list[Part], surfaces: list[SupportSurface], size):
    """Translate/scale the parts so their bounds are exactly the box of `size`."""
    lo, hi = _bounds(parts)
    target_lo = np.array([-size[0] / 2, -size[1] / 2, 0.0])
    scale = np.asarray(size, float) / np.maximum(hi - lo, 1e-9)
    out = []
    for p in parts:
        m = p.mesh.copy()
        m.vertices = (m.vertices - lo) * scale + target_lo
        out.append(Part(p.name, m, p.material))

    def fx(x):
        return (x - lo[0]) * scale[0] + target_lo[0]

    def fy(y):
        return (y - lo[1]) * scale[1] + target_lo[1]

    surf = [SupportSurface((s.z - lo[2]) * scale[2], fx(s.x0), fx(s.x1), fy(s.y0), fy(s.y1))
            for s in surfaces]
    return out, surf


def raw_bounds(category: str, rng: np.random.Generator, size) -> np.ndarray:
    """Bounds of the unfitted model (tests use it to check builders aim for `size`)."""
    model = build_model(category, rng, size=size, fit=False)
    return _bounds(model.parts)
