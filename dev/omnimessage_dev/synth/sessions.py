"""Deterministic synthetic traces and streams that follow every rule: the one session generator.

Sessions look like an agent at work: a `session_meta`, MCP connect, `tool_list_ready`, then turns
of user text, model requests (thinking with `fidelity`, text, tool calls), token usage, approvals
and tool outputs (some with images). The stream variant streams every assistant message and tool
output as `start` / `delta` / `stop` fragments followed by the complete message, and forwards a
subagent child session with `origin`.

Two flavours of the same sessions: the plain one (the tests' and the validator bench's inputs) and
`rich=True`, the benchmark corpora (`make bench`, the TypeScript bench): bigger system prompts and
tool lists with JSON Schema parameters, provider signatures and encrypted reasoning as `fidelity`
blobs, tool outputs of code listings and logs up to 30 kB, base64 images of 20-150 kB, compaction
pairs. `small_lines` is the third corpus: many small messages (per-message overhead).
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable, Iterator
from typing import Final

import msgspec

from omnimessage import (
    UNSET,
    ApprovalDecisionPayload,
    CompactionBeginPayload,
    CompactionEndPayload,
    EventMessage,
    McpConnectBeginPayload,
    McpConnectEndPayload,
    McpServerResult,
    ModelMessage,
    PartialTextPayload,
    PartialThinkingPayload,
    PartialToolCallOutputPayload,
    PartialToolCallPayload,
    Raw,
    RequestBeginPayload,
    RequestEndPayload,
    SessionMetaMessage,
    SessionMetaPayload,
    SubagentPayload,
    TextPayload,
    ThinkingPayload,
    TokenCounts,
    TokenUsagePayload,
    ToolCallOutputPayload,
    ToolCallPayload,
    ToolDefinition,
    ToolListReadyPayload,
    encode,
)

__all__ = ["SyntheticSession", "small_lines", "stream_lines", "trace_lines"]

_WORDS: Final = (
    "the of and to in is for that with on as it be by this are from at or an was file function return value "
    "error test data line message stream trace session model tool call output request token usage context "
    "compaction agent protocol python json schema field string number object array list dict main build run "
    "\"quoted\" path/to/file.py {brace} [bracket] naïve café 数据 流式 ✓ tab\there newline\nhere"
).split(" ")
_RICH_WORDS: Final = (  # the rich flavour's: more escapes (quotes, backslashes, tabs) and astral characters
    "the of and to in is for on with as by at from that this file line error value function return import "
    "class def const let async await type string number object array null true false self résumé naïve "
    '中文 日本語 😀 ✓ → «quoted» "dq" back\\slash tab\t'
).split(" ")
_TOOLS: Final = ("read_file", "write_file", "run_shell", "search", "list_dir", "edit", "fetch", "grep")
_CODE: Final = (
    'def handler(event):\n    return {"status": 200, "body": json.dumps(event)}\n',
    "for (let i = 0; i < n; i++) {\n  total += values[i] * 2;\n}\n",
    "Traceback (most recent call last):\n  File \"main.py\", line 3, in <module>\nKeyError: 'x'\n",
    "drwxr-xr-x  5 ada ada 4096 Jul 18 03:10 src\n-rw-r--r--  1 ada ada  812 Jul 18 03:10 README.md\n",
    "src/app/main.ts:41:7 - error TS2345: Argument of type 'string' is not assignable to 'number'.\n",
    "2026-07-18T03:10:22.531Z INFO [server] listening on 127.0.0.1:8080 (pid 4242, 8 workers)\n",
)
_PNG: Final = (
    "data:image/png;base64,"
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


class SyntheticSession:
    """Generates the lines of one session, deterministically from `seed`."""

    def __init__(self, seed: int, *, session_id: str | None = None, stream: bool = False, rich: bool = False) -> None:
        self.rng = random.Random(seed)
        rng = self.rng
        self.stream = stream
        self.rich = rich
        self.session_id = session_id or f"session-2026-07-18-03-10-22-{rng.getrandbits(32):08x}"
        words = _RICH_WORDS if rich else _WORDS
        corpus = [rng.choice(words) for _ in range(200_000)]
        self.corpus = " ".join(corpus)
        self.ms = 1_784_344_222_000 + rng.randrange(1000)
        self.calls = 0
        self.usage_total = 0
        self.turns = 0
        # the rich flavour's blobs come from their own generator: the plain flavour's draws stay as they are
        self.b64 = base64.b64encode(random.Random(seed + 1).randbytes(600_000)).decode() if rich else ""

    # -- helpers -----------------------------------------------------------------------
    def ts(self) -> str:
        self.ms += self.rng.randrange(1, 40)
        ms = self.ms
        secs, milli = divmod(ms, 1000)
        days, rem = divmod(secs, 86400)
        h, rem = divmod(rem, 3600)
        m, s = divmod(rem, 60)
        y, mo, d = _civil(days)
        return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{m:02d}:{s:02d}.{milli:03d}Z"

    def text(self, lo: int, hi: int) -> str:
        n = self.rng.randrange(lo, hi)
        start = self.rng.randrange(0, len(self.corpus) - n - 1)
        return self.corpus[start : start + n]

    def model(self, payload: object, origin: list[str] | None = None) -> bytes:
        return encode(ModelMessage(timestamp=self.ts(), payload=payload, origin=UNSET if origin is None else origin))  # type: ignore[arg-type]

    def event(self, payload: object, origin: list[str] | None = None) -> bytes:
        return encode(EventMessage(timestamp=self.ts(), payload=payload, origin=UNSET if origin is None else origin))  # type: ignore[arg-type]

    def blob(self, lo: int, hi: int) -> str:
        """Base64 text of `lo`..`hi` characters (rich flavour): signatures, encrypted reasoning, images."""
        n = self.rng.randrange(lo, hi)
        start = self.rng.randrange(0, len(self.b64) - n)
        return self.b64[start : start + n]

    def listing(self, lo: int, hi: int) -> str:
        """A tool output of code, logs and prose (rich flavour)."""
        parts = []
        size = self.rng.randrange(lo, hi)
        while size > 0:
            chunk = self.rng.choice(_CODE) if self.rng.random() < 0.6 else self.text(40, 400) + "\n"
            parts.append(chunk)
            size -= len(chunk)
        return "".join(parts)

    def fragments(self, s: str, size: int | None = None) -> list[str]:
        if size is not None:  # fixed-size pieces, as a producer flushes a buffered tool output
            return [s[i : i + size] for i in range(0, len(s), size)]
        out = []
        i = 0
        while i < len(s):
            n = self.rng.randrange(8, 120)
            out.append(s[i : i + n])
            i += n
        return out

    # -- the session ----------------------------------------------------------------------
    def opening(self, origin: list[str] | None = None) -> Iterator[bytes]:
        meta = SessionMetaPayload(
            session_id=self.session_id if origin is None else origin[-1],
            provider="anthropic",
            model_id="claude-sonnet-4",
            model_context_window=200000,
            system_prompt=self.text(4000, 12000) if self.rich else self.text(2000, 6000),
            agent_state="/home/agent/.agent/state",
            workspace="/home/agent/work",
            source="user" if origin is None else "subagent",
        )
        if not self.stream or origin is not None:
            env = SessionMetaMessage(timestamp=self.ts(), payload=meta, origin=UNSET if origin is None else origin)
            yield encode(env)
        if origin is None:
            servers = ["files", "web"]
            yield self.event(McpConnectBeginPayload(servers=servers))
            results = [McpServerResult(server=s, transport="stdio", status="completed", duration_ms=12.5, tools=4)
                       for s in servers]
            yield self.event(McpConnectEndPayload(status="completed", results=results))
            tools = [
                ToolDefinition(name=n, description=self.text(60, 300),
                               parameters=Raw(b'{"type":"object","properties":{"path":{"type":"string"}}}'))
                for n in _TOOLS
            ]
            if self.rich:  # more tools, with the JSON Schema parameters real tools carry
                tools += [
                    ToolDefinition(
                        name=f"tool_{k}", description=self.text(40, 200),
                        parameters=Raw(msgspec.json.encode({
                            "type": "object",
                            "properties": {"path": {"type": "string", "description": self.text(10, 60)},
                                           "limit": {"type": "integer", "minimum": 1, "default": 100}},
                            "required": ["path"],
                        })),
                    )
                    for k in range(self.rng.randrange(0, 16))
                ]
            yield self.event(ToolListReadyPayload(tools=tools))

    def streamed(self, partial: type, complete: object, field: str, origin: list[str] | None = None,
                 **fixed: object) -> Iterator[bytes]:
        value: str = getattr(complete, field)
        yield self.model(partial(event_type="start", **{field: ""}, **fixed), origin)
        for frag in self.fragments(value):
            yield self.model(partial(event_type="delta", **{field: frag}, **fixed), origin)
        yield self.model(partial(event_type="stop", **{field: ""}, stop_reason="completed", **fixed), origin)
        yield self.model(complete, origin)

    def assistant(self, payload: object, origin: list[str] | None = None) -> Iterator[bytes]:
        if not self.stream:
            yield self.model(payload, origin)
        elif isinstance(payload, TextPayload):
            yield from self.streamed(PartialTextPayload, payload, "text", origin, role="assistant")
        elif isinstance(payload, ThinkingPayload):
            yield from self.streamed(PartialThinkingPayload, payload, "thinking", origin, role="assistant")
        elif isinstance(payload, ToolCallPayload):
            yield from self.streamed(PartialToolCallPayload, payload, "arguments", origin, role="assistant",
                                     name=payload.name, tool_call_id=payload.tool_call_id)
        else:
            yield self.model(payload, origin)

    def tool_output(self, out: ToolCallOutputPayload, origin: list[str] | None = None) -> Iterator[bytes]:
        if not self.stream:
            yield self.model(out, origin)
            return
        tid = out.tool_call_id
        yield self.model(PartialToolCallOutputPayload(role="user", event_type="start", output="", tool_call_id=tid),
                         origin)
        frags = self.fragments(out.output, 1024 if self.rich else None)
        for i, frag in enumerate(frags):
            images = out.images if i == 0 else UNSET
            yield self.model(PartialToolCallOutputPayload(role="user", event_type="delta", output=frag, images=images,
                                                          tool_call_id=tid), origin)
        if not frags and out.images is not UNSET:
            yield self.model(PartialToolCallOutputPayload(role="user", event_type="delta", output="",
                                                          images=out.images, tool_call_id=tid), origin)
        yield self.model(PartialToolCallOutputPayload(role="user", event_type="stop", output="", tool_call_id=tid,
                                                      stop_reason="completed"), origin)
        yield self.model(out, origin)

    def turn(self, origin: list[str] | None = None) -> Iterator[bytes]:
        rng = self.rng
        yield self.model(TextPayload(role="user", text=self.text(20, 400)), origin)
        for _ in range(rng.randrange(1, 4)):
            yield self.event(RequestBeginPayload(), origin)
            if rng.random() < 0.6:
                signature = (f'{{"signature":"{self.blob(200, 1400)}"}}'.encode() if self.rich
                             else b'{"signature":"EqQBCkYIBxgCKkBv7Q=="}')
                yield from self.assistant(ThinkingPayload(role="assistant", thinking=self.text(100, 2500),
                                                          stop_reason="completed", fidelity=Raw(signature)),
                                          origin)
            calls = []
            if rng.random() < 0.65:
                for _ in range(rng.randrange(1, 4)):
                    self.calls += 1
                    tid = f"toolu_{self.calls:08d}"
                    args = msgspec.json.encode({"path": "/home/agent/work/" + self.text(5, 30)}).decode()
                    call = ToolCallPayload(role="assistant", name=rng.choice(_TOOLS), arguments=args,
                                           tool_call_id=tid, stop_reason="completed")
                    calls.append(call)
                    yield from self.assistant(call, origin)
            else:
                text = self.text(50, 3000)
                final = (Raw(f'{{"phase":"final_answer","encrypted_content":"{self.blob(2000, 10_000)}"}}'.encode())
                         if self.rich else UNSET)
                yield from self.assistant(TextPayload(role="assistant", text=text, stop_reason="completed",
                                                      fidelity=final), origin)
            req = rng.randrange(100, 5000)
            self.usage_total += req
            counts = TokenCounts(cache_read=req // 2, cache_write=req // 4, output=req // 8, total=req)
            total = TokenCounts(cache_read=self.usage_total // 2, cache_write=self.usage_total // 4,
                                output=self.usage_total // 8, total=self.usage_total)
            yield self.event(TokenUsagePayload(session=total, request=counts), origin)
            yield self.event(RequestEndPayload(status="completed", attempt=1), origin)
            for call in calls:
                yield self.event(ApprovalDecisionPayload(decision="allow", tool_call_id=call.tool_call_id), origin)
                images: list[str] | msgspec.UnsetType
                if self.rich and self.stream:  # a live stream: shorter outputs, no inline images
                    output = self.listing(200, 8000)
                    images = UNSET
                elif self.rich:
                    output = self.listing(500, 30_000)
                    images = ([f"data:image/png;base64,{self.blob(20_000, 150_000)}"] if rng.random() < 0.08
                              else UNSET)
                else:
                    images = [_PNG] if rng.random() < 0.05 else UNSET
                    output = self.text(200, 8000)
                yield from self.tool_output(
                    ToolCallOutputPayload(role="user", output=output, images=images,
                                          tool_call_id=call.tool_call_id, stop_reason="completed"),
                    origin,
                )
            if not calls:
                break
        self.turns += 1
        if self.rich and rng.random() < 0.03:
            yield from self.compaction(origin)

    def compaction(self, origin: list[str] | None = None) -> Iterator[bytes]:
        """The context compacted: a summarising request between `compaction_begin` and `_end`."""
        yield self.event(CompactionBeginPayload(reason="context", mode="summarize", context=180_000,
                                                turns=self.turns), origin)
        yield self.event(RequestBeginPayload(), origin)
        yield from self.assistant(TextPayload(role="assistant", text=self.text(500, 3000), stop_reason="completed"),
                                  origin)
        counts = TokenCounts(cache_read=0, cache_write=0, output=0, total=0)
        yield self.event(TokenUsagePayload(session=counts, request=counts), origin)
        yield self.event(RequestEndPayload(status="completed", attempt=1), origin)
        yield self.event(CompactionEndPayload(reason="context", mode="summarize", status="completed", attempt=1),
                         origin)

    def child(self, parent_origin: list[str] | None = None) -> Iterator[bytes]:
        """A subagent child, forwarded on the stream with `origin` (streams only)."""
        cid = f"session-2026-07-18-03-10-22-{self.rng.getrandbits(32):08x}"
        yield self.event(SubagentPayload(session_id=cid), parent_origin)
        origin = [*(parent_origin or []), cid]
        yield from self.opening(origin)
        yield from self.turn(origin)


def trace_lines(target_bytes: int, seed: int = 1, *, session_id: str | None = None,
                rich: bool = False) -> Iterator[bytes]:
    """Lines (with LF) of one valid trace file of about `target_bytes`."""
    s = SyntheticSession(seed, session_id=session_id, rich=rich)
    size = 0
    for line in s.opening():
        size += len(line) + 1
        yield line + b"\n"
    while size < target_bytes:
        for line in s.turn():
            size += len(line) + 1
            yield line + b"\n"


def stream_lines(target_bytes: int, seed: int = 1, *, rich: bool = False) -> Iterator[bytes]:
    """Lines (with LF) of one valid SDK stream of about `target_bytes` (partials, subagents)."""
    s = SyntheticSession(seed, stream=True, rich=rich)
    size = 0
    for line in s.opening():
        size += len(line) + 1
        yield line + b"\n"
    n = 0
    while size < target_bytes:
        n += 1
        gen = s.child() if n % 10 == 0 else s.turn()
        for line in gen:
            size += len(line) + 1
            yield line + b"\n"


def small_lines(target_bytes: int, seed: int = 3) -> Iterator[bytes]:
    """Lines (with LF) of many small messages (events, short texts, fragments): per-message overhead.
    Each line is valid on its own; as a sequence they follow no protocol rule."""
    s = SyntheticSession(seed)
    rng = s.rng
    makers: list[Callable[[], bytes]] = [
        lambda: s.event(RequestBeginPayload()),
        lambda: s.event(RequestEndPayload(status="completed")),
        lambda: s.event(ApprovalDecisionPayload(decision="allow", tool_call_id=f"toolu_{rng.getrandbits(20)}")),
        lambda: s.model(TextPayload(role="user", text=s.text(5, 60))),
        lambda: s.model(PartialTextPayload(role="assistant", event_type="delta", text=s.text(1, 12))),
        lambda: s.event(TokenUsagePayload(session=TokenCounts(cache_read=0, cache_write=0, output=0,
                                                              total=rng.randrange(0, 10**6)),
                                          request=TokenCounts(cache_read=0, cache_write=0, output=0, total=0))),
    ]
    size = 0
    while size < target_bytes:
        line = rng.choice(makers)() + b"\n"
        size += len(line)
        yield line


def _civil(days: int) -> tuple[int, int, int]:
    """Days since 1970-01-01 -> (year, month, day) (H. Hinnant's algorithm)."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + 1 if m <= 2 else y), m, d
