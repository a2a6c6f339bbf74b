"""Scenario YAML v1: schema (pydantic), loading, cross-field checks, normalization.

Every refusal is a `SpecIssue` naming the file, the YAML path, the problem and a fix, and all
issues of a file are reported together so a user fixes them in one pass.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
import reprlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal, Union

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from assets.catalog import normalize_color, resolve_category, suggest_category, suggest_color
from formats.files import MAX_NAME_BYTES
from generator.spec import loader
from generator.spec.names import MAX_NAME_CHARS, scenario_name

TYPOLOGIES = ("single-story residence", "multi-story residence", "office")
MAX_FLOORS = 5
# Input limits (stated in the schema and README): a spec within them never makes `generate`
# fail on its content; the layout of one floor stays within the default layout budget.
MAX_LABEL_CHARS = 64
MAX_TEXT_CHARS = 200  # free-form text: room type, colour, material, other attributes
MAX_ROOMS = 40
MAX_ROOMS_PER_FLOOR = 16
MAX_OBJECTS_PER_ROOM = 120
MAX_OBJECTS = 600
MAX_RELATIONS = 200  # entries per relation kind
MAX_CHAIN = 40  # items per relation entry (a group counts as one item)
MAX_AREA = 400.0  # m^2 per room
MAX_SEED = 2**63 - 1
MAX_ISSUES = 20  # issues shown per file; the rest are counted
RESERVED_ATTRIBUTES = ("count", "model_seed", "wall_mounted", "open_angle", "opening", "artwork")  # set by the generator

# ---------------------------------------------------------------------------- schema


Count = Annotated[int, Field(strict=True, ge=1, le=60, description="How many instances (1-60).")]


Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Label = Annotated[str, Field(min_length=1, max_length=MAX_LABEL_CHARS)]


class ObjectEntry(BaseModel):
    """`category: {count, color, ...}`; extra keys are free-form attributes (material, style):
    text of at most 200 characters, a boolean, or a finite number."""

    model_config = ConfigDict(extra="allow")
    count: Count = 1
    color: Text | None = Field(None, description="Colour of the main part, e.g. red.")
    material: Text | None = Field(None, description="Material of the main part, e.g. wood.")

    @model_validator(mode="after")
    def _plain_attributes(self):
        for key, value in (self.__pydantic_extra__ or {}).items():
            if key in RESERVED_ATTRIBUTES or len(key) > MAX_LABEL_CHARS:
                raise ValueError(f"attribute name {key[:MAX_LABEL_CHARS]!r} is reserved or too long")
            ok = (isinstance(value, str) and len(value) <= MAX_TEXT_CHARS) or isinstance(value, bool) or \
                 (isinstance(value, int) and abs(value) <= 2**53) or (isinstance(value, float) and math.isfinite(value)
                                                                      and abs(value) <= 1e15)
            if not ok:
                raise ValueError(f"attribute {key!r} must be text (up to {MAX_TEXT_CHARS} characters), "
                                 f"a boolean or a finite number")
        return self


ObjectValue = Union[Count, ObjectEntry]


class RoomEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Text | None = Field(None, description="Room type; default is the label without a trailing number.")
    floor: int = Field(0, ge=0, lt=MAX_FLOORS, description="0 = ground floor.")
    area: float | None = Field(None, gt=0, le=MAX_AREA, allow_inf_nan=False,
                               description=f"Target floor area in m^2 (above 0, at most {MAX_AREA:g}).")
    objects: dict[Label, ObjectValue] = Field(default_factory=dict, max_length=MAX_OBJECTS_PER_ROOM,
                                              description=f"Category -> count or entry; at most {MAX_OBJECTS_PER_ROOM} "
                                                          f"objects per room, {MAX_OBJECTS} per scenario.")
    shape: Literal["rectangle", "L"] = Field("rectangle", description=(
        "Floor shape: a rectangle, or an L (the rectangle the layout gives the room, less one corner on the "
        "outside of the building: a corner no other room, hallway or stairwell touches, with nothing above it)."))


Item = Union[Label, Annotated[list[Label], Field(max_length=MAX_ROOMS)]]
Chain = Annotated[list[Item], Field(max_length=MAX_CHAIN)]


class RelationsEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    adjacent: list[Chain] = Field(default_factory=list, max_length=MAX_RELATIONS, description="Chains of rooms sharing a wall with a doorway.")
    opposite: list[Chain] = Field(default_factory=list, max_length=MAX_RELATIONS, description="Rooms facing each other across one shared space.")
    vertical: list[Chain] = Field(default_factory=list, max_length=MAX_RELATIONS, description="Rooms stacked on consecutive floors.")


class ScenarioFile(BaseModel):
    """The scenario YAML v1 document. Limits: the file at most 256 KiB of UTF-8, nesting at most
    16 levels, at most 20000 values, no YAML aliases, anchors or tags, text values at most 1000
    characters (labels 64, free-form text 200)."""

    model_config = ConfigDict(extra="forbid", title="egoscene scenario v1")
    name: Annotated[str, AfterValidator(scenario_name)] = Field(min_length=1, max_length=MAX_NAME_CHARS,
                      description=f"Unique scenario name and output folder: lower-case letters of any script, digits, "
                                  f"'-' and '_' (not first), in Unicode NFC, at most {MAX_NAME_CHARS} characters and "
                                  f"{MAX_NAME_BYTES} bytes of UTF-8 ('kitchen-2', 'küche_1', '客厅')")
    typology: Literal["single-story residence", "multi-story residence", "office"]
    seed: int = Field(0, ge=0, le=MAX_SEED, description="Same spec + seed => same outputs.")
    rooms: dict[Label, RoomEntry] = Field(min_length=1, max_length=MAX_ROOMS,
                                          description=f"Room label -> room; at most {MAX_ROOMS} rooms, "
                                                      f"{MAX_ROOMS_PER_FLOOR} per floor.")
    trajectory: list[Label] = Field(min_length=1, max_length=MAX_ROOMS, description="Every room exactly once, in visiting order.")
    relations: RelationsEntry = Field(default_factory=RelationsEntry)
    hallway_shape: Literal["any", "straight", "L"] = Field("any", description=(
        "Shape of each floor's hallway: 'any' (the fewest straight pieces that make every relation hold), "
        "'straight' (one straight corridor) or 'L' (a corridor with one right-angle turn, both arms at least 2 m)."))


def json_schema() -> dict:
    return ScenarioFile.model_json_schema()


# ---------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class SpecIssue:
    file: str
    path: str
    problem: str
    fix: str = ""

    def __str__(self) -> str:  # bounded: a hostile file cannot make a message of megabytes
        where = f"{_clip(self.file, 300)}: {_clip(self.path, 200)}" if self.path else _clip(self.file, 300)
        return f"{where}: {_clip(self.problem, 400)}" + (f" (fix: {_clip(self.fix, 300)})" if self.fix else "")


def _clip(text: str, limit: int) -> str:
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # printable even with a lone surrogate
    return text if len(text) <= limit else text[:limit - 3] + "..."


class SpecError(Exception):
    """A refused spec: at most MAX_ISSUES issues, then one line counting the rest."""

    def __init__(self, issues: list[SpecIssue]):
        if len(issues) > MAX_ISSUES:
            rest = len(issues) - MAX_ISSUES + 1
            issues = issues[:MAX_ISSUES - 1] + [SpecIssue(issues[0].file, "", f"{rest} more problems not shown",
                                                          "fix the ones above and validate again")]
        self.issues = issues
        super().__init__("\n".join(str(issue) for issue in issues))


# ---------------------------------------------------------------------------- normalized model


@dataclass(frozen=True)
class ObjectRequest:
    category: str
    count: int
    attributes: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Room:
    label: str
    type: str
    floor: int
    area: float | None
    objects: tuple[ObjectRequest, ...]
    shape: str = "rectangle"

    def count(self, category: str) -> int:
        return sum(o.count for o in self.objects if o.category == category)


@dataclass(frozen=True)
class OppositeGroup:
    """All of `side_a` line one side and all of `side_b` the other side of one shared space."""

    side_a: tuple[str, ...]
    side_b: tuple[str, ...]


@dataclass(frozen=True)
class Relations:
    adjacent: tuple[tuple[str, str], ...] = ()
    opposite: tuple[OppositeGroup, ...] = ()
    vertical: tuple[tuple[str, str], ...] = ()

    def opposite_pairs(self) -> set[tuple[str, str]]:
        """Pairs that must be opposite for sure (singleton vs singleton)."""
        return {pair_key(g.side_a[0], g.side_b[0]) for g in self.opposite if len(g.side_a) == len(g.side_b) == 1}


@dataclass(frozen=True)
class Scenario:
    name: str
    typology: str
    seed: int
    rooms: dict[str, Room]
    trajectory: tuple[str, ...]
    relations: Relations
    source: str = ""
    hallway_shape: str = "any"  # any | straight | L

    @property
    def floors(self) -> list[int]:
        return sorted({room.floor for room in self.rooms.values()})

    def rooms_on(self, floor: int) -> list[Room]:
        return [room for room in self.rooms.values() if room.floor == floor]

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "typology": self.typology,
            "seed": self.seed,
            "rooms": {
                label: {
                    "type": r.type,
                    "floor": r.floor,
                    "area": r.area,
                    "objects": [{"category": o.category, "count": o.count, "attributes": o.attributes} for o in r.objects],
                    **({"shape": r.shape} if r.shape != "rectangle" else {}),
                }
                for label, r in self.rooms.items()
            },
            "trajectory": list(self.trajectory),
            "relations": {
                "adjacent": [list(p) for p in self.relations.adjacent],
                "opposite": [[list(g.side_a), list(g.side_b)] for g in self.relations.opposite],
                "vertical": [list(p) for p in self.relations.vertical],
            },
            **({"hallway_shape": self.hallway_shape} if self.hallway_shape != "any" else {}),
        }

    def spec_hash(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def default_room_type(label: str) -> str:
    return re.sub(r"\s*\d+$", "", label).strip() or label


def canonical_label(label: str) -> str:
    """What two labels collide on: case, spacing and separators do not make rooms different."""
    return re.sub(r"[\s_\-]+", "", label.lower())


# ---------------------------------------------------------------------------- loading


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file; SpecError (file, YAML path, problem, fix) on any refusal.
    The limits of generator.spec.loader are checked before the YAML is built."""
    path = Path(path)
    try:
        text = loader.read_text(path)
    except OSError as exc:
        raise SpecError([SpecIssue(str(path), "", f"cannot read file: {exc.strerror or exc}", "check the path")]) from exc
    except loader.LoadIssue as exc:
        raise SpecError([SpecIssue(str(path), exc.path, exc.problem, exc.fix)]) from None
    return parse_scenario(text, source=str(path))


