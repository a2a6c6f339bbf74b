"""Builders for openings, wall things and fixtures: doors, windows, pictures, mirrors, curtains,
the fireplace, bath, toilet, washstand and sink (local frame: +y front, z up, origin at the
footprint centre on the floor; each builder fills the box (b.w, b.d, b.h))."""

from __future__ import annotations

import math

import numpy as np

from assets.geometry import (box, cuboid, cylinder, disc_y, ellipse, extrude, frame_xz, frustum,
                             lathe, merge, moved, ring_prism, rod, rotated, rounded_rect, scaled,
                             slab, sphere, torus, tube)
from assets.builder import Builder, builder
from assets.pieces import DARK_WOOD, STEEL, WHITE, fronts


# --- openings and wall things ------------------------------------------------------------

DOOR_JAMB, DOOR_LEAF_THICKNESS = 0.06, 0.04


def open_leaf_corners(width: float, angle: float) -> list[tuple[float, float]]:
    """Plan corners of a door object's leaf opened by `angle` degrees, in the model's frame
    (x across the opening, +y the front it swings into): what the walk must keep clear of."""
    lw, lt = width - 2 * DOOR_JAMB - 0.006, DOOR_LEAF_THICKNESS
    x0 = -width / 2 + DOOR_JAMB + 0.003
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(x0 + c * dx - s * dy, lt / 2 + s * dx + c * dy) for dx, dy in ((0, -lt), (lw, -lt), (lw, 0), (0, 0))]


def open_leaf_plan(x: float, y: float, yaw: float, width: float, angle: float) -> list[tuple[float, float]]:
    """open_leaf_corners of a door object standing at (x, y) with its front facing `yaw`
    (degrees CCW from +x), in world plan coordinates: one reading for the placement, which keeps
    the room walkable round the leaf, and the walk, which goes round it."""
    t = math.radians(yaw - 90.0)
    c, s = round(math.cos(t), 12) + 0.0, round(math.sin(t), 12) + 0.0   # exact on walls along the axes
    return [(x + c * lx - s * ly, y + s * lx + c * ly) for lx, ly in open_leaf_corners(width, angle)]


@builder("door")
def door(b: Builder):
    w, d, h = b.w, b.d, b.h
    jamb = DOOR_JAMB
    b.add("frame", [cuboid(-w / 2, -w / 2 + jamb, -d / 2, d / 2, 0, h),
                    cuboid(w / 2 - jamb, w / 2, -d / 2, d / 2, 0, h),
                    cuboid(-w / 2 + jamb, w / 2 - jamb, -d / 2, d / 2, h - jamb, h)], b.mat("wood", WHITE)
          if b.color_name != "white" else b.mat("wood", (0.85, 0.84, 0.8)))
    lw, lh, lt = w - 2 * jamb - 0.006, h - jamb - 0.01, DOOR_LEAF_THICKNESS
    x0 = -w / 2 + jamb + 0.003
    leaf = [cuboid(x0, x0 + lw, -lt / 2, lt / 2, 0.008, 0.008 + lh)]
    panels = []
    rows = b.choice([2, 3])
    zs = np.linspace(0.12, lh - 0.12, rows + 1)
    for i in range(rows):
        for sy in (-1, 1):
            yb, yt = (lt / 2, lt / 2 + 0.008) if sy > 0 else (-lt / 2 - 0.008, -lt / 2)
            panels.append(cuboid(x0 + 0.1, x0 + lw - 0.1, yb, yt, zs[i] + 0.04, zs[i + 1] - 0.04))
    hx = x0 + lw - 0.07
    reach = max(0.025, d / 2 - lt / 2 - 0.01)   # lever standoff, kept within the frame depth
    hardware = []
    for sy in (-1, 1):
        yf = sy * lt / 2
        hardware += [disc_y(0.028, min(yf, yf + sy * 0.01), max(yf, yf + sy * 0.01), hx, 1.0, 16),
                     rod((hx, yf + sy * reach, 1.0), (hx - 0.12, yf + sy * reach, 1.0), 0.009, 10),
                     rod((hx, yf, 1.0), (hx, yf + sy * reach, 1.0), 0.008, 10)]
    hinges = [cylinder(0.01, z, z + 0.1, x0, lt / 2, 10) for z in (0.25, lh - 0.35)]
    parts = [("leaf", leaf, b.main), ("panels", panels, b.main_as("wood", 1.07)),
             ("handle", hardware + hinges, b.mat("chrome", STEEL))]
    angle = float(b.attributes.get("open_angle", 0) or 0)
    for name, meshes, mat in parts:
        mesh = merge(meshes)
        if angle:
            mesh = rotated(mesh, "z", angle, (x0, lt / 2, 0))  # swings into +y about the hinge
        b.add(name, mesh, mat)


