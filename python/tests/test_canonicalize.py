"""Valid but non-canonical lines come back in canonical form; numbers spelled as ECMAScript."""

from __future__ import annotations

import math
import subprocess

import pytest
from conftest import needs

import omnimessage as om
from omnimessage.codec import api as codec
from omnimessage.codec.write import es_number, quote

T = '"timestamp":"2026-07-18T03:10:22.531Z"'
CANON_TEXT = "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}'

CASES = [
    (
        "whitespace",
        "{ " + T + ' , "type" : "model_msg" ,\t"payload" : { "type" : "text" , "role":"user","text":"hi" } }',
        CANON_TEXT,
    ),
    ("crlf-tail", CANON_TEXT + "\r", CANON_TEXT),
    (
        "envelope-order",
        '{"payload":{"type":"text","role":"user","text":"hi"},"type":"model_msg",' + T + "}",
        CANON_TEXT,
    ),
    ("payload-order", "{" + T + ',"type":"model_msg","payload":{"text":"hi","role":"user","type":"text"}}', CANON_TEXT),
    (
        "escaped-solidus",
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"a\\/b"}}',
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"a/b"}}',
    ),
    (
        "escaped-ascii",
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"\\u0068\\u0069"}}',
        CANON_TEXT,
    ),
    (
        "escaped-non-ascii",
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"caf\\u00E9 \\ud83d\\ude00"}}',
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"café 😀"}}',
    ),
    (
        "upper-hex-control",
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"\\u001F\\u000a"}}',
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"\\u001f\\n"}}',
    ),
    (
        "raw-del-stays",
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"\\u007f"}}',
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"\x7f"}}',
    ),
    (
        "minus-zero-int",
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"compaction_begin","reason":"turns","mode":"discard","context":-0,"turns":3}}',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"compaction_begin","reason":"turns","mode":"discard","context":0,"turns":3}}',
    ),
    (
        "number-field-spelling",
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":2.50E3}}',
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":2500}}',
    ),
    (
        "number-field-exponent",
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":1e21}}',
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":1e+21}}',
    ),
    (
        "number-field-big-int",
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":10000000000000000000000}}',
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":1e+22}}',
    ),
    (
        "number-field-small",
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":0.0000001}}',
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":1e-7}}',
    ),
    (
        "window-float",
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":200000.0,"system_prompt":"","agent_state":"/a","workspace":"/w"}}',
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":200000,"system_prompt":"","agent_state":"/a","workspace":"/w"}}',
    ),
    (
        "verbatim-untouched-rest-fixed",
        '{"type":"model_msg",'
        + T
        + ',"payload":{"fidelity": {"b" : 1.0,"a":2} ,"type":"text","role":"user","text":"hi"}}',
        "{"
        + T
        + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"hi","fidelity":{"b" : 1.0,"a":2}}}',
    ),
]


@pytest.mark.parametrize(("case", "line", "expected"), CASES, ids=[c[0] for c in CASES])
def test_canonical_form(case: str, line: str, expected: str) -> None:
    out = om.canonicalize(line.encode())
    assert out == expected.encode()
    assert om.canonicalize(out) == out  # idempotent


@pytest.mark.parametrize(("case", "line", "expected"), CASES, ids=[c[0] for c in CASES])
def test_decode_canonical_tells_a_canonical_line_from_another(case: str, line: str, expected: str) -> None:
    # what the validator's OM114 relies on: the flag says whether the line is its own encoding
    msg, canonical = codec.decode_canonical(line.encode())
    assert not canonical and om.encode(msg) == expected.encode()
    for same in (expected.encode(), expected.encode() + b"\n", expected, bytearray(expected.encode())):
        msg2, canonical2 = codec.decode_canonical(same)
        assert canonical2 and msg2 == msg
    with pytest.raises(om.DecodeError):
        codec.decode_canonical(expected.encode() + b" x")


# ECMAScript Number::toString, values from ECMA-262 and RFC 8785 appendix B
ES_SPELLINGS = [
    (0.0, "0"),
    (-0.0, "0"),
    (1.0, "1"),
    (5.0, "5"),
    (-5.0, "-5"),
    (1.5, "1.5"),
    (0.1, "0.1"),
    (0.1 + 0.2, "0.30000000000000004"),
    (100.0, "100"),
    (1e20, "100000000000000000000"),
    (1e21, "1e+21"),
    (1.5e21, "1.5e+21"),
    (123456789012345680000.0, "123456789012345680000"),
    (1e-6, "0.000001"),
    (1e-7, "1e-7"),
    (1.23e-7, "1.23e-7"),
    (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (-1.7976931348623157e308, "-1.7976931348623157e+308"),
    (9007199254740992.0, "9007199254740992"),
    (9007199254740994.0, "9007199254740994"),
    (295147905179352830000.0, "295147905179352830000"),
    (4.294967294e9, "4294967294"),
    (0.000001234, "0.000001234"),
    (1e23, "1e+23"),
    (333333333.3333332, "333333333.3333332"),
    (2**53 + 2, "9007199254740994"),
    (10**22, "1e+22"),
]


@pytest.mark.parametrize(("value", "spelling"), ES_SPELLINGS, ids=[s for _, s in ES_SPELLINGS])
def test_es_number(value: float, spelling: str) -> None:
    assert es_number(value) == spelling


@needs("node")
def test_es_number_matches_node_on_random_doubles() -> None:
    import random
    import struct

    rng = random.Random(7)
    values = []
    while len(values) < 3000:
        f = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if not (math.isnan(f) or math.isinf(f)):
            values.append(f)
    values += [rng.uniform(-1e6, 1e6) for _ in range(1000)] + [
        float(rng.randint(-(10**25), 10**25)) for _ in range(500)
    ]
    script = (
        "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{for(const x of JSON.parse(d))console.log(String(x))})"
    )
    payload = "[" + ",".join(repr(v) for v in values) + "]"
    out = subprocess.run(["node", "-e", script], input=payload, capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:-1] == [es_number(v) for v in values]


@needs("node")
def test_string_escaping_matches_json_stringify() -> None:
    import json
    import subprocess

    chars = [chr(c) for c in range(0, 0x250)] + ["\u2028", "\u2029", "\ufeff", "\U0001f600", "\ud800", "\udfff"]
    script = (
        "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{"
        "for(const s of JSON.parse(d))process.stdout.write(JSON.stringify(s)+'\\n')})"
    )
    payload = json.dumps(chars)  # ASCII escapes: lone surrogates travel safely
    out = subprocess.run(
        ["node", "-e", script],
        input=payload,
        capture_output=True,
        text=True,
        check=True,
        encoding="utf-8",
        errors="surrogatepass",
    ).stdout
    assert out.split("\n")[:-1] == [quote(c) for c in chars]
