# ruff: noqa: E501  (fixture lines are long literals)
"""Cases tagged `one-line`: a message is one line (schema/README.md section 1.5, issue 32).

A raw CR anywhere in a message, verbatim values included, is `line_break`; only the JSON
whitespace after the value may hold one. The testee protocol sends one line of a file (at most one
LF, at its end: TESTEE-PROTOCOL.md), so these cases carry CR; a raw LF inside a buffer handed to a
decoder is the same refusal, tested by each binding's own tests.
"""

from __future__ import annotations

from .collector import CASES, rejection_case
from .hand_written_lines import GOOD_LINE, GOOD_LINE_BYTES, TIMESTAMP_MEMBER, event_line, model_line, user_text_line

_T = ["one-line"]
_B = "line_break"


def _fid(fidelity: str) -> str:
    return model_line('{"type":"thinking","role":"assistant","thinking":"ok","fidelity":' + fidelity + "}")


def generate_one_line() -> None:
    """The `line_break` cases, its precedence, lenient mode, and what stays accepted."""
    rejection_case("cr-in-fidelity", "a raw CR between the members of `fidelity` (JSON whitespace, but inside the message)",
                   _fid('{"a":1,\r"b":2}').encode()[:-1] + b"\r\n", _B, "1.5", tags=[*_T, "verbatim"])
    rejection_case("forged-record-in-fidelity", "a complete message between two raw CRs inside `fidelity`: a reader splitting at CR would read it as a record of its own",
                   _fid('{"signature":\r' + GOOD_LINE + "\r}"), _B, "1.5", tags=[*_T, "verbatim"])
    rejection_case("cr-in-tool-parameters", "a raw CR inside a tool's `parameters`",
                   event_line('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":{"type":"object",\r"properties":{}}}]}'),
                   _B, "1.5", tags=[*_T, "verbatim"])
    rejection_case("cr-in-hook-output", "a raw CR before the closing brace of a hook's `output`",
                   event_line('{"type":"hook","hook":"stop","name":"h","output":{"a":"b"\r}}'), _B, "1.5", tags=[*_T, "verbatim"])
    rejection_case("cr-in-string", "a raw CR inside a string (was `invalid_json` before suite 3.0.0)",
                   user_text_line("a\rb"), _B, "1.5", tags=_T)
    rejection_case("cr-in-fidelity-string", "a raw CR inside a string of a verbatim value",
                   _fid('{"s":"a\rb"}'), _B, "1.5", tags=[*_T, "verbatim"])
    rejection_case("cr-between-tokens", "a raw CR between an envelope key and its colon",
                   "{" + TIMESTAMP_MEMBER + ',"type"\r:"event_msg","payload":{"type":"request_begin"}}\n', _B, "1.5", tags=_T)
    rejection_case("cr-before-object", "a raw CR before the object",
                   b"\r" + GOOD_LINE_BYTES + b"\n", _B, "1.5", tags=_T)
    rejection_case("cr-then-trailing-data", "a raw CR after the object, then more text: the CR is not in the trailing whitespace, `line_break` before `trailing_data`",
                   GOOD_LINE_BYTES + b"\r x\n", _B, "1.5", tags=[*_T, "precedence"])
    rejection_case("cr-then-syntax-error", "a raw CR, then a syntax error: a check on bytes, before the grammar",
                   "{" + TIMESTAMP_MEMBER + ',\r"type":,}\n', _B, "1.5", tags=[*_T, "precedence"])
    rejection_case("cr-torn", "a last line without LF, cut after a raw CR inside it: `line_break` keeps its category (only `invalid_utf8` and `invalid_json` become `truncated`)",
                   ("{" + TIMESTAMP_MEMBER + ',\r"type":"event').encode(), _B, "1.5", tags=[*_T, "torn"])
    rejection_case("utf8-before-line-break", "invalid UTF-8 after a raw CR: UTF-8 (level 1) comes first",
                   _fid('{"a":1,\r"b":"X"}').encode().replace(b'"X"', b'"\xff"'), "invalid_utf8", "1.5", tags=[*_T, "precedence"])
    rejection_case("limit-before-line-break", "a line over the reader's limit holding a raw CR: `too_large` comes first",
                   GOOD_LINE_BYTES + b"\r x\n", "too_large", "7.2", tags=[*_T, "precedence"], max_line_bytes=len(GOOD_LINE_BYTES))
    CASES.add("line-break-refused", "lenient", "lenient mode still refuses a raw CR inside an object it would keep opaque (an unknown payload type)", "5",
              event_line('{"type":"request_ended",\r"x":1}').encode(), mode="lenient", expect="reject", category=_B, tags=_T)
    CASES.add("line-break-in-fidelity-refused", "lenient", "lenient mode refuses a raw CR inside `fidelity` of a valid message", "5",
              _fid('{"a":1,\r"b":2}').encode(), mode="lenient", expect="reject", category=_B, tags=_T)
    CASES.add("framing.cr-space-cr-lf", "canonicalization", "CR, space, tab and CR after the object, then LF: all JSON whitespace after the value, accepted", "1.5",
              GOOD_LINE_BYTES + b"\r \t\r\n", expect="canonical", output=GOOD_LINE_BYTES, tags=_T)
