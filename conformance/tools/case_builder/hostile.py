# ruff: noqa: E501  (fixture lines are long literals)
"""Cases tagged `hostile`: what third-party traces, network streams and fuzzers throw at a decoder."""

from __future__ import annotations

from collections.abc import Iterable

from .canonical_json import json_string, line, msg
from .collector import CASES, Parts, rejection_case
from .hand_written_lines import (
    GOOD_LINE,
    GOOD_LINE_BYTES,
    REQUEST_BEGIN,
    TIMESTAMP_MEMBER,
    event_line,
    model_line,
    user_text_line,
)
from .payload_values import minimal
from .schema_facts import CHILD

# hostile: what third-party traces, network streams and fuzzers throw at a decoder (issue 7).
# Every case is tagged `hostile` (`omnimessage conformance --category hostile`); they sit in
# the group of their expectation. Huge inputs are written as compact `parts` in the manifest.
# File-level hostile inputs (a million lines, empty and binary files, 100 MB lines) are in
# conformance/hostile/.

MEGA = 10**6  # "10^6-digit numbers"
DEEP = 10**5  # "nesting 10^5 deep"

# Existing cases that belong to the hostile catalogue too (tagged `hostile` as well).
EXISTING_HOSTILE = {
    "rejection.invalid_utf8.overlong-c0af",
    "rejection.invalid_utf8.overlong-e080af",
    "rejection.invalid_utf8.overlong-4-byte",
    "rejection.invalid_utf8.encoded-surrogate",
    "rejection.invalid_utf8.truncated-sequence",
    "rejection.invalid_utf8.byte-ff",
    "rejection.invalid_json.bom",
    "rejection.invalid_json.bom-in-whitespace",
    "rejection.invalid_json.raw-nul",
    "rejection.invalid_json.whitespace-nul",
    "rejection.trailing_data.nul",
    "rejection.lone_surrogate.high",
    "rejection.lone_surrogate.low",
    "rejection.lone_surrogate.reversed-pair",
    "rejection.duplicate_key.envelope-type",
    "rejection.duplicate_key.payload-type",
    "rejection.duplicate_key.after-unescaping",
    "rejection.duplicate_key.token-counts",
    "rejection.duplicate_key.tool-definition",
    "rejection.invalid_json.nan",
    "rejection.invalid_json.infinity",
    "rejection.invalid_json.minus-infinity",
    "rejection.invalid_json.bare-minus",
    "rejection.invalid_json.leading-zero",
    "rejection.invalid_json.bare-dot",
    "rejection.too_deep.array-100000",
    "rejection.too_deep.unclosed-100000",
    "rejection.wrong_type.top-array",
    "rejection.wrong_type.top-string",
    "rejection.wrong_type.top-number",
    "rejection.wrong_type.top-null",
    "rejection.invalid_json.trailing-comma-object",
    "rejection.invalid_json.trailing-comma-array",
    "rejection.invalid_json.comment-block",
    "rejection.invalid_json.comment-line",
    "rejection.invalid_json.single-quotes",
    "rejection.invalid_json.unquoted-key",
    "verbatim.fidelity.number-1e6-digits",
    "verbatim.hook-output.number-1e6-digits",
    "verbatim.fidelity.keys-proto",
    "canonicalization.framing.crlf",
}


