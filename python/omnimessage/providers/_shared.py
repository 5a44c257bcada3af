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

from omnimessage.codec.write import write_json

from .._generated.models import MAX_DEPTH

__all__ = ["PROVIDERS", "Group", "as_javascript", "Item", "Loss", "LossLog", "Projection", "Provider", "escape_pointer",
           "items", "group", "nesting", "tool_arguments", "strip_id_suffix", "data_url", "compact_json"]

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


_INDEX_KEY = re.compile(r"(?:0|[1-9][0-9]{0,9})\Z")
_MAX_INDEX = 2**32 - 2


def _index_key(key: str) -> bool:
    return _INDEX_KEY.match(key) is not None and int(key) <= _MAX_INDEX


def as_javascript(value: Any) -> Any:
    """A decoded JSON value as `JSON.parse` holds it, so that a body is spelled as the reference's
    gateway (JavaScript) and the TypeScript binding spell it: an object's array-index keys (`"0"`
    to `"4294967294"`) first, in ascending order, then the others in their order. Raises
    `ValueError` for an integer beyond the double range (`JSON.parse` makes it Infinity, which JSON
    cannot spell), `RecursionError` for nesting past Python's limit."""
    if isinstance(value, dict):  # loops, not comprehensions: one frame a level (the trace nests 512)
        keys = list(value)
        index = sorted((k for k in keys if _index_key(k)), key=int)
        if index:
            keys = index + [k for k in keys if not _index_key(k)]
        obj: dict[str, Any] = {}
        for k in keys:
            obj[k] = as_javascript(value[k])
        return obj
    if isinstance(value, list):
        arr: list[Any] = []
        for v in value:
            arr.append(as_javascript(v))
        return arr
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**53) <= value <= 2**53:
        try:
            float(value)
        except OverflowError:
            raise ValueError("an integer beyond the double range") from None
    return value


def items(raws: Sequence[bytes], losses: LossLog) -> list[Item]:
    """The context's complete model messages as plain payloads (`as_javascript`); anything else is
    a loss (an event, a partial, a newer version's type, a number JSON cannot spell)."""
    out: list[Item] = []
    for index, raw in enumerate(raws):
        try:
            env = as_javascript(msgspec.json.decode(raw))
        except (msgspec.DecodeError, ValueError, RecursionError):
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


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


def nesting(text: str) -> int:
    """How deep arrays and objects nest in `text` (`{}` is 1), brackets inside strings not
    counted, whether or not `text` is JSON; linear, no recursion (typescript/src/providers/types.ts
    `nesting` counts the same way)."""
    level = top = 0
    for m in _TOKEN.finditer(text):
        c = text[m.start()]
        if c in "[{":
            level += 1
            top = max(top, level)
        elif c in "]}":
            level -= 1
    return top


def tool_arguments(item: Item, losses: LossLog) -> dict[str, Any]:
    """The tool call's arguments parsed (`parseToolArguments`): an empty string is no arguments, a
    non-object is none. The provider gets an object, so arguments that do not re-serialise to the
    same string, are no JSON object, or nest deeper than the trace's `MAX_DEPTH`, are a loss."""
    raw = item.text("arguments")
    if not raw:
        return {}
    if nesting(raw) > MAX_DEPTH:  # the trace's own limit; deeper is refused before parsing, as in TypeScript
        losses.add(item.index, "/payload/arguments", "arguments-too-deep")
        return {}
    try:
        parsed = as_javascript(json.loads(raw))
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