def parse_scenario(text: str, source: str = "<string>") -> Scenario:
    if len(text) > loader.MAX_FILE_BYTES:  # characters: at least as many bytes
        raise SpecError([SpecIssue(source, "", f"file larger than {loader.MAX_FILE_BYTES // 1024} KiB", "a scenario is a short hand-written file")])
    try:
        data = loader.load_yaml(text)
    except loader.LoadIssue as exc:
        raise SpecError([SpecIssue(source, exc.path, exc.problem, exc.fix)]) from None
    except (yaml.YAMLError, ValueError, OverflowError) as exc:  # ValueError: a constructor's own limit
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        fix = "give each room label once" if "duplicate key" in str(problem) else "fix the YAML syntax"
        raise SpecError([SpecIssue(source, where, f"invalid YAML: {problem}", fix)]) from None
    if not isinstance(data, dict):
        raise SpecError([SpecIssue(source, "", "the file must be a YAML mapping with name, typology, rooms, trajectory", "see scenarios/*.yaml")])
    try:
        parsed = ScenarioFile.model_validate(data)
    except ValidationError as exc:
        raise SpecError(_issues_from_pydantic(source, exc)) from exc
    return _normalize(parsed, source)


_FIELD_FIXES = {
    "name": "use lower-case letters (any script), digits, '-' or '_', e.g. 'kitchen-2'",
    "typology": "one of: " + ", ".join(TYPOLOGIES),
    "floor": f"a floor number from 0 to {MAX_FLOORS - 1}",
    "area": f"a positive area in square metres, at most {MAX_AREA:g}",
    "seed": f"a whole number from 0 to {MAX_SEED}",
    "rooms": f"at most {MAX_ROOMS} rooms, labels of 1 to {MAX_LABEL_CHARS} characters",
    "type": f"text of at most {MAX_TEXT_CHARS} characters",
    "objects": f"at most {MAX_OBJECTS_PER_ROOM} categories per room, names of at most {MAX_LABEL_CHARS} characters",
    "adjacent": f"at most {MAX_RELATIONS} entries of at most {MAX_CHAIN} room labels or groups",
    "opposite": f"at most {MAX_RELATIONS} entries of at most {MAX_CHAIN} room labels or groups",
    "vertical": f"at most {MAX_RELATIONS} entries of at most {MAX_CHAIN} room labels or groups",
    "trajectory": "list every room label once",
}


