"""The dataset card (`README.md` with YAML front matter that `datasets` reads) and the
lmms-eval task yaml of a release."""

from __future__ import annotations

from collections import Counter

import yaml

from egoscene.release.collect import ScenarioIn
from formats.release import ReleaseRow

LICENSE = "mit"
TASK_YAML = "lmms_eval/egoscene_vsibench.yaml"
CITATIONS = """\
- VAEX-Bench: Bang and Song, *Reasoning over Video: Evaluating How MLLMs Extract, Integrate, and Reconstruct
  Spatiotemporal Evidence*, arXiv:2603.13091 (task definitions, question templates, prompts).
- VSI-Bench: Yang et al., *Thinking in Space: How Multimodal Large Language Models See, Remember, and Recall
  Spaces*, arXiv:2412.14171 (extractive task wording, MRA metric, the `vsibench` view).
"""


def configs(tasks: list[str]) -> list[dict]:
    def one(name: str, path: str) -> dict:
        return {"config_name": name, "data_files": [{"split": "test", "path": path}]}

    return ([one("default", "data/all.parquet"), one("vsibench", "data/vsibench.parquet")]
            + [one(task, f"data/tasks/{task}.parquet") for task in tasks])


def task_yaml() -> str:
    """lmms-eval task reusing the vsibench template and utils.py (resolved by `include`)."""
    data = {"include": "_default_template_yaml", "task": "egoscene_vsibench", "dataset_path": ".",
            "dataset_name": "vsibench", "test_split": "test",
            "dataset_kwargs": {"cache_dir": "vsibench", "video": True, "local_files_only": True}}
    return ("# lmms-eval task for the egoscene release's VSI-Bench view (see the release's README.md).\n"
            "# `include` names lmms-eval's own lmms_eval/tasks/vsibench/_default_template_yaml; put its full path here,\n"
            "# or copy this file into that folder. `dataset_path` is the release folder.\n"
            + yaml.safe_dump(data, sort_keys=True))


def _table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _scenario_section(s: ScenarioIn) -> str:
    m, scene = s.manifest, s.scene
    objects: dict[str, Counter] = {}
    for obj in scene.objects:
        objects.setdefault(obj.room, Counter())[obj.category] += 1
    rooms = "; ".join(f"{room.label}: " + ", ".join(f"{c} x{n}" if n > 1 else c for c, n in
                                                   sorted(objects.get(room.label, Counter()).items()))
                      for room in scene.rooms)
    walk = " -> ".join(m.walk.rooms_visited) if m.walk else "(not recorded)"
    seconds = m.walk.duration_s if m.walk else "?"
    return (f"- **{m.name}** ({scene.typology}, {len(scene.floors)} floor(s), seed {m.seed}; spec `{m.spec}`, "
            f"spec sha256 `{m.spec_hash[:16]}`; video {m.options.width}x{m.options.height}, {seconds} s). "
            f"Walk: {walk}. Rooms and objects: {rooms}.")


