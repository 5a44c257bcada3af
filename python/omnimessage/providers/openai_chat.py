"""A context as an OpenAI Chat Completions request body (`messages`).

As the reference's gateway maps it (AgentHub `openai_chat/client.py`
`transform_uni_message_to_model_input` and `_streaming_response_internal`, fed by PenguinHarness
`generative-model.ts`): the system prompt first as a `system` message (when not empty); per run of
one role, each tool output first as its own `tool` message (a text part), then one message with the
text and image parts, the tool calls (arguments re-serialised from the parsed object, the id's
`#n` suffix stripped) and the thinking joined into the reasoning field the upstream produced
(`fidelity.reasoning_field`; both `reasoning_content` and `reasoning` when unknown or mixed).

One departure, for the SDK's types: a tool output's images go into the run's own message as image
parts (the reference's route for servers without images in tool messages), since a `tool`
message's content is text only. Losses: inline data, text and tool-call fidelity, fidelity keys
besides `reasoning_field`, the boundaries between thinking messages joined into one field,
thinking with no text (no reasoning field carries it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ._shared import Group, Item, LossLog, compact_json, strip_id_suffix, tool_arguments
from ._translate import Uni
from ._wire import count, num, obj, parse_arguments, text

__all__ = ["messages", "uni_events"]


def _image_part(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def _group(g: Group, out: list[dict[str, Any]], losses: LossLog) -> None:
    parts: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    thinking: list[Item] = []
    for item in g.items:
        kind = item.type
        if kind == "text":
            losses.fidelity(item)
            parts.append({"type": "text", "text": item.text("text")})
        elif kind == "image_url":
            parts.append(_image_part(item.text("image_url")))
        elif kind == "thinking":
            losses.fidelity(item, ("reasoning_field",))
            if thinking:
                losses.add(item.index, "/payload/thinking", "thinking-merged")
            thinking.append(item)
        elif kind == "tool_call":
            losses.fidelity(item)
            calls.append({"id": strip_id_suffix(item, losses), "type": "function",
                          "function": {"name": item.text("name"),
                                       "arguments": compact_json(tool_arguments(item, losses))}})
        elif kind == "tool_call_output":
            images = item.payload.get("images")
            parts.extend(_image_part(str(url)) for url in (images if isinstance(images, list) else []))
            out.append({"role": "tool", "tool_call_id": strip_id_suffix(item, losses),
                        "content": [{"type": "text", "text": item.text("output")}]})
        else:  # inline_data, inline_thinking
            losses.add(item.index, "/payload/type", "inline-data-not-supported")
    message: dict[str, Any] = {"role": g.role}
    if parts:
        message["content"] = parts
    if calls:
        message["tool_calls"] = calls
    text = "".join(item.text("thinking") for item in thinking)
    if text:
        fields = [item.fidelity.get("reasoning_field") for item in thinking]  # any JSON value: no set
        if all(f == "reasoning_content" for f in fields):
            message["reasoning_content"] = text
        elif all(f == "reasoning" for f in fields):
            message["reasoning"] = text
        else:
            message["reasoning_content"] = text
            message["reasoning"] = text
    elif thinking:  # thinking with no text sends no reasoning field: the message is not carried
        for item in thinking:
            losses.add(item.index, "/payload/thinking", "thinking-empty")
    if len(message) > 1:
        out.append(message)


def messages(groups: list[Group], system: str | None, losses: LossLog) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    if system:
        out.append({"role": "system", "content": system})
    for g in groups:
        _group(g, out, losses)
    return {"messages": out}


# -- the way back: Chat Completions chunks (as the SDK types them, plain dicts) -----------------

_FINISH = {"stop": "stop", "length": "length", "tool_calls": "tool_call", "content_filter": "stop"}


def _chunk(ev: dict[str, Any], n: int) -> tuple[str | None, Uni]:
    """One chunk as the gateway reads it (`transform_model_output_to_uni_event`): its event type
    (`delta`, `stop` or None) and its neutral event."""
    kind: str | None = None
    uni = Uni()
    choices = ev.get("choices")
    if isinstance(choices, list) and choices:
        choice = obj(choices[0], n, "/choices/0")
        delta = obj(choice.get("delta"), n, "/choices/0/delta")
        if text(delta, "content"):
            kind = "delta"
            uni.items.append({"type": "text", "text": text(delta, "content")})
        rc, r = text(delta, "reasoning_content"), text(delta, "reasoning")
        if rc or r:
            kind = "delta"
            item: dict[str, Any] = {"type": "thinking", "thinking": rc or r}
            if not (rc and r):  # both: the origin is ambiguous, no fidelity (a replay sends both)
                item["fidelity"] = {"reasoning_field": "reasoning_content" if rc else "reasoning"}
            uni.items.append(item)
        calls = delta.get("tool_calls")
        for k, call in enumerate(calls if isinstance(calls, list) else []):
            kind = "delta"
            c = obj(call, n, f"/choices/0/delta/tool_calls/{k}")
            fn = obj(c.get("function"), n, f"/choices/0/delta/tool_calls/{k}/function")
            uni.items.append({"type": "partial_tool_call", "name": text(fn, "name"), "arguments": text(fn, "arguments"),
                              "tool_call_id": text(c, "id") or text(fn, "name")})
        reason = choice.get("finish_reason")
        if reason:
            kind = kind or "stop"
            uni.finish = _FINISH.get(str(reason), "unknown")
    usage = ev.get("usage")
    if isinstance(usage, dict):
        kind = kind or "stop"
        cached = count(obj(usage.get("prompt_tokens_details"), n, "/usage/prompt_tokens_details"), "cached_tokens")
        thoughts = count(obj(usage.get("completion_tokens_details"), n, "/usage/completion_tokens_details"),
                         "reasoning_tokens")
        cached = cached or None
        thoughts = thoughts or None
        uni.usage = {"cached_tokens": cached, "prompt_tokens": num(usage, "prompt_tokens") - (cached or 0),
                     "thoughts_tokens": thoughts, "response_tokens": num(usage, "completion_tokens") - (thoughts or 0)}
    return kind, uni


def uni_events(events: Iterable[object]) -> Iterator[tuple[int, Uni]]:
    """The neutral events AgentHub's Chat Completions client yields for `events` (`openai_chat/
    client.ts` `transformModelOutputToUniEvent` and its stream loop): a tool call's complete form
    when the next call begins or the stream stops (arguments parsed); the finish reason and usage
    together in one stop event once both arrived."""
    tool: dict[str, str] = {}
    finish: str | None = None
    usage: dict[str, int | None] | None = None
    for n, event in enumerate(events):
        kind, uni = _chunk(obj(event, n, ""), n)
        finish, usage = uni.finish or finish, uni.usage or usage
        if kind == "delta":
            for item in uni.items:
                if item["type"] != "partial_tool_call":
                    continue
                if not tool.get("name"):
                    tool = {k: item[k] for k in ("name", "arguments", "tool_call_id")}
                elif item["name"]:
                    yield n, _complete(tool, n)
                    tool = {k: item[k] for k in ("name", "arguments", "tool_call_id")}
                else:
                    tool["arguments"] = tool.get("arguments", "") + item["arguments"]
            yield n, uni
        elif kind == "stop":
            if tool.get("name"):
                yield n, _complete(tool, n)
                tool = {}
            if finish and usage:
                yield n, Uni([], usage, finish)
                finish, usage = None, None


def _complete(tool: dict[str, str], n: int) -> Uni:
    return Uni([{"type": "tool_call", "name": tool["name"], "tool_call_id": tool["tool_call_id"],
                 "arguments": parse_arguments(tool.get("arguments", ""), n)}])
