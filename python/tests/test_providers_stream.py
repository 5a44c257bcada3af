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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from provider_streams import anthropic_events, assistant_side, chat_chunks, gemini_chunks, responses_events
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

DROPPED = {"thinking-unsigned", "thinking-empty", "reasoning-without-id", "inline-data-not-supported", "image-url-not-inlined", "image-url-malformed",
           "message-type-not-supported", "not-a-model-message", "not-json"}
KIND = {"thinking": 0, "text": 1, "tool_call": 2}


def contexts() -> list[tuple[str, str | None, str]]:
    return [(r[0], r[1], "root") for r in ROOTS] + [(f[0], None, "file") for f in FILES]


def corpus(tmp_path: Path) -> Iterator[tuple[str, om.Restored]]:
    """Every context of the restore corpus: the trace roots, and the single files put in a root."""
    for name, sid, kind in contexts():
        if kind == "root":
            yield name, om.restore(PRODUCERS / name, sid or "")
        else:
            root, fsid = file_root(tmp_path / name, name)
            yield name, om.restore(root, fsid)


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


def responses(body: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The body's assistant side as the responses that wrote it: each run of model-written items."""
    runs: list[list[dict[str, Any]]] = []
    prev = False
    for item in body["input"]:
        mine = assistant_side(item)
        if mine:
            if not prev:
                runs.append([])
            runs[-1].append(item)
        prev = mine
    return runs


def streams(provider: str, body: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """For each assistant turn the body holds, the events of the provider streaming it back."""
    if provider == "anthropic":
        return [anthropic_events(m, USAGE) for m in body["messages"] if m["role"] == "assistant"]
    if provider == "openai-chat":
        return [chat_chunks(m, USAGE) for m in body["messages"] if m["role"] == "assistant"]
    if provider == "openai-responses":
        return [responses_events(run, USAGE) for run in responses(body)]
    return [gemini_chunks(c, USAGE) for c in body["contents"] if c["role"] == "model"]


@pytest.mark.parametrize("provider", ["anthropic", "openai-chat", "openai-responses", "gemini"])
def test_round_trip_on_the_corpus(tmp_path: Path, provider: str) -> None:
    """Context -> request body -> each assistant turn streamed back as the provider streams it ->
    OmniMessages: every message with no reported loss comes back byte for byte (timestamp aside:
    no provider carries one), every message with a loss comes back different."""
    byte_equal = compared = 0
    for name, ctx in corpus(tmp_path):
        p = project(ctx, provider)
        lost: dict[int, set[str]] = {}
        for loss in p.losses:
            lost.setdefault(loss.message, set()).add(loss.reason)

        kinds = [str(json.loads(m.raw)["payload"]["type"]) for m in ctx.messages]

        # what a response cannot hold: what was not sent, and inline output (the translator skips it)
        runs = [[i for i in run if not lost.get(i, set()) & DROPPED and not kinds[i].startswith("inline_")]
                for run in assistant_runs(ctx)]
        runs = [run for run in runs if run]
        sent = streams(provider, p.body)
        assert len(sent) == len(runs), name
        for events, run in zip(sent, runs, strict=True):
            back = [m for m in from_stream(provider, events, timestamp=TS) if om.is_complete_model(m)]
            if provider == "openai-chat":  # one reasoning field, one content, then the calls
                here = [kinds[i] for i in run]
                if any(here.count(k) > 1 for k in ("thinking", "text")):
                    continue  # joined into one field: the boundaries are a loss (thinking-merged) or the API's
                run = sorted(run, key=lambda i: KIND[kinds[i]])
            assert len(back) == len(run), (name, events)
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


def completes(out: tuple[om.Message, ...]) -> list[dict[str, Any]]:
    return [p for p in lines(out) if not p["type"].startswith("partial_")]


def test_responses_stream_to_omnimessages() -> None:
    items = [{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "plan"}],
              "encrypted_content": "ENC"},
             {"role": "assistant", "content": "doing it", "phase": "commentary"},
             {"type": "function_call", "call_id": "call_9", "name": "f", "arguments": '{"x":[1,2]}'}]
    out = completes(from_stream("openai-responses", responses_events(items, USAGE), timestamp=TS))
    assert out == [
        # the summary channel, the id and the encrypted content: what a replay must send back
        {"type": "thinking", "role": "assistant", "thinking": "plan", "stop_reason": "completed",
         "fidelity": {"id": "rs_1", "channel": "summary", "encrypted_content": "ENC"}},
        {"type": "text", "role": "assistant", "text": "doing it", "stop_reason": "completed",
         "fidelity": {"phase": "commentary"}},
        {"type": "tool_call", "role": "assistant", "name": "f", "arguments": '{"x":[1,2]}', "tool_call_id": "call_9",
         "stop_reason": "completed"},
        {"type": "token_usage", "session": {"cache_read": 5, "cache_write": 10, "output": 7, "total": 22},
         "request": {"cache_read": 5, "cache_write": 10, "output": 7, "total": 22}},
    ]
    # and the way there again: the same items
    ctx = [om.encode(msgspec.structs.replace(m, timestamp=TS)) for m in
           from_stream("openai-responses", responses_events(items, USAGE), timestamp=TS) if om.is_complete_model(m)]
    assert project(ctx, "openai-responses").body["input"][0] == {
        "type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "plan"}],
        "encrypted_content": "ENC"}


