"""Placing the objects of one room (used by generator.placement).

place_room expands the room's object requests into instances (colour, size, model seed
drawn from the room's own generator), decides who goes with whom (the tv on a stand, chairs
at a table or desk, a mouse beside a laptop, pillows on a bed) and places them in an order
that leaves the big decisions to the big objects: openings, bed, tv, sofas facing the tv,
other furniture against the walls, tables and their chairs, free-standing things, corner
things, the carpet, small things on supports, wall-mounted things, ceiling lights.

Each placement enumerates candidate poses (vectorized with shapely), rejects those that
leave the room, enter a door's swing zone, collide in 3D with something already placed,
sit in another object's front clearance, or put a tall object in front of a window, ranks
the rest by a per-category score with a little seeded noise, and takes the best candidate
that keeps the room walkable (every door connected to a free spot the camera can stand on).

The concerns live in their own modules, plain functions over one shared RoomState
(generator.placement.state): groups (who goes with whom), checks (hard checks, commit),
scores (soft preferences), openings, floor, tables, supports, walls (and ceiling).
This module is the driver: the order of placement, the shrink-and-retry of one object and
the export of placed objects to scene.json.
"""

from __future__ import annotations

import math

import shapely

from assets.colors import color_rgb
from generator.placement.floor import (place_carpet, place_corner, place_floor_free, place_floor_wall,
                                       place_sofa)
from generator.placement.groups import plan_roles
from generator.placement.openings import place_curtain, place_door, place_window
from generator.placement.state import Item, NoFit, Placed, RoomState
from generator.placement.supports import place_on_support
from generator.placement.tables import place_bench, place_chair, place_table
from generator.placement.walls import place_ceiling, place_wall_mounted

MIN_CONTRAST = 0.2  # sRGB distance: grey on silver (0.48) stands out, cream on white (0.09) does not


def place_room(room: RoomState) -> list[dict]:
    """Place every object of the room; the scene.json object records in placement order."""
    plan_roles(room)
    steps: list[tuple[Item, callable]] = []
    done: set[str] = set()

    def add(items, fn):
        for it in items:
            if it.id not in done:
                done.add(it.id)
                steps.append((it, fn))

    add(room.cats("window"), place_window)
    add(room.cats("door"), place_door)
    add(room.cats("curtain"), place_curtain)
    add(room.cats("bed"), place_floor_wall)
    for tv in room.cats("tv"):
        host = room.tv_host.get(tv.id)
        if host is not None:
            add([host], place_floor_wall)
            add([tv], place_on_support)
        else:
            add([tv], place_wall_mounted)
    if room.cats("sofa") and not room.cats("tv"):     # sofas face the fireplace
        add(room.cats("fireplace"), place_floor_wall)
    add(room.cats("sofa"), place_sofa)
    dining = [t for t in room.cats("table") if len(room.anchor_chairs.get(t.id, [])) >= 3]
    for t in dining:   # a dining table and its chairs shape the room: before the rest
        add([t], place_table)
        add([room.items_by_id[c] for c in room.anchor_chairs[t.id]], place_chair)
    add(room.cats("fireplace"), place_floor_wall)
    wall_items = [it for it in room.items if it.cat.placement == "floor_wall" and it.id not in done
                  and it.id not in room.bench_for]
    wall_items.sort(key=lambda it: (-(it.size[0] * it.size[1]), it.id))
    add(wall_items, place_floor_wall)
    add([room.items_by_id[b] for b in room.bench_for], place_bench)
    add(room.cats("table"), place_table)
    add(room.cats("chair"), place_chair)
    free = [it for it in room.items if it.cat.placement == "floor_free" and it.id not in done
            and it.category != "carpet"]
    free.sort(key=lambda it: (-(it.size[0] * it.size[1]), it.id))
    add(free, place_floor_free)
    corner = [it for it in room.items if it.cat.placement == "floor_corner"]
    corner.sort(key=lambda it: (-(it.size[0] * it.size[1]), it.id))
    add(corner, place_corner)
    add(room.cats("carpet"), place_carpet)
    on = [it for it in room.items if it.cat.placement == "on_support" and it.id not in done]
    order = {"computer": 0, "laptop": 1, "printer": 2, "microwave": 3, "coffee machine": 3, "lamp": 4,
             "pillow": 5, "fruit": 7, "mouse": 9}     # a fruit after the bowls it may lie in
    on.sort(key=lambda it: (order.get(it.category, 6), -(it.size[0] * it.size[1]), it.id))
    add(on, place_on_support)
    add([it for it in room.items if it.cat.placement == "wall_mounted"], place_wall_mounted)
    add([it for it in room.items if it.cat.placement == "ceiling"], place_ceiling)
    add([it for it in room.items if it.id not in done], place_floor_free)

    for it, fn in steps:
        for factor in (None, 0.5, 0.0):
            if factor is not None:
                if it.cat.placement in ("in_window", "in_doorway") or not shrink(it, factor):
                    raise failure
            try:
                fn(room, it)
                break
            except NoFit as exc:
                failure = exc
                if exc.final:
                    raise
        else:
            raise failure
        if it.id not in room.by_id:
            raise AssertionError(f"{it.id} not placed")  # every handler places or raises NoFit
    return [export(room, p) for p in room.placed]



