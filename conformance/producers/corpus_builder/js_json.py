"""JSON.stringify as the reference calls it, and one trace / stream record."""

from __future__ import annotations

import math
from typing import Any

# ---------------------------------------------------------------------------------------------
# JSON.stringify, as the reference calls it (trace/writer.ts Writer.write, server channel.ts
# makeEvent): no whitespace, keys in insertion order, non-ASCII as raw UTF-8, only `"`, `\` and
# the C0 controls escaped (\b \f \n \r \t by name, the rest as lower-case \u00xx), lone UTF-16
# surrogates as lower-case \udxxx (well-formed JSON.stringify, ES2019). Python strings stand in
# for JavaScript strings: a lone surrogate is a lone surrogate code point, and a high + low pair
# of code points is the astral character JavaScript would see.
# ---------------------------------------------------------------------------------------------

_NAMED = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}


def _js_units(s: str) -> str:
    """Join surrogate code point pairs into the astral characters JavaScript would read."""
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def js_string(s: str) -> str:
    out = ['"']
    for ch in _js_units(s):
        c = ord(ch)
        if ch in _NAMED:
            out.append(_NAMED[ch])
        elif c < 0x20 or 0xD800 <= c <= 0xDFFF:
            out.append(f"\\u{c:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def js_number(x: int | float) -> str:
    """Number.prototype.toString for finite numbers (ECMA-262 Number::toString, radix 10)."""
    if isinstance(x, bool):
        raise TypeError("booleans are not numbers here")
    if isinstance(x, int):
        x = float(x) if abs(x) >= 2**53 else x
        if isinstance(x, int):
            return str(x)
    if not math.isfinite(x):
        return "null"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr gives the shortest round-tripping digits, as ECMAScript requires; re-lay them out.
    mantissa, _, exp = repr(abs(x)).partition("e")
    int_part, _, frac = mantissa.partition(".")
    digits = (int_part + frac).lstrip("0") or "0"
    point = len(int_part) + (int(exp) if exp else 0)  # decimal point position in int_part+frac
    lead_zeros = len(int_part + frac) - len((int_part + frac).lstrip("0"))
    n = point - lead_zeros  # value = 0.digits * 10**n
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    esign = "+" if e >= 0 else "-"
    body = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{body}e{esign}{abs(e)}"


def stringify(v: Any) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, str):
        return js_string(v)
    if isinstance(v, list):
        return "[" + ",".join(stringify(i) for i in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(js_string(k) + ":" + stringify(i) for k, i in v.items()) + "}"
    raise TypeError(f"not JSON: {type(v).__name__}")


def record(msg: dict[str, Any]) -> bytes:
    """One trace / stream line: the message, then a line feed, as one UTF-8 write (writer.ts)."""
    return (stringify(msg) + "\n").encode("utf-8", "surrogatepass")
