"""Deterministic benchmark corpora, built with the omnimessage builders (so every line is
canonical) from a seeded generator: the same bytes on every machine for a given scale.

- `trace`: a realistic stored trace: long tool outputs, JSON-string arguments, thinking
  with signature fidelity and encrypted reasoning, base64 images, compaction pairs.
- `stream`: a live stream: partial start/delta/stop fragments with interleaved tools and
  subagent origins, each segment followed by its complete message.
- `small`: many small messages (events, short texts): per-message overhead.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from pathlib import Path

import omnimessage as om

MB = 1 << 20
WORDS = (
    "the of and to in is for on with as by at from that this file line error value function return import "
    "class def const let async await type string number object array null true false self résumé naïve "
    '中文 日本語 😀 ✓ → «quoted» "dq" back\\slash tab\t'
).split(" ")
CODE = [
    'def handler(event):\n    return {"status": 200, "body": json.dumps(event)}\n',
    "for (let i = 0; i < n; i++) {\n  total += values[i] * 2;\n}\n",
    "Traceback (most recent call last):\n  File \"main.py\", line 3, in <module>\nKeyError: 'x'\n",
    "drwxr-xr-x  5 ada ada 4096 Jul 18 03:10 src\n-rw-r--r--  1 ada ada  812 Jul 18 03:10 README.md\n",
]


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.t = 1_752_808_222_000
        self.pool = "".join(self.r.choice(WORDS) + " " for _ in range(200_000))
        self.b64 = base64.b64encode(self.r.randbytes(600_000)).decode()

    def ts(self) -> str:
        self.t += self.r.randint(1, 900)
        s, ms = divmod(self.t, 1000)
        import time

        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + f".{ms:03d}Z"

    def text(self, lo: int, hi: int) -> str:
        n = self.r.randint(lo, hi)
        i = self.r.randrange(0, len(self.pool) - n)
        return self.pool[i : i + n]

    def output(self, lo: int, hi: int) -> str:
        parts = []
        size = self.r.randint(lo, hi)
        while size > 0:
            chunk = self.r.choice(CODE) if self.r.random() < 0.6 else self.text(40, 400) + "\n"
            parts.append(chunk)
            size -= len(chunk)
        return "".join(parts)

    def blob(self, lo: int, hi: int) -> str:
        n = self.r.randint(lo, hi)
        i = self.r.randrange(0, len(self.b64) - n)
        return self.b64[i : i + n]


def _session_head(g: _Gen, sid: str) -> list[om.Message]:
    tools = [
        om.tool_definition(
            f"tool_{k}",
            g.text(40, 200),
            f'{{"type":"object","properties":{{"path":{{"type":"string","description":{json.dumps(g.text(10, 60))}}},'
            f'"limit":{{"type":"integer","minimum":1,"default":100}}}},"required":["path"]}}'.encode(),
        )
        for k in range(g.r.randint(8, 24))
    ]
    return [
        om.session_meta(
            session_id=sid,
            provider="anthropic",
            model_id="claude-sonnet-4-5",
            model_context_window=200000,
            system_prompt=g.text(4000, 12000),
            agent_state="/home/ada/.penguin/agents/default",
            workspace="/home/ada/src/app",
            source="cli",
            timestamp=g.ts(),
        ),
        om.tool_list_ready(tools, timestamp=g.ts()),
    ]


def trace(target_bytes: int, seed: int = 1) -> Iterator[bytes]:
    """One session's trace file: its `session_meta` and tool list, then turns until the size."""
    g = _Gen(seed)
    sid = f"session-2026-07-18-03-10-{seed % 60:02d}-{g.r.getrandbits(32):08x}"
    head = _session_head(g, sid)
    written = 0
    for m in head:
        line = om.encode(m) + b"\n"
        written += len(line)
        yield line
    counts = om.token_counts(cache_read=0, cache_write=0, output=0, total=0)
    turn = 0
    while written < target_bytes:
        turn += 1
        msgs: list[om.Message] = [om.user_text(g.text(20, 600), timestamp=g.ts()), om.request_begin(timestamp=g.ts())]
        sig = f'{{"signature":"{g.blob(200, 1400)}"}}'.encode()
        msgs.append(om.thinking(g.text(200, 3000), fidelity=sig, timestamp=g.ts()))
        calls = [f"toolu_{seed}_{turn}_{k}" for k in range(g.r.randint(0, 3))]
        for cid in calls:
            args = json.dumps({"path": "src/" + g.text(5, 40), "limit": g.r.randint(1, 500)}, ensure_ascii=False)
            msgs.append(om.tool_call(f"tool_{g.r.randint(0, 7)}", args, cid, timestamp=g.ts()))
            msgs.append(om.approval_decision("allow", cid, timestamp=g.ts()))
        if not calls:
            enc = f'{{"phase":"final_answer","encrypted_content":"{g.blob(2000, 10_000)}"}}'.encode()
            msgs.append(om.assistant_text(g.text(100, 4000), fidelity=enc, timestamp=g.ts()))
        msgs.append(om.token_usage(counts, counts, timestamp=g.ts()))
        msgs.append(om.request_end("completed", timestamp=g.ts()))
        for cid in calls:
            images = [f"data:image/png;base64,{g.blob(20_000, 150_000)}"] if g.r.random() < 0.08 else None
            msgs.append(om.tool_call_output(g.output(500, 30_000), cid, images=images, timestamp=g.ts()))
        if g.r.random() < 0.03:
            msgs.append(om.compaction_begin("context", "summarize", 180_000, turn, timestamp=g.ts()))
            msgs.append(om.request_begin(timestamp=g.ts()))
            msgs.append(om.assistant_text(g.text(500, 3000), timestamp=g.ts()))
            msgs.append(om.token_usage(counts, counts, timestamp=g.ts()))
            msgs.append(om.request_end("completed", timestamp=g.ts()))
            msgs.append(om.compaction_end("context", "summarize", "completed", attempt=1, timestamp=g.ts()))
        for m in msgs:
            line = om.encode(m) + b"\n"
            written += len(line)
            yield line


