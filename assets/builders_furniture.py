"""Builders for furniture, fixtures and openings (local frame: +y front, z up, origin at the
footprint centre on the floor; each builder fills the box (b.w, b.d, b.h))."""

from __future__ import annotations

import math

import numpy as np

from assets.geometry import (box, cuboid, cylinder, disc_x, disc_y, ellipse, ellipsoid, extrude,
                             frame_xz, frustum, lathe, merge, moved, ring_prism, rod, rotated,
                             rounded_rect, scaled, slab, sphere, superellipsoid, torus, tube)
from assets.models import Builder, builder

DARK_WOOD = (0.22, 0.13, 0.07)
BLACK = (0.05, 0.05, 0.06)
STEEL = (0.78, 0.79, 0.80)
WHITE = (0.93, 0.93, 0.91)


# --- shared pieces ------------------------------------------------------------------------

def fronts(x0, x1, z0, z1, y, rows, cols, kind="door", handle="knob", gap=0.004, t=0.018,
           hinge_left=True):
    """Door or drawer fronts on the face y (protruding t towards +y) plus their handles.

    Returns (panels, handles). Door pairs get handles at the meeting edge; drawers centred.
    """
    panels, handles = [], []
    xs = np.linspace(x0, x1, cols + 1)
    zs = np.linspace(z0, z1, rows + 1)
    for r in range(rows):
        for c in range(cols):
            xa, xb, za, zb = xs[c] + gap, xs[c + 1] - gap, zs[r] + gap, zs[r + 1] - gap
            panels.append(cuboid(xa, xb, y, y + t, za, zb))
            if handle == "none":
                continue
            if kind == "drawer":
                hx, hz = (xa + xb) / 2, zb - min(0.05, (zb - za) / 2)
            else:
                opens_right = (c % 2 == 0) if cols > 1 else hinge_left
                hx = xb - 0.04 if opens_right else xa + 0.04
                hz = za + (zb - za) * (0.85 if zb > 1.2 else 0.8) if za < 0.9 else za + 0.08
                if zb - za > 1.2:
                    hz = min(1.05, (za + zb) / 2)
            yt = y + t
            if handle == "knob":
                handles.append(disc_y(0.012, yt, yt + 0.022, hx, hz, 12))
            elif handle == "bar" and kind == "drawer":
                half = min(0.08, (xb - xa) / 4)
                handles += [rod((hx - half, yt + 0.025, hz), (hx + half, yt + 0.025, hz), 0.006),
                            rod((hx - half, yt, hz), (hx - half, yt + 0.025, hz), 0.005),
                            rod((hx + half, yt, hz), (hx + half, yt + 0.025, hz), 0.005)]
            else:  # vertical bar on doors
                half = min(0.12, (zb - za) / 5)
                handles += [rod((hx, yt + 0.025, hz - half), (hx, yt + 0.025, hz + half), 0.006),
                            rod((hx, yt, hz - half), (hx, yt + 0.025, hz - half), 0.005),
                            rod((hx, yt, hz + half), (hx, yt + 0.025, hz + half), 0.005)]
    return panels, handles


def four_legs(w, d, z1, thick, inset=0.0, round_legs=False, taper=1.0):
    legs = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            x = sx * (w / 2 - inset - thick / 2)
            y = sy * (d / 2 - inset - thick / 2)
            if round_legs:
                legs.append(frustum(thick / 2 * taper, thick / 2, 0, z1, x, y, 12))
            else:
                legs.append(cuboid(x - thick / 2, x + thick / 2, y - thick / 2, y + thick / 2, 0, z1))
    return legs


# --- seating and tables -------------------------------------------------------------------

