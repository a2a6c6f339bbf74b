"""Layout stage: scenario -> realized floor plan (rooms, hallways, stairs, doors, windows, walls).

The rectangles come from the constraint model in `layout_model`; this module turns them into
the plan a person reads and the renderer builds, then re-derives every relation from that
geometry (`relations`) and refuses to hand on a plan that disagrees with the spec.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import shapely

from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from formats.scene import Scene as SceneFile
from generator.layout import model as layout_model
from generator.layout import shapes
from generator.layout.geometry import contact_segments, merge_collinear, orient_ccw, polygon_coords
from generator.spec.scenario import NONPLANAR, NONPLANAR_FIX, Scenario
from generator.spec.scenario import nonplanar_adjacency as spec_nonplanar_adjacency

FLOOR_HEIGHT = 3.0
CEILING_HEIGHT = 2.8
DOOR_WIDTH = 0.9
DOOR_HEIGHT = 2.1
WINDOW_WIDTH = 1.2
START_SETBACK = 0.4  # camera distance from the south wall at the start
MAX_HALLWAY_PIECES = 3
GAP_CLOSE = 0.5  # gaps narrower than twice this between spaces count as inside the building
WINDOW_DOOR_CLEARANCE = 0.3  # free wall between a window and a door on the same wall
WINDOW_GAP = 0.1             # free wall between two windows on one wall (a mullion)
WINDOW_END = 0.1             # free wall between a window and the end of its wall (a corner)


class LayoutError(Exception):
    """The spec's relations cannot all hold; `conflict` names the ones that clash."""

    def __init__(self, message: str, conflict: list[str] | None = None):
        self.conflict = conflict or []
        super().__init__(message)


@dataclass
class Door:
    id: str
    rooms: tuple[str, str]
    floor: int
    position: tuple[float, float]
    width: float
    wall_axis: str

    def to_json(self) -> dict:
        return {"id": self.id, "rooms": list(self.rooms), "floor": self.floor, "position": list(self.position),
                "width": self.width, "height": DOOR_HEIGHT, "wall_axis": self.wall_axis}


@dataclass
class Window:
    id: str
    room: str
    floor: int
    position: tuple[float, float]
    width: float
    normal: tuple[int, int]

    def to_json(self) -> dict:
        return {"id": self.id, "room": self.room, "floor": self.floor, "position": list(self.position),
                "width": self.width, "sill": 0.9, "height": 1.2, "normal": list(self.normal)}


@dataclass
class Plan:
    scenario: Scenario
    rooms: dict[str, Polygon]  # label -> polygon
    room_floor: dict[str, int]
    hallways: dict[str, tuple[int, Polygon]]  # id -> (floor, polygon)
    stairwell: Polygon | None
    doors: list[Door] = field(default_factory=list)
    windows: list[Window] = field(default_factory=list)
    walls: list[dict] = field(default_factory=list)
    start: dict = field(default_factory=dict)
    solver_status: str = ""

    @property
    def floors(self) -> list[int]:
        return self.scenario.floors

    def spaces(self, floor: int) -> dict[str, Polygon]:
        """Every walkable space on a floor keyed by the name doors use."""
        out = {label: poly for label, poly in self.rooms.items() if self.room_floor[label] == floor}
        out.update({f"hallway:{hid}": poly for hid, (f, poly) in self.hallways.items() if f == floor})
        if self.stairwell is not None:
            out["stairs"] = self.stairwell
        return out

    def footprint(self, floor: int) -> Polygon:
        """The floor's built area with slivers between rooms (< 2 * GAP_CLOSE wide) filled:
        a wall facing a 10 cm gap is not an exterior wall and gets no window or entrance."""
        union = unary_union(list(self.spaces(floor).values()))
        closed = union.buffer(GAP_CLOSE, join_style=2).buffer(-GAP_CLOSE, join_style=2)
        return shapely.set_precision(closed, 0.01)  # back onto the 0.1 m lattice: exact shared edges


