"""Issue 32, high: a message is one line (schema/README.md section 1.5).

A raw LF or CR anywhere in a message, verbatim values included, is refused as `line_break` by the
decoder (the accelerator's fast path, the pure fast path, the slow path), by the builders that
take verbatim text, by the encoder, by the trace writer (before anything is written), and
`Session.emit` leaves trace and SSE agreeing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

import omnimessage as om
from omnimessage import produce
from omnimessage.codec import api as codec
from omnimessage.codec.tables import RUNTIME

TS = "2026-09-14T08:12:41.000Z"
SID = "session-2026-09-14-16-12-40-0c9d2b6e"
GOOD = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}'


def _thinking(fidelity: bytes) -> bytes:
    return (b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"thinking",'
            b'"role":"assistant","thinking":"ok","fidelity":' + fidelity + b"}}")


FORGED = _thinking(b'{"signature":\n' + GOOD + b"\n}")
REFUSED = {
    "forged-record-in-fidelity": (FORGED, FORGED.index(b"\n")),
    "forged-record-in-fidelity-lf-terminated": (FORGED + b"\n", FORGED.index(b"\n")),
    "cr-in-fidelity": (_thinking(b'{"a":1,\r"b":2}') + b"\r\n", None),
    "lf-in-tool-parameters": (b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"tool_list_ready",'
                              b'"tools":[{"name":"t","description":"d","parameters":{"type":"object",\n"properties":{}}}]}}', None),
    "lf-in-hook-output": (b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"hook","hook":"stop",'
                          b'"name":"h","output":{"a":"b"\n}}}\n', None),
    "lf-between-tokens": (GOOD.replace(b'"type":"event_msg"', b'"type":\n"event_msg"'), None),
    "lf-before-object": (b"\n" + GOOD + b"\n", 0),
    "cr-in-string": (GOOD.replace(b"request_begin", b"request\rbegin"), None),
    "two-messages": (GOOD + b"\n" + GOOD + b"\n", len(GOOD)),
    "lf-then-syntax-error": (b'{"timestamp":\n,}', 13),
}
ACCEPTED = [GOOD + b"\r\n", GOOD + b"\r\r\n", GOOD + b" \t\r\n", GOOD + b"\r", GOOD + b"\n \n",
            _thinking(b'{"a":1,\t "b":2}') + b"\n"]
PURE = RUNTIME._replace(native=None)
PATHS = [pytest.param(RUNTIME, id="default"), pytest.param(PURE, id="pure")]


@pytest.mark.parametrize("t", PATHS)
@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("lenient", [False, True])
def test_a_raw_line_break_inside_a_message_is_line_break(name: str, t: Any, lenient: bool) -> None:
    data, offset = REFUSED[name]
    with pytest.raises(om.DecodeError) as exc:
        codec._decode(data, lenient, t)
    assert (exc.value.category, exc.value.pointer) == ("line_break", "")
    first = min(i for i in (data.find(b"\n"), data.find(b"\r")) if i >= 0)
    assert exc.value.offset == (first if offset is None else offset)
    with pytest.raises(om.DecodeError, match="line"):
        om.decode(data.decode("utf-8"))  # a str takes the same way


@pytest.mark.parametrize("t", PATHS)
def test_the_fast_paths_do_not_prove_a_verbatim_value_with_a_line_break(t: Any) -> None:
    """A canonical line but for a LF in its fidelity: the accelerator's one-pass proof (verify.c)
    and the pure re-encoding proof used to take it whole."""
    from omnimessage.codec.fast_path import decode_fast

    for ws in (b"\n", b"\r"):
        assert decode_fast(_thinking(b'{"a":1,' + ws + b'"b":2}'), t) is None
    assert decode_fast(_thinking(b'{"a":1,\t"b":2}'), t) is not None


def test_the_native_decode_refuses_too() -> None:
    native = RUNTIME.native
    if native is None:
        pytest.skip("the native accelerator is not built")
    assert native(FORGED) is None
    assert native(_thinking(b'{"a":1,\r"b":2}')) is None


@pytest.mark.parametrize("data", ACCEPTED)
def test_line_breaks_after_the_value_stay_whitespace(data: bytes) -> None:
    msg = om.decode(data)
    assert om.encode(msg) == data.split(b"\n")[0].split(b"\r")[0].rstrip(b" \t")


def test_the_reader_reports_the_forged_record_as_one_refused_line() -> None:
    """A file with a CR-broken record: the reader splits at LF only, so it is one line, refused."""
    data = _thinking(b'{"signature":\r' + GOOD + b"\r}") + b"\n" + GOOD + b"\n"
    lines = list(om.iter_messages(__import__("io").BytesIO(data)))
    assert [(x.error.category if x.error else None) for x in lines] == ["line_break", None]


@pytest.mark.parametrize("text", ['{"signature":\n"x"}', '{"a":1,\r"b":2}', '\n{"a":1,\n"b":2}\n'])
def test_builders_refuse_verbatim_text_with_a_line_break(text: str) -> None:
    for given in (text, text.encode(), msgspec.Raw(text.encode())):
        with pytest.raises(ValueError, match="line_break"):
            om.thinking("ok", fidelity=given, timestamp=TS)
    with pytest.raises(ValueError, match="line_break"):
        om.hook("stop", "h", output=text, timestamp=TS)
    with pytest.raises(ValueError, match="line_break"):
        om.tool_definition("t", "d", parameters=text)


def test_builders_still_leave_out_an_empty_object_and_write_mappings_on_one_line() -> None:
    assert om.thinking("ok", fidelity="{\r\n}", timestamp=TS).payload.fidelity is msgspec.UNSET
    msg = om.thinking("ok", fidelity={"s": "a\nb"}, timestamp=TS)
    assert b"\n" not in om.encode(msg) and b'"a\\nb"' in om.encode(msg)


def _hand_built(raw: bytes = b'{"signature":\n"x"}') -> Any:
    """What only a caller bypassing decoder and builders can make."""
    return om.ModelMessage(timestamp=TS, payload=om.ThinkingPayload(role="assistant", thinking="ok",
                                                                     fidelity=msgspec.Raw(raw)))


def test_the_encoder_refuses_what_would_not_be_one_line() -> None:
    with pytest.raises(ValueError, match="one line"):
        om.encode(_hand_built())
    with pytest.raises(ValueError, match="one line"):
        om.encode(_hand_built(b'{"a":\r1}'))
    with pytest.raises(ValueError, match="one line"):
        om.encode(om.OpaqueMessage(raw=b'{"a":\n1}', error=om.DecodeError("unknown_type", "x")))


def test_the_trace_writer_refuses_before_writing_anything(tmp_path: Path) -> None:
    w = produce.TraceWriter(tmp_path, SID)
    with pytest.raises(produce.TraceRefused, match="one line"):
        w.write(_hand_built(b'{"signature":\n' + GOOD + b"\n}"))
    assert list(tmp_path.iterdir()) == []
    w.write(om.user_text("first", timestamp=TS))
    before = Path(w.path).read_bytes()
    meta = om.session_meta(session_id=SID, provider="p", model_id="m", model_context_window=1, system_prompt="",
                           agent_state="/a", workspace="/w", timestamp=TS)
    bad_head = om.tool_list_ready([om.ToolDefinition(name="t", description="d", parameters=msgspec.Raw(b'{"a":\n1}'))],
                                  timestamp=TS)
    with pytest.raises(produce.TraceRefused, match="one line"):
        w.open_context(meta, bad_head)  # the meta is fine: nothing of the head is written, no rotation
    assert Path(w.path).read_bytes() == before and w.index == 1


def test_session_emit_leaves_trace_and_sse_agreeing(tmp_path: Path) -> None:
    ch = produce.SseChannel()
    seen: list[bytes] = []
    ch.subscribe(lambda e: seen.append(e.data))
    streamed: list[bytes] = []
    s = produce.Session(produce.TraceWriter(tmp_path, SID), ch, stream=streamed.append, clock=lambda: TS)
    s.start(om.session_meta(session_id=SID, provider="p", model_id="m", model_context_window=1, system_prompt="",
                            agent_state="/a", workspace="/w", timestamp=TS))
    with pytest.raises(ValueError, match="one line"):
        s.emit(_hand_built(b'{"signature":\n' + GOOD + b"\n}"))
    s.emit(om.assistant_text("after", timestamp=TS))
    trace = Path(s.trace.path).read_bytes().splitlines() if s.trace else []
    assert len(trace) == 2 and trace[1:] == seen == [x.rstrip(b"\n") for x in streamed]
    s.close()
