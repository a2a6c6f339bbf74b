"""Floor-plan grid scoring (SPEC section 6): lenient parsing of model output and mIoU.

Grids are lists of rows of labels, first row = top (y = 9 for the 10x10 grid), as in
grid.json. Model output is parsed leniently and never makes the scorer raise: anything
that cannot be read as a grid of the expected shape is scored as malformed (valid=False,
mIoU 0.0) with a reason that says exactly what is wrong.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import json_repair

from formats.base import read_model
from formats.grid import Grid

NONE_LABEL = "none"
HALLWAY_LABEL = "hallway"
GRID_ROWS = 10
GRID_COLS = 10

# Spellings models use for "no room here" and for hallways, compared on label keys.
_NONE_ALIASES = {"", "none", "empty", "null", "nil", "nothing", "na", "nan", "void",
                 "blank", "outside", "exterior", "unknown"}
_HALLWAY_ALIASES = {"hall", "halls", "hallway", "hallways", "corridor", "corridors",
                    "passage", "passageway"}
# Keys other than "grid" that models use for the grid (accepted with a warning).
_GRID_KEY_ALIASES = ("grid", "floor_plan", "floorplan", "floor plan", "map", "layout")

_CELL_SEPARATORS = re.compile(r"[,|\t]")
_ROW_MARKER_CELL = re.compile(r"^(?:y\s*=?\s*)?-?\d+\s*:?$", re.IGNORECASE)
_ROW_MARKER_PREFIX = re.compile(r"^\s*y\s*=?\s*-?\d+\s*[:)]\s*", re.IGNORECASE)
_TABLE_RULE_CELL = re.compile(r"^:?-{2,}:?$")


def label_key(text: str) -> str:
    """Comparison key: case, spaces, '_' and '-' do not matter ("Bedroom_1" == "bedroom1")."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


class LabelMatcher:
    """Maps a predicted cell to a scenario label, or to "none" when it names nothing known."""

    def __init__(self, labels: Sequence[str]):
        self._by_key: dict[str, str] = {}
        for label in [*labels, NONE_LABEL, HALLWAY_LABEL]:
            self._by_key.setdefault(label_key(label), label)

    def resolve(self, cell: Any) -> tuple[str, bool]:
        """(label, known). Unknown cells come back as ("none", False)."""
        if cell is None:  # JSON null
            return NONE_LABEL, True
        if not isinstance(cell, str):  # numbers, booleans, nested lists
            return NONE_LABEL, False
        key = label_key(cell)
        # The scenario's own labels win over aliases (a room may really be called "hall").
        if key in self._by_key:
            return self._by_key[key], True
        if key in _NONE_ALIASES:
            return NONE_LABEL, True
        if key in _HALLWAY_ALIASES:
            return self._by_key[label_key(HALLWAY_LABEL)], True
        return NONE_LABEL, False

    def is_known(self, cell: str) -> bool:
        return self.resolve(cell)[1]


@dataclass
class ParsedGrid:
    grid: list[list[str]] | None
    reason: str | None = None
    warnings: list[str] = field(default_factory=list)


@dataclass
class GridScore:
    miou: float
    miou_with_none: float
    per_label: dict[str, float]
    valid: bool
    reason: str | None = None
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class FileScore:
    """Scores of one grid.json against a prediction: per floor and averaged over floors."""

    miou: float
    miou_with_none: float
    valid: bool
    floors: dict[int, GridScore]

    def to_dict(self) -> dict[str, Any]:
        return {
            "miou": round(self.miou, 4),
            "miou_with_none": round(self.miou_with_none, 4),
            "valid": self.valid,
            "floors": [
                {"floor": floor, "miou": round(score.miou, 4),
                 "miou_with_none": round(score.miou_with_none, 4),
                 "per_label": {k: round(v, 4) for k, v in score.per_label.items()},
                 "valid": score.valid, "reason": score.reason, "warnings": score.warnings}
                for floor, score in sorted(self.floors.items())
            ],
        }


# ---------------------------------------------------------------------------------------
# Parsing


