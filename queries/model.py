"""Read-only views of scene.json, trajectory.json and visibility.json for the query engine.

The files are read and validated with their file models (formats.scene, formats.trajectory,
formats.visibility: version tag checked, nothing defaulted); these frozen dataclasses keep
only what the engine and the checker use, in the shapes they compute with.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from formats.base import dump_model, load_model, read_model
from formats.scene import Scene as SceneFile
from formats.trajectory import Trajectory as TrajectoryFile
from formats.visibility import Visibility as VisibilityFile

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
    height: float = 2.1


@dataclass(frozen=True)
class Wall:
    a: Point
    b: Point
    floor: int


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
    color: str = ""   # colour name of the main part ("" for a door the engine adds)

    @property
    def xy(self) -> Point:
        return (self.position[0], self.position[1])


def supports_under(obj: SceneObject, by_id: dict[str, SceneObject]) -> list[SceneObject]:
    """What `obj` rests on, followed down (a book, its shelf's bookshelf...), nearest first;
    empty for a thing on the floor, a wall or the ceiling."""
    under, seen = [], {obj.id}
    while obj.support in by_id and obj.support not in seen:
        obj = by_id[obj.support]
        under.append(obj)
        seen.add(obj.id)
    return under


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
    walls: tuple[Wall, ...] = ()  # wall centre lines; doorways are gaps in them (doors)
    elevations: tuple[float, ...] = ()  # floor -> its elevation in metres

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
    pitch: float = 0.0


@dataclass(frozen=True)
class Trajectory:
    fps: float
    frames: tuple[Frame, ...]
    events: tuple[dict, ...]
    fov_deg: tuple[float, float] = (70.0, 55.4)  # the camera's horizontal and vertical field of view
    insertions: tuple[tuple[int, int], ...] = ()  # [first, end) glances and side trips the coverage loop put in


@dataclass(frozen=True)
class Track:
    """Frames in which one object or room was visible and its pixel count in each."""

    frames: tuple[int, ...]
    pixels: tuple[int, ...]
    first_glimpse: int | None = None   # the first frame it shows at all (formats.visibility.Track); None: unknown


@dataclass(frozen=True)
class Visibility:
    fps: float
    min_pixels: int
    width: int
    height: int
    objects: dict[str, Track]
    rooms: dict[str, Track] | None  # None: no room visibility known (never from a file: visibility.json has rooms)


@dataclass(frozen=True)
class Scenario:
    scene: Scene
    trajectory: Trajectory
    visibility: Visibility


def _scene_model(data: dict | SceneFile, source: str) -> SceneFile:
    return data if isinstance(data, SceneFile) else load_model(data, SceneFile, source)


def parse_scene(data: dict | SceneFile, source: str = "scene.json") -> Scene:
    """The engine's view of a scene.json (FormatError naming `source` when it is not one)."""
    m = _scene_model(data, source)
    rooms = tuple(Room(r.label, r.type, r.floor, _poly(r.polygon)) for r in m.rooms)
    spaces = tuple(Space(f"hallway:{h.id}", h.floor, _poly(h.polygon)) for h in m.hallways)
    spaces += tuple(Space(f"stairs:{s.id}", min(s.floors), _poly(s.polygon)) for s in m.stairs)
    doors = tuple(Door(d.id, (d.rooms[0], d.rooms[1]), d.floor, _pt(d.position), d.width, d.wall_axis, d.height)
                  for d in m.doors)
    objects = tuple(SceneObject(o.id, o.category, o.room, o.floor, tuple(o.position), o.yaw, tuple(o.size),
                                _poly(o.footprint), o.support, o.attributes.color)
                    for o in m.objects)
    relations = {kind: [tuple(p) for p in getattr(m.relations, kind)] for kind in ("adjacent", "opposite", "vertical")}
    walls = tuple(Wall(_pt(w.a), _pt(w.b), w.floor) for w in m.walls)
    levels = {f.floor: f.elevation for f in m.floors}
    elevations = tuple(levels.get(k, 0.0) for k in range(max(levels, default=-1) + 1))
    return Scene(m.name, m.seed, rooms, spaces, doors, objects, relations, _pt(m.start.position), _pt(m.start.heading),
                 walls, elevations)


def parse_trajectory(data: dict | TrajectoryFile, source: str = "trajectory.json") -> Trajectory:
    m = data if isinstance(data, TrajectoryFile) else load_model(data, TrajectoryFile, source)
    frames = tuple(Frame(f.frame, f.t, tuple(f.position), f.yaw, f.room, f.floor, f.pitch) for f in m.frames)
    return Trajectory(float(m.fps), frames, tuple(dump_model(e) for e in m.events),
                      (m.camera.hfov_deg, m.camera.vfov_deg), tuple(tuple(r) for r in m.insertions))


def _tracks(entries: dict) -> dict[str, Track]:
    return {key: Track(tuple(e.frames), tuple(e.pixels), e.first_glimpse) for key, e in entries.items()}


def parse_visibility(data: dict | VisibilityFile, source: str = "visibility.json") -> Visibility:
    m = data if isinstance(data, VisibilityFile) else load_model(data, VisibilityFile, source)
    return Visibility(float(m.fps), m.min_pixels, m.width, m.height, _tracks(m.objects), _tracks(m.rooms))


def load_scenario(out_dir: Path) -> Scenario:
    """Read the three files of one scenario output folder (FormatError naming the file that is
    not in the format this version reads)."""
    out_dir = Path(out_dir)
    return Scenario(parse_scene(read_model(out_dir / "scene.json", SceneFile)),
                    parse_trajectory(read_model(out_dir / "trajectory.json", TrajectoryFile)),
                    parse_visibility(read_model(out_dir / "visibility.json", VisibilityFile)))
