"""A generated trace archive with known defects: the input of the distributed tests and the scaling bench.

`build_archive(dir, sessions=N, seed=S)` writes a trace root laid out as producers write it,
`<yyyy-mm-dd>/<session_id>_<NNN>.jsonl`, and returns a :class:`Manifest` saying exactly what a
validator must find there:

- several producer shapes: `session_meta.source` / `provider` / `model_id` differ, and so do their
  habits (an MCP connect pair or not, tools or none, so rotated files re-announce a different head);
- rotations: a session of several contexts is several files, each rotated file opening with
  `session_meta`, the MCP pair if any and `tool_list_ready` if the agent has tools (protocol facts 9);
- subagents: `subagent` pointers to child sessions written under the same root (`source: subagent`),
  and some pointers to children that were never written (OM805);
- planted defects at known places, one finding each: a lost rotation index (OM802), a partial fragment
  stored in a trace (OM203), a timestamp going backwards (OM702), a `session_meta` naming another
  session (OM804), a field the protocol does not define (OM111).

Every record is encoded by the codec (canonical form), so a clean session has no finding at all; the
manifest lists each planted finding as (rule, path relative to the root, line), line 0 for a finding
about a whole file. Deterministic for a given (sessions, seed, size): the same bytes on every machine.

`python -m omnimessage_dev.archive DIR --sessions N [--seed S]` writes one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from omnimessage import (
    ApprovalDecisionPayload,
    CompactionBeginPayload,
    CompactionEndPayload,
    EventMessage,
    McpConnectBeginPayload,
    McpConnectEndPayload,
    McpServerResult,
    ModelMessage,
    Raw,
    RequestBeginPayload,
    RequestEndPayload,
    SessionMetaMessage,
    SessionMetaPayload,
    SubagentPayload,
    TextPayload,
    TokenCounts,
    TokenUsagePayload,
    ToolCallOutputPayload,
    ToolCallPayload,
    ToolDefinition,
    ToolListReadyPayload,
    encode,
)

__all__ = ["DEFECTS", "PRODUCERS", "Expected", "Manifest", "Producer", "build_archive"]


Source = Literal["user", "api", "schedule", "subagent", "cli", "company"]


@dataclass(frozen=True, slots=True)
class Producer:
    """One producer shape: what its `session_meta` says and how it writes a context's head."""

    source: Source
    provider: str
    model_id: str
    mcp: bool
    tools: tuple[str, ...]


PRODUCERS: Final = (
    Producer("user", "anthropic", "claude-sonnet-4", True, ("read_file", "run_shell", "edit", "grep")),
    Producer("api", "openai", "gpt-5.1", False, ("search", "fetch")),
    Producer("schedule", "openrouter", "moonshotai/kimi-k3", False, ()),
    Producer("cli", "google", "gemini-3-pro", True, ("list_dir", "read_file")),
)
"""The top-level producer shapes, used in turn; children are written by `CHILD`."""

CHILD: Final = Producer("subagent", "anthropic", "claude-haiku-4", False, ("read_file",))

DEFECTS: Final = ("OM802", "OM203", "OM702", "OM804", "OM111", "OM805")
"""The planted defects, one rule each; session k (k >= 3) of every 7 carries DEFECTS[k // 7 % 6]."""

_WORDS: Final = (
    "the of and to in is for that with on as it be by this are from at or an was file function return value "
    "error test data line message stream trace session model tool call output request token usage context "
    "café 数据 ✓ \"quoted\" path/to/file.py tab\there"
).split(" ")
_BASE_DAY: Final = 20_540  # 2026-03-28, days since 1970-01-01


@dataclass(frozen=True, slots=True)
class Expected:
    """One finding the archive must produce."""

    rule: str
    path: str
    """Relative to the archive root, with `/`."""
    line: int


@dataclass(slots=True)
class Manifest:
    """What `build_archive` wrote and what a validator must find there."""

    root: str
    sessions: int = 0
    """Sessions written (top-level and children): the trace root's session units."""
    files: int = 0
    lines: int = 0
    bytes: int = 0
    expected: list[Expected] = field(default_factory=list)
    producers: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    """Sessions per (source, provider, model_id)."""

    def counts(self) -> Counter[str]:
        """Expected findings per rule."""
        return Counter(e.rule for e in self.expected)

    def to_json(self) -> str:
        """The manifest as JSON (written beside the archive by the command line)."""
        return json.dumps({
            "root": self.root, "sessions": self.sessions, "files": self.files, "lines": self.lines,
            "bytes": self.bytes,
            "expected": [[e.rule, e.path, e.line] for e in self.expected],
            "producers": [[*k, n] for k, n in sorted(self.producers.items())],
        }, ensure_ascii=False, indent=1)