def shrink(item: Item, factor: float) -> bool:
    """Move the item's width and depth toward the category minimum; False if no change."""
    cat = item.cat
    new = [lo + (v - lo) * factor if i < 2 else v
           for i, (lo, v) in enumerate(zip(cat.size_min, item.size))]
    new = [min(v, cur) for v, cur in zip(new, item.size)]
    if cat.round:
        new[1] = new[0]
    if all(abs(a - b) < 1e-3 for a, b in zip(new, item.size)):
        return False
    item.size[:] = new
    return True



def export(room: RoomState, p: Placed) -> dict:
    attrs = dict(p.item.attributes)
    attrs["color"] = shown_colour(room, p)
    attrs.setdefault("material", p.item.cat.material)
    attrs["model_seed"] = p.item.model_seed
    attrs.update(p.item.build)
    coords = list(p.fp.exterior.coords)[:-1]
    if shapely.geometry.polygon.orient(p.fp, 1.0).exterior.coords[:] != p.fp.exterior.coords[:]:
        coords = coords[::-1]
    return {
        "id": p.id,
        "category": p.category,
        "room": room.label,
        "floor": room.floor,
        "position": [_r(p.x), _r(p.y), _r(room.elev + p.z)],
        "yaw": _r(p.yaw % 360.0),
        "size": [_r(v) for v in p.size],
        "footprint": [[_r(x), _r(y)] for x, y in coords],
        "support": p.support,
        "attributes": attrs,
    }


def shown_colour(room: RoomState, p: Placed) -> str:
    """The colour `p` is drawn in: its own, unless the spec left it to chance and it lies on a
    thing of nearly that colour (within MIN_CONTRAST), where the next of its category's colours
    that stands out is taken instead (sample-3-012's grey garment on a grey duvet could barely be
    made out; 51 of 1,289 things on things in 100 sampled specs shared their support's colour:
    white prints on white desks, pillows matching the duvet, yellow fruit in a yellow bowl).
    No random draw: the other rooms' and things' draws stay as they were."""
    item = p.item
    support = room.by_id.get(p.support)
    if "color" in item.attributes or support is None:
        return item.color
    under = color_rgb(shown_colour(room, support))
    if under is None or _far(color_rgb(item.color), under):
        return item.color
    palette = list(item.cat.colors)
    start = palette.index(item.color) if item.color in palette else -1
    for k in range(1, len(palette) + 1):
        other = palette[(start + k) % len(palette)]
        if _far(color_rgb(other), under):
            return other
    return item.color


def _far(rgb, under) -> bool:
    return rgb is None or math.dist(rgb, under) >= MIN_CONTRAST


def _r(v: float) -> float:
    out = round(float(v), 4) + 0.0
    return 0.0 if out == 0 else out
