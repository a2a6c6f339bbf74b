"""`egoscene eval PREDICTIONS --release REL [--reference MODEL] [--out DIR]`."""

from __future__ import annotations

from pathlib import Path

from egoscene.eval.report import write_report
from egoscene.eval.score import EvalError, evaluate, load_release, read_predictions
from formats.files import sha256_file


def release_hash(release: Path) -> str:
    sums = Path(release) / "SHA256SUMS"
    if not sums.is_file():
        raise EvalError(f"{sums}: missing (fix: pass a folder made by `egoscene release ... --out REL`)")
    return sha256_file(sums)


def run_eval(predictions: Path, release: Path, reference: str | None = None, out: Path | None = None) -> dict:
    """Score a predictions file; write results.json, results.md and charts/ into `out`
    (default: beside the predictions, `<predictions stem>.eval/`). Returns the scores."""
    rows = load_release(release)
    ids = {r.id for r in rows} | {f"{s}/grid" for s in {r.scenario for r in rows}}
    preds = read_predictions(predictions, ids)
    if not preds:
        raise EvalError(f"{predictions}: no predictions (fix: one JSON line per answer: "
                        f'{{"id": ..., "prediction": ...}})')
    scores = evaluate(rows, preds, release, reference)
    out = out or Path(predictions).with_name(Path(predictions).stem + ".eval")
    write_report(scores, release_hash(release), out)
    scores["out"] = str(out)
    return scores
