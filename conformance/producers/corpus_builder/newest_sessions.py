# ruff: noqa: E501  (long and non-ASCII data literals are the point of this corpus)
"""Sessions in the newest reference's shape (protocol `next`): request_begin stamped with the
request-prefix fingerprint, compaction streaming its thinking as well as its text, the new
context's records streamed live as it opens, and a model switch ending with the new context's
session_meta on the main stream.

`Prefix` re-states the fingerprint's facts (llm/request-fingerprint.ts): the payloads of the
context's head (its session_meta and tool_list_ready) come first, then its other records (an MCP
connect pair), the input of committed requests and this request's input, one JSON.stringify text
per line; `prefix_hash` and `prefix_head_hash` are the first 32 hex digits of a sha256 of the
whole and of the head, `prefix_chars` the UTF-16 length, `prefix_extends_prev` whether the text
starts with the previous request's (absent on a context's first request), `prefix_thinking_level`
the level pinned for the request, whenever one is pinned: on a compaction request too. A
compaction request is stamped but keeps the baseline (`keepBaseline`); a completed attempt's input
joins the committed input; a new context starts the chain over (`startNewContext`).

Also the newest builders and engine (search index ids 68603818276, 69336790305): `token_usage`
may carry `reported_cost {amount, currency}` after `request` (`tokenUsage(session, request,
reportedCost)`), and a compaction request's `request_end` is built without `error_code`: a failed
attempt carries `error_message`, `attempt` and `retry_in_ms` alone (`runCompactionRequest`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from .js_json import stringify
from .material import MCP_TOOLS, PROMPT, TOOLS, new_session
from .payloads import (
    Payload,
    chunks,
    compaction_begin,
    compaction_end,
    counts,
    mcp_result,
    partial_text,
    partial_thinking,
    text,
    thinking,
)
from .session import Session


def _utf16_len(s: str) -> int:
    return sum(2 if ord(c) > 0xFFFF else 1 for c in s)


class Prefix:
    """The engine's fingerprint state for one context (context-engine.ts fingerprintPrefix)."""

    def __init__(self, meta: dict[str, Any], records: list[dict[str, Any]]) -> None:
        self.meta = meta
        self.records = records
        self.sent: list[dict[str, Any]] = []
        self.baseline: str | None = None

    def stamp(self, inputs: list[dict[str, Any]], *, level: str | None = None, keep_baseline: bool = False) -> Payload:
        head = [self.meta] + [r for r in self.records if r["payload"].get("type") in ("tool_list_ready",)]
        body = [r for r in self.records if r["payload"].get("type") not in ("tool_list_ready",)] + self.sent + inputs
        ser = "\n".join(stringify(m["payload"]) for m in head + body)
        head_ser = "\n".join(stringify(m["payload"]) for m in head)
        digest = lambda t: hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest()[:32]  # noqa: E731
        p: Payload = {"type": "request_begin", "prefix_hash": digest(ser), "prefix_head_hash": digest(head_ser),
                      "prefix_records": len(head) + len(body), "prefix_chars": _utf16_len(ser)}
        if self.baseline is not None:
            p["prefix_extends_prev"] = ser.startswith(self.baseline)
        if level is not None:
            p["prefix_thinking_level"] = level
        if not keep_baseline:
            self.baseline = ser
        return p

    def commit(self, inputs: list[dict[str, Any]]) -> None:
        """A completed request: AgentHub committed its input (`sentInputs`)."""
        self.sent = self.sent + inputs


SERVERS = ["github", "pg"]
SUMMARY_PROMPT = "Summarise the conversation so far for a fresh context. Write it inside [summary]…[/summary]."


def _connect(s: Session, *, stream: bool, trace: bool, durations: tuple[int, int]) -> list[dict[str, Any]]:
    begin = s.event({"type": "mcp_connect_begin", "servers": SERVERS}, 4, stream=stream, trace=trace)
    end = s.event({"type": "mcp_connect_end", "status": "completed",
                   "results": [mcp_result("github", "http", "completed", durations[0], tools=2),
                               mcp_result("pg", "stdio", "completed", durations[1], tools=1)]},
                  durations[1] + 7, stream=stream, trace=trace)
    return [begin, end]


