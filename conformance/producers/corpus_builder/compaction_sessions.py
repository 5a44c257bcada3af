# ruff: noqa: E501  (long and non-ASCII data literals are the point of this corpus)
"""Sessions that compact their context: summarize with rotation, discard without tools."""

from __future__ import annotations

from typing import Any

from .material import MCP_TOOLS, PROMPT, TOOLS, new_session
from .payloads import chunks, compaction_begin, compaction_end, counts, mcp_result, partial_text, text
from .session import Session


def compaction_session() -> Session:
    """MCP + tools; a summarize compaction whose first attempt drops mid-stream and whose second
    streams the summary; rotation to _002 (session_meta, MCP connect pair, tool_list_ready, then
    the summary and the next prompt); a later manual compaction whose LLM yields the complete
    summary text alone (no partials), after which nothing is written (no empty _003)."""
    s = new_session("session-2026-09-14-16-12-40-0c9d2b6e", "2026-09-14T08:12:40.551Z",
                    provider="qianwenai", model_id="qwen3.8-max", window=262144)
    s.write_meta()
    s.user_input("Triage the open issues labelled `parser` and check the stations table.", 2400)
    servers = ["github", "pg"]
    toolset = TOOLS + MCP_TOOLS

    def connect(dt_ms: int) -> None:
        s.event({"type": "mcp_connect_begin", "servers": servers}, dt_ms)
        s.event({"type": "mcp_connect_end", "status": "completed",
                 "results": [mcp_result("github", "http", "completed", 412, tools=2),
                             mcp_result("pg", "stdio", "completed", 1283, tools=1)]}, 1290)

    connect(6)
    s.tool_list(toolset, 3)
    s.begin(5)
    q = "call_00_mB4xQe2nV8rTzL1k"
    s.stream_tool_call("mcp__github__search_issues", q, ['{"q":"repo:mira/tidepool is:open ', 'label:parser"}'])
    s.approve(q, "allow", 10)
    s.run_tool(q, ['[{"number":41,"title":"HW rows dropped"},{"number":44,"title":"LW rows off by one"}]'], gap=640)
    s.usage(counts(0, 30100, 64, 30164), 120)
    s.end(2)
    s.begin(25)
    s.stream_text(["Two open parser issues: #41 (HW rows dropped) and #44 (LW rows off by one). ",
                   "Both come from the header skip in `parseTide`."], gap=90)
    s.usage(counts(30100, 1900, 48, 232048), 140)   # over the 200k context threshold
    s.end(2)
    # summarize compaction at the Task boundary (context-engine.ts summarizeContext)
    s.event(compaction_begin("context", "summarize", 232048, 2), 6)
    s.user_input("Summarise the conversation so far for a fresh context. Write it inside [summary]…[/summary].", 1)
    s.begin(2, stream=False)
    s.model(partial_text("start"), 920, trace=False)
    s.model(partial_text("delta", "[summary]\nThe user asked"), 300, trace=False)
    s.model(partial_text("stop", "", "retryable"), 30000, trace=False)
    s.model(text("assistant", "[summary]\nThe user asked", "retryable"), 1, stream=False)
    s.end(2, "retryable", error_code="network", error_message="terminated: other side closed (UND_ERR_SOCKET)",
          attempt=1, retry_in_ms=2000, stream=False)
    s.begin(2003, stream=False)
    summary = ("[summary]\nThe user asked to triage open `parser` issues of mira/tidepool: #41 (HW rows "
               "dropped) and #44 (LW rows off by one), both caused by the header skip in parseTide. "
               "Next: fix parseTide, then check the stations table in pg.\n[/summary]")
    s.model(partial_text("start"), 880, trace=False)
    for part in chunks(summary, 40, 60, 70):
        s.model(partial_text("delta", part), 210, trace=False)
    s.model(partial_text("stop"), 60, trace=False)
    s.model(text("assistant", summary), 1, stream=False)  # streamed partials: complete is trace-only
    s.usage(counts(232000, 0, 118, 232118), 25)           # every attempt's usage rides the stream
    s.end(2, attempt=2, stream=False)
    context_summary = s.msg("model_msg", text("user", "[context_summary]\n" + summary[10:-11] + "\n[/context_summary]"), 1)
    s.event(compaction_end("context", "summarize", "completed", attempt=2), 1)
    opened_prompt = PROMPT.replace("current date: 2026-09-14 (Monday)", "current date: 2026-09-14 (Monday, context 2)")

    def head() -> list[dict[str, Any]]:
        meta = s.make_meta(opened_prompt, 9)
        begin = s.msg("event_msg", {"type": "mcp_connect_begin", "servers": servers}, 3)
        end = s.msg("event_msg", {"type": "mcp_connect_end", "status": "completed",
                                  "results": [mcp_result("github", "http", "completed", 388, tools=2),
                                              mcp_result("pg", "stdio", "completed", 1175, tools=1)]}, 1180)
        tools = s.msg("event_msg", {"type": "tool_list_ready", "tools": toolset}, 3)
        return [meta, begin, end, tools]

    s.rotate(head)
    # the next run: its first write rotates; the summary (built at compaction end) goes first
    s.clock.tick(65000)
    s.emit(context_summary, stream=False)
    s.stream.extend(m for m in s.files[-1][1:4])   # the new context's connect pair + toolset stream live
    s.user_input("Go ahead and fix parseTide.", 2)
    s.begin(6)
    f = "call_01_Vw7cTn3LxP9aQe5s"
    s.stream_tool_call("edit_file", f, ['{"path":"src/tide.ts","old_string":"rows.slice(1)","new_string":"rows.slice(0)"}'])
    s.approve(f, "allow", 7)
    s.run_tool(f, ["Edited src/tide.ts (1 replacement)\n"], gap=20)
    s.usage(counts(0, 9800, 70, 9870), 130)
    s.end(2)
    s.begin(22)
    s.stream_text(["Fixed: `parseTide` no longer skips the first data row (#41, #44)."], gap=70)
    s.usage(counts(9800, 160, 19, 10046), 120)
    s.end(2)
    # manual compaction; this LLM object yields the complete text only (no partial carried content)
    s.event(compaction_begin("manual", "summarize", 10046, 2), 40210)
    s.user_input("Summarise the conversation so far for a fresh context. Write it inside [summary]…[/summary].", 1)
    s.begin(2, stream=False)
    s.model(text("assistant", "[summary]\nparseTide fixed for #41/#44; stations table not checked yet.\n[/summary]"), 2930)
    s.usage(counts(9984, 0, 31, 10015), 4)
    s.end(2, stream=False)
    s.event(compaction_end("manual", "summarize", "completed", attempt=1), 2)
    opened_again = opened_prompt.replace("context 2", "context 3")
    s.rotate(lambda: [s.make_meta(opened_again, 5)])   # never happens: nothing is written after
    return s