def parse_grid(text_or_obj: Any, labels: Sequence[str], rows: int = GRID_ROWS,
               cols: int = GRID_COLS) -> ParsedGrid:
    """Read a predicted grid leniently; never raises on model output.

    Accepts a JSON string (inside ```json fences, with // or # comments, surrounding chatter,
    trailing commas), a dict with "grid", a list of rows, or lines of comma/pipe/tab
    separated labels. Cells are matched to `labels` leniently; unknown cells become "none"
    with a warning.
    """
    try:
        return _parse_grid(text_or_obj, LabelMatcher(labels), rows, cols)
    except Exception as error:  # last line of defence: model output must not crash scoring
        return ParsedGrid(None, f"could not parse prediction: {type(error).__name__}: {error}")


def _parse_grid(obj: Any, matcher: LabelMatcher, rows: int, cols: int) -> ParsedGrid:
    if isinstance(obj, ParsedGrid):
        return obj
    if isinstance(obj, bytes):
        obj = obj.decode("utf-8", errors="replace")
    if isinstance(obj, str):
        return _parse_text(obj, matcher, rows, cols)
    if isinstance(obj, Mapping):
        warnings: list[str] = []
        raw = _grid_from_mapping(obj, warnings)
        if raw is None:
            return ParsedGrid(None, "JSON object has no 'grid' key")
        return _build_grid(raw, matcher, rows, cols, warnings)
    if isinstance(obj, (list, tuple)):
        return _build_grid(obj, matcher, rows, cols, [])
    return ParsedGrid(None, f"prediction is a {_kind(obj)}, expected text, a dict or a list")


def _parse_text(text: str, matcher: LabelMatcher, rows: int, cols: int) -> ParsedGrid:
    if not text.strip():
        return ParsedGrid(None, "empty prediction")
    warnings: list[str] = []
    values, json_error = _json_values(text)
    grids = [g for g in (_grid_from_json_value(v, warnings) for v in values) if g is not None]
    if grids:
        if len(grids) > 1:
            # A model that revises its answer ends with the final one.
            warnings.append(f"found {len(grids)} grids in the prediction; scored the last")
        parsed = _build_grid(grids[-1], matcher, rows, cols, warnings)
        if json_error is not None and parsed.grid is None:
            parsed.reason = f"invalid JSON ({json_error}); repaired: {parsed.reason}"
        elif json_error is not None:
            parsed.warnings.insert(0, f"invalid JSON ({json_error}); repaired")
        return parsed

    line_rows = _text_rows(text, matcher)
    if line_rows:
        parsed = _build_grid(line_rows, matcher, rows, cols, warnings)
        if json_error is not None:
            # JSON-looking output that only reads as lines of labels: say both.
            if parsed.grid is None:
                parsed.reason = f"invalid JSON ({json_error}); as lines of labels: " \
                                f"{parsed.reason}"
            else:
                parsed.warnings.insert(0, f"invalid JSON ({json_error}); read as lines of "
                                          f"labels")
        return parsed
    if any(isinstance(v, Mapping) for v in values):
        return ParsedGrid(None, "JSON object has no 'grid' key", warnings)
    if json_error is not None:
        return ParsedGrid(None, f"no grid found: invalid JSON ({json_error})", warnings)
    return ParsedGrid(None, "no grid found: not JSON and no lines of comma/pipe/tab "
                            "separated labels", warnings)


def _json_values(text: str) -> tuple[list[Any], str | None]:
    """JSON values found in the text, and the first decode error of a strict read.

    Well-formed objects/arrays anywhere in the chatter are read strictly first; when none of
    them is a grid, json_repair reads the text leniently (code fences, comments, trailing
    commas, single quotes, unquoted or truncated output).
    """
    values, first_error = _strict_json_values(text)
    if not any(_grid_from_json_value(v, []) is not None for v in values):
        values += _repaired_json_values(text)
    return values, first_error


