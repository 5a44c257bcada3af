"""The TypeScript way back (`fromStream`) is Python's (`from_stream`, the oracle), byte for byte:
every recorded event sequence (provider_streams.py's, test_providers_stream.py's fixtures and its
hostile events, every assistant turn of the restore corpus projected to each provider and streamed
back) and tool-call arguments built to break the JSON reader go through both; each encoded line is
the same, or the error is (its message, the event it names)."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import test_providers_stream as stream_tests
from conftest import ROOT, needs
from provider_streams import anthropic_events, chat_chunks, gemini_chunks, responses_events
from test_providers_stream import TS, USAGE, corpus, streams

import omnimessage as om
from omnimessage.providers import PROVIDERS, StreamError, from_stream, project

pytestmark = needs("node")

ENTRY = ROOT / "typescript" / "dist" / "index.js"
Case = dict[str, Any]  # provider, events, and from_stream's options (used_ids, session_before, max_bytes)


def case(provider: str, events: list[Any], **opts: Any) -> Case:
    return {"provider": provider, "events": events, **opts}


def python_side(c: Case) -> dict[str, Any]:
    before = c.get("session_before")
    try:
        out = from_stream(c["provider"], c["events"], timestamp=TS, used_ids=set(c.get("used_ids", [])),
                          session_before=None if before is None else om.token_counts(**before),
                          max_bytes=c.get("max_bytes", 64 * 1024 * 1024))
    except StreamError as exc:
        return {"error": str(exc)}
    return {"lines": [om.encode(m).decode("utf-8", "surrogatepass") for m in out]}


SCRIPT = """
const { fromStream, StreamError, encode } = await import(process.argv[1]);
const { readFileSync } = await import('node:fs');
const cases = JSON.parse(readFileSync(0, 'utf8'));
const out = cases.map((c) => {
  try {
    const opts = { timestamp: c.ts, usedIds: c.used_ids ?? [] };
    if (c.session_before) opts.sessionBefore = c.session_before;
    if (c.max_bytes !== undefined) opts.maxBytes = c.max_bytes;
    return { lines: fromStream(c.provider, c.events, opts).map((m) => encode(m)) };
  } catch (e) {
    if (e instanceof StreamError) return { error: e.message };
    return { crash: String(e && e.stack) };
  }
});
process.stdout.write(JSON.stringify(out));
"""


def typescript_side(cases: list[Case]) -> list[dict[str, Any]]:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))  # the deep-nesting cases, written for node
    try:
        data = json.dumps([{**c, "ts": TS} for c in cases])
    finally:
        sys.setrecursionlimit(limit)
    done = subprocess.run([shutil.which("node") or "node", "--input-type=module", "-e", SCRIPT, ENTRY.as_uri()],
                          input=data.encode(), capture_output=True, check=True, timeout=300)
    got: list[dict[str, Any]] = json.loads(done.stdout)
    return got


def assert_same(cases: list[Case]) -> None:
    got = typescript_side(cases)
    want = [python_side(c) for c in cases]
    assert len(got) == len(want)
    diffs = [(c["provider"], g, w) for c, g, w in zip(cases, got, want, strict=True) if g != w]
    assert diffs == [], diffs[:3]


def marked(test: Any) -> list[Any]:
    """The parameters of a parametrized test of test_providers_stream.py (its hostile events)."""
    return list(test.pytestmark[0].args[1])


def fixtures() -> list[Case]:
    """test_providers_stream.py's sequences, and its hostile events."""
    anthropic_message = {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "ab", "signature": "S"}, {"type": "text", "text": "hi"},
        {"type": "tool_use", "id": "t1", "name": "f", "input": {"a": 1}}]}
    chat_message = {"role": "assistant", "content": [{"type": "text", "text": "hello there, world"}],
                    "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"k":"v"}'}},
                                   {"id": "call_2", "type": "function", "function": {"name": "g", "arguments": "{}"}}],
                    "reasoning_content": "why"}
    cut = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}},
                                            {"type": "text", "text": "cut"}]}
    cut_events = anthropic_events(cut, USAGE)
    cut_events[-2]["delta"]["stop_reason"] = "max_tokens"
    long = {"role": "assistant", "content": [{"type": "text", "text": "x" * 100}]}
    items: list[dict[str, Any]] = [{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "plan"}],
              "encrypted_content": "ENC"},
             {"role": "assistant", "content": "doing it", "phase": "commentary"},
             {"type": "function_call", "call_id": "call_9", "name": "f", "arguments": '{"x":[1,2]}'}]
    content = {"role": "model", "parts": [
        {"text": "hmm", "thought": True, "thoughtSignature": "U0lH"},
        {"functionCall": {"name": "look", "args": {"q": "a"}}, "thoughtSignature": "U0lHMg=="},
        {"functionCall": {"name": "look", "args": {"q": "b"}}}]}
    deep = "[" * 100_000 + "]" * 100_000
    tool_start = {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "f"}}
    nested: dict[str, Any] = {}
    for _ in range(5000):
        nested = {"a": nested}
    out = [case("anthropic", anthropic_events(anthropic_message, USAGE)),
           case("openai-chat", chat_chunks(chat_message, USAGE),
                session_before={"cache_read": 1, "cache_write": 2, "output": 3, "total": 6}),
           case("anthropic", cut_events, used_ids=["t1"]),
           case("anthropic", anthropic_events(long, USAGE), max_bytes=50),
           case("anthropic", anthropic_events(long, USAGE), max_bytes=100),
           case("openai-responses", responses_events(items, USAGE)),
           case("gemini", gemini_chunks(content, USAGE)),
           case("anthropic", [tool_start, {"type": "content_block_delta", "index": 0,
                                           "delta": {"type": "input_json_delta", "partial_json": deep}},
                              {"type": "content_block_stop", "index": 0}]),
           case("gemini", [{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": nested}}]}}]}])]
    out += [case("anthropic", events) for events in marked(stream_tests.test_hostile_anthropic_events_are_errors)]
    out += [case(p, events) for p, events in marked(stream_tests.test_hostile_events_are_errors)]
    return out


def test_the_fixtures_and_hostile_events_are_pythons() -> None:
    cases = fixtures()
    assert sum(1 for c in cases if "error" in python_side(c)) >= 12  # the hostile ones do fail
    assert_same(cases)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_round_trip_corpus_is_pythons(tmp_path: Path, provider: str) -> None:
    """OmniMessage -> provider request -> each assistant turn streamed back (test_providers_stream.py's
    round trip on the restore corpus) -> OmniMessages, in both bindings."""
    cases = [case(provider, events) for _, ctx in corpus(tmp_path) for events in streams(provider, project(ctx, provider).body)]
    assert len(cases) > 10
    assert_same(cases)


# -- tool-call arguments built to break the JSON reader (Python's json.loads and its messages) ------

EDGES = ['{"b":1,"1":2}', '{"a":1,"a":2,"b":3}', '{"x":1.0,"y":1e21,"z":-0,"w":1E-7,"v":123456789012345678901234567890}',
         "[NaN]", '{"a":Infinity}', '{"a":-Infinity}', '{"a":1e400}', '{"a":-1e400}', '{"a":' + "9" * 400 + "}",
         '{"a":' + "1" * 5000 + "}", '{"a":-' + "1" * 4300 + "}", '{"a":"\\ud800"}', '{"a":"\\ud83d\\ude00 é \\u2028"}',
         '{"a":"\\u00e9\\n\\/\\b\\f"}', ' {"a" : [ 1 , 2 ] } ', '"just a string"', "42", "null", "[" * 50 + "]" * 50,
         "\ufeff{}", '{\n"a":\n}', '{"😀": x}', "{'a': 1}", '{"a":1,}', "[1,]", '"\\x"', '"\\u12"', '"\\ud800\\u12zz"',
         '"a\x01"', "[1 2]", '{"a" 1}', "{1}", "1 x", "  ", "-", "-x", "nul", "[", "{", '{"a"', '"abc', "1.", "1e",
         '"\\', "[1,", '{"a":1 ', '{"a":1,"', '"\\u"', '"\\u123"', '"\\ud800\\u"', '"\\ud800\\uzz00x"', '"\\ud800\\ud"',
         '"\\ud800\\udc00"', '"\\ud800\\u0041"', '"\\u1234', "tru", "fals", "-Infinit", "1e+", "01", "-01", "1.5e-3x",
         "\n\n  [1,\n 2 x"]
ALPHABET = list('{}[]",:\\ u0123456789abcdefeE.-+ntrlsNIy\n\t\x01😀é')


def fuzzed(rng: random.Random) -> list[str]:
    bases = ['{"k":"v","n":[1,2.5,-3e2,{"x":null}],"t":true,"f":false}', '{"s":"a\\"b\\\\c\\u00e9"}', "[[], {}, []]"]
    out = []
    for _ in range(400):
        chars = list(rng.choice(bases))
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(chars))
            op = rng.randint(0, 2)
            if op == 0:
                chars.insert(at, rng.choice(ALPHABET))
            elif chars:
                del chars[min(at, len(chars) - 1)]
                if op == 2:
                    chars.insert(at, rng.choice(ALPHABET))
        out.append("".join(chars))
    return out


def tool_events(provider: str, raw: str) -> list[dict[str, Any]]:
    """One streamed tool call whose arguments are `raw`, in `provider`'s events (plain dicts)."""
    parts = [raw[i:i + 5] for i in range(0, len(raw), 5)]
    if provider == "anthropic":
        return ([{"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "f"}}]
                + [{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": p}}
                   for p in parts] + [{"type": "content_block_stop", "index": 0}])
    if provider == "openai-chat":
        return ([{"choices": [{"delta": {"tool_calls": [{"id": "c", "function": {"name": "f", "arguments": ""}}]}}]}]
                + [{"choices": [{"delta": {"tool_calls": [{"function": {"arguments": p}}]}}]} for p in parts]
                + [{"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}])
    return ([{"type": "response.output_item.added", "item": {"type": "function_call", "call_id": "c", "name": "f"}}]
            + [{"type": "response.function_call_arguments.delta", "delta": p} for p in parts]
            + [{"type": "response.function_call_arguments.done"}])


def test_tool_call_arguments_read_as_pythons() -> None:
    raws = EDGES + fuzzed(random.Random(11))
    cases = [case(p, tool_events(p, raw)) for raw in raws for p in ("anthropic", "openai-chat", "openai-responses")]
    results = [python_side(c) for c in cases]
    assert sum(1 for r in results if "error" in r) > 300 and sum(1 for r in results if "lines" in r) > 100
    assert_same(cases)


# -- event shapes the SDK recordings do not reach ----------------------------------------------------

def shapes() -> list[Case]:
    a_usage = {"type": "message_delta", "delta": {"stop_reason": "refusal"},
               "usage": {"input_tokens": 3, "cache_creation_input_tokens": 2, "cache_read_input_tokens": 4, "output_tokens": 9,
                         "output_tokens_details": {"thinking_tokens": 5}}}
    anthropic: list[list[Any]] = [
        [{"type": "message_start", "message": {"usage": None}}, {"type": "ping"},
         {"type": "content_block_start", "index": 0, "content_block": {"type": "redacted_thinking", "data": "RD"}},
         {"type": "content_block_delta", "index": 1, "delta": {"type": "thinking_delta", "thinking": "t"}},
         {"type": "content_block_delta", "index": 1, "delta": {"type": "signature_delta", "signature": "s1"}},
         {"type": "content_block_delta", "index": 2, "delta": {"type": "text_delta", "text": "x"}}, a_usage,
         {"type": "message_stop"}],
        [{"type": "message_start", "message": {"usage": {"input_tokens": 1, "cache_read_input_tokens": 7}}},
         {"type": "message_delta", "delta": {"stop_reason": None}, "usage": {"output_tokens": 2}}],
        [{"type": "content_block_delta", "delta": {"type": "input_json_delta", "partial_json": '{"a":1}'}}],
        [{"type": "message_delta", "delta": {}, "usage": {"input_tokens": True, "output_tokens": 1}}],
        [{"type": 5}], [{"type": None}], [{"type": ["x"]}],
    ]
    chat: list[list[Any]] = [
        [{"choices": [{"delta": {"reasoning_content": "r", "reasoning": "r"}}]},
         {"choices": [{"delta": {"reasoning": "q"}}]}, {"choices": [{"delta": {"content": "c"}}]},
         {"choices": [{"delta": {"tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}}]},
         {"choices": [{"delta": {"tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}}]},
         {"choices": [{"delta": {}, "finish_reason": "content_filter"}]},
         {"choices": [], "usage": {"prompt_tokens": 8, "completion_tokens": 3, "prompt_tokens_details": None}}],
        [{"choices": [{"delta": {"content": "c"}, "finish_reason": "weird"}]}, {"choices": [], "usage": {}}],
        [{"choices": [{"delta": {"content": "c"}, "finish_reason": "length"}]}],
        [{"choices": [{"delta": {"content": "c"}, "finish_reason": "content_filter"}]}, {"choices": [], "usage": {}}],
    ]
    responses: list[list[Any]] = [
        [{"type": "response.output_item.added", "item": {"type": "message", "phase": "commentary"}},
         {"type": "response.output_text.delta", "delta": "a"},
         {"type": "response.output_item.added", "item": {"type": "message", "phase": "final_answer"}},
         {"type": "response.output_text.delta", "delta": "b"}, {"type": "response.reasoning_text.delta", "delta": "r"},
         {"type": "response.output_item.done", "item": {"type": "reasoning", "id": "rs", "content": [], "format": "x",
                                                        "signature": "sg"}},
         {"type": "response.in_progress"}, {"type": "response.incomplete", "response": {"status": "incomplete"}}],
        [{"type": "response.output_text.delta", "delta": "a"}, {"type": "response.completed", "response": {}}],
        [{"type": "response.function_call_arguments.delta", "delta": "{}"}, {"type": "response.function_call_arguments.done"}],
    ]
    gemini: list[list[Any]] = [
        [{"candidates": [{"content": {"parts": [
            {"text": "a", "thought": True, "thought_signature": "QQ=="}, {"text": "b", "thought": True},
            {"inline_data": {"mime_type": "image/png", "data": "AA=="}}, {"inlineData": {"mimeType": "x", "data": "y"}, "thought": True},
            {"text": "t", "thoughtSignature": "Qg=="}, {"text": "u"},
            {"function_call": {"id": "i1", "name": "f", "args": [1]}}, {}]},
            "finish_reason": "SAFETY"}],
          "usage_metadata": {"prompt_token_count": 9, "thoughts_token_count": 2, "candidates_token_count": 1}}],
        [{"candidates": [{"content": {"parts": [{"text": "x"}]}, "finishReason": "MAX_TOKENS"}],
          "usageMetadata": {"promptTokenCount": True}}],
        [{"candidates": []}, {}, {"candidates": [{"content": None}]}],
        [{"candidates": [{"content": {"parts": [{"text": "a", "thought": True, "thoughtSignature": {"x\ny": "\n"}}]}}]}],
        [{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {"a": 1e300, "b": -0.0, "c": [True]}}}]}}]}],
    ]
    responses.append([{"type": "response.output_item.done", "item": {
        "type": "reasoning", "id": "r", "format": {"a\nb": [1, "\u2028", {"\ud800": None}]}, "signature": 1e300}}])
    return ([case("anthropic", e) for e in anthropic] + [case("openai-chat", e) for e in chat]
            + [case("openai-responses", e) for e in responses] + [case("gemini", e) for e in gemini])


def test_event_shapes_read_as_pythons() -> None:
    assert_same(shapes())


# -- random streams: the translator's segment rules (fidelity changes, phases, signatures, ids) -----

def random_gemini(rng: random.Random) -> list[Any]:
    def part() -> dict[str, Any]:
        kind = rng.choice(["text", "thought", "call", "inline"])
        p: dict[str, Any]
        if kind == "call":
            p = {"functionCall": {"name": rng.choice(["f", "g"]), "args": {"k": rng.randint(0, 2)}}}
            if rng.random() < 0.5:
                p["functionCall"]["id"] = rng.choice(["c1", "c2", "f"])
        elif kind == "inline":
            p = {"inlineData": {"mimeType": "image/png", "data": "AA=="}}
        else:
            p = {"text": rng.choice(["", "a", "bé", "😀"])}
            if kind == "thought":
                p["thought"] = True
        if rng.random() < 0.3:
            p["thoughtSignature"] = rng.choice(["U0lH", "QQ==", ""])
        return p
    chunks: list[Any] = []
    for _ in range(rng.randint(1, 8)):
        candidate: dict[str, Any] = {"content": {"parts": [part() for _ in range(rng.randint(0, 3))]}}
        if rng.random() < 0.15:
            candidate["finishReason"] = rng.choice(["STOP", "MAX_TOKENS", "SAFETY"])
        chunk: dict[str, Any] = {"candidates": [candidate]}
        if rng.random() < 0.4:
            chunk["usageMetadata"] = {"promptTokenCount": rng.randint(0, 9), "candidatesTokenCount": rng.randint(0, 9)}
        chunks.append(chunk)
    return chunks


def random_responses(rng: random.Random) -> list[Any]:
    events: list[Any] = []
    for _ in range(rng.randint(1, 10)):
        kind = rng.randint(0, 5)
        if kind == 0:
            events.append({"type": "response.output_item.added",
                           "item": {"type": "message", "phase": rng.choice(["commentary", "final_answer", None])}})
        elif kind == 1:
            events.append({"type": "response.output_text.delta", "delta": rng.choice(["x", "", "yé"])})
        elif kind == 2:
            events.append({"type": rng.choice(["response.reasoning_text.delta", "response.reasoning_summary_text.delta"]),
                           "delta": rng.choice(["r", ""])})
        elif kind == 3:
            item: dict[str, Any] = {"type": "reasoning", "id": rng.choice(["rs_1", "rs_2"]),
                                    "summary": rng.choice([[], [{"type": "summary_text", "text": "s"}]])}
            if rng.random() < 0.5:
                item["encrypted_content"] = "E"
            events.append({"type": "response.output_item.done", "item": item})
        elif kind == 4:
            events += [{"type": "response.output_item.added",
                        "item": {"type": "function_call", "name": "f", "call_id": rng.choice(["c1", "c2"])}},
                       {"type": "response.function_call_arguments.delta", "delta": '{"a":1}'},
                       {"type": "response.function_call_arguments.done"}]
        else:
            events.append({"type": "response.function_call_arguments.delta", "delta": "{}"})
    if rng.random() < 0.8:
        events.append({"type": rng.choice(["response.completed", "response.incomplete"]),
                       "response": {"status": rng.choice(["completed", "incomplete", "failed"]),
                                    "usage": {"input_tokens": 5, "output_tokens": 3}}})
    return events


def test_random_streams_read_as_pythons() -> None:
    rng = random.Random(5)
    cases = [case("gemini", random_gemini(rng), used_ids=rng.choice([[], ["f", "c1"]])) for _ in range(300)]
    cases += [case("openai-responses", random_responses(rng), used_ids=rng.choice([[], ["c1"]]),
                   session_before={"cache_read": 1, "cache_write": 1, "output": 1, "total": 3}) for _ in range(300)]
    assert_same(cases)


def test_integer_like_keys_are_the_one_javascript_difference() -> None:
    """docs/model.md: an object JavaScript parsed from JSON lists integer-like keys first, so a Gemini
    call's `args` (an object of the event, not a string the reader parses) come out in that order;
    streamed arguments (a string) keep Python's order in both."""
    gemini = case("gemini", [{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {"b": 1, "1": 2}}}]}}]}])
    streamed = case("anthropic", tool_events("anthropic", '{"b":1,"1":2}'))
    (got_gemini, got_streamed), want = typescript_side([gemini, streamed]), [python_side(gemini), python_side(streamed)]
    assert got_streamed == want[1]
    call = [json.loads(line)["payload"]["arguments"] for line in got_gemini["lines"] if '"type":"tool_call"' in line]
    assert call == ['{"1":2,"b":1}']
    assert '{\\"b\\":1,\\"1\\":2}' in want[0]["lines"][0]


def test_nesting_past_900_is_refused() -> None:
    """docs/model.md: arguments 900 deep are read as Python reads them; 901 deep are refused (Python's
    own limit, its recursion limit less its stack, is about 990)."""
    at, past = (case("anthropic", tool_events("anthropic", "[" * d + "]" * d)) for d in (900, 901))
    got = typescript_side([at, past])
    assert got[0] == python_side(at)
    assert got[1] == {"error": f"event {len(past['events']) - 1}: a tool call's arguments are nested too deeply"}


def _counts(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where the integers under a usage object are (the token counts an event may carry)."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _counts(v, (*path, k))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _counts(v, (*path, i))]
    usage = any(isinstance(k, str) and "usage" in k.lower() for k in path)
    return [path] if usage and isinstance(node, int) and not isinstance(node, bool) else []


def test_token_counts_that_are_not_integers_read_as_pythons() -> None:
    """A count that is a string, a float, a boolean, a list or null is no count, in both bindings
    (Python raised TypeError on a string `cache_read_input_tokens` or `cached_tokens` before)."""
    cases = []
    for c in fixtures()[:7]:
        for path in _counts(c["events"]):
            for bad in ["7", 1.5, True, None, [1], {"n": 1}]:
                events = copy.deepcopy(c["events"])
                node = events
                for k in path[:-1]:
                    node = node[k]
                node[path[-1]] = bad
                cases.append({**c, "events": events})
    assert len(cases) > 100
    assert_same(cases)  # python_side lets anything but a StreamError through: a crash is red
