"""Independent validator of queries.jsonl: `egoscene check OUTDIR`.

Recomputes every answer from scene.json, trajectory.json and visibility.json with its own
code and its own definitions (docs/ground-truth.md; queries/check_rules.py, check_facts.py,
check_layout.py, check_route.py, check_extractive.py, check_abstractive.py). It imports
nothing from the query generator (a test parses its imports): it reads the files through
their format models in formats/ and uses assets/ data (catalog affordances, plurals) only.
It reports disagreement, ambiguity (more than one true option, duplicate or unclear
options), ungrounded references (named object or room not seen), broken trajectory
constraints, missed margins, letter imbalance and malformed records.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from formats.base import FormatError, dump_model, read_records
from formats.queries import QueryRecord
from formats.sampling import in_sampled_frames
from queries import check_abstractive as abstractive
from queries import check_extractive as extractive
from queries.check_facts import Facts, Files, load_files
from queries.check_layout import LayoutCheck
from queries.check_route import route_plan
from queries.check_rules import DEFAULT, LETTERS, OPTION_COUNTS, TASKS, Rules

FIELDS = ("id", "scenario", "task", "category", "regime", "format", "question", "options",
          "answer", "answer_text", "evidence", "evidence_in_sampled_frames", "derivation", "video")

CHECKS = {
    "appearance_order": extractive.appearance_order, "relative_direction": extractive.relative_direction,
    "relative_distance": extractive.relative_distance, "route_plan": route_plan,
    "object_counting": extractive.object_counting, "memory_action": abstractive.memory_action,
    "map_direction": abstractive.map_direction, "map_scale": abstractive.map_scale,
    "simulation": abstractive.simulation, "global_counting": abstractive.global_counting,
}


@dataclass(frozen=True)
class Problem:
    id: str
    kind: str     # disagreement | ambiguity | ungrounded | margin | trajectory | imbalance | format
    message: str

    def __str__(self) -> str:
        return f"{self.id}: {self.kind}: {self.message}"


def _record_shape(rec: dict) -> list[str]:
    out = [f"missing field {f!r}" for f in FIELDS if f not in rec]
    if out:
        return out
    if rec["task"] not in TASKS:
        return [f"unknown task {rec['task']!r}"]
    category, regime = TASKS[rec["task"]]
    if (rec["category"], rec["regime"]) != (category, regime):
        out.append(f"category/regime {rec['category']}/{rec['regime']} should be {category}/{regime}")
    fmt = rec["format"]
    if fmt == "mcq":
        opts = rec["options"]
        if len(opts) not in OPTION_COUNTS.get(rec["task"], set()):
            out.append(f"{len(opts)} options for {rec['task']}")
        if len({o.strip().lower() for o in opts}) != len(opts):
            out.append("duplicate options")
        if rec["answer"] not in LETTERS[:len(opts)]:
            out.append(f"answer {rec['answer']!r} is not an option letter")
        elif opts[LETTERS.index(rec["answer"])] != rec["answer_text"]:
            out.append("answer_text is not the option at the answer letter")
    elif fmt == "number":
        if not isinstance(rec["answer"], int) or rec["options"]:
            out.append("number question needs an integer answer and no options")
    elif fmt == "free_form":
        if rec["options"] or rec["answer"] != rec["answer_text"]:
            out.append("free-form record needs no options and answer == answer_text")
    else:
        out.append(f"unknown format {fmt!r}")
    return out


def _evidence(rec: dict, facts: Facts) -> list[tuple[str, str]]:
    ev = rec["evidence"]
    out = []
    for oid in ev.get("objects", []):
        if oid not in facts.obj or not facts.object_clear(oid):
            out.append(("ungrounded", f"evidence object {oid!r} unknown or not seen clearly"))
    for room in ev.get("rooms", []):
        if room not in facts.room or not facts.room_visible(room):
            out.append(("ungrounded", f"evidence room {room!r} unknown or not seen"))
    good = set().union(*(facts.good_obj.get(o, set()) for o in ev.get("objects", [])),
                       *(facts.good_room.get(r, set()) for r in ev.get("rooms", [])))
    frames = ev.get("frames", [])
    if not frames:
        out.append(("ungrounded", "no evidence frames"))
    stray = [f for f in frames if f not in good]
    if stray:
        out.append(("ungrounded", f"evidence frames show none of the evidence: {stray[:5]}"))
    for room in ev.get("rooms", []):
        furnished = facts.good_room.get(room, set()) & facts.things_in_view(room)
        if furnished and not furnished & set(frames):  # a wall or floor alone does not say which room
            out.append(("ungrounded", f"evidence frames of room {room!r} show none of its things, "
                                      f"though frames {sorted(furnished)[:3]} do"))
    return out


def _sampled(rec: dict, facts: Facts) -> list[Problem]:
    """evidence_in_sampled_frames: every evidence object and room clearly seen in one of the N
    frames lmms-eval would sample (formats.sampling: the sampler is a convention, not a definition)."""
    ev = rec["evidence"]
    clear = [facts.good_obj.get(o, set()) for o in ev.get("objects", [])]
    clear += [facts.good_room.get(r, set()) for r in ev.get("rooms", [])]
    want = in_sampled_frames(len(facts.files.trajectory.frames), clear)
    given = rec["evidence_in_sampled_frames"]
    wrong = [n for n in want if given.get(n) != want[n]]
    if wrong:
        said = ", ".join(f"{n}: {given.get(n)}" for n in wrong)
        right = ", ".join(f"{n}: {want[n]}" for n in wrong)
        return [Problem(rec["id"], "disagreement", f"evidence_in_sampled_frames says {said}; the frames give {right}")]
    return []


def letter_balance(records: list[dict]) -> list[Problem]:
    """Within each option count, correct letters differ by at most one between positions."""
    groups: dict[int, Counter] = {}
    for r in records:
        if r.get("format") == "mcq" and r.get("options"):
            groups.setdefault(len(r["options"]), Counter())[r["answer"]] += 1
    out = []
    for n, counts in sorted(groups.items()):
        values = [counts.get(letter, 0) for letter in LETTERS[:n]]
        if max(values) - min(values) > 1:
            out.append(Problem("*", "imbalance", f"{n}-option questions: correct letters {dict(zip(LETTERS, values))}"))
    return out


def check_records(records: list[dict], files: Files, rules: Rules = DEFAULT,
                  ontology=None, between=lambda: None) -> list[Problem]:
    """`ontology`: anything with `.activities` and `.affordances(category)`; the asset
    catalog's by default. `between()` is called before each record (a time budget: it may raise)."""
    facts = Facts(files, rules)
    thresholds = rules
    layout = LayoutCheck(facts)
    onto = ontology or abstractive.CatalogActivities()
    problems: list[Problem] = []
    ids = Counter(r.get("id") for r in records)
    problems += [Problem(i, "format", "duplicate id") for i, n in ids.items() if n > 1]
    by_id = {r.get("id"): r for r in records}
    for rec in records:
        between()
        rid = rec.get("id", "?")
        shape = _record_shape(rec)
        if shape:
            problems += [Problem(rid, "format", m) for m in shape]
            continue
        problems += _sampled(rec, facts)
        if rec["format"] == "free_form":
            twin = by_id.get(rid.removesuffix("-ff"))
            if not rid.endswith("-ff") or twin is None or twin["answer_text"] != rec["answer"]:
                problems.append(Problem(rid, "format", "free-form record without a matching MCQ"))
            continue
        if rec["format"] == "mcq" and rid + "-ff" not in by_id:
            problems.append(Problem(rid, "format", "MCQ without its free-form twin"))
        try:
            found = _evidence(rec, facts)
            found += CHECKS[rec["task"]](rec, facts, thresholds, onto=onto, layout=layout)
        except Exception as exc:  # a record the checker cannot read is itself a problem
            found = [("format", f"could not be checked: {type(exc).__name__}: {exc}")]
        problems += [Problem(rid, kind, msg) for kind, msg in found]
    return problems + letter_balance(records)


def check_output(out_dir: Path, rules: Rules = DEFAULT, ontology=None, between=lambda: None) -> list[Problem]:
    out_dir = Path(out_dir)
    path = out_dir / "queries.jsonl"
    if not path.exists():
        return [Problem("*", "format", f"{path} does not exist")]
    try:  # the typed file formats (formats/) are the only code shared with query generation
        records = [dump_model(r) for r in read_records(path, QueryRecord)]
        files = load_files(out_dir)
    except FormatError as exc:
        return [Problem("*", "format", str(exc))]
    return check_records(records, files, rules, ontology, between)


def run_check(outdir: Path, min_pixels: int | None = None, min_frames: int | None = None) -> int:
    """`egoscene check OUTDIR`: print every problem and a summary; 1 if there are problems."""
    problems = check_output(outdir, Rules(min_pixels=min_pixels, min_frames=min_frames))
    for p in problems:
        print(p)
    n = len((outdir / "queries.jsonl").read_text().splitlines()) if (outdir / "queries.jsonl").exists() else 0
    print(f"{outdir}: {n} records, {len(problems)} problem(s)")
    return 1 if problems else 0
