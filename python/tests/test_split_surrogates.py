"""Split surrogate pairs in streaming fragments (wire contract section 4.1).

JavaScript producers cut fragments at arbitrary UTF-16 offsets, so a delta can end with the high
half of a surrogate pair and the next begin with the low half; `JSON.stringify` writes such a lone
half as a lower-case `\\udXXX` escape. Strict decoding accepts it in the fragment field of the four
partials (and only there), re-encodes it byte for byte, and fragments join in UTF-16.
"""

from __future__ import annotations

import pytest

import omnimessage as om
from omnimessage.codec.api import decode_canonical
from omnimessage.codec.utf16 import join_fragments

TS = "2026-07-18T03:10:22.531Z"
HEAD = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":'


def mm(payload: bytes, extra: bytes = b"") -> bytes:
    return HEAD + payload + extra + b"}"


def partial(kind: str, fragment: bytes) -> bytes:
    """A canonical partial of `kind` whose fragment field is the JSON string body `fragment`."""
    if kind == "text":
        return mm(b'{"type":"partial_text","role":"assistant","event_type":"delta","text":"' + fragment + b'"}')
    if kind == "thinking":
        return mm(b'{"type":"partial_thinking","role":"assistant","event_type":"delta","thinking":"' + fragment + b'"}')
    if kind == "arguments":
        return mm(
            b'{"type":"partial_tool_call","role":"assistant","event_type":"delta","name":"f","arguments":"'
            + fragment
            + b'","tool_call_id":"c"}'
        )
    return mm(
        b'{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"'
        + fragment
        + b'","tool_call_id":"c"}'
    )


KINDS = ["text", "thinking", "arguments", "output"]
FIELD = {"text": "text", "thinking": "thinking", "arguments": "arguments", "output": "output"}


def refusal(line: bytes | str) -> om.DecodeError:
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    return exc.value


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("body", "value"),
    [
        (b"abc\\ud83d", "abc\ud83d"),  # the high half ends a delta
        (b"\\ude00def", "\ude00def"),  # the low half starts the next
        (b"\\udc00 mid \\udbff", "\udc00 mid \udbff"),  # both ends of one delta
        (b"\\ud83d", "\ud83d"),  # one code unit alone
        (b"a\\udc00b", "a\udc00b"),  # anywhere in the fragment
        ("😀\\ud83d".encode(), "😀\ud83d"),  # a whole pair, raw, then a half
    ],
)
def test_lone_halves_in_a_fragment_round_trip_byte_for_byte(kind: str, body: bytes, value: str) -> None:
    line = partial(kind, body)
    msg = om.decode(line)
    assert getattr(msg.payload, FIELD[kind]) == value
    assert om.encode(msg) == line
    assert om.canonicalize(line + b"\n") == line
    assert decode_canonical(line) == (msg, True)
    assert om.decode(line.decode("ascii" if line.isascii() else "utf-8")) == msg  # str input too


def test_non_canonical_spellings_are_canonicalised() -> None:
    for spelled, canonical in [
        (b"abc\\uD83D", b"abc\\ud83d"),
        (b"\\uDE00def", b"\\ude00def"),
        (b"\\uDc00x\\udBfF", b"\\udc00x\\udbff"),
        (b"\\uD83D\\uDE00\\ud83d", "😀\\ud83d".encode()),  # an escaped pair is a character
        (b"\\u0041\\/\\ud83d", b"A/\\ud83d"),
    ]:
        line = partial("output", spelled)
        assert om.canonicalize(line) == partial("output", canonical)
        assert decode_canonical(line)[1] is False
    # keys out of order: the slow path keeps the lone half too
    reordered = (
        b'{"payload":{"tool_call_id":"c","output":"abc\\ud83d","event_type":"delta","role":"user",'
        b'"type":"partial_tool_call_output"},"type":"model_msg","timestamp":"2026-07-18T03:10:22.531Z"}'
    )
    assert om.canonicalize(reordered) == partial("output", b"abc\\ud83d")


