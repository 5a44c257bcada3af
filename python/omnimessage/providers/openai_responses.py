"""A context as an OpenAI Responses request body (`instructions`, `input`).

As the reference's gateway maps it (AgentHub `openai_responses/client.py`
`transform_uni_message_to_model_input` and `transform_uni_config_to_model_config`, fed by
PenguinHarness `generative-model.ts`): the system prompt as `instructions`; a user run's text and
image parts collect into one message item (`input_text`, `input_image`), and everything else is an
input item of its own, in order, flushing the message collected so far: a thinking message as a
`reasoning` item (its text as `summary_text` when `fidelity.channel` is `summary`, else as
`reasoning_text` content; `encrypted_content`, `signature` and `format` from its fidelity), a tool
call as `function_call` (arguments re-serialised from the parsed object, the id's `#n` suffix
stripped), a tool output as `function_call_output` (its text, then its images).

Two departures, for the SDK's types (`ResponseInputItemParam`): an assistant text is a message of
its own with the text as its content string and its `fidelity.phase` as `phase` (the reference
sends `output_text` parts, which an input message's type does not allow; a change of phase splits
messages there too), and a reasoning item carries `fidelity.id` as its `id`, which the type
requires (the reference sends none, with `store` off): thinking without an id is not sent
(`reasoning-without-id`). Losses: inline data, other fidelity keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ._shared import Group, Item, LossLog, compact_json, strip_id_suffix, tool_arguments
from ._translate import Uni
from ._wire import num, obj, parse_arguments, text

__all__ = ["messages", "uni_events"]

_REASONING_KEYS = ("encrypted_content", "signature", "format")


def _reasoning(item: Item, losses: LossLog) -> dict[str, Any] | None:
    fid = item.fidelity
    if not isinstance(fid.get("id"), str):
        losses.add(item.index, "/payload/thinking", "reasoning-without-id")
        losses.fidelity(item)
        return None
    losses.fidelity(item, ("id", "channel", *_REASONING_KEYS))
    reasoning: dict[str, Any] = {"type": "reasoning", "id": fid["id"], "summary": []}
    text = item.text("thinking")
    if fid.get("channel") == "summary":
        if text:
            reasoning["summary"] = [{"type": "summary_text", "text": text}]
    elif text:
        reasoning["content"] = [{"type": "reasoning_text", "text": text}]
    for key in _REASONING_KEYS:
        if fid.get(key) is not None:
            reasoning[key] = fid[key]
    return reasoning


def _group(g: Group, out: list[dict[str, Any]], losses: LossLog) -> None:
    content: list[dict[str, Any]] = []

    def flush() -> None:
        nonlocal content
        if content:
            out.append({"role": g.role, "content": content})
            content = []

    for item in g.items:
        kind = item.type
        if kind not in ("text", "image_url"):
            flush()
        if kind == "text" and g.role == "assistant":
            phase = item.fidelity.get("phase")
            losses.fidelity(item, ("phase",) if phase in ("commentary", "final_answer") else ())
            entry: dict[str, Any] = {"role": "assistant", "content": item.text("text")}
            if phase in ("commentary", "final_answer"):
                entry["phase"] = phase
            out.append(entry)
        elif kind == "text":
            losses.fidelity(item)
            content.append({"type": "input_text", "text": item.text("text")})
        elif kind == "image_url":
            content.append({"type": "input_image", "image_url": item.text("image_url"), "detail": "auto"})
        elif kind == "thinking":
            reasoning = _reasoning(item, losses)
            if reasoning is not None:
                out.append(reasoning)
        elif kind == "tool_call":
            losses.fidelity(item)
            out.append({"type": "function_call", "call_id": strip_id_suffix(item, losses), "name": item.text("name"),
                        "arguments": compact_json(tool_arguments(item, losses))})
        elif kind == "tool_call_output":
            result: list[dict[str, Any]] = [{"type": "input_text", "text": item.text("output")}]
            images = item.payload.get("images")
            result.extend({"type": "input_image", "image_url": str(url)}
                          for url in (images if isinstance(images, list) else []))
            out.append({"type": "function_call_output", "call_id": strip_id_suffix(item, losses), "output": result})
        else:  # inline_data, inline_thinking
            losses.add(item.index, "/payload/type", "inline-data-not-supported")
    flush()


def messages(groups: list[Group], system: str | None, losses: LossLog) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for g in groups:
        _group(g, out, losses)
    body: dict[str, Any] = {}
    if system is not None:
        body["instructions"] = system
    body["input"] = out
    return body


# -- the way back: Responses streaming events (as the SDK types them, plain dicts) ----------------

def _event(ev: dict[str, Any], n: int) -> tuple[str | None, Uni]:
    """One event as the gateway reads it (`transform_model_output_to_uni_event`)."""
    kind = ev.get("type")
    if kind == "response.output_text.delta":
        return "delta", Uni([{"type": "text", "text": text(ev, "delta")}])
    if kind in ("response.reasoning_text.delta", "response.reasoning_summary_text.delta"):
        return "delta", Uni([{"type": "thinking", "thinking": text(ev, "delta")}])
    if kind in ("response.output_item.added", "response.output_item.done"):
        item = obj(ev.get("item"), n, "/item")
        if kind.endswith("added") and item.get("type") == "function_call":
            return "start", Uni([{"type": "partial_tool_call", "name": text(item, "name"), "arguments": "",
                                  "tool_call_id": text(item, "call_id")}])
        if kind.endswith("added") and item.get("type") == "message" and item.get("phase"):
            return "delta", Uni([{"type": "text", "text": "", "fidelity": {"phase": item["phase"]}}])
        if kind.endswith("done") and item.get("type") == "reasoning":
            # the item's wire shape, so that a replay sends it back: its id (which the request type
            # requires), the channel of a summary, the fields the server demands back
            fid: dict[str, Any] = {"id": item["id"]} if isinstance(item.get("id"), str) else {}
            if item.get("summary"):
                fid["channel"] = "summary"
            fid.update((k, item[k]) for k in ("encrypted_content", "signature", "format") if item.get(k) is not None)
            return "delta", Uni([{"type": "thinking", "thinking": "", "fidelity": fid}])
        return None, Uni()
    if kind == "response.function_call_arguments.delta":
        return "delta", Uni([{"type": "partial_tool_call", "name": "", "arguments": text(ev, "delta"),
                              "tool_call_id": ""}])
    if kind == "response.function_call_arguments.done":
        return "stop", Uni()
    if kind in ("response.completed", "response.incomplete"):
        response = obj(ev.get("response"), n, "/response")
        status = response.get("status")
        uni = Uni(finish={"completed": "stop", "incomplete": "length"}.get(str(status), "unknown"))
        usage = response.get("usage")
        if isinstance(usage, dict):
            cached = num(obj(usage.get("input_tokens_details"), n, "/response/usage/input_tokens_details"),
                         "cached_tokens")
            thoughts = num(obj(usage.get("output_tokens_details"), n, "/response/usage/output_tokens_details"),
                           "reasoning_tokens")
            uni.usage = {"cached_tokens": cached, "prompt_tokens": num(usage, "input_tokens") - cached,
                         "thoughts_tokens": thoughts, "response_tokens": num(usage, "output_tokens") - thoughts}
        return "stop", uni
    return None, Uni()  # gateways inject their own events: dropped, as the gateway drops them


def uni_events(events: Iterable[object]) -> Iterator[tuple[int, Uni]]:
    """The neutral events AgentHub's Responses client yields for `events` (`openai_responses/
    client.py` and its stream loop): a tool call's complete form at its arguments' `done`
    (arguments parsed), the finish reason and usage at `response.completed` or `.incomplete`.
    One addition: a reasoning item's `id` is kept in its fidelity (see `_reasoning`)."""
    tool: dict[str, str] = {}
    for n, event in enumerate(events):
        kind, uni = _event(obj(event, n, ""), n)
        if kind == "start":
            tool = {k: uni.items[0][k] for k in ("name", "arguments", "tool_call_id")}
            yield n, uni
        elif kind == "delta":
            for item in uni.items:
                if item["type"] == "partial_tool_call" and tool:
                    tool["arguments"] += item["arguments"]
            yield n, uni
        elif kind == "stop":
            if tool:
                yield n, Uni([{"type": "tool_call", "name": tool["name"], "tool_call_id": tool["tool_call_id"],
                               "arguments": parse_arguments(tool["arguments"], n)}])
                tool = {}
            if uni.finish or uni.usage:
                yield n, uni
