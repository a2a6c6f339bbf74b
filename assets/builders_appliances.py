"""Builders for appliances, electronics and lights (+y front, z up, fill (b.w, b.d, b.h))."""

from __future__ import annotations

import math

import numpy as np
import trimesh

from assets.geometry import (cuboid, cylinder, disc_y, extrude, extrude_yz, lathe, moved, rod,
                             rotated, rounded_rect, slab, sphere, superellipsoid, torus, tube)
from assets.builder import Builder, builder
from assets.categories import BULB_SOCKET_H, bulb_glass_height

BLACK = (0.05, 0.05, 0.06)
DARK = (0.12, 0.12, 0.13)
STEEL = (0.78, 0.79, 0.80)
WHITE = (0.93, 0.93, 0.91)
GLASS_DARK = (0.07, 0.08, 0.1)


def _desktop(b: Builder, x0, x1, z0, z1, y):
    """Parts of a lit screen showing a desktop (wallpaper, a window, a taskbar) in the (x, z)
    plane at y, facing +y. Returns [(name, mesh, material)] so callers can transform them."""
    def panel(xa, xb, za, zb, layer):
        return cuboid(xa, xb, y + 0.0006 * layer, y + 0.0006 * (layer + 1), za, zb)
    wall = b.choice([(0.15, 0.4, 0.75), (0.1, 0.55, 0.6), (0.35, 0.25, 0.6)])
    sw, sh = x1 - x0, z1 - z0
    return [("screen", panel(x0, x1, z0, z1, 0), b.mat("light", wall, emission=1.2)),
            ("window", panel(x0 + sw * 0.2, x0 + sw * 0.7, z0 + sh * 0.25, z0 + sh * 0.85, 1),
             b.mat("light", (0.95, 0.95, 0.95), emission=1.2)),
            ("title bar", panel(x0 + sw * 0.2, x0 + sw * 0.7, z0 + sh * 0.78, z0 + sh * 0.85, 2),
             b.mat("light", (0.3, 0.3, 0.35), emission=1.0)),
            ("taskbar", panel(x0, x1, z0, z0 + sh * 0.07, 1), b.mat("light", (0.1, 0.1, 0.12), emission=1.0))]


def _keyboard(x0, x1, y0, y1, z0, rows=5, cols=14, key_h=0.006):
    keys = []
    kw, kd = (x1 - x0) / cols, (y1 - y0) / rows
    for r in range(rows):
        for c in range(cols):
            keys.append(cuboid(x0 + c * kw + kw * 0.12, x0 + (c + 1) * kw - kw * 0.12,
                               y0 + r * kd + kd * 0.12, y0 + (r + 1) * kd - kd * 0.12, z0, z0 + key_h))
    return keys


@builder("fridge")
def fridge(b: Builder):
    w, d, h = b.w, b.d, b.h
    yb = d / 2 - 0.04
    body = b.main_as("metal", 0.93) if b.color_name in ("silver",) else b.main_as("painted metal", 0.93)
    b.add("body", cuboid(-w / 2, w / 2, -d / 2, yb, 0.0, h), body)
    b.add("grille", cuboid(-w / 2 + 0.03, w / 2 - 0.03, yb, yb + 0.01, 0.02, 0.09), b.mat("plastic", BLACK))
    door = b.main_as("metal") if b.color_name in ("silver",) else b.main_as("painted metal")
    handle = b.mat("chrome", STEEL)
    side_by_side = w > 0.78
    gap = 0.006
    if side_by_side:
        b.add("doors", [cuboid(-w / 2, -gap, yb, d / 2 - 0.03, 0.1, h - 0.01),
                        cuboid(gap, w / 2, yb, d / 2 - 0.03, 0.1, h - 0.01)], door)
        bars = [rod((sx * 0.05, d / 2 - 0.005, h * 0.35), (sx * 0.05, d / 2 - 0.005, h * 0.8), 0.012, 10)
                for sx in (-1, 1)]
        bars += [rod((sx * 0.05, d / 2 - 0.03, z), (sx * 0.05, d / 2 - 0.005, z), 0.01, 8)
                 for sx in (-1, 1) for z in (h * 0.35, h * 0.8)]
        b.add("dispenser", cuboid(-w / 4 - 0.1, -w / 4 + 0.1, d / 2 - 0.03, d / 2 - 0.025, h * 0.5, h * 0.68),
              b.mat("plastic", DARK))
    else:
        split = h * b.uniform(0.64, 0.7)
        b.add("doors", [cuboid(-w / 2, w / 2, yb, d / 2 - 0.03, 0.1, split - gap),
                        cuboid(-w / 2, w / 2, yb, d / 2 - 0.03, split + gap, h - 0.01)], door)
        hx = w / 2 - 0.06
        bars = [rod((hx, d / 2 - 0.005, split - 0.55), (hx, d / 2 - 0.005, split - 0.1), 0.012, 10),
                rod((hx, d / 2 - 0.005, split + 0.08), (hx, d / 2 - 0.005, split + 0.3), 0.012, 10)]
        bars += [rod((hx, d / 2 - 0.03, z), (hx, d / 2 - 0.005, z), 0.01, 8)
                 for z in (split - 0.55, split - 0.1, split + 0.08, split + 0.3)]
    b.add("handles", bars, handle)
    b.add("gasket", cuboid(-w / 2 + 0.005, w / 2 - 0.005, yb - 0.002, yb + 0.004, 0.105, h - 0.015), b.mat("rubber", DARK))


