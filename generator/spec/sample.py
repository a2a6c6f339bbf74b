"""Sample new scenario specs with the paper's statistics (`egoscene sample`).

A spec is drawn in three steps: rooms and their objects (tables in `sample_tables`), a
layout of those rooms without relations (generator.layout.plan), and a paper-like subset of
the relations that layout realises (re-derived by generator.layout.relations), kept as the
spec's relations. The spec is then confirmed: laid out with its relations, the relations
checked on the new plan and the objects placed (generator.placement); a refusal enlarges the
room that was too small or drops relations and tries again, a few times, then redraws.
Last, the rooms are put in a short visiting order over the spec's own plan
(generator.spec.tour), kept where the spec still builds: the first draw's order is random.

Deterministic: every draw comes from a numpy Generator seeded from (batch seed, index), and
the layout's CP-SAT search is bounded in deterministic work units, so the same seed gives
the same files. A batch also steers rooms and objects towards catalog categories it has not
used yet, so a batch of ~30 covers every category.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import yaml

from assets.catalog import CATEGORIES, get_category
from assets.shells import numbered
from formats.seeding import stage_rng, stage_seed
from generator.spec.sample_tables import DEFAULT_MIX, FILLERS, LABELS, PAPER, ROOM_OBJECTS, SIGNATURE, TYPOLOGIES
from generator.spec.scenario import parse_scenario

FLOOR_KINDS = ("floor_wall", "floor_corner", "floor_free")
CONFIRM_ATTEMPTS = 5  # layout + placement tries per draw before drawing the scenario again
REDRAWS = 4  # draws of one spec: a draw that will not lay out, or that `accept` refuses
AREA_STEP = 1.3  # a room too small for its objects grows by this factor per try
L_SHARE = 0.35       # rooms with a free outside corner made L-shaped (at most one per floor)
L_HALL_SHARE = 0.3   # specs asking for L hallways (kept where the spec still lays out and places)
PROBE_BUDGET = 1.0  # CP-SAT work units for the relation-free layout (a probe: any plan will do)
FILL_CAP = {"pot": 2, "locker": 6, "cabinet": 3, "yoga mat": 2, "plant": 3}  # top-up limit per room, else 4
OPTIONAL_SCALE = 0.8  # optional objects are drawn a little rarer than the tables say; _fill tops up


class SampleError(Exception):
    pass


@dataclass
class Draft:
    name: str
    typology: str  # sampler typology (apartment, ...)
    seed: int
    rooms: dict[str, dict]  # label -> {"key": table key, "type", "floor", "area", "objects": {cat: n}}
    trajectory: list[str]
    relations: dict[str, list] = field(default_factory=lambda: {"adjacent": [], "opposite": [], "vertical": []})
    hallway_shape: str = "any"

    def document(self) -> dict:
        spec_typology = TYPOLOGIES[self.typology].spec_typology
        rooms = {}
        for label, room in self.rooms.items():
            entry: dict = {}
            if room["type"] != _default_type(label):
                entry["type"] = room["type"]
            if spec_typology == "multi-story residence":
                entry["floor"] = room["floor"]
            if room["area"] is not None:
                entry["area"] = room["area"]
            entry["objects"] = dict(sorted(room["objects"].items()))
            if room.get("shape", "rectangle") != "rectangle":
                entry["shape"] = room["shape"]
            rooms[label] = entry
        doc = {"name": self.name, "typology": spec_typology, "seed": self.seed, "rooms": rooms,
               "trajectory": list(self.trajectory)}
        relations = {k: v for k, v in self.relations.items() if v}
        if relations:
            doc["relations"] = relations
        if self.hallway_shape != "any":
            doc["hallway_shape"] = self.hallway_shape
        return doc

    def yaml_text(self) -> str:
        header = f"# sampled by `egoscene sample` ({self.typology})\n"
        return header + yaml.safe_dump(self.document(), sort_keys=False, default_flow_style=None,
                                       allow_unicode=True, width=100)


def _default_type(label: str) -> str:
    return label.rstrip("0123456789").strip()


# ---------------------------------------------------------------------------- rooms and objects


def _weighted(rng: np.random.Generator, options: list[tuple[str, float]]) -> str:
    weights = np.array([w for _, w in options], dtype=float)
    return options[int(rng.choice(len(options), p=weights / weights.sum()))][0]


def _boosted(options, uncovered: set[str]) -> list[tuple[str, float]]:
    """Optional rooms, weighted up when their table holds a category the batch still lacks."""
    return [(key, w * (4.0 if uncovered & {e[0] for e in ROOM_OBJECTS[key]} else 1.0)) for key, w in options]


def _room_keys(rng: np.random.Generator, typ, uncovered: set[str]) -> list[tuple[str, int]]:
    """(table key, floor) for each room."""
    lo, hi = typ.rooms
    count = int(np.clip(round(rng.normal(PAPER["rooms"][0], PAPER["rooms"][1])), lo, hi))
    if not typ.upper:
        keys = list(typ.required)
        while len(keys) < count:
            keys.append(_weighted(rng, _boosted(typ.optional, uncovered)))
        return [(k, 0) for k in keys]
    floors = 3 if count >= 8 and rng.random() < 0.35 else 2
    rooms = [(k, 0) for k in typ.required]
    for f in range(1, floors):
        rooms += [(k, f) for k in typ.upper]
    while len(rooms) < max(count, len(rooms)):
        floor = int(rng.integers(floors))
        options = typ.optional if floor == 0 else typ.upper_optional
        rooms.append((_weighted(rng, _boosted(options, uncovered)), floor))
    return rooms


def _room_objects(rng: np.random.Generator, key: str, uncovered: set[str]) -> dict[str, int]:
    objects: dict[str, int] = {}
    for category, p, lo, hi in ROOM_OBJECTS[key]:
        p = max(p, 0.9) if category in uncovered else (p if p >= 1.0 else p * OPTIONAL_SCALE)
        if rng.random() < p:
            objects[category] = int(rng.integers(lo, hi + 1))
    return _consistent(objects)


def _consistent(objects: dict[str, int]) -> dict[str, int]:
    """Drop what cannot be placed without its partner: things on supports the room lacks,
    curtains without windows, pillows without a bed or sofa, mice without a computer; one
    chair at least per desk."""
    present = set(objects)
    for category in list(objects):
        cat = get_category(category)
        if cat.placement == "on_support" and not (set(cat.supports) & present) and not cat.fallback_placement:
            del objects[category]
        elif cat.group_mode in ("over", "on", "next_to") and not (set(cat.group_with) & present):
            del objects[category]
    if "desk" in objects:
        objects["chair"] = max(objects.get("chair", 0), objects["desk"])
    if "mouse" in objects:
        objects["mouse"] = min(objects["mouse"], objects.get("computer", 0) + objects.get("laptop", 0))
    return objects


def _fill(rng: np.random.Generator, rooms: dict[str, dict], target: int) -> None:
    """Add small things (FILLERS) until the scenario holds `target` objects, or take optional
    ones away (never a room's last one of a kind it always has) while it holds more."""
    def total() -> int:
        return sum(sum(r["objects"].values()) for r in rooms.values())
    labels = sorted(rooms)
    guard = 0
    while total() > target and guard < 400:
        guard += 1
        room = rooms[labels[int(rng.integers(len(labels)))]]
        optional = sorted(c for c, p, lo, _ in ROOM_OBJECTS[room["key"]] if c in room["objects"]
                          and (p < 1.0 or room["objects"][c] > lo))
        if not optional:
            continue
        category = optional[int(rng.integers(len(optional)))]
        room["objects"][category] -= 1
        if not room["objects"][category]:
            del room["objects"][category]
        room["objects"] = _consistent(room["objects"])
    labels = [lb for lb in rooms if FILLERS.get(rooms[lb]["key"])]
    guard = 0
    while total() < target and labels and guard < 400:
        guard += 1
        room = rooms[labels[int(rng.integers(len(labels)))]]
        options = [c for c in FILLERS[room["key"]] if c in _consistent({**room["objects"], c: 1})]
        if not options or sum(room["objects"].values()) >= 24:
            continue
        category = options[int(rng.integers(len(options)))]
        if room["objects"].get(category, 0) >= FILL_CAP.get(category, 4):
            continue
        room["objects"][category] = room["objects"].get(category, 0) + 1


def _with_signature(room: dict) -> None:
    """A room holds something that says what it is (SIGNATURE): the first of its signature
    categories, at the table's least count, when it drew none."""
    wanted = SIGNATURE.get(room["key"], ())
    if wanted and not set(wanted) & set(room["objects"]):
        least = {c: lo for c, _, lo, _ in ROOM_OBJECTS[room["key"]]}
        room["objects"][wanted[0]] = least[wanted[0]]


def floor_need(objects: dict[str, int]) -> float:
    """m^2 the floor-standing objects take with the space in front of them."""
    need = 0.0
    for category, n in objects.items():
        cat = get_category(category)
        if cat.placement in FLOOR_KINDS and category != "carpet":
            w, d, _ = cat.size_max
            need += n * w * (d + cat.front_clearance)
    return need


def draw_rooms(seed: int, index: int, typology: str, uncovered: set[str], name: str) -> Draft:
    """Rooms, objects and trajectory of one scenario; no relations yet."""
    from generator.layout.rooms import room_size

    rng = stage_rng(seed, f"sample:{index}")
    typ = TYPOLOGIES[typology]
    keys = _room_keys(rng, typ, uncovered)
    names = [LABELS.get(k, k) for k, _ in keys]
    rooms: dict[str, dict] = {}
    for i, (key, floor) in enumerate(keys):
        base = names[i]
        label = base if names.count(base) == 1 else f"{base} {names[:i + 1].count(base)}"
        objects = _room_objects(rng, key, uncovered)
        rooms[label] = {"key": key, "type": base, "floor": floor, "area": None, "objects": objects}
    target = int(np.clip(round(rng.normal(*PAPER["objects"])), 40, 110))
    _fill(rng, rooms, target)
    for room in rooms.values():
        uncovered -= set(room["objects"])
    for room in rooms.values():   # after the coverage count, so the specs drawn next are as before
        _with_signature(room)
    for label, room in rooms.items():
        typical, _ = room_size(room["type"])
        need = floor_need(room["objects"])
        if need * 2.0 > typical:  # crowded: ask for a larger room than the type's default
            room["area"] = float(math.ceil(need * 2.0 * 2) / 2)
    trajectory = _trajectory(rng, rooms)
    return Draft(name, typology, int(stage_seed(seed, f"spec:{index}") % 1_000_000), rooms, trajectory)


def _trajectory(rng: np.random.Generator, rooms: dict[str, dict]) -> list[str]:
    """A random visiting order; floor by floor in a multi-story building (one climb per floor).
    Its first room stays first (the layout puts it on the plan's south edge, where the walk
    starts); `_with_short_tour` later orders the others for a short walk."""
    order = []
    for floor in sorted({r["floor"] for r in rooms.values()}):
        on_floor = [lb for lb, r in rooms.items() if r["floor"] == floor]
        order += [on_floor[i] for i in rng.permutation(len(on_floor))]
    return order


# ---------------------------------------------------------------------------- relations


def _chains(rng: np.random.Generator, pairs: list[tuple[str, str]], want: int) -> list[list[str]]:
    """`want` pairs of `pairs` drawn as chains (a - b - c), like the paper's adjacency lists."""
    free = {tuple(p) for p in pairs}
    chains: list[list[str]] = []
    taken = 0
    while taken < want and free:
        ordered = sorted(free)
        a, b = ordered[int(rng.integers(len(ordered)))]
        free.discard((a, b))
        chain = [a, b] if rng.random() < 0.5 else [b, a]
        taken += 1
        while taken < want and rng.random() < 0.6:
            end = chain[-1]
            nxt = sorted(p for p in free if end in p and (p[0] if p[1] == end else p[1]) not in chain)
            if not nxt:
                break
            p = nxt[int(rng.integers(len(nxt)))]
            free.discard(p)
            chain.append(p[0] if p[1] == end else p[1])
            taken += 1
        chains.append(chain)
    return chains


def draw_relations(rng: np.random.Generator, realized: dict[str, list], multi_floor: bool) -> dict[str, list]:
    """A paper-like subset of the relations a plan realises."""
    adjacent = [tuple(p) for p in realized["adjacent"]]
    opposite = [tuple(p) for p in realized["opposite"] if tuple(p) not in adjacent]  # never both (the spec refuses it)
    vertical = [tuple(p) for p in realized["vertical"]]
    n_adj = int(np.clip(round(rng.normal(*PAPER["adjacent pairs"])), 1, len(adjacent))) if adjacent else 0
    n_opp = min(len(opposite), int(rng.choice(5, p=[0.15, 0.2, 0.3, 0.2, 0.15])))  # paper: 2.5 +- 2.0 pairs
    n_vert = min(len(vertical), int(rng.integers(1, 4))) if multi_floor else 0
    picked_opp = [list(opposite[i]) for i in sorted(rng.choice(len(opposite), n_opp, replace=False))] if n_opp else []
    return {"adjacent": _chains(rng, adjacent, n_adj), "opposite": picked_opp,
            "vertical": _chains(rng, vertical, n_vert)}


# ---------------------------------------------------------------------------- confirmation


@dataclass
class Sampled:
    draft: Draft
    stats: dict
    tries: int = 1
    short: str | None = None  # kept although `accept` refused every draw: why


def _parse(draft: Draft):
    return parse_scenario(draft.yaml_text(), source=f"{draft.name}.yaml")


def confirm(draft: Draft, rng: np.random.Generator) -> Draft:
    """Draw relations from a relation-free layout and check the spec lays out and places;
    enlarge rooms that are too small or drop relations on refusal. SampleError if no try works."""
    from generator.layout import plan as layout
    from generator.layout.geometry import polygon_area, wall_pairs
    from generator.layout.relations import check_scene, realized_relations
    from generator.placement.place import place_objects
    from generator.placement.state import PlacementError

    multi = len({r["floor"] for r in draft.rooms.values()}) > 1
    problems = []
    for _ in range(CONFIRM_ATTEMPTS):
        draft.relations = {"adjacent": [], "opposite": [], "vertical": []}
        try:
            scene = layout.plan_to_scene(layout.layout(_parse(draft), work_budget=PROBE_BUDGET))
        except layout.LayoutError as exc:
            raise SampleError(f"rooms do not lay out: {exc}") from None
        realized = realized_relations(scene)
        realized["adjacent"] = sorted(set(map(tuple, realized["adjacent"])) | wall_pairs(scene))
        draft.relations = draw_relations(rng, realized, multi)
        for _relation_try in range(2):
            scenario = _parse(draft)
            try:
                scene = layout.plan_to_scene(layout.layout(scenario))
                bad = check_scene(scenario, scene)
                if bad:
                    raise layout.LayoutError("; ".join(bad))
                place_objects(scenario, scene)
                shaped = _with_l_hallway(_with_l_rooms(draft, scene, rng))
                return _numbered_by_visit(_with_short_tour(shaped, scene if shaped is draft else None))
            except PlacementError as exc:
                problems.append(str(exc))
                room = draft.rooms.get(exc.room or "")
                if room is None:
                    raise SampleError(str(exc)) from None
                count = room["objects"].get(exc.category or "", 0)
                if count and get_category(exc.category).placement == "on_support":
                    # no support left for it: fewer of them (a larger room would not add a shelf)
                    room["objects"][exc.category] = count // 2
                    room["objects"] = _consistent({c: n for c, n in room["objects"].items() if n})
                else:
                    area = next(polygon_area(r["polygon"]) for r in scene["rooms"] if r["label"] == exc.room)
                    room["area"] = float(math.ceil(area * AREA_STEP * 2) / 2)
                break  # the room changed: lay out again and draw relations afresh
            except layout.LayoutError as exc:
                problems.append(str(exc))
                draft.relations = {k: v[: len(v) // 2] for k, v in draft.relations.items()}
    raise SampleError(f"{draft.name}: no layout and placement after {CONFIRM_ATTEMPTS} tries: {problems[-1]}")


def _with_l_rooms(draft: Draft, scene: dict, rng: np.random.Generator) -> Draft:
    """Some rooms as Ls (L_SHARE of those with a free outside corner, at most one per floor):
    the solver's rectangles do not depend on shapes, so the same plan less those corners; kept
    only if the spec still lays out and places."""
    from shapely.geometry import Point, Polygon

    from generator.layout.shapes import carve_l

    spaces = [(r["label"], r["floor"], Polygon(r["polygon"])) for r in scene["rooms"]]
    spaces += [(f"hallway:{h['id']}", h["floor"], Polygon(h["polygon"])) for h in scene["hallways"]]
    spaces += [(s["id"], f, Polygon(s["polygon"])) for s in scene["stairs"] for f in s["floors"]]
    start = Point(scene["start"]["position"])
    chosen: dict[int, str] = {}
    for label, floor, poly in spaces:
        if label not in draft.rooms or floor in chosen or rng.random() >= L_SHARE:
            continue
        others = [p for name, f, p in spaces if f == floor and name != label]
        above = [p for _, f, p in spaces if f == floor + 1]
        if carve_l(poly, others, above, start if label == draft.trajectory[0] else None) is not None:
            chosen[floor] = label
    if not chosen:
        return draft
    shaped = copy.deepcopy(draft)
    for label in chosen.values():
        shaped.rooms[label]["shape"] = "L"
    return _kept_if_it_builds(draft, shaped, every_relation=False)


def _with_l_hallway(draft: Draft) -> Draft:
    """L_HALL_SHARE of the specs ask for hallways with a turn (`hallway_shape: L`), drawn from
    a generator of their own so that the other specs stay as they were; kept only if the
    spec still lays out with every relation and places."""
    if stage_rng(draft.seed, f"sample:hallway:{draft.name}").random() >= L_HALL_SHARE:
        return draft
    turned = copy.deepcopy(draft)
    turned.hallway_shape = "L"
    return _kept_if_it_builds(draft, turned, every_relation=True)


def _with_short_tour(draft: Draft, scene: dict | None = None) -> Draft:
    """The draft visiting its rooms in a short order over its own plan (generator.spec.tour;
    `scene`: that plan when the caller has it), kept only if the spec still lays out with
    every relation and places."""
    from generator.layout import plan as layout
    from generator.spec.tour import short_tour

    try:
        scene = scene or layout.plan_to_scene(layout.layout(_parse(draft)))
    except layout.LayoutError:  # it laid out a moment ago; a slower solve keeps the order drawn
        return draft
    order = short_tour(scene, list(draft.trajectory))
    if order == list(draft.trajectory):
        return draft
    toured = copy.deepcopy(draft)
    toured.trajectory = order
    return _kept_if_it_builds(draft, toured, every_relation=True)


def _numbered_by_visit(draft: Draft) -> Draft:
    """Rooms named alike numbered in the order the walk visits them ("bedroom 1" first), as a
    viewer numbers them (docs/ground-truth.md "Rooms a viewer can tell"); kept only if the spec
    still lays out with every relation and places (the solver orders rooms by label)."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for label in draft.trajectory:
        if said := numbered(label):
            groups.setdefault(said[0], []).append((said[1], label))
    rename = {}
    for stem, rooms in groups.items():
        numbers = sorted(n for n, _ in rooms)
        rename.update({label: f"{stem} {n}" for (_, label), n in zip(rooms, numbers)})
    if all(new == old for old, new in rename.items()):
        return draft
    said = lambda x: [said(v) for v in x] if isinstance(x, list) else rename.get(x, x)  # noqa: E731
    renamed = copy.deepcopy(draft)
    renamed.rooms = {rename.get(k, k): v for k, v in renamed.rooms.items()}
    renamed.trajectory = said(renamed.trajectory)
    renamed.relations = {k: said(v) for k, v in renamed.relations.items()}
    kept = _kept_if_it_builds(draft, renamed, every_relation=True)
    if kept is draft and any(r.get("shape") == "L" for r in renamed.rooms.values()):
        for room in renamed.rooms.values():     # an L drawn for the old plan may have no corner now
            room.pop("shape", None)
        kept = _kept_if_it_builds(draft, renamed, every_relation=True)
    return kept


def _kept_if_it_builds(draft: Draft, changed: Draft, *, every_relation: bool) -> Draft:
    """`changed` if it lays out (with every relation holding, when asked) and its objects
    place; else the draft as it was."""
    from generator.layout import plan as layout
    from generator.layout.relations import check_scene
    from generator.placement.place import place_objects
    from generator.placement.state import PlacementError

    try:
        scenario = _parse(changed)
        scene = layout.plan_to_scene(layout.layout(scenario, explain=False))
        if every_relation and check_scene(scenario, scene):
            return draft
        place_objects(scenario, scene)
    except (layout.LayoutError, PlacementError):
        return draft
    return changed


# ---------------------------------------------------------------------------- batch


def typology_order(n: int, seed: int, typologies: list[str] | None) -> list[str]:
    """Each asked typology once first (round robin when several are named), then by the mix."""
    rng = stage_rng(seed, "sample:typologies")
    if typologies:
        return [typologies[i % len(typologies)] for i in range(n)]
    names = [t for t, _ in DEFAULT_MIX]
    weights = np.array([w for _, w in DEFAULT_MIX])
    drawn = [names[int(rng.choice(len(names), p=weights / weights.sum()))] for _ in range(n)]
    return [names[i] if i < len(names) else drawn[i] for i in range(n)]


def stats_of(draft: Draft) -> dict:
    scenario = _parse(draft)
    opposite_pairs = sum(len(g.side_a) * len(g.side_b) for g in scenario.relations.opposite)
    return {
        "name": draft.name, "typology": draft.typology, "rooms": len(scenario.rooms),
        "objects": sum(o.count for r in scenario.rooms.values() for o in r.objects),
        "floors": len(scenario.floors), "hallway_shape": scenario.hallway_shape,
        "adjacent pairs": len(scenario.relations.adjacent),
        "opposite pairs": opposite_pairs, "vertical pairs": len(scenario.relations.vertical),
        "objects per room": {label: sum(o.count for o in r.objects) for label, r in scenario.rooms.items()},
        "room types": {label: draft.rooms[label]["key"] for label in draft.rooms},
        "categories": sorted({o.category for r in scenario.rooms.values() for o in r.objects}),
    }


def sample(n: int, seed: int, typologies: list[str] | None = None, check: bool = True,
           on_spec=None, accept: Callable[[object], str | None] | None = None) -> list[Sampled]:
    """`n` scenario drafts. With `check`, each has relations drawn from its layout and is
    confirmed to lay out and place; without, rooms and objects only (no relations, fast).
    `accept(scenario)` (checked drafts only) says why a draft that lays out and places should
    still be drawn again, or None to keep it; after REDRAWS draws the first that laid out is
    kept, with that reason as `short`."""
    for t in typologies or []:
        if t not in TYPOLOGIES:
            raise SampleError(f"--typology: unknown typology {t!r} (fix: one of {', '.join(TYPOLOGIES)})")
    order = typology_order(n, seed, typologies)
    uncovered = set(CATEGORIES)
    out: list[Sampled] = []
    for i in range(n):
        name = f"sample-{seed}-{i:03d}"
        error, kept, short = None, None, None
        for redraw in range(REDRAWS):
            before = set(uncovered)
            draft = draw_rooms(seed, i if redraw == 0 else i + 1_000_000 * redraw, order[i], uncovered, name)
            if not check:
                break
            try:
                draft = confirm(draft, stage_rng(seed, f"sample:relations:{i}:{redraw}"))
            except SampleError as exc:
                error = exc
            else:
                short = accept(_parse(draft)) if accept else None
                if short is None:
                    break
                kept = kept or (draft, redraw, short)
            uncovered.clear()
            uncovered.update(before)
        else:
            if kept is None:
                raise SampleError(f"{name}: no spec laid out and placed after {REDRAWS} draws: {error}")
            draft, redraw, short = kept
            for room in draft.rooms.values():
                uncovered.difference_update(room["objects"])
        sampled = Sampled(draft, stats_of(draft), redraw + 1, short)
        out.append(sampled)
        if on_spec:
            on_spec(sampled)
    return out
