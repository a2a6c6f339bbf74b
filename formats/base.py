"""Versioned file models: the typed contract of every file that passes between stages.

Each output file (scene.json, trajectory.json, ...) has one pydantic model, a subclass of
`FileModel`, with a version tag such as `"format": "egoscene.scene/1"` (`TAG`/`FORMAT`).
Models refuse unknown keys (`extra="forbid"`), so a writer and a reader that drift apart
fail loudly instead of silently dropping or inventing data.

Conventions of every model:
- A field without a default is always written; `X | None` without a default is written as
  `null` when there is no value (e.g. `room` of a frame in a hallway).
- A field with the default `None` is a key that is genuinely *absent* from some files
  (e.g. `walk` in manifest.json before rendering): it is left out when it is None.
- Derived values (`DERIVED`, pydantic computed fields such as the camera's `fx` or a frame's
  `cam_to_world`) are written for readers' convenience. Reading a file checks them against
  the values recomputed from the primary fields and refuses a file whose copies disagree.

Reading goes through `read_model(path, cls)` (JSON) or `read_records(path, cls)` (JSONL):
the version tag is checked first, then the content; both raise `FormatError` (a ValueError)
naming the file, what was found, what was expected and the fix. Writing goes through
`write_model` / `write_records`: atomic, sorted keys, floats rounded to 4 decimals
(formats.files), so the same inputs give the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, Iterable, Literal, TypeVar, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, model_serializer, model_validator

from formats import files

PACKAGE = "egoscene"
FIX = "regenerate it with this egoscene version (`egoscene generate SPEC --out DIR`)"
TAG_DESCRIPTION = "File format and version, `egoscene.<kind>/<N>`; readers refuse any other version."
DERIVED_TOLERANCE = 2e-4  # derived copies are rounded to 4 decimals like everything else


class FormatError(ValueError):
    """A file that is not in the format this egoscene version reads (wrong or missing version
    tag, missing or extra fields, values of the wrong type)."""


class StrictModel(BaseModel):
    """Base of every model in a file: unknown keys are refused; absent optional keys stay absent."""

    model_config = ConfigDict(extra="forbid", validate_default=True)
    DERIVED: ClassVar[tuple[str, ...]] = ()  # computed fields that files carry (checked on reading)

    @model_validator(mode="wrap")
    @classmethod
    def _derived_copies(cls, data: Any, handler, info: ValidationInfo):
        """Take the derived copies out of the input, validate, then compare them with the
        recomputed values. In files (`context={"file": ...}`) they are required."""
        given: dict[str, Any] = {}
        if cls.DERIVED and isinstance(data, dict):
            data = dict(data)
            given = {name: data.pop(name) for name in cls.DERIVED if name in data}
            from_file = bool(info.context and info.context.get("file"))
            missing = [name for name in cls.DERIVED if name not in given]
            if from_file and missing:
                raise ValueError(f"missing derived field(s) {', '.join(missing)} (written by every writer of this format)")
        model = handler(data)
        for name, value in given.items():
            expected = getattr(model, name)
            if not _close(value, expected):
                raise ValueError(f"{name} is {_short(value)} but the other fields give {_short(expected)} "
                                 f"(derived copies must agree; see the field descriptions)")
        return model

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler):
        data = handler(self)
        for name, field in type(self).model_fields.items():
            if not field.is_required() and field.default is None and getattr(self, name) is None:
                data.pop(field.alias or name, None)
        return data


class FileModel(StrictModel):
    """A whole file (or one JSONL record): carries its version tag in the key `TAG`."""

    TAG: ClassVar[str] = "format"
    FORMAT: ClassVar[str]  # e.g. "egoscene.scene/1"
    FILENAME: ClassVar[str]  # e.g. "scene.json" (its kind is the schema file name in docs/formats)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs):
        super().__pydantic_init_subclass__(**kwargs)
        if "FORMAT" not in cls.__dict__:
            return
        field = next((f for name, f in cls.model_fields.items() if (f.alias or name) == cls.TAG), None)
        if field is None or get_origin(field.annotation) is not Literal or get_args(field.annotation) != (cls.FORMAT,):
            raise TypeError(f"{cls.__name__}: field {cls.TAG!r} must be Literal[{cls.FORMAT!r}]")

    @classmethod
    def kind(cls) -> str:
        """`scene` for `egoscene.scene/1`."""
        return cls.FORMAT.split(".", 1)[1].split("/", 1)[0]


M = TypeVar("M", bound=FileModel)


def _close(a, b) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= DERIVED_TOLERANCE
    return a == b


def _short(value) -> str:
    text = json.dumps(files._rounded(value))
    return text if len(text) <= 120 else text[:117] + "..."


# ---------------------------------------------------------------------------- checking


def check_tag(data: Any, cls: type[FileModel], source: str) -> None:
    """FormatError unless `data` is a JSON object carrying exactly cls's version tag."""
    expected = cls.FORMAT
    if not isinstance(data, dict):
        raise FormatError(f"{source}: expected a JSON object in format {expected}, found {type(data).__name__} "
                          f"(fix: {FIX})")
    found = data.get(cls.TAG)
    if found is None:
        raise FormatError(f"{source}: no version tag {cls.TAG!r}; expected {cls.TAG!r}: {expected!r} "
                          f"(written by an older egoscene, or not an egoscene {cls.kind()} file; fix: {FIX})")
    if found != expected:
        kind_found = str(found).split("/", 1)[0]
        why = ("a different version of the same format" if kind_found == expected.split("/", 1)[0]
               else "a different kind of file")
        raise FormatError(f"{source}: format {found!r} but this egoscene reads {expected!r} ({why}; fix: {FIX})")


