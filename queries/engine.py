"""generate_queries: scene files in, queries.jsonl out, with a report of what was refused.

Each task draws from its own RNG seeded by (scenario seed, "queries/<task>"), and the answer
letters from one seeded by (scenario seed, "queries/options"), so the same spec and seed give
byte-identical output (rule 6), and a rule changed in one task leaves the others' questions
as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from formats.sampling import in_sampled_frames
from formats.seeding import stage_rng
from queries.abstractive import global_counting, map_direction, map_scale, memory_action
from queries.context import Context
from queries.evidence import Rejections
from queries.extractive import appearance_order, object_counting, relative_direction, relative_distance
from queries.model import Scenario, load_scenario
from queries.ontology import Ontology, default_ontology
from queries.params import DEFAULT, Thresholds
from queries.records import build_records, letter_counts, withhold_key, write_records
from queries.route_plan import route_plan
from queries.simulation import simulation

GENERATORS = {
    "appearance_order": appearance_order,
    "relative_direction": relative_direction,
    "relative_distance": relative_distance,
    "route_plan": route_plan,
    "object_counting": object_counting,
    "memory_action": memory_action,
    "map_direction": map_direction,
    "map_scale": map_scale,
    "simulation": simulation,
    "global_counting": global_counting,
}

# What a task needs before it has any candidate at all (said when nothing was even tried).
NEEDS = {
    "appearance_order": "4 categories seen in the video",
    "relative_direction": "3 objects each unique in one room",
    "relative_distance": "5 objects each unique in one room",
    "route_plan": "3 objects each unique in one room",
    "object_counting": "a category with 2 or more instances in one room",
    "memory_action": "2 or more rooms entered",
    "map_direction": "2 seen rooms",
    "map_scale": "2 pairs of seen rooms on one floor",
    "simulation": "clear layout facts (adjacent, opposite, corner, between, routes)",
    "global_counting": "a category present in 2 or more rooms",
}


@dataclass
class QueryReport:
    scenario: str
    per_task: int
    counts: dict[str, int]                      # questions per task (twins not counted)
    rejections: dict[str, dict[str, int]]       # task -> "rule<n>" -> candidates refused
    reasons: dict[str, dict[str, int]]          # task -> "rule<n>: reason" -> count
    shortfall: dict[str, str] = field(default_factory=dict)  # task -> why fewer than per_task
    letters: dict[int, dict[str, int]] = field(default_factory=dict)
    records: int = 0
    withheld: list[dict[str, str]] = field(default_factory=list)  # task, question, reason

    def to_json(self) -> dict:
        """For manifest.json."""
        return {"per_task": self.per_task, "counts": self.counts, "rejections": self.rejections,
                "reasons": self.reasons, "shortfall": self.shortfall,
                "letters": {str(k): v for k, v in self.letters.items()}, "records": self.records,
                "withheld": self.withheld}


def _shortfall(task: str, made: int, reasons: dict[str, int]) -> str:
    if not reasons:
        return f"{'no' if not made else 'no more'} candidates: needs {NEEDS[task]}"
    top = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    return "candidates refused: " + "; ".join(f"{why} (x{n})" for why, n in top)


def _nothing() -> None:
    pass


def build_queries(scenario: Scenario, per_task: int = 3, thresholds: Thresholds = DEFAULT,
                  ontology: Ontology | None = None, between: Callable[[], None] = _nothing,
                  withheld: dict[str, dict[str, str]] | None = None) -> tuple[list[dict], QueryReport]:
    """`between` is called between tasks, refused candidates and records (the pipeline's time
    budget: it may raise to stop the stage); it never changes what is made. `withheld` (by
    records.withhold_key: {task, question, reason}) are questions the independent check refused:
    a task with one asks its generator for that many more and leaves them out."""
    name = scenario.scene.name
    withheld = withheld or {}
    seed = scenario.scene.seed
    ctx = Context(scenario, thresholds, ontology or default_ontology(), rej=Rejections(between_candidates=between))
    drafts, counts = [], {}
    for task, generate in GENERATORS.items():
        between()
        ctx.rng = stage_rng(seed, f"queries/{task}")
        extra = sum(1 for w in withheld.values() if w["task"] == task)
        made = [d for d in generate(ctx, per_task + extra)
                if withhold_key(d.task, d.derivation) not in withheld][:per_task]
        counts[task] = len(made)
        drafts += made
    records = build_records(drafts, name, stage_rng(seed, "queries/options"))
    total = len(scenario.trajectory.frames)
    for r in records:  # can a model given N uniformly sampled frames see every piece of evidence?
        between()
        ev = r["evidence"]
        r["evidence_in_sampled_frames"] = in_sampled_frames(
            total, [ctx.seen.object_frames(o) for o in ev["objects"]] + [ctx.seen.room_frames(x) for x in ev["rooms"]])
    reasons = ctx.rej.reasons()
    shortfall = {t: _shortfall(t, n, reasons.get(t, {})) for t, n in counts.items() if n < per_task}
    for t in shortfall:
        refused = sum(1 for w in withheld.values() if w["task"] == t)
        if refused:
            shortfall[t] += f"; {refused} left out because the independent check refused them"
    report = QueryReport(name, per_task, counts, ctx.rej.per_rule(), reasons, shortfall,
                         letter_counts(records), len(records),
                         [withheld[k] for k in sorted(withheld)])
    return records, report


def generate_queries(out_dir: Path, per_task: int = 3, thresholds: Thresholds = DEFAULT,
                     ontology: Ontology | None = None, between: Callable[[], None] = _nothing,
                     withheld: dict[str, dict[str, str]] | None = None) -> QueryReport:
    """Read scene/trajectory/visibility.json in out_dir and write queries.jsonl there (nothing when
    `between` raises: see build_queries)."""
    out_dir = Path(out_dir)
    records, report = build_queries(load_scenario(out_dir), per_task, thresholds, ontology, between, withheld)
    write_records(out_dir / "queries.jsonl", records)
    return report
