"""What the video shows (rule 2) and rejection bookkeeping.

An object counts as seen when it has >= min_pixels pixels in >= min_frames frames. Rooms use
visibility.json "rooms" (floor/walls visible); without it, the frames the camera stands in the
room.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from queries.model import Scenario, Track
from queries.params import Thresholds


class Seen:
    def __init__(self, scenario: Scenario, th: Thresholds):
        vis = scenario.visibility
        self.min_pixels = th.pixels(vis.min_pixels)
        self.min_frames = th.min_frames
        self.covisible_min_pixels = th.covisible_min_pixels
        self.fps = scenario.trajectory.fps or vis.fps
        self._objects = {oid: self._good(t) for oid, t in vis.objects.items()}
        self._room_tracks = vis.rooms
        if vis.rooms is not None:
            self._rooms = {label: self._good(t) for label, t in vis.rooms.items()}
        else:
            inside: dict[str, list[int]] = defaultdict(list)
            for f in scenario.trajectory.frames:
                if f.room is not None:
                    inside[f.room].append(f.frame)
            self._rooms = {label: (frames, frames) for label, frames in inside.items()}

    def _good(self, track: Track) -> tuple[list[int], list[int]]:
        """(frames with enough pixels, the same frames sorted by pixels, most first)."""
        good = [(f, p) for f, p in zip(track.frames, track.pixels) if p >= self.min_pixels]
        frames = sorted(f for f, _ in good)
        best = [f for f, _ in sorted(good, key=lambda fp: (-fp[1], fp[0]))]
        return frames, best

    def object_frames(self, oid: str) -> list[int]:
        return self._objects.get(oid, ([], []))[0]

    def object_seen(self, oid: str) -> bool:
        return len(self.object_frames(oid)) >= self.min_frames

    def room_frames(self, label: str) -> list[int]:
        return self._rooms.get(label, ([], []))[0]

    def room_seen(self, label: str) -> bool:
        return len(self.room_frames(label)) >= self.min_frames

    def first_frame(self, oid: str) -> int | None:
        frames = self.object_frames(oid)
        return frames[0] if frames else None

    def object_evidence(self, oid: str) -> list[int]:
        """First good frame and best-view frame: enough for a person to check the object."""
        frames, best = self._objects.get(oid, ([], []))
        return sorted({frames[0], best[0]}) if frames else []

    def room_evidence(self, label: str) -> list[int]:
        frames, best = self._rooms.get(label, ([], []))
        return sorted({frames[0], best[0]}) if frames else []

    def rooms_covisible(self, a: str, b: str) -> bool | None:
        """Do rooms a and b appear in one frame? None when the file cannot tell (no "rooms")."""
        if self._room_tracks is None:
            return None
        def frames(label):
            t = self._room_tracks.get(label)
            return {f for f, p in zip(t.frames, t.pixels) if p >= self.covisible_min_pixels} if t else set()
        return bool(frames(a) & frames(b))


@dataclass
class Rejections:
    """Why candidates were refused: task -> "rule<n>: reason" -> count."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    def add(self, task: str, rule: int, reason: str) -> None:
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
