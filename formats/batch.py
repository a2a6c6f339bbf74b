"""batch.json: the state of an `egoscene batch` run, rewritten (atomically) whenever a scenario
changes state, so an interrupted batch can be read and resumed.

It is a run log, not part of a dataset: it carries wall-clock timings and is not byte-stable.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from formats.base import TAG_DESCRIPTION, FileModel, StrictModel
from formats.manifest import Options

# pending: not started; running: a worker has it; done: published by this batch; reused: already
# finished and up to date; refused: the spec (or its layout) is refused - retrying cannot help;
# failed: the pipeline failed for a reason retrying cannot change (the independent check, a bug);
# crashed: the worker died or Blender failed - retried up to the batch's limit;
# interrupted: the batch was stopped while it ran (it resumes from its frame cache next time).
Status = Literal["pending", "running", "done", "reused", "refused", "failed", "crashed", "interrupted"]
FINISHED: tuple[str, ...] = ("done", "reused")


class ScenarioState(StrictModel):
    """One scenario of the batch."""

    spec: str = Field(description="Path of the scenario YAML as given.")
    name: str | None = Field(description="Output folder name (OUT/<name>/); null when the spec could not be read.")
    status: Status = Field(description="Where the scenario stands (see formats/batch.py).")
    attempts: int = Field(ge=0, description="Worker runs started for it by this batch run (retries included).")
    error: str | None = Field(description="The last refusal or failure, one message (at most 2,000 characters).")
    timings_s: dict[str, float] = Field(description="Stage -> wall seconds of the last run (empty when reused).")
    seconds: float | None = Field(description="Wall seconds of the last worker run, start to end.")
    output_sha256: str | None = Field(description="sha256 over the published files' sha256s (manifest.json's "
                                                  "`files`, sorted JSON): equal exactly when two runs published the "
                                                  "same bytes; null until published.")


class Batch(FileModel):
    """State of a batch run into one output root."""

    FORMAT: ClassVar[str] = "egoscene.batch/1"
    FILENAME: ClassVar[str] = "batch.json"

    format: Literal["egoscene.batch/1"] = Field(description=TAG_DESCRIPTION)
    backend: str = Field(description="`local` (processes on this machine) or `ray <address>`.")
    workers: int = Field(ge=1, description="Scenarios run at once (with Ray: the size of a local Ray instance, "
                                          "in scenarios; a cluster runs as many as its CPUs allow).")
    retries: int = Field(ge=0, description="Extra attempts a crashed scenario gets.")
    options: Options = Field(description="The generate options every scenario of the batch ran with.")
    counts: dict[str, int] = Field(description="Status -> number of scenarios.")
    scenarios: list[ScenarioState] = Field(description="Every scenario, in the order given.")
