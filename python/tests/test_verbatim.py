"""Verbatim values (fidelity, tool parameters, hook output) survive byte for byte."""

from __future__ import annotations

import pytest

import omnimessage as om
from omnimessage.codec import api as codec

HEAD = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"t","fidelity":'

TORTURE: dict[str, bytes] = {
    "inner-whitespace": b'{ "signature" :\t"abc" ,\t  "n" : 1 }',  # a raw LF or CR inside: line_break
    "one-point-zero": b'{"n":1.0}',
    "exponent-upper": b'{"n":1E2}',
    "exponent-plus": b'{"n":1e+2,"m":2.50E-003}',
    "negative-zero": b'{"n":-0,"m":-0.0}',
    "beyond-2^53": b'{"n":9007199254740993}',
    "beyond-2^64": b'{"n":18446744073709551617,"m":-99999999999999999999999999}',
    "beyond-double": b'{"n":1.5e400,"m":-1e-400}',
    "escaped-e-acute": b'{"s":"caf\\u00e9"}',
    "escaped-solidus": b'{"s":"a\\/b"}',
    "escaped-ascii": b'{"s":"\\u0041\\u0042"}',
    "escaped-pair": b'{"s":"\\ud83d\\ude00"}',
    "lone-surrogate": b'{"s":"\\ud800","t":"\\udc00x"}',
    "integer-keys-out-of-order": b'{"2":1,"1":2,"10":3}',
    "duplicate-keys": b'{"a":1,"a":2,"a":{"a":3}}',
    "empty-object": b"{}",
    "empty-key": b'{"":""}',
    "nested-arrays": b'{"a":[[[],{}],[{"b":[null,true,false]}]]}',
    "uppercase-hex": b'{"s":"\\u00E9\\u00e9"}',
    "raw-unicode": '{"s":"中文😀\u2028"}'.encode(),
    "deep-256": b'{"d":' + b"[" * 255 + b"]" * 255 + b"}",
    "long-string": b'{"s":"' + b"x" * (1 << 20) + b'"}',
    "huge-number": b'{"n":' + b"9" * 1_000_000 + b"}",
}


@pytest.mark.parametrize("name", sorted(TORTURE))
def test_fidelity_survives(name: str) -> None:
    value = TORTURE[name]
    line = HEAD + value + b"}}"
    msg = om.decode(line)
    assert bytes(msg.payload.fidelity) == value  # type: ignore[union-attr]
    assert om.encode(msg) == line
    # also through the slow path, and with whitespace around the value (not part of it)
    spaced = HEAD + b"  " + value + b" }}"
    assert om.encode(om.decode(spaced)) == line
    assert om.encode(codec._decode_slow(line, lenient=False)) == line


@pytest.mark.parametrize("name", sorted(TORTURE))
def test_tool_parameters_survive(name: str) -> None:
    value = TORTURE[name]
    line = (
        b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"tool_list_ready","tools":'
        b'[{"name":"a","description":"d"},{"name":"b","description":"d","parameters":' + value + b"}]}}"
    )
    assert om.encode(om.decode(line)) == line


HOOK_OUTPUTS = [
    b'{"ok":true,"n":1.0,"s":"\\u00e9"}',
    b'{ "n" : 1E400 , "n" : false }',
    b"{}",
]


@pytest.mark.parametrize("value", HOOK_OUTPUTS)
def test_hook_output_survives(value: bytes) -> None:
    line = (
        b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"hook","hook":"stop",'
        b'"name":"h","output":' + value + b"}}"
    )
    assert om.encode(om.decode(line)) == line


@pytest.mark.parametrize(
    ("value", "pointer"),
    [
        (b'{"a":[1]}', "/payload/output/a"),
        (b'{"a":null}', "/payload/output/a"),
        (b'{"a":{}}', "/payload/output/a"),
        (b"[]", "/payload/output"),
    ],
)
def test_hook_output_shape_is_checked(value: bytes, pointer: str) -> None:
    line = (
        b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"hook","hook":"stop",'
        b'"name":"h","output":' + value + b"}}"
    )
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    assert (exc.value.category, exc.value.pointer) == ("wrong_type", pointer)


@pytest.mark.parametrize("value", [b"[]", b'"sig"', b"1", b"null", b"true"])
def test_fidelity_must_be_an_object(value: bytes) -> None:
    with pytest.raises(om.DecodeError) as exc:
        om.decode(HEAD + value + b"}}")
    assert (exc.value.category, exc.value.pointer) == ("wrong_type", "/payload/fidelity")


def test_fidelity_grammar_still_applies() -> None:
    for bad in (b'{"n":01}', b'{"n":NaN}', b'{"n":1.}', b'{"a":1,}', b"{'a':1}"):
        with pytest.raises(om.DecodeError) as exc:
            om.decode(HEAD + bad + b"}}")
        assert exc.value.category == "invalid_json", bad


def test_depth_limit_applies_inside_verbatim() -> None:
    deep = b'{"d":' + b"[" * 600 + b"]" * 600 + b"}"
    with pytest.raises(om.DecodeError) as exc:
        om.decode(HEAD + deep + b"}}")
    assert exc.value.category == "too_deep"


def test_verbatim_path_is_only_where_the_schema_says() -> None:
    # `output` of a tool_call_output is a plain string, not verbatim: lone surrogates are refused there
    line = (
        b'{"timestamp":"t","type":"model_msg","payload":{"type":"tool_call_output","role":"user",'
        b'"output":"\\ud800","tool_call_id":"c"}}'
    )
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    assert exc.value.category == "lone_surrogate"


def test_invalid_utf8_inside_verbatim_is_refused() -> None:
    # msgspec skips a Raw value without validating its UTF-8; the codec must not.
    for bad in (b'{"s":"\xed\xa0\x80"}', b'{"s":"\xff"}', b'{"\xc0\xaf":1}'):
        with pytest.raises(om.DecodeError) as exc:
            om.decode(HEAD + bad + b"}}")
        assert exc.value.category == "invalid_utf8"
