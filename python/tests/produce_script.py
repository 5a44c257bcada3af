"""The scripted session both bindings drive through their `Session` (issue 25).

`build_script()` writes a whole session as a list of operations, one JSON header line each, then
the message lines it takes: text, thinking with a signature, parallel tools with approvals (an
allow and a deny), a retry, an abort, a summarize compaction (its summary streamed as partials,
its request in the trace only), a model switch (a new context), and a subagent with a grandchild.
`run_script()` replays it through `omnimessage.produce.Session`;
typescript/test/support/produce-script.mjs replays it through the TypeScript `Session`.

Operations: `open` (session, id, parent), `start` (announce), `emit`, `record`, `context` (n
records: the session_meta, then its head), `close`. The session clock (the `subagent` pointer's
timestamp) is the timestamp of the message being handled.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import omnimessage as om
from omnimessage import produce

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "produce" / "scripted-session.ops.jsonl"
MAIN = "session-2026-09-14-16-12-40-0c9d2b6e"
CHILD = "session-2026-09-14-16-14-02-41fe0c8b"
GRANDCHILD = "session-2026-09-14-16-14-03-9a03d5f2"
TOOLS = [om.tool_definition("read_file", "Read a text file in the Workspace.",
                            parameters={"type": "object", "properties": {"path": {"type": "string"}},
                                        "required": ["path"]}),
         om.tool_definition("run_subagent", "Start a child Session on a task.",
                            parameters={"type": "object", "properties": {"prompt": {"type": "string"}}})]


class _Clock:
    def __init__(self) -> None:
        self.ms = 0

    def __call__(self, step: int = 7) -> str:
        self.ms += step
        s, ms = divmod(self.ms, 1000)
        mi, s = divmod(s, 60)
        return f"2026-09-14T08:{12 + mi:02d}:{s:02d}.{ms:03d}Z"


def build_script() -> list[bytes]:
    t = _Clock()
    out: list[bytes] = []

    def op(name: str, session: str, *msgs: om.Message, **extra: Any) -> None:
        out.append(json.dumps({"op": name, "session": session, "n": len(msgs), **extra}).encode())
        out.extend(om.encode(x) for x in msgs)

    def meta(sid: str, model_id: str, prompt: str, source: Any = None) -> om.Message:
        return om.session_meta(session_id=sid, provider="anthropic", model_id=model_id, model_context_window=200000,
                               system_prompt=prompt, agent_state="/home/mira/.penguin/agent_state",
                               workspace="/home/mira/work/tidepool", source=source, timestamp=t())

    def emit(session: str, *msgs: om.Message) -> None:
        for x in msgs:
            op("emit", session, x)

    def stream_text(session: str, parts: list[str], stop: Any = "completed", kind: str = "text") -> None:
        part = om.partial_text if kind == "text" else om.partial_thinking
        emit(session, part("start", "", stop_reason="completed", timestamp=t()))
        for p in parts:
            emit(session, part("delta", p, stop_reason="completed", timestamp=t()))
        emit(session, part("stop", "", stop_reason=stop, timestamp=t()))

    def stream_call(session: str, name: str, call_id: str, parts: list[str]) -> None:
        emit(session, om.partial_tool_call("start", name, "", call_id, stop_reason="completed", timestamp=t()))
        for p in parts:
            emit(session, om.partial_tool_call("delta", "", p, call_id, stop_reason="completed", timestamp=t()))
        emit(session, om.partial_tool_call("stop", "", "", call_id, stop_reason="completed", timestamp=t()),
             om.tool_call(name, "".join(parts), call_id, timestamp=t()))

    def usage(session: str, n: int) -> None:
        c = om.token_counts(cache_read=n, cache_write=100, output=20, total=n + 120)
        emit(session, om.token_usage(c, c, timestamp=t()))

    op("open", "main", id=MAIN, parent=None)
    op("start", "main", meta(MAIN, "claude-opus-5", "You are Penguin.\n"), announce=False)
    op("record", "main", om.user_text("Check the stations file, then summarise the parser issues.", timestamp=t()))
    def mcp() -> list[om.Message]:
        github = om.McpServerResult(server="github", transport="http", status="completed", duration_ms=412, tools=1)
        return [om.mcp_connect_begin(["github"], timestamp=t()),
                om.mcp_connect_end("completed", [github], timestamp=t(412))]

    emit("main", *mcp(), om.tool_list_ready(TOOLS, timestamp=t()))
    # turn 1: thinking (signed), text, two parallel tool calls; one allowed, one denied
    emit("main", om.request_begin(timestamp=t()))
    stream_text("main", ["The stations file ", "is small; read it."], kind="thinking")
    emit("main", om.thinking("The stations file is small; read it.", fidelity={"signature": "EqQBCkYIBxgCKkD+/=="},
                             timestamp=t()))
    stream_text("main", ["Let me look ", "at both files."])
    emit("main", om.assistant_text("Let me look at both files.", timestamp=t()))
    a, b = "toolu_01TnE6vKp3WsQ9cMx2LbRa7H", "toolu_01Gd2pLc8VnX5RqHt3MwZb6K"
    stream_call("main", "read_file", a, ['{"path":"data/', 'stations.csv"}'])
    stream_call("main", "read_file", b, ['{"path":"/etc/passwd"}'])
    emit("main", om.approval_decision("allow", a, timestamp=t()), om.approval_decision("deny", b, timestamp=t()),
         om.tool_call_output("[denied: the user declined this call]", b, stop_reason="aborted", timestamp=t()),
         om.partial_tool_call_output("start", "", a, stop_reason="completed", timestamp=t()))
    usage("main", 1000)
    emit("main", om.request_end("completed", timestamp=t()),
         om.partial_tool_call_output("delta", "id,name,tz\nKEL-04,Kelso,\n", a, stop_reason="completed", timestamp=t()),
         om.partial_tool_call_output("stop", "", a, stop_reason="completed", timestamp=t()),
         om.tool_call_output("id,name,tz\nKEL-04,Kelso,\n", a, timestamp=t()))
    # turn 2: a dropped connection, retried
    emit("main", om.request_begin(timestamp=t()))
    stream_text("main", ["KEL-04 has"], stop="retryable")
    emit("main", om.assistant_text("KEL-04 has", stop_reason="retryable", timestamp=t()),
         om.request_end("retryable", error_code="network", error_message="terminated: other side closed",
                        attempt=1, retry_in_ms=2000, timestamp=t(2000)),
         om.request_begin(timestamp=t()))
    stream_text("main", ["KEL-04 has no timezone."])
    emit("main", om.assistant_text("KEL-04 has no timezone.", timestamp=t()))
    usage("main", 2000)
    emit("main", om.request_end("completed", attempt=2, timestamp=t()))
    # turn 3: the user aborts mid-thought
    op("record", "main", om.user_text("Now the parser issues.", timestamp=t(5000)))
    emit("main", om.request_begin(timestamp=t()))
    stream_text("main", ["Two issues: "], stop="aborted", kind="thinking")
    emit("main", om.thinking("Two issues: ", stop_reason="aborted", timestamp=t()),
         om.request_end("aborted", attempt=1, timestamp=t()), om.abort("user_abort", timestamp=t()))
    # a summarize compaction: the summary streams as partials; its request lives in the trace only
    emit("main", om.compaction_begin("context", "summarize", 3000, 3, timestamp=t()))
    op("record", "main", om.user_text("Summarise the conversation so far.", timestamp=t()))
    op("record", "main", om.request_begin(timestamp=t()))
    summary = "[summary]\nKEL-04 lacks a timezone; the parser issues are pending.\n[/summary]"
    stream_text("main", [summary[:30], summary[30:]])
    op("record", "main", om.assistant_text(summary, timestamp=t()))
    usage("main", 3000)
    op("record", "main", om.request_end("completed", timestamp=t()))
    emit("main", om.compaction_end("context", "summarize", "completed", attempt=1, timestamp=t()))
    op("context", "main", meta(MAIN, "claude-opus-5", "You are Penguin (context 2).\n"), *mcp(),
       om.tool_list_ready(TOOLS, timestamp=t()))
    op("record", "main", om.user_text("[context_summary]\nKEL-04 lacks a timezone.\n[/context_summary]", timestamp=t()))
    op("record", "main", om.user_text("Thanks. Switch to the faster model.", timestamp=t(9000)))
    # a model switch: a new context, rotated again
    op("context", "main", meta(MAIN, "claude-haiku-5", "You are Penguin (haiku).\n"),
       om.tool_list_ready(TOOLS, timestamp=t()))
    op("record", "main", om.user_text("Have a helper audit the stations table.", timestamp=t()))
    emit("main", om.request_begin(timestamp=t()))
    s = "toolu_01RsU8wHc5NpQ2kXz7LbTm4E"
    stream_call("main", "run_subagent", s, ['{"prompt":"Audit the stations table."}'])
    emit("main", om.approval_decision("allow", s, timestamp=t()),
         om.partial_tool_call_output("start", "", s, stop_reason="completed", timestamp=t()))
    usage("main", 4000)
    emit("main", om.request_end("completed", timestamp=t()))
    # the subagent (its own trace; its stream forwarded with origin), which starts a grandchild
    op("open", "child", id=CHILD, parent="main")
    op("start", "child", meta(CHILD, "claude-sonnet-5", "You are a subagent.\n", "subagent"), announce=True)
    emit("child", om.user_text("Audit the stations table.", sender="parent_agent", timestamp=t()),
         om.tool_list_ready(TOOLS, timestamp=t()), om.request_begin(timestamp=t()))
    g = "toolu_01HkV4yNq7TcB2sWm9ReZf3D"
    stream_call("child", "run_subagent", g, ['{"prompt":"Count rows."}'])
    emit("child", om.approval_decision("allow", g, timestamp=t()),
         om.partial_tool_call_output("start", "", g, stop_reason="completed", timestamp=t()))
    usage("child", 500)
    emit("child", om.request_end("completed", timestamp=t()))
    op("open", "grandchild", id=GRANDCHILD, parent="child")
    op("start", "grandchild", meta(GRANDCHILD, "claude-haiku-5", "Answer tersely.\n", "subagent"), announce=True)
    emit("grandchild", om.user_text("Count rows.", sender="parent_agent", timestamp=t()),
         om.request_begin(timestamp=t()))
    stream_text("grandchild", ["2 rows."])
    emit("grandchild", om.assistant_text("2 rows.", timestamp=t()))
    usage("grandchild", 100)
    emit("grandchild", om.request_end("completed", timestamp=t()))
    op("close", "grandchild")
    emit("child", om.partial_tool_call_output("delta", "2 rows.", g, stop_reason="completed", timestamp=t()),
         om.partial_tool_call_output("stop", "", g, stop_reason="completed", timestamp=t()),
         om.tool_call_output("2 rows.", g, timestamp=t()), om.request_begin(timestamp=t()))
    stream_text("child", ["KEL-04 and KEL-09 lack a timezone."])
    emit("child", om.assistant_text("KEL-04 and KEL-09 lack a timezone.", timestamp=t()))
    usage("child", 900)
    emit("child", om.request_end("completed", timestamp=t()))
    op("close", "child")
    done = "KEL-04 and KEL-09 lack a timezone."
    emit("main", om.partial_tool_call_output("delta", done, s, stop_reason="completed", timestamp=t()),
         om.partial_tool_call_output("stop", "", s, stop_reason="completed", timestamp=t()),
         om.tool_call_output(done, s, timestamp=t()), om.request_begin(timestamp=t()))
    stream_text("main", ["Two stations ", "lack a timezone: KEL-04 and KEL-09 ✓"])
    emit("main", om.assistant_text("Two stations lack a timezone: KEL-04 and KEL-09 ✓", timestamp=t()))
    usage("main", 5000)
    emit("main", om.request_end("completed", timestamp=t()))
    op("close", "main")
    return out


def iter_ops(lines: list[bytes]) -> Iterator[tuple[dict[str, Any], list[om.Message]]]:
    i = 0
    while i < len(lines):
        header = json.loads(lines[i])
        n = header["n"]
        yield header, [om.decode(x) for x in lines[i + 1:i + 1 + n]]
        i += 1 + n


def run_script(lines: list[bytes], root: str | os.PathLike[str], *, sse: produce.SseChannel | None = None,
               fsync: bool = False) -> bytes:
    """Replay the script; the trace goes under `root`; returns the main session's stream."""
    stream: list[bytes] = []
    now = [""]
    sessions: dict[str, produce.Session] = {}
    for header, msgs in iter_ops(lines):
        name = header["session"]
        if msgs:
            now[0] = msgs[0].timestamp
        if header["op"] == "open":
            writer = produce.TraceWriter(root, header["id"], fsync=fsync)
            if header["parent"] is None:
                sessions[name] = produce.Session(writer, sse, stream=stream.append, clock=lambda: now[0])
            else:
                sessions[name] = sessions[header["parent"]].child(writer)
        elif header["op"] == "start":
            sessions[name].start(msgs[0], announce=header["announce"])  # type: ignore[arg-type]
        elif header["op"] == "emit":
            sessions[name].emit(msgs[0])
        elif header["op"] == "record":
            sessions[name].record(msgs[0])
        elif header["op"] == "context":
            sessions[name].new_context(msgs[0], *msgs[1:])  # type: ignore[arg-type]
        elif header["op"] == "close":
            sessions[name].close()
        else:
            raise ValueError(f"unknown op {header['op']!r}")
    return b"".join(stream)


if __name__ == "__main__":
    SCRIPT.parent.mkdir(parents=True, exist_ok=True)
    SCRIPT.write_bytes(b"".join(x + b"\n" for x in build_script()))
    print(f"wrote {SCRIPT}")
