# ruff: noqa: E501  (fixture lines are long literals)
"""Group `rejection`, framing and syntax: `invalid_utf8`, `invalid_json`, `trailing_data`, `too_deep`, `too_large`, `truncated`.

One defect per line, each category several times."""

from __future__ import annotations

from .collector import rejection_case
from .hand_written_lines import (
    GOOD_LINE,
    GOOD_LINE_BYTES,
    REQUEST_BEGIN,
    TIMESTAMP_MEMBER,
    event_line,
    model_line,
    user_text_line,
)


def generate_syntax_rejections() -> None:
    # invalid_utf8
    for name, bad in [
        ("overlong-c0af", b"\xc0\xaf"),
        ("encoded-surrogate", b"\xed\xa0\x80"),
        ("truncated-sequence", b"\xe2\x82"),
        ("byte-ff", b"\xff"),
        ("byte-fe", b"\xfe"),
        ("lone-continuation", b"\x80"),
        ("overlong-e080af", b"\xe0\x80\xaf"),
        ("beyond-u10ffff", b"\xf4\x90\x80\x80"),
        ("byte-f5", b"\xf5\x80\x80\x80"),
        ("overlong-4-byte", b"\xf0\x80\x80\xaf"),
    ]:
        rejection_case(
            name,
            f"invalid UTF-8 ({bad.hex(' ')}) inside a string",
            user_text_line("x").encode().replace(b'"x"', b'"x' + bad + b'"'),
            "invalid_utf8",
            "4",
            tags=["utf8"],
        )
    rejection_case("in-key", "invalid UTF-8 inside a key", event_line(REQUEST_BEGIN).encode().replace(b'"payload"', b'"pay\xffload"'), "invalid_utf8")
    rejection_case(
        "surrogate-bytes-in-fragment",
        "a high surrogate encoded in UTF-8 (ED A0 BD) in a partial's fragment field: only the escape is allowed there",
        model_line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"abcX"}').encode().replace(b"X", b"\xed\xa0\xbd"),
        "invalid_utf8",
        tags=["utf8", "split-surrogate"],
    )
    rejection_case(
        "in-fidelity",
        "invalid UTF-8 inside a verbatim value (UTF-8 applies everywhere)",
        model_line('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"s":"X"}}')
        .encode()
        .replace(b'"X"', b'"\xed\xbf\xbf"'),
        "invalid_utf8",
        tags=["verbatim"],
    )
    rejection_case(
        "outside-strings",
        "a stray invalid byte between tokens",
        GOOD_LINE_BYTES.replace(b',"type"', b',\xff"type"') + b"\n",
        "invalid_utf8",
    )
    rejection_case(
        "before-json-error",
        "precedence: invalid UTF-8 wins over a later syntax error",
        user_text_line("\xff").encode("latin-1").replace(b"}}\n", b",}}\n"),
        "invalid_utf8",
        tags=["precedence"],
    )
    rejection_case(
        "after-json-error",
        "precedence: invalid UTF-8 wins over an earlier syntax error",
        b'{"timestamp":01,"x":"\xff"}\n',
        "invalid_utf8",
        tags=["precedence"],
    )

    # invalid_json
    J = "invalid_json"
    rejection_case("bom", "a byte order mark before the object", b"\xef\xbb\xbf" + GOOD_LINE_BYTES + b"\n", J, "1.1")
    rejection_case("empty-line", "an empty line", b"\n", J, "4")
    rejection_case(
        "bom-in-whitespace",
        "a byte order mark after leading whitespace (U+FEFF is not JSON whitespace)",
        b" \xef\xbb\xbf" + GOOD_LINE_BYTES + b"\n",
        J,
        "1.1",
    )
    rejection_case(
        "bom-between-tokens",
        "a byte order mark between two members",
        GOOD_LINE_BYTES.replace(b',"type"', b',\xef\xbb\xbf"type"') + b"\n",
        J,
        "1.1",
    )
    for name, ws in [
        ("vertical-tab", b"\x0b"),
        ("form-feed", b"\x0c"),
        ("nbsp", "\u00a0".encode()),
        ("ideographic-space", "\u3000".encode()),
        ("nul", b"\x00"),
    ]:
        rejection_case(
            f"whitespace-{name}",
            f"{ws!r} between tokens (JSON whitespace is space, tab, LF and CR only)",
            GOOD_LINE_BYTES.replace(b',"type"', b"," + ws + b'"type"') + b"\n",
            J,
            "1.1",
        )
    rejection_case("whitespace-line", "a line of whitespace only", b" \t \n", J, "4")
    for name, bad in [
        ("nan", "NaN"),
        ("infinity", "Infinity"),
        ("minus-infinity", "-Infinity"),
        ("leading-zero", "01"),
        ("bare-dot", "1."),
        ("bare-minus", "-"),
        ("leading-dot", ".5"),
        ("plus", "+1"),
        ("hex", "0x10"),
        ("exponent-without-digits", "1e"),
        ("true-capitalised", "True"),
        ("null-truncated", "nul"),
    ]:
        rejection_case(
            name,
            f"{bad} is not a JSON value",
            event_line('{"type":"request_end","status":"completed","retry_in_ms":' + bad + "}"),
            J,
        )
    rejection_case("comment-block", "a /* */ comment", event_line(REQUEST_BEGIN).replace('"payload":', '/* c */"payload":'), J)
    rejection_case("comment-line", "a // comment", GOOD_LINE[:-1] + "//c}\n", J)
    rejection_case("trailing-comma-object", "a trailing comma in an object", event_line('{"type":"request_begin",}'), J)
    rejection_case("trailing-comma-array", "a trailing comma in an array", event_line(REQUEST_BEGIN, ',"origin":["a",]'), J)
    rejection_case("single-quotes", "single-quoted strings", event_line("{'type':'request_begin'}"), J)
    rejection_case("unquoted-key", "an unquoted key", event_line('{type:"request_begin"}'), J)
    rejection_case("raw-tab", "a raw tab inside a string", user_text_line("a\tb"), J)
    rejection_case("raw-nul", "a raw NUL inside a string", user_text_line("a\x00b"), J)
    rejection_case("raw-control-1f", "a raw U+001F inside a string", user_text_line("\x1f"), J)
    rejection_case("invalid-escape", "an invalid escape (\\x)", user_text_line("\\x41"), J)
    rejection_case("short-unicode-escape", "a \\u escape with three digits", user_text_line("\\u004"), J)
    rejection_case("upper-u-escape", "\\U is not an escape", user_text_line("\\U0041"), J)
    rejection_case("missing-colon", "a key without colon", event_line('{"type" "request_begin"}'), J)
    rejection_case("missing-comma", "members without comma", event_line('{"type":"request_end" "status":"completed"}'), J)
    rejection_case("unclosed-object", "an object that never closes (the line ends with LF)", GOOD_LINE[:-1] + "\n", J)
    rejection_case("unclosed-string", "a string that never closes (the line ends with LF)", '{"timestamp":"2026\n', J)
    rejection_case(
        "in-fidelity",
        "the grammar applies inside verbatim values too (a leading zero)",
        model_line('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"n":01}}'),
        J,
        "3.2",
        tags=["verbatim"],
    )
    rejection_case(
        "nan-in-fidelity",
        "NaN inside a verbatim value",
        model_line('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"n":NaN}}'),
        J,
        "3.2",
        tags=["verbatim"],
    )
    rejection_case(
        "before-schema-error",
        "precedence: a syntax error wins over an unknown type before it",
        event_line('{"type":"nope","x":[1,]}'),
        J,
        tags=["precedence"],
    )
    # trailing_data
    D = "trailing_data"
    rejection_case("garbage", "a word after the object", GOOD_LINE + " x\n", D, "1.3")
    rejection_case("second-object", "a second object on the line", GOOD_LINE + "{}\n", D, "1.3")
    rejection_case("second-object-ws", "a second object after whitespace", GOOD_LINE + " " + GOOD_LINE + "\n", D, "1.3")
    rejection_case("comma", "a comma after the object", GOOD_LINE + ",\n", D, "1.3")
    rejection_case("nul", "a NUL byte after the object", GOOD_LINE_BYTES + b"\x00\n", D, "1.3")
    rejection_case("closing-brace", "an extra closing brace", GOOD_LINE + "}\n", D, "1.3")
    rejection_case(
        "before-schema-error",
        "precedence: trailing data wins over an unknown type",
        "{" + TIMESTAMP_MEMBER + ',"type":"event_msg","payload":{"type":"nope"}} x\n',
        D,
        tags=["precedence"],
    )
    rejection_case(
        "after-array",
        "precedence: trailing data after a top-level array wins over wrong_type",
        "[] x\n",
        D,
        tags=["precedence"],
    )
    # too_deep
    k = 512 - 3
    deep = (
        '{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"a":' + "[" * (k + 1) + "]" * (k + 1) + "}}"
    )
    rejection_case(
        "fidelity-513",
        "fidelity nesting to 513 levels counted from the envelope",
        model_line(deep),
        "too_deep",
        "4",
        tags=["verbatim", "depth-limit"],
    )
    deep_o = (
        '{"type":"thinking","role":"assistant","thinking":"x","fidelity":'
        + "{"
        + '"a":{' * (k + 1)
        + "}" * (k + 1)
        + "}}"
    )
    rejection_case(
        "fidelity-513-objects",
        "nested objects reaching 513 levels",
        model_line(deep_o),
        "too_deep",
        tags=["verbatim", "depth-limit"],
    )
    rejection_case(
        "unknown-field-513",
        "precedence: too deep wins over an unexpected field",
        event_line(REQUEST_BEGIN[:-1] + ',"x":' + "[" * 511 + "]" * 511 + "}"),
        "too_deep",
        tags=["precedence", "depth-limit"],
    )
    rejection_case("array-100000", "100000 nested arrays", "[" * 100000 + "]" * 100000 + "\n", "too_deep", tags=["depth-limit"])
    rejection_case(
        "unclosed-100000",
        "100000 open objects, never closed (too_deep is found first)",
        '{"a":' * 100000 + "\n",
        "too_deep",
        tags=["precedence", "depth-limit"],
    )
    rejection_case(
        "before-trailing-data",
        "precedence: the nesting is found before the trailing data",
        event_line(REQUEST_BEGIN[:-1] + ',"x":' + "[" * 600 + "]" * 600 + "}").rstrip("\n") + " x\n",
        "too_deep",
        tags=["precedence"],
    )
    # too_large
    body = GOOD_LINE.encode()
    rejection_case(
        "over-limit",
        "a valid message longer than the reader's limit",
        body + b"\n",
        "too_large",
        "4",
        max_line_bytes=len(body) - 1,
        tags=["limits"],
    )
    rejection_case(
        "far-over-limit",
        "a 4 KiB text over a 1 KiB limit",
        user_text_line("a" * 4096),
        "too_large",
        max_line_bytes=1024,
        tags=["limits"],
    )
    rejection_case(
        "garbage-over-limit",
        "garbage longer than the limit is too_large (it is not parsed)",
        b"x" * 300 + b"\n",
        "too_large",
        max_line_bytes=64,
        tags=["limits", "precedence"],
    )
    # truncated (a torn last line: no LF)
    rejection_case("torn-envelope", "a last line cut inside the timestamp", b'{"timestamp":"2026-07-18T03:1', "truncated", "1.4")
    rejection_case(
        "torn-fidelity",
        "a last line cut inside fidelity",
        model_line('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"sig":"EqQB"}}').encode()[:-12],
        "truncated",
        "1.4",
    )
    rejection_case(
        "torn-multibyte",
        "a last line cut inside a multi-byte character",
        user_text_line("😀").encode()[:-8],
        "truncated",
        "1.4",
        tags=["utf8"],
    )
    rejection_case("torn-brace", "a last line holding only `{`", b"{", "truncated", "1.4")
    rejection_case("torn-before-last-brace", "a last line missing its final brace", body[:-1], "truncated", "1.4")
