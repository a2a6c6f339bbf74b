"""`egoscene release`: a release built from two small rendered scenarios loads with `datasets`,
its VSI-Bench view is scored by lmms-eval's own vsibench utils.py (unchanged copy in
tests/fixtures/lmms_eval_vsibench), its letters are balanced, it is deterministic, atomic and
checksummed, and `egoscene eval` scores oracle answers 100% and constant answers at chance."""

from __future__ import annotations

import csv
import importlib.util
import json
import shutil
import sys
import types
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest
import yaml

from egoscene import pipeline
from egoscene.cli import main
from egoscene.release import build, views
from egoscene.release.collect import ReleaseError
from formats.base import read_model, read_records
from formats.queries import QueryRecord
from formats.release import EvalResults, ReleaseRow

ROOT = Path(__file__).resolve().parents[1]
LMMS = Path(__file__).parent / "fixtures" / "lmms_eval_vsibench"
SIZE = {"width": 96, "height": 72}
pytestmark = pytest.mark.render


@pytest.fixture(scope="module")
def folders(tmp_path_factory, rendered_as_published):
    """Two rendered scenarios in one output root: scenario-05 as the session rendered it at
    160x120 (conftest.py), and scenario-06 rendered here at 96x72 (a release takes any size)."""
    out = tmp_path_factory.mktemp("scenarios")
    shutil.copytree(rendered_as_published, out / rendered_as_published.name)
    six = pipeline.generate(ROOT / "scenarios" / "scenario-06.yaml", out, pipeline.Options(**SIZE)).folder
    return [out / rendered_as_published.name, six]


@pytest.fixture(scope="module")
def release(folders, tmp_path_factory):
    return build.build_release(folders, tmp_path_factory.mktemp("rel") / "REL")


@pytest.fixture(scope="module")
def rows(release):
    return read_records(release / "data" / "all.jsonl", ReleaseRow)


def _load(release, tmp_path, monkeypatch, *config):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    import datasets

    return datasets.load_dataset(str(release), *config, split="test", cache_dir=str(tmp_path / "cache"))


def test_loads_with_datasets_in_every_config(release, rows, folders, tmp_path, monkeypatch):
    records = [r for f in folders for r in read_records(f / "queries.jsonl", QueryRecord)]
    everything = _load(release, tmp_path, monkeypatch)
    assert len(everything) == len(rows) == len(records)
    assert sorted(everything["id"]) == sorted(r.id for r in records)
    first = everything[0]
    assert json.loads(first["derivation"]) == next(r.derivation for r in records if r.id == first["id"])
    assert len(first["frames"]) == 32 and all((release / f).is_file() for f in first["frames"])
    for task in sorted({r.task for r in rows}):
        part = _load(release, tmp_path, monkeypatch, task)
        assert set(part["task"]) == {task} and len(part) == sum(r.task == task for r in rows)
    vsi = _load(release, tmp_path, monkeypatch, "vsibench")
    assert set(vsi.column_names) >= {"id", "dataset", "scene_name", "question_type", "question", "options",
                                     "ground_truth"}
    assert set(vsi["dataset"]) == {"egoscene"} and set(vsi["scene_name"]) == {f.name for f in folders}