@builder("stove")
def stove(b: Builder):
    w, d, h = b.w, b.d, b.h
    yb = d / 2 - 0.03
    panel_h = 0.1
    enamel = b.main_as("metal") if b.color_name == "silver" else b.main_as("painted metal")
    b.add("body", cuboid(-w / 2, w / 2, -d / 2, yb, 0.08, h - 0.03), enamel)
    b.add("plinth", cuboid(-w / 2 + 0.02, w / 2 - 0.02, -d / 2, yb - 0.04, 0, 0.08), b.mat("plastic", BLACK))
    b.add("cooktop", cuboid(-w / 2, w / 2, -d / 2 + 0.03, d / 2, h - 0.03, h - 0.02), b.mat("metal", (0.75, 0.75, 0.77), metallic=0.5))
    b.add("backguard", cuboid(-w / 2, w / 2, -d / 2, -d / 2 + 0.03, h - 0.03, h), enamel)
    # four burners: dark rings with cast-iron grates, the stove's signature from above
    burners, grates, caps = [], [], []
    bx, by = w * 0.24, (d - 0.06) * 0.23
    for i, (sx, sy) in enumerate(((-1, -1), (1, -1), (-1, 1), (1, 1))):
        x, y = sx * bx, 0.015 + sy * by
        r = 0.085 if i in (1, 2) else 0.065
        burners.append(cylinder(r, h - 0.02, h - 0.012, x, y, 24))
        caps.append(cylinder(r * 0.45, h - 0.012, h - 0.006, x, y, 16))
        grates += [cuboid(x - r - 0.02, x + r + 0.02, y - 0.006, y + 0.006, h - 0.012, h - 0.004),
                   cuboid(x - 0.006, x + 0.006, y - r - 0.02, y + r + 0.02, h - 0.012, h - 0.004)]
    b.add("burners", burners, b.mat("metal", (0.12, 0.12, 0.13)))
    b.add("burner caps", caps, b.mat("metal", BLACK))
    b.add("grates", grates, b.mat("metal", (0.04, 0.04, 0.04), roughness=0.7, metallic=0.2))
    b.add("control panel", cuboid(-w / 2 + 0.01, w / 2 - 0.01, yb, yb + 0.01, h - 0.03 - panel_h, h - 0.03),
          b.mat("plastic", DARK))
    knobs = [disc_y(0.018, yb + 0.01, yb + 0.03, x, h - 0.03 - panel_h / 2, 16)
             for x in np.linspace(-w / 2 + 0.09, w / 2 - 0.09, 5)]
    b.add("knobs", knobs, b.mat("chrome", STEEL))
    # lower cabinet: two doors (not an oven window, so a stove does not read as an oven)
    dz1 = h - 0.04 - panel_h
    doors = [cuboid(-w / 2 + 0.01, -0.003, yb, yb + 0.018, 0.09, dz1), cuboid(0.003, w / 2 - 0.01, yb, yb + 0.018, 0.09, dz1)]
    b.add("doors", doors, enamel)
    b.add("door handles", [rod((sx * 0.04, yb + 0.03, dz1 - 0.2), (sx * 0.04, yb + 0.03, dz1 - 0.05), 0.008, 8)
                           for sx in (-1, 1)] +
          [rod((sx * 0.04, yb + 0.018, z), (sx * 0.04, yb + 0.03, z), 0.006, 8) for sx in (-1, 1) for z in (dz1 - 0.2, dz1 - 0.05)],
          b.mat("chrome", STEEL))
    b.surface(h - 0.004, -w / 2, w / 2, -d / 2 + 0.03, d / 2)


