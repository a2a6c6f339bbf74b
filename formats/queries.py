"""queries.jsonl: one question/answer record per line (SPEC section 5).

Written by the query engine (queries.engine / queries.records); read by the independent
checker (queries.check) and by evaluation. The record's own `format` key is the question's
answer format (mcq, number, free_form), so the version tag of a record is the key `schema`.
Version 2 added `evidence_in_sampled_frames`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, JsonValue, model_validator

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel
from formats.sampling import SAMPLED_COUNTS

Task = Literal["appearance_order", "relative_direction", "relative_distance", "route_plan", "object_counting",
               "memory_action", "map_direction", "map_scale", "simulation", "global_counting"]
Category = Literal["chronology", "direction", "distance", "planning", "counting"]
LETTERS = "ABCDE"
SampledCount = Literal["8", "16", "32", "64"]


class Evidence(StrictModel):
    objects: list[str] = Field(description="Ids of the objects the answer depends on (sorted).")
    rooms: list[str] = Field(description="Labels of the rooms the answer depends on (sorted).")
    frames: list[int] = Field(description="Frames showing them (sorted), from visibility.json.")


class QueryRecord(FileModel):
    """One question with its answer, evidence and derivation."""

    TAG: ClassVar[str] = "schema"
    FORMAT: ClassVar[str] = "egoscene.query/2"
    FILENAME: ClassVar[str] = "queries.jsonl"

    schema_: Literal["egoscene.query/2"] = Field(alias="schema", description=TAG_DESCRIPTION)
    id: str = Field(description="`<scenario>/<task>/<n>`; a free-form twin of an MCQ adds `-ff`.")
    scenario: str = Field(description="Scenario name.")
    task: Task = Field(description="One of the ten tasks (SPEC section 5).")
    category: Category = Field(description="The task's category.")
    regime: Literal["extractive", "abstractive"] = Field(description="The task's regime.")
    format: Literal["mcq", "number", "free_form"] = Field(
        description="Answer format: a letter of `options`, a number, or free text (the twin of an MCQ).")
    question: str = Field(description="The question text as asked (an MCQ lists its options in it where the template does).")
    options: list[str] = Field(description="MCQ option texts in letter order (A, B, ...); empty for number and free_form.")
    answer: str | int = Field(description="mcq: the correct letter; number: the count; free_form: the correct option's text.")
    answer_text: str = Field(description="The answer in words (the correct option's text, or the number as text).")
    evidence: Evidence
    evidence_in_sampled_frames: dict[SampledCount, bool] = Field(
        description="For 8, 16, 32 and 64 frames sampled uniformly from the video as lmms-eval / VSI-Bench do "
                    "(`np.linspace(0, frames - 1, N, dtype=int)`, formats.sampling): true when every evidence "
                    "object and room is seen (docs/ground-truth.md \"Seen\": inside one of its clear runs) "
                    "in at least one of the N frames.")
    derivation: dict[str, JsonValue] = Field(description="A machine-readable account of the facts the answer follows from "
                                                        "(task-specific keys).")
    video: str = Field(description="Path of the video relative to the release root: `<scenario>/video.mp4`.")

    @model_validator(mode="after")
    def _answer_fits_format(self):
        if sorted(self.evidence_in_sampled_frames, key=int) != [str(n) for n in SAMPLED_COUNTS]:
            raise ValueError(f"evidence_in_sampled_frames needs the keys {', '.join(map(str, SAMPLED_COUNTS))} "
                             f"(found {sorted(self.evidence_in_sampled_frames, key=int)})")
        if self.format == "mcq":
            if len(self.options) < 2 or not isinstance(self.answer, str) or self.answer not in LETTERS[: len(self.options)]:
                raise ValueError(f"an mcq needs 2-5 options and a letter among them as answer (found {self.answer!r} "
                                 f"with {len(self.options)} options)")
            if self.options[LETTERS.index(self.answer)] != self.answer_text:
                raise ValueError("answer_text is not the text of the answer's option")
        elif self.options:
            raise ValueError(f"a {self.format} record has no options")
        elif self.format == "number" and (isinstance(self.answer, bool) or not isinstance(self.answer, int)):
            raise ValueError(f"a number record's answer is an integer (found {self.answer!r})")
        elif self.format == "free_form" and not isinstance(self.answer, str):
            raise ValueError(f"a free_form record's answer is text (found {self.answer!r})")
        return self