def layout(scenario: Scenario, work_budget: float = layout_model.WORK_BUDGET, time_budget: float | None = None,
           explain: bool = True) -> Plan:
    """Lay the scenario out with the fewest hallway pieces that make every relation hold.

    `work_budget` (deterministic solver units per solve) decides the plan; `time_budget`
    (CPU seconds of this process for the whole stage, incl. naming a conflict) only turns a search that
    would take longer into a LayoutError, never into a different plan. `explain=False`: a spec
    that does not lay out raises at once, without naming the relations that clash (a probe that
    only asks whether a variant builds: naming them took the sampler 66 s of a 111-s draw)."""
    deadline = layout_model.Deadline(time_budget)
    try:
        return _layout(scenario, work_budget, deadline, explain)
    except layout_model.OutOfTime:
        raise LayoutError(
            f"{scenario.source}: rooms: no floor plan found within the layout budget of {time_budget:g} CPU s "
            f"({len(scenario.rooms)} rooms, {len(layout_model.relation_keys(scenario))} relations) "
            "(fix: fewer rooms per floor or fewer relations, or a larger --layout-budget)") from None


def _layout(scenario: Scenario, work_budget: float, deadline: layout_model.Deadline, explain: bool = True) -> Plan:
    nonplanar = nonplanar_adjacency(scenario)
    if nonplanar:  # (load_scenario refuses these already; a Scenario built in code may not have been loaded)
        raise LayoutError(f"{scenario.source}: relations.adjacent: {NONPLANAR}{'; '.join(nonplanar)} "
                          f"(fix: {NONPLANAR_FIX})", nonplanar)
    floors = scenario.floors
    outcome = None
    for pieces in hallway_pieces(scenario):
        problem = layout_model.LayoutProblem(scenario, tuple([pieces] * len(floors)), work_budget=work_budget)
        outcome = layout_model.solve(problem, deadline)
        if outcome.rects:
            break
    if not outcome or not outcome.rects:
        if not explain:
            raise LayoutError(f"{scenario.source}: rooms: no floor plan found (not explained)")
        raise explain_failure(scenario, work_budget, deadline)
    plan = _assemble(scenario, outcome.rects)
    plan.solver_status = outcome.status
    return plan


def hallway_pieces(scenario: Scenario) -> range:
    """Hallway pieces per floor to try, fewest first: an L is two, a straight corridor one."""
    return {"straight": range(1, 2), "L": range(2, 3)}.get(scenario.hallway_shape, range(1, MAX_HALLWAY_PIECES + 1))


