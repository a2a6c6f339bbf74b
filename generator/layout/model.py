"""Floor-plan search as a constraint program over axis-aligned rectangles (OR-Tools CP-SAT).

Every room, hallway piece and the stairwell is a rectangle on a 0.1 m lattice. Relations
become constraints enforced by booleans (which wall touches which, across which hallway), so
the solver searches all arrangements at once instead of filling a fixed template. Room sizes
come from a few candidate shapes per room, which honours a requested area exactly.
The solver runs single-threaded with a deterministic work budget: same spec, same plan.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from itertools import combinations

from ortools.sat.python import cp_model

from generator.layout.rooms import room_size
from generator.spec.scenario import Scenario

UNIT = 0.1  # metres per lattice step
HALL_MIN, HALL_MAX = 14, 20  # corridor width range (units)
HALL_MIN_LENGTH = 30
L_ARM = 20  # an L hallway's arms run on at least 2 m past the corner
STAIR_SIZE = (48, 22)  # U-shaped stair: landing + two flights side by side
DOOR_CONTACT = 11  # shared wall for a doorway: the 1.0 m rule plus a margin
HALL_CONTACT = 14  # hallway pieces and stairs join over at least a corridor width
OPPOSITE_OVERLAP = 6  # the 0.5 m rule plus a margin
VERTICAL_SHARE = 72  # percent per axis; 0.72^2 > 0.5 of the smaller footprint
WINDOW_SPAN = 15  # exterior wall needed per window
ASPECTS = (1.0, 1.35, 1.75)
SIDES = ("east", "west", "north", "south")  # which wall of the first rect touches
# CP-SAT deterministic time units (not seconds; machine independent). WORK_BUDGET bounds a
# search that has a plan (large-house: about 1.5 CPU s); one that has none by then starts again
# with FIRST_PLAN_FACTOR times the budget, so a hard spec still lays out (sample-1-066 needs
# more than 1 unit).
WORK_BUDGET = 0.6
FIRST_PLAN_FACTOR = 5


@dataclass(frozen=True)
class Rect:
    name: str  # room label, "hall:<floor>:<k>" or "stairs"
    floor: int  # -1 for the stairwell, which exists on every floor
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class LayoutProblem:
    scenario: Scenario
    hallways_per_floor: tuple[int, ...]
    dropped: frozenset = frozenset()  # relation keys left out (used to isolate conflicts)
    work_budget: float = WORK_BUDGET


def shape_options(area: float | None, room_type: str) -> list[tuple[int, int]]:
    """Candidate (width, depth) in lattice units; both orientations."""
    typical, min_side = room_size(room_type)
    areas = [area] if area else [typical * 0.85, typical, typical * 1.25]
    options = set()
    for a in areas:
        for aspect in ASPECTS:
            w = max(min_side, math.sqrt(a * aspect))
            h = max(min_side, a / w)
            w, h = round(w / UNIT), round(h / UNIT)
            options.add((w, h))
            options.add((h, w))
    return sorted(options)


def relation_keys(scenario: Scenario) -> list[tuple]:
    """Every stated relation as a hashable key, in a stable order."""
    rel = scenario.relations
    keys: list[tuple] = [("adjacent", a, b) for a, b in rel.adjacent]
    keys += [("opposite", g.side_a, g.side_b) for g in rel.opposite]
    keys += [("vertical", a, b) for a, b in rel.vertical]
    return keys


def needs_hallway(scenario: Scenario) -> set[str]:
    """Rooms that must open onto a hallway: the walk reaches a trajectory neighbour only
    through hallways unless the two share a doorway."""
    adjacent = set(scenario.relations.adjacent)
    need = set()
    traj = scenario.trajectory
    for a, b in zip(traj, traj[1:]):
        if (min(a, b), max(a, b)) not in adjacent:
            need.update((a, b))
    if len(scenario.floors) > 1:
        need.update(traj)  # every floor change goes through the stairwell
    return need


@dataclass
class _Box:
    x0: cp_model.IntVar
    y0: cp_model.IntVar
    x1: cp_model.IntVar
    y1: cp_model.IntVar
    w: cp_model.IntVar
    h: cp_model.IntVar
    floor: int
    xi: cp_model.IntervalVar
    yi: cp_model.IntervalVar


class _Builder:
    def __init__(self, problem: LayoutProblem):
        self.p = problem
        self.s = problem.scenario
        self.m = cp_model.CpModel()
        self.boxes: dict[str, _Box] = {}
        rooms = self.s.rooms.values()
        area = sum(max(w * h for w, h in shape_options(r.area, r.type)) for r in rooms)
        per_floor = area / max(1, len(self.s.floors))
        self.size = int(2.4 * math.sqrt(per_floor * 1.6) + 80)  # bounding square, units
        self.extent: dict[int, tuple] = {}
        self.misfits: list = []

    def box(self, name: str, floor: int, w_dom=None, h_dom=None) -> _Box:
        m, n = self.m, self.size
        x0, y0, x1, y1 = (m.NewIntVar(0, n, f"{name}.{c}") for c in ("x0", "y0", "x1", "y1"))
        w = m.NewIntVarFromDomain(w_dom, f"{name}.w") if w_dom is not None else m.NewIntVar(1, n, f"{name}.w")
        h = m.NewIntVarFromDomain(h_dom, f"{name}.h") if h_dom is not None else m.NewIntVar(1, n, f"{name}.h")
        xi = m.NewIntervalVar(x0, w, x1, f"{name}.xi")
        yi = m.NewIntervalVar(y0, h, y1, f"{name}.yi")
        self.boxes[name] = _Box(x0, y0, x1, y1, w, h, floor, xi, yi)
        return self.boxes[name]

    def touch(self, a: str, b: str, contact: int) -> list:
        """Booleans, one per wall of `a`; each puts that wall on the facing wall of `b` with
        at least `contact` in common. The caller constrains their sum."""
        m, A, B = self.m, self.boxes[a], self.boxes[b]
        chosen = []
        for side in SIDES:
            s = m.NewBoolVar(f"touch.{a}|{b}.{side}")
            chosen.append(s)
            if side in ("east", "west"):
                wall_a, wall_b = (A.x1, B.x0) if side == "east" else (A.x0, B.x1)
                lo_a, hi_a, lo_b, hi_b = A.y0, A.y1, B.y0, B.y1
            else:
                wall_a, wall_b = (A.y1, B.y0) if side == "north" else (A.y0, B.y1)
                lo_a, hi_a, lo_b, hi_b = A.x0, A.x1, B.x0, B.x1
            m.Add(wall_a == wall_b).OnlyEnforceIf(s)
            m.Add(hi_a - lo_b >= contact).OnlyEnforceIf(s)
            m.Add(hi_b - lo_a >= contact).OnlyEnforceIf(s)
        return chosen

    def overlap(self, names: list[str], axis: str, amount: int, active=None) -> None:
        """min(hi) - max(lo) >= amount over the rects along an axis (when `active`)."""
        for a in names:
            for b in names:
                if a == b:
                    continue
                A, B = self.boxes[a], self.boxes[b]
                hi, lo = (A.x1, B.x0) if axis == "x" else (A.y1, B.y0)
                c = self.m.Add(hi - lo >= amount)
                if active is not None:
                    c.OnlyEnforceIf(active)

    def build(self) -> None:
        s, m = self.s, self.m
        floors = s.floors
        for label, room in s.rooms.items():
            shapes = shape_options(room.area, room.type)
            b = self.box(label, room.floor,
                         cp_model.Domain.FromValues(sorted({w for w, _ in shapes})),
                         cp_model.Domain.FromValues(sorted({h for _, h in shapes})))
            # prefer the type's typical size: compactness alone would shrink every room
            typical = (room.area or room_size(room.type)[0]) / UNIT**2
            misfit = m.NewIntVar(0, 10_000, f"{label}.misfit")
            m.AddAllowedAssignments([b.w, b.h, misfit], [(w, h, round(abs(w * h - typical) / 10)) for w, h in shapes])
            self.misfits.append(misfit)

        self.halls: dict[int, list[str]] = {}
        for f, count in zip(floors, self.p.hallways_per_floor):
            self.halls[f] = []
            for k in range(count):
                name = f"hall:{f}:{k}"
                self.halls[f].append(name)
                b = self.box(name, f)
                horizontal = m.NewBoolVar(f"{name}.horizontal")
                m.Add(b.h <= HALL_MAX).OnlyEnforceIf(horizontal)
                m.Add(b.w >= HALL_MIN_LENGTH).OnlyEnforceIf(horizontal)
                m.Add(b.w <= HALL_MAX).OnlyEnforceIf(horizontal.Not())
                m.Add(b.h >= HALL_MIN_LENGTH).OnlyEnforceIf(horizontal.Not())
                m.Add(b.w >= HALL_MIN)
                m.Add(b.h >= HALL_MIN)
                if k == 0:
                    m.Add(horizontal == 1)  # symmetry: the main corridor runs east-west
                else:  # pieces form one connected corridor
                    joins = [t for j in range(k) for t in self.touch(name, self.halls[f][j], HALL_CONTACT)]
                    m.AddBoolOr(joins)
            if self.s.hallway_shape == "L":
                self.l_corridor(*self.halls[f])

        if len(floors) > 1:
            long, short = STAIR_SIZE
            b = self.box("stairs", -1, cp_model.Domain.FromValues([short, long]), cp_model.Domain.FromValues([short, long]))
            m.Add(b.w + b.h == long + short)
            # A U-stair lands at the same short end on every floor, so every floor's corridor
            # must meet the stairwell at that end wall (SIDES order: east, west, north, south).
            landing = [m.NewBoolVar(f"stairs.landing.{side}") for side in SIDES]
            m.AddExactlyOne(landing)
            turned = m.NewBoolVar("stairs.turned")
            m.Add(b.w == short).OnlyEnforceIf(turned)
            m.Add(b.w == long).OnlyEnforceIf(turned.Not())
            m.AddImplication(landing[0], turned.Not())
            m.AddImplication(landing[1], turned.Not())
            m.AddImplication(landing[2], turned)
            m.AddImplication(landing[3], turned)
            for f in floors:
                touches = [self.touch("stairs", h, HALL_CONTACT) for h in self.halls[f]]
                for k, end in enumerate(landing):
                    m.AddBoolOr([t[k] for t in touches]).OnlyEnforceIf(end)

        for f in floors:  # nothing overlaps on a floor; the stairwell is on every floor
            on_floor = [b for b in self.boxes.values() if b.floor in (f, -1)]
            m.AddNoOverlap2D([b.xi for b in on_floor], [b.yi for b in on_floor])
            ex, ey = m.NewIntVar(0, self.size, f"extent.{f}.x"), m.NewIntVar(0, self.size, f"extent.{f}.y")
            m.AddMaxEquality(ex, [b.x1 for b in on_floor])
            m.AddMaxEquality(ey, [b.y1 for b in on_floor])
            self.extent[f] = (ex, ey)
            self.implied_bounds(f, on_floor)

        m.Add(self.boxes[s.trajectory[0]].y0 == 0)  # the walk starts on the plan's south edge

        for label in sorted(needs_hallway(s)):
            f = s.rooms[label].floor
            m.AddBoolOr([t for h in self.halls[f] for t in self.touch(label, h, DOOR_CONTACT)])

        for label, room in s.rooms.items():
            if room.count("window"):
                self.exterior_wall(label, room.floor, room.count("window") * WINDOW_SPAN)

        for key in relation_keys(s):
            if key in self.p.dropped:
                continue
            if key[0] == "adjacent":
                m.AddExactlyOne(self.touch(key[1], key[2], DOOR_CONTACT))
            elif key[0] == "vertical":
                self.vertical(key[1], key[2])
            else:
                self.opposite(key[1], key[2], self.halls[s.rooms[key[1][0]].floor])

        # compact buildings with short corridors
        cost = []
        for f in floors:
            cost += [3 * self.extent[f][0], 3 * self.extent[f][1]]
            cost += [self.boxes[h].w + self.boxes[h].h for h in self.halls[f]]
        m.Minimize(sum(cost) + sum(self.misfits))

    def implied_bounds(self, floor: int, on_floor: list[_Box]) -> None:
        """Rows that follow from a floor's rectangles not overlapping inside [0, ex] x [0, ey],
        stated so the search can use them: a line across the floor meets rooms of at most the
        floor's depth in all (one cumulative per axis), and the bounding box holds every room's
        smallest area. They cut off no plan; without them the objective's bound stays near a
        quarter of the plan found and the search wanders (large-house: a first plan after 4.9
        CPU s instead of 0.9, in the propagation-only search `solve` runs)."""
        m, (ex, ey) = self.m, self.extent[floor]
        m.AddCumulative([b.xi for b in on_floor], [b.h for b in on_floor], ey)
        m.AddCumulative([b.yi for b in on_floor], [b.w for b in on_floor], ex)
        least = sum(min(w * h for w, h in shape_options(r.area, r.type))
                    for r in self.s.rooms.values() if r.floor == floor)
        area = m.NewIntVar(0, self.size**2, f"extent.{floor}.area")
        m.AddMultiplicationEquality(area, [ex, ey])
        m.Add(area >= least)

    def l_corridor(self, across: str, along: str) -> None:
        """Two pieces as one L: the north-south piece stands on the east-west one's north or
        south side, flush with its west or east end, and each arm runs on at least L_ARM past
        the corner (an L, not a T, and a turn a viewer sees)."""
        m, a, b = self.m, self.boxes[across], self.boxes[along]
        m.Add(b.w <= HALL_MAX)  # the second piece runs north-south
        m.Add(a.w >= b.w + L_ARM)
        north, west = m.NewBoolVar(f"{along}.north"), m.NewBoolVar(f"{along}.west")
        m.Add(b.y0 == a.y1).OnlyEnforceIf(north)
        m.Add(b.y1 == a.y0).OnlyEnforceIf(north.Not())
        m.Add(b.x0 == a.x0).OnlyEnforceIf(west)
        m.Add(b.x1 == a.x1).OnlyEnforceIf(west.Not())

    def exterior_wall(self, label: str, floor: int, length: int) -> None:
        m, b = self.m, self.boxes[label]
        ex, ey = self.extent[floor]
        on = [m.NewBoolVar(f"exterior.{label}.{k}") for k in range(4)]
        m.Add(b.y0 == 0).OnlyEnforceIf(on[0])
        m.Add(b.y1 == ey).OnlyEnforceIf(on[1])
        m.Add(b.x0 == 0).OnlyEnforceIf(on[2])
        m.Add(b.x1 == ex).OnlyEnforceIf(on[3])
        for k, side_len in enumerate((b.w, b.w, b.h, b.h)):
            m.Add(side_len >= length).OnlyEnforceIf(on[k])
        m.AddBoolOr(on)

    def vertical(self, a: str, b: str) -> None:
        """Footprints overlap by >= 50% of the smaller room: one room (the solver picks which)
        overlaps the other by VERTICAL_SHARE of its own width and depth, so >= 0.518 of its
        area, which is at least half the smaller one's."""
        A, B = self.boxes[a], self.boxes[b]
        reference = [self.m.NewBoolVar(f"vertical.{a}|{b}.ref.{k}") for k in range(2)]
        self.m.AddExactlyOne(reference)
        for ref, R in zip(reference, (A, B)):
            for lo_a, hi_a, lo_b, hi_b, size in ((A.x0, A.x1, B.x0, B.x1, R.w), (A.y0, A.y1, B.y0, B.y1, R.h)):
                # 100 * (min(hi) - max(lo)) >= share * size, as four linear rows
                for hi, lo in ((hi_a, lo_b), (hi_b, lo_a), (hi_a, lo_a), (hi_b, lo_b)):
                    self.m.Add(100 * (hi - lo) >= VERTICAL_SHARE * size).OnlyEnforceIf(ref)

    def opposite(self, side_a: tuple[str, ...], side_b: tuple[str, ...], halls: list[str]) -> None:
        """All of side_a touch one hallway on one side, all of side_b the facing side, and
        every room overlaps a partner across it by OPPOSITE_OVERLAP."""
        m = self.m
        choices = []
        for h in halls:
            H = self.boxes[h]
            for orient in ("a_south", "a_north", "a_west", "a_east"):
                c = m.NewBoolVar(f"opp.{h}.{orient}")
                choices.append(c)
                axis = "x" if orient in ("a_south", "a_north") else "y"
                for group, faces in ((side_a, orient), (side_b, _flip(orient))):
                    for room in group:
                        R = self.boxes[room]
                        wall_r, wall_h = {"a_south": (R.y1, H.y0), "a_north": (R.y0, H.y1),
                                          "a_west": (R.x1, H.x0), "a_east": (R.x0, H.x1)}[faces]
                        m.Add(wall_r == wall_h).OnlyEnforceIf(c)
                        self.overlap([room, h], axis, DOOR_CONTACT, c)
                for room in side_a:
                    self._partner(room, side_b, h, axis, c)
                for room in side_b:
                    self._partner(room, side_a, h, axis, c)
        m.AddExactlyOne(choices)

    def _partner(self, room: str, others: tuple[str, ...], hall: str, axis: str, active) -> None:
        if len(others) == 1:
            self.overlap([room, others[0], hall], axis, OPPOSITE_OVERLAP, active)
            return
        picks = []
        for other in others:
            p = self.m.NewBoolVar(f"partner.{room}|{other}")
            self.m.AddImplication(p, active)
            picks.append(p)
            self.overlap([room, other, hall], axis, OPPOSITE_OVERLAP, p)
        self.m.AddBoolOr(picks).OnlyEnforceIf(active)


