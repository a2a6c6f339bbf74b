"""The checker's own reading of the scene: the typed files, "seen", names, room order, plane geometry.

Written separately from the generator's modules on purpose (queries/check.py must not agree
with the generator just because they share a bug): it reads scene/trajectory/visibility.json
through their file models in formats/ only, implements "seen" of docs/ground-truth.md itself,
and uses its own formulas where there is a choice (shoelace centroids, segment distances,
quadrant bearings, room order from frames).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from shapely.geometry import MultiPoint, Polygon

from assets.vocabulary import (BEDSIDE_ALIKE, colour_word, countable, display_name, lookalikes, named_broadside,
                               named_from_front, named_from_nearly_in_front, told_apart_by_colour)
from formats.base import read_model
from formats.scene import Scene
from formats.trajectory import Trajectory
from formats.visibility import Track, Visibility
from queries.check_doors import DoorSight
from queries.check_rules import Rules


@dataclass(frozen=True)
class Files:
    """The three files of a scenario folder, as their format models."""

    scene: Scene
    trajectory: Trajectory
    visibility: Visibility


def load_files(out_dir: Path) -> Files:
    out_dir = Path(out_dir)
    return Files(read_model(out_dir / "scene.json", Scene),
                 read_model(out_dir / "trajectory.json", Trajectory),
                 read_model(out_dir / "visibility.json", Visibility))


@dataclass(frozen=True)
class Space:
    node: str     # as doors name it: "hallway:<id>" / "stairs:<id>"
    floor: int
    polygon: list


def xy(obj) -> tuple[float, float]:
    return (obj.position[0], obj.position[1])


def clear_runs(track: Track | None, min_pixels: int, run: int) -> list[tuple[int, int]]:
    """[first, last] frames of each run of >= `run` consecutive frames with >= min_pixels."""
    if track is None:
        return []
    out, start, prev = [], None, None
    for f, p in zip(track.frames, track.pixels):
        if p < min_pixels:
            f = None
        if f is not None and start is not None and f == prev + 1:
            prev = f
            continue
        if start is not None and prev - start + 1 >= run:
            out.append((start, prev))
        start, prev = (f, f) if f is not None else (None, None)
    if start is not None and prev - start + 1 >= run:
        out.append((start, prev))
    return out


class Facts:
    def __init__(self, files: Files, rules: Rules):
        self.files, self.rules = files, rules
        self.scene = files.scene
        vis = files.visibility
        self.fps = files.trajectory.fps
        self.min_pixels = rules.pixels(vis.width, vis.height, vis.min_pixels)
        self.run = rules.run_frames(self.fps)
        self.obj = {o.id: o for o in self.scene.objects}
        self.room = {r.label: r for r in self.scene.rooms}
        self.spaces = [Space(f"hallway:{h.id}", h.floor, list(map(tuple, h.polygon))) for h in self.scene.hallways]
        self.spaces += [Space(f"stairs:{s.id}", min(s.floors), list(map(tuple, s.polygon))) for s in self.scene.stairs]
        self.cam_xy = {f.frame: (f.position[0], f.position[1]) for f in files.trajectory.frames}
        self.obj_runs = {k: clear_runs(self._nameable_views(o, vis.objects.get(k)), self.min_pixels, self.run)
                         for k, o in self.obj.items()}
        self.door_things = self._door_things()     # (room, words) -> a door a viewer can point at
        for thing, runs in self.door_things.values():
            self.obj[thing.id], self.obj_runs[thing.id] = thing, runs
        self.room_runs = {k: clear_runs(vis.rooms.get(k), self.min_pixels, self.run) for k in self.room}
        self.good_obj = {k: {f for a, b in r for f in range(a, b + 1)} for k, r in self.obj_runs.items()}
        self.good_room = {k: {f for a, b in r for f in range(a, b + 1)} for k, r in self.room_runs.items()}
        self._things_in_view: dict[str, set[int]] = {}   # room -> frames (things_in_view)

    def _nameable_views(self, o, track):
        """The track cut to frames that show what names the thing: its front for a thing a
        viewer names only from the front (assets.vocabulary.FRONT_ONLY), the camera no more
        than 70 deg off the direction the thing faces (seen from behind or side-on, a microwave
        or a safe is just a box; 45 deg for FRONT_ONLY_NARROW: side-on, glasses are a bent
        wire); its front or back for one named from its long side (NAMED_BROADSIDE: end-on, a
        sofa is an armchair)."""
        front, broadside = named_from_front(o.category), named_broadside(o.category)
        if track is None or not (front or broadside):
            return track
        facing = (math.cos(math.radians(o.yaw)), math.sin(math.radians(o.yaw)))
        narrow = named_from_nearly_in_front(o.category)
        limit = math.cos(math.radians(self.rules.narrow_front_deg if narrow else self.rules.front_deg)) - 1e-9
        keep = []
        for f, p in zip(track.frames, track.pixels):
            cx, cy = self.cam_xy.get(f, (o.position[0], o.position[1]))
            dx, dy = cx - o.position[0], cy - o.position[1]
            norm = math.hypot(dx, dy)
            along = (dx * facing[0] + dy * facing[1]) / norm if norm else 1.0
            if along >= limit or broadside and -along >= limit:
                keep.append((f, p))
        return SimpleNamespace(frames=[f for f, _ in keep], pixels=[p for _, p in keep])

    def _door_things(self) -> dict:
        """docs/ground-truth.md "Names": in a room with no door object (or look-alike), "the door
        in the R" when it has exactly one doorway, else "the door to the X in the R" for a
        doorway the camera walked through (within 0.35 m of its centre) to X (a room, or a
        hallway, stairs, outside) where no other doorway of the room leads to an X. The thing
        is the opening's box (its width, 0.1 m across the wall, its height) hanging in the wall,
        seen where the opening is in view for 0.5 s running. Keys: (room, words after "door")."""
        sight, out = DoorSight(self.scene, self.files.trajectory), {}
        base = {f.floor: f.elevation for f in self.scene.floors}
        for room in self.scene.rooms:
            doors = [d for d in self.scene.doors if room.label in d.rooms]
            kinds = {o.category for o in self.scene.objects if o.room == room.label}
            if "door" in kinds or lookalikes("door") & kinds:
                continue
            def beyond(d):
                other = d.rooms[1] if d.rooms[0] == room.label else d.rooms[0]
                return other.split(":")[0]
            for d in doors:
                if len(doors) == 1:
                    words = ""
                elif sum(beyond(e) == beyond(d) for e in doors) == 1 and self.walked_through(d):
                    words = f" to the {beyond(d)}"
                else:
                    continue
                runs = sight.runs(d)
                if not runs:
                    continue
                x, y = d.position
                a, b = (0.05, d.width / 2) if d.wall_axis == "y" else (d.width / 2, 0.05)
                thing = SimpleNamespace(id=f"{room.label.replace(' ', '-')}/door/{d.id}", category="door",
                                        room=room.label, floor=room.floor, position=(x, y, base.get(room.floor, 0.0)),
                                        size=(d.width, 0.1, d.height), support="wall", doorway=d,
                                        footprint=[(x - a, y - b), (x + a, y - b), (x + a, y + b), (x - a, y + b)])
                out[(room.label, words)] = (thing, runs)
        return out

    def walked_through(self, door) -> bool:
        return any(f.floor == door.floor and math.dist(f.position[:2], door.position) <= 0.35
                   for f in self.files.trajectory.frames)

    def is_door_thing(self, oid: str) -> bool:
        return any(t.id == oid for t, _ in self.door_things.values())

    # ------------------------------------------------------------- seen
    def object_visible(self, oid: str) -> bool:
        return bool(self.obj_runs.get(oid))

    def room_visible(self, label: str) -> bool:
        return bool(self.room_runs.get(label))

    def first_whole(self, oid: str) -> int | None:
        """docs/ground-truth.md "Counting": the first frame of the first 0.5 s of consecutive clear
        frames in which the object's visible pixels are at least 15% of the area its whole box
        projects to on the image plane (beyond the frame too; at most the image's), a frame where
        the box reaches behind the camera counting, with the camera of each frame's cam_to_world."""
        o, track = self.obj[oid], self.files.visibility.objects.get(oid)
        if track is None:
            return None
        cam, vis = self.files.trajectory.camera, self.files.visibility
        scale = (cam.width * cam.height) / (vis.width * vis.height)
        pixels = dict(zip(track.frames, track.pixels))
        frames = {f.frame: f for f in self.files.trajectory.frames}
        top = o.position[2] + o.size[2]
        rings = self._uncovered_rings(o)      # a carpet: only what no furniture stands on can show
        if rings:
            corners = np.array([(x, y, top) for ring in rings for x, y in ring])
        else:
            corners = np.array([(x, y, z) for x, y in o.footprint for z in (o.position[2], top)])
        streak, prev = 0, None
        for f in sorted(self.good_obj.get(oid, ())):
            m = np.array(frames[f].cam_to_world, dtype=float)
            local = (corners - m[:, 3]) @ m[:, :3]          # rows: x right, y down, z forward
            if (local[:, 2] < self.rules.shown_near_m).any():
                ok = True
            else:
                uv = np.c_[cam.fx * local[:, 0] / local[:, 2] + cam.cx, cam.fy * local[:, 1] / local[:, 2] + cam.cy]
                if rings:    # signed shoelace per ring: outer rings counter-clockwise, holes clockwise
                    area, k = 0.0, 0
                    for ring in rings:
                        p = uv[k:k + len(ring)]
                        k += len(ring)
                        area += 0.5 * float(np.dot(p[:, 0], np.roll(p[:, 1], -1)) - np.dot(p[:, 1], np.roll(p[:, 0], -1)))
                    area = min(abs(area), cam.width * cam.height)
                else:
                    area = min(MultiPoint([tuple(p) for p in uv]).convex_hull.area, cam.width * cam.height)
                ok = area <= 0 or pixels.get(f, 0) * scale >= self.rules.shown_share * area
            streak = (streak + 1 if prev is not None and f == prev + 1 else 1) if ok else 0
            prev = f if ok else None
            if streak >= self.run:
                return f - self.run + 1
        return None

    def shown_whole(self, oid: str) -> bool:
        return self.first_whole(oid) is not None

    def _uncovered_rings(self, o) -> list:
        """For a thing lying flat on the floor (a carpet), the rings (outer counter-clockwise,
        holes clockwise, on the floor plan) of its footprint that no floor-standing thing of its
        room covers; [] for any other thing or when all of it is covered."""
        flat = self.rules.flat_m
        if o.support != "floor" or o.size[2] >= flat:
            return []
        left = Polygon(o.footprint)
        for other in self.scene.objects:
            if (other.id != o.id and other.room == o.room and other.floor == o.floor and other.support == "floor"
                    and other.size[2] >= flat):
                left = left.difference(Polygon(other.footprint))
        if left.is_empty or left.area <= 0:
            return []
        rings = []
        for part in getattr(left, "geoms", [left]):
            if part.geom_type != "Polygon":
                continue
            outer = list(part.exterior.coords)[:-1]
            rings.append(outer if part.exterior.is_ccw else outer[::-1])
            for hole in part.interiors:
                inner = list(hole.coords)[:-1]
                rings.append(inner[::-1] if hole.is_ccw else inner)
        return rings

    def object_clear(self, oid: str) -> bool:
        """What a question may name, count or lean on: visible and shown whole enough to count
        (a sliver of a chair behind another is no "black chair"). A room's door is its opening;
        a pendant from the ceiling is mostly cord, and nothing hides it: visible is enough."""
        return self.object_visible(oid) and (self.is_door_thing(oid) or self.obj[oid].support == "ceiling"
                                             or self.shown_whole(oid))

    def first_clear(self, oid: str) -> int | None:
        """Start of the object's first clear run (its first appearance)."""
        runs = self.obj_runs.get(oid)
        return runs[0][0] if runs else None

    def first_glimpse(self, oid: str) -> int | None:
        """The first frame the object shows at all: visibility.json's first_glimpse (files
        written before it: the first frame it lists the object in)."""
        t = self.files.visibility.objects.get(oid)
        if t is None:
            return None
        return t.first_glimpse if t.first_glimpse is not None else (t.frames[0] if t.frames else None)

    def never_together(self, objs) -> list[tuple[str, str]]:
        """docs/ground-truth.md "Object counting": pairs of one room a viewer could take for one
        thing: no colour word tells them apart, their boxes' centres are nearer than
        rules.together_m, and no 0.5 s of clear frames shows both."""
        def mid(o):
            return (o.position[0], o.position[1], o.position[2] + o.size[2] / 2)

        out = []
        for i, a in enumerate(objs):
            for b in objs[i + 1:]:
                if a.room != b.room or told_apart_by_colour(a.category, a.attributes.color, b.attributes.color):
                    continue
                both = self.good_obj.get(a.id, set()) & self.good_obj.get(b.id, set())
                if math.dist(mid(a), mid(b)) < self.rules.together_m and len(both) < self.run:
                    out.append((a.id, b.id))
        return out

    def rooms_share_frame(self, a: str, b: str) -> bool:
        """Any frame showing any pixel of both rooms."""
        rooms = self.files.visibility.rooms
        frames = lambda k: set(rooms[k].frames) if k in rooms else set()  # noqa: E731
        return not frames(a).isdisjoint(frames(b))

    # ------------------------------------------------------------- names
    def resolve(self, name: str):
        """The one object `name` names, or None."""
        return self.resolve_named(name)[0]

    def resolve_named(self, name: str):
        """(object, the neighbour its name refers to or None): 'sofa' (only sofa anywhere), 'sofa
        in the living room' (only sofa there) or 'chair by the window [in the office]' (the one
        chair clearly by the office's only window)."""
        category, room = name, None
        if " in the " in name:
            category, room = name.split(" in the ", 1)
            if room not in self.room:
                category, room = name, None
        if category.startswith("door") and (room, category[len("door"):]) in self.door_things:
            return self.door_things[(room, category[len("door"):])][0], None
        for link in ("by", "with"):
            if f" {link} the " in category:
                return self._by_neighbour(*category.split(f" {link} the ", 1), room, link)
        named = self.category_named(category)
        if named is None and " " in category:
            return self._by_colour(*category.split(" ", 1), room), None
        category = named
        hits = [o for o in self.scene.objects
                if o.category == category and (room is None or o.room == room)]
        if room is None and len({o.room for o in hits}) > 1:
            return None, None
        return (hits[0] if len(hits) == 1 else None), None

    def _by_colour(self, word: str, what: str, room: str | None):
        """docs/ground-truth.md "Names": 'the red sofa' - the one sofa of its room a viewer calls
        red, every other sofa there called by another colour word (assets.vocabulary)."""
        kind_cat = self.category_named(what)
        if kind_cat is None:
            return None
        rooms = {o.room for o in self.scene.objects if o.category == kind_cat}
        if room is None and len(rooms) != 1:
            return None
        room = room if room is not None else rooms.pop()
        kind = [o for o in self.objects_in(room) if o.category == kind_cat]
        hits = [o for o in kind if colour_word(kind_cat, o.attributes.color) == word]
        if len(kind) < 2 or len(hits) != 1 or self.confusable(kind_cat, room):
            return None
        x = hits[0]
        apart = all(told_apart_by_colour(kind_cat, x.attributes.color, o.attributes.color) for o in kind if o is not x)
        return x if apart else None

    def _by_neighbour(self, what: str, by: str, room: str | None, link: str):
        """docs/ground-truth.md "Names": the X within by_m of the room's only Y (not a ceiling
        thing, not flat), every other X at least by_margin_m farther, the two seen in one frame;
        'X with the Y' where Y rests on X, 'X by the Y' where neither rests on the other."""
        r = self.rules
        kind_cat = self.category_named(what)
        door = self.door_things.get((room, by[len("door"):])) if by.startswith("door") else None
        near_cat = "door" if door else self.category_named(by)   # "by the door to the hallway": a room's door
        if kind_cat is None or near_cat is None:
            return None, None
        if room is None:
            rooms = {o.room for o in self.scene.objects if o.category in (kind_cat, near_cat)}
            if len(rooms) != 1:
                return None, None
            room = rooms.pop()
        here = self.objects_in(room)
        kind = [o for o in here if o.category == kind_cat]
        near = [door[0]] if door else [o for o in here if o.category == near_cat]
        if not kind or len(near) != 1 or self.confusable(kind_cat, room) or (not door and self.confusable(near_cat, room)):
            return None, None
        y = near[0]
        if y.support in r.no_neighbour_supports or y.size[2] < r.flat_m:
            return None, None
        gaps = sorted((box_gap(o, y), o.id) for o in kind)
        if gaps[0][0] > r.by_m + 1e-6 or (len(gaps) > 1 and gaps[1][0] < gaps[0][0] + r.by_margin_m - 1e-6):
            return None, None
        x = self.obj[gaps[0][1]]
        if x.support == y.id or (y.support == x.id) != (link == "with"):
            return None, None
        if not self.good_obj.get(x.id, set()) & self.good_obj.get(y.id, set()):
            return None, None
        return x, y

    def category_named(self, words: str) -> str | None:
        """The scene's category whose display name (assets.vocabulary) is `words`."""
        hits = sorted({o.category for o in self.scene.objects if display_name(o.category) == words})
        return hits[0] if len(hits) == 1 else None

    def countable(self, category: str) -> bool:
        return countable(category)

    def confusable(self, category: str, room: str | None = None) -> list[str]:
        """Look-alike categories present in the room (None: anywhere in the building)."""
        here = {o.category for o in self.scene.objects if room is None or o.room == room}
        if category == "door" and self.scene.doors:  # the leaves drawn in doorways look like doors
            return sorted(lookalikes(category) & here) + ["a door leaf in a doorway"]
        if category in BEDSIDE_ALIKE and any(room is None or c.room == room for c in self.bedside_cabinets):
            return sorted(lookalikes(category) & here) + ["a cabinet at a bed's head, a nightstand to a viewer"]
        return sorted(lookalikes(category) & here)

    @cached_property
    def bedside_cabinets(self) -> list:
        """Cabinets beside a bed's head: within Rules.bedside_m of the bed's footprint, their
        centre nearer the bed's head end than its foot end (a bed faces away from its head)."""
        out = []
        for bed in (o for o in self.scene.objects if o.category == "bed"):
            fx, fy = math.cos(math.radians(bed.yaw)), math.sin(math.radians(bed.yaw))
            head = (bed.position[0] - fx * bed.size[1] / 2, bed.position[1] - fy * bed.size[1] / 2)
            foot = (bed.position[0] + fx * bed.size[1] / 2, bed.position[1] + fy * bed.size[1] / 2)
            for c in self.scene.objects:
                if (c.category == "cabinet" and c.room == bed.room
                        and polygon_gap(c.footprint, bed.footprint) <= self.rules.bedside_m
                        and math.dist(c.position[:2], head) < math.dist(c.position[:2], foot)):
                    out.append(c)
        return out

    def under(self, obj) -> list:
        """The things `obj` rests on (scene.json `support` ids), followed down, nearest first."""
        chain = [obj]
        while chain[-1].support in self.obj and len(chain) <= len(self.obj):
            chain.append(self.obj[chain[-1].support])
        return chain[1:]

    def objects_in(self, room: str) -> list:
        return [o for o in self.scene.objects if o.room == room]

    def things_in_view(self, room: str) -> set[int]:
        """Frames where one of `room`'s things covers at least the visibility threshold."""
        if room not in self._things_in_view:
            tracks = self.files.visibility.objects
            self._things_in_view[room] = {f for o in self.objects_in(room) if o.id in tracks
                                          for f, p in zip(tracks[o.id].frames, tracks[o.id].pixels)
                                          if p >= self.min_pixels}
        return self._things_in_view[room]

    def room_order(self) -> list[str]:
        """Rooms in the order the camera first stands in them (from the frames, not events)."""
        order: list[str] = []
        for f in self.files.trajectory.frames:
            if f.room and f.room not in order:
                order.append(f.room)
        return order

    def event_order(self) -> list[str]:
        order: list[str] = []
        for e in self.files.trajectory.events:
            if e.type == "enter_room" and e.room not in order:
                order.append(e.room)
        return order


# ----------------------------------------------------------------- plane geometry
def centroid(poly) -> tuple[float, float]:
    """Area centroid by the shoelace formula."""
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        w = x0 * y1 - x1 * y0
        a += w
        cx += (x0 + x1) * w
        cy += (y0 + y1) * w
    return (cx / (3 * a), cy / (3 * a))


def bearing(origin, forward_to, target) -> float:
    """Clockwise angle of target from the forward direction, degrees in (-180, 180]."""
    fx, fy = forward_to[0] - origin[0], forward_to[1] - origin[1]
    vx, vy = target[0] - origin[0], target[1] - origin[1]
    right = vx * fy - vy * fx          # component along the right-hand perpendicular (scaled)
    ahead = vx * fx + vy * fy
    return math.degrees(math.atan2(right, ahead))


def angular_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _seg_point(p, a, b) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(a, b, c, d) -> bool:
    return (_cross(a, b, c) * _cross(a, b, d) < 0) and (_cross(c, d, a) * _cross(c, d, b) < 0)


def _inside(p, poly) -> bool:
    """Even-odd ray casting."""
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def box_gap(a, b) -> float:
    """Closest points of two objects' boxes in 3-D: footprint gap and height gap, combined."""
    below = b.position[2] - (a.position[2] + a.size[2])
    above = a.position[2] - (b.position[2] + b.size[2])
    return math.sqrt(polygon_gap(a.footprint, b.footprint) ** 2 + max(0.0, below, above) ** 2)


def polygon_gap(p, q) -> float:
    """Closest-point distance between two simple polygons (0 if they touch or overlap)."""
    p, q = list(p), list(q)
    if _inside(p[0], q) or _inside(q[0], p):
        return 0.0
    ep = list(zip(p, p[1:] + p[:1]))
    eq = list(zip(q, q[1:] + q[:1]))
    if any(_segments_cross(a, b, c, d) for a, b in ep for c, d in eq):
        return 0.0
    return min(min(_seg_point(a, c, d) for a, _ in ep for c, d in eq),
               min(_seg_point(c, a, b) for c, _ in eq for a, b in ep))


def point_polygon_gap(p, poly) -> float:
    poly = list(poly)
    if _inside(p, poly):
        return 0.0
    return min(_seg_point(p, a, b) for a, b in zip(poly, poly[1:] + poly[:1]))


def segment_polygon_gap(a, b, poly) -> float:
    poly = list(poly)
    if _inside(a, poly) or _inside(b, poly):
        return 0.0
    edges = list(zip(poly, poly[1:] + poly[:1]))
    if any(_segments_cross(a, b, c, d) for c, d in edges):
        return 0.0
    return min(min(_seg_point(v, a, b) for v in poly), _seg_point(a, *edges[0]),
               min(min(_seg_point(a, c, d), _seg_point(b, c, d)) for c, d in edges))


def length_inside(a, b, poly, step: float = 0.01) -> float:
    """Length of segment a-b inside the polygon, by sampling."""
    n = max(1, int(math.dist(a, b) / step))
    poly = list(poly)
    inside = sum(_inside((a[0] + (b[0] - a[0]) * (i + 0.5) / n, a[1] + (b[1] - a[1]) * (i + 0.5) / n), poly)
                 for i in range(n))
    return inside * math.dist(a, b) / n
