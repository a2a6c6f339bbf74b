"""Procedural surface texture for Cycles (the `photoreal` profile): wood grain, fabric and
carpet pile, wall tiles, plaster, concrete and stone mottling, brushed metal, and window
glass that lets daylight in.

Shader nodes only (Wave/Noise/Voronoi/Brick textures, Bump), no image files. Coordinates are
the Texture Coordinate node's "Object" output, which is in metres for every mesh here
(objects are never scaled; room shells sit at the world origin, so floor and wall patterns
line up across rooms) and needs no UVs. Pattern sizes below are in metres.

Only the node tree is touched: Workbench (the `preview` profile) in MATERIAL colour mode
shades with `Material.diffuse_color/roughness/metallic`, which render.blender_assets sets
before calling `add_texture`, so preview frames and the instance-ID pass do not change.
"""

from __future__ import annotations

import colorsys
import math

import bpy

from assets.materials import Material

# kinds that get texture nodes (the others keep a plain Principled BSDF)
TEXTURED_KINDS = ("wood", "fabric", "carpet", "leather", "metal", "tile", "plaster", "concrete", "stone",
                  "glass")

# sizes in metres
WOOD_GRAIN_PERIOD = 0.012     # spacing of the growth rings (latewood lines) across the grain
WOOD_STREAK = 0.35            # length over which the grain wanders along the board
WALL_TILE = (0.2, 0.2)        # wall tiles (width, height), stack bond
WALL_GROUT = 0.003            # grout line width
PLASTER_BUMP = 0.012          # feature size of the plaster's surface texture
MOTTLE = 0.6                  # feature size of the slow colour variation of large surfaces


class _Tree:
    """A few helpers around one material's node tree (left to right layout is cosmetic)."""

    def __init__(self, bmat: bpy.types.Material, bsdf: bpy.types.Node):
        self.nt = bmat.node_tree
        self.bsdf = bsdf
        self.x = -1400

    def node(self, kind: str, **props) -> bpy.types.Node:
        n = self.nt.nodes.new(kind)
        n.location = (self.x, 300 - 60 * len(self.nt.nodes) % 900)
        self.x += 60
        for k, v in props.items():
            setattr(n, k, v)
        return n

    def link(self, out, inp) -> None:
        self.nt.links.new(out, inp)

    def coords(self, scale=(1.0, 1.0, 1.0)):
        """Object coordinates (metres), scaled per axis (a Mapping node)."""
        tc = self.node("ShaderNodeTexCoord")
        mp = self.node("ShaderNodeMapping", vector_type="POINT")
        mp.inputs["Scale"].default_value = scale
        self.link(tc.outputs["Object"], mp.inputs["Vector"])
        return mp.outputs["Vector"]

    def noise(self, vector, scale: float, detail: float = 2.0, roughness: float = 0.5, distortion: float = 0.0):
        n = self.node("ShaderNodeTexNoise", noise_dimensions="3D")
        n.inputs["Scale"].default_value = scale
        n.inputs["Detail"].default_value = detail
        n.inputs["Roughness"].default_value = roughness
        n.inputs["Distortion"].default_value = distortion
        self.link(vector, n.inputs["Vector"])
        return n.outputs["Fac"]

    def map_range(self, value, lo: float, hi: float, from_lo: float = 0.0, from_hi: float = 1.0):
        m = self.node("ShaderNodeMapRange", clamp=True)
        m.inputs["From Min"].default_value = from_lo
        m.inputs["From Max"].default_value = from_hi
        m.inputs["To Min"].default_value = lo
        m.inputs["To Max"].default_value = hi
        self.link(value, m.inputs["Value"])
        return m.outputs["Result"]

    def math(self, op: str, a, b=None):
        m = self.node("ShaderNodeMath", operation=op)
        for i, v in enumerate((a, b)):
            if v is None:
                continue
            if isinstance(v, (int, float)):
                m.inputs[i].default_value = float(v)
            else:
                self.link(v, m.inputs[i])
        return m.outputs[0]

    def tint(self, color, factor):
        """colour x factor (a grey-scale multiplier socket)."""
        v = self.node("ShaderNodeVectorMath", operation="SCALE")
        if isinstance(color, tuple):
            v.inputs[0].default_value = color[:3]
        else:
            self.link(color, v.inputs[0])
        self.link(factor, v.inputs["Scale"])
        return v.outputs["Vector"]

    def mix_color(self, fac, a, b):
        m = self.node("ShaderNodeMix", data_type="RGBA", blend_type="MIX", clamp_factor=True)
        self.link(fac, m.inputs["Factor"])
        for sock, v in ((m.inputs[6], a), (m.inputs[7], b)):
            if isinstance(v, tuple):
                sock.default_value = (*v[:3], 1.0)
            else:
                self.link(v, sock)
        return m.outputs[2]

    def bump(self, height, strength: float, distance: float = 1.0):
        b = self.node("ShaderNodeBump")
        b.inputs["Strength"].default_value = strength
        b.inputs["Distance"].default_value = distance
        self.link(height, b.inputs["Height"])
        self.link(b.outputs["Normal"], self.bsdf.inputs["Normal"])

    def base(self, color) -> None:
        self.link(color, self.bsdf.inputs["Base Color"])

    def roughness(self, value) -> None:
        self.link(value, self.bsdf.inputs["Roughness"])