def _flip(orient: str) -> str:
    return {"a_south": "a_north", "a_north": "a_south", "a_west": "a_east", "a_east": "a_west"}[orient]


@dataclass(frozen=True)
class Outcome:
    rects: list[Rect] | None
    status: str  # "optimal", "feasible", "infeasible" or "unknown" (budget ran out)


class OutOfTime(Exception):
    """The wall-clock budget ran out before the solver reached its deterministic verdict."""


class Deadline:
    """A budget of this process's CPU seconds over several solves (the solver runs one worker
    thread; CPU seconds, not wall, so a batch busy on every core does not refuse a plan an idle
    machine finds: sample-1-009's layout ran out of 30 wall seconds so). It never changes a plan:
    a solve it cuts short is refused (OutOfTime), so what is returned is what the deterministic
    work budget gives."""

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.end = None if seconds is None else time.process_time() + seconds

    def remaining(self) -> float | None:
        if self.end is None:
            return None
        left = self.end - time.process_time()
        if left <= 0:
            raise OutOfTime()
        return left

    def expired(self) -> bool:
        return self.end is not None and time.process_time() >= self.end


def _solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel, deadline: Deadline) -> int:
    """solver.Solve(model) in a worker thread while this one waits in short joins: Python raises
    KeyboardInterrupt only between bytecodes of the main thread, so a Solve called here directly
    heard Ctrl-C only when it ended (seconds later). On an interrupt (or any exception) the
    search is stopped, waited for and the exception raised again. The solve itself is the same
    call with the same parameters, so the result is too. The deadline is watched here too (CP-SAT's
    own time limit counts wall seconds): a search past it is stopped and refused (OutOfTime)
    unless it had already proved its answer."""
    result: dict = {}

    def work() -> None:
        try:
            result["status"] = solver.Solve(model)
        except BaseException as exc:  # handed to the caller
            result["error"] = exc

    worker = threading.Thread(target=work, name="cp-sat", daemon=True)
    worker.start()
    stopped = False
    try:
        while worker.is_alive():
            worker.join(0.1)
            if not stopped and deadline.expired():
                solver.StopSearch()
                stopped = True
    except BaseException:
        while worker.is_alive():  # (a stop asked before the search began is lost: ask again)
            solver.StopSearch()
            worker.join(0.1)
        raise
    if "error" in result:
        raise result["error"]
    if stopped and result["status"] not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        raise OutOfTime()   # stopped by the clock, not the work budget: its answer may vary run to run
    return result["status"]


def solve(problem: LayoutProblem, deadline: Deadline | None = None) -> Outcome:
    deadline = deadline or Deadline(None)
    deadline.remaining()
    builder = _Builder(problem)
    builder.build()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one worker + a deterministic budget = reproducible plans
    solver.parameters.random_seed = problem.scenario.seed % (2**31)
    # propagation only: the LP of the enforced contact rows is weak here and slows every node
    solver.parameters.linearization_level = 0
    solver.parameters.catch_sigint_signal = False  # else CP-SAT swallows Ctrl-C and resets Python's handler
    for budget in (problem.work_budget, FIRST_PLAN_FACTOR * problem.work_budget):
        solver.parameters.max_deterministic_time = budget
        deadline.remaining()
        status = _solve_interruptibly(solver, builder.m, deadline)
        if status != cp_model.UNKNOWN:  # a plan, or a proof there is none
            break
    name = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible", cp_model.INFEASIBLE: "infeasible"}.get(status, "unknown")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Outcome(None, name)
    rects = [
        Rect(n, b.floor, *(round(solver.Value(v) * UNIT, 2) for v in (b.x0, b.y0, b.x1, b.y1)))
        for n, b in builder.boxes.items()
    ]
    return Outcome(rects, name)
