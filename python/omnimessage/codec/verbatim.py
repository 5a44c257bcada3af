"""The hand-written part of the builders: what the generated ones call (through `omnimessage.runtime`).

One rule for verbatim values given to a builder (schema/README.md): an empty object, in any form
(`{}` as a mapping, as JSON text with or without whitespace, as `Raw`), is left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from msgspec import UNSET, Raw, UnsetType

from omnimessage.codec import scan as _scan
from omnimessage.codec.write import write_json

JsonObject = Mapping[str, Any] | bytes | str | Raw
"""A verbatim value as builders take it: exact JSON text (bytes, str, Raw) or a mapping."""

ABSENT: Any = object()
"""Default of a nullable parameter: absent, distinct from an explicit `None` (written as `null`)."""

_EMPTY_OBJECT = re.compile(rb"\{[ \t\r\n]*\}")


def now() -> str:
    """The current time as `Date.toISOString()` writes it (UTC, milliseconds, `Z`)."""
    t = datetime.now(UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def raw_json(value: JsonObject) -> Raw:
    """A verbatim JSON object: exact text (bytes/str/Raw, checked, kept byte for byte) or a
    mapping (written as `JSON.stringify` would write it)."""
    if isinstance(value, Mapping):
        return Raw(write_json(value).encode("utf-8"))
    data = bytes(value) if isinstance(value, Raw) else value.encode("utf-8") if isinstance(value, str) else value
    try:
        node = _scan.scan(data.decode("utf-8"))
    except (UnicodeDecodeError, _scan.ScanError) as exc:
        raise ValueError(f"not a JSON text: {exc}") from None
    if node.kind != _scan.OBJ:
        raise ValueError("a verbatim value must be a JSON object")
    out = data.strip(b" \t\r\n")
    if (b"\n" in out or b"\r" in out) and not _EMPTY_OBJECT.fullmatch(out):
        # A message is one line (schema/README.md section 1.5): kept byte for byte, a raw LF
        # would split the record (and could smuggle a forged one onto its own line).
        raise ValueError("a verbatim value holds a raw line feed or carriage return (line_break): "
                         "a message is one line")
    return Raw(out)


def verbatim(value: JsonObject | None) -> Raw | UnsetType:
    """A verbatim value, or UNSET when absent or empty (the reference builders omit `{}`)."""
    if value is None:
        return UNSET
    raw = raw_json(value)
    return UNSET if _EMPTY_OBJECT.fullmatch(bytes(raw)) else raw
