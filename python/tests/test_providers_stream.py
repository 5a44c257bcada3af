"""`omnimessage.providers.from_stream`: a provider's streaming events back to OmniMessages, and the
round trip context -> provider request -> the provider streaming that content back -> OmniMessages.

The expected sequences are worked out from the reference's translation: AgentHub's clients turn
the SDK events into neutral events (`ant_messages/client.py` `transform_model_output_to_uni_event`
and its stream loop; `openai_chat/client.ts` likewise), PenguinHarness's `EventTranslator`
(`packages/core/src/llm/generative-model.ts`) turns those into partials, complete messages and
`token_usage`. Events are built and validated with the SDKs' own event models (provider_streams.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from provider_streams import anthropic_events, chat_chunks
from test_restore import FILES, PRODUCERS, ROOTS, file_root

import omnimessage as om
from omnimessage.providers import StreamError, from_stream, project

TS = "2026-09-14T03:00:00.000Z"
USAGE = {"input": 10, "cached": 5, "output": 7}


def lines(msgs: tuple[om.Message, ...]) -> list[dict[str, Any]]:
    return [json.loads(om.encode(m))["payload"] for m in msgs]


def test_anthropic_stream_to_omnimessages() -> None:
    message = {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "ab", "signature": "S"},
        {"type": "text", "text": "hi"},
        {"type": "tool_use", "id": "t1", "name": "f", "input": {"a": 1}}]}
    out = lines(from_stream("anthropic", anthropic_events(message, USAGE), timestamp=TS))
    assert out == [
        {"type": "partial_thinking", "role": "assistant", "event_type": "start", "thinking": ""},
        {"type": "partial_thinking", "role": "assistant", "event_type": "delta", "thinking": "ab"},
        # the signature_delta ends the block: its fidelity; the text's first delta flushes it
        {"type": "partial_thinking", "role": "assistant", "event_type": "stop", "thinking": "", "stop_reason": "completed"},
        {"type": "thinking", "role": "assistant", "thinking": "ab", "stop_reason": "completed",
         "fidelity": {"signature": "S"}},
        {"type": "partial_text", "role": "assistant", "event_type": "start", "text": ""},
        {"type": "partial_text", "role": "assistant", "event_type": "delta", "text": "hi"},
        {"type": "partial_text", "role": "assistant", "event_type": "stop", "text": "", "stop_reason": "completed"},
        {"type": "text", "role": "assistant", "text": "hi", "stop_reason": "completed"},
        {"type": "partial_tool_call", "role": "assistant", "event_type": "start", "name": "f", "arguments": "",
         "tool_call_id": "t1"},
        {"type": "partial_tool_call", "role": "assistant", "event_type": "delta", "name": "", "arguments": '{"a":1}',
         "tool_call_id": "t1"},
        {"type": "partial_tool_call", "role": "assistant", "event_type": "stop", "name": "", "arguments": "",
         "tool_call_id": "t1", "stop_reason": "completed"},
        {"type": "tool_call", "role": "assistant", "name": "f", "arguments": '{"a":1}', "tool_call_id": "t1",
         "stop_reason": "completed"},
        # usage: cache_read the cached input, cache_write the rest (input + cache creation), output
        {"type": "token_usage", "session": {"cache_read": 5, "cache_write": 10, "output": 7, "total": 22},
         "request": {"cache_read": 5, "cache_write": 10, "output": 7, "total": 22}},
    ]


def test_chat_stream_to_omnimessages() -> None:
    message = {"role": "assistant", "content": [{"type": "text", "text": "hello there, world"}],
               "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"k":"v"}'}},
                              {"id": "call_2", "type": "function", "function": {"name": "g", "arguments": "{}"}}],
               "reasoning_content": "why"}
    before = om.token_counts(cache_read=1, cache_write=2, output=3, total=6)
    out = lines(from_stream("openai-chat", chat_chunks(message, USAGE), timestamp=TS, session_before=before))
    complete = [p for p in out if not p["type"].startswith("partial_")]
    assert complete == [
        {"type": "thinking", "role": "assistant", "thinking": "why", "stop_reason": "completed",
         "fidelity": {"reasoning_field": "reasoning_content"}},
        {"type": "text", "role": "assistant", "text": "hello there, world", "stop_reason": "completed"},
        # the first call completes when the second begins, the second when the stream stops
        {"type": "tool_call", "role": "assistant", "name": "f", "arguments": '{"k":"v"}', "tool_call_id": "call_1",
         "stop_reason": "completed"},
        {"type": "tool_call", "role": "assistant", "name": "g", "arguments": "{}", "tool_call_id": "call_2",
         "stop_reason": "completed"},
        {"type": "token_usage", "session": {"cache_read": 6, "cache_write": 12, "output": 10, "total": 28},
         "request": {"cache_read": 5, "cache_write": 10, "output": 7, "total": 22}},
    ]
    deltas = [p["text"] for p in out if p["type"] == "partial_text" and p["event_type"] == "delta"]
    assert "".join(deltas) == "hello there, world" and len(deltas) == 3  # streamed in pieces


def test_length_finish_is_fatal_and_ids_repeat_with_suffix() -> None:
    message = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}},
                                                {"type": "text", "text": "cut"}]}
    events = anthropic_events(message, USAGE)
    events[-2]["delta"]["stop_reason"] = "max_tokens"
    out = lines(from_stream("anthropic", events, timestamp=TS, used_ids={"t1"}))
    call = next(p for p in out if p["type"] == "tool_call")
    assert call["tool_call_id"] == "t1#2"  # the session already holds t1
    text = next(p for p in out if p["type"] == "text")
    assert text["stop_reason"] == "fatal"  # the last segment ends with the stream's stop reason


@pytest.mark.parametrize("events", [[1], [{"type": "message_start", "message": []}], [{"type": "bogus"}],
                                    [{"type": "content_block_start", "index": 0,
                                      "content_block": {"type": "tool_use", "id": "t", "name": "f"}},
                                     {"type": "content_block_delta", "index": 0,
                                      "delta": {"type": "input_json_delta", "partial_json": "{nope"}},
                                     {"type": "content_block_stop", "index": 0}]])
def test_hostile_anthropic_events_are_errors(events: list[object]) -> None:
    with pytest.raises(StreamError, match=r"^event \d+: "):
        from_stream("anthropic", events)


def test_open_segments_are_capped() -> None:
    message = {"role": "assistant", "content": [{"type": "text", "text": "x" * 100}]}
    with pytest.raises(StreamError, match="max_bytes"):
        from_stream("anthropic", anthropic_events(message, USAGE), max_bytes=50)
    assert from_stream("anthropic", anthropic_events(message, USAGE), max_bytes=100)


# -- the round trip on the corpus ------------------------------------------------------------------

DROPPED = {"thinking-unsigned", "thinking-empty", "inline-data-not-supported", "image-url-not-inlined", "image-url-malformed",
           "message-type-not-supported", "not-a-model-message", "not-json"}
KIND = {"thinking": 0, "text": 1, "tool_call": 2}


def contexts() -> list[tuple[str, str | None, str]]:
    return [(r[0], r[1], "root") for r in ROOTS] + [(f[0], None, "file") for f in FILES]


def assistant_runs(ctx: om.Restored) -> list[list[int]]:
    runs: list[list[int]] = []
    prev = None
    for i, m in enumerate(ctx.messages):
        role = json.loads(m.raw)["payload"].get("role")
        if role == "assistant":
            if prev != "assistant":
                runs.append([])
            runs[-1].append(i)
        prev = role
    return runs


@pytest.mark.parametrize("provider", ["anthropic", "openai-chat"])
def test_round_trip_on_the_corpus(tmp_path: Path, provider: str) -> None:
    byte_equal = compared = 0
    for name, sid, kind in contexts():
        if kind == "root":
            ctx = om.restore(PRODUCERS / name, sid or "")
        else:
            root, fsid = file_root(tmp_path / name, name)
            ctx = om.restore(root, fsid)
        p = project(ctx, provider)
        lost: dict[int, set[str]] = {}
        for loss in p.losses:
            lost.setdefault(loss.message, set()).add(loss.reason)
        sent = [m for m in p.body["messages"] if m["role"] == "assistant"]
        runs = [[i for i in run if not lost.get(i, set()) & DROPPED] for run in assistant_runs(ctx)]
        runs = [run for run in runs if run]
        assert len(sent) == len(runs), name
        for message, run in zip(sent, runs, strict=True):
            events = anthropic_events(message, USAGE) if provider == "anthropic" else chat_chunks(message, USAGE)
            back = [m for m in from_stream(provider, events, timestamp=TS)
                    if om.is_complete_model(m)]
            if provider == "openai-chat":  # one reasoning field, one content, then the calls
                kinds = [json.loads(ctx.messages[i].raw)["payload"]["type"] for i in run]
                if any(kinds.count(k) > 1 for k in ("thinking", "text")):
                    continue  # joined into one field: the boundaries are a loss (thinking-merged) or the API's
                run = sorted(run, key=lambda i: KIND[json.loads(ctx.messages[i].raw)["payload"]["type"]])
            assert len(back) == len(run), (name, message)
            for i, got in zip(run, back, strict=True):
                orig = ctx.messages[i]
                compared += 1
                ts = json.loads(orig.raw)["timestamp"]
                again = om.encode(msgspec.structs.replace(got, timestamp=ts))
                if i not in lost:
                    assert again == orig.raw, (name, i)  # byte for byte, fidelity included
                    byte_equal += 1
                else:
                    assert again != orig.raw  # what was reported lost is really not carried
    print(f"{provider}: {byte_equal} of {compared} messages byte for byte")
    assert compared > 10 and byte_equal > 5, (compared, byte_equal)
