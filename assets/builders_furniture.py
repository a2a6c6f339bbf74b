"""Builders for furniture: seating, tables, beds, the piano, plants, floor lamps and exercise
things (local frame: +y front, z up, origin at the footprint centre on the floor; each
builder fills the box (b.w, b.d, b.h))."""

from __future__ import annotations

import math

import numpy as np

from assets.geometry import (box, cuboid, cylinder, disc_x, ellipse, ellipsoid, frustum, lathe,
                             moved, rod, rotated, rounded_rect, slab, sphere, superellipsoid, torus)
from assets.builder import Builder, builder
from assets.pieces import BLACK, DARK_WOOD, STEEL, WHITE, four_legs, fronts


# --- seating and tables -------------------------------------------------------------------

@builder("chair")
def chair(b: Builder):
    w, d, h = b.w, b.d, b.h
    seat_top = 0.5 * h
    style = b.choice(["slats", "panel", "ladder", "office", "upholstered"])
    # cushions in the chair's own colour: a white chair with navy cushions reads as blue, and
    # questions name one of several chairs by its colour (person check of scenario-06)
    cushion = b.main_as("fabric", 0.9)
    if style == "office":
        fabric = b.main_as("fabric")
        base = []
        for k in range(5):
            a = math.radians(90 + 72 * k)
            tip = (0.9 * w / 2 * math.cos(a), 0.9 * d / 2 * math.sin(a), 0.05)
            base.append(rod((0, 0, 0.07), tip, 0.018, 8))
            base.append(sphere((tip[0], tip[1], 0.025), 0.025, 8))
        b.add("base", base, b.mat("plastic", BLACK))
        b.add("column", cylinder(0.025, 0.07, seat_top - 0.07, sections=12), b.mat("metal", STEEL))
        b.add("seat", superellipsoid((0, 0.02, seat_top - 0.045), (w / 2 - 0.02, d / 2 - 0.04, 0.045),
                                     0.3), fabric)
        b.add("backrest", [superellipsoid((0, -d / 2 + 0.05, (seat_top + 0.12 + h) / 2),
                                          (w / 2 - 0.03, 0.04, (h - seat_top - 0.12) / 2), 0.3)], fabric)
        b.add("back support", [cuboid(-0.025, 0.025, -d / 2 + 0.03, -d / 2 + 0.07, seat_top - 0.06,
                                      seat_top + 0.18),
                               cuboid(-0.025, 0.025, -d / 2 + 0.03, 0.0, seat_top - 0.08, seat_top - 0.05)],
              b.mat("plastic", BLACK))
        arms = []
        for sx in (-1, 1):
            x = sx * (w / 2 - 0.02)
            arms += [cuboid(x - 0.015, x + 0.015, -0.02, 0.02, seat_top - 0.02, seat_top + 0.2),
                     cuboid(x - 0.025, x + 0.025, -0.12, 0.12, seat_top + 0.2, seat_top + 0.23)]
        b.add("armrests", arms, b.mat("plastic", BLACK))
        b.surface(seat_top, -w / 2 + 0.05, w / 2 - 0.05, -d / 2 + 0.1, d / 2 - 0.05)
        return
    leg = 0.035 if style != "upholstered" else 0.04
    wood = b.main
    seat_t = 0.04
    frame = four_legs(w, d, seat_top - seat_t, leg, round_legs=style == "ladder", taper=0.8)
    # rear legs continue up as the backrest posts
    for sx in (-1, 1):
        x = sx * (w / 2 - leg / 2)
        frame.append(cuboid(x - leg / 2, x + leg / 2, -d / 2, -d / 2 + leg, seat_top - seat_t, h))
    for sx in (-1, 1):  # side stretchers
        x = sx * (w / 2 - leg / 2)
        frame.append(cuboid(x - 0.01, x + 0.01, -d / 2 + leg, d / 2 - leg, 0.14, 0.17))
    frame.append(cuboid(-w / 2 + leg, w / 2 - leg, -d / 2, -d / 2 + leg * 0.8, h - 0.09, h))  # top rail
    b.add("frame", frame, wood)
    b.add("seat", cuboid(-w / 2 + 0.002, w / 2 - 0.002, -d / 2 + 0.002, d / 2 - 0.002, seat_top - seat_t,
                         seat_top - 0.015), wood)
    if style in ("upholstered", "panel"):
        b.add("cushion", superellipsoid((0, 0.01, seat_top - 0.015), (w / 2 - 0.02, d / 2 - 0.03, 0.016), 0.25),
              cushion)
    else:
        b.add("seat top", cuboid(-w / 2 + 0.005, w / 2 - 0.005, -d / 2 + 0.005, d / 2 - 0.005,
                                 seat_top - 0.016, seat_top), b.main_as("wood", 0.92))
    lo = seat_top + 0.06
    if style == "slats":
        xs = np.linspace(-w / 2 + leg + 0.05, w / 2 - leg - 0.05, 3)
        b.add("slats", [cuboid(x - 0.018, x + 0.018, -d / 2 + 0.005, -d / 2 + 0.025, lo, h - 0.09)
                        for x in xs], wood)
    elif style == "ladder":
        zs = np.linspace(lo + 0.06, h - 0.15, 2)
        b.add("rails", [cuboid(-w / 2 + leg, w / 2 - leg, -d / 2 + 0.005, -d / 2 + 0.025, z, z + 0.05)
                        for z in zs], wood)
    elif style == "panel":
        b.add("back panel", cuboid(-w / 2 + leg, w / 2 - leg, -d / 2 + 0.005, -d / 2 + 0.028,
                                   lo + 0.12, h - 0.09), b.main_as("wood", 0.9))
    else:
        b.add("back cushion", superellipsoid((0, -d / 2 + leg + 0.02, (lo + h - 0.09) / 2),
                                             (w / 2 - leg - 0.01, 0.022, (h - 0.09 - lo) / 2), 0.25),
              cushion)
    b.surface(seat_top, -w / 2 + 0.04, w / 2 - 0.04, -d / 2 + 0.06, d / 2 - 0.02)


