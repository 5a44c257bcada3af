"""A context as an OpenAI Responses request body (`instructions`, `input`).

As the reference's gateway maps it (AgentHub `openai_responses/client.py`
`transform_uni_message_to_model_input` and `transform_uni_config_to_model_config`, fed by
PenguinHarness `generative-model.ts`): the system prompt as `instructions`; per run of one role,
text and image parts collect into one message item (`input_text` from the user, `output_text` from
the assistant; an assistant text's `fidelity.phase` labels its message, and a change of phase
starts a new one), and everything else is an input item of its own, in order, flushing the message
collected so far: a thinking message as a `reasoning` item (its text as `summary_text` when
`fidelity.channel` is `summary`, else as `reasoning_text` content; `encrypted_content`,
`signature` and `format` from its fidelity), a tool call as `function_call` (arguments
re-serialised from the parsed object, the id's `#n` suffix stripped), a tool output as
`function_call_output` (its text, then its images). Losses: inline data, other fidelity keys (a
reasoning item's `id` among them: the reference sends none, with `store` off).
"""

from __future__ import annotations

from typing import Any

from ._shared import Group, Item, LossLog, compact_json, strip_id_suffix, tool_arguments

__all__ = ["messages"]

_REASONING_KEYS = ("encrypted_content", "signature", "format")


def _reasoning(item: Item, losses: LossLog) -> dict[str, Any]:
    fid = item.fidelity
    losses.fidelity(item, ("channel", *_REASONING_KEYS))
    reasoning: dict[str, Any] = {"type": "reasoning", "summary": []}
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
    phase: Any = None

    def flush(label: Any) -> None:
        nonlocal content
        if content:
            entry: dict[str, Any] = {"role": g.role, "content": content}
            if label is not None:
                entry["phase"] = label
            out.append(entry)
            content = []

    for item in g.items:
        kind = item.type
        if kind not in ("text", "image_url"):
            flush(phase)
        if kind == "text":
            here = item.fidelity.get("phase")
            if g.role == "assistant" and here:
                if phase is not None and phase != here:
                    flush(phase)
                phase = here
                losses.fidelity(item, ("phase",))
            else:
                losses.fidelity(item)
            part = "input_text" if g.role == "user" else "output_text"
            content.append({"type": part, "text": item.text("text")})
        elif kind == "image_url":
            content.append({"type": "input_image", "image_url": item.text("image_url")})
        elif kind == "thinking":
            out.append(_reasoning(item, losses))
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
    flush(phase)


def messages(groups: list[Group], system: str | None, losses: LossLog) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for g in groups:
        _group(g, out, losses)
    body: dict[str, Any] = {}
    if system is not None:
        body["instructions"] = system
    body["input"] = out
    return body