_repr = reprlib.Repr()  # Python 3.11: limits are attributes, not arguments
_repr.maxstring, _repr.maxother, _repr.maxlist, _repr.maxdict, _repr.maxlevel = 60, 60, 4, 4, 2
_short = _repr.repr


def _yaml_path(loc: tuple) -> str:
    """`relations.adjacent[2][0]` from pydantic's loc, without the names of union branches."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part not in ("constrained-str", "list[constrained-str]"):
            path += ("." if path else "") + part
    return path


def _issues_from_pydantic(source: str, exc: ValidationError) -> list[SpecIssue]:
    issues: dict[str, SpecIssue] = {}
    for err in exc.errors():
        loc = [str(part) for part in err["loc"]]
        if loc[:1] == ["rooms"] and len(loc) >= 4 and loc[2] == "objects":
            # a count or a {count, color, ...} mapping: pydantic reports both union branches
            path = ".".join(loc[:4])
            if err["type"] == "value_error":  # ObjectEntry's own check names the attribute
                issues[path] = SpecIssue(source, path, err["msg"].removeprefix("Value error, "),
                                         "use text, a boolean or a number; not count, model_seed, wall_mounted, open_angle, opening, artwork")
                continue
            if len(loc) > 4 and loc[4] in ("color", "material"):
                issues.setdefault(path, SpecIssue(source, f"{path}.{loc[4]}", err["msg"], f"text of at most {MAX_TEXT_CHARS} characters"))
                continue
            issues.setdefault(path, SpecIssue(source, path, f"bad object entry {_short(err['input'])}",
                                              "a whole number from 1 to 60, or {count: N, color: ...}"))
            continue
        path = _yaml_path(err["loc"])
        if err["type"] == "extra_forbidden":
            parent = "relations" if loc[:1] == ["relations"] else ("room" if loc[:1] == ["rooms"] else "")
            known = {"": ScenarioFile.model_fields, "room": RoomEntry.model_fields, "relations": RelationsEntry.model_fields}[parent]
            close = difflib.get_close_matches(loc[-1], list(known), n=1)
            issue = SpecIssue(source, path, f"unknown field {loc[-1]!r}", f"did you mean {close[0]!r}?" if close else f"allowed: {', '.join(known)}")
        elif err["type"] == "missing":
            issue = SpecIssue(source, path, "required field is missing", f"add {loc[-1]!r}")
        else:
            last = next((part for part in reversed(loc) if part in _FIELD_FIXES), "")
            issue = SpecIssue(source, path, err["msg"].removeprefix("Value error, "), _FIELD_FIXES.get(last, ""))
        issues.setdefault(path, issue)
    return list(issues.values())


def _normalize(parsed: ScenarioFile, source: str) -> Scenario:
    issues: list[SpecIssue] = []
    labels = list(parsed.rooms)

    by_canonical: dict[str, str] = {}
    for label in labels:
        if not label.strip():
            issues.append(SpecIssue(source, "rooms", "empty room label", "give the room a name"))
        for text, what in ((label, "room label"), (parsed.rooms[label].type or "", "room type")):
            bad = loader.unsafe_text(text)
            if bad:
                issues.append(SpecIssue(source, f"rooms.{label!r}", f"{what} contains a {bad}", "use printable characters only"))
        other = by_canonical.setdefault(canonical_label(label), label)
        if other != label:
            issues.append(SpecIssue(source, f"rooms.{label}", f"label {label!r} collides with {other!r}", "give each room a distinct label, e.g. 'bedroom 1' and 'bedroom 2'"))

    rooms: dict[str, Room] = {}
    for label, entry in parsed.rooms.items():
        objects: dict[str, ObjectRequest] = {}
        for raw_name, value in entry.objects.items():
            path = f"rooms.{label}.objects.{raw_name}"
            category = resolve_category(raw_name)
            if category is None:
                guess = suggest_category(raw_name)
                issues.append(SpecIssue(source, path, f"unknown object category {raw_name!r}", f"did you mean {guess!r}?" if guess else "see `egoscene catalog --list` for the category list"))
                continue
            if category in objects:
                issues.append(SpecIssue(source, path, f"{raw_name!r} names the same category as another entry ({category!r})", "merge them into one entry with the total count"))
                continue
            if isinstance(value, int):
                objects[category] = ObjectRequest(category, value)
            else:
                attributes = {k: v for k, v in value.model_dump(exclude={"count"}).items() if v is not None}
                if "color" in attributes:
                    color = normalize_color(attributes["color"])
                    if color is None:
                        guess = suggest_color(attributes["color"])
                        issues.append(SpecIssue(source, f"{path}.color", f"unknown colour {attributes['color']!r}",
                                                f"did you mean {guess!r}?" if guess else "a colour name like red, oak or light blue, or #rrggbb"))
                        continue
                    attributes["color"] = color
                objects[category] = ObjectRequest(category, value.count, attributes)
        room_type = (entry.type or default_room_type(label)).strip().lower()
        rooms[label] = Room(label, room_type, entry.floor, entry.area, tuple(objects[c] for c in sorted(objects)),
                            entry.shape)

    total = sum(o.count for room in rooms.values() for o in room.objects)
    if total > MAX_OBJECTS:
        issues.append(SpecIssue(source, "rooms", f"{total} objects in all (limit {MAX_OBJECTS})", "split the scenario or use fewer objects"))
    for room in rooms.values():
        if room.objects and sum(o.count for o in room.objects) > MAX_OBJECTS_PER_ROOM:
            issues.append(SpecIssue(source, f"rooms.{room.label}.objects", f"{sum(o.count for o in room.objects)} objects "
                                    f"in one room (limit {MAX_OBJECTS_PER_ROOM})", "use fewer objects or split the room"))
    issues += _check_floors(parsed, source)
    issues += _check_trajectory(parsed.trajectory, labels, source)
    relations, relation_issues = _normalize_relations(parsed.relations, rooms, source)
    issues += relation_issues
    if issues:
        raise SpecError(issues)
    return Scenario(parsed.name, parsed.typology, parsed.seed, rooms, tuple(parsed.trajectory), relations, source,
                    parsed.hallway_shape)


def _check_floors(parsed: ScenarioFile, source: str) -> list[SpecIssue]:
    floors = sorted({room.floor for room in parsed.rooms.values()})
    issues = []
    for floor in floors:
        on_floor = [label for label, r in parsed.rooms.items() if r.floor == floor]
        if len(on_floor) > MAX_ROOMS_PER_FLOOR:
            issues.append(SpecIssue(source, "rooms", f"{len(on_floor)} rooms on floor {floor} (limit {MAX_ROOMS_PER_FLOOR} per floor: "
                                    "the layout of a larger floor does not fit its time budget)",
                                    "spread the rooms over floors (multi-story residence) or split the scenario"))
    if parsed.typology == "single-story residence" and floors != [0]:
        upper = [label for label, r in parsed.rooms.items() if r.floor != 0]
        issues.append(SpecIssue(source, f"rooms.{upper[0]}.floor", "a single-story residence has only floor 0", "remove the floor field or use typology: multi-story residence"))
    if parsed.typology == "multi-story residence" and len(floors) < 2:
        issues.append(SpecIssue(source, "typology", "a multi-story residence needs rooms on at least two floors", "set floor: 1 on the upper rooms, or use single-story residence"))
    if floors and floors != list(range(floors[-1] + 1)):
        missing = sorted(set(range(floors[-1] + 1)) - set(floors))
        issues.append(SpecIssue(source, "rooms", f"floors must be consecutive from 0; no room on floor {missing[0]}", "put at least one room on every floor in between"))
    return issues


def _suggest_label(name: str, labels: list[str]) -> str:
    close = difflib.get_close_matches(name, labels, n=1, cutoff=0.5)
    return f"did you mean {close[0]!r}?" if close else "rooms are: " + ", ".join(labels)


def _check_trajectory(trajectory: list[str], labels: list[str], source: str) -> list[SpecIssue]:
    issues = []
    seen: set[str] = set()
    for i, label in enumerate(trajectory):
        if label not in labels:
            issues.append(SpecIssue(source, f"trajectory[{i}]", f"unknown room {label!r}", _suggest_label(label, labels)))
        elif label in seen:
            issues.append(SpecIssue(source, f"trajectory[{i}]", f"room {label!r} is visited twice", "visit every room exactly once"))
        seen.add(label)
    missing = [label for label in labels if label not in seen]
    if missing:
        issues.append(SpecIssue(source, "trajectory", f"rooms missing from the trajectory: {', '.join(missing)}", "list every room exactly once"))
    return issues


def _normalize_relations(entry: RelationsEntry, rooms: dict[str, Room], source: str) -> tuple[Relations, list[SpecIssue]]:
    issues: list[SpecIssue] = []
    labels = list(rooms)
    found: dict[str, list] = {"adjacent": [], "opposite": [], "vertical": []}
    for kind in found:
        for i, chain in enumerate(getattr(entry, kind)):
            path = f"relations.{kind}[{i}]"
            if len(chain) < 2:
                issues.append(SpecIssue(source, path, "a relation needs at least two items", "write [room a, room b] or a chain [a, b, c]"))
                continue
            groups: list[tuple[str, ...]] = []
            for j, item in enumerate(chain):
                members = (item,) if isinstance(item, str) else tuple(item)
                bad = [m for m in members if m not in rooms]
                for m in bad:
                    issues.append(SpecIssue(source, f"{path}[{j}]", f"unknown room {m!r}", _suggest_label(m, labels)))
                if not members:
                    issues.append(SpecIssue(source, f"{path}[{j}]", "empty group", "list at least one room in the group"))
                if len(set(members)) != len(members):
                    issues.append(SpecIssue(source, f"{path}[{j}]", "a room appears twice in one group", "list each room once"))
                groups.append(members)
            if any(m not in rooms for g in groups for m in g):
                continue
            for j in range(len(groups) - 1):
                a, b = groups[j], groups[j + 1]
                overlap = set(a) & set(b)
                if overlap:
                    issues.append(SpecIssue(source, f"{path}[{j + 1}]", f"{sorted(overlap)[0]!r} is related to itself", "a room cannot be related to itself"))
                    continue
                found[kind].append((a, b, f"{path}[{j}]"))

    adjacent, vertical, opposite = set(), set(), []
    for a, b, path in found["adjacent"]:
        for x in a:
            for y in b:
                if rooms[x].floor != rooms[y].floor:
                    issues.append(SpecIssue(source, path, f"{x!r} (floor {rooms[x].floor}) and {y!r} (floor {rooms[y].floor}) cannot be adjacent: adjacency needs the same floor", "use vertical for rooms on consecutive floors"))
                adjacent.add(pair_key(x, y))
    for a, b, path in found["vertical"]:
        for x in a:
            for y in b:
                if abs(rooms[x].floor - rooms[y].floor) != 1:
                    issues.append(SpecIssue(source, path, f"{x!r} (floor {rooms[x].floor}) and {y!r} (floor {rooms[y].floor}) cannot be vertical: they must be on consecutive floors", "fix the floor numbers or drop the relation"))
                vertical.add(pair_key(x, y))
    for a, b, path in found["opposite"]:
        group_floors = {rooms[x].floor for x in a + b}
        if len(group_floors) > 1:
            issues.append(SpecIssue(source, path, f"opposite rooms must be on one floor; {', '.join(a + b)} span floors {sorted(group_floors)}", "put them on one floor or drop the relation"))
        for x in a:
            for y in b:
                if pair_key(x, y) in adjacent and len(a) == len(b) == 1:
                    issues.append(SpecIssue(source, path, f"{x!r} and {y!r} are asked to be both adjacent and opposite; opposite rooms must not be adjacent", "drop one of the two relations"))
        opposite.append(OppositeGroup(tuple(sorted(a)), tuple(sorted(b))))
    nonplanar = nonplanar_adjacency(p for p in adjacent if rooms[p[0]].floor == rooms[p[1]].floor)
    if nonplanar:  # the layout refuses these whatever it tries: `validate` says so, not `generate` later
        issues.append(SpecIssue(source, "relations.adjacent", NONPLANAR + "; ".join(nonplanar), NONPLANAR_FIX))
    unique_opposite = tuple(sorted(set(opposite), key=lambda g: (g.side_a, g.side_b)))
    relations = Relations(tuple(sorted(adjacent)), unique_opposite, tuple(sorted(vertical)))
    return relations, issues


NONPLANAR = "these rooms cannot all share walls on one floor (the adjacency graph is not planar): "
NONPLANAR_FIX = "drop one of these adjacencies"


def nonplanar_adjacency(pairs) -> list[str]:
    """The adjacent pairs of a Kuratowski subgraph of the adjacency graph, when there is one
    ('adjacent a - b', sorted): rooms drawn as regions on a plane can only touch in a planar
    pattern, whatever the layout search does."""
    pairs = sorted(pairs)  # (a set of pairs iterates in hash order: same spec, same message)
    if len(pairs) < 9:  # K3,3 has 9 edges and K5 10: a graph with fewer is planar
        return []
    import networkx as nx  # (only for a spec with many adjacencies)

    planar, witness = nx.check_planarity(nx.Graph(pairs), counterexample=True)
    if planar:
        return []
    return [f"adjacent {a} - {b}" for a, b in sorted(tuple(sorted(e)) for e in witness.edges)]
