"""The queries stage with its independent check: only questions the check accepts are shipped."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

CHECK_ROUNDS = 3  # make the questions again without those the check refused, at most this often


class QueryCheckError(Exception):
    """The generated questions disagree with the independent validator in a way leaving some out
    cannot mend (a bug): nothing is published."""


def checked_queries(folder: Path, per_task: int, within_budget: Callable[[], None], clock, source):
    """Questions into folder/queries.jsonl that the independent check accepts: a question it
    refuses is never shipped; the engine makes the questions again without it (the task's next
    candidate takes its place) and manifest.json lists it under queries.withheld. A problem that
    is not one question's (the answer letters' balance) or still there after CHECK_ROUNDS fails
    the scenario (QueryCheckError)."""
    from queries.check import check_output
    from queries.engine import generate_queries

    withheld: dict[str, dict[str, str]] = {}
    for _ in range(CHECK_ROUNDS):
        with clock("queries"):
            report = generate_queries(folder, per_task=per_task, between=within_budget, withheld=withheld)
        with clock("check"):  # the independent validator recomputes every answer before publishing
            problems = check_output(folder, between=within_budget)
        refused = _refused_records(folder / "queries.jsonl", problems)
        if not problems or refused is None:
            break
        withheld.update(refused)
    if problems:
        raise QueryCheckError(f"{source}: the independent check refused {len(problems)} question(s): "
                              + "; ".join(str(p) for p in problems[:10]))
    if withheld:
        clock.on_stage(f"check: left out {len(withheld)} question(s) the independent check refused "
                       "(manifest.json queries.withheld)")
    return report


def _refused_records(path: Path, problems) -> dict[str, dict[str, str]] | None:
    """The questions the check refused, keyed for the engine to leave out; None when a problem
    is not about one question (the letters' balance, a malformed file): that is no one
    question's fault and the scenario fails."""
    from queries.records import read_jsonl, withhold_key

    records = {r["id"]: r for r in read_jsonl(path)}
    out = {}
    for p in problems:
        rec = records.get(p.id.removesuffix("-ff")) if isinstance(p.id, str) else None
        if rec is None or not isinstance(rec.get("derivation"), dict):
            return None
        out[withhold_key(rec["task"], rec["derivation"])] = {
            "task": rec["task"], "question": rec["question"], "reason": f"{p.kind}: {p.message}"}
    return out
