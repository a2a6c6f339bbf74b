"""Read a finished scenario folder and write OUT/<scenario>/audit/: index.html and q<NNN>.png.

One page per question (an MCQ and its free-form twin share one): the question, its options
with the answer marked, its evidence frames tiled with every evidence object and room
outlined from the instance-ID pass, and the strip of the 32 frames a model is given
(formats.sampling, as lmms-eval samples them) marking those that show evidence - a frame
"carries evidence" where an evidence object or room is seen in it (docs/ground-truth.md
"Seen", the definition `evidence_in_sampled_frames` uses).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from formats import base, files
from formats.manifest import Manifest
from formats.queries import QueryRecord
from formats.sampling import FRAMES, sample_indices

REQUIRED = ("scene.json", "trajectory.json", "visibility.json", "video.mp4", "queries.jsonl", "manifest.json")
MAX_TILES = 12
MAX_BEST = 6      # extra views of evidence objects at their largest, per question
# Distinct colours (RGB) for the evidence of one question, in the order it lists them.
PALETTE = ((230, 25, 75), (60, 180, 75), (255, 225, 25), (0, 130, 200), (245, 130, 48), (145, 30, 180),
           (70, 240, 240), (240, 50, 230), (210, 245, 60), (250, 190, 212), (0, 128, 128), (220, 190, 255))

Stage = Callable[[str, int | None], None]        # (description, total) when a step starts
Advance = Callable[[int, int], None]             # (done, total) within it


class AuditError(ValueError):
    """A folder that is not a finished scenario (the message names what is missing and the fix)."""


class AuditBudgetError(RuntimeError):
    """The audit ran past its time budget: the id pass's Blender was stopped, nothing was written."""


def audit_budget_s(id_frames: int, video_frames: int, questions: int, width: int, height: int) -> float:
    """The audit's default budget: 120 s + 3 s per id frame rendered (the render stage's preview
    rate, scaled by width x height / 640x480, at least a quarter) + 0.1 s per video frame decoded
    + 3 s per question drawn; about 20x what they take on 2 idle cores."""
    return 120.0 + id_frames * 3.0 * max(0.25, width * height / (640 * 480)) + video_frames * 0.1 + questions * 3.0


@dataclass
class Item:
    """One object or room a question rests on."""

    kind: str             # "object" | "room"
    key: str              # object id or room label
    label: str            # what the outline says
    colour: tuple[int, int, int]
    clear: set[int]       # frames in which it is seen
    largest: int | None = None   # the seen frame where it covers most pixels


@dataclass
class Question:
    number: int                       # 1, 2, ... in queries.jsonl order
    record: dict
    twin: dict | None                 # the free-form twin of an MCQ
    items: list[Item]
    tiles: list[int]                  # evidence frames shown
    strip: list[int] = field(default_factory=list)   # the 32 sampled frames
    best: list[tuple[int, "Item"]] = field(default_factory=list)  # (frame, object) views where it is largest

    @property
    def png(self) -> str:
        return f"q{self.number:03d}.png"

    def carriers(self, frame: int) -> list[Item]:
        return [it for it in self.items if frame in it.clear]


@dataclass
class Audit:
    folder: Path
    name: str
    fps: float
    total: int
    size: tuple[int, int]             # video width, height
    questions: list[Question]
    strip: list[int]