def _lmms_utils(monkeypatch, hf_home: Path):
    """lmms-eval's vsibench utils.py imported as it is; only loguru (not installed here) is stubbed."""
    monkeypatch.setenv("HF_HOME", str(hf_home))
    logger = types.SimpleNamespace(info=lambda *a, **k: None, warning=lambda *a, **k: None)
    monkeypatch.setitem(sys.modules, "loguru", types.SimpleNamespace(logger=logger))
    spec = importlib.util.spec_from_file_location("lmms_vsibench_utils", LMMS / "utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lmms_score(utils, docs, answer) -> dict:
    results = [utils.vsibench_process_results(dict(doc), [answer(doc)])["vsibench_overall"] for doc in docs]
    return utils._compute_all_subscores(results), utils.vsibench_aggregate_overall(results)


def test_vsi_view_is_scored_by_lmms_eval_vsibench_code_unchanged(release, rows, tmp_path, monkeypatch):
    docs = list(_load(release, tmp_path, monkeypatch, "vsibench"))
    utils = _lmms_utils(monkeypatch, tmp_path / "hf")
    assert {d["question_type"] for d in docs} >= {"object_rel_direction_easy", "object_rel_direction_medium",
                                                  "object_rel_direction_hard", "object_counting"}
    subscores, overall = _lmms_score(utils, docs, lambda d: d["ground_truth"])
    assert overall == 1.0 and all(v == 1.0 for v in subscores.values())
    # constant answers: lmms-eval's numbers are the share of letter A / the MRA of answering 2
    subscores, _ = _lmms_score(utils, docs, lambda d: "A" if d["options"] else "2")
    from egoscene.eval.metrics import mra

    for qtype in {d["question_type"] for d in docs} - {"object_counting"} - {
            "object_rel_direction_easy", "object_rel_direction_medium", "object_rel_direction_hard"}:
        mine = [d for d in docs if d["question_type"] == qtype]
        assert subscores[f"{qtype}_accuracy"] == pytest.approx(np.mean([d["ground_truth"] == "A" for d in mine]))
    counting = [d for d in docs if d["question_type"] == "object_counting"]
    assert subscores["object_counting_MRA:.5:.95:.05"] == pytest.approx(
        np.mean([mra(2, float(d["ground_truth"])) for d in counting]))
    # prompts build, and the video is found where the card says to put it
    assert "Options:\nA. " in utils.vsibench_doc_to_text(next(d for d in docs if d["options"]))
    target = tmp_path / "hf" / "vsibench" / "egoscene"
    target.mkdir(parents=True)
    for video in release.glob("*/video.mp4"):
        shutil.copyfile(video, target / f"{video.parent.name}.mp4")
    assert utils.vsibench_doc_to_visual(docs[0]) == [str(target / f"{docs[0]['scene_name']}.mp4")]


def test_task_yaml_reuses_the_vsibench_template(release, tmp_path, monkeypatch):
    text = (release / "lmms_eval" / "egoscene_vsibench.yaml").read_text()
    own = yaml.safe_load(text)
    assert own["include"] == "_default_template_yaml" and own["dataset_name"] == "vsibench"
    loader = type("L", (yaml.SafeLoader,), {})
    loader.add_constructor("!function", lambda ld, node: ld.construct_scalar(node))
    template = yaml.load((LMMS / own["include"]).read_text(), Loader=loader)
    merged = {**template, **own}
    assert merged["process_results"] == "utils.vsibench_process_results"
    assert merged["doc_to_target"] == "ground_truth" and merged["dataset_kwargs"]["cache_dir"] == "vsibench"
    data = _load(release, tmp_path, monkeypatch, merged["dataset_name"])
    assert len(data) > 0


def test_vaex_view(release, rows):
    with open(release / "vaex" / "vaex.csv", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0]) == ["video_id", "question", "question_type", "answer"]
    assert len(table) == sum(r.format != "free_form" for r in rows)
    ids = sorted({int(t["video_id"]) for t in table})
    assert ids == [1, 2]
    for scenario, number in views.vaex_video_ids(sorted({r.scenario for r in rows})).items():
        assert (release / "vaex" / f"video{number}.mp4").read_bytes() == (release / scenario / "video.mp4").read_bytes()
    mcq = next(t for t in table if "Choices: (A) " in t["question"])
    assert mcq["answer"] in "ABCDE"


def test_letters_are_balanced_and_twins_follow(release, rows, folders):
    originals = {r.id: r for f in folders for r in read_records(f / "queries.jsonl", QueryRecord)}
    by_n: dict[int, Counter] = defaultdict(Counter)
    by_id = {r.id: r for r in rows}
    for r in rows:
        if r.format != "mcq":
            continue
        by_n[len(r.options)][r.answer] += 1
        assert sorted(r.options) == sorted(originals[r.id].options)
        assert r.options["ABCDE".index(r.answer)] == r.answer_text == originals[r.id].answer_text
        twin = by_id.get(r.id + "-ff")
        if twin is not None:
            assert twin.answer == r.answer_text
        if r.task == "relative_distance":  # the question lists the options in their new order
            assert f"({', '.join(r.options)})" in r.question
    for n, counts in by_n.items():
        total = sum(counts.values())
        for letter in "ABCDE"[:n]:
            assert abs(counts[letter] - total / n) <= 2, (n, counts)


def test_card_states_versions_specs_counts_balance_and_license(release, rows, folders):
    text = (release / "README.md").read_text()
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["license"] == "mit"
    names = {c["config_name"] for c in front["configs"]}
    assert {"default", "vsibench"} | {r.task for r in rows} == names
    for config in front["configs"]:
        assert (release / config["data_files"][0]["path"]).is_file()
        assert (release / config["data_files"][0]["path"]).with_suffix(".jsonl").is_file()
    assert "egoscene 0.1.0" in text and "## Letter balance" in text and "How answers were derived" in text
    for f in folders:
        assert f"**{f.name}**" in text
        frames = sorted((release / f.name / "frames").glob("*.jpg"))
        total = read_model(f / "manifest.json", pipeline.Manifest).walk.frames
        assert [int(p.stem.split("_")[1]) for p in frames] == list(np.linspace(0, total - 1, 32, dtype=int))
    for task, count in Counter(r.task for r in rows if r.format != "free_form").items():
        assert f"| {task} |" in text