@builder("chair")
def chair(b: Builder):
    w, d, h = b.w, b.d, b.h
    seat_top = 0.5 * h
    style = b.choice(["slats", "panel", "ladder", "office", "upholstered"])
    cushion_rgb = b.choice([(0.85, 0.82, 0.74), (0.55, 0.12, 0.12), (0.3, 0.3, 0.32),
                            (0.2, 0.3, 0.55)])
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
              b.mat("fabric", cushion_rgb))
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
              b.mat("fabric", cushion_rgb))
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
    b.surface(seat_top, -inner_w / 2, inner_w / 2, seat_y0, d / 2)


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
    b.add("mattress", superellipsoid((0, (y0 + d / 2 - 0.04) / 2, top - 0.13),
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
    b.add("sheet", cuboid(-w / 2 + 0.05, w / 2 - 0.05, y0 + 0.02, fold, top - 0.035, top - 0.025),
          b.mat("fabric", (0.96, 0.96, 0.94)))
    b.surface(top, -w / 2 + 0.05, w / 2 - 0.05, y0 + 0.05, d / 2 - 0.05)


# --- storage ------------------------------------------------------------------------------

@builder("bookshelf")
def bookshelf(b: Builder):
    w, d, h = b.w, b.d, b.h
    t = 0.022
    body = [cuboid(-w / 2, -w / 2 + t, -d / 2, d / 2, 0, h - t), cuboid(w / 2 - t, w / 2, -d / 2, d / 2, 0, h - t),
            cuboid(-w / 2, w / 2, -d / 2, d / 2, h - t, h),
            cuboid(-w / 2 + t, w / 2 - t, d / 2 - 0.03, d / 2 - 0.01, 0, 0.04 * h - t)]  # plinth
    levels = sorted(b.category.support_levels)[:-1]
    shelves = [cuboid(-w / 2 + t, w / 2 - t, -d / 2 + 0.01, d / 2 - 0.005, z * h - t, z * h) for z in levels]
    b.add("carcass", body + shelves)
    b.add("back panel", cuboid(-w / 2 + t, w / 2 - t, -d / 2, -d / 2 + 0.008, 0, h - t), b.main_as("wood", 0.6))
    for z in levels:
        b.surface(z * h, -w / 2 + t, w / 2 - t, -d / 2 + 0.01, d / 2 - 0.01)
    b.surface(h)


@builder("cabinet")
def cabinet(b: Builder):
    w, d, h = b.w, b.d, b.h
    style = b.choice(["doors", "drawers", "mixed"])
    plinth = 0.07
    yb = d / 2 - 0.05   # door fronts (17 mm) and bar handles (31 mm) fit inside d
    b.add("carcass", [cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2, yb, plinth, h - 0.025),
                      cuboid(-w / 2 + 0.04, w / 2 - 0.04, -d / 2 + 0.02, yb - 0.04, 0, plinth)],
          b.main_as("wood", 0.9))
    b.add("top", cuboid(-w / 2, w / 2, -d / 2, d / 2, h - 0.025, h), b.main_as("wood", 0.95))
    cols = 2 if w > 0.6 else 1
    kw = dict(t=0.017)
    if style == "doors":
        p, hd = fronts(-w / 2 + 0.01, w / 2 - 0.01, plinth, h - 0.03, yb, 1, cols, "door", "bar_v", **kw)
    elif style == "drawers":
        p, hd = fronts(-w / 2 + 0.01, w / 2 - 0.01, plinth, h - 0.03, yb, 4, 2 if w > 0.9 else 1,
                       "drawer", "bar", **kw)
    else:
        split = h - 0.2
        p, hd = fronts(-w / 2 + 0.01, w / 2 - 0.01, plinth, split, yb, 1, cols, "door", "knob", **kw)
        p2, hd2 = fronts(-w / 2 + 0.01, w / 2 - 0.01, split, h - 0.03, yb, 1, cols, "drawer", "knob", **kw)
        p, hd = p + p2, hd + hd2
    b.add("fronts", p, b.main_as("wood", 1.06))
    b.add("handles", hd, b.mat("metal", STEEL))
    b.surface(h)


@builder("stand")
def stand(b: Builder):
    w, d, h = b.w, b.d, b.h
    leg_h = 0.1
    media = w > 0.9
    b.add("top", cuboid(-w / 2, w / 2, -d / 2, d / 2, h - 0.025, h))
    yb = d / 2 - 0.04
    b.add("legs", four_legs(w - 0.03, d - 0.03, leg_h + 0.01, 0.035, round_legs=True, taper=0.6),
          b.mat("wood", DARK_WOOD) if b.color_name in ("white", "black") else b.main_as("wood", 0.7))
    body = [cuboid(-w / 2 + 0.01, -w / 2 + 0.03, -d / 2, yb, leg_h, h - 0.025),
            cuboid(w / 2 - 0.03, w / 2 - 0.01, -d / 2, yb, leg_h, h - 0.025),
            cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2 + 0.01, yb, leg_h, leg_h + 0.02),
            cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2, -d / 2 + 0.01, leg_h, h - 0.025)]
    mid = leg_h + (h - leg_h) * (0.45 if media else 0.55)
    body.append(cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2 + 0.01, yb, mid - 0.018, mid))
    if media:
        body.append(cuboid(-0.01, 0.01, -d / 2 + 0.01, yb - 0.005, leg_h + 0.02, mid - 0.018))  # divider
    b.add("carcass", body, b.main_as("wood", 0.9))
    p, hd = fronts(-w / 2 + 0.03, w / 2 - 0.03, mid, h - 0.03, yb, 1, 2 if media else 1, "drawer", "knob")
    b.add("drawers", p, b.main_as("wood", 1.06))
    b.add("knobs", hd, b.mat("metal", (0.8, 0.68, 0.3)))
    b.add("inside", cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2 + 0.01, -d / 2 + 0.012, leg_h + 0.02, mid - 0.018),
          b.main_as("wood", 0.55))
    b.surface(h)