@builder("oven")
def oven(b: Builder):
    w, d, h = b.w, b.d, b.h
    yb = d / 2 - 0.07   # door (20 mm) + handle bar (47 mm) in front of the body
    body = b.main_as("metal") if b.color_name == "silver" else b.main_as("painted metal")
    panel_h = 0.13
    b.add("body", cuboid(-w / 2, w / 2, -d / 2, yb, 0.06, h), body)
    b.add("plinth", cuboid(-w / 2 + 0.02, w / 2 - 0.02, -d / 2, yb - 0.04, 0, 0.06), b.mat("plastic", BLACK))
    b.add("control panel", cuboid(-w / 2 + 0.005, w / 2 - 0.005, yb, yb + 0.012, h - panel_h, h - 0.005),
          b.mat("plastic", DARK))
    b.add("knobs", [disc_y(0.02, yb + 0.012, yb + 0.035, x, h - panel_h / 2, 16)
                    for x in (-w / 2 + 0.08, -w / 2 + 0.15, w / 2 - 0.15, w / 2 - 0.08)], b.mat("chrome", STEEL))
    b.add("clock", cuboid(-0.07, 0.07, yb + 0.012, yb + 0.014, h - panel_h / 2 - 0.025, h - panel_h / 2 + 0.025),
          b.mat("light", (0.2, 0.9, 0.4), emission=2.0))
    dz0, dz1 = 0.08, h - panel_h - 0.01
    b.add("door", cuboid(-w / 2 + 0.005, w / 2 - 0.005, yb, yb + 0.02, dz0, dz1), body)
    # big window with the lit interior and racks behind it: what makes it read as an oven
    wx, wz0, wz1 = w / 2 - 0.09, dz0 + 0.1, dz1 - 0.12
    b.add("window frame", cuboid(-wx - 0.02, wx + 0.02, yb + 0.02, yb + 0.021, wz0 - 0.02, wz1 + 0.02),
          b.mat("plastic", BLACK))
    b.add("interior", cuboid(-wx, wx, yb + 0.021, yb + 0.022, wz0, wz1), b.mat("light", (0.85, 0.45, 0.15), emission=1.5))
    b.add("racks", [cuboid(-wx, wx, yb + 0.022, yb + 0.023, z - 0.004, z + 0.004)
                    for z in np.linspace(wz0 + 0.06, wz1 - 0.06, 3)] +
          [cuboid(x - 0.003, x + 0.003, yb + 0.022, yb + 0.023, wz0, wz1) for x in np.linspace(-wx + 0.05, wx - 0.05, 6)],
          b.mat("metal", (0.25, 0.2, 0.15)))
    hz = dz1 - 0.05
    b.add("handle", [rod((-wx, yb + 0.055, hz), (wx, yb + 0.055, hz), 0.012, 10)] +
          [rod((x, yb + 0.02, hz), (x, yb + 0.055, hz), 0.009, 8) for x in (-wx + 0.02, wx - 0.02)],
          b.mat("chrome", STEEL))
    b.surface(h)


@builder("dishwasher")
def dishwasher(b: Builder):
    w, d, h = b.w, b.d, b.h
    yb = d / 2 - 0.03
    body = b.main_as("metal") if b.color_name == "silver" else b.main_as("painted metal")
    b.add("body", cuboid(-w / 2, w / 2, -d / 2, yb, 0.08, h), body)
    b.add("kick plate", cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2, yb - 0.02, 0, 0.08), b.mat("plastic", BLACK))
    b.add("door", cuboid(-w / 2 + 0.005, w / 2 - 0.005, yb, yb + 0.02, 0.09, h - 0.1), body)
    b.add("control strip", cuboid(-w / 2 + 0.005, w / 2 - 0.005, yb, yb + 0.02, h - 0.095, h - 0.005),
          b.mat("plastic", DARK))
    b.add("buttons", [cuboid(x - 0.012, x + 0.012, yb + 0.02, yb + 0.024, h - 0.06, h - 0.04)
                      for x in np.linspace(0.02, w / 2 - 0.06, 5)], b.mat("plastic", (0.7, 0.7, 0.72)))
    b.add("leds", [disc_y(0.005, yb + 0.02, yb + 0.023, x, h - 0.05, 8) for x in (-w / 2 + 0.08, -w / 2 + 0.11)],
          b.mat("light", (0.2, 0.8, 1.0), emission=3.0))
    hz = h - 0.14
    b.add("handle", [cuboid(-w / 2 + 0.1, w / 2 - 0.1, yb + 0.02, yb + 0.045, hz - 0.025, hz)],
          b.mat("chrome", STEEL))
    b.add("rack lines", [cuboid(-w / 2 + 0.06, w / 2 - 0.06, yb + 0.02, yb + 0.0205, z, z + 0.004)
                         for z in (0.3, 0.5)], b.main_as("metal", 0.85))
    b.surface(h)


@builder("washing machine")
def washing_machine(b: Builder):
    w, d, h = b.w, b.d, b.h
    yb = d / 2 - 0.05
    body = b.main_as("metal") if b.color_name == "silver" else b.main_as("painted metal", 1.0)
    b.add("body", [cuboid(-w / 2, w / 2, -d / 2, yb, 0.02, h)], body)
    b.add("feet", [cylinder(0.02, 0, 0.02, sx * (w / 2 - 0.05), sy * (d / 2 - 0.1), 10)
                   for sx in (-1, 1) for sy in (-1, 1)], b.mat("rubber", BLACK))
    panel_h = 0.14
    b.add("panel", cuboid(-w / 2 + 0.005, w / 2 - 0.005, yb, yb + 0.01, h - panel_h, h - 0.005), b.main_as("plastic", 0.95))
    b.add("drawer", cuboid(-w / 2 + 0.03, -w / 2 + 0.2, yb + 0.01, yb + 0.015, h - panel_h + 0.03, h - 0.03),
          b.main_as("plastic", 0.85))
    b.add("dial", [disc_y(0.04, yb + 0.01, yb + 0.03, w / 2 - 0.12, h - panel_h / 2, 24),
                   disc_y(0.01, yb + 0.03, yb + 0.035, w / 2 - 0.12, h - panel_h / 2 + 0.025, 8)],
          b.mat("chrome", STEEL))
    b.add("display", cuboid(-0.06, 0.06, yb + 0.01, yb + 0.012, h - panel_h / 2 - 0.02, h - panel_h / 2 + 0.02),
          b.mat("light", (0.2, 0.5, 0.9), emission=2.0))
    # porthole door: chrome ring, dark glass, drum shadow
    r = min(w * 0.33, (h - panel_h) * 0.36)
    cz = (h - panel_h) * 0.52
    b.add("door ring", [torus(r, 0.035, (0, yb + 0.04, cz), "y", 40, 10),
                        disc_y(0.015, yb, yb + 0.05, r + 0.02, cz, 8)], b.mat("chrome", (0.85, 0.86, 0.88)))
    b.add("door rim", disc_y(r + 0.05, yb, yb + 0.015, 0, cz, 40), b.main_as("plastic", 0.92))
    b.add("door glass", disc_y(r - 0.01, yb + 0.015, yb + 0.045, 0, cz, 40),
          b.mat("tinted glass", (0.3, 0.42, 0.55)))
    b.add("drum", disc_y(r * 0.55, yb + 0.045, yb + 0.047, 0, cz, 32), b.mat("metal", (0.18, 0.2, 0.24)))
    b.surface(h)


