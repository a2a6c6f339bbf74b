"""Typed, read-only views of scene.json, trajectory.json and visibility.json (docs/formats.md).

Only the fields the query engine uses are kept; unknown keys are ignored so that later format
additions do not break loading.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float]


def _pt(xy) -> Point:
    return (float(xy[0]), float(xy[1]))


def _poly(points) -> tuple[Point, ...]:
    return tuple(_pt(p) for p in points)


@dataclass(frozen=True)
class Room:
    label: str
    type: str
    floor: int
    polygon: tuple[Point, ...]


@dataclass(frozen=True)
class Space:
    """A hallway or a staircase: walkable, never named in questions."""

    node: str  # "hallway:<id>" / "stairs:<id>", as written in doors[].rooms
    floor: int
    polygon: tuple[Point, ...]


@dataclass(frozen=True)
class Door:
    id: str
    rooms: tuple[str, str]
    floor: int
    position: Point
    width: float
    wall_axis: str


@dataclass(frozen=True)
class SceneObject:
    id: str
    category: str
    room: str
    floor: int
    position: tuple[float, float, float]
    yaw: float
    size: tuple[float, float, float]
    footprint: tuple[Point, ...]
    support: str

    @property
    def xy(self) -> Point:
        return (self.position[0], self.position[1])


@dataclass(frozen=True)
class Scene:
    name: str
    seed: int
    rooms: tuple[Room, ...]
    spaces: tuple[Space, ...]
    doors: tuple[Door, ...]
    objects: tuple[SceneObject, ...]
    relations: dict  # kind -> list of sorted [a, b] pairs
    start_position: Point
    start_heading: Point

    def room(self, label: str) -> Room:
        return next(r for r in self.rooms if r.label == label)

    def objects_in(self, label: str) -> list[SceneObject]:
        return [o for o in self.objects if o.room == label]


@dataclass(frozen=True)
class Frame:
    frame: int
    t: float
    position: tuple[float, float, float]
    yaw: float
    room: str | None
    floor: int


@dataclass(frozen=True)
class Trajectory:
    fps: float
    frames: tuple[Frame, ...]
    events: tuple[dict, ...]


@dataclass(frozen=True)
class Track:
    """Frames in which one object or room was visible and its pixel count in each."""

    frames: tuple[int, ...]
    pixels: tuple[int, ...]


@dataclass(frozen=True)
class Visibility:
    fps: float
    min_pixels: int
    objects: dict[str, Track]
    rooms: dict[str, Track] | None  # None when the file has no "rooms" entry


@dataclass(frozen=True)
class Scenario:
    scene: Scene
    trajectory: Trajectory
    visibility: Visibility


def parse_scene(data: dict) -> Scene:
    rooms = tuple(Room(r["label"], r.get("type") or r["label"], int(r.get("floor", 0)),
                       _poly(r["polygon"])) for r in data["rooms"])
    spaces = tuple(Space(f"hallway:{h['id']}", int(h.get("floor", 0)), _poly(h["polygon"]))
                   for h in data.get("hallways", []))
    spaces += tuple(Space(f"stairs:{s['id']}", int(min(s.get("floors", [0]))), _poly(s["polygon"]))
                    for s in data.get("stairs", []))
    doors = tuple(Door(d["id"], (d["rooms"][0], d["rooms"][1]), int(d.get("floor", 0)),
                       _pt(d["position"]), float(d.get("width", 0.9)), d.get("wall_axis", "x"))
                  for d in data.get("doors", []))
    objects = tuple(
        SceneObject(o["id"], o["category"], o["room"], int(o.get("floor", 0)),
                    tuple(float(v) for v in o["position"]), float(o.get("yaw", 0.0)),
                    tuple(float(v) for v in o.get("size", (0, 0, 0))), _poly(o["footprint"]),
                    str(o.get("support", "floor")))
        for o in data.get("objects", []))
    start = data.get("start") or {}
    return Scene(data.get("name", ""), int(data.get("seed", 0)), rooms, spaces, doors, objects,
                 {k: [tuple(p) for p in v] for k, v in (data.get("relations") or {}).items()},
                 _pt(start.get("position", (0.0, 0.0))), _pt(start.get("heading", (0.0, 1.0))))


def parse_trajectory(data: dict) -> Trajectory:
    frames = tuple(Frame(int(f["frame"]), float(f["t"]), tuple(float(v) for v in f["position"]),
                         float(f.get("yaw", 90.0)), f.get("room"), int(f.get("floor", 0)))
                   for f in data["frames"])
    return Trajectory(float(data.get("fps", 30)), frames, tuple(data.get("events", [])))


def _tracks(entries: dict) -> dict[str, Track]:
    return {key: Track(tuple(int(f) for f in e.get("frames", [])),
                       tuple(int(p) for p in e.get("pixels", [])))
            for key, e in entries.items()}


def parse_visibility(data: dict) -> Visibility:
    rooms = data.get("rooms")
    return Visibility(float(data.get("fps", 30)), int(data.get("min_pixels", 50)),
                      _tracks(data.get("objects", {})), None if rooms is None else _tracks(rooms))


def load_scenario(out_dir: Path) -> Scenario:
    """Read the three files of one scenario output folder."""
    out_dir = Path(out_dir)
    read = lambda name: json.loads((out_dir / name).read_text())  # noqa: E731
    return Scenario(parse_scene(read("scene.json")), parse_trajectory(read("trajectory.json")),
                    parse_visibility(read("visibility.json")))