@builder("window")
def window(b: Builder):
    w, d, h = b.w, b.d, b.h
    bar = 0.06
    b.add("frame", frame_xz(w, h, bar, -d / 2, d / 2 - 0.04))
    n = 2 if w < 1.5 else 3
    sash = (w - 2 * bar) / n
    sashes, panes = [], []
    for i in range(n):
        cx = -w / 2 + bar + (i + 0.5) * sash
        yb = -0.02 + (0.012 if i % 2 else 0)
        sashes.append(moved(frame_xz(sash, h - 2 * bar, 0.045, yb, yb + 0.04), (cx, 0, bar)))
        panes.append(box((cx, yb + 0.02, h / 2), (sash - 0.08, 0.006, h - 2 * bar - 0.08)))
    transom = h > 1.1
    if transom:
        sashes.append(cuboid(-w / 2 + bar, w / 2 - bar, -0.02, 0.02, h * 0.72, h * 0.72 + 0.04))
    b.add("sashes", sashes, b.main_as("wood", 0.97))
    b.add("glass", panes, b.mat("glass", (0.7, 0.82, 0.9)))
    b.add("sill", cuboid(-w / 2, w / 2, -d / 2, d / 2, 0, 0.03), b.main_as("wood", 0.92))
    b.add("handles", [cuboid(-w / 2 + bar + sash - 0.04, -w / 2 + bar + sash - 0.025, 0.02, 0.045,
                             h / 2 - 0.06, h / 2 + 0.06)], b.mat("chrome", STEEL))


ARTWORKS = ("landscape", "sea", "abstract", "flowers")   # what a picture shows


@builder("picture")
def picture(b: Builder):
    w, d, h = b.w, b.d, b.h
    bar = min(0.05, 0.08 * min(w, h))
    b.add("frame", frame_xz(w, h, bar, -d / 2, d / 2))
    y = d / 2 - 0.012   # canvas surface, recessed behind the frame front
    b.add("mat", cuboid(-w / 2 + bar, w / 2 - bar, -d / 2, y - 0.001, bar, h - bar), b.mat("paper", (0.95, 0.94, 0.9)))
    iw, ih = w - 2 * bar - 0.04, h - 2 * bar - 0.04
    z0 = bar + 0.02
    drawn = b.choice(list(ARTWORKS))     # drawn always, so a chosen artwork leaves the rest as drawn
    scene = b.attributes.get("artwork") if b.attributes.get("artwork") in ARTWORKS else drawn

    def rect(x0, x1, z_0, z_1, layer):
        return cuboid(x0, x1, y + 0.0005 * layer, y + 0.0005 * (layer + 1), z_0, z_1)

    def disc(cx, cz, r, layer):
        return moved(rotated(cylinder(r, 0, 0.0005, sections=24), "x", -90), (cx, y + 0.0005 * layer, cz))

    if scene in ("landscape", "sea"):
        horizon = z0 + ih * b.uniform(0.35, 0.5)
        b.add("sky", rect(-iw / 2, iw / 2, horizon, z0 + ih, 0), b.mat("paper", (0.45, 0.68, 0.92)))
        ground = (0.2, 0.42, 0.72) if scene == "sea" else (0.3, 0.55, 0.2)
        b.add("ground", rect(-iw / 2, iw / 2, z0, horizon, 0), b.mat("paper", ground))
        hill = [(-iw / 2, horizon - 0.001), (iw / 2, horizon - 0.001)] + [
            (x, horizon + ih * 0.18 * math.sin(math.pi * (x + iw / 2) / iw) ** 2)
            for x in np.linspace(iw / 2, -iw / 2, 12)]
        if scene == "landscape":
            hill_m = moved(rotated(extrude(hill, 0, 0.0005), "x", 90), (0, y + 0.0015, 0))
            b.add("hill", hill_m, b.mat("paper", (0.45, 0.35, 0.55)))
        b.add("sun", disc(iw * 0.25, z0 + ih * 0.78, min(iw, ih) * 0.09, 2), b.mat("paper", (0.98, 0.85, 0.2)))
    elif scene == "abstract":
        cols = [(0.85, 0.2, 0.15), (0.95, 0.8, 0.2), (0.15, 0.3, 0.7), (0.95, 0.95, 0.93)]
        b.add("a", rect(-iw / 2, 0.1 * iw, z0 + ih * 0.4, z0 + ih, 0), b.mat("paper", cols[0]))
        b.add("b", rect(0.1 * iw, iw / 2, z0 + ih * 0.6, z0 + ih, 0), b.mat("paper", cols[1]))
        b.add("c", rect(-iw / 2, iw / 2, z0, z0 + ih * 0.4, 0), b.mat("paper", cols[2]))
        b.add("d", rect(0.1 * iw, iw / 2, z0 + ih * 0.4, z0 + ih * 0.6, 0), b.mat("paper", cols[3]))
    else:
        b.add("background", rect(-iw / 2, iw / 2, z0, z0 + ih, 0), b.mat("paper", (0.93, 0.88, 0.75)))
        vase_w = iw * 0.3
        b.add("vase", rect(-vase_w / 2, vase_w / 2, z0, z0 + ih * 0.35, 1), b.mat("paper", (0.2, 0.35, 0.7)))
        b.add("stems", [rect(x - 0.004, x + 0.004, z0 + ih * 0.3, z0 + ih * 0.6, 1)
                        for x in (-vase_w * 0.3, 0, vase_w * 0.3)], b.mat("paper", (0.2, 0.5, 0.2)))
        b.add("blooms", [disc(x, z0 + ih * (0.65 + 0.1 * (i == 1)), min(iw, ih) * 0.1, 2)
                         for i, x in enumerate((-vase_w * 0.5, 0, vase_w * 0.5))],
              b.mat("paper", (0.9, 0.25, 0.3)))