def _strict_json_values(text: str) -> tuple[list[Any], str | None]:
    decoder = json.JSONDecoder()
    values: list[Any] = []
    first_error: str | None = None
    i = 0
    while True:
        starts = [p for p in (text.find("{", i), text.find("[", i)) if p >= 0]
        if not starts:
            break
        start = min(starts)
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError as error:
            # Chatter may hold a stray "[note]": an array counts as attempted JSON only
            # when it opens a line.
            line_start = text.rfind("\n", 0, start) + 1
            if first_error is None and (text[start] == "{" or not text[line_start:start].strip()):
                first_error = f"{error.msg} at line {error.lineno} column {error.colno}"
            i = start + 1  # an inner array may still decode
            continue
        except RecursionError:
            # Pathological nesting ("[[[[..."): every later start would recurse as deep.
            return values, first_error or "nested too deeply"
        values.append(value)
        i = end
    return values, first_error


def _repaired_json_values(text: str) -> list[Any]:
    start = min((p for p in (text.find("{"), text.find("[")) if p >= 0), default=-1)
    if start < 0:
        return []
    try:
        value = json_repair.loads(text[start:], skip_json_loads=True)
    except (RecursionError, ValueError, TypeError, IndexError):
        return []
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        return value  # several top-level objects
    return [value] if isinstance(value, (Mapping, list)) and value else []


def _grid_from_json_value(value: Any, warnings: list[str]) -> Any | None:
    if isinstance(value, Mapping):
        return _grid_from_mapping(value, warnings)
    # A bare array counts only as a list of rows; a lone row is not a grid.
    if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        return value
    return None


def _grid_from_mapping(obj: Mapping, warnings: list[str], depth: int = 0) -> Any | None:
    keys = {label_key(str(k)): k for k in obj}
    for alias in _GRID_KEY_ALIASES:
        if label_key(alias) in keys:
            key = keys[label_key(alias)]
            if key != "grid":
                warnings.append(f"used key {key!r} as the grid")
            return obj[key]
    if depth < 3:  # e.g. {"answer": {"grid": ...}}
        for value in obj.values():
            if isinstance(value, Mapping):
                found = _grid_from_mapping(value, warnings, depth + 1)
                if found is not None:
                    return found
    return None


def _split_cells(line: str) -> list[str]:
    line = line.strip()
    # List-style rows: ["a", "b"], and markdown-table rows: | a | b |
    line = line.rstrip(",").strip().strip("|").strip()
    if line.startswith("[") and line.endswith("]"):
        line = line[1:-1]
    return [cell.strip().strip("[]\"'` ") for cell in _CELL_SEPARATORS.split(line)]


def _text_rows(text: str, matcher: LabelMatcher) -> list[list[str]]:
    """The longest run of consecutive lines that look like rows of labels.

    A line is a row if it has 2+ cells and at least half of them are known labels, so chatter
    ("Sure, here it is:") and table headers ("x=-5 | x=-4 ...") are skipped.
    """
    best: list[list[str]] = []
    run: list[list[str]] = []
    for raw_line in text.splitlines():
        line = re.sub(r"(//|#)\s*y\s*=?\s*-?\d+\s*$", "", raw_line, flags=re.IGNORECASE)
        line = re.sub(r"//.*$", "", line)
        line = _ROW_MARKER_PREFIX.sub("", line)
        if not line.strip():
            continue  # blank lines neither make nor break a run
        cells = _split_cells(line)
        if all(_TABLE_RULE_CELL.match(c) for c in cells if c) and any(cells):
            continue  # markdown |---|---| rule
        named = [c for c in cells if c]
        if len(cells) >= 2 and named and sum(map(matcher.is_known, named)) * 2 >= len(named):
            run.append(cells)
            if len(run) > len(best):
                best = run
        else:
            run = []
    return best


