"""A sampled batch against the paper: its statistics, coverage and the specs kept short, as
summary.json and a plain table, and the specs written out as OUT/<name>.yaml."""

from __future__ import annotations

import numpy as np

from assets.catalog import CATEGORIES
from generator.spec.sample import Sampled
from generator.spec.sample_tables import PAPER


def summary(sampled: list[Sampled]) -> dict:
    """Sampled statistics (mean, sd) against the paper's, coverage and objects per room type."""
    rows = {}
    for key in ("rooms", "objects", "floors", "adjacent pairs", "opposite pairs", "vertical pairs"):
        values = np.array([s.stats[key] for s in sampled], dtype=float)
        rows[key] = {"mean": round(float(values.mean()), 2) if len(values) else None,
                     "sd": round(float(values.std(ddof=1)), 2) if len(values) > 1 else None,
                     "paper_mean": PAPER[key][0] if key in PAPER else None,
                     "paper_sd": PAPER[key][1] if key in PAPER else None}
    per_type: dict[str, list[int]] = {}
    for s in sampled:
        for label, count in s.stats["objects per room"].items():
            per_type.setdefault(s.stats["room types"][label], []).append(count)
    used = sorted({c for s in sampled for c in s.stats["categories"]})
    typologies: dict[str, int] = {}
    for s in sampled:
        typologies[s.stats["typology"]] = typologies.get(s.stats["typology"], 0) + 1
    shapes = {"L rooms": sum(1 for s in sampled for r in s.draft.rooms.values() if r.get("shape") == "L"),
              "specs with L hallways": sum(1 for s in sampled if s.stats["hallway_shape"] == "L")}
    return {
        "scenarios": len(sampled), "statistics": rows, "typologies": dict(sorted(typologies.items())),
        "shapes": shapes,
        "objects per room by type": {k: round(float(np.mean(v)), 2) for k, v in sorted(per_type.items())},
        "categories covered": len(used), "categories in catalog": len(CATEGORIES),
        "categories missing": sorted(set(CATEGORIES) - set(used)),
        "specs": [{k: s.stats[k] for k in ("name", "typology", "rooms", "objects", "floors", "adjacent pairs",
                                           "opposite pairs", "vertical pairs")} | {"draws": s.tries}
                  | ({"short": s.short} if s.short else {}) for s in sampled],
        "kept short": [s.stats["name"] for s in sampled if s.short],
    }


def format_table(report: dict) -> str:
    """The sampled statistics beside the paper's, as a plain text table."""
    lines = [f"{'statistic':<16}{'sampled':>16}{'paper':>16}"]
    for key, row in report["statistics"].items():
        ours = f"{row['mean']} +- {row['sd']}" if row["sd"] is not None else f"{row['mean']}"
        paper = f"{row['paper_mean']} +- {row['paper_sd']}" if row["paper_mean"] is not None else "-"
        lines.append(f"{key:<16}{ours:>16}{paper:>16}")
    lines.append(f"typologies: {', '.join(f'{k} {v}' for k, v in report['typologies'].items())}")
    if "shapes" in report:
        lines.append(", ".join(f"{k}: {v}" for k, v in report["shapes"].items()))
    lines.append(f"categories covered: {report['categories covered']} of {report['categories in catalog']}"
                 + (f" (missing: {', '.join(report['categories missing'])})" if report["categories missing"] else ""))
    if report.get("kept short"):
        lines.append(f"kept although every draw was short of route plans: {', '.join(report['kept short'])}")
    return "\n".join(lines) + "\n"


def write_spec(sampled: Sampled, out) -> None:
    """OUT/<name>.yaml, written atomically and validated by load_scenario after writing."""
    from pathlib import Path

    from formats.files import write_text
    from generator.spec.scenario import load_scenario

    path = Path(out) / f"{sampled.draft.name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, sampled.draft.yaml_text())
    load_scenario(path)  # SpecError if the sampler wrote something the loader refuses


def write_batch(sampled: list[Sampled], out) -> dict:
    """Each spec as OUT/<name>.yaml (again: `sample` writes each as it is drawn, so an interrupted
    run keeps what it drew) and OUT/summary.json, written last; every file written atomically."""
    from pathlib import Path

    from formats.files import dumps, write_text

    for s in sampled:
        write_spec(s, out)
    report = summary(sampled)
    write_text(Path(out) / "summary.json", dumps(report))
    return report
