"""Streaming events shaped as each provider streams a response back, built from a projected
assistant message (the content the provider would be answering with), and proved against the
official SDKs' event models: every event is validated by the SDK's own type and handed on as the
SDK's `model_dump()` of it, the plain dicts `omnimessage.providers.from_stream` reads.

The shapes follow the providers' streaming references (Anthropic `RawMessageStreamEvent`: message
and content-block start, delta, stop; OpenAI `ChatCompletionChunk`: deltas of one choice, the tool
call's first fragment with its id and name, a finish chunk, then a usage chunk with no choices).
Texts are cut into pieces of `PIECE` characters, as a provider streams them.
"""

from __future__ import annotations

import json
from typing import Any

PIECE = 7


def pieces(text: str) -> list[str]:
    return [text[i:i + PIECE] for i in range(0, len(text), PIECE)] or [""]


def compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- Anthropic Messages ----------------------------------------------------------------------------

def anthropic_events(message: dict[str, Any], usage: dict[str, int]) -> list[dict[str, Any]]:
    """The stream of one assistant message (`{"role": "assistant", "content": [blocks]}`), its
    events validated by `anthropic.types.RawMessageStreamEvent`."""
    from anthropic.types import RawMessageStreamEvent
    from pydantic import TypeAdapter

    blocks = message["content"]
    raw: list[dict[str, Any]] = [{"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "content": [], "model": "claude-opus-5",
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": usage["input"], "output_tokens": 1,
                  "cache_read_input_tokens": usage["cached"], "cache_creation_input_tokens": 0}}}]
    for i, block in enumerate(blocks):
        kind = block["type"]
        if kind == "thinking":
            raw.append({"type": "content_block_start", "index": i,
                        "content_block": {"type": "thinking", "thinking": "", "signature": ""}})
            raw += [{"type": "content_block_delta", "index": i, "delta": {"type": "thinking_delta", "thinking": p}}
                    for p in pieces(block["thinking"])]
            raw.append({"type": "content_block_delta", "index": i,
                        "delta": {"type": "signature_delta", "signature": block["signature"]}})
        elif kind == "redacted_thinking":
            raw.append({"type": "content_block_start", "index": i, "content_block": dict(block)})
        elif kind == "text":
            raw.append({"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}})
            raw += [{"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": p}}
                    for p in pieces(block["text"])]
        elif kind == "tool_use":
            raw.append({"type": "content_block_start", "index": i, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}})
            raw += [{"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": p}}
                    for p in pieces(compact(block["input"]))]
        else:
            raise AssertionError(f"an assistant block the Messages API does not stream: {kind}")
        raw.append({"type": "content_block_stop", "index": i})
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    raw.append({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": usage["output"]}})
    raw.append({"type": "message_stop"})
    adapter: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)
    return [adapter.validate_python(e).model_dump(mode="json") for e in raw]


# -- OpenAI Chat Completions -----------------------------------------------------------------------

def _chunk(delta: dict[str, Any] | None, finish: str | None = None, usage: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    out: dict[str, Any] = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1789000000,
                           "model": "gpt-5.5", "choices": choices}
    if usage is not None:
        out["usage"] = usage
    return out


def chat_chunks(message: dict[str, Any], usage: dict[str, int]) -> list[dict[str, Any]]:
    """The chunks of one assistant message (`role`, `content` parts, `tool_calls`, the reasoning
    fields), each validated by `openai.types.chat.ChatCompletionChunk`."""
    from openai.types.chat import ChatCompletionChunk

    raw: list[dict[str, Any]] = []
    fields = [f for f in ("reasoning_content", "reasoning") if f in message]  # both: each chunk carries both
    if fields:
        raw += [_chunk({"role": "assistant", **{f: p for f in fields}}) for p in pieces(message[fields[0]])]
    text = "".join(part["text"] for part in message.get("content", []))
    if text:
        raw += [_chunk({"content": p}) for p in pieces(text)]
    for k, call in enumerate(message.get("tool_calls", [])):
        fn = call["function"]
        raw.append(_chunk({"tool_calls": [{"index": k, "id": call["id"], "type": "function",
                                           "function": {"name": fn["name"], "arguments": ""}}]}))
        raw += [_chunk({"tool_calls": [{"index": k, "function": {"arguments": p}}]}) for p in pieces(fn["arguments"])]
    raw.append(_chunk({}, "tool_calls" if message.get("tool_calls") else "stop"))
    raw.append(_chunk(None, usage={"prompt_tokens": usage["input"] + usage["cached"],
                                   "completion_tokens": usage["output"],
                                   "total_tokens": usage["input"] + usage["cached"] + usage["output"],
                                   "prompt_tokens_details": {"cached_tokens": usage["cached"]},
                                   "completion_tokens_details": {"reasoning_tokens": 0}}))
    # the SDK's model keeps the reasoning fields it does not declare (extra="allow"): model_dump has them
    return [ChatCompletionChunk.model_validate(c).model_dump(mode="json") for c in raw]


# -- OpenAI Responses ------------------------------------------------------------------------------

def assistant_side(item: dict[str, Any]) -> bool:
    """A Responses input item the model wrote (what a response streams back)."""
    return item.get("type") in ("reasoning", "function_call") or item.get("role") == "assistant"


def responses_events(items: list[dict[str, Any]], usage: dict[str, int]) -> list[dict[str, Any]]:
    """The events of one response whose output is `items` (reasoning, assistant messages, function
    calls), each validated by `openai.types.responses.ResponseStreamEvent`."""
    from openai.types.responses import ResponseStreamEvent
    from pydantic import TypeAdapter

    raw: list[dict[str, Any]] = []
    seq = iter(range(1, 1_000_000))

    def add(event: dict[str, Any]) -> None:
        raw.append({**event, "sequence_number": next(seq)})

    for i, item in enumerate(items):
        if item.get("type") == "reasoning":
            add({"type": "response.output_item.added", "output_index": i,
                 "item": {"type": "reasoning", "id": item["id"], "summary": []}})
            for part in item.get("summary", []):
                for p in pieces(part["text"]):
                    add({"type": "response.reasoning_summary_text.delta", "item_id": item["id"], "output_index": i,
                         "summary_index": 0, "delta": p})
            for part in item.get("content", []):
                for p in pieces(part["text"]):
                    add({"type": "response.reasoning_text.delta", "item_id": item["id"], "output_index": i,
                         "content_index": 0, "delta": p})
            add({"type": "response.output_item.done", "output_index": i, "item": dict(item)})
        elif item.get("type") == "function_call":
            fid = f"fc_{i}"
            add({"type": "response.output_item.added", "output_index": i, "item": {
                "type": "function_call", "id": fid, "call_id": item["call_id"], "name": item["name"], "arguments": "",
                "status": "in_progress"}})
            for p in pieces(item["arguments"]):
                add({"type": "response.function_call_arguments.delta", "item_id": fid, "output_index": i, "delta": p})
            add({"type": "response.function_call_arguments.done", "item_id": fid, "output_index": i,
                 "name": item["name"], "arguments": item["arguments"]})
        else:
            mid = f"msg_{i}"
            message: dict[str, Any] = {"type": "message", "id": mid, "role": "assistant", "status": "in_progress",
                                       "content": []}
            if "phase" in item:
                message["phase"] = item["phase"]
            add({"type": "response.output_item.added", "output_index": i, "item": message})
            for p in pieces(item["content"]):
                add({"type": "response.output_text.delta", "item_id": mid, "output_index": i, "content_index": 0,
                     "delta": p, "logprobs": []})
    add({"type": "response.completed", "response": {
        "id": "resp_1", "object": "response", "created_at": 1789000000, "model": "gpt-5.5", "output": [],
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "status": "completed",
        "usage": {"input_tokens": usage["input"] + usage["cached"], "output_tokens": usage["output"],
                  "total_tokens": usage["input"] + usage["cached"] + usage["output"],
                  "input_tokens_details": {"cached_tokens": usage["cached"], "cache_write_tokens": 0},
                  "output_tokens_details": {"reasoning_tokens": 0}}}})
    adapter: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
    return [adapter.validate_python(e).model_dump(mode="json") for e in raw]


# -- Gemini generateContent ------------------------------------------------------------------------

def gemini_chunks(content: dict[str, Any], usage: dict[str, int]) -> list[dict[str, Any]]:
    """The stream chunks of one model content (REST JSON parts), each validated by
    `google.genai.types.GenerateContentResponse` and handed on as its `model_dump()`: texts in
    pieces with the part's thought signature on the last piece, a function call whole."""
    from google.genai.types import GenerateContentResponse

    def chunk(part: dict[str, Any] | None, finish: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": [] if part is None else [part]}, "index": 0}
        if finish:
            candidate["finishReason"] = finish
        return {"candidates": [candidate], "usageMetadata": {
            "promptTokenCount": usage["input"] + usage["cached"], "cachedContentTokenCount": usage["cached"],
            "candidatesTokenCount": usage["output"], "totalTokenCount": usage["input"] + usage["cached"] + usage["output"]}}

    raw: list[dict[str, Any]] = []
    for part in content["parts"]:
        if "text" in part:
            texts = pieces(part["text"])
            for k, p in enumerate(texts):
                piece = {key: v for key, v in part.items() if key != "thoughtSignature" or k == len(texts) - 1}
                raw.append(chunk({**piece, "text": p}))
        else:
            raw.append(chunk(part))
    raw.append(chunk(None, "STOP"))
    return [GenerateContentResponse.model_validate(c).model_dump(mode="json", exclude_none=True) for c in raw]