@builder("cupboard")
def cupboard(b: Builder):
    w, d, h = b.w, b.d, b.h
    ledge = 0.47 * h
    yb = d / 2 - 0.04
    upper_d = 0.6 * d
    b.add("lower carcass", [cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2, yb, 0.06, ledge - 0.03),
                            cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2, yb - 0.04, 0, 0.06)],
          b.main_as("wood", 0.9))
    b.add("counter", cuboid(-w / 2, w / 2, -d / 2, d / 2, ledge - 0.03, ledge), b.main_as("wood", 0.95))
    p, hd = fronts(-w / 2 + 0.01, w / 2 - 0.01, 0.06, ledge - 0.035, yb, 1, 2, "door", "knob")
    uy = -d / 2 + upper_d
    top = h - 0.05
    upper = [cuboid(-w / 2 + 0.01, -w / 2 + 0.03, -d / 2, uy, ledge, top - 0.03),
             cuboid(w / 2 - 0.03, w / 2 - 0.01, -d / 2, uy, ledge, top - 0.03),
             cuboid(-w / 2 + 0.01, w / 2 - 0.01, -d / 2, uy, top - 0.03, top),
             cuboid(-w / 2, w / 2, -d / 2, uy + 0.04, top, h)]                      # crown
    b.add("upper carcass", upper, b.main_as("wood", 0.9))
    b.add("interior", [cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2, -d / 2 + 0.01, ledge, top - 0.03)] +
          [cuboid(-w / 2 + 0.03, w / 2 - 0.03, -d / 2 + 0.01, uy - 0.02, z - 0.015, z)
           for z in np.linspace(ledge + 0.3, top - 0.3, 2)], b.mat("wood", (0.88, 0.84, 0.76)))
    glass_doors, glass = [], []
    for sx in (-1, 1):
        x0, x1 = (sx * 0.002, sx * (w / 2 - 0.01))
        cx, dw = (x0 + x1) / 2, abs(x1 - x0)
        glass_doors.append(moved(frame_xz(dw, top - 0.035 - ledge - 0.04, 0.05, uy, uy + 0.02, 0, 0),
                                 (cx, 0, ledge + 0.005)))
        glass.append(box((cx, uy + 0.01, (ledge + top - 0.03) / 2), (dw - 0.09, 0.006, top - ledge - 0.15)))
        hd.append(disc_y(0.012, uy + 0.02, uy + 0.04, sx * 0.04, ledge + 0.2, 12))
    b.add("fronts", p + glass_doors, b.main_as("wood", 1.06))
    b.add("glass", glass, b.mat("glass", (0.75, 0.85, 0.9)))
    b.add("knobs", hd, b.mat("metal", STEEL))
    b.surface(ledge, -w / 2, w / 2, uy, d / 2)


@builder("wardrobe")
def wardrobe(b: Builder):
    w, d, h = b.w, b.d, b.h
    yb = d / 2 - 0.05
    b.add("carcass", [cuboid(-w / 2 + 0.015, w / 2 - 0.015, -d / 2, yb, 0.08, h - 0.04),
                      cuboid(-w / 2 + 0.04, w / 2 - 0.04, -d / 2, yb - 0.03, 0, 0.08),
                      cuboid(-w / 2, w / 2, -d / 2, d / 2, h - 0.04, h)], b.main_as("wood", 0.9))
    n_doors = 3 if w > 1.3 else 2
    drawer_top = 0.08 + 0.16 * h
    p, hd = fronts(-w / 2 + 0.015, w / 2 - 0.015, drawer_top, h - 0.045, yb, 1, n_doors, "door", "bar_v")
    p2, hd2 = fronts(-w / 2 + 0.015, w / 2 - 0.015, 0.08, drawer_top, yb, 1, 2, "drawer", "bar")
    b.add("doors", p + p2, b.main_as("wood", 1.05))
    b.add("handles", hd + hd2, b.mat("metal", STEEL))


