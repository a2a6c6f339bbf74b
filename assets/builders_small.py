"""Builders for small things, textiles and tableware (+y front, z up, fill (b.w, b.d, b.h)).

Small objects must read at 640x480 from 1-2 m, so they get saturated colours, contrasting
secondary parts and slightly exaggerated features (thick glasses frames, mouse on a pad)."""

from __future__ import annotations

import math

import numpy as np

from assets.geometry import (arc_points, cuboid, cylinder, disc_x, disc_y, ellipse, ellipsoid,
                             extrude, extrude_xz, lathe, moved, ring_prism, rod, rotated,
                             rounded_rect, scaled, slab, sphere, superellipsoid, torus, tube)
from assets.builder import Builder, builder

BLACK = (0.05, 0.05, 0.06)
WHITE = (0.95, 0.95, 0.93)
STEEL = (0.78, 0.79, 0.80)
GOLD = (0.85, 0.68, 0.25)


def vessel(r_bottom, r_top, height, wall=0.004, base=0.006, bulge=0.0, sections=32):
    """Open-topped hollow vessel (cup, bowl, glass) as one closed lathe profile."""
    n = 8
    zs = np.linspace(0, height, n)
    rs = r_bottom + (r_top - r_bottom) * (zs / height) ** 0.8 + bulge * np.sin(np.pi * zs / height)
    outside = [(0.0, 0.0)] + list(zip(rs, zs))
    inside = list(zip(np.maximum(rs - wall, 0.001)[::-1], np.maximum(zs[::-1], base)))
    inside[-1] = (inside[-1][0], base)
    return lathe(outside + inside + [(0.0, base)], sections)


