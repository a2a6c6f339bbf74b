"""Everything a task generator needs about one scenario, computed once."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

from assets.vocabulary import BEDSIDE_ALIKE, DRAWN_ALIKE, countable, lookalikes, told_apart_by_colour
from queries.door_things import door_things
from queries.doors import DoorView
from queries.evidence import Rejections, Seen
from queries.geometry import at_bed_head
from queries.model import Scenario, Scene, SceneObject
from queries.naming import Name, object_names
from queries.ontology import Ontology
from queries.params import Thresholds


@dataclass
class Context:
    scenario: Scenario
    th: Thresholds
    ontology: Ontology
    rng: np.random.Generator | None = None   # the task's own: build_queries sets (seed, "queries/<task>")
    rej: Rejections = field(default_factory=Rejections)

    def __post_init__(self):
        self.scene: Scene = self.scenario.scene
        self.seen = Seen(self.scenario, self.th)
        self.fps = self.scenario.trajectory.fps
        per_room = Counter((o.room, o.category) for o in self.scene.objects)
        self.categories_in: dict[str, set[str]] = defaultdict(set)
        for o in self.scene.objects:
            self.categories_in[o.room].add(o.category)
        self.categories = {o.category for o in self.scene.objects}
        beds = [o for o in self.scene.objects if o.category == "bed"]
        self.bedside_rooms = {o.room for o in self.scene.objects if o.category == "cabinet"
                              and any(b.room == o.room and at_bed_head(o, b, self.th.bedside_m) for b in beds)}
        self._unique_in_room = {o.id for o in self.scene.objects if per_room[(o.room, o.category)] == 1
                                and not self.confusable(o.category, o.room)}
        # a room's doors a viewer can tell apart: named, faced, walked to, measured to, named
        # things by ("the desk by the door to the hallway"); never counted
        self.doors: dict[str, SceneObject] = {}
        door_names = {}
        self.door_view = DoorView(self.scene, self.scenario.trajectory)
        for oid, (thing, name, frames) in door_things(self.scene, self.door_view).items():
            self.doors[oid] = thing
            self.seen.add_thing(oid, frames)
            door_names[oid] = name
        self._names: dict[str, Name] = object_names(
            self.scene, self._unique_in_room, self.seen.named_frames, self.confusable,
            {oid: (self.doors[oid], name.rsplit(" in the ", 1)[0]) for oid, name in door_names.items()})
        self._names.update({oid: Name(name) for oid, name in door_names.items()})
        # a name that says a room no viewer can tell ("the sofa in the living room" of an empty
        # living room, "the door to the bedroom 2" entered first) names nothing for them
        untold = [r.label for r in self.scene.rooms if not self.seen.room_told(r.label)]
        if untold:
            says = re.compile(r" (?:in|to) the (?:%s)(?= in the |$)" % "|".join(map(re.escape, untold)))
            self._names = {oid: n for oid, n in self._names.items() if not says.search(n.text)}

    def confusable(self, category: str, room: str | None) -> bool:
        """Could a viewer take another category for this one: a look-alike in the room (None:
        anywhere in the building)?"""
        if category in DRAWN_ALIKE:  # door leaves hang in the doorways of every room
            return True
        if category in BEDSIDE_ALIKE and (self.bedside_rooms if room is None else room in self.bedside_rooms):
            return True   # a cabinet at a bed's head is a nightstand to a viewer
        near = self.categories if room is None else self.categories_in[room]
        return bool(lookalikes(category) & near)

    def countable(self, category: str) -> bool:
        return countable(category)

    def counted_apart(self, objs: list[SceneObject]) -> bool:
        """Can a viewer tell every two instances apart: any two of one room that look alike
        (one colour word, or none) and stand close (box centres within Thresholds.together_m)
        are seen together for 0.5 s. Person check of sample-42-000: two blue bowls 0.58 m apart
        on a kitchen table, either side of a microwave, never in one frame; a viewer counted
        one of them."""
        def centre(o):
            return np.array([o.position[0], o.position[1], o.position[2] + o.size[2] / 2])

        for n, a in enumerate(objs):
            for b in objs[n + 1:]:
                if (a.room == b.room and not told_apart_by_colour(a.category, a.color, b.color)
                        and np.linalg.norm(centre(a) - centre(b)) < self.th.together_m
                        and not self.seen.seen_together(a.id, b.id)):
                    return False
        return True

    def unique_in_room(self, obj: SceneObject) -> bool:
        return obj.id in self._unique_in_room

    def nameable(self, obj: SceneObject) -> bool:
        """Can a question name it so that exactly one object answers (docs "Names")?"""
        return obj.id in self._names

    def name(self, obj: SceneObject) -> str:
        return self._names[obj.id].text

    def neighbours(self, objs) -> set[str]:
        """Ids of the objects these names refer to ("the chair by the window": the window)."""
        return {n for o in objs if (n := self._names[o.id].neighbour)}

    def names_apart(self, target: SceneObject, objs) -> bool:
        """No name ties the target to another object of the question: "the chair by the window"
        as an option of "closest to the window" (or the window an option of "closest to the
        chair by the window") gives the answer away (relative distance)."""
        ids = {o.id for o in objs}
        return target.id not in self.neighbours(objs) and not self.neighbours([target]) & ids

    def shuffled(self, items: list) -> list:
        """A deterministic shuffle of a list (drawn from the scenario's query RNG)."""
        order = self.rng.permutation(len(items))
        return [items[i] for i in order]

    def room_order(self) -> list[str]:
        """Rooms in the order they were first entered: the room-entry events, or the frames'
        rooms when the file has no events."""
        traj = self.scenario.trajectory
        entered = [e["room"] for e in traj.events if e.get("type") == "enter_room" and e.get("room")]
        if not entered:
            entered = [f.room for f in traj.frames if f.room]
        order: list[str] = []
        for room in entered:
            if room not in order:
                order.append(room)
        return order