@builder("table")
def table(b: Builder):
    w, d, h = b.w, b.d, b.h
    top_t = 0.04
    round_top = abs(w - d) < 0.25 and b.rng.random() < 0.6
    if round_top:
        b.add("top", slab(ellipse(w / 2, d / 2, 48), h - top_t, h))
        b.add("pedestal", [frustum(0.07, 0.05, 0.05, h - top_t, sections=20),
                           frustum(min(w, d) * 0.3, min(w, d) * 0.25, 0, 0.05, sections=24)],
              b.main_as("wood", 0.85))
    else:
        b.add("top", slab(rounded_rect(w, d, 0.02), h - top_t, h))
        leg = b.choice([0.05, 0.06, 0.07])
        legs = four_legs(w, d, h - top_t, leg, inset=0.04, round_legs=b.rng.random() < 0.4, taper=0.7)
        inner = 0.04 + leg * 0.5
        apron = [cuboid(-w / 2 + inner, w / 2 - inner, sy * (d / 2 - inner) - 0.01,
                        sy * (d / 2 - inner) + 0.01, h - top_t - 0.08, h - top_t) for sy in (-1, 1)]
        apron += [cuboid(sx * (w / 2 - inner) - 0.01, sx * (w / 2 - inner) + 0.01, -d / 2 + inner,
                         d / 2 - inner, h - top_t - 0.08, h - top_t) for sx in (-1, 1)]
        b.add("legs", legs + apron, b.main_as("wood", 0.85))
    b.surface(h)


@builder("desk")
def desk(b: Builder):
    w, d, h = b.w, b.d, b.h
    top_t = 0.03
    b.add("top", cuboid(-w / 2, w / 2, -d / 2, d / 2, h - top_t, h))
    ped_w = min(0.42, w * 0.35)
    carcass = [cuboid(-w / 2, -w / 2 + 0.025, -d / 2, d / 2 - 0.02, 0, h - top_t),       # side panel
               cuboid(-w / 2, w / 2 - ped_w, -d / 2 + 0.02, -d / 2 + 0.04, 0.3, h - top_t),  # modesty
               cuboid(w / 2 - ped_w, w / 2, -d / 2, d / 2 - 0.04, 0, h - top_t)]          # pedestal
    b.add("carcass", carcass, b.main_as("wood", 0.88))
    panels, handles = fronts(w / 2 - ped_w, w / 2, 0.02, h - top_t - 0.01, d / 2 - 0.05, 3, 1,
                             "drawer", "bar")
    b.add("drawers", panels, b.main_as("wood", 1.08))
    b.add("handles", handles, b.mat("metal", STEEL))
    b.surface(h)


