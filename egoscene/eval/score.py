"""Scoring predictions against a release: per question, then per task, regime and overall."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from egoscene.eval.metrics import mra, paired_ttest, random_accuracy, summary
from egoscene.eval.parse import parse_choice, parse_number
from formats import base
from formats.release import Prediction, ReleaseRow

REGIMES = ("abstractive", "extractive")
GRID_SUFFIX = "/grid"


class EvalError(ValueError):
    """Predictions or a release that cannot be scored (the message names file, line and fix)."""


def load_release(release: Path) -> list[ReleaseRow]:
    path = Path(release) / "data" / "all.jsonl"
    if not path.is_file():
        raise EvalError(f"{path}: missing (fix: pass a folder made by `egoscene release ... --out REL`)")
    return base.read_records(path, ReleaseRow)


def read_predictions(path: Path, ids: set[str]) -> list[Prediction]:
    out, seen = [], set()
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            p = Prediction.model_validate(json.loads(line))
        except json.JSONDecodeError as exc:
            raise EvalError(f"{where}: not JSON ({exc}; fix: one JSON object per line)") from None
        except ValidationError as exc:
            raise EvalError(f"{where}: {base.describe(exc)} (fix: each line needs `id` and `prediction` "
                            f"text; `model` and `run` are optional)") from None
        if p.id not in ids:
            raise EvalError(f"{where}: id {p.id!r} is not a question of this release (fix: use the ids of "
                            f"REL/data/all.jsonl, or `<scenario>/grid` for a floor-plan grid)")
        key = (p.model, p.run, p.id)
        if key in seen:
            raise EvalError(f"{where}: a second prediction for {p.id!r} by model {p.model!r} in run {p.run} "
                            f"(fix: give each generation its own `run` number)")
        seen.add(key)
        out.append(p)
    return out


def score_answer(row: ReleaseRow, text: str | None) -> dict:
    """{"correct": 0/1, "parsed": bool, "mra": float | None} for one answer to one question."""
    if row.format == "mcq":
        letter = parse_choice(text, row.options)
        return {"correct": float(letter == row.answer), "parsed": letter is not None, "mra": None}
    if row.format == "number":
        value = parse_number(text)
        truth = float(row.answer)
        return {"correct": float(value is not None and value == truth), "parsed": value is not None,
                "mra": mra(value, truth)}
    from queries.judge import judge_free_form

    record = {"task": row.task, "answer": row.answer, "derivation": json.loads(row.derivation)}
    ok = text is not None and bool(text.strip()) and judge_free_form(record, text)
    return {"correct": float(ok), "parsed": text is not None and bool(text.strip()), "mra": None}


def random_baseline(rows: list[ReleaseRow]) -> dict:
    """Task -> expected accuracy (%) of a uniform pick among the options (None for counting);
    regime and overall: the mean over tasks that have one (the paper's Table 3 Random row)."""
    counts: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        if row.format != "free_form":
            counts[row.task] += [len(row.options)] if row.format == "mcq" else []
    tasks = {task: random_accuracy(c) for task, c in sorted(counts.items())}
    regime_of = {row.task: row.regime for row in rows}
    out = dict(tasks)
    for regime in REGIMES:
        values = [v for t, v in tasks.items() if v is not None and regime_of[t] == regime]
        out[regime] = round(float(np.mean(values)), 4) if values else None
    values = [v for v in tasks.values() if v is not None]
    out["overall"] = round(float(np.mean(values)), 4) if values else None
    return out


def _model_scores(rows: list[ReleaseRow], preds: list[Prediction], release: Path | None) -> tuple[dict, dict]:
    runs = sorted({p.run for p in preds})
    given = {(p.run, p.id): p.prediction for p in preds}
    per_q: dict[str, list[dict]] = {}
    for row in rows:
        per_q[row.id] = [score_answer(row, given.get((run, row.id))) for run in runs]
    tasks: dict[str, dict] = {}
    task_runs: dict[str, list[float]] = {}
    for task in sorted({r.task for r in rows}):
        main = [r for r in rows if r.task == task and r.format != "free_form"]
        free = [r for r in rows if r.task == task and r.format == "free_form"]
        numbers = [r for r in main if r.format == "number"]
        task_runs[task] = [100 * float(np.mean([per_q[r.id][i]["correct"] for r in main])) for i in range(len(runs))]
        entry = {"questions": len(main), "accuracy": summary(task_runs[task])}
        if numbers:
            entry["mra"] = summary([100 * float(np.mean([per_q[r.id][i]["mra"] for r in numbers]))
                                    for i in range(len(runs))])
        if free:
            entry["free_form"] = summary([100 * float(np.mean([per_q[r.id][i]["correct"] for r in free]))
                                          for i in range(len(runs))])
        tasks[task] = entry
    regime_of = {r.task: r.regime for r in rows}
    regimes = {g: summary([float(np.mean([task_runs[t][i] for t in task_runs if regime_of[t] == g]))
                           for i in range(len(runs))]) for g in REGIMES if g in regime_of.values()}
    overall = summary([float(np.mean([task_runs[t][i] for t in task_runs])) for i in range(len(runs))])
    answered = [s for row in rows for s in per_q[row.id]]
    missing = sum(1 for row in rows for run in runs if (run, row.id) not in given)
    result = {"runs": len(runs), "unparsed": sum(1 for s in answered if not s["parsed"]) - missing,
              "missing": missing, "tasks": tasks, "regimes": regimes, "overall": overall,
              "grid_miou": _grid(preds, release)}
    per_question = {row.id: float(np.mean([s["correct"] for s in per_q[row.id]])) for row in rows
                    if row.format != "free_form"}
    return result, per_question


def _grid(preds: list[Prediction], release: Path | None) -> dict | None:
    grids = [p for p in preds if p.id.endswith(GRID_SUFFIX)]
    if not grids or release is None:
        return None
    from queries.grid_score import score_file

    scores: dict[str, list[float]] = defaultdict(list)
    for p in grids:
        scenario = p.id[: -len(GRID_SUFFIX)]
        scores[scenario].append(100 * score_file(Path(release) / scenario / "grid.json", p.prediction).miou)
    return {"mean": round(float(np.mean([v for s in scores.values() for v in s])), 4),
            "scenarios": {s: round(float(np.mean(v)), 4) for s, v in sorted(scores.items())}}


def evaluate(rows: list[ReleaseRow], predictions: list[Prediction], release: Path | None = None,
             reference: str | None = None) -> dict:
    """Everything results.json holds except the release hash: random baseline and per-model scores."""
    models = sorted({p.model for p in predictions})
    if reference is not None and reference not in models:
        raise EvalError(f"--reference {reference!r}: no such model in the predictions "
                        f"(models: {', '.join(models) or 'none'})")
    out, per_question = {}, {}
    for model in models:
        out[model], per_question[model] = _model_scores(rows, [p for p in predictions if p.model == model], release)
    if reference is not None:
        ids = sorted(per_question[reference])
        for model in models:
            if model != reference:
                out[model]["ttest"] = paired_ttest([per_question[model][i] for i in ids],
                                                   [per_question[reference][i] for i in ids])
    return {"questions": len(rows), "reference": reference, "random": random_baseline(rows), "models": out}
