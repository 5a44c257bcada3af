"""The canonical writer (spec section 2), independent of the codec under test: `JSON.stringify`
escaping, keys in the order the caller built them, numbers spelled by hand."""

from __future__ import annotations

import re
from typing import Any

from .schema_facts import TS, envelope_of


class Raw(str):
    """JSON text written as is (verbatim values, hand-spelled numbers)."""


_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


_SURROGATE = re.compile("[\ud800-\udfff]")


def json_string(s: str) -> str:
    """`JSON.stringify` of a string: the seven short escapes, other C0 controls as lower-case \\u00xx,
    lone surrogates as lower-case \\udxxx (ES2019 well-formed JSON.stringify; JavaScript strings are
    UTF-16, so adjacent high and low halves are one character, written raw)."""
    if _SURROGATE.search(s):
        s = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    out = ['"']
    for ch in s:
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif ord(ch) < 0x20 or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def canonical_json(v: Any) -> str:
    """Canonical JSON text: insertion order (callers build objects in schema order), no whitespace."""
    if isinstance(v, Raw):
        return str(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        assert abs(v) <= 2**53, "spell larger numbers by hand with Raw"
        return str(v)
    if isinstance(v, float):
        raise AssertionError("spell non-integers by hand with Raw")
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, list):
        return "[" + ",".join(canonical_json(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json_string(k) + ":" + canonical_json(x) for k, x in v.items()) + "}"
    raise TypeError(type(v))


def msg(payload_def: str, payload: dict[str, Any], origin: list[str] | None = None, ts: str = TS) -> dict[str, Any]:
    env = {"timestamp": ts, "type": envelope_of(payload_def), "payload": payload}
    if origin is not None:
        env["origin"] = origin
    return env


def line(m: dict[str, Any]) -> bytes:
    return (canonical_json(m) + "\n").encode("utf-8")


# ---------------------------------------------------------------------------
# Realistic values
