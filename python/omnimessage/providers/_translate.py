"""The way back: a provider's stream, read as the gateway's neutral events, to OmniMessages.

Each provider module turns its SDK's streaming events into `Uni` events (what AgentHub's client
yields: content items, usage, finish reason); `Translator` turns those into OmniMessages as the
reference's `EventTranslator` does (PenguinHarness `packages/core/src/llm/generative-model.ts`;
tool-call ids from `packages/core/src/llm/tool-call-ids.ts`):

- text, thinking and tool-call segments stream as `partial_*` start, deltas, stop, and each
  segment's complete message follows its stop, `fidelity` included;
- a thinking segment ends where its fidelity changes (a run of equal fidelity is one block); a
  text segment ends after a `fidelity.signature` and where `fidelity.phase` changes; a segment of
  one kind ends where another kind begins (thinking -> text -> tool call, in generation order);
- a complete tool call from the provider is emitted at once, its arguments re-serialised from the
  parsed object; a tool call seen only in fragments is completed at the end from them;
- a repeated tool-call id gets a `#n` suffix (the first keeps it), unique over `used_ids`;
- the last segment ends with the stream's stop reason (`completed` for a stop or a tool call,
  `fatal` for a length or unknown finish), every earlier one `completed`;
- `token_usage` comes last: the latest usage snapshot (never a sum), and the session's counts.

Memory: the text, thinking and argument buffers of one response are capped together by
`max_bytes` (`StreamError` past it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from omnimessage.codec.write import write_json

from .._generated import builders as b
from .._generated.models import Message, StopReason, TokenCounts

__all__ = ["MAX_STREAM_BYTES", "StreamError", "Translator", "Uni"]

MAX_STREAM_BYTES: Final = 64 * 1024 * 1024
"""The default cap on the text a response's open segments buffer (UTF-8 bytes, all together)."""


class StreamError(ValueError):
    """A stream that cannot be read: `event` is the 0-based index of the offending event."""

    def __init__(self, event: int, detail: str) -> None:
        self.event, self.detail = event, detail
        super().__init__(f"event {event}: {detail}")


@dataclass(slots=True)
class Uni:
    """One neutral event: content items (dicts shaped as AgentHub's), a usage snapshot
    (`cached_tokens`, `prompt_tokens`, `thoughts_tokens`, `response_tokens`), a finish reason
    (`stop`, `length`, `tool_call`, `unknown`)."""

    items: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int | None] | None = None
    finish: str | None = None


def _has(fid: Mapping[str, Any] | None) -> bool:
    return bool(fid)


def _same(a: Mapping[str, Any] | None, b_: Mapping[str, Any] | None) -> bool:
    return write_json(dict(a or {})) == write_json(dict(b_ or {}))


@dataclass(slots=True)
class _Tool:
    name: str
    call_id: str
    provider_key: str
    args: str = ""
    complete: str | None = None
    fidelity: dict[str, Any] | None = None
    emitted: bool = False


def counts(usage: Mapping[str, int | None]) -> TokenCounts:
    """A usage snapshot as token counts (`usageToTokenCounts`): cache_read is the cached input,
    cache_write the rest of the input, output the thoughts and the response."""
    cached, prompt = usage.get("cached_tokens") or 0, usage.get("prompt_tokens") or 0
    output = (usage.get("thoughts_tokens") or 0) + (usage.get("response_tokens") or 0)
    return b.token_counts(cache_read=cached, cache_write=prompt, output=output, total=cached + prompt + output)


