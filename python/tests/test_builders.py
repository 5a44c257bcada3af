"""Builders write what the reference builders write; guards; the stream aggregator."""

from __future__ import annotations

import re

import msgspec
import pytest

import omnimessage as om

TS = "2026-07-18T03:10:22.531Z"


def test_builders_produce_canonical_reference_lines() -> None:
    assert om.encode(om.user_text("hi", timestamp=TS)) == (
        b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":'
        b'{"type":"text","role":"user","text":"hi","stop_reason":"completed"}}'
    )
    assert om.encode(om.user_text("go", sender="harness", timestamp=TS)).endswith(
        b'"text":"go","stop_reason":"completed","sender":"harness"}}'
    )
    msg = om.assistant_text("ok", fidelity={"signature": "EqQB", "n": 1.0, "x": [1e21]}, timestamp=TS)
    assert om.encode(msg).endswith(b'"stop_reason":"completed","fidelity":{"signature":"EqQB","n":1,"x":[1e+21]}}}')
    kept = om.thinking("t", fidelity=b'{ "sig" : 1.0 }', timestamp=TS)
    assert om.encode(kept).endswith(b'"fidelity":{ "sig" : 1.0 }}}')
    out = om.tool_call_output("done", "c1", images=[], timestamp=TS)
    assert b"images" not in om.encode(out)
    assert om.encode(om.abort("user_abort", reason=None, timestamp=TS)).endswith(
        b'{"type":"abort","error_code":"user_abort","reason":null}}'
    )
    assert b"reason" not in om.encode(om.abort("user_abort", timestamp=TS))


def test_every_builder_roundtrips() -> None:
    counts = om.token_counts(cache_read=1, cache_write=2, output=3, total=6)
    msgs = [
        om.session_meta(
            session_id="s",
            provider="p",
            model_id="m",
            model_context_window=200000,
            system_prompt="sp",
            agent_state="/a",
            workspace="/w",
            source="cli",
        ),
        om.user_text("u"),
        om.assistant_text("a"),
        om.thinking("t"),
        om.inline_thinking("ZGF0YQ==", "application/octet-stream"),
        om.tool_call("ls", '{"path":"."}', "c1"),
        om.tool_call_output("out", "c1", images=["data:image/png;base64,AA=="]),
        om.image_url("https://example.com/a.png"),
        om.inline_data("AA==", "image/png", role="assistant"),
        om.partial_text("start", ""),
        om.partial_thinking("delta", "x"),
        om.partial_tool_call("delta", "ls", "{", "c1"),
        om.partial_tool_call_output("stop", "", "c1"),
        om.tool_list_ready([om.tool_definition("ls", "list", {"type": "object"}), om.tool_definition("x", "y")]),
        om.mcp_connect_begin(["gh"]),
        om.mcp_connect_end(
            "completed",
            [om.McpServerResult(server="gh", transport="http", status="completed", duration_ms=12.5, tools=3)],
        ),
        om.request_begin(),
        om.request_end("retryable", error_code="timeout", error_message="slow", attempt=1, retry_in_ms=2000),
        om.approval_decision("allow", "c1"),
        om.token_usage(counts, counts),
        om.compaction_begin("context", "summarize", 1000, 3),
        om.compaction_end("context", "summarize", "completed", attempt=1),
        om.abort("user_abort", error_message="stop"),
        om.subagent("child"),
        om.hook("pre_tool_use", "guard", decision="allow", reason="fine", output={"checked": True}),
    ]
    for msg in msgs:
        line = om.encode(msg)
        assert om.encode(om.decode(line)) == line, line


def test_timestamps_look_like_date_to_iso_string() -> None:
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", om.now())


def test_with_origin_prepends_hops() -> None:
    msg = om.with_origin(om.with_origin(om.user_text("x", timestamp=TS), "inner"), "outer")
    assert msg.origin == ["outer", "inner"]
    assert om.encode(msg).endswith(b',"origin":["outer","inner"]}')


def test_raw_json_refuses_non_objects() -> None:
    for bad in (b"[1]", b"{", "nope", b'"s"'):
        with pytest.raises(ValueError):
            om.raw_json(bad)


def test_lone_surrogates_built_in_python_are_escaped_like_json_stringify() -> None:
    msg = om.user_text("a\ud800b", timestamp=TS)
    line = om.encode(msg)
    assert b'"text":"a\\ud800b"' in line
    with pytest.raises(om.DecodeError) as exc:
        om.decode(line)
    assert exc.value.category == "lone_surrogate"