def stream(target_bytes: int, seed: int = 2) -> Iterator[bytes]:
    g = _Gen(seed)
    written = 0
    n = 0
    children: set[str] = set()
    while written < target_bytes:
        n += 1
        origin = None if g.r.random() < 0.7 else [f"session-2026-07-18-03-11-02-{g.r.getrandbits(32):08x}"]
        msgs: list[om.Message] = []
        if origin and origin[0] not in children:  # a child stream opens with the child's session_meta
            children.add(origin[0])
            msgs += _session_head(g, origin[0])[:1]
        msgs.append(om.request_begin(timestamp=g.ts()))
        text = g.text(200, 4000)
        cut = sorted(g.r.sample(range(1, len(text)), k=min(len(text) - 1, g.r.randint(3, 40))))
        pieces = [text[a:b] for a, b in zip([0, *cut], [*cut, len(text)], strict=True)]
        cid = f"toolu_{n}"
        args = json.dumps({"path": "src/" + g.text(5, 30)}, ensure_ascii=False)
        msgs.append(om.partial_text("start", "", timestamp=g.ts()))
        msgs.append(om.partial_tool_call("start", "tool_1", "", cid, timestamp=g.ts()))
        for i, p in enumerate(pieces):
            msgs.append(om.partial_text("delta", p, timestamp=g.ts()))
            if i < 3:
                msgs.append(
                    om.partial_tool_call(
                        "delta", "tool_1", args[i * len(args) // 3 : (i + 1) * len(args) // 3], cid, timestamp=g.ts()
                    )
                )
        msgs.append(om.partial_text("stop", "", timestamp=g.ts()))
        msgs.append(om.assistant_text(text, timestamp=g.ts()))
        msgs.append(om.partial_tool_call("stop", "tool_1", "", cid, timestamp=g.ts()))
        msgs.append(om.tool_call("tool_1", args, cid, timestamp=g.ts()))
        out = g.output(200, 8000)
        msgs.append(om.partial_tool_call_output("start", "", cid, timestamp=g.ts()))
        for k in range(0, len(out), 1024):
            msgs.append(om.partial_tool_call_output("delta", out[k : k + 1024], cid, timestamp=g.ts()))
        msgs.append(om.partial_tool_call_output("stop", "", cid, timestamp=g.ts()))
        msgs.append(om.tool_call_output(out, cid, timestamp=g.ts()))
        counts = om.token_counts(cache_read=1, cache_write=2, output=3, total=6)
        msgs.append(om.token_usage(counts, counts, timestamp=g.ts()))
        msgs.append(om.request_end("completed", timestamp=g.ts()))
        for m in msgs:
            if origin:
                m = om.with_origin(m, origin[0])
            line = om.encode(m) + b"\n"
            written += len(line)
            yield line


def small(target_bytes: int, seed: int = 3) -> Iterator[bytes]:
    g = _Gen(seed)
    written = 0
    while written < target_bytes:
        m = g.r.choice(
            [
                lambda: om.request_begin(timestamp=g.ts()),
                lambda: om.request_end("completed", timestamp=g.ts()),
                lambda: om.approval_decision("allow", f"toolu_{g.r.getrandbits(20)}", timestamp=g.ts()),
                lambda: om.user_text(g.text(5, 60), timestamp=g.ts()),
                lambda: om.partial_text("delta", g.text(1, 12), timestamp=g.ts()),
                lambda: om.token_usage(
                    om.token_counts(total=g.r.randint(0, 10**6)), om.token_counts(), timestamp=g.ts()
                ),
            ]
        )()
        line = om.encode(m) + b"\n"
        written += len(line)
        yield line


GENERATORS = {"trace": (trace, 100), "stream": (stream, 20), "small": (small, 10)}


def ensure(directory: Path, scale: float = 1.0) -> dict[str, Path]:
    """Write each corpus (default sizes x `scale`, in MB) unless a file of that scale exists."""
    directory.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, (gen, mb) in GENERATORS.items():
        path = directory / f"{name}-x{scale:g}.jsonl"
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                for line in gen(int(mb * scale * MB)):
                    f.write(line)
            tmp.replace(path)
        out[name] = path
    return out