def _saturation(lin) -> float:
    return colorsys.rgb_to_hsv(*(max(0.0, c) ** (1 / 2.2) for c in lin))[1]


def add_texture(bmat: bpy.types.Material, mat: Material, bsdf: bpy.types.Node | None,
                lin: tuple[float, float, float]) -> bool:
    """Add procedural texture nodes for `mat.kind` feeding `bsdf` (base colour, roughness,
    normal). Returns whether any were added. `lin` is the linear base colour."""
    if bsdf is None or mat.kind not in TEXTURED_KINDS or mat.emission > 0:
        return False
    t = _Tree(bmat, bsdf)
    _BUILDERS[mat.kind](t, mat, tuple(lin))
    bmat["egoscene_texture"] = mat.kind
    return True


def _wood(t: _Tree, mat: Material, lin) -> None:
    # growth rings around the object's x axis: long grain lines along x on every face, the
    # wobble from noise stretched along x; painted (pale, unsaturated) wood shows little grain
    sat = _saturation(lin)
    contrast = min(1.0, max(0.12, sat * 1.8))
    co = t.coords((1.0 / WOOD_STREAK, 1.0, 1.0))
    wave = t.node("ShaderNodeTexWave", wave_type="RINGS", rings_direction="X", wave_profile="SAW")
    # Blender's rings: phase = 20 x scale x distance from the axis (radians)
    wave.inputs["Scale"].default_value = 2 * math.pi / (20 * WOOD_GRAIN_PERIOD)
    wave.inputs["Distortion"].default_value = 14.0
    wave.inputs["Detail"].default_value = 1.5
    wave.inputs["Detail Scale"].default_value = 0.4
    t.link(co, wave.inputs["Vector"])
    grain = t.map_range(wave.outputs["Fac"], 1.0 - 0.28 * contrast, 1.0 + 0.08 * contrast, 0.55, 1.0)
    slow = t.map_range(t.noise(co, 1.0 / MOTTLE, 2.0), 1.0 - 0.12 * contrast, 1.0 + 0.1 * contrast, 0.3, 0.7)
    t.base(t.tint(lin, t.math("MULTIPLY", grain, slow)))
    t.roughness(t.map_range(wave.outputs["Fac"], mat.roughness, min(1.0, mat.roughness + 0.15), 0.55, 1.0))