def load(folder: Path) -> Audit:
    """The questions of a finished scenario folder with their evidence (AuditError when it is not one)."""
    from assets.vocabulary import display_name
    from queries.door_things import door_things
    from queries.doors import DoorView
    from queries.evidence import Seen
    from queries.model import load_scenario
    from queries.params import DEFAULT

    folder = Path(folder)
    if not folder.is_dir():
        raise AuditError(f"{folder}: not a folder (fix: pass a finished scenario folder, e.g. outputs/scenario-01)")
    missing = [name for name in REQUIRED if not (folder / name).is_file()]
    if missing:
        raise AuditError(f"{folder}: missing {', '.join(missing)}: not a finished scenario folder "
                         "(fix: `egoscene generate SPEC --out DIR` through the queries stage)")
    try:
        manifest = base.read_model(folder / "manifest.json", Manifest)
        records = [base.dump_model(r) for r in base.read_records(folder / "queries.jsonl", QueryRecord)]
        scenario = load_scenario(folder)
    except base.FormatError as exc:
        raise AuditError(str(exc)) from exc
    if not records:
        raise AuditError(f"{folder / 'queries.jsonl'}: no questions (fix: regenerate the scenario)")
    seen = Seen(scenario, DEFAULT)
    categories = {o.id: o.category for o in scenario.scene.objects}
    colours = {o.id: o.color for o in scenario.scene.objects}
    # a room's doors that questions name are no scene objects: their frames come from the doorway rule
    for oid, (thing, _name, frames) in door_things(scenario.scene, DoorView(scenario.scene, scenario.trajectory)).items():
        seen.add_thing(oid, frames)
        categories[oid] = thing.category
    total = len(scenario.trajectory.frames)
    strip = sample_indices(total, FRAMES)
    twins = {r["id"]: r for r in records if r["format"] == "free_form"}
    mcqs = {r["id"] for r in records if r["format"] == "mcq"}
    questions = []
    for r in records:
        if r["format"] == "free_form" and r["id"].removesuffix("-ff") in mcqs:
            continue                      # shown with its MCQ
        ev = r["evidence"]
        per_cat: dict[str, int] = {}
        for oid in ev["objects"]:
            per_cat[categories.get(oid, oid)] = per_cat.get(categories.get(oid, oid), 0) + 1
        items, numbered = [], {}
        for oid in ev["objects"]:   # several of a category in one question: numbered 1, 2, ... in id order
            cat = categories.get(oid, oid)   # and with scene.json's colour, to check names by colour
            numbered[cat] = numbered.get(cat, 0) + 1
            label = display_name(cat)
            if per_cat[cat] > 1:
                label += f" {numbered[cat]}" + (f" ({colours[oid]})" if colours.get(oid) else "")
            clear = set(seen.object_frames(oid))
            track = scenario.visibility.objects.get(oid)
            pixels = dict(zip(track.frames, track.pixels)) if track else {}
            largest = max(sorted(clear), key=lambda f: pixels.get(f, 0)) if clear else None
            items.append(Item("object", oid, label, PALETTE[len(items) % len(PALETTE)], clear, largest))
        for room in ev["rooms"]:
            items.append(Item("room", room, room, PALETTE[len(items) % len(PALETTE)], set(seen.room_frames(room))))
        frames = list(ev["frames"])
        if len(frames) > MAX_TILES:
            frames = [frames[int(i)] for i in np.linspace(0, len(frames) - 1, MAX_TILES)]
        # where an evidence frame is only a first glimpse, a view of the object at its largest too
        best = [(it.largest, it) for it in items if it.largest is not None and it.largest not in frames][:MAX_BEST]
        questions.append(Question(len(questions) + 1, r, twins.get(r["id"] + "-ff"), items, frames, strip, best))
    vis = scenario.visibility
    return Audit(folder, manifest.name, scenario.trajectory.fps or vis.fps, total, (vis.width, vis.height),
                 questions, strip)


def audit(folder: Path | Audit, *, on_stage: Stage = lambda d, t: None, on_advance: Advance = lambda d, t: None,
          budget_s: float | None = None) -> Path:
    """Write `folder`/audit/ (index.html, q<NNN>.png) through a staging folder renamed into place
    (`folder`: a scenario folder, or what `load` read from one); returns the path of index.html.
    Within `budget_s` wall seconds (None: audit_budget_s()), checked while decoding, given to the
    id pass's Blender as its limit, and checked before each question drawn: past it,
    AuditBudgetError, Blender stopped and the staging folder removed (an earlier audit/ stays)."""
    from egoscene.audit import draw, page
    from egoscene.audit.frames import decode_frames, render_id_frames
    from render.api import RenderBudgetError

    a = folder if isinstance(folder, Audit) else load(folder)
    tiles = {f for q in a.questions for f in q.tiles} | {f for q in a.questions for f, _ in q.best}
    wanted = tiles | set(a.strip)
    budget = budget_s or audit_budget_s(len(tiles), max(wanted, default=-1) + 1, len(a.questions), *a.size)
    ends = time.monotonic() + budget

    def stopped(where: str) -> AuditBudgetError:
        return AuditBudgetError(f"{a.folder}: audit stopped at its budget of {budget:g} s ({where}); nothing was "
                                "written (fix: --audit-budget with more seconds)")

    def left(where: str) -> float:
        """Seconds of the budget left; AuditBudgetError saying `where` the audit was when none are."""
        remaining = ends - time.monotonic()
        if remaining <= 0:
            raise stopped(where)
        return remaining

    def decoding(done: int, total: int) -> None:
        on_advance(done, total)
        left(f"decoding the video, frame {done}/{total}")

    final = a.folder / "audit"
    with files.output_lock(final), files.staged_folder(final) as staging:
        on_stage("decode video", None)
        colour = decode_frames(a.folder / "video.mp4", wanted, decoding)
        on_stage("render id pass", len(tiles))
        work = staging / ".ids"
        try:
            ids = render_id_frames(a.folder, tiles, work, on_advance, budget_s=left("before the id pass"))
        except RenderBudgetError as exc:
            at = f"after {exc.progress[0]}/{exc.progress[1]} frames" if exc.progress else "before its first frame"
            raise stopped(f"Blender stopped in the id pass {at}") from None
        shutil.rmtree(work, ignore_errors=True)
        thumbs = draw.thumbnails(colour, a.strip)
        on_stage("draw questions", len(a.questions))
        for k, q in enumerate(a.questions):
            left(f"drawing question {k + 1}/{len(a.questions)}")
            draw.question_png(a, q, colour, ids, thumbs).save(staging / q.png, format="PNG", optimize=False)
            on_advance(k + 1, len(a.questions))
        files.write_text(staging / "index.html", page.html(a))
    return final / "index.html"
