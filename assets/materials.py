"""Surface materials shared by the object library and room shells (pure data, no bpy).

A Material is what the renderer needs for a Principled BSDF (and Workbench's flat colour):
sRGB base colour, roughness, metallic, transmission (glass) and emission (bulbs, fire).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

RGBA = tuple[float, float, float, float]


@dataclass(frozen=True)
class Material:
    kind: str                     # wood, fabric, metal, glass, ... (MATERIAL_KINDS)
    color: RGBA                   # sRGB, alpha < 1 only for see-through glass
    roughness: float = 0.5
    metallic: float = 0.0
    transmission: float = 0.0
    emission: float = 0.0         # emission strength (W/m^2-ish Blender units), own colour

    @property
    def key(self) -> str:
        """Stable name for sharing one Blender material between identical parts."""
        r, g, b, a = (round(c * 255) for c in self.color)
        return (f"{self.kind}-{r:02x}{g:02x}{b:02x}{a:02x}-r{self.roughness:.2f}"
                f"-m{self.metallic:.1f}-t{self.transmission:.1f}-e{self.emission:.1f}")


# kind -> (roughness, metallic, transmission, alpha)
MATERIAL_KINDS: dict[str, tuple[float, float, float, float]] = {
    "wood": (0.55, 0.0, 0.0, 1.0),
    "fabric": (0.92, 0.0, 0.0, 1.0),
    "carpet": (1.0, 0.0, 0.0, 1.0),
    "leather": (0.45, 0.0, 0.0, 1.0),
    "metal": (0.32, 0.85, 0.0, 1.0),
    "chrome": (0.12, 1.0, 0.0, 1.0),
    "painted metal": (0.4, 0.2, 0.0, 1.0),
    "plastic": (0.38, 0.0, 0.0, 1.0),
    "rubber": (0.85, 0.0, 0.0, 1.0),
    "glass": (0.04, 0.0, 0.92, 0.35),
    "tinted glass": (0.06, 0.0, 0.3, 1.0),
    "mirror": (0.02, 1.0, 0.0, 1.0),
    "screen": (0.12, 0.0, 0.0, 1.0),
    "ceramic": (0.14, 0.0, 0.0, 1.0),
    "stone": (0.75, 0.0, 0.0, 1.0),
    "tile": (0.25, 0.0, 0.0, 1.0),
    "plaster": (0.9, 0.0, 0.0, 1.0),
    "concrete": (0.85, 0.0, 0.0, 1.0),
    "paper": (0.85, 0.0, 0.0, 1.0),
    "leaves": (0.6, 0.0, 0.0, 1.0),
    "soil": (1.0, 0.0, 0.0, 1.0),
    "food": (0.45, 0.0, 0.0, 1.0),
    "liquid": (0.05, 0.0, 0.4, 0.8),
    "light": (0.5, 0.0, 0.0, 1.0),   # emissive (bulb, lit screen, fire)
}


def make_material(kind: str, rgb: tuple[float, float, float], **overrides) -> Material:
    """A material of `kind` with its preset properties and the given sRGB colour."""
    roughness, metallic, transmission, alpha = MATERIAL_KINDS[kind]
    mat = Material(kind, (*(float(c) for c in rgb), alpha), roughness, metallic, transmission)
    if kind == "light":
        mat = replace(mat, emission=3.0)
    return replace(mat, **overrides) if overrides else mat


def shade(rgb: tuple[float, float, float], factor: float) -> tuple[float, float, float]:
    """Darker (<1) or lighter (>1, towards white) version of a colour."""
    if factor <= 1:
        return tuple(c * factor for c in rgb)  # type: ignore[return-value]
    t = min(factor - 1, 1.0)
    return tuple(c + (1 - c) * t for c in rgb)  # type: ignore[return-value]