@builder("mirror")
def mirror(b: Builder):
    w, d, h = b.w, b.d, b.h
    oval = b.rng.random() < 0.35
    bar = 0.04
    if oval:
        outer = ellipse(w / 2, h / 2, 40, (0, h / 2))
        inner = ellipse(w / 2 - bar, h / 2 - bar, 40, (0, h / 2))
        frame = moved(rotated(ring_prism(outer, inner, 0, d), "x", 90), (0, d / 2, 0))
        glass = moved(rotated(extrude(inner, 0, d - 0.008), "x", 90), (0, d / 2 - 0.008, 0))
    else:
        frame = frame_xz(w, h, bar, -d / 2, d / 2)
        glass = cuboid(-w / 2 + bar, w / 2 - bar, -d / 2, d / 2 - 0.008, bar, h - bar)
    b.add("frame", frame)
    b.add("glass", glass, b.mat("mirror", (0.80, 0.86, 0.90)))
    # two diagonal glints: how people draw (and recognise) a mirror in flat shading
    y = d / 2 - 0.007
    glints = []
    for off, width in ((-0.12, 0.05), (0.0, 0.025)):
        cx = off * w
        poly = [(cx - 0.2 * w, 0.45 * h), (cx - 0.2 * w + width, 0.45 * h),
                (cx + 0.05 * w + width, 0.75 * h), (cx + 0.05 * w, 0.75 * h)]
        glints.append(moved(rotated(extrude(poly, 0, 0.001), "x", 90), (0, y + 0.001, 0)))
    b.add("glints", glints, b.mat("mirror", (0.97, 0.98, 1.0), metallic=0.0, roughness=0.05))


@builder("curtain")
def curtain(b: Builder):
    w, d, h = b.w, b.d, b.h
    rod_z = h - 0.03
    b.add("rod", [rod((-w / 2 + 0.03, 0, rod_z), (w / 2 - 0.03, 0, rod_z), 0.012, 10),
                  sphere((-w / 2 + 0.028, 0, rod_z), 0.028, 10), sphere((w / 2 - 0.028, 0, rod_z), 0.028, 10)],
          b.mat("metal", (0.3, 0.3, 0.3)))
    panel_w = w * b.uniform(0.3, 0.38)
    amp = d / 2 - 0.006
    folds = max(3, int(panel_w / 0.12))
    panels = []
    for sx in (-1, 1):
        x_out, x_in = sx * (w / 2 - 0.05), sx * (w / 2 - 0.05 - panel_w)
        xs = np.linspace(min(x_out, x_in), max(x_out, x_in), folds * 8)
        ys = amp * np.sin((xs - xs[0]) / (xs[-1] - xs[0]) * folds * 2 * math.pi)
        front = list(zip(xs, ys + 0.006))
        back = list(zip(xs[::-1], ys[::-1] - 0.006))
        panels.append(extrude(front + back, 0, rod_z - 0.02))
    b.add("panels", panels)
    b.add("rings", [torus(0.02, 0.004, (x, 0, rod_z), "x", 12, 6)
                    for sx in (-1, 1) for x in np.linspace(sx * (w / 2 - 0.06), sx * (w / 2 - 0.04 - panel_w), 5)],
          b.mat("metal", (0.3, 0.3, 0.3)))


