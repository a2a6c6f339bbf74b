"""Build a release folder from finished scenario folders, atomically and byte-deterministically."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from egoscene.release import card, collect, frames, views
from egoscene.release.verify import write_sums
from formats import base, files
from formats.release import ReleaseRow


def _arrow_schemas():
    import pyarrow as pa

    strings = pa.list_(pa.string())
    release = pa.schema([
        ("schema", pa.string()), ("id", pa.string()), ("scenario", pa.string()), ("task", pa.string()),
        ("category", pa.string()), ("regime", pa.string()), ("format", pa.string()), ("question", pa.string()),
        ("options", strings), ("answer", pa.string()), ("answer_text", pa.string()),
        ("evidence", pa.struct([("objects", strings), ("rooms", strings), ("frames", pa.list_(pa.int64()))])),
        ("derivation", pa.string()), ("video", pa.string()), ("frames", strings)])
    vsi = pa.schema([("id", pa.int64()), ("dataset", pa.string()), ("scene_name", pa.string()),
                     ("question_type", pa.string()), ("question", pa.string()), ("options", strings),
                     ("ground_truth", pa.string()), ("egoscene_id", pa.string())])
    return release, vsi


def _write_table(path: Path, rows: list[dict], schema) -> None:
    """`path`.parquet and `path`.jsonl with the same rows (sorted keys in JSONL)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path.with_suffix(".parquet"), compression="zstd")
    files.write_text(path.with_suffix(".jsonl"),
                     "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows))


def _baselines(rows: list[ReleaseRow]) -> dict:
    from egoscene.eval.blind import blind_predictions
    from egoscene.eval.score import evaluate, random_baseline

    blind = evaluate(rows, blind_predictions(rows))["models"]["blind"]
    scores = {t: v["accuracy"]["mean"] for t, v in blind["tasks"].items()}
    scores["overall"] = blind["overall"]["mean"]
    return {"random": random_baseline(rows), "blind": scores}


def build_release(folders: list[Path], out: Path) -> Path:
    """Write the release to `out` (through a hidden staging folder renamed into place at the end)."""
    scenarios = collect.load_all([Path(f) for f in folders])
    records = collect.balanced_records(scenarios)
    out = Path(out)
    release_schema, vsi_schema = _arrow_schemas()
    with files.staged_folder(out) as staging:
        sampled: dict[str, list[str]] = {}
        for s in scenarios:
            name = s.manifest.name
            (staging / name).mkdir()
            for file in collect.SCENARIO_FILES:
                if (s.folder / file).is_file():
                    shutil.copyfile(s.folder / file, staging / name / file)
            written = frames.write_frames(s.folder / "video.mp4", staging / name / "frames")
            sampled[name] = [f"{name}/frames/{f}" for f in written]
        rows = views.release_rows(records, sampled)
        vsi = views.vsi_rows(rows)
        dumped = [base.dump_model(r) for r in rows]
        _write_table(staging / "data" / "all", dumped, release_schema)
        for task in sorted({r.task for r in rows}):
            _write_table(staging / "data" / "tasks" / task, [d for d in dumped if d["task"] == task], release_schema)
        _write_table(staging / "data" / "vsibench", [r.model_dump(mode="json") for r in vsi], vsi_schema)
        ids = views.vaex_video_ids([s.manifest.name for s in scenarios])
        (staging / "vaex").mkdir()
        vaex = views.vaex_rows(rows, ids)
        files.write_text(staging / "vaex" / "vaex.csv", views.vaex_csv(vaex))
        for name, number in ids.items():
            shutil.copyfile(staging / name / "video.mp4", staging / "vaex" / f"video{number}.mp4")
        (staging / "lmms_eval").mkdir()
        files.write_text(staging / card.TASK_YAML, card.task_yaml())
        text = card.card(scenarios, rows, len(vsi), len(vaex), collect.balance_report(records), _baselines(rows))
        files.write_text(staging / "README.md", text)
        write_sums(staging)
    return out