def test_gemini_stream_to_omnimessages() -> None:
    content = {"role": "model", "parts": [
        {"text": "hmm", "thought": True, "thoughtSignature": "U0lH"},
        {"functionCall": {"name": "look", "args": {"q": "a"}}, "thoughtSignature": "U0lHMg=="},
        {"functionCall": {"name": "look", "args": {"q": "b"}}}]}
    out = completes(from_stream("gemini", gemini_chunks(content, USAGE), timestamp=TS))
    assert out == [
        {"type": "thinking", "role": "assistant", "thinking": "hmm", "stop_reason": "completed",
         "fidelity": {"signature": "U0lH"}},
        # no id: the name is the id, and a second call under it gets the #2 suffix
        {"type": "tool_call", "role": "assistant", "name": "look", "arguments": '{"q":"a"}', "tool_call_id": "look",
         "stop_reason": "completed", "fidelity": {"signature": "U0lHMg=="}},
        {"type": "tool_call", "role": "assistant", "name": "look", "arguments": '{"q":"b"}',
         "tool_call_id": "look#2", "stop_reason": "completed"},
        # Gemini reports a cumulative snapshot per chunk: the last one, never their sum
        {"type": "token_usage", "session": {"cache_read": 5, "cache_write": 10, "output": 7, "total": 22},
         "request": {"cache_read": 5, "cache_write": 10, "output": 7, "total": 22}},
    ]


@pytest.mark.parametrize(("provider", "events"), [
    ("openai-chat", [{"choices": [1]}]), ("openai-chat", [{"choices": [{"delta": {"tool_calls": ["x"]}}]}]),
    ("openai-responses", [{"type": "response.output_item.added", "item": "x"}]),
    ("openai-responses", [{"type": "response.completed", "response": {"usage": {"input_tokens_details": 3}}}]),
    ("gemini", [{"candidates": [{"content": {"parts": [7]}}]}]), ("gemini", ["chunk"])])
def test_hostile_events_are_errors(provider: str, events: list[object]) -> None:
    with pytest.raises(StreamError, match=r"^event 0: "):
        from_stream(provider, events)


def test_deeply_nested_values_are_errors_not_crashes() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    events = [{"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "f"}},
              {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": deep}},
              {"type": "content_block_stop", "index": 0}]
    with pytest.raises(StreamError, match="event 2: "):
        from_stream("anthropic", events)
    nested: dict[str, Any] = {}
    for _ in range(5000):
        nested = {"a": nested}
    chunk = {"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": nested}}]}}]}
    with pytest.raises(StreamError, match=r"event 0: .*nested too deeply"):
        from_stream("gemini", [chunk])
    line = om.encode(om.tool_call("f", "{}", "c", timestamp=TS)).replace(b'"{}"', json.dumps(deep).encode())
    p = project([line], "anthropic")
    assert [(x.message, x.reason) for x in p.losses] == [(0, "arguments-not-json")]
