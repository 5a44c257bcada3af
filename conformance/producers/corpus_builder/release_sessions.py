# ruff: noqa: E501  (long and non-ASCII data literals are the point of this corpus)
"""Sessions written by other releases of the reference: old spellings, and a newer producer."""

from __future__ import annotations

from .material import EDIT_FILE, EXEC_COMMAND, MCP_TOOLS, READ_FILE, TOOLS, new_session
from .payloads import compaction_begin, compaction_end, counts, mcp_result, partial_text, text
from .session import Session


def legacy_0_1_1() -> Session:
    """Releases 0.0.1-0.1.1: session_meta carries `tools` and `thinking_level`; five stop reasons
    (a timeout retried in-run with a bare request_end, a failed tool); abort.reason prose; a
    compaction rotating to a file that opens with session_meta alone."""
    s = new_session("session-2026-07-22-15-04-10-2ab94c7e", "2026-07-22T07:04:10.118Z",
                    provider="deepseek", model_id="deepseek-v4-flash", window=1000000, source=None,
                    legacy_meta={"tools": [READ_FILE, EXEC_COMMAND], "thinking_level": "default"})
    s.write_meta()
    s.user_input("What's in the README?", 2200)
    s.begin(5)
    s.stream_text(["Let me"], gap=400, stop_reason="timeout")
    s.end(3, "timeout")
    s.begin(260)
    r = "call_00_Jx2kT9bVn4MqLs7e"
    s.stream_tool_call("read_file", r, ['{"path":"README.md"}'])
    s.approve(r, "allow", 9)
    s.run_tool(r, ["[tool error] ENOENT: no such file or directory, open 'README.md'"], gap=12, stop_reason="failed")
    s.usage(counts(0, 6100, 20, 6120), 100)
    s.end(2)
    s.begin(20)
    s.stream_text(["There is no README.md in the Workspace."], gap=80)
    s.usage(counts(6100, 90, 11, 6201), 90)
    s.end(2)
    s.event(compaction_begin("turns", "summarize", 6201, 2), 3)
    s.user_input("Summarize the conversation in <summary></summary> tags.", 1)
    s.begin(2, stream=False)
    s.model(text("assistant", "<summary>The user asked for the README; none exists.</summary>"), 1810, stream=False)
    s.usage(counts(6201, 0, 14, 6215), 3, stream=False)   # 0.1.x: only the compaction pair streams
    s.end(2, stream=False)
    s.event(compaction_end("turns", "summarize", "completed"), 2)
    meta = s.meta
    s.rotate(lambda: [meta])                  # the same session_meta message, rewritten as is
    summary = s.msg("model_msg", text("user", "<context_summary>\nThe user asked for the README; none exists.\n</context_summary>"), 1)
    s.clock.tick(30000)
    s.emit(summary, stream=False)
    s.user_input("ok, list the files then", 1)
    s.begin(4)
    ls = "call_00_Pq8nW3cZr5XtHv1a"
    s.stream_tool_call("exec_command", ls, ['{"cmd":"ls"}'])
    s.approve(ls, "allow", 2200)
    s.usage(counts(0, 5900, 12, 5912), 60)
    s.end(2)
    s.run_tool(ls, ["package.json\nsrc\nvite.config.ts\n"], gap=40)
    s.begin(30)
    s.stream_text(["The Workspace holds `package.json`, "], gap=300, stop_reason="aborted")
    s.end(4, "aborted")
    s.event({"type": "abort", "reason": "aborted by user"}, 2)
    return s