@builder("bench")
def bench(b: Builder):
    w, d, h = b.w, b.d, b.h
    n = 3 if d < 0.4 else 4
    gap = 0.012
    sw = (d - gap * (n - 1)) / n
    slats = [cuboid(-w / 2, w / 2, -d / 2 + i * (sw + gap), -d / 2 + i * (sw + gap) + sw, h - 0.035, h)
             for i in range(n)]
    b.add("seat", slats)
    legs = []
    for sx in (-1, 1):
        x = sx * (w / 2 - 0.12)
        legs += [cuboid(x - 0.03, x + 0.03, -d / 2 + 0.02, d / 2 - 0.02, h - 0.08, h - 0.035),
                 cuboid(x - 0.025, x + 0.025, -d / 2 + 0.03, -d / 2 + 0.08, 0, h - 0.08),
                 cuboid(x - 0.025, x + 0.025, d / 2 - 0.08, d / 2 - 0.03, 0, h - 0.08),
                 cuboid(x - 0.02, x + 0.02, -d / 2 + 0.025, d / 2 - 0.025, 0, 0.04)]
    legs.append(cuboid(-w / 2 + 0.12, w / 2 - 0.12, -0.02, 0.02, 0.12, 0.17))
    metal_legs = b.rng.random() < 0.4
    b.add("legs", legs, b.mat("metal", BLACK) if metal_legs else b.main_as("wood", 0.75))
    b.surface(h)


@builder("sofa")
def sofa(b: Builder):
    w, d, h = b.w, b.d, b.h
    seat_top = 0.5 * h
    arm_w = b.uniform(0.14, 0.22)
    arm_top = 0.7 * h
    back_t = 0.2
    leg_h = 0.07
    fabric = b.main
    b.add("legs", four_legs(w - 0.06, d - 0.06, leg_h + 0.01, 0.045, round_legs=True, taper=0.7),
          b.mat("wood", DARK_WOOD))
    b.add("base", cuboid(-w / 2 + 0.02, w / 2 - 0.02, -d / 2 + 0.02, d / 2 - 0.03, leg_h, seat_top - 0.12),
          b.main_as("fabric", 0.85))
    arms = [superellipsoid((sx * (w / 2 - arm_w / 2), 0, (leg_h + arm_top) / 2),
                           (arm_w / 2, d / 2, (arm_top - leg_h) / 2), 0.22) for sx in (-1, 1)]
    b.add("arms", arms, fabric)
    b.add("back", superellipsoid((0, -d / 2 + back_t / 2, (leg_h + 0.9 * h) / 2),
                                 (w / 2 - 0.01, back_t / 2, (0.9 * h - leg_h) / 2), 0.22),
          fabric)
    inner_w = w - 2 * arm_w
    n = 3 if inner_w > 1.5 else 2
    cw = inner_w / n
    seat_y0 = -d / 2 + back_t
    cushions, backs = [], []
    for i in range(n):
        cx = -inner_w / 2 + (i + 0.5) * cw
        cushions.append(superellipsoid((cx, (seat_y0 + d / 2) / 2, seat_top - 0.065),
                                       (cw / 2 - 0.005, (d / 2 - seat_y0) / 2, 0.065), 0.25))
        back = superellipsoid((0, 0, 0), (cw / 2 - 0.01, 0.08, (h - seat_top) / 2 - 0.01), 0.3)
        back = rotated(back, "x", -12)
        backs.append(moved(back, (cx, seat_y0 + 0.04, (h + seat_top) / 2 - 0.005)))
    b.add("seat cushions", cushions, b.main_as("fabric", 1.06))
    b.add("back cushions", backs, b.main_as("fabric", 1.06))
    # things on the seat stand in front of the back cushions (every face reaching below 0.2 m up)
    tris = [m.vertices[m.faces] for m in backs]
    front = max(float(t[t[:, :, 2].min(axis=1) < seat_top + 0.2][:, :, 1].max()) for t in tris)
    b.surface(seat_top, -inner_w / 2, inner_w / 2, front + 0.005, d / 2)


