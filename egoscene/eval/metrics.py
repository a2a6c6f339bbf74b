"""Metrics: MRA (VSI-Bench), mean/std/95% CI over runs, paired t-test, Random baseline."""

from __future__ import annotations

import math

import numpy as np

MRA_THRESHOLDS = np.linspace(0.5, 0.95, 10)  # 0.50, 0.55, ..., 0.95


def mra(prediction: float | None, truth: float) -> float:
    """Mean relative accuracy: the share of thresholds t with |pred - gt| / gt <= 1 - t.

    The same computation as VSI-Bench's code and lmms-eval's vsibench task (`<=`, these
    thresholds), so the numbers agree with theirs. An unparsed prediction scores 0."""
    if prediction is None:
        return 0.0
    if truth == 0:
        raise ValueError("MRA is undefined for a ground truth of 0")
    return float((abs(prediction - truth) / truth <= 1 - MRA_THRESHOLDS).mean())


def summary(values: list[float]) -> dict:
    """mean, sample std and the 95% t confidence interval of per-run scores (CI null for one run)."""
    from scipy import stats

    arr = np.asarray(values, dtype=float)
    n = len(arr)
    mean = float(arr.mean()) if n else 0.0
    std = float(arr.std(ddof=1)) if n > 1 else 0.0
    if n > 1:
        half = float(stats.t.ppf(0.975, n - 1) * std / math.sqrt(n))
        ci = [round(mean - half, 4), round(mean + half, 4)]
    else:
        ci = None
    return {"mean": round(mean, 4), "std": round(std, 4), "ci95": ci, "runs": n}


def paired_ttest(scores: list[float], reference: list[float]) -> dict:
    """Two-sided paired t-test over questions (each a model's mean score over its runs)."""
    from scipy import stats

    a, b = np.asarray(scores, dtype=float), np.asarray(reference, dtype=float)
    diff = a - b
    if len(diff) < 2 or np.allclose(diff, diff[0]):
        t, p = (0.0, 1.0) if np.allclose(diff, 0) else (math.copysign(math.inf, diff[0]), 0.0)
    else:
        result = stats.ttest_rel(a, b)
        t, p = float(result.statistic), float(result.pvalue)
    return {"t": round(t, 4) if math.isfinite(t) else None, "p": round(p, 6), "questions": int(len(diff)),
            "mean_difference": round(float(diff.mean()) * 100, 2) if len(diff) else 0.0}


def random_accuracy(option_counts: list[int]) -> float | None:
    """Expected accuracy (%) of picking an option uniformly: the mean of 1/n; None without MCQs."""
    if not option_counts:
        return None
    return round(100 * float(np.mean([1 / n for n in option_counts])), 4)