@builder("fireplace")
def fireplace(b: Builder):
    w, d, h = b.w, b.d, b.h
    body_d = 0.65 * d
    yb = -d / 2 + body_d
    pil = 0.2 * w
    open_h = 0.62 * h
    b.add("surround", [cuboid(-w / 2 + 0.03, -w / 2 + 0.03 + pil, -d / 2, yb, 0.05, h - 0.06),
                       cuboid(w / 2 - 0.03 - pil, w / 2 - 0.03, -d / 2, yb, 0.05, h - 0.06),
                       cuboid(-w / 2 + 0.03 + pil, w / 2 - 0.03 - pil, -d / 2, yb, open_h, h - 0.06)])
    b.add("mantel", cuboid(-w / 2, w / 2, -d / 2, yb + 0.06, h - 0.06, h), b.mat("wood", DARK_WOOD)
          if b.rng.random() < 0.5 else b.main_as("stone", 0.9))
    ix0, ix1 = -w / 2 + 0.03 + pil, w / 2 - 0.03 - pil
    b.add("firebox", [cuboid(ix0 + 0.02, ix1 - 0.02, -d / 2, -d / 2 + 0.03, 0.05, open_h - 0.02),
                      cuboid(ix0, ix0 + 0.02, -d / 2, yb - 0.02, 0.05, open_h - 0.02),
                      cuboid(ix1 - 0.02, ix1, -d / 2, yb - 0.02, 0.05, open_h - 0.02),
                      cuboid(ix0, ix1, -d / 2, yb - 0.02, open_h - 0.02, open_h)], b.mat("stone", (0.08, 0.07, 0.07)))
    b.add("hearth", cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2, d / 2, 0, 0.05), b.mat("stone", (0.25, 0.24, 0.24)))
    cy = -d / 2 + 0.5 * (body_d - 0.02)
    iw = ix1 - ix0
    logs = [rod((-iw * 0.35, cy - 0.04, 0.09), (iw * 0.35, cy + 0.02, 0.09), 0.04, 10),
            rod((-iw * 0.3, cy + 0.05, 0.09), (iw * 0.3, cy - 0.03, 0.1), 0.035, 10),
            rod((-iw * 0.2, cy, 0.16), (iw * 0.25, cy + 0.01, 0.15), 0.035, 10)]
    b.add("logs", logs, b.mat("wood", (0.35, 0.2, 0.1)))
    flame_h = (open_h - 0.2) * 0.75
    flames = [frustum(0.06, 0.002, 0.12, 0.12 + flame_h * s, x * iw, cy, 10)
              for x, s in ((-0.2, 0.7), (0.0, 1.0), (0.2, 0.8))]
    b.add("flames", flames, b.mat("light", (1.0, 0.45, 0.05), emission=6.0))
    b.add("inner flames", [frustum(0.035, 0.002, 0.12, 0.12 + flame_h * 0.6 * s, x * iw, cy + 0.03, 10)
                           for x, s in ((-0.1, 0.8), (0.1, 1.0))], b.mat("light", (1.0, 0.85, 0.2), emission=8.0))
    b.surface(h)


# --- bathroom, kitchen fixtures ---------------------------------------------------------

def faucet(x, y, z, height, reach, chrome):
    """Gooseneck tap rising from (x, y, z), spout pointing +y."""
    pts = [(x, y, z), (x, y, z + height * 0.6)] + [
        (x, y + reach / 2 - reach / 2 * math.cos(a), z + height * 0.6 + reach / 2 * math.sin(a) * 0.9)
        for a in np.linspace(0.2, math.pi, 8)]
    pts = [(px, py, min(pz, z + height - 0.01)) for px, py, pz in pts]
    return [tube(pts, 0.012, 10), cylinder(0.022, z, z + 0.04, x, y, 12),
            rod((x, y, z + height * 0.3), (x + 0.06, y, z + height * 0.3), 0.008, 8)]