@builder("bed")
def bed(b: Builder):
    w, d, h = b.w, b.d, b.h
    top = 0.5 * h
    head_t = 0.07
    frame_rgb = b.choice([DARK_WOOD, (0.74, 0.55, 0.33), WHITE, (0.35, 0.35, 0.38)])
    frame = b.mat("wood", frame_rgb)
    y0 = -d / 2 + head_t
    b.add("headboard", [cuboid(-w / 2, w / 2, -d / 2, y0, 0, h),
                        cuboid(-w / 2 + 0.06, w / 2 - 0.06, y0, y0 + 0.02, top + 0.05, h - 0.06)], frame)
    b.add("frame", [cuboid(-w / 2 + 0.02, w / 2 - 0.02, y0, d / 2 - 0.04, 0.12, top - 0.22),
                    *four_legs(w - 0.06, d - 0.06, 0.12, 0.07),
                    cuboid(-w / 2 + 0.02, w / 2 - 0.02, d / 2 - 0.04, d / 2, 0, top - 0.12)], frame)
    # the mattress fills the duvet (its top 5 mm under the duvet's), so the sheet at the head
    # lies at the duvet's height: pillows rest on it at the bed's support surface
    b.add("mattress", superellipsoid((0, (y0 + d / 2 - 0.04) / 2, top - 0.105),
                                     (w / 2 - 0.04, (d / 2 - 0.04 - y0) / 2, 0.1), 0.2),
          b.mat("fabric", WHITE))
    fold = y0 + 0.55
    duvet_bottom = top - 0.2
    duvet = [cuboid(-w / 2 + 0.01, w / 2 - 0.01, fold, d / 2 - 0.02, top - 0.03, top),       # top
             cuboid(-w / 2 + 0.01, -w / 2 + 0.03, fold, d / 2 - 0.04, duvet_bottom, top - 0.03),  # sides
             cuboid(w / 2 - 0.03, w / 2 - 0.01, fold, d / 2 - 0.04, duvet_bottom, top - 0.03),
             cuboid(-w / 2 + 0.01, w / 2 - 0.01, d / 2 - 0.04, d / 2 - 0.02, duvet_bottom, top - 0.03)]
    b.add("duvet", duvet, b.main)
    b.add("duvet fold", rod((-w / 2 + 0.02, fold, top - 0.02), (w / 2 - 0.02, fold, top - 0.02), 0.025, 12),
          b.main_as("fabric", 1.12))
    b.add("sheet", cuboid(-w / 2 + 0.05, w / 2 - 0.05, y0 + 0.02, fold, top - 0.008, top),
          b.mat("fabric", (0.96, 0.96, 0.94)))
    b.surface(top, -w / 2 + 0.05, w / 2 - 0.05, y0 + 0.05, d / 2 - 0.05)



# --- music, plants, lamps, exercise ------------------------------------------------------

@builder("piano")
def piano(b: Builder):
    w, d, h = b.w, b.d, b.h
    body_d = 0.62 * d
    yb = -d / 2 + body_d
    key_z = 0.72
    key_d = 0.15
    case = [cuboid(-w / 2 + 0.05, w / 2 - 0.05, -d / 2, yb, 0.08, h - 0.03),
            cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2, yb + 0.02, h - 0.03, h),                 # lid
            cuboid(-w / 2 + 0.05, w / 2 - 0.05, yb, yb + key_d + 0.02, key_z - 0.1, key_z - 0.02)]  # key bed
    for sx in (-1, 1):
        x = sx * (w / 2 - 0.025)
        case += [cuboid(x - 0.025, x + 0.025, -d / 2, yb + key_d + 0.03, 0.08, key_z + 0.06),   # cheeks
                 cuboid(x - 0.025, x + 0.025, -d / 2, yb, key_z + 0.06, h - 0.03),
                 cuboid(x - 0.025, x + 0.025, yb + key_d - 0.02, d / 2 - 0.01, 0, 0.08),         # toe blocks
                 cuboid(x - 0.02, x + 0.02, yb + key_d - 0.01, yb + key_d + 0.02, 0.08, key_z - 0.1)]
    case.append(cuboid(-w / 2 + 0.05, w / 2 - 0.05, -d / 2, yb - 0.05, 0, 0.08))
    b.add("case", case)
    # open fallboard leaning back above the keys, music rest on it
    b.add("fallboard", [cuboid(-w / 2 + 0.05, w / 2 - 0.05, yb, yb + 0.025, key_z + 0.03, key_z + 0.2),
                        cuboid(-w / 2 + 0.35, w / 2 - 0.35, yb + 0.025, yb + 0.045, key_z + 0.14, key_z + 0.32)],
          b.main_as(b.category.material, 1.15))
    kx0, kx1 = -w / 2 + 0.06, w / 2 - 0.06
    n_white = 52
    kw = (kx1 - kx0) / n_white
    y0, y1 = yb + 0.01, yb + key_d + 0.01
    whites = [cuboid(kx0 + i * kw + 0.0008, kx0 + (i + 1) * kw - 0.0008, y0, y1, key_z - 0.02, key_z)
              for i in range(n_white)]
    b.add("white keys", whites, b.mat("plastic", (0.97, 0.96, 0.92)))
    b.add("key gaps", cuboid(kx0, kx1, y0 + 0.001, y1 - 0.001, key_z - 0.02, key_z - 0.001),
          b.mat("plastic", (0.2, 0.2, 0.2)))
    blacks = []
    for i in range(n_white - 1):
        if (i + 5) % 7 in (0, 1, 3, 4, 5):   # A0 start: black keys follow the 2-3 pattern
            x = kx0 + (i + 1) * kw
            blacks.append(cuboid(x - kw * 0.3, x + kw * 0.3, y0, y0 + key_d * 0.62, key_z, key_z + 0.012))
    b.add("black keys", blacks, b.mat("plastic", BLACK))
    b.add("pedals", [cuboid(x - 0.02, x + 0.02, yb - 0.02, yb + 0.08, 0.05, 0.065) for x in (-0.08, 0, 0.08)],
          b.mat("metal", (0.85, 0.7, 0.3)))
    b.surface(h, -w / 2 + 0.03, w / 2 - 0.03, -d / 2, yb)


