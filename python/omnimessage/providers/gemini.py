"""A context as a Gemini `generateContent` request body (`contents`, `systemInstruction`), in the
REST API's JSON spelling (camelCase).

As the reference's gateway maps it (AgentHub `gemini3_8/client.py`
`transform_uni_message_to_model_input`, fed by PenguinHarness `generative-model.ts`): one content
per run of one role (`user`, `model`); text, thinking (`thought: true`), inline data and tool calls
carry `fidelity.signature` as the part's `thoughtSignature`; a tool call is a `functionCall` with
parsed `args` and its id (the `#n` suffix stripped; no id when the id is the function's name, as
ids of older histories are); a tool output is a `functionResponse` named after its call
(`{"result": output}`, its images as inline parts); an image URL becomes inline data. A run that
mixes function responses with other parts is split into consecutive contents of the same role (the
reference's `_split_function_response_runs`). Losses: a web image URL (the reference downloads
it; a projection never touches the network), a signature that is not base64 (a thought signature is
bytes), fidelity keys besides `signature`, a thinking message with neither text nor signature.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Iterator
from typing import Any

from ._shared import Group, Item, LossLog, data_url, strip_id_suffix, tool_arguments
from ._translate import Uni
from ._wire import obj, text

__all__ = ["messages", "uni_events"]

_ROLE = {"user": "user", "assistant": "model"}


def _inline(item: Item, url: str, pointer: str, losses: LossLog) -> dict[str, Any] | None:
    parts = data_url(url)
    if parts is None:
        losses.add(item.index, pointer, "image-url-not-inlined")
        return None
    return {"mimeType": parts[0], "data": parts[1]}


def _base64(value: object) -> bool:
    """Canonical standard base64, the only spelling the API (and the SDK's bytes field) takes."""
    if not isinstance(value, str):
        return False
    try:
        return base64.b64encode(base64.b64decode(value, validate=True)).decode("ascii") == value
    except (binascii.Error, ValueError):
        return False


def _signed(item: Item, part: dict[str, Any], losses: LossLog) -> dict[str, Any]:
    signature = item.fidelity.get("signature")
    if signature is not None and not _base64(signature):
        losses.add(item.index, "/payload/fidelity/signature", "signature-not-base64")
        losses.fidelity(item, ("signature",))
        return part
    losses.fidelity(item, ("signature",))
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def _part(item: Item, names: dict[str, str], losses: LossLog) -> dict[str, Any] | None:
    kind = item.type
    if kind == "text":
        return _signed(item, {"text": item.text("text")}, losses)
    if kind == "thinking":
        thought = _signed(item, {"text": item.text("thinking"), "thought": True}, losses)
        if not thought["text"] and "thoughtSignature" not in thought:  # an empty thought: nothing to send
            losses.add(item.index, "/payload/thinking", "thinking-empty")
            return None
        return thought
    if kind in ("inline_data", "inline_thinking"):
        part: dict[str, Any] = {"inlineData": {"mimeType": item.text("mime_type"), "data": item.text("data")}}
        if kind == "inline_thinking":
            part["thought"] = True
        return _signed(item, part, losses)
    if kind == "image_url":
        blob = _inline(item, item.text("image_url"), "/payload/image_url", losses)
        return None if blob is None else {"inlineData": blob}
    if kind == "tool_call":
        cid, name = strip_id_suffix(item, losses), item.text("name")
        names[cid] = name
        call: dict[str, Any] = {"id": cid} if cid != name else {}
        call.update(name=name, args=tool_arguments(item, losses))
        return _signed(item, {"functionCall": call}, losses)
    cid = strip_id_suffix(item, losses)  # tool_call_output
    name = names.get(cid, cid)
    response: dict[str, Any] = {"id": cid} if cid != name else {}
    response.update(name=name, response={"result": item.text("output")})
    images = item.payload.get("images")
    blobs = [_inline(item, str(url), f"/payload/images/{n}", losses)
             for n, url in enumerate(images if isinstance(images, list) else [])]
    if any(b is not None for b in blobs):
        response["parts"] = [{"inlineData": b} for b in blobs if b is not None]
    return {"functionResponse": response}


def _runs(parts: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Function responses and other parts in separate runs, in order (one run when homogeneous)."""
    runs: list[list[dict[str, Any]]] = []
    for part in parts:
        if runs and ("functionResponse" in runs[-1][-1]) == ("functionResponse" in part):
            runs[-1].append(part)
        else:
            runs.append([part])
    return runs


def messages(groups: list[Group], system: str | None, losses: LossLog) -> dict[str, Any]:
    names: dict[str, str] = {}
    contents: list[dict[str, Any]] = []
    for g in groups:
        parts = [p for p in (_part(item, names, losses) for item in g.items) if p is not None]
        contents.extend({"role": _ROLE[g.role], "parts": run} for run in _runs(parts))
    body: dict[str, Any] = {"contents": contents}
    if system is not None:
        body["systemInstruction"] = {"parts": [{"text": system}]}
    return body


# -- the way back: generateContent stream chunks (the SDK's model_dump() or the REST JSON) --------

def _get(d: dict[str, Any], snake: str, camel: str) -> Any:
    """A field in either spelling: the SDK's `model_dump()` (snake_case) or the REST JSON (camelCase)."""
    return d.get(snake, d.get(camel))


def _part_items(part: dict[str, Any], n: int, where: str) -> list[dict[str, Any]]:
    signature = _get(part, "thought_signature", "thoughtSignature")
    fid = {"fidelity": {"signature": signature}} if signature is not None else {}
    call = _get(part, "function_call", "functionCall")
    inline = _get(part, "inline_data", "inlineData")
    if call is not None:
        c = obj(call, n, f"{where}/function_call")
        args = c.get("args")
        return [{"type": "tool_call", "name": text(c, "name"), "arguments": args if isinstance(args, dict) else {},
                 "tool_call_id": text(c, "id") or text(c, "name"), **fid}]
    if inline is not None:
        blob = obj(inline, n, f"{where}/inline_data")  # inline output: not streaming text (the translator skips it)
        kind = "inline_thinking" if part.get("thought") else "inline_data"
        return [{"type": kind, "data": text(blob, "data"), "mime_type": _get(blob, "mime_type", "mimeType"), **fid}]
    if isinstance(part.get("text"), str):
        kind, key = ("thinking", "thinking") if part.get("thought") else ("text", "text")
        return [{"type": kind, key: part["text"], **fid}]
    return []


def uni_events(events: Iterable[object]) -> Iterator[tuple[int, Uni]]:
    """The neutral events AgentHub's Gemini client yields for `events` (`gemini3_8/client.py`
    `transform_model_output_to_uni_event`): each chunk's parts in order (a function call complete,
    its id or else its name as the id; a part's thought signature as its fidelity), the finish
    reason, and the chunk's usage, a cumulative snapshot."""
    for n, event in enumerate(events):
        chunk = obj(event, n, "")
        uni = Uni()
        candidates = chunk.get("candidates")
        if isinstance(candidates, list) and candidates:
            candidate = obj(candidates[0], n, "/candidates/0")
            content = obj(candidate.get("content"), n, "/candidates/0/content")
            parts = content.get("parts")
            for k, part in enumerate(parts if isinstance(parts, list) else []):
                where = f"/candidates/0/content/parts/{k}"
                uni.items.extend(_part_items(obj(part, n, where), n, where))
            reason = _get(candidate, "finish_reason", "finishReason")
            if reason:
                uni.finish = {"STOP": "stop", "MAX_TOKENS": "length"}.get(str(reason), "unknown")
        usage = _get(chunk, "usage_metadata", "usageMetadata")
        if isinstance(usage, dict):
            prompt = _get(usage, "prompt_token_count", "promptTokenCount")
            cached = _get(usage, "cached_content_token_count", "cachedContentTokenCount")
            uni.usage = {"cached_tokens": _int(cached),  # a count is an int, never a bool (as `_int` reads it)
                         "prompt_tokens": (_int(prompt) or 0) - (_int(cached) or 0),
                         "thoughts_tokens": _int(_get(usage, "thoughts_token_count", "thoughtsTokenCount")),
                         "response_tokens": _int(_get(usage, "candidates_token_count", "candidatesTokenCount"))}
        if uni.items or uni.usage is not None or uni.finish is not None:
            yield n, uni


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
