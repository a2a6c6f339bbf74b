"""Per-stage random generators: no global RNG anywhere in the pipeline.

Each stage draws from its own generator seeded from (scenario seed, stage name), so adding
randomness to one stage never shifts the numbers another stage sees.
"""

from __future__ import annotations

import hashlib

import numpy as np


def stage_seed(seed: int, stage: str) -> int:
    digest = hashlib.sha256(f"{seed}:{stage}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def stage_rng(seed: int, stage: str) -> np.random.Generator:
    """A numpy Generator private to one stage of one scenario."""
    return np.random.Generator(np.random.PCG64(stage_seed(seed, stage)))