def _leaf(length, width, tilt, azimuth, base, thickness=0.008):
    """Flattened ellipsoid leaf rising from `base`, tilted `tilt` deg from vertical."""
    leaf = ellipsoid((0, 0, length / 2), (width / 2, thickness, length / 2), 10)
    leaf = rotated(leaf, "y", tilt)
    leaf = rotated(leaf, "z", azimuth)
    return moved(leaf, base)


@builder("plant")
def plant(b: Builder):
    w, d, h = b.w, b.d, b.h
    pot_h = min(0.35, 0.3 * h)
    pot_r = min(w, d) * b.uniform(0.26, 0.32)
    pot_rgb = b.choice([(0.76, 0.38, 0.22), (0.93, 0.93, 0.9), (0.2, 0.2, 0.22), (0.55, 0.65, 0.7)])
    b.add("pot", lathe([(0, 0), (pot_r * 0.78, 0), (pot_r, pot_h - 0.03), (pot_r + 0.012, pot_h - 0.03),
                        (pot_r + 0.012, pot_h), (pot_r - 0.01, pot_h), (pot_r - 0.01, pot_h - 0.02),
                        (0, pot_h - 0.02)], 28), b.mat("ceramic", pot_rgb, roughness=0.5))
    b.add("soil", cylinder(pot_r - 0.01, pot_h - 0.03, pot_h - 0.015, sections=20), b.mat("soil", (0.22, 0.14, 0.08)))
    style = b.choice(["leafy", "tree", "upright"])
    leaves_a, leaves_b, stems = [], [], []
    top = (0, 0, pot_h - 0.02)
    reach = min(w, d) / 2
    if style == "tree":
        trunk_top = h * 0.55
        stems.append(rod(top, (0, 0, trunk_top), 0.015, 8))
        crown_r = min(reach * 0.95, (h - trunk_top) / 2)
        cz = h - crown_r
        for _ in range(70):
            v = b.rng.normal(size=3)
            v /= np.linalg.norm(v)
            p = np.array([0, 0, cz]) + v * crown_r * b.rng.uniform(0.55, 0.85)
            leaf = _leaf(0.11, 0.06, float(np.degrees(np.arccos(np.clip(v[2], -1, 1)))),
                         float(np.degrees(np.arctan2(v[1], v[0]))), p)
            (leaves_a if b.rng.random() < 0.5 else leaves_b).append(leaf)
        stems += [rod((0, 0, trunk_top - 0.05), (0.4 * crown_r * math.cos(a), 0.4 * crown_r * math.sin(a), cz), 0.008, 6)
                  for a in (0.5, 2.6, 4.4)]
    else:
        n = 22 if style == "leafy" else 12
        for i in range(n):
            az = 360 * i / n + b.uniform(-10, 10)
            if style == "leafy":
                tilt = b.uniform(20, 62)
                length = min((h - pot_h) / math.cos(math.radians(tilt)), reach / math.sin(math.radians(tilt))) * b.uniform(0.75, 1.0)
                width = 0.09
            else:
                tilt = b.uniform(3, 18)
                length = (h - pot_h) * b.uniform(0.6, 1.0) / math.cos(math.radians(tilt))
                width = 0.07
            r0 = pot_r * 0.3
            base = (r0 * math.cos(math.radians(az)), r0 * math.sin(math.radians(az)), pot_h - 0.03)
            leaf = _leaf(length, width, tilt, az, base)
            (leaves_a if i % 2 else leaves_b).append(leaf)
    if stems:
        b.add("stems", stems, b.mat("wood", (0.35, 0.25, 0.15)))
    b.add("leaves", leaves_a, b.main)
    b.add("leaves dark", leaves_b, b.main_as("leaves", 0.72))