def no_tools_session() -> Session:
    """An agent without tools or MCP: a discard compaction (no request), then rotation; the new
    file opens with session_meta alone, then the next prompt."""
    s = new_session("session-2026-09-14-17-45-09-7d21f08a", "2026-09-14T09:45:09.990Z",
                    provider="openrouter", model_id="moonshotai/kimi-k3", window=256000, agent="haiku_bot",
                    system_prompt="You write one haiku per request. No tools are available.\n")
    s.write_meta()
    s.user_input("A haiku about low tide, please.", 1500)
    s.begin(4)
    s.stream_text(["Low tide — the harbour\n", "shows its ribs of rope and stone;\n", "gulls read what it wrote."], gap=210)
    s.usage(counts(0, 0, 25, 95), 90)
    s.end(2)
    s.event(compaction_begin("turns", "discard", 95, 1), 3)
    s.event(compaction_end("turns", "discard", "completed"), 2)
    # the new context opens now (startNewContext); its file is created at the next write
    opened = s.make_meta("You write one haiku per request. No tools are available.\n", 3)
    s.rotate(lambda: [opened])
    s.clock.tick(86000)
    s.user_input("Another one, about fog.", 1)
    s.begin(5)
    s.stream_text(["Fog on the jetty;\n", "the lighthouse hums its one note\n", "to no one at all."], gap=190)
    s.usage(counts(0, 0, 23, 61), 80)
    s.end(2)
    return s
