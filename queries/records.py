"""QA records (SPEC section 5): drafts -> records with balanced letters, free-form twins, JSONL.

Records are plain dicts in the shape of formats.queries.QueryRecord (version tag `schema`);
they are validated against that model whenever they are written or read.

Task generators return `Draft`s with the correct option kept apart from the distractors;
letters are assigned only here, over all MCQs of a scenario at once, so the correct letter is
spread evenly over the positions (rule 5).
"""

from __future__ import annotations

import json

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from formats import base as file_models
from formats.queries import QueryRecord
from queries.params import LETTERS, TASKS

FREE_FORM_SUFFIX = "-ff"
OPTIONS_SLOT = "<options>"  # in a draft question: replaced by the options in their final order


@dataclass
class Draft:
    task: str
    question: str
    correct: str | int                # option text, or the number of a counting question
    distractors: list[str] = field(default_factory=list)  # empty for number questions
    objects: list[str] = field(default_factory=list)
    rooms: list[str] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)
    derivation: dict = field(default_factory=dict)
    free_question: str | None = None  # the free-form twin's question when it differs
    joiner: str = ", "                # between options listed in a question (OPTIONS_SLOT)

    @property
    def is_mcq(self) -> bool:
        return bool(self.distractors)


def clean(value):
    """Plain JSON types with floats rounded to 4 decimals (byte-stable output)."""
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        r = round(float(value), 4)
        return 0.0 if r == 0 else r
    return value


def balanced_positions(count: int, n_options: int, rng: np.random.Generator) -> list[int]:
    """`count` correct-answer positions, each position used floor or ceil of count/n times."""
    offset = int(rng.integers(n_options))
    positions = [(offset + i) % n_options for i in range(count)]
    rng.shuffle(positions)
    return positions


def _place(correct: str, distractors: list[str], position: int,
           rng: np.random.Generator) -> list[str]:
    others = list(distractors)
    rng.shuffle(others)
    return others[:position] + [correct] + others[position:]


def withhold_key(task: str, derivation: dict) -> str:
    """What identifies a question across runs of the engine (its task and the facts its answer
    follows from), for leaving out one the independent check refused."""
    return task + " " + json.dumps(clean(derivation), sort_keys=True)   # a draft's as its record's


def build_records(drafts: list[Draft], scenario: str, rng: np.random.Generator) -> list[dict]:
    """Records in draft order (ids `<scenario>/<task>/<n>`), each MCQ followed by its twin."""
    groups: dict[int, list[int]] = defaultdict(list)
    for i, d in enumerate(drafts):
        if d.is_mcq:
            groups[len(d.distractors) + 1].append(i)
    position: dict[int, int] = {}
    for n_options in sorted(groups):
        members = groups[n_options]
        for i, p in zip(members, balanced_positions(len(members), n_options, rng)):
            position[i] = p

    counter: dict[str, int] = defaultdict(int)
    records = []
    for i, d in enumerate(drafts):
        counter[d.task] += 1
        category, regime, _ = TASKS[d.task]
        base = {
            "schema": QueryRecord.FORMAT,
            "id": f"{scenario}/{d.task}/{counter[d.task]}", "scenario": scenario, "task": d.task,
            "category": category, "regime": regime, "question": d.question,
            "evidence": {"objects": sorted(set(d.objects)), "rooms": sorted(set(d.rooms)),
                         "frames": sorted(set(d.frames))},
            "derivation": d.derivation, "video": f"{scenario}/video.mp4",
        }
        if not d.is_mcq:
            records.append(clean({**base, "format": "number", "options": [],
                                  "answer": d.correct, "answer_text": str(d.correct)}))
            continue
        options = _place(str(d.correct), d.distractors, position[i], rng)
        letter = LETTERS[options.index(str(d.correct))]
        listed = d.joiner.join(options)
        base["question"] = d.question.replace(OPTIONS_SLOT, listed)
        records.append(clean({**base, "format": "mcq", "options": options, "answer": letter,
                              "answer_text": str(d.correct)}))
        free = (d.free_question or d.question).replace(OPTIONS_SLOT, listed)
        records.append(clean({**base, "id": base["id"] + FREE_FORM_SUFFIX, "format": "free_form",
                              "question": free, "options": [],
                              "answer": str(d.correct), "answer_text": str(d.correct)}))
    return records


def rebalance_letters(records: list[dict], seed: int) -> list[dict]:
    """Re-order MCQ options so the correct letter is balanced over a whole batch (for release).

    Free-form twins and number questions are unchanged; option texts are only permuted.
    """
    rng = np.random.Generator(np.random.PCG64(seed))
    mcq = [i for i, r in enumerate(records) if r["format"] == "mcq"]
    groups: dict[int, list[int]] = defaultdict(list)
    for i in mcq:
        groups[len(records[i]["options"])].append(i)
    out = [dict(r) for r in records]
    index = {r["id"]: i for i, r in enumerate(out)}
    for n_options in sorted(groups):
        members = groups[n_options]
        for i, p in zip(members, balanced_positions(len(members), n_options, rng)):
            r = out[i]
            old = list(r["options"])
            correct = r["answer_text"]
            others = [o for o in old if o != correct]
            r["options"] = others[:p] + [correct] + others[p:]
            r["answer"] = LETTERS[p]
            # questions that list the options (relative distance, free-form simulation) follow
            twin = out[index[r["id"] + FREE_FORM_SUFFIX]] if r["id"] + FREE_FORM_SUFFIX in index else None
            for rec in (r, twin):
                for joiner in (", ", " "):
                    if rec is not None and joiner.join(old) in rec["question"]:
                        rec["question"] = rec["question"].replace(joiner.join(old), joiner.join(r["options"]))
                        break
    return out


def letter_counts(records: list[dict]) -> dict[int, dict[str, int]]:
    """Option count -> letter -> how many MCQs have that correct letter."""
    out: dict[int, dict[str, int]] = {}
    for r in records:
        if r["format"] == "mcq":
            n = len(r["options"])
            out.setdefault(n, {letter: 0 for letter in LETTERS[:n]})[r["answer"]] += 1
    return out


def as_models(records: list[dict]) -> list[QueryRecord]:
    """The records validated as formats.queries.QueryRecord (FormatError naming the record)."""
    return [file_models.load_model(r, QueryRecord, f"query record {r.get('id', i) if isinstance(r, dict) else i}")
            for i, r in enumerate(records)]


def dumps(records: list[dict]) -> str:
    """queries.jsonl text: one record per line, sorted keys."""
    return file_models.records_text(as_models(records))


def write_records(path: Path, records: list[dict]) -> None:
    """Validate and write queries.jsonl atomically (a temp file and os.replace)."""
    file_models.write_records(Path(path), as_models(records))


def read_jsonl(path: Path) -> list[dict]:
    """The records of a queries.jsonl, validated (FormatError naming the file and line)."""
    return [file_models.dump_model(r) for r in file_models.read_records(Path(path), QueryRecord)]