def test_guards() -> None:
    assert om.is_complete_model(om.user_text("x")) and not om.is_partial(om.user_text("x"))
    assert om.is_partial(om.partial_text("delta", "x")) and not om.is_complete_model(om.partial_text("delta", "x"))
    assert om.is_event(om.request_begin()) and om.is_model(om.user_text("x"))
    meta = om.session_meta(
        session_id="s",
        provider="p",
        model_id="m",
        model_context_window="1M",
        system_prompt="",
        agent_state="/a",
        workspace="/w",
    )
    assert om.is_session_meta(meta) and not om.is_event(meta)


def _stream() -> list[om.Message]:
    return [
        om.partial_text("start", "", timestamp=TS),
        om.partial_tool_call("start", "ls", "", "c1", timestamp=TS),
        om.partial_text("delta", "Hel", timestamp=TS),
        om.partial_tool_call("delta", "ls", '{"p":', "c1", timestamp=TS),
        om.partial_text("delta", "lo", timestamp=TS),
        om.partial_text("stop", "", timestamp=TS),
        om.assistant_text("Hello", fidelity={"sig": "x"}, timestamp=TS),
        om.partial_tool_call("delta", "ls", '"."}', "c1", timestamp=TS),
        om.partial_tool_call("stop", "ls", "", "c1", timestamp=TS),
        om.tool_call("ls", '{"p":"."}', "c1", timestamp=TS),
        om.partial_tool_call_output("start", "", "c1", timestamp=TS),
        om.partial_tool_call_output("delta", "a\n", "c1", images=["data:image/png;base64,AA=="], timestamp=TS),
        om.partial_tool_call_output("stop", "", "c1", timestamp=TS),
        om.tool_call_output("a\n", "c1", images=["data:image/png;base64,AA=="], timestamp=TS),
        om.request_end("completed", timestamp=TS),
    ]


def test_aggregator_yields_the_complete_messages_in_order() -> None:
    agg = om.Aggregator()
    out = [m for msg in _stream() for m in agg.feed(msg)] + agg.finish()
    kinds = [type(m.payload).__name__ for m in out]
    assert kinds == ["TextPayload", "ToolCallPayload", "ToolCallOutputPayload", "RequestEndPayload"]
    assert out[0].payload.fidelity is not om.UNSET  # type: ignore[union-attr]  # the producer's message wins
    assert agg.mismatches == []


def test_aggregator_shows_live_text_and_interleaved_segments() -> None:
    agg = om.Aggregator()
    for msg in _stream()[:5]:
        agg.feed(msg)
    texts = {key[1]: seg.text for key, seg in agg.open.items()}
    assert texts == {"partial_text": "Hello", "partial_tool_call": '{"p":'}


def test_aggregator_assembles_when_the_complete_message_is_missing() -> None:
    agg = om.Aggregator()
    stream = [m for m in _stream() if not (om.is_complete_model(m) and m.payload.__class__.__name__ == "TextPayload")]
    out = [m for msg in stream for m in agg.feed(msg)] + agg.finish()
    assert om.encode(out[0]) == om.encode(om.assistant_text("Hello", timestamp=TS))


def test_aggregator_reports_mismatches_and_unclosed_segments() -> None:
    agg = om.Aggregator()
    agg.feed(om.partial_text("start", "ab", timestamp=TS))
    agg.feed(om.partial_text("stop", "", timestamp=TS))
    agg.feed(om.assistant_text("abc", timestamp=TS))
    assert agg.mismatches == [(((), "partial_text", None), "text")]
    agg.feed(om.partial_thinking("start", "hm", timestamp=TS))
    (left,) = agg.finish()
    assert left.payload.thinking == "hm" and left.payload.stop_reason == "aborted"  # type: ignore[union-attr]


def test_aggregator_keys_segments_by_origin() -> None:
    agg = om.Aggregator()
    agg.feed(om.partial_text("start", "main", timestamp=TS))
    agg.feed(om.with_origin(om.partial_text("start", "child", timestamp=TS), "kid"))
    assert sorted(seg.text for seg in agg.open.values()) == ["child", "main"]


def test_empty_verbatim_values_are_omitted_as_the_reference_builders_do() -> None:
    for empty in ({}, b"{}", "{ }"):
        assert b"fidelity" not in om.encode(om.assistant_text("x", fidelity=empty, timestamp=TS))
    assert b"output" not in om.encode(om.hook("stop", "h", output={}, timestamp=TS))
    # one rule in every verbatim field and every input form (schema/README.md)
    for empty in ({}, b"{}", " { } ", msgspec.Raw(b"{\n}")):
        assert b"output" not in om.encode(om.hook("stop", "h", output=empty, timestamp=TS))
        tools = om.tool_list_ready([om.tool_definition("x", "y", empty)], timestamp=TS)
        assert b"parameters" not in om.encode(tools)
