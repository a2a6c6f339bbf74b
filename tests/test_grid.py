"""Grid ground truth: known answers built by hand, unit ladder, start frame."""

import pytest

from generator.layout.grid import build_grid, floor_grid, grid_unit


def rect(x0, y0, x1, y1):
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def tiny_scene(start=(2.0, 0.4), heading=(0, 1)):
    # kitchen 4x3 m at the south edge, a 1 m hallway above it, a bedroom 4x3 m north of that
    return {
        "rooms": [
            {"label": "kitchen", "floor": 0, "polygon": rect(0, 0, 4, 3)},
            {"label": "bedroom", "floor": 0, "polygon": rect(0, 4, 4, 7)},
        ],
        "hallways": [{"id": "h", "floor": 0, "polygon": rect(0, 3, 4, 4)}],
        "stairs": [],
        "start": {"position": list(start), "heading": list(heading), "floor": 0},
    }


def test_unit_is_smallest_ladder_step_that_fits():
    # 2 m either side of the start fits 0.5 m cells, but 6.6 m ahead needs 10 cells of >= 0.66 m
    assert grid_unit(tiny_scene()) == 1.0
    assert build_grid(tiny_scene())["unit"] == 1.0


def row(label, cols=(3, 4, 5, 6)):
    return [label if i in cols else "none" for i in range(10)]


def test_known_answer_grid():
    grid = floor_grid(tiny_scene(), 0, 1.0)
    # columns are x = -5..4 around the start (x = 2 m): the rooms span grid x -2..2 -> columns 3..6
    # grid row y=j covers world y in [0.4 + j, 1.4 + j); grid[9 - j] is that row
    assert grid[9 - 0] == row("kitchen")
    assert grid[9 - 1] == row("kitchen")
    assert grid[9 - 2] == row("kitchen")  # 2.4-3.4: kitchen 0.6 beats hallway 0.4
    assert grid[9 - 3] == row("hallway")  # 3.4-4.4: hallway 0.6 beats bedroom 0.4
    assert grid[9 - 4] == row("bedroom")
    assert grid[9 - 6] == row("bedroom")  # 6.4-7.4: bedroom covers 0.6
    assert grid[9 - 7] == row("none") == grid[0]


def test_exactly_half_counts_and_ties_break_by_name():
    grid = floor_grid(tiny_scene(start=(2.0, 0.5)), 0, 1.0)
    assert grid[9 - 2] == row("hallway")  # 2.5-3.5: kitchen 0.5 = hallway 0.5 -> "hallway" < "kitchen"
    assert grid[9 - 3] == row("bedroom")  # 3.5-4.5: hallway 0.5 = bedroom 0.5 -> "bedroom"
    assert grid[9 - 6] == row("bedroom")  # 6.5-7.5: bedroom covers exactly half


def test_start_frame_rotates_with_heading():
    # facing east from (0.4, 1.0): ahead is world +x, left is world north
    scene = tiny_scene(start=(0.4, 1.0), heading=(1, 0))
    scene["rooms"] = [{"label": "kitchen", "floor": 0, "polygon": rect(0, 0, 4, 3)}]
    scene["hallways"] = []
    grid = floor_grid(scene, 0, 1.0)
    # 2 m of kitchen to the left (north), 1 m to the right (south), 3.6 m ahead
    for j in range(4):
        assert grid[9 - j] == row("kitchen", cols=(3, 4, 5))
    assert grid[9 - 4] == row("none")


def test_every_floor_gets_a_grid_and_stairs_count_as_hallway():
    scene = tiny_scene()
    scene["rooms"].append({"label": "attic", "floor": 1, "polygon": rect(0, 0, 4, 3)})
    scene["stairs"] = [{"polygon": rect(4, 3, 5, 4), "floors": [0, 1]}]
    grid = build_grid(scene)
    assert [f["floor"] for f in grid["floors"]] == [0, 1]
    assert grid["labels"] == ["attic", "bedroom", "kitchen", "hallway", "none"]
    upper = grid["floors"][1]["grid"]
    assert upper[9 - 0] == row("attic")
    assert upper[9 - 3][7] == "hallway"  # the stairwell at x 4-5 (column 7), y 3.4-4.4 covers 0.6


def test_plan_behind_the_start_is_refused():
    with pytest.raises(ValueError, match="south edge"):
        grid_unit(tiny_scene(start=(2.0, 2.0)))
