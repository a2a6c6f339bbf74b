"""Scenario YAML v1: schema (pydantic), loading, cross-field checks, normalization.

Every refusal is a `SpecIssue` naming the file, the YAML path, the problem and a fix, and all
issues of a file are reported together so a user fixes them in one pass.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assets.catalog import normalize_color, resolve_category, suggest_category, suggest_color

TYPOLOGIES = ("single-story residence", "multi-story residence", "office")
MAX_FLOORS = 5

# ---------------------------------------------------------------------------- schema


Count = Annotated[int, Field(strict=True, ge=1, le=60, description="How many instances (1-60).")]


class ObjectEntry(BaseModel):
    """`category: {count, color, ...}`; extra keys are free-form attributes (material, style)."""

    model_config = ConfigDict(extra="allow")
    count: Count = 1
    color: str | None = Field(None, description="Colour of the main part, e.g. red.")
    material: str | None = Field(None, description="Material of the main part, e.g. wood.")


ObjectValue = Union[Count, ObjectEntry]


class RoomEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str | None = Field(None, description="Room type; default is the label without a trailing number.")
    floor: int = Field(0, ge=0, lt=MAX_FLOORS, description="0 = ground floor.")
    area: float | None = Field(None, gt=0, description="Target floor area in m^2.")
    objects: dict[str, ObjectValue] = Field(default_factory=dict)


Item = Union[str, list[str]]


class RelationsEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    adjacent: list[list[Item]] = Field(default_factory=list, description="Chains of rooms sharing a wall with a doorway.")
    opposite: list[list[Item]] = Field(default_factory=list, description="Rooms facing each other across one shared space.")
    vertical: list[list[Item]] = Field(default_factory=list, description="Rooms stacked on consecutive floors.")


class ScenarioFile(BaseModel):
    """The scenario YAML v1 document."""

    model_config = ConfigDict(extra="forbid", title="egoscene scenario v1")
    name: str = Field(pattern=r"^[a-z0-9_-]+$", description="Unique scenario name: [a-z0-9_-]+")
    typology: Literal["single-story residence", "multi-story residence", "office"]
    seed: int = Field(0, ge=0, description="Same spec + seed => same outputs.")
    rooms: dict[str, RoomEntry] = Field(min_length=1)
    trajectory: list[str] = Field(min_length=1, description="Every room exactly once, in visiting order.")
    relations: RelationsEntry = Field(default_factory=RelationsEntry)


def json_schema() -> dict:
    return ScenarioFile.model_json_schema()


# ---------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class SpecIssue:
    file: str
    path: str
    problem: str
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: {self.problem}" + (f" (fix: {self.fix})" if self.fix else "")


class SpecError(Exception):
    def __init__(self, issues: list[SpecIssue]):
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
                }
                for label, r in self.rooms.items()
            },
            "trajectory": list(self.trajectory),
            "relations": {
                "adjacent": [list(p) for p in self.relations.adjacent],
                "opposite": [[list(g.side_a), list(g.side_b)] for g in self.relations.opposite],
                "vertical": [list(p) for p in self.relations.vertical],
            },
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


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate mapping keys instead of silently keeping the last."""


def _construct_mapping(loader, node, deep=False):
    seen: dict = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first at line {seen[key] + 1})", key_node.start_mark
            )
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError([SpecIssue(str(path), "", f"cannot read file: {exc.strerror}", "check the path")]) from exc
    return parse_scenario(text, source=str(path))


def parse_scenario(text: str, source: str = "<string>") -> Scenario:
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        fix = "give each room label once" if "duplicate key" in str(problem) else "fix the YAML syntax"
        raise SpecError([SpecIssue(source, where, f"invalid YAML: {problem}", fix)]) from exc
    if not isinstance(data, dict):
        raise SpecError([SpecIssue(source, "", "the file must be a YAML mapping with name, typology, rooms, trajectory", "see scenarios/*.yaml")])
    try:
        parsed = ScenarioFile.model_validate(data)
    except ValidationError as exc:
        raise SpecError(_issues_from_pydantic(source, exc)) from exc
    return _normalize(parsed, source)


_FIELD_FIXES = {
    "name": "use lower-case letters, digits, '-' or '_'",
    "typology": "one of: " + ", ".join(TYPOLOGIES),
    "floor": f"a floor number from 0 to {MAX_FLOORS - 1}",
    "area": "a positive area in square metres",
    "trajectory": "list every room label once",
}


def _issues_from_pydantic(source: str, exc: ValidationError) -> list[SpecIssue]:
    issues: dict[str, SpecIssue] = {}
    for err in exc.errors():
        loc = [str(part) for part in err["loc"]]
        if loc[:1] == ["rooms"] and len(loc) >= 4 and loc[2] == "objects":
            # a count or a {count, color, ...} mapping: pydantic reports both union branches
            path = ".".join(loc[:4])
            issues.setdefault(path, SpecIssue(source, path, f"bad object entry {err['input']!r}",
                                              "a whole number from 1 to 60, or {count: N, color: ...}"))
            continue
        path = ".".join(loc)
        if err["type"] == "extra_forbidden":
            parent = "relations" if loc[:1] == ["relations"] else ("room" if loc[:1] == ["rooms"] else "")
            known = {"": ScenarioFile.model_fields, "room": RoomEntry.model_fields, "relations": RelationsEntry.model_fields}[parent]
            close = difflib.get_close_matches(loc[-1], list(known), n=1)
            issue = SpecIssue(source, path, f"unknown field {loc[-1]!r}", f"did you mean {close[0]!r}?" if close else f"allowed: {', '.join(known)}")
        elif err["type"] == "missing":
            issue = SpecIssue(source, path, "required field is missing", f"add {loc[-1]!r}")
        else:
            last = next((part for part in reversed(loc) if part in _FIELD_FIXES), "")
            issue = SpecIssue(source, path, err["msg"], _FIELD_FIXES.get(last, ""))
        issues.setdefault(path, issue)
    return list(issues.values())


def _normalize(parsed: ScenarioFile, source: str) -> Scenario:
    issues: list[SpecIssue] = []
    labels = list(parsed.rooms)

    by_canonical: dict[str, str] = {}
    for label in labels:
        if not label.strip():
            issues.append(SpecIssue(source, "rooms", "empty room label", "give the room a name"))
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
                issues.append(SpecIssue(source, path, f"unknown object category {raw_name!r}", f"did you mean {guess!r}?" if guess else "see `egoscene catalog` for the category list"))
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
        rooms[label] = Room(label, room_type, entry.floor, entry.area, tuple(objects[c] for c in sorted(objects)))

    issues += _check_floors(parsed, source)
    issues += _check_trajectory(parsed.trajectory, labels, source)
    relations, relation_issues = _normalize_relations(parsed.relations, rooms, source)
    issues += relation_issues
    if issues:
        raise SpecError(issues)
    return Scenario(parsed.name, parsed.typology, parsed.seed, rooms, tuple(parsed.trajectory), relations, source)


def _check_floors(parsed: ScenarioFile, source: str) -> list[SpecIssue]:
    floors = sorted({room.floor for room in parsed.rooms.values()})
    issues = []
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
    unique_opposite = tuple(sorted(set(opposite), key=lambda g: (g.side_a, g.side_b)))
    relations = Relations(tuple(sorted(adjacent)), unique_opposite, tuple(sorted(vertical)))
    return relations, issues
