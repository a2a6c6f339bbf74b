"""scene.json: the realized scene (layout stage, then objects from placement).

Written by the layout stage (generator.layout.plan.plan_to_scene; `versions` added by the
pipeline) and completed by placement (generator.placement.place: `objects`,
`object_relations`). Coordinates are metres in the world frame (+x east, +y north, +z up);
angles are degrees.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Union

from pydantic import ConfigDict, Field, JsonValue

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel

Point = Annotated[tuple[float, float], Field(description="[x, y] in metres, world frame.")]
Polygon = Annotated[list[Point], Field(min_length=3, description="Vertices [x, y] in metres, counter-clockwise, "
                                                                 "first vertex not repeated.")]
AxisVector = Annotated[tuple[int, int], Field(description="An axis-aligned unit vector [dx, dy] in the world frame.")]
RoomPair = Annotated[tuple[str, str], Field(description="Two room labels, sorted.")]
Typology = Literal["single-story residence", "multi-story residence", "office"]


class Floor(StrictModel):
    floor: int = Field(ge=0, description="Floor number, 0 = ground floor.")
    elevation: float = Field(description="z of the floor surface in metres (floor * 3.0).")
    height: float = Field(gt=0, description="Clear ceiling height above the floor surface in metres.")


class Room(StrictModel):
    label: str = Field(description="The room's label in the scenario (unique), e.g. `living room`.")
    type: str = Field(description="Room type, e.g. `bedroom` for `bedroom 2`.")
    floor: int = Field(ge=0, description="Floor number.")
    area: float = Field(gt=0, description="Floor area in square metres, rounded to 0.01.")
    polygon: Polygon


class Hallway(StrictModel):
    id: str = Field(description="Hallway piece id, `f<floor>-hall<n>`; doors name it `hallway:<id>`.")
    floor: int = Field(ge=0, description="Floor number.")
    polygon: Polygon


class Stairs(StrictModel):
    id: str = Field(description="`stairs-<lower>-<upper>`; doors name it `stairs:<id>`.")
    floors: tuple[int, int] = Field(description="[lower, upper]: the two consecutive floors the flight joins.")
    polygon: Polygon = Field(description="The stairwell footprint (the same on every floor it serves), counter-clockwise.")
    bottom: Point = Field(description="Where the stairwell opens onto the lower floor's hallway (middle of the shared wall).")
    top: Point = Field(description="Where it opens onto the upper floor's hallway.")
    width: float = Field(gt=0, description="Flight width in metres.")


class Door(StrictModel):
    id: str = Field(description="`door-<n>`.")
    rooms: tuple[str, str] = Field(description="The two sides: room labels, `hallway:<id>`, `stairs:<id>` or `outside`.")
    floor: int = Field(ge=0, description="Floor number.")
    position: Point = Field(description="Centre of the doorway on the wall line, metres.")
    width: float = Field(gt=0, description="Clear opening width in metres.")
    height: float = Field(gt=0, description="Opening height above the floor in metres.")
    wall_axis: Literal["x", "y"] = Field(description="Direction the wall runs in: `x` an east-west wall, `y` a north-south wall.")


class Window(StrictModel):
    id: str = Field(description="`window-<n>`; the window object filling it names it in `attributes.opening`.")
    room: str = Field(description="Label of the room the window belongs to.")
    floor: int = Field(ge=0, description="Floor number.")
    position: Point = Field(description="Centre of the opening on the exterior wall line, metres.")
    width: float = Field(gt=0, description="Opening width in metres.")
    sill: float = Field(ge=0, description="Sill height above the floor in metres.")
    height: float = Field(gt=0, description="Opening height (sill to head) in metres.")
    normal: AxisVector = Field(description="Unit vector pointing out of the building.")


class Wall(StrictModel):
    floor: int = Field(ge=0, description="Floor number.")
    a: Point = Field(description="One end of the wall's centre line.")
    b: Point = Field(description="The other end.")
    exterior: bool = Field(description="True on the building's outline; false between two spaces.")


class Relations(StrictModel):
    """Relations recomputed from the finished geometry (a superset of what the spec asks for)."""

    adjacent: list[RoomPair] = Field(description="Rooms sharing a wall with a doorway in it.")
    opposite: list[RoomPair] = Field(description="Rooms facing each other across one hallway.")
    vertical: list[RoomPair] = Field(description="Rooms on consecutive floors whose footprints overlap by at least half "
                                                 "of the smaller one.")


class Start(StrictModel):
    position: Point = Field(description="The camera's first position (and the grid's origin).")
    heading: AxisVector = Field(description="The first viewing direction (the grid's +y), [0, 1] = north.")
    floor: int = Field(ge=0, description="Floor of the start pose.")


class Versions(StrictModel):
    egoscene: str = Field(description="Version of the egoscene package that wrote the scene.")


class ObjectAttributes(StrictModel):
    """What the renderer needs to rebuild the object's mesh, plus any free-form attribute of
    the spec (e.g. `style`), kept as given."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue]

    color: str = Field(description="Colour name of the main part (the spec's, else drawn).")
    material: str = Field(description="Material of the main part (the spec's, else the category's).")
    model_seed: int = Field(description="Seed of the procedural mesh: build_model(category, "
                                        "numpy.random.default_rng(model_seed), size=size, color=color, ...).")
    wall_mounted: bool | None = Field(None, description="Present (true) for a tv hung on a wall without a stand.")
    open_angle: float | None = Field(None, description="Present for door objects: the leaf stands open at this many degrees.")
    opening: str | None = Field(None, description="Present for window and door objects: the id of the opening it fills.")
    artwork: str | None = Field(None, description="Present for pictures that share a room: the print it shows "
                                                  "(landscape, sea, abstract or flowers), each another up to four.")