@pytest.mark.parametrize(
    ("line", "pointer"),
    [
        # a partial's other fields
        (
            mm(b'{"type":"partial_tool_call","role":"assistant","event_type":"delta","name":"\\ud83d","arguments":"",'
               b'"tool_call_id":"c"}'),
            "/payload/name",
        ),
        (
            mm(b'{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"x",'
               b'"tool_call_id":"c\\udbff"}'),
            "/payload/tool_call_id",
        ),
        (
            mm(b'{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"",'
               b'"images":["\\udc00"],"tool_call_id":"c"}'),
            "/payload/images/0",
        ),
        # a key of a partial
        (mm(b'{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d","\\ud83d":1}'),
         "/payload/\ud83d"),
        # a fidelity member on a partial: not verbatim there (partials carry none)
        (mm(b'{"type":"partial_text","role":"assistant","event_type":"delta","text":"x","fidelity":{"s":"\\ud83d"}}'),
         "/payload/fidelity/s"),
        # the fragment field of another partial kind
        (mm(b'{"type":"partial_text","role":"assistant","event_type":"delta","text":"","output":"\\ud83d"}'),
         "/payload/output"),
        # the origin of a line whose fragment is fine
        (mm(b'{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d"}', b',"origin":["\\ud800"]'),
         "/origin/0"),
        # complete messages
        (mm(b'{"type":"tool_call_output","role":"user","output":"abc\\ud83d","tool_call_id":"c"}'), "/payload/output"),
        (mm(b'{"type":"text","role":"assistant","text":"\\ude00"}'), "/payload/text"),
        (mm(b'{"type":"tool_call","role":"assistant","name":"n","arguments":"\\ud83d","tool_call_id":"c"}'),
         "/payload/arguments"),
        # a partial type under another envelope is no partial (the lexical refusal comes first)
        (HEAD.replace(b"model_msg", b"event_msg")
         + b'{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d"}}', "/payload/text"),
        # the envelope
        (b'{"timestamp":"\\ud83d","type":"model_msg","payload":{"type":"partial_text","role":"assistant",'
         b'"event_type":"delta","text":"x"}}', "/timestamp"),
    ],
)
def test_everywhere_else_a_lone_surrogate_is_still_refused(line: bytes, pointer: str) -> None:
    err = refusal(line)
    assert (err.category, err.pointer) == ("lone_surrogate", pointer)
    # lenient mode keeps such a line as an opaque message, byte for byte
    opaque = om.decode(line, lenient=True)
    assert isinstance(opaque, om.OpaqueMessage) and om.encode(opaque) == line


def test_surrogates_in_the_utf8_bytes_stay_invalid_utf8() -> None:
    line = partial("text", b"abc\xed\xa0\xbd")
    err = refusal(line)
    assert (err.category, err.offset) == ("invalid_utf8", line.index(b"\xed"))
    # a str holding a raw lone surrogate is what UTF-8 cannot carry either
    assert refusal(partial("text", b"X").decode().replace("X", "\ud83d")).category == "invalid_utf8"


def test_verbatim_values_keep_lone_surrogate_escapes_as_before() -> None:
    line = mm(b'{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"s":"\\uD83D"}}')
    assert om.encode(om.decode(line)) == line  # kept byte for byte, upper case included


def test_builders_write_lone_halves_as_json_stringify() -> None:
    msg = om.partial_tool_call_output("delta", "abc\ud83d", "c", timestamp=TS)
    line = om.encode(msg)
    assert b'"output":"abc\\ud83d"' in line
    assert om.decode(line) == msg


def test_join_fragments_joins_in_utf16() -> None:
    assert join_fragments(["abc\ud83d", "\ude00def"]) == "abc😀def"
    assert join_fragments(["abc\ud83d", "", "\ude00def"]) == "abc😀def"  # empty deltas in between
    assert join_fragments(iter(["\ud83d", "\ude00", "\ud83d"])) == "😀\ud83d"  # any iterable; a half left over
    assert join_fragments(["\ude00", "\ud83d"]) == "\ude00\ud83d"  # low then high: no pair
    assert join_fragments(["plain ", "ascii"]) == "plain ascii"
    assert join_fragments(["é中", "😀"]) == "é中😀"
    assert join_fragments([]) == ""
    big = ["x" * 1000 + "\ud83d", "\ude00" + "é" * 1000] * 50
    assert join_fragments(big) == ("x" * 1000 + "😀" + "é" * 1000) * 50


def _split_stream(complete: bool) -> list[om.Message]:
    """A tool output cut mid-pair by a JavaScript producer, its lines decoded from the wire."""
    lines = [
        partial("output", b"").replace(b'"delta"', b'"start"'),
        partial("output", b"abc\\ud83d"),
        partial("output", b"\\ude00def \\ud83d"),
        partial("output", b"\\ude01").replace(b'"delta"', b'"stop"'),
    ]
    if complete:
        lines.append(mm('{"type":"tool_call_output","role":"user","output":"abc😀def 😁","tool_call_id":"c"}'.encode()))
    return [om.decode(x) for x in lines]  # type: ignore[misc]  # strict: never opaque


def test_aggregator_joins_split_pairs() -> None:
    agg = om.Aggregator()
    stream = _split_stream(complete=True)
    for msg in stream[:2]:
        agg.feed(msg)
    (seg,) = agg.open.values()
    assert seg.text == "abc\ud83d"  # live text so far: the half waits for its partner
    out = [m for msg in stream[2:] for m in agg.feed(msg)] + agg.finish()
    assert out == [stream[-1]]
    assert agg.mismatches == []  # the joined fragments equal the complete output


def test_aggregator_assembles_the_joined_pair_when_the_complete_message_is_missing() -> None:
    agg = om.Aggregator()
    out = [m for msg in _split_stream(complete=False) for m in agg.feed(msg)] + agg.finish()
    (msg,) = out
    assert msg.payload.output == "abc😀def 😁"  # type: ignore[union-attr]
    assert om.encode(msg) == mm(
        '{"type":"tool_call_output","role":"user","output":"abc😀def 😁","tool_call_id":"c","stop_reason":"completed"}'.encode()
    )
