"""Release files (`egoscene release`, SPEC section 7) and evaluation results (`egoscene eval`).

- `ReleaseRow`: one row of a release's `data/*.jsonl` / `data/*.parquet` (egoscene's own schema):
  a query record flattened for Arrow, whose columns must have one type (the answer is text,
  the derivation is JSON text), plus the 32 sampled frames of its video.
- `VsiRow`: one row of the VSI-Bench view (`data/vsibench.*`), the columns lmms-eval's
  `vsibench` task reads (VSI-Bench's own schema, so no version tag), plus `egoscene_id`.
- `EvalResults`: `results.json` written by `egoscene eval`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel
from formats.queries import Category, Evidence, Task

VSI_QUESTION_TYPES = ("object_counting", "object_rel_distance", "object_rel_direction_easy",
                      "object_rel_direction_medium", "object_rel_direction_hard", "route_planning",
                      "obj_appearance_order")


class ReleaseRow(FileModel):
    """One question of a release, in egoscene's own schema (the `default` and per-task configs)."""

    TAG: ClassVar[str] = "schema"
    FORMAT: ClassVar[str] = "egoscene.release/1"
    FILENAME: ClassVar[str] = "data/all.jsonl"

    schema_: Literal["egoscene.release/1"] = Field(alias="schema", description=TAG_DESCRIPTION)
    id: str = Field(description="The query record's id, `<scenario>/<task>/<n>` (`-ff` for a free-form twin).")
    scenario: str = Field(description="Scenario name; its files are in the release folder `<scenario>/`.")
    task: Task = Field(description="One of the ten tasks (SPEC section 5).")
    category: Category = Field(description="The task's category.")
    regime: Literal["extractive", "abstractive"] = Field(description="The task's regime.")
    format: Literal["mcq", "number", "free_form"] = Field(description="Answer format.")
    question: str = Field(description="The question as asked.")
    options: list[str] = Field(description="MCQ option texts in letter order; empty otherwise.")
    answer: str = Field(description="mcq: the letter; number: the count as text; free_form: the correct text.")
    answer_text: str = Field(description="The answer in words.")
    evidence: Evidence
    derivation: str = Field(description="The query record's derivation as JSON text (keys sorted).")
    video: str = Field(description="`<scenario>/video.mp4`, relative to the release root.")
    frames: list[str] = Field(description="The 32 uniformly sampled frames of the video (JPEG paths relative to "
                                          "the release root), in time order.")


class VsiRow(StrictModel):
    """One row of the VSI-Bench view: the columns of nyu-visionx/VSI-Bench read by lmms-eval's
    `vsibench` utils.py (its video is `<cache>/<dataset>/<scene_name>.mp4`)."""

    id: int = Field(ge=0, description="Row number within the view.")
    dataset: Literal["egoscene"] = Field(description="Always `egoscene` (the video cache sub-folder).")
    scene_name: str = Field(description="Scenario name (the video's file stem).")
    question_type: Literal[VSI_QUESTION_TYPES] = Field(description="VSI-Bench question type.")
    question: str = Field(description="The question, without its options.")
    options: list[str] | None = Field(description="`A. text` strings for multiple choice; null for numeric rows.")
    ground_truth: str = Field(description="The letter, or the number as text (never 0).")
    egoscene_id: str = Field(description="The id of the release row it comes from.")


class EvalResults(FileModel):
    """results.json of `egoscene eval`: scores per model, task, regime and overall."""

    FORMAT: ClassVar[str] = "egoscene.eval/1"
    FILENAME: ClassVar[str] = "results.json"

    format: Literal["egoscene.eval/1"] = Field(description=TAG_DESCRIPTION)
    release: str = Field(description="sha256 of the release's SHA256SUMS file (which release was scored).")
    questions: int = Field(ge=0, description="Questions in the release (free-form twins included).")
    reference: str | None = Field(description="The reference model of the paired t-tests, or null.")
    random: dict[str, JsonValue] = Field(description="Random baseline: task -> expected accuracy (%) from the "
                                                     "option counts (null for counting).")
    models: dict[str, JsonValue] = Field(description="Model -> runs, unparsed answers, per-task / per-regime / "
                                                     "overall scores (mean, std, 95% CI over runs), MRA, grid mIoU, "
                                                     "t-test against the reference.")


class Prediction(BaseModel):
    """One line of a predictions file for `egoscene eval` (written by people and harnesses, so
    other keys are ignored). The grid prediction of a scenario has id `<scenario>/grid`."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(description="A release row id, or `<scenario>/grid` for a floor-plan grid.")
    prediction: str = Field(description="The model's raw answer text.")
    model: str = Field("model", description="Model name (several models may share one file).")
    run: int = Field(0, ge=0, description="Generation number, for Accuracy@k over k runs.")