def _fabric(t: _Tree, mat: Material, lin) -> None:
    # woven cloth seen from a metre or two: slubs and mottling, a fine bumpy surface
    co = t.coords()
    slub = t.noise(co, 45.0, 4.0, 0.6)
    mottle = t.noise(co, 1.0 / 0.25, 2.0)
    f = t.math("MULTIPLY", t.map_range(slub, 0.85, 1.08, 0.3, 0.7), t.map_range(mottle, 0.92, 1.05, 0.3, 0.7))
    t.base(t.tint(lin, f))
    t.bump(t.noise(co, 220.0, 2.0), 0.25, 0.002)


def _carpet(t: _Tree, mat: Material, lin) -> None:
    co = t.coords()
    pile = t.noise(co, 160.0, 4.0, 0.65)
    mottle = t.noise(co, 1.0 / 0.3, 2.0)
    f = t.math("MULTIPLY", t.map_range(pile, 0.72, 1.15, 0.3, 0.7), t.map_range(mottle, 0.9, 1.06, 0.3, 0.7))
    t.base(t.tint(lin, f))
    t.bump(pile, 0.35, 0.003)


def _leather(t: _Tree, mat: Material, lin) -> None:
    co = t.coords()
    cells = t.node("ShaderNodeTexVoronoi", voronoi_dimensions="3D", feature="F1")
    cells.inputs["Scale"].default_value = 350.0
    t.link(co, cells.inputs["Vector"])
    mottle = t.noise(co, 1.0 / 0.15, 2.0)
    t.base(t.tint(lin, t.map_range(mottle, 0.85, 1.08, 0.3, 0.7)))
    t.roughness(t.map_range(mottle, mat.roughness - 0.1, mat.roughness + 0.1, 0.3, 0.7))
    t.bump(cells.outputs["Distance"], 0.2, 0.001)


def _metal(t: _Tree, mat: Material, lin) -> None:
    # brushed: streaks along x in the roughness, a faint sheen variation in colour
    co = t.coords((2.0, 120.0, 120.0))
    streak = t.noise(co, 1.0, 3.0, 0.6)
    t.roughness(t.map_range(streak, max(0.05, mat.roughness - 0.12), min(1.0, mat.roughness + 0.12), 0.3, 0.7))
    t.base(t.tint(lin, t.map_range(streak, 0.93, 1.04, 0.3, 0.7)))


def _plaster(t: _Tree, mat: Material, lin) -> None:
    # painted plaster: slow, faint patches of colour and a fine orange-peel bump
    co = t.coords()
    patches = t.noise(co, 1.0 / MOTTLE, 3.0, 0.55)
    t.base(t.tint(lin, t.map_range(patches, 0.95, 1.03, 0.3, 0.7)))
    t.bump(t.noise(co, 1.0 / PLASTER_BUMP, 3.0, 0.6), 0.12, 0.002)


def _concrete(t: _Tree, mat: Material, lin) -> None:
    co = t.coords()
    patches = t.noise(co, 1.0 / 0.4, 4.0, 0.6)
    fine = t.noise(co, 60.0, 2.0)
    f = t.math("MULTIPLY", t.map_range(patches, 0.85, 1.1, 0.3, 0.7), t.map_range(fine, 0.93, 1.04, 0.3, 0.7))
    t.base(t.tint(lin, f))
    t.bump(fine, 0.15, 0.003)


def _stone(t: _Tree, mat: Material, lin) -> None:
    # veined stone (counter tops, fireplaces): noise with strong distortion as veins
    co = t.coords()
    veins = t.noise(co, 1.0 / 0.2, 5.0, 0.6, distortion=3.0)
    speck = t.noise(co, 90.0, 2.0)
    f = t.math("MULTIPLY", t.map_range(veins, 0.82, 1.1, 0.35, 0.65), t.map_range(speck, 0.94, 1.04, 0.3, 0.7))
    t.base(t.tint(lin, f))


