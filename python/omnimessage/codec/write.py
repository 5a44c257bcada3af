"""Canonical JSON writing for what msgspec's encoder cannot spell the ECMAScript way.

The reference producer serialises with JavaScript `JSON.stringify`; the canonical form is
what it writes. msgspec already escapes strings exactly as `JSON.stringify` does, so this
module only covers the rest: numbers (`Number::toString`: `5` not `5.0`, `1e+21`, `1e-7`),
strings holding lone surrogates (written as `\\udXXX`, which UTF-8 cannot carry), and plain
Python values turned into verbatim JSON by the builders.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal

import msgspec

_ESCAPE = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(m: re.Match[str]) -> str:
    c = m.group(0)
    return _SHORT.get(c) or f"\\u{ord(c):04x}"


def quote(s: str) -> str:
    """`JSON.stringify` of a string (lone surrogates escaped, everything else raw)."""
    return '"' + _ESCAPE.sub(_escape_char, s) + '"'


def es_number(x: float | int) -> str:
    """ECMAScript `Number::toString` of the IEEE double nearest `x` (RFC 8785 section 3.2.2.3)."""
    if isinstance(x, int) and not isinstance(x, bool) and -(2**53) <= x <= 2**53:
        return str(x)
    try:
        f = float(x)
    except OverflowError:
        raise ValueError("integer beyond the IEEE 754 double range has no JSON number spelling") from None
    if math.isnan(f) or math.isinf(f):
        raise ValueError(f"{x!r} has no JSON spelling")
    if f == 0:
        return "0"
    sign = "-" if f < 0 else ""
    t = Decimal(repr(abs(f))).as_tuple()  # repr is the shortest round-trip spelling
    raw = "".join(map(str, t.digits))
    n = len(raw) + int(t.exponent)  # value = 0.DIGITS x 10^n
    digits = raw.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mant = digits if k == 1 else digits[0] + "." + digits[1:]
        body = f"{mant}e{'+' if e > 0 else '-'}{abs(e)}"
    return sign + body


def write_json(value: object) -> str:
    """`JSON.stringify` of a plain value (dict, list, tuple, str, int, float, bool, None, Raw)."""
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def _write(v: object, out: list[str]) -> None:
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, str):
        out.append(quote(v))
    elif isinstance(v, (int, float)):
        out.append(es_number(v))
    elif isinstance(v, msgspec.Raw):
        out.append(bytes(v).decode("utf-8", "surrogatepass"))
    elif isinstance(v, msgspec.Struct):
        out.append("{")
        first = True
        cfg = v.__struct_config__
        if cfg.tag_field is not None:
            out.append(f"{quote(cfg.tag_field)}:{quote(str(cfg.tag))}")
            first = False
        for name in v.__struct_fields__:
            fv = getattr(v, name)
            if fv is msgspec.UNSET:
                continue
            if not first:
                out.append(",")
            first = False
            out.append(quote(name) + ":")
            _write(fv, out)
        out.append("}")
    elif isinstance(v, Mapping):
        out.append("{")
        for i, (k, fv) in enumerate(v.items()):
            if not isinstance(k, str):
                raise TypeError(f"JSON object keys must be strings, got {type(k).__name__}")
            if i:
                out.append(",")
            out.append(quote(k) + ":")
            _write(fv, out)
        out.append("}")
    elif isinstance(v, Sequence):
        out.append("[")
        for i, item in enumerate(v):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    else:
        raise TypeError(f"cannot write {type(v).__name__} as JSON")