def explain_failure(scenario: Scenario, work_budget: float, deadline: layout_model.Deadline | None = None) -> LayoutError:
    """Deletion filter: drop each stated relation in turn; keep it if the rest then solve.
    What is left is a minimal set of relations that cannot hold together. When the time budget
    runs out first, the relations not yet cleared are named: no plan was found with them together."""
    keys = layout_model.relation_keys(scenario)
    pieces = tuple([hallway_pieces(scenario)[-1]] * len(scenario.floors))
    shape_fix = f", or hallway_shape: any instead of {scenario.hallway_shape}" if scenario.hallway_shape != "any" else ""

    undecided = []  # solves that ran out of budget without a verdict

    def solvable(dropped: frozenset) -> bool:
        problem = layout_model.LayoutProblem(scenario, pieces, dropped, work_budget)
        outcome = layout_model.solve(problem, deadline)
        if outcome.status == "unknown":
            undecided.append(dropped)
        return outcome.rects is not None

    if not solvable(frozenset(keys)):
        if undecided:   # the search ran out of work without a verdict: not found, not impossible
            return LayoutError(
                f"{scenario.source}: no floor plan found within the search budget even without relations; "
                "(the search is capped so that a spec always gives the same plan); fix: fewer or smaller rooms, "
                f"fewer windows or fewer relations{shape_fix}", [])
        return LayoutError(
            f"{scenario.source}: no floor plan fits the rooms even without relations "
            "(windows need exterior walls, the first trajectory room must be on the south edge); "
            f"fix: reduce windows or room areas{shape_fix}", [])
    dropped: set = set()
    for i, key in enumerate(keys):
        try:
            if not solvable(frozenset(dropped | {key})):
                dropped.add(key)  # still unsolvable without it: it is not needed for the clash
        except layout_model.OutOfTime:
            left = [describe_relation(k) for k in keys if k not in dropped]
            return LayoutError(
                f"{scenario.source}: relations: no floor plan found within the layout budget of {deadline.seconds:g} CPU s; "
                f"no plan was found with these relations together (the search for a smallest clashing set stopped after "
                f"{i} of {len(keys)}): {'; '.join(left[:12])}{' ...' if len(left) > 12 else ''} "
                "(fix: drop or change some of them, or a larger --layout-budget)", left)
    conflict = [describe_relation(k) for k in keys if k not in dropped]
    if undecided:  # honest about a budget that ran out: "not found", not "impossible"
        return LayoutError(
            f"{scenario.source}: relations: no floor plan found within the search budget; the relations that "
            f"resisted together are: {'; '.join(conflict)} (fix: drop or change one of them, or give rooms areas{shape_fix})", conflict)
    return LayoutError(
        f"{scenario.source}: relations: these cannot all hold together: {'; '.join(conflict)} "
        f"(fix: drop or change one of them{shape_fix})", conflict)


def nonplanar_adjacency(scenario: Scenario) -> list[str]:
    """A Kuratowski subgraph of the adjacency graph, when there is one (the spec's own check)."""
    return spec_nonplanar_adjacency(scenario.relations.adjacent)


def describe_relation(key: tuple) -> str:
    kind, a, b = key
    if kind == "opposite":
        return f"opposite {list(a) if len(a) > 1 else a[0]} - {list(b) if len(b) > 1 else b[0]}"
    return f"{kind} {a} - {b}"


# ---------------------------------------------------------------------------- assembly


def _assemble(scenario: Scenario, rects: list[layout_model.Rect]) -> Plan:
    rooms, room_floor, hall_parts = {}, {}, {}
    stairwell = None
    for r in rects:
        poly = box(r.x0, r.y0, r.x1, r.y1)
        if r.name == "stairs":
            stairwell = orient_ccw(poly)
        elif r.name.startswith("hall:"):
            hall_parts.setdefault(r.floor, []).append(poly)
        else:
            rooms[r.name] = orient_ccw(poly)
            room_floor[r.name] = r.floor
    hallways = {}
    for floor in sorted(hall_parts):
        merged = unary_union(hall_parts[floor])
        parts = list(merged.geoms) if merged.geom_type == "MultiPolygon" else [merged]
        for k, part in enumerate(sorted(parts, key=lambda p: p.bounds)):
            hallways[f"f{floor}-hall{k}"] = (floor, orient_ccw(part.simplify(0)))
    _shape_rooms(scenario, rooms, room_floor, hallways, stairwell)
    plan = Plan(scenario, rooms, room_floor, hallways, stairwell)
    _add_doors(plan)
    _add_windows(plan)
    _add_entrance(plan)  # last: the front door goes where no window is
    plan.walls = _walls(plan)
    first = scenario.trajectory[0]
    plan.start = {"position": list(_start_point(rooms[first])), "heading": [0, 1],
                  "floor": room_floor[first]}
    return plan


def _start_point(rect: Polygon) -> tuple[float, float]:
    x0, y0, x1, _ = rect.bounds
    return round((x0 + x1) / 2, 2), round(y0 + START_SETBACK, 2)