def _location(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part).startswith(("function-", "tagged-union[", "union[")):
            continue
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def describe(exc: ValidationError, limit: int = 5) -> str:
    """'field.path: message' for the first `limit` errors of a pydantic ValidationError."""
    parts = []
    for err in exc.errors(include_url=False)[:limit]:
        where = _location(tuple(err["loc"]))
        kind = err["type"]
        if kind == "missing":
            msg = "missing required field"
        elif kind == "extra_forbidden":
            msg = "unknown field (not in this format version)"
        else:
            msg = err["msg"]
            if kind not in ("value_error", "assertion_error") and "input" in err:
                msg += f" (found {_short(err['input'])})"
        parts.append(f"{where}: {msg}")
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f"; and {more} more problem(s)" if more > 0 else "")


def load_model(data: Any, cls: type[M], source: str) -> M:
    """Validate already-parsed JSON `data` (from file `source`) as `cls`: tag first, then fields."""
    check_tag(data, cls, source)
    try:
        return cls.model_validate(data, context={"file": source})
    except ValidationError as exc:
        raise FormatError(f"{source}: not a valid {cls.FORMAT} file: {describe(exc)} "
                          f"(fix: {FIX}; the format is docs/formats/{cls.kind()}.schema.json)") from None


def read_model(path: Path | str, cls: type[M]) -> M:
    """Read a JSON file as `cls` (FormatError naming the file on any mismatch)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise FormatError(f"{path}: not JSON ({exc}; fix: {FIX})") from None
    return load_model(data, cls, str(path))


# ---------------------------------------------------------------------------- writing


def dump_model(model: StrictModel) -> dict:
    """The JSON content of a model (plain types, derived copies included, absent keys left out)."""
    return model.model_dump(mode="json", by_alias=True)


def model_text(model: FileModel) -> str:
    """The exact text `write_model` writes."""
    return files.dumps(dump_model(model))


def write_model(path: Path | str, model: FileModel) -> None:
    """Write a file model atomically: sorted keys, 2-space indent, floats rounded to 4 decimals."""
    if not isinstance(model, FileModel):
        raise TypeError(f"write_model needs a FileModel, got {type(model).__name__}")
    files.write_text(Path(path), model_text(model))


# ---------------------------------------------------------------------------- JSONL


def record_line(record: FileModel) -> str:
    """One JSONL line (no newline): sorted keys, no indent, floats rounded to 4 decimals."""
    return json.dumps(files._rounded(dump_model(record)), sort_keys=True, ensure_ascii=False)


def records_text(records: Iterable[FileModel]) -> str:
    return "".join(record_line(r) + "\n" for r in records)


def write_records(path: Path | str, records: Iterable[FileModel]) -> None:
    """Write JSONL atomically, one record model per line."""
    records = list(records)
    for r in records:
        if not isinstance(r, FileModel):
            raise TypeError(f"write_records needs FileModel records, got {type(r).__name__}")
    files.write_text(Path(path), records_text(records))


def read_records(path: Path | str, cls: type[M]) -> list[M]:
    """Read JSONL, each line a `cls` record (FormatError naming the file and line)."""
    path = Path(path)
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"{path}:{n}: not JSON ({exc}; fix: {FIX})") from None
        out.append(load_model(data, cls, f"{path}:{n}"))
    return out