@builder("bath")
def bath(b: Builder):
    w, d, h = b.w, b.d, b.h
    t = 0.07
    outer = rounded_rect(w, d, 0.06, 6)
    inner = rounded_rect(w - 2 * t, d - 2 * t, 0.2, 6)
    b.add("tub", [ring_prism(outer, inner, 0, h - 0.02), slab(inner, 0, 0.12)])
    b.add("rim", ring_prism(rounded_rect(w, d, 0.06, 6), rounded_rect(w - 2 * t + 0.01, d - 2 * t + 0.01, 0.2, 6),
                            h - 0.02, h), b.main_as("ceramic", 1.03))
    b.add("inside", slab(rounded_rect(w - 2 * t - 0.002, d - 2 * t - 0.002, 0.2, 6), 0.12, 0.1212),
          b.main_as("ceramic", 0.9))
    chrome = b.mat("chrome", STEEL)
    x = -w / 2 + t / 2
    spout = tube([(x - 0.01, 0, h), (x, 0, h + 0.0), (x + 0.08, 0, h - 0.0)], 0.015, 10)
    b.add("taps", [spout, cylinder(0.022, h, h + 0.012, x, -0.12, 12), cylinder(0.022, h, h + 0.012, x, 0.12, 12),
                   rod((x, 0, h), (x + 0.1, 0, h), 0.014, 10)], chrome)
    b.add("drain", cylinder(0.025, 0.1212, 0.123, -w / 2 + t + 0.15, 0, 16), chrome)


@builder("toilet")
def toilet(b: Builder):
    w, d, h = b.w, b.d, b.h
    porcelain = b.main
    tank_d = 0.19
    seat_z = 0.4
    bowl_len = d - tank_d + 0.04
    bowl_r = w / 2 - 0.02
    sy = bowl_len / 2 / bowl_r          # stretch the round bowl into an oval along y
    cy = d / 2 - bowl_len / 2
    ped = lathe([(0, 0), (0.12, 0), (0.1, 0.08), (0.11, 0.25), (bowl_r * 0.9, seat_z - 0.06), (0, seat_z - 0.06)], 24)
    bowl = lathe([(bowl_r * 0.9, seat_z - 0.08), (bowl_r, seat_z - 0.02), (bowl_r - 0.025, seat_z - 0.01),
                  (bowl_r * 0.55, seat_z - 0.1), (0.05, seat_z - 0.17), (0, seat_z - 0.17)], 28)
    b.add("bowl", [moved(scaled(m, (1, sy * 0.92, 1)), (0, cy, 0)) for m in (ped, bowl)], porcelain)
    b.add("water", moved(scaled(cylinder(bowl_r * 0.45, seat_z - 0.12, seat_z - 0.119, sections=20), (1, sy, 1)),
                         (0, cy + 0.02, 0)), b.mat("liquid", (0.6, 0.75, 0.85)))
    seat_rgb = WHITE if b.rng.random() < 0.7 else (0.12, 0.12, 0.13)
    seat = scaled(torus(bowl_r - 0.05, 0.04, (0, 0, 0), "z", 28, 8), (1, sy * 0.92, 0.35))
    b.add("seat", moved(seat, (0, cy, seat_z + 0.004)), b.mat("plastic", seat_rgb))
    lid_ry = min((bowl_r - 0.01) * sy * 0.92, (h - seat_z - 0.012) / 2)
    lid = moved(rotated(slab(ellipse(bowl_r - 0.01, lid_ry, 28), 0, 0.02), "x", -90),
                (0, -d / 2 + tank_d + 0.005, seat_z + lid_ry + 0.01))
    b.add("lid", lid, b.mat("plastic", seat_rgb))
    tank_top = h - 0.1
    b.add("tank", [cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2, -d / 2 + tank_d, seat_z - 0.05, tank_top - 0.025),
                   cuboid(-w / 2, w / 2, -d / 2, -d / 2 + tank_d, tank_top - 0.025, tank_top)], porcelain)
    b.add("flush", cylinder(0.025, tank_top, tank_top + 0.005, 0, -d / 2 + tank_d / 2 - 0.02, 16), b.mat("chrome", STEEL))