@builder("floor lamp")
def floor_lamp(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = w / 2
    metal = b.main_as("metal")
    shade_h = min(0.38, 0.24 * h)
    b.add("base", lathe([(0, 0), (r * 0.65, 0), (r * 0.6, 0.03), (0.03, 0.04), (0, 0.04)], 28), metal)
    b.add("pole", cylinder(0.012, 0.03, h - shade_h * 0.5, sections=10), metal)
    shade_rgb = b.choice([(0.95, 0.92, 0.82), (0.93, 0.93, 0.91), (0.85, 0.78, 0.62)])
    shade_m = lathe([(r * 0.75, h - shade_h), (r, h - shade_h), (r * 0.7, h), (r * 0.7 - 0.005, h),
                     (r - 0.005, h - shade_h + 0.002), (r * 0.75, h - shade_h + 0.002)], 28)
    b.add("shade", shade_m, b.mat("fabric", shade_rgb))
    b.add("bulb", sphere((0, 0, h - shade_h * 0.45), 0.04, 12), b.mat("light", (1.0, 0.9, 0.7)))
    b.add("switch", box((0.018, 0, h * 0.55), (0.02, 0.025, 0.06)), b.mat("plastic", BLACK))


@builder("yoga mat")
def yoga_mat(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = h / 2
    b.add("mat", slab(rounded_rect(w, d - r, 0.02), 0, 0.006, (0, r / 2)))
    b.add("roll", disc_x(r, -w / 2, w / 2, -d / 2 + r, r, 32), b.main_as("rubber", 0.92))
    rings = [torus(r * f, 0.0025, (sx * (w / 2 + 0.0005), -d / 2 + r, r), "x", 28, 6)
             for sx in (-1, 1) for f in (0.35, 0.6, 0.85)]
    b.add("spiral", rings, b.main_as("rubber", 0.6))


@builder("cycle")
def cycle(b: Builder):
    w, d, h = b.w, b.d, b.h
    frame = b.main_as("metal", 1.0, metallic=0.4)
    black = b.mat("rubber", BLACK)
    yr, yf = -d / 2 + 0.05, d / 2 - 0.05
    b.add("stabilisers", [rod((-w / 2 + 0.03, yr, 0.035), (w / 2 - 0.03, yr, 0.035), 0.03, 12),
                          rod((-w / 2 + 0.03, yf, 0.035), (w / 2 - 0.03, yf, 0.035), 0.03, 12)], frame)
    b.add("feet", [sphere((sx * (w / 2 - 0.03), y, 0.035), 0.035, 10) for sx in (-1, 1) for y in (yr, yf)], black)
    seat_z = 0.72 * h
    bar_z = 0.88 * h
    fw_r = 0.21
    fw_c = (0.0, d / 2 - 0.3, fw_r + 0.08)
    tubes = [rod((0, yr, 0.05), (0, -0.05, 0.3), 0.025, 10),             # rear strut
             rod((0, -0.05, 0.3), (0, -d / 2 + 0.28, seat_z - 0.05), 0.028, 10),  # seat post
             rod((0, -0.05, 0.3), (0, d / 2 - 0.22, bar_z - 0.1), 0.03, 10),      # down tube to bars
             rod((0, d / 2 - 0.3, 0.1), (0, yf, 0.05), 0.025, 10),
             rod((0, -0.05, 0.3), (0, fw_c[1], fw_c[2]), 0.025, 10)]
    b.add("frame", tubes, frame)
    b.add("flywheel", [disc_x(fw_r, -0.025, 0.025, fw_c[1], fw_c[2], 36)], b.mat("chrome", STEEL))
    b.add("flywheel cover", [disc_x(fw_r * 0.5, -0.03, 0.03, fw_c[1], fw_c[2], 24),
                             torus(fw_r, 0.012, fw_c, "x", 36, 8)], b.mat("plastic", BLACK))
    crank = (0, -0.05, 0.3)
    pedals = [disc_x(0.07, -0.04, 0.04, crank[1], crank[2], 20)]
    for sx, a in ((-1, 40), (1, 220)):
        tip = (sx * 0.1, crank[1] + 0.16 * math.cos(math.radians(a)), crank[2] + 0.16 * math.sin(math.radians(a)))
        pedals += [rod((sx * 0.06, crank[1], crank[2]), tip, 0.012, 8),
                   box((sx * 0.16, tip[1], tip[2]), (0.1, 0.05, 0.025))]
    b.add("pedals", pedals, black)
    saddle = superellipsoid((0, -d / 2 + 0.28, seat_z), (0.09, 0.14, 0.035), 0.6, 16)
    b.add("saddle", saddle, black)
    bar_y = d / 2 - 0.2
    b.add("handlebar", [rod((-w / 2 + 0.04, bar_y, bar_z), (w / 2 - 0.04, bar_y, bar_z), 0.016, 10),
                        rod((-w / 2 + 0.04, bar_y, bar_z), (-0.12, bar_y + 0.12, bar_z + 0.02), 0.016, 10),
                        rod((w / 2 - 0.04, bar_y, bar_z), (0.12, bar_y + 0.12, bar_z + 0.02), 0.016, 10)], black)
    b.add("console", moved(rotated(box((0, 0, 0), (0.16, 0.03, 0.1)), "x", -30), (0, bar_y - 0.02, h - 0.05)),
          b.mat("plastic", (0.15, 0.15, 0.17)))
    b.add("screen", moved(rotated(box((0, 0, 0), (0.11, 0.004, 0.06)), "x", -30), (0, bar_y - 0.003, h - 0.04)),
          b.mat("light", (0.5, 0.8, 0.9), emission=1.0))


@builder("exercise machine")
def treadmill(b: Builder):
    w, d, h = b.w, b.d, b.h
    frame = b.main_as("metal", 1.0, metallic=0.4)
    dark = b.mat("rubber", (0.1, 0.1, 0.11))
    deck_w = w - 0.12
    hood_d = 0.32
    yf = d / 2 - hood_d
    b.add("deck", [cuboid(-deck_w / 2, deck_w / 2, -d / 2, yf, 0.04, 0.17)] +
          [box((sx * deck_w / 2.3, y, 0.02), (0.06, 0.08, 0.04)) for sx in (-1, 1) for y in (-d / 2 + 0.05, yf - 0.05)],
          frame)
    b.add("belt", cuboid(-deck_w / 2 + 0.06, deck_w / 2 - 0.06, -d / 2 + 0.02, yf, 0.17, 0.18), dark)
    b.add("side rails", [cuboid(sx * (deck_w / 2 - 0.06), sx * deck_w / 2, -d / 2 + 0.04, yf, 0.17, 0.185)
                         for sx in (-1, 1)], b.mat("metal", STEEL))
    b.add("motor hood", superellipsoid((0, yf + hood_d / 2, 0.16), (deck_w / 2, hood_d / 2, 0.14), 0.35),
          b.mat("plastic", (0.12, 0.12, 0.13)))
    post_x = w / 2 - 0.04
    console_z = h - 0.12
    uprights = [rod((sx * post_x, yf + 0.1, 0.2), (sx * post_x, yf - 0.05, console_z), 0.03, 10) for sx in (-1, 1)]
    rails = [rod((sx * post_x, yf - 0.05, console_z - 0.25), (sx * post_x, yf - 0.45, console_z - 0.25), 0.02, 10)
             for sx in (-1, 1)]
    b.add("uprights", uprights + rails, frame)
    console = moved(rotated(box((0, 0, 0), (w - 0.05, 0.2, 0.1)), "x", 25), (0, yf - 0.08, console_z + 0.03))
    b.add("console", console, b.mat("plastic", (0.15, 0.15, 0.17)))
    b.add("screen", moved(rotated(box((0, 0, 0), (0.3, 0.004, 0.12)), "x", -65), (0, yf - 0.16, console_z + 0.085)),
          b.mat("light", (0.4, 0.75, 0.95), emission=1.0))