@builder("microwave")
def microwave(b: Builder):
    w, d, h = b.w, b.d, b.h
    yb = d / 2 - 0.02
    body = b.main_as("metal") if b.color_name == "silver" else b.main_as("painted metal")
    b.add("body", superellipsoid((0, -0.01, h / 2 + 0.005), (w / 2, (d - 0.02) / 2, h / 2 - 0.005), 0.08, 24), body)
    b.add("feet", [cylinder(0.012, 0, 0.008, sx * (w / 2 - 0.05), sy * (d / 2 - 0.05), 8)
                   for sx in (-1, 1) for sy in (-1, 1)], b.mat("rubber", BLACK))
    split = w / 2 - 0.13
    b.add("door", cuboid(-w / 2 + 0.01, split, yb - 0.005, yb + 0.01, 0.02, h - 0.015), b.mat("plastic", DARK))
    b.add("window", cuboid(-w / 2 + 0.05, split - 0.06, yb + 0.01, yb + 0.012, 0.06, h - 0.055),
          b.mat("tinted glass", (0.18, 0.16, 0.12)))
    b.add("plate", cuboid(-w / 2 + 0.08, split - 0.09, yb + 0.012, yb + 0.0125, 0.075, 0.085),
          b.mat("glass", (0.9, 0.9, 0.9)))
    b.add("control panel", cuboid(split + 0.005, w / 2 - 0.01, yb - 0.005, yb + 0.008, 0.02, h - 0.015),
          b.main_as("plastic", 0.8))
    cx = (split + w / 2) / 2
    b.add("display", cuboid(cx - 0.04, cx + 0.04, yb + 0.008, yb + 0.01, h - 0.06, h - 0.035),
          b.mat("light", (0.2, 0.9, 0.4), emission=2.0))
    b.add("buttons", [cuboid(cx + dx - 0.012, cx + dx + 0.012, yb + 0.008, yb + 0.012, z - 0.008, z + 0.008)
                      for dx in (-0.03, 0.0, 0.03) for z in np.linspace(h - 0.1, 0.09, 4)],
          b.mat("plastic", (0.75, 0.75, 0.78)))
    b.add("dial", disc_y(0.022, yb + 0.008, yb + 0.02, cx, 0.055, 20), b.mat("chrome", STEEL))


@builder("coffee machine")
def coffee_machine(b: Builder):
    w, d, h = b.w, b.d, b.h
    body = b.main_as("plastic") if b.color_name != "silver" else b.main_as("metal")
    back_d = 0.45 * d
    yb = -d / 2 + back_d
    b.add("base", cuboid(-w / 2, w / 2, -d / 2, d / 2, 0, 0.04), body)
    b.add("tower", cuboid(-w / 2 + 0.004, w / 2 - 0.004, -d / 2 + 0.05, yb, 0.04, h - 0.01), body)
    b.add("head", [cuboid(-w / 2, w / 2, yb, d / 2, h - 0.1, h), cuboid(-w / 2, w / 2, -d / 2, yb, h - 0.01, h)], body)
    b.add("water tank", cuboid(-w / 2 + 0.02, w / 2 - 0.02, -d / 2, -d / 2 + 0.05, 0.04, h - 0.01),
          b.mat("glass", (0.7, 0.85, 0.95)))
    b.add("warmer", cylinder(0.07, 0.04, 0.05, 0, (yb + d / 2) / 2, 24), b.mat("metal", (0.2, 0.2, 0.2)))
    # glass carafe with dark coffee: the drip coffee maker's signature
    cy = (yb + d / 2) / 2
    ch = h - 0.16
    carafe = lathe([(0.05, 0.05), (0.068, 0.06), (0.07, 0.05 + ch * 0.45), (0.045, 0.05 + ch * 0.8),
                    (0.05, 0.05 + ch), (0.046, 0.05 + ch), (0.041, 0.05 + ch * 0.8), (0.066, 0.05 + ch * 0.45),
                    (0.064, 0.062), (0.0, 0.062)], 28)
    b.add("carafe", moved(carafe, (0, cy, 0)), b.mat("glass", (0.85, 0.9, 0.95)))
    b.add("coffee", moved(lathe([(0, 0.063), (0.064, 0.063), (0.066, 0.05 + ch * 0.4), (0, 0.05 + ch * 0.4)], 24),
                          (0, cy, 0)), b.mat("liquid", (0.18, 0.09, 0.04), transmission=0.0))
    b.add("carafe handle", [tube([(0.06, cy, 0.05 + ch * 0.75), (0.1, cy, 0.05 + ch * 0.7), (0.1, cy, 0.05 + ch * 0.25),
                                  (0.065, cy, 0.05 + ch * 0.2)], 0.009, 8)], b.mat("plastic", BLACK))
    b.add("switch", [cuboid(w / 2 - 0.004, w / 2, yb - 0.06, yb - 0.02, 0.08, 0.12)] +
          [disc_y(0.008, d / 2, d / 2 + 0.004, x, h - 0.05, 8) for x in (-0.03, 0.03)],
          b.mat("light", (0.95, 0.3, 0.2), emission=2.0))