@builder("washstand")
def washstand(b: Builder):
    w, d, h = b.w, b.d, b.h
    counter = 0.82 * h
    yb = d / 2 - 0.05
    wood = b.main_as("wood") if b.color_name not in ("white",) else b.main_as("wood", 1.0)
    b.add("cabinet", [cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2, yb, 0.1, counter - 0.03),
                      cuboid(-w / 2 + 0.04, w / 2 - 0.04, -d / 2, yb - 0.04, 0, 0.1)], wood)
    p, hd = fronts(-w / 2 + 0.01, w / 2 - 0.01, 0.1, counter - 0.035, yb, 1, 2 if w > 0.55 else 1, "door", "bar_v")
    b.add("doors", p, b.main_as("wood", 1.06))
    chrome = b.mat("chrome", STEEL)
    ceramic = b.mat("ceramic", WHITE)
    b.add("counter", cuboid(-w / 2, w / 2, -d / 2, d / 2, counter - 0.03, counter), ceramic)
    r = min(w * 0.36, 0.22)
    basin_h = min(0.13, h - counter - 0.03)
    basin = lathe([(r * 0.55, 0), (r * 0.8, basin_h * 0.3), (r, basin_h), (r - 0.012, basin_h),
                   (r * 0.75, basin_h * 0.35), (0, basin_h * 0.15)], 32)
    bcy = 0.03
    b.add("basin", moved(scaled(basin, (1, 0.8, 1)), (0, bcy, counter)), ceramic)
    b.add("drain", cylinder(0.02, counter + basin_h * 0.15, counter + basin_h * 0.15 + 0.003, 0, bcy, 12), chrome)
    fy = -d / 2 + 0.05
    b.add("faucet", hd + faucet(0, fy, counter, h - counter, min(0.16, bcy - fy + 0.05), chrome), chrome)
    b.surface(counter, -w / 2, -r, -d / 2, d / 2)
    b.surface(counter, r, w / 2, -d / 2, d / 2)


@builder("sink")
def sink(b: Builder):
    w, d, h = b.w, b.d, b.h
    counter = 0.74 * h
    yb = d / 2 - 0.05
    b.add("cabinet", [cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2, yb, 0.1, counter - 0.035),
                      cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2, yb - 0.05, 0, 0.1)], b.main_as("wood", 0.9))
    p, hd = fronts(-w / 2 + 0.01, w / 2 - 0.01, 0.1, counter - 0.04, yb, 1, 2, "door", "bar_v")
    b.add("doors", p, b.main_as("wood", 1.05))
    steel = b.mat("metal", STEEL)
    chrome = b.mat("chrome", STEEL)
    bw, bd = min(0.6, w - 0.2), min(0.42, d - 0.14)
    by = 0.01
    top_rgb = b.choice([(0.2, 0.2, 0.22), (0.85, 0.84, 0.8), (0.55, 0.5, 0.45)])
    top = b.mat("stone", top_rgb)
    zt, zb = counter, counter - 0.035
    b.add("countertop", [cuboid(-w / 2, -bw / 2, -d / 2, d / 2, zb, zt), cuboid(bw / 2, w / 2, -d / 2, d / 2, zb, zt),
                         cuboid(-bw / 2, bw / 2, -d / 2, by - bd / 2, zb, zt),
                         cuboid(-bw / 2, bw / 2, by + bd / 2, d / 2, zb, zt)], top)
    depth = 0.18
    basin = [cuboid(-bw / 2 + 0.01, bw / 2 - 0.01, by - bd / 2 + 0.01, by + bd / 2 - 0.01, zt - depth - 0.01, zt - depth),
             cuboid(-bw / 2, -bw / 2 + 0.01, by - bd / 2 + 0.01, by + bd / 2 - 0.01, zt - depth, zt + 0.004),
             cuboid(bw / 2 - 0.01, bw / 2, by - bd / 2 + 0.01, by + bd / 2 - 0.01, zt - depth, zt + 0.004),
             cuboid(-bw / 2, bw / 2, by - bd / 2, by - bd / 2 + 0.01, zt - depth, zt + 0.004),
             cuboid(-bw / 2, bw / 2, by + bd / 2 - 0.01, by + bd / 2, zt - depth, zt + 0.004)]
    b.add("basin", basin, steel)
    b.add("drain", cylinder(0.03, zt - depth, zt - depth + 0.003, 0, by, 16), b.mat("metal", (0.3, 0.3, 0.3)))
    fy = -d / 2 + 0.05
    b.add("faucet", hd + faucet(0, fy, zt, h - zt, min(0.22, by - fy + 0.02), chrome), chrome)
    b.surface(counter, -w / 2, -bw / 2, -d / 2, d / 2)
    b.surface(counter, bw / 2, w / 2, -d / 2, d / 2)
