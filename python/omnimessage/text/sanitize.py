"""The one sanitiser: every string that comes from input goes through it before a terminal, a log or a report.

Input is hostile. A key, a value, a file name, a testee's name or stderr may hold escape
sequences (clear the screen, set the window title, write the clipboard with OSC 52, move the
cursor up and erase earlier findings), bidirectional overrides that reorder what is shown,
line breaks that forge report lines, or a line starting with `::` that GitHub Actions runs as a
workflow command. :func:`sanitize` makes such a string one harmless line:

- C0 controls (line feed and tab included), DEL and C1 controls become `\\xNN`;
- the bidirectional controls U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, the line and
  paragraph separators U+2028 and U+2029, and lone surrogates (undecodable bytes of a file name,
  `surrogateescape`) become `\\uNNNN`;
- a `:` that would start the line (only blanks before it) becomes `\\x3a`, so no output line
  starts with `::` from input;
- GitHub's legacy command syntax, which the Actions runner executes *anywhere* in a line
  (`##[stop-commands]`, `##[add-mask]...`, `##[error]...`): the `[` after `##` becomes `\\x5b`, and
  a `#` ending the string after another `#` becomes `\\x23`, so that no `##[` is left and none forms
  where the result meets the next piece of a line (`{key}[0]`).

Backslashes are kept as they are (`repr` texts stay readable): the result is harmless, not
reversible.

A string from input is also *clipped* before it is quoted to a person (:func:`clip_text`): a
JSON pointer, a key or a tool-call id may be a megabyte long, and one finding must stay one
readable line. The head and the tail are kept around `...(N characters)...`; the caps are
:data:`MAX_QUOTED_CHARS` (a pointer, an id, a detail) and :data:`MAX_MESSAGE_CHARS` (a whole
finding message). Machine answers (a conformance testee's pointers) are never clipped.

The TypeScript command line (typescript/src/cli/sanitize.ts) escapes and clips exactly the same
way; python/tests/test_hostile_output.py holds them together.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["MAX_MESSAGE_CHARS", "MAX_QUOTED_CHARS", "clip", "clip_text", "escape_bytes", "printable", "sanitize",
           "sanitize_lines"]

MAX_QUOTED_CHARS: Final = 200
"""The longest string from input (a JSON pointer, a key, an id, a refusal's detail) quoted whole in a
message; a longer one keeps its first 150 and last 50 characters (:func:`clip_text`)."""
MAX_MESSAGE_CHARS: Final = 1000
"""The longest finding message (and JSON pointer of a finding) kept whole; longer ones are clipped."""

_UNSAFE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)
_BLANKS: Final = " \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff"
_LEADING_COLON: Final = re.compile(f"^([{_BLANKS}]*):")
_LEGACY_COMMAND: Final = re.compile(r"(?<=##)\[|(?<=#)#\Z")
"""`##[` anywhere (the runner's legacy workflow command), and a `##` that ends the string."""


def _escape(m: re.Match[str]) -> str:
    n = ord(m.group())
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def sanitize(s: str) -> str:
    """`s` as one harmless line (see the module's documentation)."""
    return _LEADING_COLON.sub(r"\1\\x3a", _LEGACY_COMMAND.sub(_escape, _UNSAFE.sub(_escape, s)), count=1)


def sanitize_lines(text: str) -> str:
    """A text of our own lines (line feeds kept), every line made harmless as :func:`sanitize` does."""
    return "\n".join(sanitize(line) for line in text.split("\n"))


def clip_text(s: str, limit: int = MAX_QUOTED_CHARS) -> str:
    """`s` if at most `limit` characters (code points), else its first 3/4 and last 1/4 of `limit`
    around `...(N characters)...`, N the original length. Not sanitised: sanitise the result.
    The TypeScript command line's `clipText` (typescript/src/cli/sanitize.ts) clips the same way."""
    if len(s) <= limit:
        return s
    tail = limit // 4
    return f"{s[: limit - tail]}...({len(s)} characters)...{s[len(s) - tail :]}"


def printable(s: str, limit: int = 2000) -> str:
    """`s` cut to `limit` characters (`...` when cut), sanitised."""
    return sanitize(s[:limit]) + ("..." if len(s) > limit else "")


def escape_bytes(data: bytes) -> str:
    """Printable ASCII as is (backslash doubled), every other byte as \\xNN: one line, no surprises
    (`##[` and a final `##` escaped as :func:`sanitize` escapes them)."""
    out = []
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return _LEGACY_COMMAND.sub(_escape, "".join(out))  # harmless (never put at the start of a line)


def clip(data: bytes, limit: int = 160) -> str:
    """`data` escaped, cut after `limit` bytes (its length said when cut)."""
    return escape_bytes(data[:limit]) + (f"... ({len(data)} bytes)" if len(data) > limit else "")