def test_checksums_and_verify(release, tmp_path):
    assert main(["release", "--verify", str(release)]) == 0
    listed = [line.split("  ", 1)[1] for line in (release / "SHA256SUMS").read_text().splitlines()]
    assert sorted(listed) == sorted(p.relative_to(release).as_posix() for p in release.rglob("*")
                                    if p.is_file() and p.name != "SHA256SUMS")
    copy = tmp_path / "copy"
    shutil.copytree(release, copy)
    (copy / "data" / "all.jsonl").write_text("changed\n")
    (copy / "extra.txt").write_text("x")
    (copy / "vaex" / "vaex.csv").unlink()
    from egoscene.release.verify import verify

    problems = verify(copy)
    assert any(p.startswith("data/all.jsonl: checksum differs") for p in problems)
    assert any(p.startswith("extra.txt: not listed") for p in problems)
    assert any(p.startswith("vaex/vaex.csv: listed") for p in problems)
    assert main(["release", "--verify", str(copy)]) == 1


def test_release_is_deterministic_and_atomic(release, folders, tmp_path, monkeypatch):
    again = build.build_release(list(reversed(folders)), tmp_path / "again")
    assert (again / "SHA256SUMS").read_bytes() == (release / "SHA256SUMS").read_bytes()
    assert main(["release", "--verify", str(again)]) == 0

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(build.card, "card", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build.build_release(folders, tmp_path / "cut")
    assert not (tmp_path / "cut").exists() and not list(tmp_path.glob(".cut*"))
    with pytest.raises(KeyboardInterrupt):  # over an existing release: the old one stays whole
        build.build_release(folders, again)
    assert main(["release", "--verify", str(again)]) == 0 and not list(tmp_path.glob(".again*"))


def _predictions(path: Path, rows, answer) -> Path:
    path.write_text("".join(json.dumps({"id": r.id, "prediction": answer(r), "model": "m"}) + "\n" for r in rows))
    return path


def test_eval_oracle_is_perfect_and_constant_is_chance(release, rows, tmp_path):
    oracle = _predictions(tmp_path / "oracle.jsonl", rows, lambda r: r.answer)
    assert main(["eval", str(oracle), "--release", str(release), "--out", str(tmp_path / "o")]) == 0
    scores = read_model(tmp_path / "o" / "results.json", EvalResults).models["m"]
    assert scores["overall"]["mean"] == 100.0 and (scores["unparsed"], scores["missing"]) == (0, 0)
    assert all(t["accuracy"]["mean"] == 100.0 and t.get("free_form", {"mean": 100.0})["mean"] == 100.0
               for t in scores["tasks"].values())

    constant = _predictions(tmp_path / "a.jsonl", rows, lambda r: "A" if r.format == "mcq" else "2")
    assert main(["eval", str(constant), "--release", str(release), "--out", str(tmp_path / "a")]) == 0
    result = read_model(tmp_path / "a" / "results.json", EvalResults)
    for task, entry in result.models["m"]["tasks"].items():
        main_rows = [r for r in rows if r.task == task and r.format != "free_form"]
        expected = 100 * np.mean([r.answer == ("A" if r.format == "mcq" else "2") for r in main_rows])
        assert entry["accuracy"]["mean"] == pytest.approx(expected, abs=1e-3)
    # over the release, answering A is right on 1/n of the n-option questions, within one question
    for n in {len(r.options) for r in rows if r.format == "mcq"}:
        group = [r for r in rows if r.format == "mcq" and len(r.options) == n]
        assert abs(sum(r.answer == "A" for r in group) - len(group) / n) <= 1


def test_blind_baseline_is_stated_and_near_chance(release, rows):
    from egoscene.eval.blind import blind_predictions
    from egoscene.eval.score import evaluate

    scores = evaluate(rows, blind_predictions(rows))
    mcq = [r for r in rows if r.format == "mcq"]
    blind = {p.id: p.prediction for p in blind_predictions(rows)}
    hits = np.mean([blind[r.id] == r.answer for r in mcq])
    chance = np.mean([1 / len(r.options) for r in mcq])
    print(f"blind MCQ accuracy {hits:.3f} vs chance {chance:.3f} over {len(mcq)} MCQs; "
          f"overall {scores['models']['blind']['overall']['mean']}")
    assert hits <= chance + 0.15
    assert "| overall" in (release / "README.md").read_text()


def test_an_output_root_stands_for_its_scenarios(folders, tmp_path):
    from egoscene.release.collect import expand

    assert expand([folders[0].parent]) == sorted(folders)
    assert expand([folders[1]]) == [folders[1]] and expand([tmp_path]) == [tmp_path]


def test_bad_inputs_are_refused(tmp_path, folders):
    assert main(["release", str(tmp_path), "--out", str(tmp_path / "r")]) == 2  # no queries.jsonl etc.
    assert main(["release", str(folders[0]), str(folders[0]), "--out", str(tmp_path / "r")]) == 2
    assert main(["release", "--out", str(tmp_path / "r")]) == 2
    assert not (tmp_path / "r").exists()
