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
bytes), fidelity keys besides `signature`.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from ._shared import Group, Item, LossLog, data_url, strip_id_suffix, tool_arguments

__all__ = ["messages"]

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
        return _signed(item, {"text": item.text("thinking"), "thought": True}, losses)
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