class SceneObject(StrictModel):
    id: str = Field(description="`<room-slug>/<category>/<n>`, n from 1, e.g. `living-room/sofa/2`.")
    category: str = Field(description="Object category of the asset library, e.g. `sofa`.")
    room: str = Field(description="Label of the room it stands in.")
    floor: int = Field(ge=0, description="Floor number.")
    position: tuple[float, float, float] = Field(description="Centre of its footprint at its base [x, y, z] in metres "
                                                             "(z = bottom of the object, absolute).")
    yaw: float = Field(ge=0.0, le=360.0, description="Direction its front faces, degrees counter-clockwise from +x, in [0, 360).")
    size: tuple[float, float, float] = Field(description="[width, depth, height] in metres (width across its front).")
    footprint: Polygon = Field(description="Its oriented footprint [x, y] in metres, counter-clockwise.")
    support: str = Field(description="What holds it: `floor`, `wall`, `ceiling`, `window`, or the id of the object it rests on.")
    attributes: ObjectAttributes


class OnRelation(StrictModel):
    relation: Literal["on"] = Field(description="`subject` rests on `object` (its support).")
    subject: str = Field(description="Object id.")
    object: str = Field(description="Object id.")


class NextToRelation(StrictModel):
    relation: Literal["next_to"] = Field(description="Boxes within 0.5 m of each other in 3-D, same room; subject < object by id.")
    subject: str = Field(description="Object id.")
    object: str = Field(description="Object id.")
    distance: float = Field(ge=0, description="3-D distance between the two boxes in metres.")


class FacingRelation(StrictModel):
    relation: Literal["facing"] = Field(description="The subject's front points at the object (e.g. sofa -> tv).")
    subject: str = Field(description="Object id.")
    object: str = Field(description="Object id.")


ObjectRelation = Annotated[Union[OnRelation, NextToRelation, FacingRelation], Field(discriminator="relation")]


class Scene(FileModel):
    """The realized scene: floor plan, openings, objects and the relations that hold."""

    FORMAT: ClassVar[str] = "egoscene.scene/1"
    FILENAME: ClassVar[str] = "scene.json"

    format: Literal["egoscene.scene/1"] = Field(description=TAG_DESCRIPTION)
    name: str = Field(description="Scenario name (the output folder's name).")
    typology: Typology = Field(description="Building typology of the scenario.")
    seed: int = Field(description="The scenario's seed; every stage derives its own random generator from it.")
    versions: Versions
    floors: list[Floor] = Field(min_length=1, description="One entry per floor, ascending.")
    rooms: list[Room] = Field(min_length=1, description="Rooms, sorted by label.")
    hallways: list[Hallway] = Field(description="Hallway pieces (corridors), sorted by id.")
    stairs: list[Stairs] = Field(description="One flight per pair of consecutive floors (empty for one floor).")
    doors: list[Door] = Field(description="Doorways between spaces and to the outside (the entrance).")
    windows: list[Window] = Field(description="Window openings; only where the spec lists window objects.")
    walls: list[Wall] = Field(description="Every wall segment between two different spaces or a space and the outside; "
                                          "openings are cut from them using doors and windows.")
    relations: Relations
    start: Start
    objects: list[SceneObject] = Field(description="Placed objects, sorted by room, category and number "
                                                   "(empty before placement).")
    object_relations: list[ObjectRelation] | None = Field(
        None, description="Relations between placed objects (on, next_to, facing); absent before placement.")
