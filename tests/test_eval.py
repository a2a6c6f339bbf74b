"""`egoscene eval`: answer parsing, metrics with hand-computed values, and the example predictions
file (tests/fixtures/eval_example) scored end to end with numbers worked out by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from egoscene.cli import main
from egoscene.eval.metrics import mra, paired_ttest, random_accuracy, summary
from egoscene.eval.parse import parse_choice, parse_number
from egoscene.eval.score import EvalError, load_release, read_predictions
from formats.base import read_model
from formats.release import EvalResults

EXAMPLE = Path(__file__).parent / "fixtures" / "eval_example"
OPTIONS = ["chair", "sofa", "table", "tv"]


@pytest.mark.parametrize("text,letter", [
    ("B", "B"), ("(B)", "B"), ("**B**", "B"), ("B. sofa", "B"), ("The answer is B", "B"), ("b)", "B"),
    ("sofa", "B"), ("  Sofa. ", "B"), ("Answer: (c)", "C"), ("[D]", "D"), ("The answer is the tv.", "D"),
    ("I think it is the table", "C"), ("B.", "B"), ("option b", "B"), ("The answer is a table", "C"),
    ("My choice: [d]", "D"), ("Answer: B, the sofa", "B"),
])
def test_choices_are_read_from_messy_text(text, letter):
    assert parse_choice(text, OPTIONS) == letter


@pytest.mark.parametrize("text", ["", "I don't know", "E", "a chair or a sofa", "chair, sofa", None,
                                  "The answer is a chair or a sofa"])
def test_unreadable_or_ambiguous_choices_are_none(text):
    assert parse_choice(text, OPTIONS) is None


def test_option_texts_that_contain_each_other():
    options = ["turn left, turn right", "turn left", "turn back, turn left"]
    assert parse_choice("turn left", options) == "B"
    assert parse_choice("I would turn left, turn right", options) == "A"


@pytest.mark.parametrize("text,value", [
    ("3", 3.0), ("3.5", 3.5), ("There are 4 chairs.", 4.0), ("three", 3.0), ("Three chairs", 3.0),
    ("twenty-one", 21.0), ("one hundred and five", 105.0), ("one apple, room 2", 1.0), ("1,200", 1200.0),
    ("none", None), ("", None), (None, None),
])
def test_numbers_are_read_as_digits_or_words(text, value):
    assert parse_number(text) == value


def test_mra_by_hand():
    # |9 - 8| / 8 = 0.125 <= 1 - t for t = 0.50 ... 0.85 (8 of the 10 thresholds)
    assert mra(9, 8) == pytest.approx(0.8)
    assert mra(8, 8) == 1.0 and mra(17, 10) == 0.0 and mra(None, 5) == 0.0
    # |2.1 - 2| / 2 = 0.05: every threshold but 0.95 (1 - 0.95 = 0.05 is on the edge: lmms-eval's `<=`
    # with floating point 1 - 0.95 = 0.050000000000000044 counts it)
    assert mra(2.1, 2) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        mra(1, 0)


def test_summary_and_ttest_by_hand():
    s = summary([100.0, 0.0])
    assert s["mean"] == 50.0 and s["std"] == pytest.approx(70.7107, abs=1e-4)
    # t(0.975, 1) = 12.7062; half width = 12.7062 * 70.7107 / sqrt(2) = 635.31
    assert s["ci95"] == pytest.approx([-585.31, 685.31], abs=0.01)
    assert summary([40.0])["ci95"] is None
    # differences -0.5, 1, 0.5, 1, 0: mean 0.4, sd sqrt(1.7 / 4), t = 0.4 / (sd / sqrt 5) = 1.3720
    t = paired_ttest([0.5, 1, 0.5, 1, 0], [1, 0, 0, 0, 0])
    assert t["t"] == pytest.approx(1.3720, abs=1e-4) and t["p"] == pytest.approx(0.2420, abs=1e-4)
    assert paired_ttest([1, 0, 1], [1, 0, 1]) == {"t": 0.0, "p": 1.0, "questions": 3, "mean_difference": 0.0}
    assert random_accuracy([2, 4]) == pytest.approx(37.5) and random_accuracy([]) is None


def test_example_predictions_score_as_computed_by_hand(tmp_path):
    """tests/fixtures/eval_example: 8 questions of a hand-made release, model alpha with 2 runs
    (every answer format of item 6), model beta with 1 run of constant answers."""
    out = tmp_path / "report"
    assert main(["eval", str(EXAMPLE / "predictions.jsonl"), "--release", str(EXAMPLE / "release"),
                 "--reference", "beta", "--out", str(out)]) == 0
    results = read_model(out / "results.json", EvalResults)
    assert results.questions == 8 and results.reference == "beta"
    # Random: map_direction 1/4, memory_action 1/5, relative_direction 1/2; counting has none
    assert results.random == {"map_direction": 25.0, "memory_action": 20.0, "global_counting": None,
                              "relative_direction": 50.0, "object_counting": None, "abstractive": 22.5,
                              "extractive": 50.0, "overall": 31.6667}
    alpha, beta = results.models["alpha"], results.models["beta"]
    tasks = alpha["tasks"]
    # run 0: "The answer is A" ok, "**C**" ok, "ten" = 10 ok, "(B) right" ok, "9" for 8 wrong
    # run 1: "B" wrong, "working" (option text) ok, "seventeen" wrong, "b)" ok, "I cannot tell" unparsed
    assert tasks["map_direction"]["accuracy"]["mean"] == 50.0
    assert tasks["memory_action"]["accuracy"] == {"mean": 100.0, "std": 0.0, "ci95": [100.0, 100.0], "runs": 2}
    assert tasks["global_counting"]["accuracy"]["mean"] == 50.0
    assert tasks["relative_direction"]["accuracy"]["mean"] == 100.0
    assert tasks["object_counting"]["accuracy"]["mean"] == 0.0
    # MRA: 9 for 8 -> 0.8, unparsed -> 0; "ten" -> 1, 17 for 10 -> 0
    assert tasks["object_counting"]["mra"]["mean"] == 40.0 and tasks["global_counting"]["mra"]["mean"] == 50.0
    # free form: run 0 "north", "You can read or work there" (both possible in the study), "Right." all
    # right; run 1 "south-west", "Cooking", "left" all wrong
    for task in ("map_direction", "memory_action", "relative_direction"):
        assert tasks[task]["free_form"]["mean"] == 50.0
    # regimes per run: abstractive (100+100+100)/3, (0+100+0)/3; extractive (100+0)/2 both runs
    assert alpha["regimes"]["abstractive"]["mean"] == pytest.approx(66.6667, abs=1e-4)
    assert alpha["regimes"]["abstractive"]["std"] == pytest.approx(47.1405, abs=1e-4)
    assert alpha["regimes"]["extractive"]["mean"] == 50.0
    # overall per run 80 and 40: mean 60, std 28.2843, CI 60 +- 12.7062 * 20
    assert alpha["overall"]["mean"] == 60.0 and alpha["overall"]["std"] == pytest.approx(28.2843, abs=1e-4)
    assert alpha["overall"]["ci95"] == pytest.approx([-194.12, 314.12], abs=0.01)
    assert (alpha["runs"], alpha["unparsed"], alpha["missing"]) == (2, 1, 0)
    # grid: run 0 the ground truth itself (100), run 1 "no idea" (malformed, 0)
    assert alpha["grid_miou"] == {"mean": 50.0, "scenarios": {"toy": 50.0}}
    # beta answers A, A, 2, A, 2 and no free form: only map_direction right
    assert beta["overall"]["mean"] == 20.0 and (beta["runs"], beta["missing"]) == (1, 3)
    assert alpha["ttest"] == {"t": 1.372, "p": 0.242, "questions": 5, "mean_difference": 40.0}
    table = (out / "results.md").read_text()
    assert "| Random | 20.0 | 25.0 | N/A | N/A | N/A | 22.5 |" in table
    assert "| beta | 0.0 | 100.0 | - | - | 0.0 | 33.3 |" in table
    assert sorted(p.name for p in (out / "charts").iterdir()) == sorted(f"{t}.png" for t in tasks)
    assert (out / "charts" / "map_direction.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_predictions_are_refused_naming_file_and_line(tmp_path):
    ids = {r.id for r in load_release(EXAMPLE / "release")}
    bad = tmp_path / "p.jsonl"
    for text, expected in [('{"id": "toy/nope/1", "prediction": "A"}', "p.jsonl:1: id 'toy/nope/1'"),
                           ('{"prediction": "A"}', "p.jsonl:1: id: missing"),
                           ("not json", "p.jsonl:1: not JSON"),
                           ('{"id": "toy/map_direction/1", "prediction": "A"}\n'
                            '{"id": "toy/map_direction/1", "prediction": "B"}', "p.jsonl:2: a second prediction")]:
        bad.write_text(text + "\n")
        with pytest.raises(EvalError, match=expected.replace("(", r"\(")):
            read_predictions(bad, ids)
    assert main(["eval", str(bad), "--release", str(tmp_path)]) == 2


def test_unknown_reference_model_is_refused(tmp_path):
    code = main(["eval", str(EXAMPLE / "predictions.jsonl"), "--release", str(EXAMPLE / "release"),
                 "--reference", "gamma", "--out", str(tmp_path)])
    assert code == 2 and not (tmp_path / "results.json").exists()


def test_results_are_deterministic(tmp_path):
    for name in ("a", "b"):
        assert main(["eval", str(EXAMPLE / "predictions.jsonl"), "--release", str(EXAMPLE / "release"),
                     "--out", str(tmp_path / name)]) == 0
    for rel in ("results.json", "results.md", "charts/memory_action.png"):
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()
    assert json.loads((tmp_path / "a" / "results.json").read_text())["reference"] is None
    assert not math.isnan(json.loads((tmp_path / "a" / "results.json").read_text())["random"]["overall"])