def _shape_rooms(scenario: Scenario, rooms: dict, room_floor: dict, hallways: dict, stairwell) -> None:
    """Rooms the spec asks to be L-shaped lose an outside corner (generator.layout.shapes)."""
    first = scenario.trajectory[0]
    for label in sorted(rooms):
        if scenario.rooms[label].shape != "L":
            continue
        floor = room_floor[label]
        def on(f: int) -> list[Polygon]:
            spaces = [p for name, p in rooms.items() if room_floor[name] == f and name != label]
            spaces += [p for hf, p in hallways.values() if hf == f]
            return spaces + ([stairwell] if stairwell is not None else [])
        keep = Point(_start_point(rooms[label])) if label == first else None
        shaped = shapes.carve_l(rooms[label], on(floor), on(floor + 1) if floor + 1 in room_floor.values() else [],
                                keep)
        if shaped is None:
            raise LayoutError(
                f"{scenario.source}: rooms.{label}.shape: L needs a corner of the room on the outside of the building "
                f"(touching no other room, hallway or stairwell, nothing above it) and both arms at least "
                f"{shapes.ARM_MIN:g} m wide; the layout gave it {rooms[label].bounds[2] - rooms[label].bounds[0]:.1f} x "
                f"{rooms[label].bounds[3] - rooms[label].bounds[1]:.1f} m with no such corner "
                f"(fix: a larger area for {label}, fewer relations around it, or shape: rectangle)", [label])
        rooms[label] = orient_ccw(shaped)


def _door_at(segment: LineString) -> tuple[tuple[float, float], float, str]:
    (ax, ay), (bx, by) = segment.coords[0], segment.coords[-1]
    width = round(min(DOOR_WIDTH, segment.length - 0.2), 2)
    return (round((ax + bx) / 2, 2), round((ay + by) / 2, 2)), width, ("x" if abs(ay - by) < 1e-9 else "y")


def _add_doors(plan: Plan) -> None:
    doors: list[Door] = []

    def add(a: str, b: str, segment: LineString, floor: int) -> None:
        position, width, axis = _door_at(segment)
        doors.append(Door(f"door-{len(doors) + 1}", (a, b), floor, position, width, axis))

    for a, b in plan.scenario.relations.adjacent:  # doorways between rooms exist only where asked
        segment = max(contact_segments(plan.rooms[a], plan.rooms[b]), key=lambda s: s.length)
        add(a, b, segment, plan.room_floor[a])
    for label, poly in plan.rooms.items():  # every room that borders a hallway opens onto it
        floor = plan.room_floor[label]
        options = [(seg, hid) for hid, (f, hall) in plan.hallways.items() if f == floor
                   for seg in contact_segments(poly, hall) if seg.length >= 1.0]
        if options:
            segment, hid = max(options, key=lambda o: (round(o[0].length, 3), o[1]))
            add(label, f"hallway:{hid}", segment, floor)
    plan.doors = doors


def _add_entrance(plan: Plan) -> None:
    """The front door: on the ground-floor hallway's longest free exterior wall, else on the
    first room's, else on any ground-floor room's; never over a window."""
    floor = min(plan.floors)
    outline = plan.footprint(floor).boundary
    candidates = [f"hallway:{hid}" for hid, (f, _) in sorted(plan.hallways.items()) if f == floor]
    candidates.append(plan.scenario.trajectory[0])
    candidates += sorted(label for label, f in plan.room_floor.items() if f == floor)
    spaces = plan.spaces(floor)
    windows = [(w.position, w.width) for w in plan.windows if w.floor == floor]
    for name in candidates:
        if name not in spaces:
            continue
        free = [s for s in _cut_openings(_segments_on(spaces[name], outline), windows) if s.length >= 1.1]
        if free:
            position, width, axis = _door_at(max(free, key=lambda s: (round(s.length, 4), s.bounds)))
            plan.doors.append(Door(f"door-{len(plan.doors) + 1}", (name, "outside"), floor, position, width, axis))
            return


def _segments_on(poly: Polygon, outline) -> list[LineString]:
    found = []
    shared = poly.exterior.intersection(outline)
    for geom in getattr(shared, "geoms", [shared]):
        if geom.geom_type == "LineString" and geom.length > 1e-6:
            found.extend(merge_collinear([geom]))
        elif geom.geom_type == "MultiLineString":
            found.extend(merge_collinear(list(geom.geoms)))
    return merge_collinear(found)


