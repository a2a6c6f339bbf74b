"""A blind baseline: a text-only model that sees questions and options but no video.

Leave-one-scenario-out: for each scenario it learns, from the other scenarios of the release,
(1) how often each option text of a task was the correct one, (2) how often each letter was
correct per option count, (3) the most frequent count of each counting task and (4) the most
frequent free-form answer of each task; then it answers that scenario's questions with them.
Its predictions are scored by the same code as any model, so a release states how far above
chance one gets without watching. With one scenario there is nothing to learn from: it falls
back to letter A, the count 2 and an empty free-form answer.
"""

from __future__ import annotations

import math
from collections import Counter

from formats.queries import LETTERS
from formats.release import Prediction, ReleaseRow

MODEL = "blind"


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


class TextPrior:
    def __init__(self, train: list[ReleaseRow]):
        self.shown: Counter = Counter()
        self.right: Counter = Counter()
        self.letters: Counter = Counter()
        self.counts: dict[str, Counter] = {}
        self.free: dict[str, Counter] = {}
        for row in train:
            if row.format == "mcq":
                for i, text in enumerate(row.options):
                    self.shown[(row.task, _norm(text))] += 1
                    self.right[(row.task, _norm(text))] += LETTERS[i] == row.answer
                self.letters[(len(row.options), row.answer)] += 1
            elif row.format == "number":
                self.counts.setdefault(row.task, Counter())[int(float(row.answer))] += 1
            else:
                self.free.setdefault(row.task, Counter())[row.answer] += 1

    def option_score(self, row: ReleaseRow, i: int) -> float:
        key = (row.task, _norm(row.options[i]))
        text = math.log((self.right[key] + 1) / (self.shown[key] + len(row.options)))  # Laplace, prior 1/n
        n = len(row.options)
        total = sum(self.letters[(n, letter)] for letter in LETTERS[:n])
        letter = math.log((self.letters[(n, LETTERS[i])] + 1) / (total + n))
        return text + letter

    def answer(self, row: ReleaseRow) -> str:
        if row.format == "mcq":
            scores = [self.option_score(row, i) for i in range(len(row.options))]
            return LETTERS[max(range(len(scores)), key=lambda i: (scores[i], -i))]
        if row.format == "number":
            seen = self.counts.get(row.task)
            return str(max(seen.items(), key=lambda kv: (kv[1], -kv[0]))[0]) if seen else "2"
        seen = self.free.get(row.task)
        return max(seen.items(), key=lambda kv: (kv[1], kv[0]))[0] if seen else ""


def blind_predictions(rows: list[ReleaseRow]) -> list[Prediction]:
    """One prediction per row, each from a prior learned without that row's scenario."""
    out = []
    for scenario in sorted({r.scenario for r in rows}):
        prior = TextPrior([r for r in rows if r.scenario != scenario])
        out += [Prediction(id=r.id, prediction=prior.answer(r), model=MODEL) for r in rows if r.scenario == scenario]
    return out
