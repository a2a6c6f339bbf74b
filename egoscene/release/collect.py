"""Read finished scenario folders and balance the correct letter over the whole release."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from formats import base
from formats.manifest import Manifest
from formats.queries import QueryRecord
from formats.scene import Scene
from formats.seeding import stage_seed
from queries.records import FREE_FORM_SUFFIX, letter_counts, rebalance_letters

# Files copied from each scenario folder into `<release>/<scenario>/`.
SCENARIO_FILES = ("video.mp4", "scene.json", "trajectory.json", "visibility.json", "grid.json", "grid_prompt.txt",
                  "floorplan.png", "grid.png", "manifest.json")
REQUIRED = ("video.mp4", "scene.json", "trajectory.json", "visibility.json", "grid.json", "queries.jsonl",
            "manifest.json")


class ReleaseError(ValueError):
    """Input that cannot make a release (the message names the folder or file and the fix)."""


@dataclass
class ScenarioIn:
    folder: Path
    manifest: Manifest
    scene: Scene
    records: list[dict]


def load_scenario(folder: Path) -> ScenarioIn:
    folder = Path(folder)
    if not folder.is_dir():
        raise ReleaseError(f"{folder}: not a folder (fix: pass finished scenario folders, e.g. outputs/scenario-01)")
    missing = [name for name in REQUIRED if not (folder / name).is_file()]
    if missing:
        raise ReleaseError(f"{folder}: missing {', '.join(missing)}: not a finished scenario folder "
                           f"(fix: `egoscene generate SPEC --out DIR` through the queries stage)")
    manifest = base.read_model(folder / "manifest.json", Manifest)
    if manifest.name != folder.name:
        raise ReleaseError(f"{folder / 'manifest.json'}: name {manifest.name!r} differs from the folder name "
                           f"(fix: keep the folder name the pipeline wrote)")
    if manifest.options.max_frames:
        raise ReleaseError(f"{folder / 'manifest.json'}: options.max_frames is {manifest.options.max_frames}: a "
                           f"benchmark folder whose walk was cut short (fix: generate it without --max-frames)")
    records = [base.dump_model(r) for r in base.read_records(folder / "queries.jsonl", QueryRecord)]
    if not records:
        raise ReleaseError(f"{folder / 'queries.jsonl'}: no questions (fix: regenerate the scenario)")
    bad = [r["id"] for r in records if r["scenario"] != manifest.name]
    if bad:
        raise ReleaseError(f"{folder / 'queries.jsonl'}: record {bad[0]} belongs to another scenario")
    return ScenarioIn(folder, manifest, base.read_model(folder / "scene.json", Scene), records)


def expand(paths: list[Path]) -> list[Path]:
    """Scenario folders as given; a folder without manifest.json stands for its finished
    scenario sub-folders (an output root such as `outputs/`; hidden staging folders skipped)."""
    out = []
    for path in map(Path, paths):
        subs = sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith(".")
                      and (p / "manifest.json").is_file()) if path.is_dir() else []
        out += [path] if (path / "manifest.json").exists() or not subs else subs
    return out


def load_all(folders: list[Path]) -> list[ScenarioIn]:
    """The scenarios sorted by name (so the order of the arguments does not change the release)."""
    folders = expand(folders)
    if not folders:
        raise ReleaseError("no scenario folders given (fix: `egoscene release OUT/scenario-01 ... --out REL`)")
    scenarios = sorted((load_scenario(f) for f in folders), key=lambda s: s.manifest.name)
    names = [s.manifest.name for s in scenarios]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ReleaseError(f"scenario {dup[0]!r} given twice (fix: pass each scenario folder once)")
    return scenarios


def release_seed(names: list[str]) -> int:
    """The letter-balancing seed: a function of the scenario names only."""
    return stage_seed(0, "release:" + ",".join(names))


def balanced_records(scenarios: list[ScenarioIn]) -> list[dict]:
    """All records, MCQ options re-ordered so each correct letter is within 1 of even per option
    count over the whole release; free-form twins and questions that list the options follow."""
    records = [r for s in scenarios for r in s.records]
    out = rebalance_letters(records, release_seed([s.manifest.name for s in scenarios]))
    _check_consistent(out)
    return out


def _check_consistent(records: list[dict]) -> None:
    by_id = {r["id"]: r for r in records}
    for r in records:
        base.load_model(r, QueryRecord, f"release record {r['id']}")
        if r["format"] == "mcq":
            twin = by_id.get(r["id"] + FREE_FORM_SUFFIX)
            if twin is not None and twin["answer"] != r["options"]["ABCDE".index(r["answer"])]:
                raise ReleaseError(f"{r['id']}: the free-form twin's answer no longer matches the MCQ answer")


def balance_report(records: list[dict]) -> dict[int, dict[str, int]]:
    return letter_counts(records)
