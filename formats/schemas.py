"""JSON Schemas of the output files: one `<kind>.schema.json` per file model.

`export_schemas(folder)` writes them (docs/formats/ in the repository, `egoscene formats`);
`schema_texts()` gives the same texts in memory (tests compare the committed copies). The
schemas describe the files as written (serialization mode: derived values such as the
camera's `fx` or a frame's `cam_to_world` are listed as read-only properties).
"""

from __future__ import annotations

import json
from pathlib import Path

from formats.base import FileModel
from formats.batch import Batch
from formats.grid import Grid
from formats.manifest import Manifest
from formats.masks import MaskLegend
from formats.queries import QueryRecord
from formats.release import EvalResults, ReleaseRow
from formats.scene import Scene
from formats.trajectory import Trajectory
from formats.visibility import Visibility

MODELS: tuple[type[FileModel], ...] = (Scene, Trajectory, Visibility, Grid, QueryRecord, Manifest, ReleaseRow,
                                        EvalResults, Batch, MaskLegend)


def schema(cls: type[FileModel]) -> dict:
    out = cls.model_json_schema(mode="serialization")
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    out["title"] = f"{cls.FILENAME} ({cls.FORMAT})"
    return out


def schema_texts() -> dict[str, str]:
    """File name (`<kind>.schema.json`) -> its text: sorted keys, indent 2, trailing newline."""
    return {f"{cls.kind()}.schema.json": json.dumps(schema(cls), sort_keys=True, indent=2, ensure_ascii=False) + "\n"
            for cls in MODELS}


def export_schemas(folder: Path | str) -> list[Path]:
    """Write one JSON Schema per file model into `folder`; returns the paths written."""
    from formats.files import write_text

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_texts().items():
        write_text(folder / name, text)
        written.append(folder / name)
    return written
