"""What the video shows (rule 2, docs/ground-truth.md "Seen") and rejection bookkeeping.

An object (or room) is seen where it covers at least 0.1% of the frame (Thresholds.pixels) in
a run of at least 0.5 s of consecutive frames (Thresholds.min_frames); its first appearance is
the start of its first such run, and only frames inside such runs are evidence. Rooms use
visibility.json "rooms" (floor/walls visible); without it, the frames the camera stands in the
room.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import groupby
from typing import Callable

from queries.model import Scenario, Track
from queries.params import Thresholds
from assets.shells import numbered, room_signs
from assets.vocabulary import named_broadside, named_from_front
from queries.shown import exposed_part, first_whole_run, sees_broadside, sees_front


def seen_runs(frames, pixels, min_pixels: int, min_frames: int) -> list[list[int]]:
    """The runs (lists of consecutive frame numbers) of >= min_frames frames with >= min_pixels."""
    good = [f for f, p in zip(frames, pixels) if p >= min_pixels]
    runs = [[f for _, f in g] for _, g in groupby(enumerate(good), key=lambda kf: kf[1] - kf[0])]
    return [r for r in runs if len(r) >= min_frames]


class Seen:
    def __init__(self, scenario: Scenario, th: Thresholds):
        vis = scenario.visibility
        self.min_pixels = th.pixels(vis.min_pixels, vis.width, vis.height)
        self.min_frames = th.min_frames
        self.covisible_min_pixels = th.covisible_min_pixels
        self.fps = scenario.trajectory.fps or vis.fps
        self._frames = {f.frame: f for f in scenario.trajectory.frames}
        self._by_id = by_id = {o.id: o for o in scenario.scene.objects}
        self._objects = {oid: self._good(self._named_views(by_id.get(oid), t)) for oid, t in vis.objects.items()}
        self._vis, self._fov, self._whole = vis, scenario.trajectory.fov_deg[0], {}
        # files written before first_glimpse (and tracks built here, queries/possible.py) have
        # none: their first listed frame
        self._glimpse = {oid: t.first_glimpse if t.first_glimpse is not None else (t.frames[0] if t.frames else None)
                         for oid, t in vis.objects.items()}
        self._room_tracks = vis.rooms
        self._scene, self._told = scenario.scene, {}
        self._misnumbered = misnumbered(scenario)
        if vis.rooms is not None:
            self._rooms = {label: self._good(t) for label, t in vis.rooms.items()}
        else:
            inside: dict[str, list[int]] = defaultdict(list)
            for f in scenario.trajectory.frames:
                if f.room is not None:
                    inside[f.room].append(f.frame)
            self._rooms = {label: self._good(Track(tuple(frames), (self.min_pixels,) * len(frames)))
                           for label, frames in inside.items()}

    def _named_views(self, obj, track: Track) -> Track:
        """The frames a viewer can name the object in: for a thing named only from the front
        (assets.vocabulary.FRONT_ONLY), those with the camera in front of it; for one named from
        its long side (NAMED_BROADSIDE), those with the camera before or behind it."""
        if obj is None:
            return track
        if named_from_front(obj.category):
            sees = sees_front
        elif named_broadside(obj.category):
            sees = sees_broadside
        else:
            return track
        keep = [(f, p) for f, p in zip(track.frames, track.pixels) if f in self._frames and sees(obj, self._frames[f])]
        return Track(tuple(f for f, _ in keep), tuple(p for _, p in keep))

    def _good(self, track: Track) -> tuple[list[int], list[int]]:
        """(frames inside seen runs, the same frames sorted by pixels, most first)."""
        px = dict(zip(track.frames, track.pixels))
        frames = [f for run in seen_runs(track.frames, track.pixels, self.min_pixels, self.min_frames)
                  for f in run]
        best = sorted(frames, key=lambda f: (-px[f], f))
        return frames, best

    def first_whole(self, obj) -> int | None:
        """Start of the first 0.5 s in which the object shows enough of itself to be counted
        (queries/shown.py); None if it never does."""
        if obj.id not in self._whole:
            t = self._vis.objects.get(obj.id)
            self._whole[obj.id] = None if t is None else first_whole_run(
                obj, self.object_frames(obj.id), dict(zip(t.frames, t.pixels)), self._frames,
                self._fov, self._vis.width, self._vis.height, self.min_frames,
                exposed_part(obj, self._by_id.values()))
        return self._whole[obj.id]

    def shown_whole(self, obj) -> bool:
        """Seen, and for 0.5 s showing enough of itself to be counted."""
        return self.first_whole(obj) is not None

    def add_thing(self, oid: str, frames: list[int]) -> None:
        """Something seen that visibility.json does not list (a room's door, queries/door_things.py)."""
        self._objects[oid] = (list(frames), list(frames))
        self._glimpse[oid] = frames[0] if frames else None

    def object_frames(self, oid: str) -> list[int]:
        """The frames inside the object's seen runs (its first appearance is the first)."""
        return self._objects.get(oid, ([], []))[0]

    def seen_together(self, a: str, b: str) -> bool:
        """Are both seen (inside their seen runs) in at least min_frames of the same frames?"""
        return len(set(self.object_frames(a)) & set(self.object_frames(b))) >= self.min_frames

    def object_seen(self, oid: str) -> bool:
        """Seen clearly enough to be named, counted or relied on: seen, and for 0.5 s showing
        enough of itself to be counted (a chair seen only as a sliver behind another is not
        "the black chair"; docs/ground-truth.md "Seen"). A room's door is its opening: seen. A
        thing hanging from the ceiling (a pendant bulb) is seen: nothing stands before it, and its
        box is mostly cord, so its glass, seen whole, is 13-25% of the box's outline."""
        if not self.object_frames(oid):
            return False
        obj = self._by_id.get(oid)   # None: a room's door (add_thing), not a scene object
        return obj is None or obj.support == "ceiling" or self.shown_whole(obj)

    def named_frames(self, oid: str) -> list[int]:
        """object_frames of an object seen clearly enough to be named, else none."""
        return self.object_frames(oid) if self.object_seen(oid) else []

    def room_frames(self, label: str) -> list[int]:
        return self._rooms.get(label, ([], []))[0]

    def room_seen(self, label: str) -> bool:
        return bool(self.room_frames(label))

    def room_told(self, label: str) -> bool:
        """Can a viewer tell which room the label means (docs/ground-truth.md "Rooms a viewer can
        tell")? Something that says the room's kind (assets.shells.room_signs) is seen clearly in
        it, and a numbered label ("bedroom 2") follows the order the walk enters its namesakes."""
        if label not in self._told:
            room = next((r for r in self._scene.rooms if r.label == label), None)
            signs = room_signs(room.type) if room is not None else ()
            self._told[label] = label not in self._misnumbered and any(
                self.object_seen(o.id) for o in self._scene.objects
                if o.room == label and (signs is None or o.category in signs))
        return self._told[label]

    def room_named(self, label: str) -> bool:
        """Seen, and a question may name it by its label."""
        return self.room_seen(label) and self.room_told(label)

    def first_frame(self, oid: str) -> int | None:
        """First appearance: the start of the first seen run."""
        frames = self.object_frames(oid)
        return frames[0] if frames else None

    def first_glimpse(self, oid: str) -> int | None:
        """The first frame the object shows at all, square or not (visibility.json first_glimpse)."""
        return self._glimpse.get(oid)

    def object_evidence(self, oid: str) -> list[int]:
        """First seen frame and best-view frame: enough for a person to check the object."""
        frames, best = self._objects.get(oid, ([], []))
        return sorted({frames[0], best[0]}) if frames else []

    def room_evidence(self, label: str) -> list[int]:
        """First seen frame and the frame that shows the room best: the most of its furniture
        (its things in view, each weighed by its largest face: a bed says "bedroom" more than a
        cup), then the most of the room. The room's floor and walls alone would pick a bare wall
        filling the frame."""
        frames, best = self._rooms.get(label, ([], []))
        if not frames:
            return []
        inside, things = set(frames), Counter()
        for oid, obj in self._by_id.items():
            track = self._vis.objects.get(oid)
            if obj.room == label and track is not None:
                w, d, h = obj.size
                face = max(w * d, w * h, d * h)
                for f, p in zip(track.frames, track.pixels):
                    if f in inside and p >= self.min_pixels:
                        things[f] += face
        rank = {f: k for k, f in enumerate(best)}
        return sorted({frames[0], min(frames, key=lambda f: (-round(things[f], 6), rank[f]))})

    def rooms_covisible(self, a: str, b: str) -> bool | None:
        """Do rooms a and b appear in one frame? None when the file cannot tell (no "rooms")."""
        if self._room_tracks is None:
            return None
        def frames(label):
            t = self._room_tracks.get(label)
            return {f for f, p in zip(t.frames, t.pixels) if p >= self.covisible_min_pixels} if t else set()
        return bool(frames(a) & frames(b))


def misnumbered(scenario: Scenario) -> set[str]:
    """Labels numbered against the walk: of rooms named alike ("bedroom 1", "bedroom 2"), a viewer
    takes the numbers to follow the order the video first stands in them (as the paper's do)."""
    entered: dict[str, int] = {}
    for f in scenario.trajectory.frames:
        if f.room is not None:
            entered.setdefault(f.room, f.frame)
    alike: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for room in scenario.scene.rooms:
        if said := numbered(room.label):
            alike[said[0]].append((entered.get(room.label, len(scenario.trajectory.frames)), said[1], room.label))
    out: set[str] = set()
    for group in alike.values():
        numbers = [n for _, n, _ in sorted(group)]
        if len(group) > 1 and numbers != sorted(set(numbers)):
            out |= {label for _, _, label in group}
    return out


@dataclass
class Rejections:
    """Why candidates were refused: task -> "rule<n>: reason" -> count."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    # called at each refused candidate: the queries stage's time budget is checked here (it may raise)
    between_candidates: Callable[[], None] = lambda: None

    def add(self, task: str, rule: int, reason: str) -> None:
        self.between_candidates()
        self.counts[task][f"rule{rule}: {reason}"] += 1

    def per_rule(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for task, reasons in sorted(self.counts.items()):
            by_rule: Counter = Counter()
            for key, n in reasons.items():
                by_rule[key.split(":", 1)[0]] += n
            out[task] = dict(sorted(by_rule.items()))
        return out

    def reasons(self) -> dict[str, dict[str, int]]:
        return {task: dict(sorted(r.items())) for task, r in sorted(self.counts.items())}
