"""Floor-plan grid scoring: hand-computed mIoU values, lenient parsing, malformed output."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from queries.grid_prompt import grid_prompt, grid_prompt_for
from egoscene.cli import main as cli_main
from queries.grid_score import parse_grid, score_file, score_grid


def main(argv):
    return cli_main(["grid-score", *argv])

LABELS = ["hallway", "kitchen", "living room", "none"]


def columns_grid(spans: list[tuple[str, int]]) -> list[list[str]]:
    """10 identical rows built from (label, number of columns) spans, left to right."""
    row = [label for label, width in spans for _ in range(width)]
    assert len(row) == 10
    return [list(row) for _ in range(10)]


# kitchen in columns 0-2 (30 cells), living room in 3-5 (30), none in 6-9 (40).
GT = columns_grid([("kitchen", 3), ("living room", 3), ("none", 4)])


def shifted_right(grid: list[list[str]]) -> list[list[str]]:
    return [["none"] + row[:-1] for row in grid]


# --- known answers ---------------------------------------------------------------------


def test_perfect_prediction_scores_one():
    score = score_grid(GT, GT, LABELS)
    assert score.valid and score.reason is None and score.warnings == []
    assert score.miou == 1.0 and score.miou_with_none == 1.0
    assert score.per_label == {"kitchen": 1.0, "living room": 1.0, "none": 1.0}


def test_all_none_prediction():
    score = score_grid([["none"] * 10 for _ in range(10)], GT, LABELS)
    assert score.valid
    assert score.miou == 0.0
    # none: 40 gt cells all predicted, union the whole grid -> 40/100; mean of 3 classes.
    assert score.per_label["none"] == pytest.approx(0.4)
    assert score.miou_with_none == pytest.approx(0.4 / 3)


def test_all_none_on_small_grid():
    # one room cell out of four: none IoU = 3/4, room IoU = 0 -> (0.75 + 0) / 2
    score = score_grid([["none", "none"], ["none", "none"]],
                       [["kitchen", "none"], ["none", "none"]], LABELS)
    assert score.miou == 0.0
    assert score.miou_with_none == pytest.approx(0.375)


def test_prediction_shifted_one_column():
    # kitchen: gt cols 0-2, pred 1-3 -> 20 / 40; living room: gt 3-5, pred 4-6 -> 20 / 40;
    # none: gt cols 6-9, pred cols 0,7,8,9 -> 30 / 50.
    score = score_grid(shifted_right(GT), GT, LABELS)
    assert score.per_label == pytest.approx({"kitchen": 0.5, "living room": 0.5, "none": 0.6})
    assert score.miou == pytest.approx(0.5)
    assert score.miou_with_none == pytest.approx(1.6 / 3)


def test_half_plan_two_rooms_shifted():
    # kitchen cols 0-4, living room cols 5-9, no none in the ground truth.
    gt = columns_grid([("kitchen", 5), ("living room", 5)])
    score = score_grid(shifted_right(gt), gt, LABELS)
    # kitchen: 40 / 60; living room: 40 / 50; "none" is not a gt class.
    assert score.per_label == pytest.approx({"kitchen": 2 / 3, "living room": 0.8})
    assert score.miou == pytest.approx((2 / 3 + 0.8) / 2)
    assert score.miou_with_none == pytest.approx(score.miou)


def test_label_absent_from_ground_truth_only_hurts_through_union():
    pred = [row[:] for row in GT]
    pred[0][0] = "hallway"  # one kitchen cell called hallway
    score = score_grid(pred, GT, LABELS)
    assert "hallway" not in score.per_label
    assert score.per_label["kitchen"] == pytest.approx(29 / 30)


# --- malformed predictions -------------------------------------------------------------


def assert_malformed(score, reason: str):
    assert not score.valid
    assert score.miou == 0.0 and score.miou_with_none == 0.0
    assert set(score.per_label.values()) == {0.0}
    assert score.reason == reason


def test_nine_rows():
    assert_malformed(score_grid(GT[:9], GT, LABELS), "9 rows, expected 10")


def test_ragged_row():
    pred = [row[:] for row in GT]
    pred[2].append("kitchen")
    pred[5].pop()
    assert_malformed(score_grid(json.dumps({"grid": pred}), GT, LABELS),
                     "row 3 has 11 cells, expected 10 (y=7); "
                     "row 6 has 9 cells, expected 10 (y=4)")


def test_ragged_row_in_text_lines():
    lines = [", ".join(row) for row in GT]
    lines[2] += ", kitchen"
    assert_malformed(score_grid("\n".join(lines), GT, LABELS),
                     "row 3 has 11 cells, expected 10 (y=7)")


@pytest.mark.parametrize("prediction, reason", [
    ("", "empty prediction"),
    ("   \n\t", "empty prediction"),
    ("I could not work out the floor plan from the video.",
     "no grid found: not JSON and no lines of comma/pipe/tab separated labels"),
    ("%%%%%% 12345 @@@", "no grid found: not JSON and no lines of comma/pipe/tab separated labels"),
    # truncated or unquoted JSON is repaired (json_repair), then its shape is checked
    ('{"grid": [["kitchen", "none"', "invalid JSON (Expecting ',' delimiter at line 1 "
                                     "column 29); repaired: 1 row, expected 10"),
    ('{"grid": [[kitchen]]}', "invalid JSON (Expecting value at line 1 column 12); repaired: "
                              "1 row, expected 10"),
    ("Sure [see below]", "no grid found: not JSON and no lines of comma/pipe/tab separated "
                         "labels"),
    ('{"reasoning": "I walked north."}', "JSON object has no 'grid' key"),
    ({"answer": 42}, "JSON object has no 'grid' key"),
    ({"grid": "kitchen"}, "grid is a string, expected a list of 10 rows"),
    ({"grid": 7}, "grid is a number, expected a list of 10 rows"),
    ([], "0 rows, expected 10"),
    ("[" * 5000, "no grid found: invalid JSON (nested too deeply)"),
    (None, "prediction is a null, expected text, a dict or a list"),
    (3.5, "prediction is a number, expected text, a dict or a list"),
])
def test_malformed_predictions(prediction, reason):
    assert_malformed(score_grid(prediction, GT, LABELS), reason)


def test_row_that_is_not_a_list():
    pred = [row[:] for row in GT]
    pred[0] = 5
    assert_malformed(score_grid(pred, GT, LABELS),
                     "row 1 is a number, expected a list of 10 labels (y=9)")


def test_paper_example_copied_with_ellipsis_is_malformed():
    text = """{
      "grid": [
        ["none", "kitchen", "kitchen", ...], // y=9
        ["none", "kitchen", "kitchen", ...], // y=8
        ...
        ["none", "living room", "none", ...] // y=0
      ]
    }"""
    score = score_grid(text, GT, LABELS)
    assert not score.valid
    # Repaired, the "..." placeholders leave three rows of the paper's example.
    assert score.reason == ("invalid JSON (Expecting value at line 3 column 40); "
                            "repaired: 3 rows, expected 10")


def test_bad_ground_truth_raises():
    with pytest.raises(ValueError):
        score_grid(GT, [["kitchen"], ["kitchen", "none"]], LABELS)


# --- lenient parsing -------------------------------------------------------------------


@pytest.mark.parametrize("cell, expected", [
    ("Kitchen", "kitchen"), ("  KITCHEN ", "kitchen"),
    ("living_room", "living room"), ("Living-Room", "living room"), ("livingroom", "living room"),
    ("living  room", "living room"),
    ("None", "none"), ("empty", "none"), ("", "none"), (None, "none"), ("N/A", "none"),
    ("hall", "hallway"), ("Corridor", "hallway"), ("HALLWAY", "hallway"),
])
def test_lenient_labels(cell, expected):
    pred = [["none"] * 10 for _ in range(10)]
    pred[4][4] = cell
    parsed = parse_grid(pred, LABELS)
    assert parsed.reason is None and parsed.warnings == []
    assert parsed.grid[4][4] == expected


def test_numbered_rooms_match_with_or_without_space():
    labels = ["bedroom 1", "bedroom 2", "hallway", "none"]
    pred = [["bedroom1", "Bedroom_2", "BEDROOM 1", "bedroom-2"] for _ in range(2)]
    parsed = parse_grid(pred, labels, rows=2, cols=4)
    assert parsed.grid == [["bedroom 1", "bedroom 2", "bedroom 1", "bedroom 2"]] * 2


def test_scenario_label_wins_over_alias():
    parsed = parse_grid([["hall", "corridor"]], ["hall", "none"], rows=1, cols=2)
    assert parsed.grid == [["hall", "hallway"]]


def test_unknown_label_becomes_none_with_warning():
    pred = [row[:] for row in GT]
    pred[0][0] = pred[1][0] = "garage"
    pred[2][0] = 17
    score = score_grid(pred, GT, LABELS)
    assert score.valid
    assert score.warnings == ["unknown label '17' (1 cell) scored as 'none'",
                              "unknown label 'garage' (2 cells) scored as 'none'"]
    assert score.per_label["kitchen"] == pytest.approx(27 / 30)


def test_fenced_json_with_comments_chatter_and_trailing_commas():
    rows = ",\n".join(f"    {json.dumps(row)}, // y={9 - i}" if i < 9
                      else f"    {json.dumps(row)} // y=0" for i, row in enumerate(GT))
    text = ("Sure! Here's my reconstruction, based on the walk:\n"
            "```json\n{\n"
            '  "reasoning": "Start in the kitchen // then go east.",\n'
            f'  "grid": [\n{rows},\n  ],\n'
            "}\n```\nLet me know if you'd like changes.")
    score = score_grid(text, GT, LABELS)
    assert score.valid and score.warnings == ["invalid JSON (Expecting value at line 6 column 117); repaired"]
    assert score.miou == 1.0


def test_comment_markers_inside_strings_are_kept():
    text = '{"reasoning": "see http://x # y", "grid": %s}' % json.dumps(GT)
    assert score_grid(text, GT, LABELS).miou == 1.0


def test_dict_list_and_single_quotes():
    assert score_grid({"grid": GT}, GT, LABELS).miou == 1.0
    assert score_grid({"Grid": GT, "reasoning": "x"}, GT, LABELS).miou == 1.0
    assert score_grid({"answer": {"grid": GT}}, GT, LABELS).miou == 1.0
    assert score_grid(str(GT), GT, LABELS).miou == 1.0  # Python repr: single quotes


def test_other_grid_key_is_used_with_warning():
    score = score_grid({"floor_plan": GT}, GT, LABELS)
    assert score.miou == 1.0 and score.warnings == ["used key 'floor_plan' as the grid"]


def test_flat_list_of_100_labels_is_read_row_major():
    flat = [cell for row in GT for cell in row]
    score = score_grid(flat, GT, LABELS)
    assert score.miou == 1.0 and len(score.warnings) == 1


def test_last_of_several_grids_is_scored():
    text = f"Draft: {json.dumps({'grid': GT})}\nFinal: {json.dumps({'grid': shifted_right(GT)})}"
    score = score_grid(text, GT, LABELS)
    assert score.miou == pytest.approx(0.5)
    assert score.warnings == ["found 2 grids in the prediction; scored the last"]


@pytest.mark.parametrize("separator", [", ", ",", " | ", "\t"])
def test_text_lines(separator):
    text = "Here is the grid:\n" + "\n".join(separator.join(row) for row in GT) + "\nDone."
    assert score_grid(text, GT, LABELS).miou == 1.0


def test_markdown_table_with_header_and_row_markers():
    header = "| y | " + " | ".join(f"x={x}" for x in range(-5, 5)) + " |"
    rule = "|" + "---|" * 11
    body = [f"| y={9 - i} | " + " | ".join(row) + " |" for i, row in enumerate(GT)]
    text = "\n".join([header, rule, *body])
    score = score_grid(text, GT, LABELS)
    assert score.valid and score.miou == 1.0, score.reason


def test_text_lines_with_row_prefix_and_comments():
    text = "\n".join(f"y={9 - i}: " + ", ".join(row) + f"  // y={9 - i}"
                     for i, row in enumerate(GT))
    assert score_grid(text, GT, LABELS).miou == 1.0


# --- properties ------------------------------------------------------------------------

cells = st.sampled_from(LABELS)
grids = st.lists(st.lists(cells, min_size=10, max_size=10), min_size=10, max_size=10)


@settings(max_examples=150, deadline=None)
@given(pred=grids, gt=grids)
def test_scores_are_in_unit_interval_and_iou_is_symmetric(pred, gt):
    forward, backward = score_grid(pred, gt, LABELS), score_grid(gt, pred, LABELS)
    for score in (forward, backward):
        assert score.valid
        assert 0.0 <= score.miou <= 1.0 and 0.0 <= score.miou_with_none <= 1.0
        assert all(0.0 <= v <= 1.0 for v in score.per_label.values())
    for label in forward.per_label.keys() & backward.per_label.keys():
        assert forward.per_label[label] == backward.per_label[label]


@settings(max_examples=100, deadline=None)
@given(gt=grids)
def test_ground_truth_against_itself_scores_one(gt):
    score = score_grid(gt, gt, LABELS)
    assert score.miou == 1.0 and score.miou_with_none == 1.0


@settings(max_examples=75, deadline=None)
@given(pred=grids, gt=grids)
def test_text_forms_score_like_the_list(pred, gt):
    expected = score_grid(pred, gt, LABELS)
    for text in (json.dumps({"grid": pred}, indent=2),
                 "\n".join(" | ".join(row) for row in pred)):
        assert score_grid(text, gt, LABELS) == expected


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=300))
def test_arbitrary_text_never_raises(text):
    score = score_grid(text, GT, LABELS)
    assert 0.0 <= score.miou <= 1.0
    assert score.valid or score.reason


# --- grid.json files, CLI, prompt ------------------------------------------------------


def write_grid_json(path, floors: list[list[list[str]]]):
    labels = sorted({c for grid in floors for row in grid for c in row} | {"hallway"})
    path.write_text(json.dumps({
        "format": "egoscene.grid/1", "unit": 1.0, "labels": labels,
        "start": {"cell": [0, 0], "position": [0.0, 0.0], "heading": [0, 1], "floor": 0},
        "floors": [{"floor": i, "grid": grid} for i, grid in enumerate(floors)],
    }))
    return path


def test_score_file_refuses_a_grid_file_of_another_version(tmp_path):
    path = write_grid_json(tmp_path / "grid.json", [GT])
    path.write_text(path.read_text().replace("egoscene.grid/1", "egoscene.grid/0"))
    with pytest.raises(ValueError, match="egoscene.grid/0.*egoscene.grid/1|egoscene.grid/1.*egoscene.grid/0"):
        score_file(path, json.dumps({"grid": GT}))
    prediction = tmp_path / "pred.txt"
    prediction.write_text(json.dumps({"grid": GT}))
    assert main([str(path), str(prediction)]) == 2


def test_score_file_single_floor(tmp_path):
    grid_json = write_grid_json(tmp_path / "grid.json", [GT])
    result = score_file(grid_json, json.dumps({"grid": shifted_right(GT)}))
    assert result.valid and result.miou == pytest.approx(0.5)
    assert list(result.floors) == [0]


def test_score_file_two_floors_average(tmp_path):
    upper = columns_grid([("bedroom 1", 5), ("hallway", 5)])
    grid_json = write_grid_json(tmp_path / "grid.json", [GT, upper])
    both = json.dumps({"floors": [{"floor": 0, "grid": GT},
                                  {"floor": 1, "grid": shifted_right(upper)}]})
    result = score_file(grid_json, both)
    # floor 1: bedroom 1 40/60, hallway 40/50
    assert result.floors[1].miou == pytest.approx((2 / 3 + 0.8) / 2)
    assert result.miou == pytest.approx((1.0 + (2 / 3 + 0.8) / 2) / 2)

    only_floor_1 = score_file(grid_json, both, floor=1)
    assert list(only_floor_1.floors) == [1]
    assert score_file(grid_json, {1: upper}, floor=1).miou == 1.0

    missing = score_file(grid_json, json.dumps({"grid": GT}))
    assert missing.floors[0].miou == 1.0
    assert not missing.valid and missing.floors[1].reason == "no prediction for floor 1"
    assert missing.miou == pytest.approx(0.5)

    with pytest.raises(ValueError, match="no floor 5"):
        score_file(grid_json, both, floor=5)


def test_cli_prints_table_and_json_line(tmp_path, capsys):
    grid_json = write_grid_json(tmp_path / "grid.json", [GT])
    prediction = tmp_path / "pred.txt"
    prediction.write_text("```json\n" + json.dumps({"grid": shifted_right(GT)}) + "\n```")
    assert main([str(grid_json), str(prediction)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert any(line.split() == ["kitchen", "0.5000"] for line in out)
    final = json.loads(out[-1])
    assert final["miou"] == 0.5 and final["miou_with_none"] == 0.5333 and final["valid"]


def test_cli_malformed_prediction_and_missing_file(tmp_path, capsys):
    grid_json = write_grid_json(tmp_path / "grid.json", [GT])
    prediction = tmp_path / "pred.txt"
    prediction.write_text("no idea")
    assert main([str(grid_json), str(prediction)]) == 0
    final = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert final["valid"] is False and final["miou"] == 0.0
    assert final["floors"][0]["reason"].startswith("no grid found")
    assert main([str(grid_json), str(tmp_path / "missing.txt")]) == 2


def test_prompt_is_table_9_filled_in():
    prompt = grid_prompt(["living room", "none", "kitchen", "bedroom 1", "hallway"])
    assert prompt.startswith("Watch the video and reconstruct the floor plan on a 10×10 grid. "
                             "Output strictly in JSON format.")
    assert 'Labels:\n"bedroom 1", "kitchen", "living room", "hallway", "none"\n' in prompt
    assert "Start: (0, 0) | Bounds: (-5, 0), (5, 0), (-5, 10), (5, 10)" in prompt
    assert '"reasoning": "Briefly trace the trajectory."' in prompt
    assert "// y=9" in prompt and "// y=0" in prompt
    assert grid_prompt(["kitchen"], extra="Answer in English.").endswith("\n\nAnswer in English.")


def test_prompt_for_grid_json():
    one_floor = {"labels": ["hallway", "kitchen", "none"], "floors": [{"floor": 0, "grid": GT}]}
    assert grid_prompt_for(one_floor) == grid_prompt(["kitchen"])
    two_floors = {"labels": ["kitchen", "bedroom"], "floors": [{"floor": 0}, {"floor": 1}]}
    assert '"floors": [{"floor": 0, "grid": [...]}' in grid_prompt_for(two_floors)
    assert "Reconstruct floor 1 only" in grid_prompt_for(two_floors, floor=1)


def test_prompt_states_cell_size_and_up():
    """Issue 10, item 10: a viewer can place rooms only knowing the scale and which way is up."""
    grid = {"unit": 1.5, "labels": ["hallway", "kitchen", "none"], "floors": [{"floor": 0, "grid": GT}]}
    prompt = grid_prompt_for(grid)
    assert ("Start: (0, 0) | Bounds: (-5, 0), (5, 0), (-5, 10), (5, 10)\n"
            "Each grid cell is 1.5 m x 1.5 m. Up (increasing y) is the direction the camera faces in "
            "frame 1; x increases to its right.\n") in prompt
    assert "Each grid cell is 2 m x 2 m." in grid_prompt_for({**grid, "unit": 2.0})