class Translator:
    """Neutral events in, OmniMessages out (see the module's documentation)."""

    def __init__(self, *, used_ids: set[str] | None = None, timestamp: str | None = None,
                 max_bytes: int = MAX_STREAM_BYTES) -> None:
        self._used = set(used_ids or ())
        self._ts, self._max, self._held = timestamp, max_bytes, 0
        self._event = 0
        self._text_started = self._thinking_started = False
        self._text, self._thinking = "", ""
        self._text_fid: dict[str, Any] | None = None
        self._thinking_fid: dict[str, Any] | None = None
        self._tool_started: set[str] = set()
        self._active: str | None = None
        self._order: list[str] = []
        self._tools: dict[str, _Tool] = {}
        self.finish_reason: str | None = None
        self.request = b.token_counts()

    def _hold(self, piece: str) -> None:
        self._held += len(piece.encode("utf-8", "surrogatepass"))
        if self._held > self._max:
            raise StreamError(self._event, f"the response's open segments exceed {self._max} bytes (max_bytes)")

    def _allocate(self, provider_id: str) -> str:
        cid, n = provider_id, 2
        while cid in self._used:
            cid, n = f"{provider_id}#{n}", n + 1
        self._used.add(cid)
        return cid

    def push(self, event: Uni, index: int) -> Iterator[Message]:
        self._event = index
        if event.finish is not None:
            self.finish_reason = event.finish
        if event.usage is not None:
            self.request = counts(event.usage)  # a cumulative snapshot: the latest wins
        for item in event.items:
            kind = item.get("type")
            if kind == "text":
                yield from self._on_text(item)
            elif kind == "thinking":
                yield from self._on_thinking(item)
            elif kind == "partial_tool_call":
                yield from self._on_partial_tool(item)
            elif kind == "tool_call":
                yield from self._on_tool(item)

    def _on_text(self, item: dict[str, Any]) -> Iterator[Message]:
        fid, text = item.get("fidelity"), str(item.get("text") or "")
        current = (self._text_fid or {}).get("phase")
        incoming = (fid or {}).get("phase")
        closed = (self._text_fid or {}).get("signature") is not None
        if (closed and (text or _has(fid))) or (incoming is not None and incoming != current):
            yield from self._flush_thinking("completed")
            yield from self._flush_text("completed")
        if _has(fid):
            self._text_fid = {**(self._text_fid or {}), **fid}  # type: ignore[dict-item]
        if not text:
            return
        yield from self._flush_thinking("completed")
        if not self._text_started:
            self._text_started = True
            yield b.partial_text("start", "", timestamp=self._ts)
        self._hold(text)
        self._text += text
        yield b.partial_text("delta", text, timestamp=self._ts)

    def _on_thinking(self, item: dict[str, Any]) -> Iterator[Message]:
        fid, text = item.get("fidelity"), str(item.get("thinking") or "")
        if _has(self._thinking_fid) and not _same(self._thinking_fid, fid) and (text or _has(fid)):
            yield from self._flush_thinking("completed")
        if _has(fid):
            self._thinking_fid = dict(fid)  # type: ignore[arg-type]
        if not text:
            return
        yield from self._flush_text("completed")
        if not self._thinking_started:
            self._thinking_started = True
            yield b.partial_thinking("start", "", timestamp=self._ts)
        self._hold(text)
        self._thinking += text
        yield b.partial_thinking("delta", text, timestamp=self._ts)

    def _new_tool(self, key: str, name: str) -> _Tool:
        tool = _Tool(name, self._allocate(key), key)
        self._tools[key] = tool
        self._order.append(key)
        return tool

    def _on_partial_tool(self, item: dict[str, Any]) -> Iterator[Message]:
        given = str(item.get("tool_call_id") or "")
        key = given or self._active  # a fragment without an id belongs to the open call
        if not key:
            return
        if given:
            self._active = given
        name = str(item.get("name") or "")
        tool = self._tools.get(key) or self._new_tool(key, name)
        if name:
            tool.name = name
        if _has(item.get("fidelity")):
            tool.fidelity = dict(item["fidelity"])
        if tool.call_id not in self._tool_started:
            yield from self._flush_thinking("completed")
            yield from self._flush_text("completed")
            self._tool_started.add(tool.call_id)
            yield b.partial_tool_call("start", tool.name, "", tool.call_id, timestamp=self._ts)
        piece = str(item.get("arguments") or "")
        if piece:
            self._hold(piece)
            tool.args += piece
            yield b.partial_tool_call("delta", "", piece, tool.call_id, timestamp=self._ts)

    def _on_tool(self, item: dict[str, Any]) -> Iterator[Message]:
        given = str(item.get("tool_call_id") or "")
        if not given:
            return
        yield from self._flush_thinking("completed")
        yield from self._flush_text("completed")
        tool = self._tools.get(given)
        if tool is None or tool.emitted:  # another call under a name-as-id provider's id
            tool = self._new_tool(given, str(item.get("name") or ""))
        tool.name = str(item.get("name") or "")
        args = item.get("arguments")
        tool.complete = write_json(args if args is not None else {})
        if _has(item.get("fidelity")):
            tool.fidelity = dict(item["fidelity"])
        yield from self._emit_tool(tool, "completed")

    def _emit_tool(self, tool: _Tool, stop: StopReason) -> Iterator[Message]:
        tool.emitted = True
        if tool.call_id in self._tool_started:
            yield b.partial_tool_call("stop", "", "", tool.call_id, stop_reason=stop, timestamp=self._ts)
        yield b.tool_call(tool.name, tool.complete if tool.complete is not None else tool.args, tool.call_id,
                          stop_reason=stop, fidelity=tool.fidelity, timestamp=self._ts)
        if self._active == tool.provider_key:
            self._active = None

    def _flush_thinking(self, stop: StopReason) -> Iterator[Message]:
        if self._thinking_started:
            yield b.partial_thinking("stop", "", stop_reason=stop, timestamp=self._ts)
            self._thinking_started = False
        if self._thinking or _has(self._thinking_fid):
            yield b.thinking(self._thinking, stop_reason=stop, fidelity=self._thinking_fid, timestamp=self._ts)
            self._held -= len(self._thinking.encode("utf-8", "surrogatepass"))
            self._thinking, self._thinking_fid = "", None

    def _flush_text(self, stop: StopReason) -> Iterator[Message]:
        if self._text_started:
            yield b.partial_text("stop", "", stop_reason=stop, timestamp=self._ts)
            self._text_started = False
        if self._text or _has(self._text_fid):
            yield b.assistant_text(self._text, stop_reason=stop, fidelity=self._text_fid, timestamp=self._ts)
            self._held -= len(self._text.encode("utf-8", "surrogatepass"))
            self._text, self._text_fid = "", None

    def finish(self, session_before: TokenCounts | None = None) -> Iterator[Message]:
        """The last segments' stops and complete messages, the tool calls seen only in fragments,
        then `token_usage` (the session's counts are `session_before` plus this request's)."""
        stop: StopReason = "completed" if self.finish_reason in (None, "stop", "tool_call") else "fatal"
        yield from self._flush_thinking(stop)
        yield from self._flush_text(stop)
        for key in self._order:
            tool = self._tools[key]
            if not tool.emitted:
                yield from self._emit_tool(tool, "completed")
        before, req = session_before or b.token_counts(), self.request
        session = b.token_counts(cache_read=before.cache_read + req.cache_read,
                                 cache_write=before.cache_write + req.cache_write,
                                 output=before.output + req.output, total=before.total + req.total)
        yield b.token_usage(session, req, timestamp=self._ts)