def _tile(t: _Tree, mat: Material, lin) -> None:
    # Floors have their tiles as geometry (render.shell), so horizontal faces only get a glaze
    # mottling; vertical faces (bathroom walls) get a grid of 20 cm tiles with grout lines,
    # box-projected onto the wall plane: u = x |n_y| + y |n_x|, v = z.
    tc = t.node("ShaderNodeTexCoord")
    sep = t.node("ShaderNodeSeparateXYZ")
    t.link(tc.outputs["Object"], sep.inputs[0])
    nrm = t.node("ShaderNodeSeparateXYZ")
    t.link(tc.outputs["Normal"], nrm.inputs[0])
    u = t.math("ADD", t.math("MULTIPLY", sep.outputs[0], t.math("ABSOLUTE", nrm.outputs[1])),
               t.math("MULTIPLY", sep.outputs[1], t.math("ABSOLUTE", nrm.outputs[0])))
    uv = t.node("ShaderNodeCombineXYZ")
    t.link(u, uv.inputs[0])
    t.link(sep.outputs[2], uv.inputs[1])
    brick = t.node("ShaderNodeTexBrick", offset=0.0, offset_frequency=1, squash=1.0, squash_frequency=1)
    brick.inputs["Scale"].default_value = 1.0
    brick.inputs["Brick Width"].default_value = WALL_TILE[0]
    brick.inputs["Row Height"].default_value = WALL_TILE[1]
    brick.inputs["Mortar Size"].default_value = WALL_GROUT
    brick.inputs["Mortar Smooth"].default_value = 0.3
    brick.inputs["Bias"].default_value = 0.0
    brick.inputs["Color1"].default_value = (*lin, 1.0)
    brick.inputs["Color2"].default_value = (*(c * 0.93 for c in lin), 1.0)
    grout = tuple(min(1.0, c * 0.55 + 0.12) for c in lin)
    brick.inputs["Mortar"].default_value = (*grout, 1.0)
    t.link(uv.outputs[0], brick.inputs["Vector"])
    vertical = t.map_range(t.math("ABSOLUTE", nrm.outputs[2]), 1.0, 0.0, 0.3, 0.7)
    glaze = t.map_range(t.noise(tc.outputs["Object"], 1.0 / 0.3, 2.0), 0.95, 1.04, 0.3, 0.7)
    t.base(t.mix_color(vertical, t.tint(lin, glaze), brick.outputs["Color"]))
    grout_on_wall = t.math("MULTIPLY", brick.outputs["Fac"], vertical)
    t.roughness(t.map_range(grout_on_wall, mat.roughness, 0.8))
    t.bump(t.math("SUBTRACT", 1.0, grout_on_wall), 0.6, 0.002)


def _glass(t: _Tree, mat: Material, lin) -> None:
    # Cycles traces no light through refracting surfaces to a diffuse one (caustics are off):
    # windows would keep the sun and sky out. Shadow and diffuse rays see thin, faintly
    # tinted clear glass instead, so daylight comes in; the camera still sees the glass.
    nt = t.nt
    out = next(n for n in nt.nodes if n.type == "OUTPUT_MATERIAL")
    lp = t.node("ShaderNodeLightPath")
    clear = t.node("ShaderNodeBsdfTransparent")
    clear.inputs["Color"].default_value = (*(0.75 + 0.25 * c for c in lin), 1.0)
    fac = t.math("MAXIMUM", lp.outputs["Is Shadow Ray"], lp.outputs["Is Diffuse Ray"])
    mix = t.node("ShaderNodeMixShader")
    t.link(fac, mix.inputs["Fac"])
    t.link(t.bsdf.outputs["BSDF"], mix.inputs[1])
    t.link(clear.outputs["BSDF"], mix.inputs[2])
    t.link(mix.outputs["Shader"], out.inputs["Surface"])


_BUILDERS = {"wood": _wood, "fabric": _fabric, "carpet": _carpet, "leather": _leather, "metal": _metal,
             "tile": _tile, "plaster": _plaster, "concrete": _concrete, "stone": _stone, "glass": _glass}
