"""results.json, a Markdown table shaped like the paper's Table 3, and bar charts per task."""

from __future__ import annotations

from pathlib import Path

from formats import base, files
from formats.release import EvalResults

ABSTRACTIVE = (("memory_action", "Mem."), ("map_direction", "MDir."), ("map_scale", "MScA."),
               ("simulation", "Sim."), ("global_counting", "Glob."))
EXTRACTIVE = (("appearance_order", "Order"), ("relative_direction", "Dir."), ("relative_distance", "Dist."),
              ("route_plan", "Route"), ("object_counting", "Obj."))


def results_model(scores: dict, release_hash: str) -> EvalResults:
    return base.load_model({"format": EvalResults.FORMAT, "release": release_hash, **scores}, EvalResults,
                           "results.json")


def _cell(value) -> str:
    if value is None:
        return "N/A"
    if isinstance(value, dict):
        std = f" ± {value['std']:.1f}" if value.get("runs", 1) > 1 else ""
        return f"{value['mean']:.1f}{std}"
    return f"{value:.1f}"


def table(scores: dict) -> str:
    """Models x tasks, accuracy in % (MCQ: letter; counting: exact match), mean ± std over runs."""
    head = ["Models", *[a for _, a in ABSTRACTIVE], "Avg.", *[a for _, a in EXTRACTIVE], "Avg."]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    random = scores["random"]
    lines.append("| Random | " + " | ".join([*[_cell(random.get(t)) for t, _ in ABSTRACTIVE],
                                              _cell(random.get("abstractive")),
                                              *[_cell(random.get(t)) for t, _ in EXTRACTIVE],
                                              _cell(random.get("extractive"))]) + " |")
    for name, m in scores["models"].items():
        tasks = m["tasks"]
        cells = [*[_cell(tasks[t]["accuracy"]) if t in tasks else "-" for t, _ in ABSTRACTIVE],
                 _cell(m["regimes"].get("abstractive")),
                 *[_cell(tasks[t]["accuracy"]) if t in tasks else "-" for t, _ in EXTRACTIVE],
                 _cell(m["regimes"].get("extractive"))]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    extra = ["", "| Model | runs | overall | 95% CI | Obj. MRA | Glob. MRA | free-form | grid mIoU | unparsed | "
             "missing | t-test vs reference |", "|" + "---|" * 11]
    for name, m in scores["models"].items():
        tasks = m["tasks"]
        free = [t["free_form"]["mean"] for t in tasks.values() if "free_form" in t]
        ci = m["overall"]["ci95"]
        test = m.get("ttest")
        extra.append(" | ".join([
            f"| {name}", str(m["runs"]), _cell(m["overall"]), f"[{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "-",
            _cell(tasks.get("object_counting", {}).get("mra")), _cell(tasks.get("global_counting", {}).get("mra")),
            _cell(sum(free) / len(free)) if free else "N/A",
            _cell(m["grid_miou"]["mean"]) if m.get("grid_miou") else "N/A", str(m["unparsed"]), str(m["missing"]),
            (f"t={test['t']}, p={test['p']}" if test else "-") + " |"]))
    return "\n".join(lines + extra) + "\n"


def charts(scores: dict, folder: Path) -> list[Path]:
    """One PNG per task: a bar per model (mean accuracy over runs) with its 95% CI, and the Random line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    tasks = sorted({t for m in scores["models"].values() for t in m["tasks"]})
    names = list(scores["models"])
    for task in tasks:
        fig, ax = plt.subplots(figsize=(max(3.0, 1.0 + 0.8 * len(names)), 3.0), dpi=100)
        means, errors = [], [[], []]
        for name in names:
            acc = scores["models"][name]["tasks"][task]["accuracy"]
            means.append(acc["mean"])
            low, high = acc["ci95"] or [acc["mean"], acc["mean"]]
            errors[0].append(max(0.0, acc["mean"] - low))
            errors[1].append(max(0.0, high - acc["mean"]))
        ax.bar(range(len(names)), means, yerr=errors, capsize=4, color="#4c72b0")
        chance = scores["random"].get(task)
        if chance is not None:
            ax.axhline(chance, color="#c44e52", linestyle="--", label="Random")
            ax.legend(loc="upper right", fontsize=7)
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=7)
        ax.set_ylim(0, 100)
        ax.set_ylabel("accuracy (%)")
        ax.set_title(task)
        fig.tight_layout()
        path = folder / f"{task}.png"
        fig.savefig(path, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    return written


def write_report(scores: dict, release_hash: str, out: Path) -> list[Path]:
    """results.json, results.md and charts/<task>.png in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    base.write_model(out / "results.json", results_model(scores, release_hash))
    files.write_text(out / "results.md", table(scores))
    return [out / "results.json", out / "results.md", *charts(scores, out / "charts")]