def _add_windows(plan: Plan) -> None:
    windows: list[Window] = []
    outlines = {floor: plan.footprint(floor).boundary for floor in plan.floors}  # one union per floor, not per room
    for label, poly in plan.rooms.items():
        wanted = plan.scenario.rooms[label].count("window")
        if not wanted:
            continue
        floor = plan.room_floor[label]
        doors = [(d.position, d.width) for d in plan.doors if d.floor == floor]
        exterior = sorted(_cut_openings(_segments_on(poly, outlines[floor]), doors),
                          key=lambda s: (-s.length, s.bounds))
        slots = _window_slots(exterior, wanted)
        if len(slots) < wanted:
            raise LayoutError(f"{plan.scenario.source}: rooms.{label}.objects.window: {wanted} windows do not fit on "
                              f"{sum(s.length for s in exterior):.1f} m of exterior wall (fix: fewer windows)",
                              [f"rooms.{label}.objects.window"])
        cx, cy = poly.centroid.x, poly.centroid.y
        for (x, y), axis in slots:
            normal = (0, 1 if y > cy else -1) if axis == "x" else (1 if x > cx else -1, 0)
            windows.append(Window(f"window-{len(windows) + 1}", label, floor, (round(x, 2), round(y, 2)), WINDOW_WIDTH, normal))
    plan.windows = windows


def _cut_openings(segments: list[LineString], openings: list[tuple[tuple[float, float], float]]) -> list[LineString]:
    """Cut each opening's span (plus clearance) out of the wall segments that carry it."""
    pieces = list(segments)
    for position, width in openings:
        gap = box(*Point(position).buffer(width / 2 + WINDOW_DOOR_CLEARANCE, cap_style=3).bounds)
        pieces = [part for seg in pieces for part in _parts(seg.difference(gap))]
    return [p for p in pieces if p.length > 1e-6]


def _parts(geom) -> list[LineString]:
    if geom.is_empty:
        return []
    return list(geom.geoms) if hasattr(geom, "geoms") else [geom]


def _window_slots(segments: list[LineString], wanted: int) -> list[tuple[tuple[float, float], str]]:
    """Spread the windows over the longest exterior walls, evenly within each wall (at
    (k + 1) / (n + 1) of it, or end to end when that is too tight), WINDOW_GAP apart and
    WINDOW_END from the wall's ends (where it meets another wall that may carry a window)."""
    capacity = [_window_capacity(s.length) for s in segments]
    share = [0] * len(segments)
    for _ in range(wanted):
        free = [i for i in range(len(segments)) if share[i] < capacity[i]]
        if not free:
            break
        best = max(free, key=lambda i: (segments[i].length / (share[i] + 1), -i))
        share[best] += 1
    slots = []
    for seg, n in zip(segments, share):
        (ax, ay), (bx, by) = seg.coords[0], seg.coords[-1]
        axis = "x" if abs(ay - by) < 1e-9 else "y"
        step = seg.length / (n + 1)
        if n == 1 or step >= WINDOW_WIDTH + WINDOW_GAP - 1e-9:
            ts = [(k + 1) / (n + 1) for k in range(n)]
        else:        # the even spread would overlap: from one end to the other, WINDOW_END in
            first = (WINDOW_END + WINDOW_WIDTH / 2) / seg.length
            ts = [first + (1 - 2 * first) * k / (n - 1) for k in range(n)]
        for t in ts:
            slots.append(((ax + (bx - ax) * t, ay + (by - ay) * t), axis))
    return slots


