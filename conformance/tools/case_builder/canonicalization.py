# ruff: noqa: E501  (fixture lines are long literals)
"""Group `canonicalization`: valid but non-canonical lines and their exact canonical bytes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .canonical_json import Raw, canonical_json, json_string, msg
from .collector import CASES
from .payload_values import PAYLOADS, full
from .schema_facts import TS, slug


def canonicalization_case(cid: str, desc: str, inp: bytes | str, out: bytes | str, spec: str, tags: Iterable[str] = ()) -> None:
    ib = inp.encode("utf-8") if isinstance(inp, str) else inp
    ob = out.encode("utf-8") if isinstance(out, str) else out
    assert ib.rstrip(b"\n") != ob, cid
    CASES.add(cid, "canonicalization", desc, spec, ib, expect="canonical", output=ob, tags=tags)


def noncanonical_json(v: Any, *, reverse: bool = False, ws: str = "", esc: bool = False) -> str:
    """A valid, non-canonical spelling of the same value (verbatim Raw text kept as is)."""
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, str):
        if esc:
            return '"' + "".join(_esc_all(c) for c in v) + '"'
        return json_string(v)
    if isinstance(v, list):
        return "[" + ws + ("," + ws).join(noncanonical_json(x, reverse=reverse, ws=ws, esc=esc) for x in v) + ws + "]"
    if isinstance(v, dict):
        items = list(v.items())[::-1] if reverse else list(v.items())
        inner = ("," + ws).join(
            noncanonical_json(k, esc=esc) + ws + ":" + ws + noncanonical_json(x, reverse=reverse, ws=ws, esc=esc) for k, x in items
        )
        return "{" + ws + inner + ws + "}"
    return canonical_json(v)


def _esc_all(c: str) -> str:
    cp = ord(c)
    if cp > 0xFFFF:
        hi, lo = 0xD800 + ((cp - 0x10000) >> 10), 0xDC00 + ((cp - 0x10000) & 0x3FF)
        return f"\\u{hi:04X}\\u{lo:04x}"
    return f"\\u{cp:04x}" if cp % 2 else f"\\u{cp:04X}"


def generate_canonicalization() -> None:
    for d in PAYLOADS:
        s = slug(d)
        m = msg(d, full(d))
        out = canonical_json(m)
        canonicalization_case(
            f"{s}.reversed-keys",
            f"{d}: every object's keys in reverse order",
            noncanonical_json(m, reverse=True) + "\n",
            out,
            "2.2",
            ["key-order"],
        )
        canonicalization_case(
            f"{s}.whitespace",
            f"{d}: spaces and tabs around every token",
            " \t" + noncanonical_json(m, ws=" \t ") + " \t\n",
            out,
            "2.1",
            ["whitespace"],
        )
        canonicalization_case(
            f"{s}.escaped-strings",
            f"{d}: every character of every key and string written as a \\u escape",
            noncanonical_json(m, esc=True) + "\n",
            out,
            "2.4",
            ["escape"],
        )

    T = f'"timestamp":"{TS}"'
    rb = '{"type":"request_begin"}'
    base = "{" + T + ',"type":"event_msg","payload":' + rb + "}"
    canonicalization_case(
        "framing.spec-example",
        "the example of spec section 2",
        '{ "type":"event_msg", "payload":{"type":"request_begin"}, "timestamp":"2026-07-18T03:10:23.004Z" }\n',
        '{"timestamp":"2026-07-18T03:10:23.004Z","type":"event_msg","payload":{"type":"request_begin"}}',
        "2",
    )
    canonicalization_case(
        "framing.crlf", "CR before the LF is whitespace: accepted, dropped", base + "\r\n", base, "1.2", ["whitespace"]
    )
    canonicalization_case(
        "framing.leading-whitespace", "whitespace before the object", "  \t" + base + "\n", base, "2.1", ["whitespace"]
    )
    canonicalization_case("framing.trailing-whitespace", "whitespace after the object", base + " \t \r \n", base, "1.3", ["whitespace"])
    canonicalization_case(
        "framing.origin-first",
        "origin first in the envelope",
        '{"origin":["a","b"],' + T + ',"type":"event_msg","payload":' + rb + "}\n",
        "{" + T + ',"type":"event_msg","payload":' + rb + ',"origin":["a","b"]}',
        "2.2",
        ["key-order", "origin"],
    )
    canonicalization_case(
        "framing.payload-first",
        "payload before type before timestamp",
        '{"payload":{"type":"abort","reason":null},"type":"event_msg",' + T + "}\n",
        "{" + T + ',"type":"event_msg","payload":{"type":"abort","reason":null}}',
        "2.2",
        ["key-order"],
    )
    canonicalization_case(
        "framing.type-last-in-payload",
        "the payload discriminator last",
        "{" + T + ',"type":"model_msg","payload":{"text":"hi","role":"user","type":"text"}}\n',
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}',
        "2.2",
        ["key-order"],
    )

    # escapes outside verbatim values
    def tx(t: str) -> str:
        return "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"assistant","text":"' + t + '"}}'

    pairs = [
        ("solidus", "a\\/b", "a/b"),
        ("u00e9", "caf\\u00e9", "café"),
        ("u00E9-upper", "caf\\u00E9", "café"),
        ("u0041", "\\u0041\\u0042C", "ABC"),
        ("surrogate-pair", "\\ud83d\\ude00", "😀"),
        ("surrogate-pair-upper", "\\uD83D\\uDE00", "😀"),
        ("u2028", "\\u2028\\u2029", "\u2028\u2029"),
        ("u007f", "\\u007f\\u0080", "\x7f\x80"),
        ("ufeff", "\\ufeff", "\ufeff"),
        ("u001F-upper", "\\u001F", "\\u001f"),
        ("u0008-to-b", "\\u0008\\u000c\\u000a\\u000d\\u0009", "\\b\\f\\n\\r\\t"),
        ("u0022-u005c", "\\u0022\\u005c\\u002f", '\\"\\\\/'),
        ("mixed", "\\u00e9\\/\\u0041\\ud83d\\ude00\\n\\u001F", "é/A😀\\n\\u001f"),
    ]
    for name, a, b in pairs:
        canonicalization_case(
            f"escape.{name}",
            f"escape {a} outside verbatim values re-encoded as {b}",
            tx(a) + "\n",
            tx(b),
            "2.4",
            ["escape"],
        )
    # lone surrogates in a partial's fragment field (spec 4.1): any spelling is accepted; the
    # canonical one is JSON.stringify's, lower-case \udxxx
    def po(out: str) -> str:
        return (
            "{" + T + ',"type":"model_msg","payload":{"type":"partial_tool_call_output","role":"user",'
            '"event_type":"delta","output":"' + out + '","tool_call_id":"call_01"}}'
        )

    for name, a, b in [
        ("lone-high-upper", "abc\\uD83D", "abc\\ud83d"),
        ("lone-low-upper", "\\uDE00def", "\\ude00def"),
        ("lone-mixed-case", "\\uDc00x\\udBfF", "\\udc00x\\udbff"),
        ("pair-then-lone-upper", "\\uD83D\\uDE00\\uD83D", "😀\\ud83d"),
        ("other-escapes-around", "\\u0041\\/\\ud83d", "A/\\ud83d"),
    ]:
        canonicalization_case(
            f"fragment.{name}",
            f"a lone surrogate in a partial's fragment field spelled {a}: re-encoded as {b}",
            po(a) + "\n",
            po(b),
            "4.1",
            ["escape", "split-surrogate"],
        )
    canonicalization_case(
        "fragment.reversed-keys",
        "a partial holding a lone half, keys in reverse order (the slow path keeps the lone half)",
        '{"payload":{"tool_call_id":"call_01","output":"abc\\ud83d","event_type":"delta","role":"user",'
        '"type":"partial_tool_call_output"},"type":"model_msg",' + T + "}\n",
        po("abc\\ud83d"),
        "4.1",
        ["key-order", "split-surrogate"],
    )
    canonicalization_case(
        "escape.in-keys",
        "escaped keys are unescaped (`\\u0074ype`, `r\\u006fle`)",
        "{" + T + ',"type":"model_msg","payload":{"\\u0074ype":"text","r\\u006fle":"user","te\\u0078t":"x"}}\n',
        tx("x").replace("assistant", "user"),
        "2.4",
        ["escape"],
    )
    canonicalization_case(
        "escape.in-discriminators",
        "escaped envelope and payload `type` values",
        '{"timestamp":"2026\\u002d07-18T03:10:22.531Z","type":"model\\u005fmsg","payload":{"type":"t\\u0065xt","role":"user","text":"x"}}\n',
        tx("x").replace("assistant", "user"),
        "2.4",
        ["escape"],
    )
    canonicalization_case(
        "escape.in-enum-values",
        "an escaped enum value (`compl\\u0065ted`)",
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"compl\\u0065ted"}}\n',
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"completed"}}',
        "2.4",
        ["escape"],
    )
    canonicalization_case(
        "escape.in-origin",
        "escapes inside origin ids",
        "{" + T + ',"type":"event_msg","payload":' + rb + ',"origin":["\\u0073ession-1"]}\n',
        "{" + T + ',"type":"event_msg","payload":' + rb + ',"origin":["session-1"]}',
        "2.4",
        ["escape", "origin"],
    )

    # numbers in `number` fields: ECMAScript Number::toString
    def retry(n: str) -> str:
        return (
            "{"
            + T
            + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":'
            + n
            + "}}"
        )

    numbers = [
        ("-0", "0"),
        ("-0.0", "0"),
        ("0.0", "0"),
        ("5.0", "5"),
        ("1E2", "100"),
        ("1e+2", "100"),
        ("0.5e1", "5"),
        ("1.50", "1.5"),
        ("2.5E+3", "2500"),
        ("1e21", "1e+21"),
        ("1E-7", "1e-7"),
        ("0.0000001", "1e-7"),
        ("0.1e-6", "1e-7"),
        ("1.23e-6", "0.00000123"),
        ("123e-9", "1.23e-7"),
        ("10000000000000000000000", "1e+22"),
        ("9007199254740993", "9007199254740992"),
        ("123456789012345678901234567890", "1.2345678901234568e+29"),
        ("1e-400", "0"),
        ("1.7976931348623157E308", "1.7976931348623157e+308"),
        ("0.30000000000000004441", "0.30000000000000004"),
        ("4.35000000000000000001", "4.35"),
        ("2e-324", "0"),
        ("3e-324", "5e-324"),
        ("1e0", "1"),
        ("12345678901234567890", "12345678901234567000"),
        ("1E+21", "1e+21"),
        ("999999999999999999999", "1e+21"),
        ("1" + "0" * 400 + "e-398", "100"),
    ]
    for a, b in numbers:
        canonicalization_case(
            f"number.{a[:40]}",
            f"retry_in_ms {a[:40]} spelled {b}",
            retry(a) + "\n",
            retry(b),
            "2.5",
            ["number-spelling"],
        )
    mcw = (
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":%s,"system_prompt":"","agent_state":"","workspace":""}}'
    )
    canonicalization_case(
        "number.model_context_window-2e5",
        "model_context_window 2e5 spelled 200000",
        mcw % "2e5" + "\n",
        mcw % "200000",
        "2.5",
        ["number-spelling"],
    )
    canonicalization_case(
        "number.duration_ms-1.0",
        "duration_ms 412.0 spelled 412",
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"sse","status":"completed","duration_ms":412.0}]}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"sse","status":"completed","duration_ms":412}]}}',
        "2.5",
        ["number-spelling"],
    )
    canonicalization_case(
        "number.model_context_window--0.0",
        "model_context_window -0.0 spelled 0",
        mcw % "-0.0" + "\n",
        mcw % "0",
        "2.5",
        ["number-spelling"],
    )
    canonicalization_case(
        "number.duration_ms--0.0",
        "duration_ms -0.0 spelled 0",
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"sse","status":"completed","duration_ms":-0.0}]}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"sse","status":"completed","duration_ms":0}]}}',
        "2.5",
        ["number-spelling"],
    )
    canonicalization_case(
        "number.integer-minus-zero",
        "an integer field written -0 is the integer 0",
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"compaction_begin","reason":"manual","mode":"discard","context":-0,"turns":0}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"compaction_begin","reason":"manual","mode":"discard","context":0,"turns":0}}',
        "2.5",
        ["number-spelling"],
    )

    # verbatim values inside non-canonical lines
    fid = '{ "sig" : "a\\/b", "n":1.0, "n":1E2 }'
    canonicalization_case(
        "verbatim.spec-example",
        "the example of spec section 3: whitespace before the value dropped, the value kept",
        "{"
        + T
        + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity": {"sig" : "a\\/b", "n":1.0, "n":1E2}}}\n',
        "{"
        + T
        + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"sig" : "a\\/b", "n":1.0, "n":1E2}}}',
        "3.3",
        ["verbatim", "whitespace"],
    )
    canonicalization_case(
        "verbatim.fidelity-first",
        "fidelity written first, with whitespace around it, and an escaped key",
        "{"
        + T
        + ',"type":"model_msg","payload":{ "fid\\u0065lity" :\t'
        + fid
        + ' ,"thinking":"\\u006fk","role":"assistant","type":"thinking"}}\n',
        "{"
        + T
        + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":'
        + fid
        + "}}",
        "3",
        ["verbatim", "key-order", "escape"],
    )
    canonicalization_case(
        "verbatim.parameters-reordered",
        "a tool definition with parameters first",
        "{"
        + T
        + ',"type":"event_msg","payload":{"tools":[{"parameters": {"b":1, "a":2} ,"description":"d","name":"n"}],"type":"tool_list_ready"}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"tool_list_ready","tools":[{"name":"n","description":"d","parameters":{"b":1, "a":2}}]}}',
        "3",
        ["verbatim", "key-order"],
    )
    canonicalization_case(
        "verbatim.hook-output-reordered",
        "hook output first, escapes outside it re-encoded, inside it kept",
        "{"
        + T
        + ',"type":"event_msg","payload":{"output" : {"s":"\\u0041","n":1E0},"name":"\\u0041","hook":"stop","type":"hook"}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"hook","hook":"stop","name":"A","output":{"s":"\\u0041","n":1E0}}}',
        "3",
        ["verbatim", "key-order", "escape"],
    )
    canonicalization_case(
        "verbatim.tab-inside-crlf-after",
        "tab whitespace inside a verbatim value survives; a CR LF after the line is dropped (a CR inside is `line_break`, section 1.5)",
        (
            "{"
            + T
            + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"a":1,\t"b":2}}}\r\n'
        ),
        (
            "{"
            + T
            + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"a":1,\t"b":2}}}'
        ),
        "3",
        ["verbatim", "whitespace"],
    )
    canonicalization_case(
        "framing.no-trailing-lf-noncanonical",
        "a valid last line without LF is decoded (and canonicalised)",
        ("{" + T + ', "type":"event_msg","payload":' + rb + "}").encode(),
        base,
        "1.3",
        ["framing"],
    )

