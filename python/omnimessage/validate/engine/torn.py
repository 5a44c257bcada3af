"""What a crash can leave in a trace: is a line a proper prefix of a record?

The reference trace writer heals a torn last line by prefixing its next record with a line feed,
so the torn bytes end up as a line of their own in the middle of the file (protocol facts 9). Only
a proper prefix of a JSON object counts as torn: bytes that go wrong before they run out (two
records spliced together, a stray character) are a different defect and stay an error.

`is_record_prefix` is a small pushdown recogniser over the bytes: linear in the line, regular
expressions for the long runs (string bodies, numbers), a stack as deep as the line nests.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["is_record_prefix"]

_WS: Final = re.compile(rb"[ \t\r\n]*+")
_STRING_BODY: Final = re.compile(rb'(?:[^"\\\x00-\x1f]++|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*+')
_ESCAPE_PREFIX: Final = re.compile(rb'\\(?:u[0-9a-fA-F]{0,3})?\Z')
_NUMBER: Final = re.compile(rb"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?")
_NUMBER_PREFIX: Final = re.compile(
    rb"-?(?:(?:0|[1-9][0-9]*+)(?:\.|\.[0-9]++(?:[eE][+-]?[0-9]*+)?|[eE][+-]?[0-9]*+)?)?"
)
_LITERALS: Final = {ord("t"): b"true", ord("f"): b"false", ord("n"): b"null"}

# what the recogniser expects next
_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE, _COLON, _AFTER_VALUE = range(6)


def _run_end(pattern: re.Pattern[bytes], raw: bytes, i: int, n: int) -> int:
    """Where a run of `pattern` (which matches the empty string too) starting at `i` ends."""
    m = pattern.match(raw, i, n)
    return i if m is None else m.end()


def _utf8_prefix_length(raw: bytes) -> int:
    """The length of the well-formed UTF-8 part of `raw`; -1 when it is ill-formed before its end."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        if err.end == len(raw) and err.reason == "unexpected end of data":
            return err.start  # a multi-byte character cut at the end
        return -1
    return len(raw)


def is_record_prefix(raw: bytes) -> bool:
    """True when `raw` is a proper, non-empty prefix of a JSON object text: what a write cut short
    leaves. A complete JSON text, or bytes that break the grammar before they end, are not."""
    n = _utf8_prefix_length(raw)
    if n <= 0 or raw[0] != 0x7B:  # `{`
        return False
    cut = n < len(raw)  # a multi-byte character cut at the end: only possible inside a string
    stack = bytearray(b"{")
    state = _KEY_OR_CLOSE
    i = 1
    while True:
        i = _run_end(_WS, raw, i, n)
        if i == n:
            return not cut  # the bytes ran out inside the object: a proper prefix
        c = raw[i]
        if state == _AFTER_VALUE:
            top = stack[-1]
            if c == 0x2C:  # `,`
                state = _KEY if top == 0x7B else _VALUE
                i += 1
            elif (c == 0x7D and top == 0x7B) or (c == 0x5D and top == 0x5B):  # `}` `]`
                del stack[-1]
                i += 1
                if not stack:
                    return False  # the object is complete: not a torn record
            else:
                return False
        elif state == _COLON:
            if c != 0x3A:  # `:`
                return False
            state = _VALUE
            i += 1
        elif c == 0x22:  # `"`: a string, a key or a value
            if state not in (_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE):
                return False
            j = _run_end(_STRING_BODY, raw, i + 1, n)
            if j == n:
                return True  # inside the string (a cut character included)
            if raw[j] == 0x22:
                i = j + 1
                state = _COLON if state in (_KEY, _KEY_OR_CLOSE) else _AFTER_VALUE
            else:  # a backslash starting an escape the bytes cut short, or a control character
                return not cut and _ESCAPE_PREFIX.match(raw, j, n) is not None
        elif state in (_KEY, _KEY_OR_CLOSE):
            if c == 0x7D and state == _KEY_OR_CLOSE:
                del stack[-1]
                i += 1
                if not stack:
                    return False
                state = _AFTER_VALUE
            else:
                return False
        elif c == 0x5D and state == _VALUE_OR_CLOSE:
            del stack[-1]
            i += 1
            state = _AFTER_VALUE
        elif c == 0x7B or c == 0x5B:  # `{` `[`
            stack.append(c)
            i += 1
            state = _KEY_OR_CLOSE if c == 0x7B else _VALUE_OR_CLOSE
        elif c == 0x2D or 0x30 <= c <= 0x39:  # a number
            if _NUMBER_PREFIX.fullmatch(raw, i, n) is not None:
                return not cut  # the number may go on
            m = _NUMBER.match(raw, i, n)
            if m is None:
                return False
            i = m.end()
            state = _AFTER_VALUE
        elif c in _LITERALS:
            lit = _LITERALS[c]
            tail = raw[i:i + len(lit)]
            if tail == lit:
                i += len(lit)
                state = _AFTER_VALUE
            else:
                return not cut and i + len(tail) == n and lit.startswith(tail)
        else:
            return False