def newest_session() -> Session:
    """A first run (MCP + tools) with two fingerprinted turn requests, the second at a pinned
    thinking level, a provider-reported cost on two token_usage; a summarize compaction whose first
    attempt fails with error_message alone and whose second streams thinking and text (each
    request_begin stamped with the pinned level, trace-only); the new context's MCP pair and tool_list_ready streamed
    right after compaction_end; the next run's first request starts the fingerprint chain over."""
    s = new_session("session-2026-10-12-10-04-31-5be07a3c", "2026-10-12T02:04:31.207Z",
                    provider="anthropic", model_id="claude-opus-5", window=1000000)
    s.write_meta()
    prompt = s.user_input("Why does the tide chart skip Sunday? Check the stations table.", 2100)
    pair = _connect(s, stream=True, trace=True, durations=(402, 1210))
    toolset = TOOLS + MCP_TOOLS
    tools = s.tool_list(toolset, 3)
    fp = Prefix(s.meta, [*pair, tools])
    turn1 = [prompt]
    s.emit(s.msg("event_msg", fp.stamp(turn1), 5))
    s.stream_thinking(["The chart is built per station; ", "a missing row for Sunday would drop the day."], gap=60)
    q = "call_00_Tq8Lw2Zr4Nc6Vb1p"
    s.stream_tool_call("mcp__pg__query", q, ['{"sql":"select day, count(*) from readings ', "where station = 'BRK' group by day\"}"])
    s.approve(q, "allow", 9)
    s.run_tool(q, ["day|count\nMon|24\nTue|24\nWed|24\nThu|24\nFri|24\nSat|24\nSun|0\n"], gap=310)
    s.usage(counts(0, 31200, 91, 31291), 130, extra={"reported_cost": {"amount": 0.4692, "currency": "USD"}})
    s.end(2)
    fp.commit(turn1)
    out = [s.files[-1][-3]]  # the tool_call_output: the next turn's input
    s.emit(s.msg("event_msg", fp.stamp(out, level="high"), 24))
    s.stream_text(["Station BRK has no Sunday readings at all (0 rows): ",
                   "the importer drops the day before it reaches the chart."], gap=80)
    s.usage(counts(31200, 420, 37, 231657), 150)  # over the 200k threshold
    s.end(2)
    fp.commit(out)
    # summarize compaction at the Task boundary; the request streams thinking, then text
    s.event(compaction_begin("context", "summarize", 231657, 2), 6)
    cprompt = s.user_input(SUMMARY_PROMPT, 1)
    # the first attempt fails before any output: its request_end has error_message alone
    s.emit(s.msg("event_msg", fp.stamp([cprompt], level="high", keep_baseline=True), 2), stream=False)
    s.end(30000, "retryable", stream=False, error_message="socket hang up", attempt=1, retry_in_ms=2000)
    s.emit(s.msg("event_msg", fp.stamp([cprompt], level="high", keep_baseline=True), 2000), stream=False)
    reasoning = ["Keep: the BRK station, the missing Sunday rows, ", "the importer as the cause."]
    s.model(partial_thinking("start"), 820, trace=False)
    for part in reasoning:
        s.model(partial_thinking("delta", part), 140, trace=False)
    s.model(partial_thinking("stop"), 40, trace=False)
    s.model(thinking("".join(reasoning)), 1, stream=False)  # partials carried content: complete is trace-only
    summary = ("[summary]\nThe user asked why the tide chart skips Sunday. Station BRK has 0 Sunday rows in "
               "readings (pg); the importer drops the day. Next: find the importer's day filter.\n[/summary]")
    s.model(partial_text("start"), 300, trace=False)
    for part in chunks(summary, 45, 60, 55):
        s.model(partial_text("delta", part), 190, trace=False)
    s.model(partial_text("stop"), 50, trace=False)
    s.model(text("assistant", summary), 1, stream=False)
    s.usage(counts(231000, 0, 141, 231141), 20)
    s.end(2, attempt=2, stream=False)
    s.event(compaction_end("context", "summarize", "completed", attempt=2), 1)
    # startNewContext: the opener's records stream live now; they head the rotated file
    opened_prompt = PROMPT.replace("(Monday)", "(Monday, context 2)")
    meta2 = s.make_meta(opened_prompt, 8)
    pair2 = _connect(s, stream=True, trace=False, durations=(377, 1102))
    tools2 = s.event({"type": "tool_list_ready", "tools": toolset}, 3, trace=False)
    s.rotate(lambda: [meta2, *pair2, tools2])
    fp2 = Prefix(meta2, [*pair2, tools2])
    context_summary = s.msg("model_msg", text("user", "[context_summary]\n" + summary[10:-11] + "\n[/context_summary]"), 64000)
    s.emit(context_summary, stream=False)
    nxt = s.user_input("Find the importer's day filter and fix it.", 2)
    turn3 = [context_summary, nxt]
    s.emit(s.msg("event_msg", fp2.stamp(turn3, level="high"), 6))
    s.stream_text(["The importer's `isWeekday` guard drops Sunday; ", "it should be `isValidDay`."], gap=70)
    s.usage(counts(0, 9400, 28, 9428), 120, extra={"reported_cost": {"amount": 0.0142, "currency": "USD"}})
    s.end(2)
    fp2.commit(turn3)
    return s