def generate_hostile() -> None:
    H = ["hostile"]

    def fid(f: str) -> str:
        return model_line('{"type":"thinking","role":"assistant","thinking":"x","fidelity":' + f + "}")

    def hrej(cid: str, desc: str, data: bytes | str, category: str, pointer: str | None = None, spec: str = "4",
             tags: Iterable[str] = ()) -> None:
        rejection_case(cid, desc, data, category, spec, pointer, [*H, *tags])

    def huge_rej(cid: str, desc: str, parts: Parts, category: str, pointer: str | None = None,
                 tags: Iterable[str] = ()) -> None:
        CASES.add(f"{category}.{cid}", "rejection", desc, "4", b"", expect="reject", category=category,
              pointer=pointer, tags=[*H, "large", *tags], parts=parts)

    def head_tail(line: str, marker: str) -> tuple[str, str]:
        a, b = line.split(marker)
        return a, b

    # --- invalid UTF-8 -------------------------------------------------------------
    U = "invalid_utf8"
    tx = user_text_line("X").encode()
    for name, bad, desc in [
        ("overlong-nul", b"\xc0\x80", "an overlong NUL (C0 80, 'modified UTF-8')"),
        ("cesu8-pair", b"\xed\xa0\xbd\xed\xb8\x80", "a surrogate pair encoded as two 3-byte sequences (CESU-8)"),
        ("encoded-low-surrogate", b"\xed\xb0\x80", "a low surrogate encoded in UTF-8 (ED B0 80)"),
        ("five-byte-form", b"\xf8\x88\x80\x80\x80", "an obsolete 5-byte sequence"),
        ("latin1", b"caf\xe9", "Latin-1 text (E9 followed by a quote)"),
        ("truncated-4-byte", b"\xf0\x9f\x98", "a 4-byte sequence missing its last byte"),
    ]:
        hrej(name, f"invalid UTF-8 inside a string: {desc}", tx.replace(b'"X"', b'"' + bad + b'"'), U,
             tags=["utf8"])
    hrej("overlong-in-key", "an overlong '/' (C0 AF) inside an object key",
         event_line(REQUEST_BEGIN).encode().replace(b'"payload"', b'"pay\xc0\xafload"'), U, tags=["utf8"])
    hrej("truncated-before-lf", "a multi-byte sequence cut just before the line feed, after the object",
         GOOD_LINE_BYTES + b"\xe2\x82\n", U, tags=["utf8", "precedence"])
    hrej("utf16le-with-bom", "the message encoded as UTF-16LE with its byte order mark",
         b"\xff\xfe" + GOOD_LINE.encode("utf-16-le") + b"\n", U, tags=["utf8", "bom"])
    hrej("in-parameters", "a UTF-8-encoded surrogate inside tool parameters (UTF-8 applies to verbatim values too)",
         event_line('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":{"s":"X"}}]}')
         .encode().replace(b'"X"', b'"\xed\xa0\x80"'), U, tags=["utf8", "verbatim"])

    # --- byte order marks, CR, NUL ----------------------------------------------------
    J = "invalid_json"
    hrej("bom-only", "a line holding only a byte order mark", b"\xef\xbb\xbf\n", J, spec="1.1", tags=["bom"])
    hrej("bom-twice", "two byte order marks before the object", b"\xef\xbb\xbf\xef\xbb\xbf" + GOOD_LINE_BYTES + b"\n", J,
         spec="1.1", tags=["bom"])
    hrej("bom-inside-fidelity", "a byte order mark between tokens inside a verbatim value",
         fid('{"a":1,\ufeff"b":2}'), J, spec="3.2", tags=["bom", "verbatim"])
    hrej("bom-torn", "a byte order mark before a complete object on a last line with no line feed (it does "
         "not decode: a torn write)", b"\xef\xbb\xbf" + GOOD_LINE_BYTES, "truncated", spec="1.4", tags=["bom"])
    hrej("cr-only-line", "a line holding only CR (an empty CRLF line)", b"\r\n", J, tags=["cr"])
    hrej("nul-only-line", "a line holding one NUL byte", b"\x00\n", J, tags=["nul"])
    hrej("nul-padding", "a line of 4096 NUL bytes (the zero-filled tail of a file a crash preallocated)",
         b"\x00" * 4096 + b"\n", J, tags=["nul"])
    hrej("nul-before-object", "a NUL byte before the object", b"\x00" + GOOD_LINE_BYTES + b"\n", J, tags=["nul"])
    hrej("nul-in-key", "a raw NUL inside an object key", event_line(REQUEST_BEGIN).replace('"payload"', '"pay\x00load"'), J,
         tags=["nul"])
    hrej("nul-in-fidelity", "a raw NUL inside a string of a verbatim value", fid('{"s":"a\x00b"}'), J, spec="3.2",
         tags=["nul", "verbatim"])
    hrej("cr-between-messages", "two messages separated by a lone CR (old Mac line endings): a raw CR inside "
         "the line, before its last value (section 1.5)", GOOD_LINE + "\r" + GOOD_LINE + "\n", "line_break", spec="1.5", tags=["cr"])
    CASES.add("framing.cr-terminated-last-line", "canonicalization",
          "a last line ending with CR and no LF: CR is JSON whitespace, the line decodes", "1.3",
          GOOD_LINE_BYTES + b"\r", expect="canonical", output=GOOD_LINE_BYTES, tags=[*H, "cr"])
    CASES.add("framing.cr-cr-lf", "canonicalization", "CR CR LF: both CRs are JSON whitespace", "1.3",
          GOOD_LINE_BYTES + b"\r\r\n", expect="canonical", output=GOOD_LINE_BYTES, tags=[*H, "cr"])

    # --- lone and reversed surrogates ------------------------------------------------
    L = "lone_surrogate"
    hrej("high-before-pair", "a high surrogate followed by a valid pair", user_text_line("\\udbff\\ud83d\\ude00"), L,
         pointer="/payload/text")
    hrej("pair-split-by-escape", "a pair split by another escape", user_text_line("\\ud83d\\n\\ude00"), L,
         pointer="/payload/text")
    hrej("reversed-in-key", "a reversed pair escaped in a key", event_line('{"type":"request_begin","\\udc00\\ud800":1}'), L)
    hrej("low-in-error-message", "a lone low surrogate in an error message",
         event_line('{"type":"request_end","status":"fatal","error_code":"auth","error_message":"x\\uDC00"}'), L,
         pointer="/payload/error_message")
    hrej("fragment-lone-in-complete-text", "the complete text after a stream cut mid-pair must hold the joined pair, "
         "not a lone half", model_line('{"type":"text","role":"assistant","text":"abc\\ud83d"}'), L, pointer="/payload/text")

    # --- duplicate keys at every level ----------------------------------------------
    K = "duplicate_key"
    hrej("envelope-timestamp", "the envelope timestamp twice",
         "{" + TIMESTAMP_MEMBER + "," + TIMESTAMP_MEMBER + ',"type":"event_msg","payload":' + REQUEST_BEGIN + "}\n", K, pointer="/timestamp")
    hrej("envelope-payload", "the payload twice (a second, valid one after an invalid one)",
         "{" + TIMESTAMP_MEMBER + ',"type":"event_msg","payload":{"type":"nope"},"payload":' + REQUEST_BEGIN + "}\n", K, pointer="/payload")
    hrej("envelope-origin", "origin twice", event_line(REQUEST_BEGIN, ',"origin":["a"],"origin":["b"]'), K, pointer="/origin")
    hrej("envelope-escaped-type", '`"type"` and `"typ\\u0065"` collide in the envelope',
         "{" + TIMESTAMP_MEMBER + ',"type":"event_msg","typ\\u0065":"event_msg","payload":' + REQUEST_BEGIN + "}\n", K, pointer="/type",
         tags=["escape"])
    hrej("envelope-all-escaped", "a key escaped in full (`\\u0074\\u0079\\u0070\\u0065`) collides with `type`",
         "{" + TIMESTAMP_MEMBER + ',"\\u0074\\u0079\\u0070\\u0065":"event_msg","type":"event_msg","payload":' + REQUEST_BEGIN + "}\n", K,
         pointer="/type", tags=["escape"])
    hrej("escaped-fidelity-key", '`"fidelity"` and `"fid\\u0065lity"` collide (outside the verbatim value)',
         model_line('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{},"fid\\u0065lity":{}}'), K,
         pointer="/payload/fidelity", tags=["escape", "verbatim"])
    hrej("tool-parameters", "a ToolDefinition's `parameters` key twice",
         event_line('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","parameters":{},"parameters":{}}]}'),
         K, pointer="/payload/tools/0/parameters")
    hrej("server-result", "an McpServerResult key twice",
         event_line('{"type":"mcp_connect_end","status":"completed","results":[{"server":"s","transport":"stdio",'
            '"status":"completed","duration_ms":1,"server":"t"}]}'), K, pointer="/payload/results/0/server")
    hrej("hook-output-key", "the hook `output` key twice", event_line('{"type":"hook","hook":"stop","name":"h","output":{},'
                                                              '"output":{}}'), K, pointer="/payload/output")
    hrej("proto-twice", "`__proto__` twice in the envelope (duplicate before unexpected)",
         event_line(REQUEST_BEGIN, ',"__proto__":{},"__proto__":{}'), K, pointer="/__proto__", tags=["proto", "precedence"])
    a0, b0 = head_tail(event_line('{"type":"request_begin",@}'), "@")
    huge_rej("payload-100000-members", "a payload with 100000 members all named `x` (the second one is reported)",
             [(a0, 1), ('"x":1,', DEEP - 1), ('"x":1' + b0, 1)], K, pointer="/payload/x")

    # --- numbers ---------------------------------------------------------------------
    def retry(v: str) -> str:
        return event_line('{"type":"request_end","status":"completed","retry_in_ms":' + v + "}")

    for name, v in [
        ("nan-lowercase", "nan"),
        ("minus-nan", "-NaN"),
        ("minus-leading-zero", "-01"),
        ("dot-exponent", "1.e5"),
        ("exponent-sign-only", "1e+"),
        ("double-minus", "--1"),
        ("underscore", "1_000"),
        ("fraction-dot-only", "0."),
    ]:
        hrej(f"number-{name}", f"{v} is not a JSON number", retry(v), J)
    hrej("infinity-in-fidelity", "Infinity inside a verbatim value", fid('{"n":Infinity}'), J, spec="3.2",
         tags=["verbatim"])
    hrej("minus-in-hook-output", "a bare minus inside hook output",
         event_line('{"type":"hook","hook":"stop","name":"h","output":{"n":-}}'), J, spec="3.2", tags=["verbatim"])
    hrej("bare-dot-in-parameters", "`1.` inside tool parameters",
         event_line('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":{"maximum":1.}}]}'), J,
         spec="3.2", tags=["verbatim"])
    hrej("leading-zero-in-fidelity-array", "`01` inside an array of a verbatim value", fid('{"a":[1,01]}'), J,
         spec="3.2", tags=["verbatim"])
    hrej("nan-top-level", "a line holding only NaN", "NaN\n", J)

    # 10^6-digit numbers outside verbatim values
    NB = "invalid_number"
    a, b = head_tail(retry("@"), "@")
    huge_rej("retry-1e6-digits", "a 10^6-digit integer in a number field (beyond the double range)",
             [(a, 1), ("7", MEGA), (b, 1)], NB, pointer="/payload/retry_in_ms", tags=["number-spelling"])
    huge_rej("retry-minus-1e6-digits", "a negative 10^6-digit integer", [(a + "-", 1), ("7", MEGA), (b, 1)], NB,
             pointer="/payload/retry_in_ms", tags=["number-spelling"])
    huge_rej("retry-exponent-1e6-digits", "an exponent of 10^6 digits (beyond the double range)",
             [(a + "1e", 1), ("9", MEGA), (b, 1)], NB, pointer="/payload/retry_in_ms", tags=["number-spelling"])
    a2, b2 = head_tail(event_line('{"type":"request_end","status":"completed","attempt":@}'), "@")
    huge_rej("attempt-1e6-digits", "a 10^6-digit integer in an integer field", [(a2, 1), ("3", MEGA), (b2, 1)], NB,
             pointer="/payload/attempt", tags=["number-spelling"])
    huge_rej("attempt-1e6-zeros-fraction", "1.000... (10^6 zeros) in an integer field: integral, with a fraction",
             [(a2 + "1.", 1), ("0", MEGA), (b2, 1)], NB, pointer="/payload/attempt", tags=["number-spelling"])
    a3, b3 = head_tail(event_line('{"type":"token_usage","request":{"cache_read":@,"cache_write":0,"output":0,"total":0},'
                          '"session":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'), "@")
    huge_rej("tokens-1e6-digits", "a 10^6-digit token count", [(a3, 1), ("9", MEGA), (b3, 1)], NB,
             pointer="/payload/request/cache_read", tags=["number-spelling"])
    a4, b4 = head_tail(line(msg("SessionMetaPayload", minimal("SessionMetaPayload"))).decode(), '"model_context_window":')
    ctx_rest = b4.split(",", 1)[1]
    huge_rej("context-window-1e6-digits", "a 10^6-digit model_context_window (number or string: a number here)",
             [(a4 + '"model_context_window":', 1), ("1", MEGA), ("," + ctx_rest, 1)], NB,
             pointer="/payload/model_context_window", tags=["number-spelling"])

    # 10^6-digit numbers that are valid: canonical ECMAScript spelling
    def canon_retry(cid: str, desc: str, parts: Parts, out: str) -> None:
        CASES.add(f"number.{cid}", "canonicalization", desc, "2.5", b"", expect="canonical",
              output=retry(out).rstrip("\n").encode(), parts=parts, tags=[*H, "large", "number-spelling"])

    canon_retry("zeros-fraction-1e6", "0.000...01 with 10^6 digits (underflows to 0)",
                [(a + "0.", 1), ("0", MEGA), ("1" + b, 1)], "0")
    canon_retry("one-point-1e6-zeros", "1. followed by 10^6 zeros", [(a + "1.", 1), ("0", MEGA), (b, 1)], "1")
    canon_retry("thirds-1e6", "0.333... with 10^6 threes (correctly rounded)", [(a + "0.", 1), ("3", MEGA), (b, 1)],
                "0.3333333333333333")
    canon_retry("exponent-1e6-leading-zeros", "1e0...01: an exponent of 10^6 digits, value 10",
                [(a + "1e", 1), ("0", MEGA), ("1" + b, 1)], "10")
    canon_retry("negative-exponent-1e6-digits", "1e-999...: an exponent of 10^6 digits underflowing to 0",
                [(a + "1e-", 1), ("9", MEGA), (b, 1)], "0")

    # 10^6-digit numbers inside verbatim values: kept byte for byte
    def keep(cid: str, desc: str, parts: Parts, group: str = "verbatim", tags: Iterable[str] = ()) -> None:
        CASES.add(cid, group, desc, "3", b"", parts=parts, tags=[*H, "large", *tags])

    a5, b5 = head_tail(event_line('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":'
                          '{"maximum":@}}]}'), "@")
    keep("parameters.number-1e6-digits", "a 10^6-digit number inside tool parameters",
         [(a5, 1), ("5", MEGA), (b5, 1)], tags=["parameters", "number-spelling"])
    a6, b6 = head_tail(fid('{"e":@}'), "@")
    keep("fidelity.exponent-1e6-digits", "a number with a 10^6-digit exponent inside fidelity (grammar only)",
         [(a6 + "1e", 1), ("9", MEGA), (b6, 1)], tags=["fidelity", "number-spelling"])
    keep("fidelity.fraction-1e6-digits", "a 10^6-digit fraction inside fidelity",
         [(a6 + "-0.", 1), ("1", MEGA), (b6, 1)], tags=["fidelity", "number-spelling"])

    # --- nesting 10^5 deep -------------------------------------------------------------
    D = "too_deep"
    a7, b7 = head_tail(fid('{"a":@}'), "@")
    huge_rej("fidelity-arrays-100000", "fidelity holding 10^5 nested arrays",
             [(a7, 1), ("[", DEEP), ("]", DEEP), (b7, 1)], D, tags=["verbatim", "depth-limit"])
    huge_rej("fidelity-objects-100000", "fidelity holding 10^5 nested objects",
             [(a7, 1), ('{"a":', DEEP), ("1", 1), ("}", DEEP), (b7, 1)], D, tags=["verbatim", "depth-limit"])
    huge_rej("fidelity-unclosed-100000", "fidelity opening 10^5 arrays that never close (the line ends with LF)",
             [(a7, 1), ("[", DEEP), ("\n", 1)], D, tags=["verbatim", "depth-limit"])
    huge_rej("fidelity-alternating-100000", "fidelity alternating arrays and objects 10^5 levels deep",
             [(a7, 1), ('[{"a":', DEEP // 2), ("1", 1), ("}]", DEEP // 2), (b7, 1)], D,
             tags=["verbatim", "depth-limit"])
    a8, b8 = head_tail(event_line('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":@}]}'), "@")
    huge_rej("parameters-100000", "tool parameters nested 10^5 deep", [(a8, 1), ('{"p":', DEEP), ("{}", 1),
                                                                      ("}", DEEP), (b8, 1)], D,
             tags=["verbatim", "depth-limit"])
    a9, b9 = head_tail(event_line('{"type":"hook","hook":"stop","name":"h","output":{"o":@}}'), "@")
    huge_rej("hook-output-100000", "hook output nested 10^5 deep (depth is a grammar limit: before the shape)",
             [(a9, 1), ("[", DEEP), ("]", DEEP), (b9, 1)], D, tags=["verbatim", "depth-limit", "precedence"])
    a10, b10 = head_tail(event_line(REQUEST_BEGIN, ',"origin":@'), "@")
    huge_rej("origin-100000", "origin nested 10^5 deep (outside verbatim values)",
             [(a10, 1), ("[", DEEP), ("]", DEEP), (b10, 1)], D, tags=["depth-limit"])
    huge_rej("unknown-field-objects-100000", "an unknown payload member nested 10^5 objects deep",
             [(a0 + '"x":', 1), ('{"x":', DEEP), ("null", 1), ("}", DEEP), (b0, 1)], D,
             tags=["depth-limit", "precedence"])

    # --- very long origin chains -------------------------------------------------------
    sid = CHILD[0]
    a11, b11 = head_tail(event_line(REQUEST_BEGIN, ',"origin":[@]'), "@")
    keep("origin.chain-100000", "an origin chain of 10^5 session ids", [(a11, 1), (json_string(sid) + ",", DEEP - 1),
                                                                        (json_string(sid) + b11, 1)],
         group="roundtrip", tags=["origin"])
    huge_rej("origin-100000-lone-surrogate-last", "10^5 origin ids, the last escaping a lone surrogate",
             [(a11, 1), (json_string(sid) + ",", DEEP), ('"\\ud800"' + b11, 1)], L, pointer=f"/origin/{DEEP}",
             tags=["origin"])
    huge_rej("origin-100000-number-last", "10^5 origin ids, the last a number",
             [(a11, 1), (json_string(sid) + ",", DEEP), ("7" + b11, 1)], "wrong_type", pointer=f"/origin/{DEEP}",
             tags=["origin"])

    # --- long runs of one byte ----------------------------------------------------------
    CASES.add("whitespace.spaces-1e6-between-tokens", "canonicalization", "10^6 spaces between two tokens", "2.1",
          b"", expect="canonical", output=GOOD_LINE_BYTES, parts=[("{", 1), (" ", MEGA), (GOOD_LINE[1:] + "\n", 1)],
          tags=[*H, "large", "whitespace"])
    CASES.add("whitespace.spaces-1e6-after-object", "canonicalization", "10^6 spaces after the object", "1.3",
          b"", expect="canonical", output=GOOD_LINE_BYTES, parts=[(GOOD_LINE, 1), (" ", MEGA), ("\n", 1)],
          tags=[*H, "large", "whitespace"])
    huge_rej("spaces-1e6-then-garbage", "10^6 spaces after the object, then a word",
             [(GOOD_LINE, 1), (" ", MEGA), ("x\n", 1)], "trailing_data")
    huge_rej("backslashes-1e6", "a line of 10^6 backslashes", [("\\", MEGA), ("\n", 1)], J)
    huge_rej("commas-1e6", "a line of 10^6 commas", [(",", MEGA), ("\n", 1)], J)
    huge_rej("quotes-1e6", "a line of 10^6 double quotes (an empty string, then data)", [('"', MEGA), ("\n", 1)],
             "trailing_data")
    a12, b12 = head_tail(user_text_line("@"), "@")
    CASES.add("escapes.text-100000-unicode-escapes", "canonicalization", "a text of 10^5 `\\u0041` escapes", "2.4",
          b"", expect="canonical", parts=[(a12, 1), ("\\u0041", DEEP), (b12, 1)],
          output_parts=[(a12, 1), ("A", DEEP), (b12.rstrip("\n"), 1)], tags=[*H, "large", "escape"])
    a13, b13 = head_tail(fid("@"), "@")
    keep("fidelity.duplicate-keys-100000", "fidelity with the same key 10^5 times (verbatim: kept)",
         [(a13 + '{"k":0', 1), (',"k":0', DEEP - 1), ("}" + b13, 1)], tags=["fidelity", "keys-duplicate"])

    # --- not an object, not JSON ---------------------------------------------------------
    W = "wrong_type"
    hrej("top-false", "the line is `false`", "false\n", W, pointer="")
    hrej("top-negative-number", "the line is `-0`", "-0\n", W, pointer="")
    hrej("top-empty-string", 'the line is `""`', '""\n', W, pointer="")
    hrej("python-dict-repr", "a Python dict repr (single quotes, True, None)",
         "{'timestamp': 't', 'type': 'event_msg', 'ok': True, 'x': None}\n", J)
    hrej("comment-hash", "a `#` comment line", "# a comment\n", J)
    hrej("comment-after-object", "a `//` comment after the object (data after it)", GOOD_LINE + " // c\n",
         "trailing_data", spec="1.3")
    hrej("comment-in-fidelity", "a /* */ comment inside a verbatim value", fid('{"a":1 /* c */}'), J, spec="3.2",
         tags=["verbatim"])
    hrej("trailing-comma-in-fidelity", "a trailing comma inside a verbatim value", fid('{"a":[1,2,],"b":1}'), J,
         spec="3.2", tags=["verbatim"])
    hrej("trailing-comma-in-hook-output", "a trailing comma inside hook output",
         event_line('{"type":"hook","hook":"stop","name":"h","output":{"a":1,}}'), J, spec="3.2", tags=["verbatim"])
    hrej("leading-comma", "a comma before the first member", event_line('{,"type":"request_begin"}'), J)
    # found by differential fuzzing: a closing bracket where a value belongs (fuzz/crashes/differential-*)
    hrej("missing-value", "a key with no value before the closing brace", '{"timestamp":"t","type":}\n', J)
    hrej("closing-bracket-as-value", "a closing bracket where a value belongs",
         event_line('{"type":]"request_begin"}'), J)
    hrej("double-comma", "two commas between members", event_line('{"type":"request_end",,"status":"completed"}'), J)
    hrej("single-quotes-in-fidelity", "single-quoted strings inside a verbatim value", fid("{'a':'b'}"), J,
         spec="3.2", tags=["verbatim"])
    hrej("single-quoted-key", "one single-quoted key", event_line("{'type':\"request_begin\"}"), J)
    hrej("unquoted-key-in-fidelity", "an unquoted key inside a verbatim value", fid("{sig:1}"), J, spec="3.2",
         tags=["verbatim"])
    hrej("unquoted-key-in-parameters", "an unquoted key inside tool parameters",
         event_line('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":{type:"object"}}]}'), J,
         spec="3.2", tags=["verbatim"])

    # --- prototype keys and values (JavaScript bindings) -----------------------------------
    P = ["proto"]
    hrej("envelope-proto", "a `__proto__` member in the envelope", event_line(REQUEST_BEGIN, ',"__proto__":{"type":"x"}'),
         "unexpected_field", pointer="/__proto__", tags=P)
    hrej("payload-constructor", "a `constructor` member in the payload",
         event_line('{"type":"request_begin","constructor":{"prototype":{}}}'), "unexpected_field",
         pointer="/payload/constructor", tags=P)
    hrej("tool-proto", "a `__proto__` member in a ToolDefinition",
         event_line('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","__proto__":null}]}'),
         "unexpected_field", pointer="/payload/tools/0/__proto__", tags=P)
    hrej("token-counts-hasownproperty", "a `hasOwnProperty` member in TokenCounts",
         event_line('{"type":"token_usage","request":{"cache_read":0,"cache_write":0,"output":0,"total":0,'
            '"hasOwnProperty":1},"session":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'),
         "unexpected_field", pointer="/payload/request/hasOwnProperty", tags=P)
    for name, v in [("constructor", "constructor"), ("proto", "__proto__"), ("tostring", "toString")]:
        hrej(f"envelope-type-{name}", f"envelope type {v!r}",
             "{" + TIMESTAMP_MEMBER + ',"type":"' + v + '","payload":' + REQUEST_BEGIN + "}\n", "unknown_type", pointer="/type", tags=P)
    for name, v in [("hasownproperty", "hasOwnProperty"), ("valueof", "valueOf"), ("proto", "__proto__")]:
        hrej(f"payload-type-{name}", f"payload type {v!r}", event_line('{"type":"' + v + '"}'), "unknown_type",
             pointer="/payload/type", tags=P)
    hrej("role-constructor", "role 'constructor'", model_line('{"type":"text","role":"constructor","text":"x"}'),
         "invalid_value", pointer="/payload/role", tags=P)
    hrej("status-proto", "status '__proto__'", event_line('{"type":"request_end","status":"__proto__"}'), "invalid_value",
         pointer="/payload/status", tags=P)
    hrej("decision-tostring", "decision 'toString'",
         event_line('{"type":"approval_decision","tool_call_id":"c","decision":"toString"}'), "invalid_value",
         pointer="/payload/decision", tags=P)
    keep("fidelity.keys-constructor-prototype", "`constructor`, `prototype` and `__proto__` keys inside fidelity",
         [(fid('{"constructor":{"prototype":{"polluted":true}},"__proto__":{"polluted":true}}'), 1)],
         tags=["fidelity", *P])
    CASES.add("proto-unknown-field", "lenient", "lenient keeps a `__proto__` member as an opaque message", "5",
          event_line(REQUEST_BEGIN, ',"__proto__":{"type":"x"}').encode(), mode="lenient", tags=[*H, "opaque", *P])
    CASES.add("deep-100000", "lenient", "lenient mode still refuses 10^5 nesting levels", "5", b"", mode="lenient",
          expect="reject", category="too_deep", parts=[(a7, 1), ("[", DEEP), ("]", DEEP), (b7, 1)],
          tags=[*H, "large", "depth-limit"])


def tag_existing_hostile() -> None:
    ids = {c["id"]: c for c in CASES.cases}
    missing = EXISTING_HOSTILE - set(ids)
    assert not missing, sorted(missing)
    for cid in EXISTING_HOSTILE:
        ids[cid]["tags"] = sorted({*ids[cid]["tags"], "hostile"})


# ---------------------------------------------------------------------------

