"""What a scenario may be called: its name is its output folder (OUT/<name>/) on any system."""

from __future__ import annotations

import unicodedata

from formats.files import MAX_NAME_BYTES

MAX_NAME_CHARS = 64  # `.<name>.partial-<pid>-<n>` and `.cache/<name>` stay far below 255 bytes


def scenario_name(name: str) -> str:
    """The name, when it is a folder name on every file system: lower-case letters of any
    script, digits, '-' and '_' (not first), so no separators, dots ('..'), spaces, controls or
    NUL; one spelling per name (NFC, no upper case); bounded in bytes too (ValueError else)."""
    bad = sorted({c for c in name if not (c in "-_" or (c.isalnum() and c == c.lower()))})
    if bad:
        raise ValueError(f"name {name!r} holds {''.join(bad)!r}: only lower-case letters, digits, '-' and '_' "
                         "make a folder name on every system")
    if name[:1] in ("-", "_"):
        raise ValueError(f"name {name!r} starts with {name[0]!r}")
    if unicodedata.normalize("NFC", name) != name:
        raise ValueError(f"name {name!r} is not in Unicode NFC form (the same letters composed differently)")
    if len(name.encode()) > MAX_NAME_BYTES:
        raise ValueError(f"name is {len(name.encode())} bytes of UTF-8 (limit {MAX_NAME_BYTES})")
    return name