def _build_grid(raw: Any, matcher: LabelMatcher, rows: int, cols: int,
                warnings: list[str]) -> ParsedGrid:
    """Check the shape of a decoded grid and resolve its labels."""
    if isinstance(raw, str):
        raw = _text_rows(raw, matcher) or raw
    if not isinstance(raw, (list, tuple)):
        return ParsedGrid(None, f"grid is a {_kind(raw)}, expected a list of {rows} rows",
                          warnings)
    raw = list(raw)
    if len(raw) == rows * cols and all(not isinstance(c, (list, tuple)) for c in raw):
        warnings.append(f"grid is a flat list of {rows * cols} labels; read as {rows} rows "
                        f"of {cols}, first row y={rows - 1}")
        raw = [raw[r * cols:(r + 1) * cols] for r in range(rows)]
    if len(raw) != rows:
        return ParsedGrid(None, f"{len(raw)} row{'s' * (len(raw) != 1)}, expected {rows}",
                          warnings)

    row_lists: list[list[Any]] = []
    problems: list[str] = []
    for index, row in enumerate(raw):
        y = rows - 1 - index
        if isinstance(row, str):
            row = _split_cells(row)
        if not isinstance(row, (list, tuple)):
            problems.append(f"row {index + 1} is a {_kind(row)}, expected a list of "
                            f"{cols} labels (y={y})")
            continue
        row = list(row)
        if len(row) == cols + 1 and isinstance(row[0], (str, int)) and \
                _ROW_MARKER_CELL.match(str(row[0]).strip()):
            row = row[1:]  # a leading "y=9" / "9" row header
        if len(row) == cols + 1 and row[-1] == "":
            row = row[:-1]  # trailing separator
        if len(row) != cols:
            problems.append(f"row {index + 1} has {len(row)} cells, expected {cols} (y={y})")
            continue
        row_lists.append(row)
    if problems:
        return ParsedGrid(None, "; ".join(problems), warnings)

    unknown: Counter[str] = Counter()
    grid: list[list[str]] = []
    for row in row_lists:
        resolved = []
        for cell in row:
            label, known = matcher.resolve(cell)
            if not known:
                unknown[cell if isinstance(cell, str) else json.dumps(cell)] += 1
            resolved.append(label)
        grid.append(resolved)
    for cell, count in sorted(unknown.items()):
        warnings.append(f"unknown label {cell!r} ({count} cell{'s' * (count != 1)}) "
                        f"scored as 'none'")
    return ParsedGrid(grid, None, warnings)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


# ---------------------------------------------------------------------------------------
# Scoring


def score_grid(pred: Any, gt_grid: Sequence[Sequence[str]], labels: Sequence[str]) -> GridScore:
    """Score a prediction (text, dict, list of rows or ParsedGrid) against a ground-truth grid.

    miou: mean over the non-"none" labels of the ground truth of
    |pred=c and gt=c| / |pred=c or gt=c|. miou_with_none: the same with "none" included as a
    class when the ground truth has "none" cells. A ground truth with no room at all (never
    produced by the generator) is scored on "none" alone, so miou == miou_with_none.
    Raises ValueError only for a malformed ground truth; model output never raises.
    """
    gt = [list(row) for row in gt_grid]
    if not gt or any(len(row) != len(gt[0]) for row in gt) or not gt[0]:
        raise ValueError("ground-truth grid must be a non-empty rectangular list of rows")
    rows, cols = len(gt), len(gt[0])
    gt_labels = sorted({label for row in gt for label in row})
    scored_with_none = gt_labels
    scored = [label for label in gt_labels if label != NONE_LABEL] or scored_with_none

    parsed = parse_grid(pred, [*labels, *gt_labels], rows, cols)
    if parsed.grid is None:
        return GridScore(0.0, 0.0, {label: 0.0 for label in scored_with_none}, False,
                         parsed.reason, parsed.warnings)

    per_label = {label: _label_iou(parsed.grid, gt, label) for label in scored_with_none}
    return GridScore(
        miou=sum(per_label[c] for c in scored) / len(scored),
        miou_with_none=sum(per_label.values()) / len(per_label),
        per_label=per_label,
        valid=True,
        reason=None,
        warnings=parsed.warnings,
    )


def _label_iou(pred: list[list[str]], gt: list[list[str]], label: str) -> float:
    intersection = union = 0
    for pred_row, gt_row in zip(pred, gt):
        for p, g in zip(pred_row, gt_row):
            hit_pred, hit_gt = p == label, g == label
            intersection += hit_pred and hit_gt
            union += hit_pred or hit_gt
    return intersection / union if union else 0.0