class _Writer:
    """The records of one session, deterministically from its own random stream."""

    def __init__(self, rng: random.Random, sid: str, producer: Producer, day: int, size: int) -> None:
        self.rng = rng
        self.sid = sid
        self.producer = producer
        self.ms = day * 86_400_000 + rng.randrange(0, 80_000_000)
        self.size = size
        self.calls = 0
        self.total = 0

    def ts(self, back: bool = False) -> str:
        self.ms += -5_000 if back else self.rng.randrange(1, 900)
        secs, milli = divmod(self.ms, 1000)
        days, rem = divmod(secs, 86400)
        h, rem = divmod(rem, 3600)
        m, s = divmod(rem, 60)
        y, mo, d = _civil(days)
        return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{m:02d}:{s:02d}.{milli:03d}Z"

    def text(self, lo: int, hi: int) -> str:
        n = self.rng.randrange(lo, hi)
        words: list[str] = []
        length = 0
        while length < n:
            w = self.rng.choice(_WORDS)
            words.append(w)
            length += len(w) + 1
        return " ".join(words)

    def model(self, payload: object, back: bool = False) -> bytes:
        return encode(ModelMessage(timestamp=self.ts(back), payload=payload))  # type: ignore[arg-type]

    def event(self, payload: object) -> bytes:
        return encode(EventMessage(timestamp=self.ts(), payload=payload))  # type: ignore[arg-type]

    def head(self, meta_sid: str | None = None) -> Iterator[bytes]:
        """A context's head: `session_meta`, the MCP connect pair, `tool_list_ready` (when the agent has each)."""
        p = self.producer
        meta = SessionMetaPayload(session_id=meta_sid or self.sid, provider=p.provider, model_id=p.model_id,
                                  model_context_window=200_000, system_prompt=self.text(200, 1200),
                                  agent_state="/home/agent/.agent/state", workspace="/home/agent/work",
                                  source=p.source)
        yield encode(SessionMetaMessage(timestamp=self.ts(), payload=meta))
        if p.mcp:
            yield self.event(McpConnectBeginPayload(servers=["files"]))
            yield self.event(McpConnectEndPayload(status="completed", results=[
                McpServerResult(server="files", transport="stdio", status="completed", duration_ms=9.5, tools=2)]))
        if p.tools:
            yield self.event(ToolListReadyPayload(tools=[
                ToolDefinition(name=n, description=self.text(20, 80),
                               parameters=Raw(b'{"type":"object","properties":{"path":{"type":"string"}}}'))
                for n in p.tools]))

    def request(self, payload: object) -> Iterator[bytes]:
        yield self.event(RequestBeginPayload())
        yield self.model(payload)
        req = self.rng.randrange(100, 4000)
        self.total += req
        yield self.event(TokenUsagePayload(
            session=TokenCounts(cache_read=0, cache_write=0, output=self.total // 8, total=self.total),
            request=TokenCounts(cache_read=0, cache_write=0, output=req // 8, total=req)))
        yield self.event(RequestEndPayload(status="completed"))

    def turn(self) -> Iterator[bytes]:
        yield self.model(TextPayload(role="user", text=self.text(20, 200)))
        tools = self.producer.tools
        if tools and self.rng.random() < 0.6:
            self.calls += 1
            tid = f"call_{self.calls:06d}"
            call = ToolCallPayload(role="assistant", name=self.rng.choice(tools), tool_call_id=tid,
                                   arguments='{"path":"/home/agent/work/main.py"}', stop_reason="completed")
            yield from self.request(call)
            yield self.event(ApprovalDecisionPayload(decision="allow", tool_call_id=tid))
            yield self.model(ToolCallOutputPayload(role="user", output=self.text(self.size // 4, self.size),
                                                   tool_call_id=tid, stop_reason="completed"))
        yield from self.request(TextPayload(role="assistant", text=self.text(40, self.size // 2),
                                            stop_reason="completed"))

    def compaction(self) -> Iterator[bytes]:
        yield self.event(CompactionBeginPayload(reason="context", mode="summarize", context=180_000, turns=3))
        yield from self.request(TextPayload(role="assistant", text=self.text(100, 400), stop_reason="completed"))
        yield self.event(CompactionEndPayload(reason="context", mode="summarize", status="completed", attempt=1))


def _sid(rng: random.Random, day: int) -> str:
    y, mo, d = _civil(day)
    h, m, s = rng.randrange(24), rng.randrange(60), rng.randrange(60)
    return f"session-{y:04d}-{mo:02d}-{d:02d}-{h:02d}-{m:02d}-{s:02d}-{rng.getrandbits(32):08x}"


def build_archive(directory: str | os.PathLike[str], sessions: int = 300, seed: int = 1, *,
                  size: int = 1200) -> Manifest:
    """Write `sessions` top-level sessions (and their subagent children) under `directory`.

    `size` is about the longest tool output or answer, in characters (a session is about 10x it).
    """
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    man = Manifest(str(root))
    rng = random.Random(seed)
    for k in range(sessions):
        day = _BASE_DAY + k % 3
        producer = PRODUCERS[k % len(PRODUCERS)]
        defect = DEFECTS[k // 7 % len(DEFECTS)] if k % 7 == 3 else ""
        _session(root, man, random.Random(rng.getrandbits(64)), day, producer, defect, size)
    return man


def _session(root: Path, man: Manifest, rng: random.Random, day: int, producer: Producer, defect: str,
             size: int, sid: str | None = None) -> None:
    """One session: its contexts (files), its subagent children, its planted defect."""
    sid = sid or _sid(rng, day)
    w = _Writer(rng, sid, producer, day, size)
    y, mo, d = _civil(day)
    folder = f"{y:04d}-{mo:02d}-{d:02d}"
    (root / folder).mkdir(exist_ok=True)
    contexts = 1 + (rng.random() < 0.3) + (rng.random() < 0.1)
    if defect == "OM802":
        contexts = max(contexts, 2)
    children: list[tuple[str, bool]] = []
    if producer.tools and producer.source != "subagent" and rng.random() < 0.3:
        children = [(_sid(rng, day), True) for _ in range(rng.randrange(1, 3))]
    if defect == "OM805":
        children.append((_sid(rng, day), False))
    pending = list(children)
    man.sessions += 1
    man.producers[(producer.source, producer.provider, producer.model_id)] += 1
    planted = False
    for c in range(contexts):
        index = c + 1 + (1 if defect == "OM802" and c >= 1 else 0)  # 001, 003: 002 is lost
        rel = f"{folder}/{sid}_{index:03d}.jsonl"
        lines: list[bytes] = list(w.head(meta_sid=f"{sid}-renamed" if defect == "OM804" and c == 0 else None))
        if defect == "OM804" and c == 0:
            man.expected.append(Expected("OM804", rel, 1))
        if defect == "OM802" and c == 1:
            man.expected.append(Expected("OM802", rel, 0))
        for t in range(rng.randrange(2, 5)):
            lines.extend(w.turn())
            if pending and t == 0:
                child, written = pending.pop(0)
                lines.append(w.event(SubagentPayload(session_id=child)))
                if not written:
                    man.expected.append(Expected("OM805", rel, len(lines)))
            if not planted and defect in ("OM203", "OM702", "OM111"):
                planted = True
                lines.append(_planted(w, defect))
                man.expected.append(Expected(defect, rel, len(lines)))
        if c + 1 < contexts:
            lines.extend(w.compaction())
        data = b"".join(x + b"\n" for x in lines)
        (root / rel).write_bytes(data)
        man.files += 1
        man.lines += len(lines)
        man.bytes += len(data)
    for child, written in children:
        if written:
            _session(root, man, random.Random(rng.getrandbits(64)), day, CHILD, "", size, sid=child)


def _planted(w: _Writer, defect: str) -> bytes:
    """One line that breaks exactly one rule."""
    if defect == "OM203":  # a fragment of the live stream stored in a trace
        return (f'{{"timestamp":"{w.ts()}","type":"model_msg","payload":{{"type":"partial_text","role":"assistant",'
                f'"event_type":"delta","text":"half a wo"}}}}').encode()
    if defect == "OM702":  # a clock that went back five seconds
        return w.model(TextPayload(role="user", text="and another thing"), back=True)
    # OM111: a field this protocol version does not define
    return (f'{{"timestamp":"{w.ts()}","type":"model_msg","payload":{{"type":"text","role":"user",'
            f'"text":"hello","mood":"cheerful"}}}}').encode()


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


def main(argv: list[str] | None = None) -> int:
    """`python -m omnimessage_dev.archive DIR --sessions N`: write an archive and its manifest.json."""
    p = argparse.ArgumentParser(prog="python -m omnimessage_dev.archive", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir")
    p.add_argument("--sessions", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--size", type=int, default=1200, help="longest tool output or answer, in characters")
    args = p.parse_args(argv)
    man = build_archive(args.dir, args.sessions, args.seed, size=args.size)
    Path(args.dir, "manifest.json").write_text(man.to_json() + "\n", encoding="utf-8")
    print(f"{args.dir}: {man.sessions} sessions, {man.files} files, {man.bytes} bytes, "
          f"{len(man.expected)} planted findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
