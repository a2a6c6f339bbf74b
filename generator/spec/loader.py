"""Reading a scenario file safely: every input limit is checked before any heavy work.

A scenario is a small hand-written file, so the loader refuses, with the file, the YAML path
and a fix, anything a person would not write: files over MAX_FILE_BYTES, bytes that are not
UTF-8, YAML aliases and anchors (an alias bomb expands a few hundred bytes into gigabytes),
explicit tags (`!!set`, `!!python/...`: plain mappings, lists, text, numbers and booleans
only), nesting deeper than MAX_DEPTH, more than MAX_NODES values, a text value over
MAX_TEXT_CHARS characters, a mapping or list used as a key, lone surrogates and NUL
characters. These run on the YAML event stream (no recursion, no construction), so a hostile
file costs at most a linear scan of its first MAX_FILE_BYTES bytes. Only then is the document
built, with a resolver that knows plain types only (no timestamps, no merge keys).
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 16  # a scenario needs 6 (relations.opposite[i][j][k])
MAX_NODES = 20_000
MAX_TEXT_CHARS = 1_000


class LoadIssue(Exception):
    """One refusal of the loader: YAML path (or line), problem, fix."""

    def __init__(self, path: str, problem: str, fix: str):
        self.path, self.problem, self.fix = path, problem, fix
        super().__init__(f"{path}: {problem} (fix: {fix})")


def read_text(path: Path) -> str:
    """The file's text: at most MAX_FILE_BYTES bytes of UTF-8 (a leading BOM is dropped)."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise LoadIssue("", f"file larger than {MAX_FILE_BYTES // 1024} KiB",
                        "a scenario is a short hand-written file; split it or remove generated content")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LoadIssue(f"line {line}, column {column}", f"byte 0x{data[exc.start]:02x} is not UTF-8 text",
                        "save the file as UTF-8") from None


def _mark(event) -> str:
    mark = event.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}"


def _where(stack: list[list]) -> str:
    """The YAML path of the node being read: keys for mappings, [i] for lists."""
    parts = ""
    for kind, count, key in stack:
        if kind == "map":
            if key is not None and count % 2 == 1:  # inside the value of `key`
                parts += ("." if parts else "") + key[:60]
        else:
            parts += f"[{max(count, 0)}]"
    return parts


def _check_text(value: str, where: str) -> None:
    if len(value) > MAX_TEXT_CHARS:
        raise LoadIssue(where, f"a value of {len(value)} characters (limit {MAX_TEXT_CHARS})", "shorten it")
    if "\x00" in value:
        raise LoadIssue(where, "a NUL character in the text", "remove the \\0 escape")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise LoadIssue(where, "a lone surrogate (an escape like \\ud800) is not a character",
                        "write the character itself, or a valid \\U escape") from None


def check_events(text: str) -> None:
    """Walk the YAML event stream and refuse what the loader does not build (see the module doc)."""
    stack: list[list] = []  # [kind, children seen, current key] per open collection
    nodes = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        path = _where(stack)
        where, at = (path, f" ({_mark(event)})") if path else (_mark(event), "")
        if isinstance(event, yaml.AliasEvent):
            raise LoadIssue(where, f"YAML alias *{event.anchor[:60]}{at}",
                            "write the value out in full; aliases and anchors are not supported")
        if not isinstance(event, (yaml.NodeEvent, yaml.CollectionEndEvent)):
            continue
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_NODES:
                raise LoadIssue(where, f"more than {MAX_NODES} values in one file", "a scenario needs far fewer; remove repeated content")
            if event.anchor is not None:
                raise LoadIssue(where, f"YAML anchor &{event.anchor[:60]}{at}",
                                "write the value out in full; aliases and anchors are not supported")
            if event.tag is not None:
                raise LoadIssue(where, f"YAML tag {event.tag[:60]}{at}",
                                "remove the tag: plain mappings, lists, text, numbers and booleans only")
            is_key = bool(stack) and stack[-1][0] == "map" and stack[-1][1] % 2 == 0
            if isinstance(event, yaml.ScalarEvent):
                _check_text(event.value, where)
                if is_key:
                    stack[-1][2] = event.value
            else:
                if is_key:
                    raise LoadIssue(where, f"a {'mapping' if isinstance(event, yaml.MappingStartEvent) else 'list'} "
                                           f"used as a key{at}", "keys are plain text, e.g. a room label")
                if len(stack) >= MAX_DEPTH:
                    raise LoadIssue(where, f"nested deeper than {MAX_DEPTH} levels{at}",
                                    "a scenario needs at most 6 levels; flatten the value")
                stack.append(["map" if isinstance(event, yaml.MappingStartEvent) else "seq", 0, None])
                continue
        else:
            stack.pop()
        if stack:  # a child of the open collection is complete
            stack[-1][1] += 1


class PlainLoader(yaml.SafeLoader):
    """SafeLoader that builds plain types only and refuses duplicate keys and non-text keys."""


# plain types only: no timestamps (a date label would become a datetime), no merge keys, no '='
PlainLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers
            if tag.rsplit(":", 1)[-1] in ("bool", "int", "float", "null")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_mapping(loader, node, deep=False):
    seen: dict = {}
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(None, None, "a mapping or list used as a key", key_node.start_mark)
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {str(key)[:60]!r} (first at line {seen[key] + 1})", key_node.start_mark)
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep)


PlainLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(text: str):
    """The document of `text` after check_events; YAMLError for bad syntax."""
    check_events(text)
    return yaml.load(text, Loader=PlainLoader)


_SAFE_LABEL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def unsafe_text(value: str) -> str | None:
    """Why a label or name cannot be used as given (control characters), else None."""
    bad = _SAFE_LABEL.search(value)
    return f"control character U+{ord(bad.group()):04X}" if bad else None
