"""A context as an Anthropic Messages request body (`system`, `messages`).

As the reference's gateway maps it (AgentHub `ant_messages/client.py`
`transform_uni_message_to_model_input`, fed by PenguinHarness `generative-model.ts`): one message
per run of one role; text, images (a data URL as a base64 source, any other URL as a url source),
thinking with its `fidelity.signature` (a `_REDACTED_THINKING` sentinel with its signature as a
`redacted_thinking` block), tool calls as `tool_use` with parsed input and the id's `#n` suffix
stripped, tool outputs as `tool_result` (the text, then the images). What the Messages API has no
place for is a loss: inline data, other fidelity keys, a thinking block without its signature (the
official API refuses an unsigned one; the reference sends it for third-party servers).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ._shared import Group, Item, LossLog, data_url, strip_id_suffix, tool_arguments
from ._translate import StreamError, Uni
from ._wire import count, num, obj, parse_arguments, text

__all__ = ["REDACTED_THINKING", "messages", "uni_events"]

REDACTED_THINKING = "_REDACTED_THINKING"
"""The thinking text the reference gives a redacted block; its data rides in `fidelity.signature`."""


def _image(item: Item, url: str, pointer: str, losses: LossLog) -> dict[str, Any] | None:
    if url.startswith("data:"):
        parts = data_url(url)
        if parts is None:
            losses.add(item.index, pointer, "image-url-malformed")
            return None
        return {"type": "image", "source": {"type": "base64", "media_type": parts[0], "data": parts[1]}}
    return {"type": "image", "source": {"type": "url", "url": url}}


def _thinking(item: Item, losses: LossLog) -> dict[str, Any] | None:
    signature = item.fidelity.get("signature")
    if not isinstance(signature, str):
        losses.add(item.index, "/payload/thinking", "thinking-unsigned")
        losses.fidelity(item)
        return None
    losses.fidelity(item, ("signature",))
    if item.text("thinking") == REDACTED_THINKING:
        return {"type": "redacted_thinking", "data": signature}
    return {"type": "thinking", "thinking": item.text("thinking"), "signature": signature}


def _block(item: Item, losses: LossLog) -> dict[str, Any] | None:
    kind = item.type
    if kind == "text":
        losses.fidelity(item)
        return {"type": "text", "text": item.text("text")}
    if kind == "image_url":
        return _image(item, item.text("image_url"), "/payload/image_url", losses)
    if kind == "thinking":
        return _thinking(item, losses)
    if kind == "tool_call":
        losses.fidelity(item)
        return {"type": "tool_use", "id": strip_id_suffix(item, losses), "name": item.text("name"),
                "input": tool_arguments(item, losses)}
    if kind == "tool_call_output":
        content: list[dict[str, Any]] = [{"type": "text", "text": item.text("output")}]
        images = item.payload.get("images")
        for n, url in enumerate(images if isinstance(images, list) else []):
            block = _image(item, str(url), f"/payload/images/{n}", losses)
            if block is not None:
                content.append(block)
        return {"type": "tool_result", "content": content, "tool_use_id": strip_id_suffix(item, losses)}
    losses.add(item.index, "/payload/type", "inline-data-not-supported")  # inline_data, inline_thinking
    return None


def messages(groups: list[Group], system: str | None, losses: LossLog) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for g in groups:
        blocks = [b for b in (_block(item, losses) for item in g.items) if b is not None]
        if blocks:
            out.append({"role": g.role, "content": blocks})
    body: dict[str, Any] = {}
    if system is not None:
        body["system"] = system
    body["messages"] = out
    return body


# -- the way back: Messages streaming events (as the SDK types them, plain dicts) ----------------

_FINISH = {"end_turn": "stop", "max_tokens": "length", "stop_sequence": "stop", "tool_use": "tool_call"}
_IGNORED = frozenset({"message_stop", "ping", "text", "thinking", "signature", "input_json"})


def uni_events(events: Iterable[object]) -> Iterator[tuple[int, Uni]]:
    """The neutral events AgentHub's Messages client yields for `events` (`ant_messages/client.py`
    `transform_model_output_to_uni_event` and its stream loop): a tool call's complete form at its
    block's stop (arguments parsed), usage from `message_start` completed by `message_delta`."""
    tool: dict[str, str] | None = None
    started: dict[str, int | None] = {}
    for n, event in enumerate(events):
        ev = obj(event, n, "")
        kind = ev.get("type")
        if kind == "message_start":
            usage = obj(obj(ev.get("message"), n, "/message").get("usage"), n, "/message/usage")
            started = {"prompt_tokens": num(usage, "input_tokens") + num(usage, "cache_creation_input_tokens"),
                       "cached_tokens": count(usage, "cache_read_input_tokens")}
        elif kind == "content_block_start":
            block = obj(ev.get("content_block"), n, "/content_block")
            if block.get("type") == "tool_use":
                tool = {"name": text(block, "name"), "arguments": "", "tool_call_id": text(block, "id")}
                yield n, Uni([{"type": "partial_tool_call", **tool}])
            elif block.get("type") == "redacted_thinking":
                yield n, Uni([{"type": "thinking", "thinking": REDACTED_THINKING,
                               "fidelity": {"signature": text(block, "data")}}])
        elif kind == "content_block_delta":
            delta = obj(ev.get("delta"), n, "/delta")
            dtype = delta.get("type")
            if dtype == "thinking_delta":
                yield n, Uni([{"type": "thinking", "thinking": text(delta, "thinking")}])
            elif dtype == "text_delta":
                yield n, Uni([{"type": "text", "text": text(delta, "text")}])
            elif dtype == "input_json_delta":
                piece = text(delta, "partial_json")
                if tool is not None:
                    tool["arguments"] += piece
                yield n, Uni([{"type": "partial_tool_call", "name": "", "arguments": piece, "tool_call_id": ""}])
            elif dtype == "signature_delta":
                signature = {"signature": text(delta, "signature")}
                yield n, Uni([{"type": "thinking", "thinking": "", "fidelity": signature}])
        elif kind == "content_block_stop":
            if tool is not None:
                yield n, Uni([{"type": "tool_call", "name": tool["name"], "tool_call_id": tool["tool_call_id"],
                               "arguments": parse_arguments(tool["arguments"], n)}])
                tool = None
        elif kind == "message_delta":
            delta = obj(ev.get("delta"), n, "/delta")
            reason = delta.get("stop_reason")
            finish = _FINISH.get(str(reason), "unknown") if reason else None
            usage_v = ev.get("usage")
            if isinstance(usage_v, dict):
                details = usage_v.get("output_tokens_details")
                thoughts = count(details, "thinking_tokens") if isinstance(details, dict) else None
                given = usage_v.get("input_tokens")
                prompt = (num(usage_v, "input_tokens") + num(usage_v, "cache_creation_input_tokens")
                          if isinstance(given, int) and not isinstance(given, bool) else None)
                cached = count(usage_v, "cache_read_input_tokens")
                yield n, Uni([], {"prompt_tokens": prompt if prompt is not None else started.get("prompt_tokens"),
                                  "cached_tokens": cached if cached is not None else started.get("cached_tokens"),
                                  "thoughts_tokens": thoughts,
                                  "response_tokens": num(usage_v, "output_tokens") - (thoughts or 0)}, finish)
        elif not isinstance(kind, str) or kind not in _IGNORED:  # a list is no event type (and no set key)
            raise StreamError(n, f"not a Messages stream event: type {kind!r}")
