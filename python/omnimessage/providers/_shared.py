"""What every provider projection shares: the result types, the context's messages as plain
payloads, the grouping of adjacent same-role messages, tool arguments and tool-call ids.

The rules follow the reference's model gateway (PenguinHarness `packages/core/src/llm/
generative-model.ts`: `groupHistoryToUniMessages`, `mergeOmniToUniMessage`, `payloadToContentItem`,
`parseToolArguments`; `packages/core/src/llm/tool-call-ids.ts`: `stripToolCallIdSuffix`), which
turns a context into AgentHub messages that its provider clients then map to each API.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import msgspec

from .._write import write_json

__all__ = ["PROVIDERS", "Group", "Item", "Loss", "LossLog", "Projection", "Provider", "escape_pointer", "items",
           "group", "tool_arguments", "strip_id_suffix", "data_url", "compact_json"]

Provider = Literal["anthropic", "openai-chat", "openai-responses", "gemini"]
PROVIDERS: Final[tuple[Provider, ...]] = ("anthropic", "openai-chat", "openai-responses", "gemini")

COMPLETE_TYPES: Final = frozenset({"text", "thinking", "inline_thinking", "tool_call", "tool_call_output",
                                   "image_url", "inline_data"})


@dataclass(frozen=True, slots=True)
class Loss:
    """One thing a projection could not carry: `message` is the 0-based index in the context,
    `pointer` a JSON pointer inside that OmniMessage, `reason` a short kebab-case code."""

    message: int
    pointer: str
    reason: str


@dataclass(frozen=True, slots=True)
class Projection:
    """A provider request body (JSON-compatible: dicts, lists, strings, numbers, booleans) and what
    it could not carry, in context order."""

    provider: Provider
    body: dict[str, Any]
    losses: tuple[Loss, ...]


@dataclass(slots=True)
class LossLog:
    """Losses as a projection finds them; `sorted()` puts them in context order (stable)."""

    found: list[Loss] = field(default_factory=list)

    def add(self, message: int, pointer: str, reason: str) -> None:
        self.found.append(Loss(message, pointer, reason))

    def fidelity(self, item: Item, carried: Iterable[str] = ()) -> None:
        """Every fidelity key of `item` that the projection does not carry."""
        keep = set(carried)
        for key in item.fidelity:
            if key not in keep:
                self.add(item.index, "/payload/fidelity/" + escape_pointer(key), "fidelity-not-carried")

    def sorted(self) -> tuple[Loss, ...]:
        return tuple(sorted(self.found, key=lambda loss: loss.message))


@dataclass(frozen=True, slots=True)
class Item:
    """One complete model message of the context: its index and its payload as plain JSON."""

    index: int
    payload: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.payload["type"])

    @property
    def role(self) -> str:
        return str(self.payload.get("role"))

    @property
    def fidelity(self) -> dict[str, Any]:
        fid = self.payload.get("fidelity")
        return fid if isinstance(fid, dict) else {}

    def text(self, key: str) -> str:
        value = self.payload.get(key)
        return value if isinstance(value, str) else ""


@dataclass(frozen=True, slots=True)
class Group:
    """A run of adjacent messages of one role: the reference's one AgentHub message."""

    role: str
    items: tuple[Item, ...]


def escape_pointer(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def items(raws: Sequence[bytes], losses: LossLog) -> list[Item]:
    """The context's complete model messages as plain payloads; anything else is a loss (an event,
    a partial, a newer version's type)."""
    out: list[Item] = []
    for index, raw in enumerate(raws):
        try:
            env = msgspec.json.decode(raw)
        except msgspec.DecodeError:
            losses.add(index, "", "not-json")
            continue
        payload = env.get("payload") if isinstance(env, dict) else None
        if not isinstance(env, dict) or env.get("type") != "model_msg" or not isinstance(payload, dict):
            losses.add(index, "/type", "not-a-model-message")
            continue
        if payload.get("type") not in COMPLETE_TYPES or payload.get("role") not in ("user", "assistant"):
            losses.add(index, "/payload/type", "message-type-not-supported")
            continue
        out.append(Item(index, payload))
    return out


def group(found: Iterable[Item]) -> list[Group]:
    """Adjacent messages of one role make one group (`groupHistoryToUniMessages`)."""
    groups: list[Group] = []
    for item in found:
        if groups and groups[-1].role == item.role:
            groups[-1] = Group(item.role, (*groups[-1].items, item))
        else:
            groups.append(Group(item.role, (item,)))
    return groups


def compact_json(value: object) -> str:
    """JSON as `JSON.stringify` writes it for the values tool arguments hold."""
    return write_json(value)


def tool_arguments(item: Item, losses: LossLog) -> dict[str, Any]:
    """The tool call's arguments parsed (`parseToolArguments`): an empty string is no arguments, a
    non-object is none. The provider gets an object, so arguments that do not re-serialise to the
    same string, or are no JSON object, are a loss."""
    raw = item.text("arguments")
    if not raw:
        return {}
    try:
        parsed = json.loads(raw)
        spelled = compact_json(parsed)
    except (ValueError, RecursionError):  # not JSON, or nested past what a parse can hold
        losses.add(item.index, "/payload/arguments", "arguments-not-json")
        return {}
    if not isinstance(parsed, dict):
        losses.add(item.index, "/payload/arguments", "arguments-not-object")
        return {}
    if spelled != raw:
        losses.add(item.index, "/payload/arguments", "arguments-respelled")
    return parsed


_SUFFIX = re.compile(r"#\d+\Z")


def strip_id_suffix(item: Item, losses: LossLog) -> str:
    """The provider's own tool-call id: the `#n` uniqueness suffix the reference adds to a repeated
    id is stripped (`stripToolCallIdSuffix`); the suffix is a loss the way back cannot restore."""
    cid = item.text("tool_call_id")
    bare = _SUFFIX.sub("", cid)
    if bare != cid:
        losses.add(item.index, "/payload/tool_call_id", "tool-call-id-suffix-stripped")
    return bare


_DATA_URL = re.compile(r"data:([^;,]+);base64,(.+)\Z", re.S)


def data_url(url: str) -> tuple[str, str] | None:
    """(mime type, base64 data) of a base64 data URL, else None."""
    m = _DATA_URL.match(url)
    return (m.group(1), m.group(2)) if m else None