@builder("cup")
def cup(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = d / 2
    b.add("body", moved(vessel(r * 0.9, r, h, 0.005, 0.008), (-(w - d) / 2, 0, 0)))
    cx = -(w - d) / 2
    b.add("inside", cylinder(r - 0.0045, 0.008, 0.0085, cx, 0, 24), b.mat("ceramic", WHITE))
    drink = b.choice([(0.25, 0.13, 0.06), (0.55, 0.35, 0.2), (0.45, 0.2, 0.08)])
    b.add("drink", cylinder(r - 0.005, 0.009, h * 0.8, cx, 0, 24), b.mat("liquid", drink, transmission=0.0))
    reach = w - d + 0.004
    handle = tube([(cx + r - 0.004, 0, h * 0.8)] + [(cx + r - 0.004 + reach * math.sin(a), 0, h * 0.5 + h * 0.3 * math.cos(a))
                                                   for a in np.linspace(0.3, math.pi - 0.3, 9)] +
                  [(cx + r - 0.004, 0, h * 0.2)], 0.0055, 8)
    b.add("handle", handle)


@builder("tumbler")
def tumbler(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = w / 2
    b.add("glass", vessel(r * 0.85, r, h, 0.0025, 0.012), b.mat("glass", (0.8, 0.9, 0.95)))
    # coloured drinks: a glass of water alone is nearly invisible at 640x480
    liquid = b.choice([((0.98, 0.55, 0.05), "juice"), ((0.35, 0.65, 0.95), "water"), ((0.45, 0.15, 0.05), "cola"),
                       ((0.98, 0.55, 0.05), "juice")])
    level = h * b.uniform(0.55, 0.75)
    b.add("drink", lathe([(0, 0.012), (r * 0.85 - 0.002, 0.012), (r * 0.85 + (r * 0.15) * (level / h) ** 0.8 - 0.003, level),
                          (0, level)], 24), b.mat("liquid", liquid[0], transmission=0.2))
    b.add("rim", torus(r - 0.0012, 0.0014, (0, 0, h - 0.0014), "z", 32, 6), b.mat("glass", (0.95, 0.97, 1.0)))


@builder("bowl")
def bowl(b: Builder):
    """A bowl with a flat inside bottom (its support level: a fruit lies there) curving up to
    the rim; a foot ring under it."""
    w, d, h = b.w, b.d, b.h
    r = w / 2
    floor_z = b.category.support_levels[0] * h      # the inside bottom
    flat = 0.6 * r                                  # radius of the flat inside bottom
    ts = np.linspace(0.0, math.pi / 2, 10)
    prof_out = [(0, 0), (r * 0.5, 0), (r * 0.52, 0.006)] + [
        (r * (0.52 + 0.48 * math.sin(t)), 0.006 + (h - 0.006) * (1 - math.cos(t))) for t in ts[1:]]
    inner = [(flat + (r - 0.005 - flat) * math.sin(t), floor_z + (h - floor_z) * (1 - math.cos(t)))
             for t in ts[::-1]]
    b.add("outside", lathe(prof_out + inner + [(0, floor_z)], 36))
    # white glaze inside, a hair above the body's inner wall so it is what one sees
    glaze = [(x - 0.0006, z + 0.0006) for x, z in inner[1:]] + [(0, floor_z + 0.0006)]
    b.add("inside", lathe(glaze, 36), b.mat("ceramic", WHITE))
    # a fruit's box within this square stays over the flat bottom but for its 1 cm rim
    k = flat / math.sqrt(2) + 0.01
    b.surface(floor_z, -k, k, -k, k)


@builder("plate")
def plate(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = w / 2
    rim_in = r * 0.72
    prof = [(0, 0), (r * 0.45, 0), (r * 0.5, 0.006), (rim_in, 0.007), (r, h), (r - 0.003, h),
            (rim_in - 0.002, h * 0.45 + 0.002), (0, h * 0.45)]
    b.add("plate", lathe(prof, 40), b.mat("ceramic", WHITE) if b.color_name != "white" else b.main)
    band = lathe([(rim_in + 0.01, h * 0.6 + 0.0008), (r - 0.012, h * 0.9 + 0.0008), (r - 0.016, h * 0.9 + 0.0003),
                  (rim_in + 0.006, h * 0.6 + 0.0003)], 40)
    b.add("rim band", band, b.main if b.color_name != "white" else b.mat("ceramic", (0.15, 0.3, 0.65)))


@builder("pot")
def pot(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = d / 2
    body_h = h * 0.72
    metal = b.main_as("metal") if b.color_name in ("silver",) else b.main_as("painted metal")
    b.add("body", vessel(r, r, body_h, 0.004, 0.005), metal)
    b.add("lid", lathe([(0, body_h), (r + 0.004, body_h), (r * 0.9, body_h + h * 0.08), (0.02, body_h + h * 0.12),
                        (0, body_h + h * 0.12)], 36), b.mat("glass", (0.85, 0.9, 0.92)))
    b.add("lid rim", torus(r, 0.004, (0, 0, body_h + 0.003), "z", 36, 6), b.mat("metal", STEEL))
    b.add("knob", lathe([(0, 0), (0.012, 0), (0.02, h * 0.11), (0, h * 0.18)], 16, (0, 0, body_h + h * 0.1)),
          b.mat("plastic", BLACK))
    loops = []
    for sx in (-1, 1):
        pts = [(sx * (r - 0.002), -0.03, body_h * 0.82), (sx * (w / 2 - 0.008), -0.025, body_h * 0.84),
               (sx * (w / 2 - 0.008), 0.025, body_h * 0.84), (sx * (r - 0.002), 0.03, body_h * 0.82)]
        loops.append(tube(pts, 0.008, 8))
    b.add("handles", loops, b.mat("plastic", BLACK))


@builder("vase")
def vase(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = w / 2
    style = b.choice(["amphora", "bottle", "trumpet"])
    if style == "amphora":
        rs = [0.5, 0.8, 1.0, 0.95, 0.6, 0.4, 0.45, 0.55]
    elif style == "bottle":
        rs = [0.7, 0.95, 1.0, 0.9, 0.45, 0.22, 0.22, 0.3]
    else:
        rs = [0.6, 0.45, 0.35, 0.32, 0.38, 0.5, 0.75, 1.0]
    zs = np.linspace(0, h, len(rs))
    outside = [(0, 0)] + [(r * k, z) for k, z in zip(rs, zs)]
    inside = [(r * rs[-1] - 0.005, h), (r * rs[-2] - 0.005, zs[-2]), (0, zs[-2] - 0.02)]
    b.add("vase", lathe(outside + inside, 36))
    band_z = h * (0.55 if style != "trumpet" else 0.2)
    band_r = float(np.interp(band_z, zs, rs)) * r
    accent = b.choice([(0.95, 0.92, 0.8), (0.85, 0.68, 0.25), (0.1, 0.15, 0.35)])
    b.add("band", lathe([(band_r + 0.0015, band_z - 0.012), (band_r + 0.0015, band_z + 0.012),
                         (band_r - 0.004, band_z + 0.012), (band_r - 0.004, band_z - 0.012)], 36),
          b.mat("ceramic", accent))


@builder("wine")
def wine(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = w / 2
    shoulder = h * 0.62
    prof = [(0, 0), (r, 0.002), (r, shoulder), (r * 0.8, shoulder + h * 0.06), (r * 0.38, shoulder + h * 0.14),
            (r * 0.36, h - 0.004), (r * 0.4, h), (0, h)]
    b.add("bottle", lathe(prof, 32), b.main_as("tinted glass", 1.0))
    b.add("label", cylinder(r + 0.0015, h * 0.2, h * 0.5, sections=32), b.mat("paper", (0.95, 0.92, 0.8)))
    b.add("label band", cylinder(r + 0.002, h * 0.42, h * 0.46, sections=32), b.mat("paper", (0.6, 0.1, 0.12)))
    foil = b.choice([(0.55, 0.05, 0.1), GOLD, (0.1, 0.1, 0.1)])
    b.add("capsule", cylinder(r * 0.41, h * 0.86, h + 0.001, sections=20), b.mat("metal", foil, metallic=0.6))


@builder("apple")
def apple(b: Builder):
    w, d, h = b.w, b.d, b.h
    r = w / 2
    body_h = h * 0.88
    prof = [(0, body_h * 0.06)] + [
        (r * math.sin(t) * (1 - 0.12 * math.cos(t) ** 2), body_h / 2 - body_h / 2 * math.cos(t) * 0.98)
        for t in np.linspace(0.15, math.pi - 0.2, 14)] + [(0, body_h * 0.9)]
    b.add("apple", lathe(prof, 28))
    b.add("stem", rod((0, 0, body_h * 0.85), (0.006, 0.002, h), 0.0028, 6), b.mat("wood", (0.35, 0.22, 0.1)))
    leaf = ellipsoid((0, 0, 0), (0.018, 0.008, 0.0015), 10)
    b.add("leaf", moved(rotated(rotated(leaf, "y", -25), "z", 30), (0.016, 0.008, h - 0.006)),
          b.mat("leaves", (0.2, 0.55, 0.15)))


@builder("fruit")
def fruit(b: Builder):
    """One piece of fruit: an orange with a leafy stem (colour orange) or a pear (green,
    yellow). Its colour says which, so a colour question and the picture agree."""
    w, d, h = b.w, b.d, b.h
    r = w / 2
    stem_mat = b.mat("wood", (0.35, 0.22, 0.1))
    leaf_mat = b.mat("leaves", (0.16, 0.45, 0.12))
    if b.color_name == "orange":
        body_h = 0.92 * w                            # a little flattened; the sprig fills the rest
        prof = [(0, 0.004)] + [(r * math.sin(t), body_h / 2 * (1 - math.cos(t)))
                               for t in np.linspace(0.2, math.pi - 0.2, 14)] + [(0, body_h - 0.003)]
        b.add("orange", lathe(prof, 32))
        b.add("calyx", ellipsoid((0, 0, body_h - 0.002), (0.007, 0.007, 0.0025), 8), leaf_mat)
        b.add("stem", rod((0, 0, body_h - 0.003), (0.003, 0, h - 0.006), 0.0022, 6), stem_mat)
        leaf = ellipsoid((0, 0, 0), (0.022, 0.009, 0.0015), 10)
        b.add("leaf", moved(rotated(leaf, "y", -35), (0.018, 0.0, h - 0.0145)), leaf_mat)
        return
    stem_h = 0.016
    body_h = h - stem_h                              # bulb below, a narrow neck above
    shape = [(0.0, 0.0), (0.55, 0.02), (0.88, 0.1), (1.0, 0.24), (0.95, 0.38), (0.78, 0.52),
             (0.6, 0.66), (0.5, 0.78), (0.42, 0.89), (0.25, 0.97), (0.0, 1.0)]
    b.add("pear", lathe([(r * k, body_h * z) for k, z in shape], 32))
    b.add("stem", rod((0, 0, body_h - 0.003), (-0.004, 0.002, h), 0.0022, 6), stem_mat)
    b.add("blossom end", ellipsoid((0, 0, 0.0015), (0.005, 0.005, 0.0015), 8), stem_mat)


@builder("book")
def book(b: Builder):
    """A book lying on its back cover, or, in a box taller than deep (placement stands books up
    on shelves, front cover to the room), the same book stood up with its front cover facing +y."""
    upright = b.h > b.d
    w, d, h = (b.w, b.h, b.d) if upright else (b.w, b.d, b.h)   # the book as it lies: d tall when upright
    cover_t = 0.003
    parts = {
        "covers": [cuboid(-w / 2, w / 2, -d / 2, d / 2, 0, cover_t), cuboid(-w / 2, w / 2, -d / 2, d / 2, h - cover_t, h),
                   cuboid(-w / 2, -w / 2 + 0.006, -d / 2, d / 2, cover_t, h - cover_t)],
        "pages": cuboid(-w / 2 + 0.006, w / 2 - 0.004, -d / 2 + 0.004, d / 2 - 0.004, cover_t, h - cover_t),
        "title": [cuboid(-w / 2 + 0.03, w / 2 - 0.02, d * 0.1, d * 0.3, h, h + 0.0006),
                  cuboid(-w / 2 + 0.03, w / 2 - 0.02, -d * 0.05, d * 0.0, h, h + 0.0006)],
    }
    if upright:   # (x, y, z) -> (-x, z, y): front cover (the top as it lies) to +y, its top
        # edge up, the spine on the viewer's left; then centred in the box on the shelf
        stand = lambda m: moved(rotated(m, (0.0, 1.0, 1.0), 180.0), (0.0, -h / 2, d / 2))  # noqa: E731
        parts = {k: [stand(m) for m in (v if isinstance(v, list) else [v])] for k, v in parts.items()}
    accent = b.choice([(0.95, 0.85, 0.4), (0.95, 0.95, 0.92), (0.1, 0.1, 0.1)])
    b.add("covers", parts["covers"])
    b.add("pages", parts["pages"], b.mat("paper", (0.96, 0.94, 0.86)))
    b.add("title", parts["title"], b.mat("paper", accent))


@builder("print")
def paper_stack(b: Builder):
    w, d, h = b.w, b.d, b.h
    paper = b.mat("paper", (0.97, 0.97, 0.95))
    angle = b.uniform(-3, 3)   # the top sheet lies a little askew
    pw, pd = w - 0.018, d - 0.012   # room for the askew sheet inside w x d
    b.add("stack", cuboid(-pw / 2, pw / 2, -pd / 2, pd / 2, 0, h - 0.002), paper)
    b.add("top sheet", moved(rotated(cuboid(-pw / 2, pw / 2, -pd / 2, pd / 2, 0, 0.001), "z", angle), (0, 0, h - 0.002)), paper)
    lines = [cuboid(-pw / 2 + 0.02, pw / 2 - 0.02 - (0.06 if i % 4 == 3 else 0), y - 0.002, y + 0.002, 0, 0.0003)
             for i, y in enumerate(np.linspace(-pd / 2 + 0.03, pd / 2 - 0.05, 16))]
    lines.append(cuboid(-pw / 2 + 0.02, 0.02, pd / 2 - 0.04, pd / 2 - 0.025, 0, 0.0003))
    b.add("text", [moved(rotated(m, "z", angle), (0, 0, h - 0.001)) for m in lines], b.mat("paper", (0.25, 0.25, 0.3)))
    b.add("clip", cuboid(-0.02, 0.02, pd / 2 - 0.025, pd / 2 + 0.002, h - 0.006, h), b.mat("metal", BLACK))


@builder("eyeglasses")
def eyeglasses(b: Builder):
    """Open glasses standing on rims and temple tips, lenses facing +y."""
    w, d, h = b.w, b.d, b.h
    rim = 0.0055                     # thick frames so they read from a distance
    lens_w = (w / 2 - 0.011 - 2 * rim) / 2   # lens half-width: bridge + two rings span w
    lens_h = h / 2 - rim
    frames = []
    y_front = d / 2 - rim
    for sx in (-1, 1):
        cx = sx * (0.011 + lens_w + rim)
        ring = scaled(torus(1.0, rim / lens_w, (0, 0, 0), "y", 32, 8), (lens_w, 1, lens_h))
        ring.vertices[:, 1] = ring.vertices[:, 1] * lens_w   # keep the tube round in y
        frames.append(moved(ring, (cx, y_front, h / 2)))
        # temples: from the outer edge straight back, dipping at the end
        ox = sx * (w / 2 - rim)
        frames.append(tube([(ox, y_front, h * 0.62), (ox, -d / 2 + 0.035, h * 0.62), (ox, -d / 2 + rim, h * 0.25)],
                           rim * 0.7, 8))
        frames.append(rod((cx - sx * (lens_w - 0.002), y_front, h * 0.7), (ox, y_front, h * 0.62), rim * 0.8, 8))
    frames.append(tube(arc_points(0.012, 20, 160, 8, (0, y_front, h * 0.58), "xz"), rim * 0.8, 8))
    b.add("frame", frames)
    lenses = [moved(rotated(slab(ellipse(lens_w, lens_h, 28), -0.0008, 0.0008), "x", 90),
                    (sx * (0.011 + lens_w + rim), y_front, h / 2)) for sx in (-1, 1)]
    b.add("lenses", lenses, b.mat("glass", (0.55, 0.7, 0.8)))


@builder("headphone")
def headphone(b: Builder):
    w, d, h = b.w, b.d, b.h
    cup_r = d / 2
    cup_t = 0.035
    band_r = w / 2 - cup_t / 2
    cz = cup_r
    band_top = h - 0.009 - (cz + 0.02)          # vertical semi-axis so the arc reaches h
    arc = arc_points(band_r, 0, 180, 24, (0, 0, 0), "xz") * (1, 1, band_top / band_r)
    band = tube(arc + (0, 0, cz + 0.02), 0.009, 10)
    b.add("headband", [band] + [rod((sx * band_r, 0, cz + 0.02), (sx * band_r, 0, cz + 0.045), 0.009, 8) for sx in (-1, 1)])
    pad_arc = arc_points(band_r - 0.01, 55, 125, 12, (0, 0, 0), "xz") * (1, 1, (band_top - 0.01) / (band_r - 0.01))
    pad = tube(pad_arc + (0, 0, cz + 0.02), 0.016, 10)
    b.add("pad", pad, b.mat("fabric", (0.1, 0.1, 0.1)))
    cups = [disc_x(cup_r, sx * (w / 2) - (cup_t if sx > 0 else 0), sx * (w / 2) + (0 if sx > 0 else cup_t), 0, cz, 28)
            for sx in (-1, 1)]
    b.add("ear cups", cups)
    cushions = [moved(rotated(torus(cup_r * 0.7, 0.012, (0, 0, 0), "x", 24, 8), "z", 0),
                      (sx * (w / 2 - cup_t - 0.008), 0, cz)) for sx in (-1, 1)]
    b.add("cushions", cushions, b.mat("leather", (0.12, 0.12, 0.12)))
    b.add("sliders", [rod((sx * band_r, 0, cz + 0.045), (sx * band_r, 0, cz + cup_r * 0.5), 0.004, 6) for sx in (-1, 1)],
          b.mat("metal", STEEL))


@builder("handbag")
def handbag(b: Builder):
    w, d, h = b.w, b.d, b.h
    body_h = h * 0.62
    profile = [(-w / 2, 0), (w / 2, 0), (w / 2 - 0.04, body_h), (-w / 2 + 0.04, body_h)]
    body = extrude_xz(profile, -d / 2, d / 2 - 0.006)
    b.add("body", body)
    b.add("flap", cuboid(-w / 2 + 0.06, w / 2 - 0.06, d / 2 - 0.006, d / 2, body_h * 0.5, body_h - 0.005),
          b.main_as("leather", 0.78))
    b.add("clasp", cuboid(-0.015, 0.015, d / 2 - 0.003, d / 2 + 0.003, body_h * 0.5 - 0.01, body_h * 0.5 + 0.015),
          b.mat("metal", GOLD))
    handles = []
    for sy in (-1, 1):
        y = sy * d * 0.2
        pts = [(-w * 0.22, y, body_h)] + [(-w * 0.22 * math.cos(t), y, body_h + (h - body_h - 0.008) * math.sin(t))
                                         for t in np.linspace(0.1, math.pi - 0.1, 12)] + [(w * 0.22, y, body_h)]
        handles.append(tube(pts, 0.007, 8))
    b.add("handles", handles, b.main_as("leather", 0.7))


@builder("clothes")
def clothes(b: Builder):
    """One folded garment lying flat: a shirt (collar and button placket on top) or a sweater
    (ribbed neckline), its folded edge towards the front showing the layers, soft creases on
    top - one thing a person calls a shirt or a sweater."""
    w, d, h = b.w, b.d, b.h
    body = superellipsoid((0, 0, h / 2), (w / 2, d / 2, h / 2), 0.4, 28)
    v = body.vertices.copy()
    top = v[:, 2] > h * 0.6                      # soft creases: the top sags between the folds
    v[top, 2] -= 0.15 * h * (0.5 + 0.5 * np.cos(v[top, 0] / (w / 2) * math.pi * 1.5)) * (v[top, 2] / h)
    body.vertices = v
    b.add("garment", body)
    trim = b.main_as("fabric", 0.72)
    layers = [rod((-w / 2 + 0.02, d / 2 - h * 0.25, z), (w / 2 - 0.02, d / 2 - h * 0.25, z), h * 0.24, 10)
              for z in (h * 0.26, h * 0.74)]    # the folded edge: two rolled layers
    b.add("folded edge", layers, b.main_as("fabric", 0.88))
    b.add("fold seams", [tube([(sx * w * 0.3, -d / 2 + 0.03, h * 0.93), (sx * w * 0.3, d / 2 - 0.04, h * 0.93)],
                              0.003, 6) for sx in (-1, 1)], trim)
    y_neck = -d / 2 + 0.075
    if b.choice(["shirt", "sweater"]) == "shirt":
        collar_rgb = (0.95, 0.95, 0.93) if b.color_name not in ("white", "yellow") else (0.2, 0.3, 0.55)
        b.add("collar", tube(arc_points(0.06, 20, 160, 14, (0, y_neck, h * 0.97), "xy"), 0.009, 8),
              b.mat("fabric", collar_rgb))
        b.add("buttons", [cylinder(0.005, h * 0.9, h, 0, y, 10) for y in np.linspace(y_neck + 0.08, d / 2 - 0.06, 3)],
              b.mat("plastic", collar_rgb))
    else:
        b.add("neckline", tube(arc_points(0.065, 20, 160, 14, (0, y_neck, h * 0.96), "xy"), 0.008, 8), trim)
        b.add("hem", rod((-w / 2 + 0.015, -d / 2 + 0.02, h * 0.5), (w / 2 - 0.015, -d / 2 + 0.02, h * 0.5),
                         h * 0.45, 10), trim)


@builder("towel")
def towel(b: Builder):
    """A towel draped over a wall-mounted rail (back side against the wall at -y)."""
    w, d, h = b.w, b.d, b.h
    rail_z = h - 0.03
    rail_y = d / 2 - 0.022   # towel front face and fold reach the front of the box
    chrome = b.mat("chrome", STEEL)
    bx = w / 2 - 0.022
    b.add("rail", [rod((-w / 2 + 0.01, rail_y, rail_z), (w / 2 - 0.01, rail_y, rail_z), 0.01, 10)] +
          [rod((sx * bx, -d / 2, rail_z), (sx * bx, rail_y, rail_z), 0.008, 8) for sx in (-1, 1)] +
          [disc_y(0.022, -d / 2, -d / 2 + 0.008, sx * bx, rail_z, 16) for sx in (-1, 1)], chrome)
    tw = w - 0.06
    t = 0.012
    front = cuboid(-tw / 2, tw / 2, rail_y + 0.01, rail_y + 0.01 + t, 0.0, rail_z)
    back = cuboid(-tw / 2, tw / 2, rail_y - 0.01 - t, rail_y - 0.01, h * 0.2, rail_z)
    fold = moved(rotated(cylinder(0.022, -tw / 2, tw / 2, sections=16), "y", 90), (0, rail_y, rail_z))
    b.add("towel", [front, back, fold])
    stripe = b.choice([(0.95, 0.95, 0.93), (0.1, 0.2, 0.45), (0.8, 0.15, 0.15)])
    if b.color_name == "white":
        stripe = (0.2, 0.35, 0.7)
    b.add("stripes", [cuboid(-tw / 2, tw / 2, rail_y + 0.01 + t, rail_y + 0.0125 + t, z, z + 0.025) for z in (0.06, 0.11)],
          b.mat("fabric", stripe))


@builder("pillow")
def pillow(b: Builder):
    w, d, h = b.w, b.d, b.h
    # box-like outline, lens-like profile: full in the middle, thin at the seams
    b.add("pillow", superellipsoid((0, 0, h / 2), (w / 2, d / 2, h / 2), 0.3, 36, vertical_exponent=0.8))
    seam = scaled(torus(1.0, 0.012, (0, 0, 0), "z", 48, 6), (w / 2 - 0.012, d / 2 - 0.012, 0.5))
    b.add("piping", moved(seam, (0, 0, h / 2)), b.main_as("fabric", 0.85))


@builder("mouse")
def mouse(b: Builder):
    """A computer mouse on a mouse pad (the pad makes a tiny object read at a distance)."""
    w, d, h = b.w, b.d, b.h
    pad_t = 0.003
    pad_rgb = (0.1, 0.12, 0.16) if b.color_name not in ("black",) else (0.2, 0.35, 0.6)
    b.add("pad", slab(rounded_rect(w, d, 0.015), 0, pad_t), b.mat("fabric", pad_rgb))
    mw, md, mh = 0.064, 0.11, h - pad_t
    body = superellipsoid((0, 0, 0), (mw / 2, md / 2, mh), 0.8, 24)
    body.vertices[:, 2] = np.maximum(body.vertices[:, 2], 0)   # flat bottom (half shell)
    body.vertices[:, 2] *= 0.8 - 0.2 * (body.vertices[:, 1] / (md / 2))   # higher at the back
    b.add("mouse", moved(body, (0, 0.01, pad_t)))
    b.add("buttons split", cuboid(-0.0008, 0.0008, 0.01 + md * 0.05, 0.01 + md / 2 - 0.005, pad_t + mh * 0.55, pad_t + mh * 0.98),
          b.mat("plastic", (0.2, 0.2, 0.2) if b.color_name != "black" else (0.6, 0.6, 0.6)))
    b.add("wheel", disc_x(0.007, -0.003, 0.003, 0.01 + md * 0.3, pad_t + mh * 0.78, 16),
          b.mat("rubber", (0.15, 0.15, 0.15) if b.color_name != "black" else (0.7, 0.7, 0.7)))


@builder("carpet")
def carpet(b: Builder):
    w, d, h = b.w, b.d, b.h
    fringe = 0.04
    cd = d - 2 * fringe
    b.add("carpet", slab(rounded_rect(w, cd, 0.01), 0, h * 0.9))
    accent = b.choice([(0.92, 0.88, 0.75), (0.12, 0.12, 0.2), (0.85, 0.68, 0.25)])
    border = 0.06 * min(w, d)
    outer = rounded_rect(w - border, cd - border, 0.01, 4)
    inner = rounded_rect(w - 2.2 * border, cd - 2.2 * border, 0.01, 4)
    b.add("border", ring_prism(outer, inner, h * 0.9, h), b.mat("carpet", accent))
    b.add("medallion", slab(ellipse(w * 0.18, cd * 0.18, 32), h * 0.9, h), b.mat("carpet", accent))
    tassels = [cuboid(x - 0.004, x + 0.004, sy * (cd / 2) - (fringe if sy < 0 else 0), sy * (cd / 2) + (fringe if sy > 0 else 0),
                      0, h * 0.3) for sy in (-1, 1) for x in np.linspace(-w / 2 + 0.03, w / 2 - 0.03, int(w / 0.03))]
    b.add("fringe", tassels, b.mat("fabric", (0.93, 0.9, 0.82)))