@builder("computer")
def computer(b: Builder):
    w, d, h = b.w, b.d, b.h
    plastic = b.main_as("plastic")
    has_tower = w > 0.6
    mon_w = min(w - (0.2 if has_tower else 0.0), 0.62)
    mx = -w / 2 + mon_w / 2
    my = -d / 2 + 0.08
    screen_z0, screen_z1 = h - mon_w * 0.6, h
    b.add("monitor", [cuboid(mx - mon_w / 2, mx + mon_w / 2, my - 0.02, my + 0.012, screen_z0, screen_z1),
                      cuboid(mx - 0.03, mx + 0.03, my - 0.05, my - 0.02, 0.03, screen_z0 + 0.1),
                      cuboid(mx - 0.12, mx + 0.12, -d / 2, my + 0.04, 0, 0.015)], plastic)
    for name, mesh, mat in _desktop(b, mx - mon_w / 2 + 0.015, mx + mon_w / 2 - 0.015, screen_z0 + 0.025,
                                    screen_z1 - 0.015, my + 0.012):
        b.add(name, mesh, mat)
    kb_w = min(0.44, mon_w)
    ky0, ky1 = d / 2 - 0.15, d / 2 - 0.005
    b.add("keyboard", cuboid(mx - kb_w / 2, mx + kb_w / 2, ky0, ky1, 0, 0.018), plastic)
    b.add("keys", _keyboard(mx - kb_w / 2 + 0.01, mx + kb_w / 2 - 0.01, ky0 + 0.01, ky1 - 0.01, 0.018),
          b.mat("plastic", (0.85, 0.85, 0.86) if b.color_name in ("black", "dark grey") else (0.15, 0.15, 0.16)))
    if has_tower:
        tx = w / 2 - 0.09
        b.add("tower", cuboid(tx - 0.09, tx + 0.09, -d / 2, -d / 2 + 0.33 * d + 0.1, 0, min(h, 0.42)), plastic)
        b.add("power light", disc_y(0.008, -d / 2 + 0.33 * d + 0.1, -d / 2 + 0.33 * d + 0.103, tx, min(h, 0.42) - 0.05, 10),
              b.mat("light", (0.3, 0.6, 1.0), emission=4.0))


@builder("laptop")
def laptop(b: Builder):
    w, d, h = b.w, b.d, b.h
    shell = b.main_as("metal") if b.color_name in ("silver",) else b.main_as("plastic")
    t = 0.016
    open_deg = 110.0
    lid_len = (h - t) / math.sin(math.radians(180 - open_deg))
    overhang = lid_len * math.cos(math.radians(180 - open_deg))
    base_d = d - overhang
    y_hinge = -d / 2 + overhang
    b.add("base", slab(rounded_rect(w, base_d, 0.01), 0, t, (0, y_hinge + base_d / 2)), shell)
    b.add("keys", _keyboard(-w / 2 + 0.025, w / 2 - 0.025, y_hinge + 0.02, y_hinge + base_d * 0.55, t, 5, 14, 0.0015),
          b.mat("plastic", BLACK))
    b.add("trackpad", cuboid(-0.05, 0.05, y_hinge + base_d * 0.62, y_hinge + base_d - 0.02, t, t + 0.0008),
          b.main_as("plastic", 0.85))
    # lid: built lying flat along +y from the hinge, then rotated open about the hinge line
    lid = cuboid(-w / 2, w / 2, y_hinge, y_hinge + lid_len, t, t + 0.006)
    pivot = (0, y_hinge, t)
    b.add("lid", rotated(lid, "x", open_deg, pivot), shell)
    inset = 0.012
    for name, mesh, mat in _desktop(b, -w / 2 + inset, w / 2 - inset, y_hinge + inset, y_hinge + lid_len - inset, 0):
        # drawn in the (x, z) plane at y = 0; map it onto the underside of the flat lid
        # ((x, y, z) -> (x, z, t - y) is a proper rotation), then open it with the lid
        v = mesh.vertices
        flat = trimesh.Trimesh(np.c_[v[:, 0], v[:, 2], t - v[:, 1]], mesh.faces, process=False)
        b.add(name, rotated(flat, "x", open_deg, pivot), mat)