def model_switch_session() -> Session:
    """A model switch (session.ts switchModel): a manual summarize compaction on the model being
    left, streaming its thinking (partials, no complete after the stop) and its text whole (no
    partial carried content, so the complete text alone); then the new context on the target
    model: its tool_list_ready and, last, its session_meta without origin on the main stream; its
    trace file opens at once, headed by that meta. The next run's request starts a new chain."""
    s = new_session("session-2026-10-12-11-30-02-9c41d7e0", "2026-10-12T03:30:02.664Z",
                    provider="deepseek", model_id="deepseek-v4-flash", window=1000000)
    s.write_meta()
    prompt = s.user_input("Rename `tideLevel` to `waterLevel` across src/.", 1800)
    tools = s.tool_list(TOOLS, 3)
    fp = Prefix(s.meta, [tools])
    s.emit(s.msg("event_msg", fp.stamp([prompt]), 4))
    s.stream_text(["Renamed in 3 files: src/tide.ts, src/chart.ts, src/api.ts."], gap=90)
    s.usage(counts(0, 6100, 22, 6122), 110)
    s.end(2)
    fp.commit([prompt])
    # /switch-model anthropic claude-opus-5
    s.event(compaction_begin("manual", "summarize", 6122, 1), 41000)
    cprompt = s.user_input(SUMMARY_PROMPT, 1)
    s.emit(s.msg("event_msg", fp.stamp([cprompt], keep_baseline=True), 2), stream=False)
    s.model(partial_thinking("start"), 700, trace=False)
    s.model(partial_thinking("delta", "One change so far: the rename."), 160, trace=False)
    s.model(partial_thinking("stop"), 30, trace=False)
    s.model(thinking("One change so far: the rename."), 1, stream=False)
    summary = "[summary]\nRenamed tideLevel to waterLevel in src/tide.ts, src/chart.ts, src/api.ts.\n[/summary]"
    s.model(text("assistant", summary), 380)  # yielded whole: no partial_text carried content
    s.usage(counts(6100, 0, 40, 6140), 10)
    s.end(2, stream=False)
    s.event(compaction_end("manual", "summarize", "completed", attempt=1), 1)
    s.meta_fields.update(provider="anthropic", model_id="claude-opus-5")
    tools2 = s.event({"type": "tool_list_ready", "tools": TOOLS}, 6, trace=False)
    meta2 = s.make_meta(PROMPT, 2)
    s.emit(meta2, trace=False)  # yielded last: the stream names the model
    s.files.append([meta2, tools2])  # its trace file opens at once, headed by that meta
    fp2 = Prefix(meta2, [tools2])
    context_summary = s.msg("model_msg", text("user", "[context_summary]\n" + summary[10:-11] + "\n[/context_summary]"), 52000)
    s.emit(context_summary, stream=False)
    nxt = s.user_input("Now update the README.", 2)
    turn = [context_summary, nxt]
    s.emit(s.msg("event_msg", fp2.stamp(turn), 5))
    s.stream_text(["README updated: `waterLevel` in the API table."], gap=60)
    s.usage(counts(0, 5900, 15, 5915), 100)
    s.end(2)
    return s
