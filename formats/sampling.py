"""Uniformly sampled frames: the frames a model sees when an evaluation harness samples N of a video.

Indices are lmms-eval's (`np.linspace(0, total - 1, N, dtype=int)`, its vsibench sampler), so
"frame k is among the 32 sampled frames" means what it means for VSI-Bench-style evaluation.
Used by the release (the 32 JPEGs it ships), the query engine and the checker (each record's
`evidence_in_sampled_frames`) and the audit page.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

FRAMES = 32                       # what the paper (and VSI-Bench) feeds a model
SAMPLED_COUNTS = (8, 16, 32, 64)  # the counts each query record is flagged for


def sample_indices(total: int, count: int = FRAMES) -> list[int]:
    """The `count` frame indices lmms-eval samples from a video of `total` frames (all of them
    when it has fewer; lmms-eval would repeat some, which shows no other frame)."""
    if total <= 0:
        raise ValueError("a video with no frames")
    return [int(i) for i in np.linspace(0, total - 1, min(count, total), dtype=int)]


def in_sampled_frames(total: int, evidence: Iterable[Iterable[int]],
                      counts: tuple[int, ...] = SAMPLED_COUNTS) -> dict[str, bool]:
    """Per count N (as text, "8", "16", ...): does every item of `evidence` (for each object or
    room the answer depends on, the frames that show it clearly) appear in at least one of the
    N uniformly sampled frames? False when there is no evidence at all (or no video)."""
    items = [set(frames) for frames in evidence]
    if not items or total <= 0:
        return {str(n): False for n in counts}
    out = {}
    for n in counts:
        picked = set(sample_indices(total, n))
        out[str(n)] = all(frames & picked for frames in items)
    return out