@builder("tv")
def tv(b: Builder):
    w, d, h = b.w, b.d, b.h
    frame = b.main_as("plastic", 1.0)
    wall = bool(b.attributes.get("wall_mounted"))
    panel_t = min(0.05, d)
    y1 = d / 2 if wall else panel_t / 2
    y0 = y1 - panel_t
    stand_h = 0 if wall else max(0.06, h - w * 9 / 16 - 0.02)
    z0 = stand_h
    b.add("panel", cuboid(-w / 2, w / 2, y0, y1 - 0.004, z0, h), frame)
    bezel = 0.012
    b.add("screen", cuboid(-w / 2 + bezel, w / 2 - bezel, y1 - 0.004, y1, z0 + bezel * 1.6, h - bezel),
          b.mat("screen", (0.04, 0.05, 0.07)))
    # soft reflection band across the dark glass, as TVs look when off
    band = [(-w * 0.3, z0 + (h - z0) * 0.1), (-w * 0.18, z0 + (h - z0) * 0.1),
            (w * 0.1, h - (h - z0) * 0.1), (-w * 0.02, h - (h - z0) * 0.1)]
    b.add("reflection", moved(rotated(extrude(band, 0, 0.0005), "x", 90), (0, y1 + 0.0005, 0)),
          b.mat("screen", (0.16, 0.18, 0.22)))
    b.add("logo", cuboid(-0.02, 0.02, y1 - 0.004, y1 + 0.0005, z0 + 0.003, z0 + 0.008), b.mat("chrome", STEEL))
    if not wall:
        if b.rng.random() < 0.5:
            feet = [moved(rotated(cuboid(-0.015, 0.015, -d / 2, d / 2, 0, 0.02), "z", sx * 20), (sx * w * 0.38, 0, 0))
                    for sx in (-1, 1)]
            feet += [cuboid(sx * w * 0.38 - 0.015, sx * w * 0.38 + 0.015, y0 - 0.01, y0, 0.0, z0 + 0.05) for sx in (-1, 1)]
        else:
            feet = [cuboid(-0.03, 0.03, y0 - 0.03, y0, 0.0, z0 + 0.1),
                    slab(rounded_rect(min(0.4, w * 0.4), d, 0.03), 0, 0.015)]
        b.add("stand", feet, b.mat("plastic", (0.15, 0.15, 0.16)))


@builder("printer")
def printer(b: Builder):
    w, d, h = b.w, b.d, b.h
    body = b.main_as("plastic")
    tray_d = 0.08
    yb = d / 2 - tray_d
    b.add("body", superellipsoid((0, (-d / 2 + yb) / 2, (h - 0.05) / 2), (w / 2, (yb + d / 2) / 2, (h - 0.05) / 2), 0.12, 24),
          body)
    b.add("scanner lid", cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2 + 0.02, yb - 0.02, h - 0.06, h - 0.04),
          b.main_as("plastic", 0.88))
    b.add("slot", cuboid(-w / 2 + 0.06, w / 2 - 0.06, yb - 0.005, yb + 0.002, h * 0.3, h * 0.42), b.mat("plastic", BLACK))
    b.add("output tray", cuboid(-w / 2 + 0.07, w / 2 - 0.07, yb - 0.02, d / 2, h * 0.3, h * 0.31), b.main_as("plastic", 0.75))
    paper = b.mat("paper", (0.97, 0.97, 0.95))
    b.add("paper", [cuboid(-0.105, 0.105, yb - 0.02, d / 2 - 0.005, h * 0.31, h * 0.315)] +
          [moved(rotated(cuboid(-0.105, 0.105, 0, 0.002, 0, 0.16), "x", -20), (0, -d / 2 + 0.05, h - 0.16))],
          paper)
    b.add("panel", [moved(rotated(cuboid(w / 2 - 0.17, w / 2 - 0.03, 0, 0.05, 0, 0.01), "x", -15), (0, yb - 0.06, h - 0.05))],
          b.mat("plastic", DARK))
    b.add("screen", moved(rotated(cuboid(w / 2 - 0.15, w / 2 - 0.09, 0.01, 0.04, 0.0005, 0.0125), "x", -15), (0, yb - 0.06, h - 0.05)),
          b.mat("light", (0.3, 0.6, 0.9), emission=2.0))


