"""The rows of a release: egoscene's own schema, the VSI-Bench view and the VAEX-Bench view."""

from __future__ import annotations

import json

from formats import base
from formats.queries import LETTERS
from formats.release import ReleaseRow, VsiRow
from egoscene.release.collect import ReleaseError

VSI_DATASET = "egoscene"
VSI_TYPES = {"object_counting": "object_counting", "relative_distance": "object_rel_distance",
             "route_plan": "route_planning", "appearance_order": "obj_appearance_order"}
DIRECTION_LEVELS = {2: "object_rel_direction_easy", 3: "object_rel_direction_medium", 4: "object_rel_direction_hard"}

# VAEX-Bench task names (the paper's Table 3 columns, spelled out).
VAEX_TYPES = {"memory_action": "Memory-Action", "map_direction": "Map Direction", "map_scale": "Map Scale",
              "simulation": "Simulation", "global_counting": "Global Counting", "appearance_order": "Appearance Order",
              "relative_direction": "Relative Direction", "relative_distance": "Relative Distance",
              "route_plan": "Route Plan", "object_counting": "Object Counting"}
VAEX_COLUMNS = ("video_id", "question", "question_type", "answer")


def release_rows(records: list[dict], frames: dict[str, list[str]]) -> list[ReleaseRow]:
    """Query records (balanced) -> release rows; `frames`: scenario -> its sampled frame paths."""
    rows = []
    for r in records:
        data = {"schema": ReleaseRow.FORMAT, **{k: r[k] for k in (
            "id", "scenario", "task", "category", "regime", "format", "question", "options", "answer_text",
            "evidence", "video")}}
        data["answer"] = str(r["answer"])
        data["derivation"] = json.dumps(r["derivation"], sort_keys=True, ensure_ascii=False)
        data["frames"] = frames[r["scenario"]]
        rows.append(base.load_model(data, ReleaseRow, f"release row {r['id']}"))
    return rows


def vsi_type(row: ReleaseRow) -> str | None:
    if row.format == "free_form":
        return None
    if row.task == "relative_direction":  # the record's level (easy/medium/hard), else its option count
        level = json.loads(row.derivation).get("level")
        return f"object_rel_direction_{level}" if level in ("easy", "medium", "hard") \
            else DIRECTION_LEVELS.get(len(row.options))
    return VSI_TYPES.get(row.task)


def vsi_rows(rows: list[ReleaseRow]) -> list[VsiRow]:
    """The VSI-Bench view; refuses a view lmms-eval's vsibench code could not score."""
    out = []
    for row in rows:
        qtype = vsi_type(row)
        if qtype is None:
            continue
        if row.format == "number" and float(row.answer) == 0:
            raise ReleaseError(f"{row.id}: a numeric answer of 0 (VSI-Bench's MRA divides by the ground truth; "
                               f"fix: counting questions must ask about counts of 2 or more)")
        options = [f"{LETTERS[i]}. {text}" for i, text in enumerate(row.options)] if row.format == "mcq" else None
        out.append(VsiRow(id=len(out), dataset=VSI_DATASET, scene_name=row.scenario, question_type=qtype,
                          question=row.question, options=options, ground_truth=row.answer, egoscene_id=row.id))
    missing = [level for level in DIRECTION_LEVELS.values() if not any(r.question_type == level for r in out)]
    if missing:
        raise ReleaseError(f"the VSI-Bench view has no {', '.join(missing)} question (lmms-eval's vsibench "
                           f"aggregation averages all three relative-direction levels and fails without one; fix: "
                           f"add scenarios whose relative_direction questions cover 2, 3 and 4 options)")
    return out


def vaex_video_ids(scenarios: list[str]) -> dict[str, int]:
    """Scenario -> VAEX video id (1, 2, ... in name order): the video is `video{id}.mp4`."""
    return {name: i for i, name in enumerate(sorted(scenarios), 1)}


def vaex_rows(rows: list[ReleaseRow], ids: dict[str, int]) -> list[dict]:
    """VAEX-Bench CSV rows: the MCQ and counting questions (not the free-form twins)."""
    out = []
    for row in rows:
        if row.format == "free_form":
            continue
        question = row.question
        if row.format == "mcq":
            question += " Choices: " + " ".join(f"({LETTERS[i]}) {t}" for i, t in enumerate(row.options))
        out.append({"video_id": ids[row.scenario], "question": question, "question_type": VAEX_TYPES[row.task],
                    "answer": row.answer})
    return out


def vaex_csv(rows: list[dict]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=VAEX_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