# ---------------------------------------------------------------------------------------
# grid.json files and CLI


def score_file(grid_json_path: str | Path, prediction: Any,
               floor: int | None = None) -> FileScore:
    """Score a prediction against a grid.json, for one floor or all floors (averaged).

    `prediction` is text/dict/list for a single floor, a mapping floor -> prediction, or
    (for several floors) JSON with {"floors": [{"floor": 0, "grid": [...]}, ...]}. A floor
    with no prediction is scored as malformed.
    """
    truth = read_model(Path(grid_json_path), Grid)
    labels = list(truth.labels)
    gt_by_floor = {f.floor: f.grid for f in truth.floors}
    if floor is not None and floor not in gt_by_floor:
        raise ValueError(f"no floor {floor} in {grid_json_path}; floors: "
                         f"{', '.join(map(str, sorted(gt_by_floor)))}")
    targets = [floor] if floor is not None else sorted(gt_by_floor)

    predictions = _predictions_by_floor(prediction, targets)
    scores: dict[int, GridScore] = {}
    for target in targets:
        if target in predictions:
            scores[target] = score_grid(predictions[target], gt_by_floor[target], labels)
        else:
            scores[target] = score_grid(ParsedGrid(None, f"no prediction for floor {target}"),
                                        gt_by_floor[target], labels)
    return FileScore(
        miou=sum(s.miou for s in scores.values()) / len(scores),
        miou_with_none=sum(s.miou_with_none for s in scores.values()) / len(scores),
        valid=all(s.valid for s in scores.values()),
        floors=scores,
    )


def _predictions_by_floor(prediction: Any, targets: list[int]) -> dict[int, Any]:
    if isinstance(prediction, Mapping) and prediction and all(
            isinstance(k, int) or (isinstance(k, str) and k.strip().lstrip("-").isdigit())
            for k in prediction):
        return {int(k): v for k, v in prediction.items()}
    per_floor = _floors_structure(prediction)
    if per_floor:
        return per_floor
    # A single grid answers the first requested floor; any others are missing.
    return {targets[0]: prediction}


def _floors_structure(prediction: Any) -> dict[int, Any]:
    """{"floors": [{"floor": f, "grid": g}, ...]} anywhere in the prediction, else {}."""
    try:
        if isinstance(prediction, (str, bytes)):
            text = prediction.decode() if isinstance(prediction, bytes) else prediction
            values = _json_values(text)[0]
        else:
            values = [prediction]
        for value in values:
            if isinstance(value, Mapping):
                floors = next((v for k, v in value.items() if label_key(str(k)) == "floors"),
                              None)
                if isinstance(floors, list):
                    found = {int(item["floor"]): item for item in floors
                             if isinstance(item, Mapping) and "floor" in item}
                    if found:
                        return found
    except (ValueError, TypeError, UnicodeDecodeError):
        pass
    return {}


def format_table(result: FileScore) -> str:
    lines = []
    for floor, score in sorted(result.floors.items()):
        lines.append(f"floor {floor}" + ("" if score.valid else "  (MALFORMED)"))
        width = max([len("mIoU (with none)"), *map(len, score.per_label)])
        lines.append(f"  {'label':<{width}}  IoU")
        for label, iou in score.per_label.items():
            lines.append(f"  {label:<{width}}  {iou:.4f}")
        lines.append(f"  {'mIoU':<{width}}  {score.miou:.4f}")
        lines.append(f"  {'mIoU (with none)':<{width}}  {score.miou_with_none:.4f}")
        if score.reason:
            lines.append(f"  reason: {score.reason}")
        lines.extend(f"  warning: {w}" for w in score.warnings)
    if len(result.floors) > 1:
        lines.append(f"mean over {len(result.floors)} floors: mIoU {result.miou:.4f}, "
                     f"mIoU (with none) {result.miou_with_none:.4f}")
    return "\n".join(lines)