@builder("vending machine")
def vending_machine(b: Builder):
    """Coloured cabinet, lit glass front with rows of bottles, keypad column, pickup flap."""
    w, d, h = b.w, b.d, b.h
    body = b.main_as("painted metal")
    recess = d / 2 - 0.16                # back of the lit display bay
    gx0, gx1 = -w / 2 + 0.06, w / 2 - 0.3
    gz0, gz1 = 0.45, h - 0.25
    yf = d / 2 - 0.006                   # door front
    b.add("cabinet", [cuboid(-w / 2, w / 2, -d / 2, recess, 0.05, h)], body)
    b.add("plinth", cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2, recess - 0.03, 0, 0.05), b.mat("plastic", BLACK))
    b.add("door", [cuboid(-w / 2, gx0, recess, yf, 0.05, h), cuboid(gx1, w / 2, recess, yf, 0.05, h),
                   cuboid(gx0, gx1, recess, yf, 0.05, gz0), cuboid(gx0, gx1, recess, yf, gz1, h)], body)
    b.add("interior", cuboid(gx0, gx1, recess, recess + 0.005, gz0, gz1), b.mat("light", (0.88, 0.9, 0.94), emission=0.8))
    rows = 5
    palette = [(0.85, 0.1, 0.1), (0.1, 0.35, 0.8), (0.95, 0.75, 0.1), (0.2, 0.6, 0.25), (0.95, 0.5, 0.1), (0.6, 0.2, 0.6)]
    zs = np.linspace(gz0, gz1, rows + 1)
    shelves, groups = [], {}
    for r in range(rows):
        shelves.append(cuboid(gx0, gx1, recess, yf - 0.01, zs[r], zs[r] + 0.012))
        cols = int((gx1 - gx0) / 0.075)
        ph = (zs[r + 1] - zs[r]) * 0.72
        for c in range(cols):
            x = gx0 + (c + 0.5) * (gx1 - gx0) / cols
            colour = (r * 2 + c // 2) % len(palette)
            groups.setdefault(colour, []).append(
                lathe([(0, 0), (0.028, 0), (0.028, ph * 0.7), (0.012, ph * 0.9), (0.012, ph), (0, ph)], 12,
                      (x, (recess + yf) / 2, zs[r] + 0.012)))
    b.add("shelves", shelves, b.mat("metal", (0.6, 0.6, 0.62)))
    for k, items in sorted(groups.items()):
        b.add(f"products {k}", items, b.mat("plastic", palette[k]))
    b.add("glass", cuboid(gx0, gx1, yf - 0.004, yf, gz0, gz1), b.mat("glass", (0.85, 0.9, 0.95)))
    b.add("sign", cuboid(-w / 2 + 0.04, w / 2 - 0.04, yf, d / 2, h - 0.2, h - 0.05), b.mat("light", (0.97, 0.97, 0.97), emission=1.5))
    px = (gx1 + w / 2) / 2
    b.add("keypad", cuboid(px - 0.09, px + 0.09, yf, d / 2, gz1 - 0.55, gz1 - 0.05), b.mat("plastic", (0.15, 0.15, 0.17)))
    b.add("keys", [cuboid(px + dx - 0.018, px + dx + 0.018, yf, d / 2 + 0.004, z - 0.015, z + 0.015)
                   for dx in (-0.045, 0, 0.045) for z in np.linspace(gz1 - 0.45, gz1 - 0.2, 4)],
          b.mat("plastic", (0.85, 0.85, 0.85)))
    b.add("display", cuboid(px - 0.07, px + 0.07, yf, d / 2 + 0.004, gz1 - 0.15, gz1 - 0.08),
          b.mat("light", (0.2, 0.9, 0.4), emission=2.0))
    b.add("coin slot", cuboid(px - 0.01, px + 0.01, yf, d / 2 + 0.004, gz1 - 0.7, gz1 - 0.62), b.mat("chrome", STEEL))
    b.add("pickup", cuboid(gx0 + 0.05, gx1 - 0.05, yf, d / 2 + 0.004, 0.12, 0.3), b.mat("plastic", BLACK))


@builder("air conditioner")
def air_conditioner(b: Builder):
    """Wall split unit: boxy white body, top intake grille, dark outlet with flaps below."""
    w, d, h = b.w, b.d, b.h
    b.add("body", superellipsoid((0, 0, h / 2), (w / 2, d / 2, h / 2), 0.1, 36))
    dark = b.mat("plastic", (0.12, 0.12, 0.13))
    b.add("top grille", [cuboid(-w / 2 + 0.05, w / 2 - 0.05, y - 0.006, y + 0.006, h - 0.004, h + 0.0005)
                         for y in np.linspace(-d / 2 + 0.05, d / 2 - 0.05, 7)], dark)
    b.add("outlet", cuboid(-w / 2 + 0.05, w / 2 - 0.05, d / 2 - 0.07, d / 2 - 0.004, 0.0, 0.075), dark)
    flaps = [moved(rotated(cuboid(-w / 2 + 0.06, w / 2 - 0.06, 0, 0.06, 0, 0.005), "x", -30), (0, d / 2 - 0.065, z))
             for z in (0.012, 0.045)]
    b.add("flaps", flaps, b.main_as("plastic", 0.95))
    b.add("front line", cuboid(-w / 2 + 0.03, w / 2 - 0.03, d / 2 - 0.012, d / 2 - 0.001, h * 0.55, h * 0.565),
          b.mat("plastic", (0.6, 0.6, 0.62)))
    b.add("display", cuboid(w / 2 - 0.2, w / 2 - 0.1, d / 2 - 0.012, d / 2 - 0.0005, h * 0.32, h * 0.4),
          b.mat("light", (0.3, 0.7, 1.0), emission=2.5))
    b.add("logo", cuboid(-0.05, 0.05, d / 2 - 0.012, d / 2 - 0.0005, h * 0.7, h * 0.74), b.mat("plastic", (0.55, 0.55, 0.6)))


@builder("telephone")
def telephone(b: Builder):
    w, d, h = b.w, b.d, b.h
    body = b.main_as("plastic")
    base_h = h * 0.5
    # wedge-shaped base, low at the front (+y)
    profile = [(-d / 2, 0), (d / 2, 0), (d / 2, base_h * 0.4), (-d / 2 + 0.05, base_h), (-d / 2, base_h)]
    b.add("base", extrude_yz(profile, -w / 2, w / 2), body)
    slope = math.degrees(math.atan2(base_h * 0.6, d - 0.05))
    keys = []
    for r in range(4):
        for c in range(3):
            ky = d / 2 - 0.03 - r * 0.022
            kz = base_h * 0.4 + (d / 2 - ky) * math.tan(math.radians(slope))
            keys.append(cuboid(w * 0.05 + c * 0.024 - 0.009, w * 0.05 + c * 0.024 + 0.009, ky - 0.008, ky + 0.008, kz - 0.004, kz + 0.004))
    b.add("keypad", keys, b.mat("plastic", (0.9, 0.9, 0.9) if b.color_name not in ("white", "cream") else (0.3, 0.3, 0.32)))
    b.add("display", moved(rotated(cuboid(-0.03, 0.03, 0, 0.03, 0, 0.003), "x", -slope), (w * 0.07, -d / 2 + 0.08, base_h * 0.88)),
          b.mat("light", (0.6, 0.8, 0.7), emission=1.0))
    # handset lying on the left side of the base, along y
    hx = -w / 2 + 0.04
    hz = h - 0.026
    handset = [rod((hx, -d / 2 + 0.03, hz), (hx, d / 2 - 0.03, hz), 0.018, 12),
               superellipsoid((hx, -d / 2 + 0.035, hz), (0.026, 0.03, 0.024), 0.5, 12),
               superellipsoid((hx, d / 2 - 0.035, hz), (0.026, 0.03, 0.024), 0.5, 12)]
    b.add("handset", handset, body)
    coil = [(hx - 0.025 + 0.008 * math.cos(t), -d / 2 + 0.02 + 0.0015 * t, 0.015 + 0.008 * math.sin(t))
            for t in np.linspace(0, 60, 240)]
    coil = [(x, min(y, d / 2 - 0.02), z) for x, y, z in coil]
    b.add("cord", tube(coil, 0.002, 6), b.mat("plastic", (0.15, 0.15, 0.15) if b.color_name != "black" else (0.3, 0.3, 0.3)))


@builder("bulb")
def bulb(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = w / 2
    bulb_h = bulb_glass_height(w)
    socket_h = BULB_SOCKET_H
    b.add("cord", cylinder(0.004, bulb_h + socket_h, h, sections=8), b.mat("plastic", BLACK))
    b.add("canopy", cylinder(min(r, 0.05), h - 0.015, h, sections=16), b.mat("plastic", BLACK))
    b.add("socket", cylinder(0.018, bulb_h - 0.01, bulb_h + socket_h, sections=16), b.mat("metal", (0.1, 0.1, 0.1)))
    glass = lathe([(0, 0), (r * 0.5, 0.004), (r * 0.9, bulb_h * 0.25), (r, bulb_h * 0.45), (r * 0.7, bulb_h * 0.75),
                   (0.014, bulb_h - 0.01), (0.014, bulb_h), (0, bulb_h)], 24)
    b.add("glass", glass, b.main_as("light", 1.0, emission=8.0))


@builder("lamp")
def lamp(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = w / 2
    shade_h = 0.42 * h
    base_rgb = b.choice([(0.15, 0.25, 0.5), (0.93, 0.93, 0.91), (0.2, 0.2, 0.2), (0.7, 0.55, 0.3)])
    base_h = 0.4 * h
    b.add("base", lathe([(0, 0), (r * 0.45, 0), (r * 0.55, base_h * 0.35), (r * 0.3, base_h * 0.9),
                         (0.015, base_h), (0, base_h)], 28), b.mat("ceramic", base_rgb))
    b.add("stem", cylinder(0.008, base_h, h - shade_h * 0.5, sections=10), b.mat("metal", (0.8, 0.68, 0.35)))
    b.add("shade", lathe([(r * 0.6, h), (r * 0.6 - 0.004, h), (r - 0.004, h - shade_h + 0.002), (r * 0.99, h - shade_h),
                          (r, h - shade_h), (r * 0.6 + 0.001, h)], 32), b.main)
    b.add("bulb", sphere((0, 0, h - shade_h * 0.55), 0.03, 10), b.mat("light", (1.0, 0.92, 0.75)))
