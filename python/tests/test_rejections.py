"""Every rejection category of the wire contract, with its pointer; nothing else escapes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from conftest import ROOT

import omnimessage as om
from omnimessage_codegen import schema_path
from omnimessage_dev.synth.samples import canonical_samples

T = b'"timestamp":"2026-07-18T03:10:22.531Z"'
TEXT = b"{" + T + b',"type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}'


def ev(payload: bytes) -> bytes:
    return b"{" + T + b',"type":"event_msg","payload":' + payload + b"}"


def mm(payload: bytes) -> bytes:
    return b"{" + T + b',"type":"model_msg","payload":' + payload + b"}"


# (id, line, category, pointer or None when not asserted)
CASES: list[tuple[str, bytes, str, str | None]] = [
    ("utf8-overlong", mm(b'{"type":"text","role":"user","text":"\xc0\xaf"}'), "invalid_utf8", ""),
    ("utf8-encoded-surrogate", mm(b'{"type":"text","role":"user","text":"\xed\xa0\x80"}'), "invalid_utf8", ""),
    ("utf8-truncated", mm(b'{"type":"text","role":"user","text":"\xe4\xb8"}'), "invalid_utf8", ""),
    ("utf8-ff", b"\xff" + TEXT, "invalid_utf8", ""),
    ("json-bom", b"\xef\xbb\xbf" + TEXT, "invalid_json", ""),
    ("json-nan", ev(b'{"type":"request_end","status":"completed","retry_in_ms":NaN}'), "invalid_json", ""),
    ("json-infinity", ev(b'{"type":"request_end","status":"completed","retry_in_ms":Infinity}'), "invalid_json", ""),
    ("json-leading-zero", ev(b'{"type":"request_end","status":"completed","attempt":01}'), "invalid_json", ""),
    ("json-bare-minus", ev(b'{"type":"request_end","status":"completed","attempt":-}'), "invalid_json", ""),
    ("json-dot", ev(b'{"type":"request_end","status":"completed","attempt":1.}'), "invalid_json", ""),
    ("json-trailing-comma", mm(b'{"type":"text","role":"user","text":"hi",}'), "invalid_json", ""),
    ("json-comment", b"/* c */" + TEXT, "invalid_json", ""),
    ("json-single-quotes", mm(b"{'type':'text','role':'user','text':'hi'}"), "invalid_json", ""),
    ("json-unquoted-key", mm(b'{type:"text","role":"user","text":"hi"}'), "invalid_json", ""),
    ("line-break-raw-newline-in-string", mm(b'{"type":"text","role":"user","text":"a\nb"}'), "line_break", ""),
    ("line-break-in-fidelity", mm(b'{"type":"text","role":"user","text":"a","fidelity":{"a":1,\r"b":2}}'), "line_break", ""),
    ("json-nul", mm(b'{"type":"text","role":"user","text":"a\x00b"}'), "invalid_json", ""),
    ("json-bad-escape", mm(b'{"type":"text","role":"user","text":"\\x41"}'), "invalid_json", ""),
    ("json-empty", b"", "invalid_json", ""),
    ("json-blank", b"   \n", "invalid_json", ""),
    ("json-unterminated", TEXT[:-3], "invalid_json", ""),
    ("trailing-second-object", TEXT + TEXT, "trailing_data", ""),
    ("trailing-garbage", TEXT + b" x", "trailing_data", ""),
    ("trailing-two-newlines", TEXT + b"\n\n{}", "line_break", ""),  # a raw LF before more text (section 1.5)
    ("trailing-after-whitespace", TEXT + b" \t{}", "trailing_data", ""),
    (
        "too-deep-outside",
        mm(b'{"type":"text","role":"user","text":"hi","x":' + b"[" * 600 + b"]" * 600 + b"}"),
        "too_deep",
        "",
    ),
    ("too-deep-100k", b"[" * 100_000 + b"]" * 100_000, "too_deep", ""),
    (
        "dup-top",
        b"{" + T + b"," + T + b',"type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}',
        "duplicate_key",
        "/timestamp",
    ),
    ("dup-payload", mm(b'{"type":"text","role":"user","text":"hi","text":"ho"}'), "duplicate_key", "/payload/text"),
    (
        "dup-escaped-collision",
        mm(b'{"type":"text","typ\\u0065":"text","role":"user","text":"hi"}'),
        "duplicate_key",
        "/payload/type",
    ),
    (
        "dup-nested",
        ev(
            b'{"type":"token_usage","session":{"cache_read":1,"cache_read":1,"cache_write":0,"output":0,"total":1},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        "duplicate_key",
        "/payload/session/cache_read",
    ),
    ("lone-high", mm(b'{"type":"text","role":"user","text":"a\\ud800"}'), "lone_surrogate", "/payload/text"),
    ("lone-low", mm(b'{"type":"text","role":"user","text":"\\udc00"}'), "lone_surrogate", "/payload/text"),
    ("reversed-pair", mm(b'{"type":"text","role":"user","text":"\\ude00\\ud83d"}'), "lone_surrogate", "/payload/text"),
    ("lone-in-key", mm(b'{"type":"text","role":"user","text":"x","\\ud800":1}'), "lone_surrogate", "/payload/\ud800"),
    ("lone-in-origin", TEXT[:-1] + b',"origin":["\\ud800"]}', "lone_surrogate", "/origin/0"),
    (
        "lone-in-partial-name",  # only a partial's fragment field may hold a lone half (contract 4.1)
        mm(b'{"type":"partial_tool_call","role":"assistant","event_type":"delta","name":"\\ud83d","arguments":"",'
           b'"tool_call_id":"c"}'),
        "lone_surrogate",
        "/payload/name",
    ),
    (
        "int-fraction",
        ev(b'{"type":"request_end","status":"completed","attempt":1.0}'),
        "invalid_number",
        "/payload/attempt",
    ),
    (
        "int-exponent",
        ev(b'{"type":"compaction_begin","reason":"context","mode":"discard","context":1e3,"turns":1}'),
        "invalid_number",
        "/payload/context",
    ),
    (
        "number-beyond-double",
        ev(b'{"type":"request_end","status":"retryable","retry_in_ms":1e400}'),
        "invalid_number",
        "/payload/retry_in_ms",
    ),
    (
        "int-million-digits",
        ev(b'{"type":"request_end","status":"completed","attempt":' + b"9" * 1_000_000 + b"}"),
        "invalid_number",
        "/payload/attempt",
    ),
    ("top-array", b"[]", "wrong_type", ""),
    ("top-string", b'"hi"', "wrong_type", ""),
    ("text-number", mm(b'{"type":"text","role":"user","text":5}'), "wrong_type", "/payload/text"),
    (
        "int-fractional",
        ev(b'{"type":"request_end","status":"completed","attempt":1.5}'),
        "wrong_type",
        "/payload/attempt",
    ),
    ("origin-string", TEXT[:-1] + b',"origin":"a"}', "wrong_type", "/origin"),
    ("payload-array", b"{" + T + b',"type":"model_msg","payload":[]}', "wrong_type", "/payload"),
    ("type-number", b"{" + T + b',"type":5,"payload":{}}', "wrong_type", "/type"),
    (
        "images-not-strings",
        mm(b'{"type":"tool_call_output","role":"user","output":"o","images":[1],"tool_call_id":"c"}'),
        "wrong_type",
        "/payload/images/0",
    ),
    ("missing-payload", b"{" + T + b',"type":"model_msg"}', "missing_field", "/payload"),
    (
        "missing-timestamp",
        b'{"type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}',
        "missing_field",
        "/timestamp",
    ),
    ("missing-type", b"{" + T + b',"payload":{}}', "missing_field", "/type"),
    ("missing-text", mm(b'{"type":"text","role":"user"}'), "missing_field", "/payload/text"),
    ("missing-payload-type", mm(b'{"role":"user","text":"hi"}'), "missing_field", "/payload/type"),
    (
        "missing-nested",
        ev(b'{"type":"tool_list_ready","tools":[{"name":"a"}]}'),
        "missing_field",
        "/payload/tools/0/description",
    ),
    ("unknown-top-field", TEXT[:-1] + b',"extra":1}', "unexpected_field", "/extra"),
    (
        "unknown-payload-field",
        mm(b'{"type":"text","role":"user","text":"hi","bogus":true}'),
        "unexpected_field",
        "/payload/bogus",
    ),
    (
        "legacy-thinking-level",
        b"{"
        + T
        + b',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":"/a","workspace":"/w","thinking_level":"high"}}',
        "unexpected_field",
        "/payload/thinking_level",
    ),
    (
        "session-meta-type-key",
        b"{"
        + T
        + b',"type":"session_meta","payload":{"type":"x","session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":"/a","workspace":"/w"}}',
        "unexpected_field",
        "/payload/type",
    ),
    ("unknown-envelope", b"{" + T + b',"type":"model_message","payload":{}}', "unknown_type", "/type"),
    ("unknown-payload", mm(b'{"type":"video","role":"user"}'), "unknown_type", "/payload/type"),
    ("event-in-model", mm(b'{"type":"request_begin"}'), "unknown_type", "/payload/type"),
    ("model-in-event", ev(b'{"type":"text","role":"user","text":"hi"}'), "unknown_type", "/payload/type"),
    ("bad-role", mm(b'{"type":"text","role":"system","text":"hi"}'), "invalid_value", "/payload/role"),
    ("const-role", mm(b'{"type":"thinking","role":"user","thinking":"t"}'), "invalid_value", "/payload/role"),
    (
        "retired-stop-reason",
        mm(b'{"type":"text","role":"user","text":"hi","stop_reason":"failed"}'),
        "invalid_value",
        "/payload/stop_reason",
    ),
    (
        "retired-source",
        b"{"
        + T
        + b',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":"/a","workspace":"/w","source":"benchmark"}}',
        "invalid_value",
        "/payload/source",
    ),
    ("abort-code-unknown", ev(b'{"type":"abort","error_code":"cancelled"}'), "invalid_value", "/payload/error_code"),
    (
        "attempt-zero",
        ev(b'{"type":"request_end","status":"completed","attempt":0}'),
        "invalid_value",
        "/payload/attempt",
    ),
    (
        "count-negative",
        ev(b'{"type":"compaction_begin","reason":"context","mode":"discard","context":-1,"turns":1}'),
        "invalid_value",
        "/payload/context",
    ),
    (
        "count-2^53",
        ev(b'{"type":"compaction_begin","reason":"context","mode":"discard","context":9007199254740992,"turns":1}'),
        "invalid_value",
        "/payload/context",
    ),
    ("origin-empty", TEXT[:-1] + b',"origin":[]}', "invalid_value", "/origin"),
    (
        "duration-negative",
        ev(
            b'{"type":"mcp_connect_end","status":"completed","results":[{"server":"s","transport":"stdio","status":"completed","duration_ms":-1}]}'
        ),
        "invalid_value",
        "/payload/results/0/duration_ms",
    ),
]


@pytest.mark.parametrize(("case", "line", "category", "pointer"), CASES, ids=[c[0] for c in CASES])
def test_refused_with_category_and_pointer(case: str, line: bytes, category: str, pointer: str | None) -> None:
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    err = exc.value
    assert err.category == category, repr(err)
    if pointer is not None:
        assert err.pointer == pointer, repr(err)
    assert str(err).startswith(category)


def test_every_decoder_category_has_at_least_two_cases() -> None:
    counts: dict[str, int] = {}
    for _, _, cat, _ in CASES:
        counts[cat] = counts.get(cat, 0) + 1
    reader_only = {"too_large", "truncated"}  # covered in test_reader.py
    for cat in om.CATEGORIES:
        if cat not in reader_only:
            assert counts.get(cat, 0) >= 2, cat


def test_offsets_point_at_the_problem() -> None:
    line = mm(b'{"type":"text","role":"user","text":"hi","text":"ho"}')
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    assert line[exc.value.offset :].startswith(b'"text":"ho"')  # type: ignore[misc]
    line = mm(b'{"type":"text","role":"robot","text":"hi"}')
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    assert line[exc.value.offset :].startswith(b'"robot"')  # type: ignore[misc]
    bad = mm('{"type":"text","role":"user","text":"é\xff"}'.encode("utf-8", "surrogateescape"))
    with pytest.raises(om.DecodeError) as exc:
        om.decode(bad.replace(b"\xc3\xbf", b"\xff"))
    assert exc.value.category == "invalid_utf8"


@pytest.mark.parametrize(("case", "line", "category", "pointer"), CASES, ids=[c[0] for c in CASES])
def test_lenient_keeps_well_formed_lines_verbatim(case: str, line: bytes, category: str, pointer: str | None) -> None:
    well_formed_refusals = {
        "duplicate_key",
        "lone_surrogate",
        "invalid_number",
        "missing_field",
        "unexpected_field",
        "unknown_type",
        "invalid_value",
        "wrong_type",
    }
    if category in well_formed_refusals and pointer != "":
        msg = om.decode(line, lenient=True)
        assert isinstance(msg, om.OpaqueMessage)
        assert msg.error.category == category
        assert om.encode(msg) == line
    else:
        with pytest.raises(om.DecodeError):
            om.decode(line, lenient=True)


# --- agreement with JSON Schema -------------------------------------------------------

VALIDATOR = jsonschema.Draft202012Validator(json.loads(schema_path().read_text()))


def test_schema_accepts_every_valid_sample() -> None:
    for case, line in canonical_samples():
        errors = list(VALIDATOR.iter_errors(json.loads(line)))
        assert not errors, (case, errors[0].message)


# lexical defects (duplicate keys, number spelling, ...) are invisible to JSON Schema: not asked of it
SCHEMA_CASES = [c for c in CASES if not om.DecodeError(c[2], "").lexical]


def test_every_schema_level_category_is_asked_of_json_schema() -> None:
    declared = json.loads(schema_path().read_text())["x-omnimessage-rejections"]
    schema_level = {name for name, spec in declared.items() if not spec["lexical"]}
    assert schema_level and {c[2] for c in SCHEMA_CASES} == schema_level


@pytest.mark.parametrize(("case", "line", "category", "pointer"), SCHEMA_CASES, ids=[c[0] for c in SCHEMA_CASES])
def test_schema_refuses_every_schema_level_case(case: str, line: bytes, category: str, pointer: str | None) -> None:
    assert not VALIDATOR.is_valid(json.loads(line))


FUZZ_CRASHES = sorted((ROOT / "fuzz" / "crashes").glob("*"))


@pytest.mark.parametrize("path", FUZZ_CRASHES, ids=[p.name for p in FUZZ_CRASHES])
def test_inputs_the_fuzzer_crashed_on_are_refused_cleanly(path: Path) -> None:
    from omnimessage.codec import api as codec

    data = path.read_bytes()
    results = []
    for fn in (om.decode, lambda d: codec._decode_slow(d, lenient=False)):
        try:
            results.append(("ok", om.encode(fn(data))))
        except om.DecodeError as exc:
            results.append(("refused", exc.category))
    assert results[0] == results[1]


def test_integer_spelled_number_beyond_double_range() -> None:
    line = ev(b'{"type":"request_end","status":"retryable","retry_in_ms":1' + b"0" * 320 + b"}")
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    assert (exc.value.category, exc.value.pointer) == ("invalid_number", "/payload/retry_in_ms")


def test_digit_like_keys_are_not_array_indices_for_verbatim_paths() -> None:
    line = ev('{"type":"tool_list_ready","tools":{"²":{"name":"a","description":"d","parameters":{"a":1,"a":2}}}}'.encode())
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    assert (exc.value.category, exc.value.pointer) == ("duplicate_key", "/payload/tools/²/parameters/a")


def test_type_names_in_details_are_json_names() -> None:
    with pytest.raises(om.DecodeError) as exc:
        om.decode(b'{"timestamp":"t","type":["model_msg"],"payload":{}}')
    assert "`array`" in exc.value.detail and "list" not in exc.value.detail


@pytest.mark.parametrize(
    "payload",
    [
        '{"type":"request_begin","K":1}',  # unexpected_field
        '{"type":"request_begin","K":1,"K":1}',  # duplicate_key
        '{"type":"K"}',  # unknown_type
        '{"type":"request_end","status":"K"}',  # invalid_value
        '{"type":"request_end","status":"completed","attempt":1.N}',  # invalid_number
        '{"type":"request_end","status":"completed","attempt":1.5N}',  # wrong_type
    ],
)
def test_details_quote_at_most_200_characters_of_a_huge_value(payload: str) -> None:
    """A 10^6-character key or value is named, not copied: the detail stays short (the pointer is
    exact, as the spec wants). 'é' and an astral character count one each, as in TypeScript."""
    big = payload.replace("K", "é😀" + "k" * 10**6).replace("N", "0" * 10**6)
    with pytest.raises(om.DecodeError) as exc:
        om.decode(ev(big.encode()))
    assert len(exc.value.detail) < 300, exc.value.detail[:400]
    assert "'..." in exc.value.detail or "\"..." in exc.value.detail
    small = payload.replace("K", "kk").replace("N", "0")
    with pytest.raises(om.DecodeError) as exc:
        om.decode(ev(small.encode()))
    assert "..." not in exc.value.detail