@builder("locker")
def locker(b: Builder):
    w, d, h = b.w, b.d, b.h
    cols = max(2, round(w / 0.32))
    yb = d / 2 - 0.015
    b.add("carcass", [cuboid(-w / 2, w / 2, -d / 2, yb, 0.1, h),
                      cuboid(-w / 2 + 0.02, w / 2 - 0.02, -d / 2, yb - 0.03, 0, 0.1)],
          b.main_as("metal", 0.85))
    p, _ = fronts(-w / 2 + 0.01, w / 2 - 0.01, 0.11, h - 0.01, yb, 1, cols, "door", "none",
                  gap=0.005, t=0.012)
    b.add("doors", p, b.main_as("metal", 1.0))
    xs = np.linspace(-w / 2 + 0.01, w / 2 - 0.01, cols + 1)
    vents, latches, tags = [], [], []
    for c in range(cols):
        x0, x1 = xs[c] + 0.04, xs[c + 1] - 0.04
        for z0 in (h - 0.2, 0.25):
            vents += [cuboid(x0, x1, yb + 0.012, yb + 0.014, z0 + k * 0.025, z0 + k * 0.025 + 0.01)
                      for k in range(5)]
        latches.append(cuboid(xs[c + 1] - 0.06, xs[c + 1] - 0.035, yb + 0.012, yb + 0.015 + 0.02,
                              h * 0.5 - 0.06, h * 0.5 + 0.06))
        tags.append(cuboid((x0 + x1) / 2 - 0.04, (x0 + x1) / 2 + 0.04, yb + 0.012, yb + 0.014,
                           h - 0.33, h - 0.28))
    b.add("vents", vents, b.mat("metal", BLACK))
    b.add("latches", latches, b.mat("metal", STEEL))
    b.add("tags", tags, b.mat("paper", WHITE))
    b.surface(h)


@builder("safe")
def safe(b: Builder):
    w, d, h = b.w, b.d, b.h
    yb = d / 2 - 0.06
    b.add("body", [cuboid(-w / 2, w / 2, -d / 2, yb, 0.03, h)] + four_legs(w, d - 0.1, 0.031, 0.05),
          b.main_as("metal", 1.0, metallic=0.5))
    b.add("door", cuboid(-w / 2 + 0.04, w / 2 - 0.04, yb, yb + 0.03, 0.07, h - 0.04), b.main_as("metal", 1.15))
    cx, cz = 0.0, (h + 0.03) / 2 + 0.02
    dial_r = min(w, h) * 0.11
    b.add("dial", [disc_y(dial_r, yb + 0.03, yb + 0.045, cx - w * 0.12, cz + 0.05, 24),
                   disc_y(dial_r * 0.45, yb + 0.045, yb + 0.06, cx - w * 0.12, cz + 0.05, 16)],
          b.mat("metal", BLACK))
    hub = (w * 0.18, yb + 0.06, cz - 0.06)
    spokes = [disc_y(0.02, yb + 0.03, yb + 0.06, hub[0], hub[2], 12)]
    for a in (90, 210, 330):
        tip = (hub[0] + 0.08 * math.cos(math.radians(a)), hub[1], hub[2] + 0.08 * math.sin(math.radians(a)))
        spokes += [rod(hub, tip, 0.008, 8), sphere(tip, 0.014, 8)]
    hinges = [cylinder(0.012, z, z + 0.08, -w / 2 + 0.045, yb + 0.03, 10) for z in (0.15, h - 0.2)]
    b.add("handle", spokes + hinges, b.mat("chrome", STEEL))
    b.surface(h)


# --- openings and wall things ------------------------------------------------------------

@builder("door")
def door(b: Builder):
    w, d, h = b.w, b.d, b.h
    jamb = 0.06
    b.add("frame", [cuboid(-w / 2, -w / 2 + jamb, -d / 2, d / 2, 0, h),
                    cuboid(w / 2 - jamb, w / 2, -d / 2, d / 2, 0, h),
                    cuboid(-w / 2 + jamb, w / 2 - jamb, -d / 2, d / 2, h - jamb, h)], b.mat("wood", WHITE)
          if b.color_name != "white" else b.mat("wood", (0.85, 0.84, 0.8)))
    lw, lh, lt = w - 2 * jamb - 0.006, h - jamb - 0.01, 0.04
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


@builder("picture")
def picture(b: Builder):
    w, d, h = b.w, b.d, b.h
    bar = min(0.05, 0.08 * min(w, h))
    b.add("frame", frame_xz(w, h, bar, -d / 2, d / 2))
    y = d / 2 - 0.012   # canvas surface, recessed behind the frame front
    b.add("mat", cuboid(-w / 2 + bar, w / 2 - bar, -d / 2, y - 0.001, bar, h - bar), b.mat("paper", (0.95, 0.94, 0.9)))
    iw, ih = w - 2 * bar - 0.04, h - 2 * bar - 0.04
    z0 = bar + 0.02
    scene = b.choice(["landscape", "sea", "abstract", "flowers"])

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
