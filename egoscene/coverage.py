"""The coverage loop's own parts (egoscene.pipeline._render_with_coverage runs the loop): which
objects the rendered frames did not show clearly enough, and how far a killed run had got."""

from __future__ import annotations

import json
from pathlib import Path

from formats import files as outputs

COVERAGE_ROUNDS = 2  # walk extensions tried for objects not seen clearly (SPEC 4) before publishing anyway
COVERAGE_FILE = "coverage.json"  # in the frame cache: how far the coverage loop got (a resume carries on there)


def under_seen(scene: dict, trajectory: dict, visibility: dict) -> dict[str, list[str]]:
    """room -> ids of its objects not seen clearly enough to be named (SPEC 5 rule 2,
    docs/ground-truth.md "Seen"): never covering 0.1% of the frame for 0.5 s of consecutive
    frames (from the front for a thing named only from its front), or never, for 0.5 s, showing
    15% of its box's outline (a toilet seen only as its cistern's top at the frame's edge).
    The questions' own rule (queries.evidence.Seen), so the walk looks again at what they
    would not name."""
    from queries.evidence import Seen
    from queries.model import Scenario, parse_scene, parse_trajectory, parse_visibility
    from queries.params import DEFAULT as THRESHOLDS

    seen = Seen(Scenario(parse_scene(scene), parse_trajectory(trajectory), parse_visibility(visibility)), THRESHOLDS)
    missing: dict[str, list[str]] = {}
    for obj in scene["objects"]:
        if not seen.object_seen(obj["id"]):
            missing.setdefault(obj["room"], []).append(obj["id"])
    return missing


def save_coverage(work: Path, key: str, attempt: int, extra: dict[str, list[str]]) -> None:
    """Record (atomically) that the walk of round `attempt` is the first walk with `extra` looks."""
    outputs.write_text(work / COVERAGE_FILE, json.dumps({"key": key, "attempt": attempt, "extra": extra}) + "\n")


def load_coverage(work: Path, key: str) -> tuple[int, dict[str, list[str]]]:
    """(round, extra looks) a killed run of the same coverage key had reached, else (0, {})."""
    try:
        state = json.loads((work / COVERAGE_FILE).read_text(encoding="utf-8"))
        attempt, extra = state["attempt"], state["extra"]
        if (state["key"] == key and isinstance(attempt, int) and 0 < attempt <= COVERAGE_ROUNDS
                and isinstance(extra, dict) and all(isinstance(ids, list) for ids in extra.values())):
            return attempt, extra
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return 0, {}


def warn_unseen(clock, attempt: int, missing: dict[str, list[str]]) -> None:
    names = "; ".join(f"{room}: {', '.join(ids)}" for room, ids in sorted(missing.items()))
    clock.on_stage(f"warning: not seen clearly after {attempt} walk extension(s), so never asked "
                   f"about (manifest walk.unseen): {names}")