def legacy_0_2_0() -> Session:
    """Releases 0.1.3-0.2.0: session_meta carries `tools`; request_end carries `message` and
    `retry_in_ms` (no attempt); `malformed` and `auth`; goal mode's `goal_finished` event;
    abort.reason prose; rotation to a file opening with session_meta alone."""
    s = new_session("session-2026-08-03-18-44-02-6c0f1a93", "2026-08-03T10:44:02.004Z",
                    provider="qianwenai", model_id="deepseek-v4-flash", window=1000000, source=None,
                    legacy_meta={"tools": [READ_FILE, EXEC_COMMAND, EDIT_FILE]})
    s.write_meta()
    # goal mode yields each round's input onto the stream and the engine writes it (session.ts)
    s.model(text("user", "[goal]\nObjective: bump the version to 0.4.2.\nRound 1.\n[/goal]"), 1300)
    s.begin(6)
    s.end(5012, "malformed", legacy_message="Unexpected end of JSON input", retry_in_ms=250)
    s.begin(252)
    e = "call_00_Ud6xM1pRk9VsBn3c"
    s.stream_tool_call("edit_file", e, ['{"path":"package.json","old_string":"0.4.1","new_string":"0.4.2"}'])
    s.approve(e, "allow", 8)
    s.run_tool(e, ["Edited package.json (1 replacement)\n"], gap=20)
    s.usage(counts(0, 7200, 48, 7248), 100)
    s.end(2)
    s.begin(20)
    s.stream_text(["Version bumped to 0.4.2."], gap=60)
    s.usage(counts(7200, 120, 8, 7336), 80)
    s.end(2)
    s.event({"type": "goal_finished", "outcome": "complete", "rounds": 1, "tokens_used": 7384}, 140)
    s.event(compaction_begin("manual", "summarize", 7336, 2), 61000)
    s.user_input("Summarize the conversation in <summary></summary> tags.", 1)
    s.begin(2, stream=False)
    s.model(text("assistant", "<summary>Version bumped to 0.4.2 in package.json.</summary>"), 1500, stream=False)
    s.usage(counts(7336, 0, 13, 7349), 3, stream=False)   # compaction usage streams from 0.2.1
    s.end(2, stream=False)
    s.event(compaction_end("manual", "summarize", "completed"), 2)
    meta = s.meta
    s.rotate(lambda: [meta])
    summary = s.msg("model_msg", text("user", "[context_summary]\nVersion bumped to 0.4.2 in package.json.\n[/context_summary]"), 1)
    s.clock.tick(20000)
    s.emit(summary, stream=False)
    s.user_input("Publish it.", 1)
    s.begin(4)
    s.end(640, "auth", legacy_message="401 Unauthorized: invalid x-api-key")
    s.event({"type": "abort", "reason": "llm request error: 401 Unauthorized: invalid x-api-key"}, 2)
    return s


def legacy_0_2_4() -> Session:
    """Releases 0.2.2-0.2.4: session_meta without tools; MCP connect pair (a failed server with the
    per-server `error` field, overall `failed`) and tool_list_ready after the input; request_end
    with error_message/attempt/retry_in_ms under the six stop reasons; a `forbidden` approval and
    `sender` (0.2.4); goal_finished; abort.reason prose; rotation to a file opening with the
    session's original session_meta and tool_list_ready messages, rewritten with their old
    timestamps."""
    s = new_session("session-2026-08-22-09-15-48-f03b7c2a", "2026-08-22T01:15:48.512Z",
                    provider="deepseek", model_id="deepseek-v4-flash-vision-exp", window=1000000, source=None)
    s.write_meta()
    goal = "[goal]\nObjective: get `pnpm build` green.\nRound 1.\n[/goal]"
    s.model(text("user", goal), 1402)          # goal rounds yield their input and write it
    s.event({"type": "mcp_connect_begin", "servers": ["github", "sentry"]}, 5)
    s.event({"type": "mcp_connect_end", "status": "failed",
             "results": [mcp_result("github", "http", "completed", 501, tools=2),
                         mcp_result("sentry", "sse", "failed", 10004,
                                    legacy_error="SSE error: Non-200 status code (404)")]}, 10010)
    toolset = TOOLS + MCP_TOOLS[:2]
    tools_msg = s.tool_list(toolset, 3)
    s.begin(5)
    s.end(30100, "timeout", error_message="LLM stream idle for 30000ms", attempt=1, retry_in_ms=2000)
    s.begin(2002)
    b = "call_00_Ha4nR7wQc1ZkTx8m"
    s.stream_tool_call("exec_command", b, ['{"cmd":"pnpm build"}'])
    s.approve(b, "allow", 6)
    s.run_tool(b, ["vite v7.1.2 building for production...\nerror TS2345: Argument of type 'string' is not assignable\n"],
               gap=2400, stop_reason="failed", note="[exit code 2]")
    f = "call_01_Nb5sP2eVy8LqWc3d"
    s.usage(counts(0, 11800, 40, 11840), 90)
    s.end(2, attempt=2)
    s.begin(20)
    s.stream_tool_call("exec_command", f, ['{"cmd":"git reset --hard HEAD~3"}'])
    s.approve(f, "forbidden", 3)
    s.usage(counts(11800, 600, 30, 12430), 90)
    s.end(2)
    s.begin(22)
    s.stream_text(["The build fails on a type error in src/tide.ts:88; I won't rewrite history to hide it."], gap=70)
    s.usage(counts(12400, 200, 21, 12621), 80)
    s.end(2)
    s.event({"type": "goal_finished", "outcome": "blocked", "rounds": 1, "tokens_used": 35391}, 120)
    s.model(text("user", "Fix the type error then.", sender="harness"), 45000, stream=False)
    s.begin(5)
    s.end(1800, "failed", error_message="503 Service Unavailable", attempt=1, retry_in_ms=2000)
    s.event({"type": "abort", "reason": "aborted during reconnect backoff"}, 900)
    s.event(compaction_begin("manual", "summarize", 12621, 5), 30000)
    s.user_input("Summarize the conversation inside [summary]…[/summary].", 1)
    s.begin(2, stream=False)
    s.model(partial_text("start"), 800, trace=False)
    s.model(partial_text("delta", "[summary]\npnpm build fails on a TS2345 in src/tide.ts:88.\n[/summary]"), 300, trace=False)
    s.model(partial_text("stop"), 40, trace=False)
    s.model(text("assistant", "[summary]\npnpm build fails on a TS2345 in src/tide.ts:88.\n[/summary]"), 1, stream=False)
    s.usage(counts(12600, 0, 22, 12622), 3)
    s.end(2, stream=False)
    s.event(compaction_end("manual", "summarize", "completed", attempt=1), 2)
    meta = s.meta
    s.rotate(lambda: [meta, tools_msg])         # session.ts: the same message objects, old timestamps
    summary = s.msg("model_msg", text("user", "[context_summary]\npnpm build fails on a TS2345 in src/tide.ts:88.\n[/context_summary]"), 1)
    s.clock.tick(12000)
    s.emit(summary, stream=False)
    s.user_input("Try once more.", 1)
    s.begin(4)
    s.stream_text(["Line 88 passes a station id where a Date is expected; "], gap=90, stop_reason="aborted")
    s.end(2, "aborted", attempt=1)
    s.event({"type": "abort", "reason": "aborted by user"}, 2)
    return s


