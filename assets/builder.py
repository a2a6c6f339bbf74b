"""What every mesh builder shares: the Builder it is handed (size, rng, main material, `add`,
`surface`), the parts and support surfaces it makes, and the registry it joins with
`@builder(name)`. The builder modules import this module and nothing imports them back
but assets.library, which imports them all to fill the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import trimesh

from assets.catalog import CATEGORIES, color_rgb, get_category
from assets.materials import Material, make_material, shade


@dataclass
class Part:
    name: str
    mesh: trimesh.Trimesh
    material: Material


@dataclass(frozen=True)
class SupportSurface:
    """A horizontal rectangle (local frame) other objects can stand on."""
    z: float
    x0: float
    x1: float
    y0: float
    y1: float


class Builder:
    """What a category builder gets: size, rng, the main material, and an `add` method."""

    def __init__(self, category: str, rng: np.random.Generator, size, color_name: str,
                 attributes: dict):
        cat = get_category(category)
        self.category = cat
        self.rng = rng
        self.w, self.d, self.h = (float(v) for v in size)
        self.color_name = color_name
        self.rgb = color_rgb(color_name)
        self.main = make_material(cat.material, self.rgb)
        self.attributes = attributes
        self.parts: list[Part] = []
        self.surfaces: list[SupportSurface] = []

    # helpers for builders
    def mat(self, kind: str, rgb, **overrides) -> Material:
        rgb = color_rgb(rgb) if isinstance(rgb, str) else rgb
        return make_material(kind, rgb, **overrides)

    def main_as(self, kind: str, factor: float = 1.0, **overrides) -> Material:
        """The main colour in another material kind, optionally darker/lighter."""
        return make_material(kind, shade(self.rgb, factor), **overrides)

    def add(self, name: str, mesh: trimesh.Trimesh | list, material: Material | None = None):
        if isinstance(mesh, (list, tuple)):
            mesh = trimesh.util.concatenate([m for m in mesh if m is not None])
        self.parts.append(Part(name, mesh, material or self.main))

    def surface(self, z: float, x0: float | None = None, x1: float | None = None,
                y0: float | None = None, y1: float | None = None):
        self.surfaces.append(SupportSurface(
            z, -self.w / 2 if x0 is None else x0, self.w / 2 if x1 is None else x1,
            -self.d / 2 if y0 is None else y0, self.d / 2 if y1 is None else y1))

    def uniform(self, lo: float, hi: float) -> float:
        return float(self.rng.uniform(lo, hi))

    def choice(self, options):
        return options[int(self.rng.integers(len(options)))]


BUILDERS: dict[str, Callable[[Builder], None]] = {}


def builder(name: str):
    """Register the mesh builder of a category."""
    def register(fn: Callable[[Builder], None]):
        assert name in CATEGORIES, name
        BUILDERS[name] = fn
        return fn
    return register