def card(scenarios: list[ScenarioIn], rows: list[ReleaseRow], vsi_count: int, vaex_count: int,
         letters: dict[int, dict[str, int]], baselines: dict) -> str:
    tasks = sorted({r.task for r in rows})
    versions = sorted({s.manifest.versions.get("egoscene", "?") for s in scenarios})
    front = {"license": LICENSE, "pretty_name": "egoscene synthetic egocentric spatial reasoning",
             "language": ["en"], "task_categories": ["video-text-to-text", "visual-question-answering"],
             "tags": ["egocentric", "spatial-reasoning", "synthetic", "vaex-bench", "vsi-bench"],
             "size_categories": ["n<1K"] if len(rows) < 1000 else ["1K<n<10K"], "configs": configs(tasks)}
    per_task = Counter((r.task, r.format) for r in rows)
    task_rows = [[t, per_task[(t, "mcq")], per_task[(t, "number")], per_task[(t, "free_form")]] for t in tasks]
    letter_rows = [[n, *[f"{letter}: {count}" for letter, count in sorted(c.items())]]
                   for n, c in sorted(letters.items())]
    width = max((len(r) for r in letter_rows), default=1)
    letter_rows = [r + [""] * (width - len(r)) for r in letter_rows]
    base_rows = [[t, _pct(baselines["random"].get(t)), _pct(baselines["blind"].get(t))] for t in tasks]
    base_rows.append(["overall (mean over the tasks with a value)", _pct(baselines["random"].get("overall")),
                      _pct(baselines["blind"].get("overall"))])
    sections = [
        "---\n" + yaml.safe_dump(front, sort_keys=False) + "---\n",
        "# egoscene release\n",
        f"{len(scenarios)} synthetic egocentric indoor scenario(s), {len(rows)} questions "
        f"(MCQ, counting, and a free-form twin of every MCQ). Made by egoscene {', '.join(versions)} "
        f"(code fingerprints per stage in each `<scenario>/manifest.json`). License: MIT.\n",
        "## Loading\n\n```python\nimport datasets\nrows = datasets.load_dataset(\"REL\", split=\"test\")        "
        "# all tasks, egoscene schema\nvsi = datasets.load_dataset(\"REL\", \"vsibench\", split=\"test\")\n"
        "one = datasets.load_dataset(\"REL\", \"map_scale\", split=\"test\")\n```\n\n"
        "Configs: `default` (every question, egoscene's schema, docs/formats/release.schema.json in egoscene), "
        "`vsibench` (the VSI-Bench view), and one per task. Each is parquet in `data/` with JSONL beside it.\n",
        "## Files\n\n- `data/all.parquet|jsonl`, `data/tasks/<task>.parquet|jsonl`, `data/vsibench.parquet|jsonl`\n"
        "- `<scenario>/video.mp4` and its scene.json, trajectory.json, visibility.json, grid.json (10x10 floor-plan "
        "ground truth), grid_prompt.txt, floorplan.png, manifest.json\n"
        "- `<scenario>/frames/frame_<index>.jpg`: 32 uniformly sampled frames (indices "
        "`numpy.linspace(0, n - 1, 32, dtype=int)`, as lmms-eval samples), the input the paper feeds to models\n"
        "- `vaex/vaex.csv` (`video_id, question, question_type, answer`) and `vaex/video<id>.mp4`: the layout the "
        "VAEX-Bench evaluation scripts read\n"
        f"- `{TASK_YAML}`: an lmms-eval task for the VSI-Bench view\n"
        "- `SHA256SUMS`: every file's checksum; `egoscene release --verify REL` checks them.\n",
        "## Scenarios\n\n" + "\n".join(_scenario_section(s) for s in scenarios) + "\n",
        "## Questions per task\n\n" + _table(["task", "mcq", "number", "free_form"], task_rows) + "\n",
        "## Letter balance\n\nCorrect letter per option count over the whole release (each position within 1 "
        "of even; options re-ordered at release time, free-form twins unchanged):\n\n"
        + _table(["options", *["" for _ in range(width - 1)]], letter_rows) + "\n",
        "## Baselines without the video\n\nRandom: expected accuracy from the option counts (the paper's Table 3 "
        "row; counting has none). Blind: a text-only model (answer priors and option-text features learned on the "
        "other scenarios of this release, leave-one-scenario-out) scored by `egoscene eval`. Accuracy in %:\n\n"
        + _table(["task", "random", "blind"], base_rows) + "\n",
        "## How answers were derived and checked\n\nEvery answer is computed from the scene's geometry, the "
        "camera walk and an instance-ID render (an object counts as seen where it covers at least 0.1% of the frame "
        "for 0.5 s), under the validity rules of egoscene's SPEC section 5 (one true option, margins, unique "
        "names). Each scenario's questions were re-derived by an independent checker that shares no code with "
        "the generator (`egoscene check`), and the folder is published only when they agree. No human audit "
        "was made for this release.\n",
        f"## VSI-Bench view and lmms-eval\n\n`data/vsibench.*` has {vsi_count} rows in VSI-Bench's columns "
        "(`dataset` is `egoscene`, `scene_name` the scenario, `options` lettered, `ground_truth` the letter or the "
        "number). Question types: object_counting, object_rel_distance, object_rel_direction_easy/medium/hard, "
        "route_planning, obj_appearance_order; the other egoscene tasks are not in this view. lmms-eval's vsibench "
        "code reads each video from `$HF_HOME/vsibench/egoscene/<scene_name>.mp4` and unpacks videos only into a "
        "`vsibench` cache folder that does not exist yet, so place them by hand:\n\n```bash\n"
        "HF=${HF_HOME:-~/.cache/huggingface}; mkdir -p $HF/vsibench/egoscene\n"
        "for v in REL/*/video.mp4; do cp \"$v\" $HF/vsibench/egoscene/$(basename $(dirname \"$v\")).mp4; done\n"
        "T=$(python -c \"import importlib.util,os;print(os.path.dirname(importlib.util.find_spec('lmms_eval').origin))\")\n"
        f"sed -i \"s#^include: .*#include: $T/tasks/vsibench/_default_template_yaml#\" REL/{TASK_YAML}\n"
        "cd REL && lmms-eval --model ... --tasks egoscene_vsibench --include_path lmms_eval\n```\n\n"
        "If you evaluate VSI-Bench itself on the same machine and have not yet, run it first (or with "
        "`force_unzip: True`), since the folder made above stops lmms-eval from unpacking VSI-Bench's videos.\n",
        f"## VAEX-Bench view\n\n`vaex/vaex.csv`: {vaex_count} MCQ and counting questions; video `video<id>.mp4` "
        "beside it (ids in scenario-name order). MCQs list their choices as `Choices: (A) ... (B) ...`.\n",
        "## Citation\n\n" + CITATIONS,
    ]
    return "\n".join(sections)


def _pct(value) -> str:
    return "N/A" if value is None else f"{value:.1f}"