def legacy_source_benchmark() -> Session:
    """A later release that required `source` and spelled Test Sessions `benchmark` (now `cli`)."""
    s = new_session("session-2026-09-02-08-30-00-81d4e6b2", "2026-09-02T00:30:00.440Z",
                    provider="deepseek", model_id="deepseek-v4-pro", window=1000000, source="benchmark")
    s.write_meta()
    s.user_input("Case tide-07: parse the attached table and print the high waters.", 800)
    s.tool_list(TOOLS, 25)
    s.begin(4)
    s.stream_text(["High waters: 05:12 (2.9 m), 17:40 (3.1 m)."], gap=90)
    s.usage(counts(0, 5120, 18, 5138), 80)
    s.end(2)
    return s


def newer_producer() -> Session:
    """A newer producer: `reported_cost` on token_usage (the reference's tokenUsage builder),
    prompt-prefix statistics on request_begin and an event type this protocol does not define
    (both INVENTED stand-ins: the reference source has neither)."""
    s = new_session("session-2026-10-06-09-12-55-4b8e2f71", "2026-10-06T01:12:55.118Z",
                    provider="coding-agent", model_id="priced", window="unknown")
    s.write_meta()
    s.user_input("one", 1200)
    s.tool_list(TOOLS, 25)
    s.begin(4, extra={"prefix_tokens": 10112, "prefix_reused": True})
    s.stream_text(["Done with one."], gap=80)
    s.usage(counts(10, 0, 20, 130), 90, extra={"reported_cost": {"amount": 0.25, "currency": "USD"}})
    s.end(2)
    s.event({"type": "context_breakdown", "parts": {"system": 5310, "tools": 4802, "history": 2100},
             "window": 262144}, 14)
    s.user_input("two", 5000)
    s.begin(4, extra={"prefix_tokens": 12212, "prefix_reused": True})
    s.stream_text(["Done with two."], gap=80)
    s.usage(counts(10, 0, 20, 130), 90, extra={"reported_cost": {"amount": 0.25, "currency": "USD"}})
    s.end(2)
    return s