def _window_capacity(length: float) -> int:
    """Windows a wall piece takes: the old rule (one per 1.5 m), and only as many as fit."""
    fit = int((length - 2 * WINDOW_END + WINDOW_GAP + 1e-9) // (WINDOW_WIDTH + WINDOW_GAP))
    return max(0, min(int((length + 0.3) // 1.5), fit))


def _walls(plan: Plan) -> list[dict]:
    walls = []
    for floor in plan.floors:
        spaces = plan.spaces(floor)
        outline = plan.footprint(floor).boundary
        lines = unary_union([poly.exterior for poly in spaces.values()])
        pieces = list(getattr(lines, "geoms", [lines]))
        exterior = [p for p in pieces if outline.distance(p.interpolate(0.5, normalized=True)) < 1e-6]
        interior = [p for p in pieces if outline.distance(p.interpolate(0.5, normalized=True)) >= 1e-6]
        for is_exterior, group in ((True, exterior), (False, interior)):
            for seg in merge_collinear(group):
                (ax, ay), (bx, by) = seg.coords[0], seg.coords[-1]
                walls.append({"floor": floor, "a": [round(ax, 2), round(ay, 2)], "b": [round(bx, 2), round(by, 2)],
                              "exterior": is_exterior})
    walls.sort(key=lambda w: (w["floor"], not w["exterior"], w["a"], w["b"]))
    return walls


def plan_to_scene(plan: Plan) -> dict:
    """The layout part of scene.json (objects are added by placement)."""
    from generator.layout import relations

    s = plan.scenario
    floors = [{"floor": f, "elevation": f * FLOOR_HEIGHT, "height": CEILING_HEIGHT} for f in plan.floors]
    rooms = [{"label": label, "type": s.rooms[label].type, "floor": plan.room_floor[label],
              "area": round(plan.rooms[label].area, 2), "polygon": polygon_coords(plan.rooms[label])}
             for label in sorted(plan.rooms)]
    hallways = [{"id": hid, "floor": f, "polygon": polygon_coords(poly)} for hid, (f, poly) in sorted(plan.hallways.items())]
    stairs = []
    if plan.stairwell is not None:
        for lower, upper in zip(plan.floors, plan.floors[1:]):
            stairs.append({"id": f"stairs-{lower}-{upper}", "floors": [lower, upper], "polygon": polygon_coords(plan.stairwell),
                           "bottom": _stair_entry(plan, lower), "top": _stair_entry(plan, upper), "width": 1.1})
    scene = {
        "format": SceneFile.FORMAT,
        "name": s.name,
        "typology": s.typology,
        "seed": s.seed,
        "floors": floors,
        "rooms": rooms,
        "hallways": hallways,
        "stairs": stairs,
        "doors": [d.to_json() for d in plan.doors],
        "windows": [w.to_json() for w in plan.windows],
        "walls": plan.walls,
        "start": plan.start,
        "objects": [],
    }
    # Self-check: the relations re-derived from this very geometry must match the spec.
    from generator.stairs import well_problems

    problems = relations.check_scene(s, scene) + well_problems(scene)
    if problems:
        raise LayoutError(f"{s.source}: layout self-check failed: " + "; ".join(problems), problems)
    scene["relations"] = relations.realized_relations(scene)
    return scene


def _stair_entry(plan: Plan, floor: int) -> list[float]:
    """Where the stairwell opens onto the floor's hallway (middle of the shared wall)."""
    segments = [seg for hid, (f, hall) in plan.hallways.items() if f == floor for seg in contact_segments(plan.stairwell, hall)]
    x0, y0, x1, y1 = plan.stairwell.bounds
    along_x = (x1 - x0) > (y1 - y0)

    def on_end_wall(seg: LineString) -> bool:  # the landing end: a short wall of the well
        (ax, ay), (bx, by) = seg.coords[0], seg.coords[-1]
        return abs(ax - bx) < 1e-9 if along_x else abs(ay - by) < 1e-9

    seg = max(segments, key=lambda s: (on_end_wall(s), round(s.length, 4)))
    mid = seg.interpolate(0.5, normalized=True)
    return [round(mid.x, 2), round(mid.y, 2)]
