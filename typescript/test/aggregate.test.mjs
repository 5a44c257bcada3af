import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as om from "../dist/index.js";

const at = { timestamp: "2026-07-18T03:10:22.531Z" };
const feedAll = (agg, msgs) => msgs.flatMap((m) => agg.feed(m));
const types = (msgs) => msgs.map((m) => m.payload.type);

describe("Aggregator", () => {
  test("fragments are absorbed; the producer's complete message (with fidelity) comes through", () => {
    const agg = new om.Aggregator();
    const complete = om.assistantText("Hello", { ...at, fidelity: { sig: "x" } });
    const out = feedAll(agg, [
      om.requestBegin(at),
      om.partialText("start", "", at),
      om.partialText("delta", "Hel", at),
      om.partialText("delta", "lo", at),
      om.partialText("stop", "", at),
      complete,
      om.requestEnd("completed", at),
    ]);
    assert.deepEqual(types(out), ["request_begin", "text", "request_end"]);
    assert.equal(out[1], complete);
    assert.deepEqual(agg.mismatches, []);
    assert.deepEqual(agg.finish(), []);
  });

  test("a segment the producer never completed is assembled in its place", () => {
    const agg = new om.Aggregator();
    const out = feedAll(agg, [
      om.partialThinking("start", "a", at),
      om.partialThinking("delta", "b", at),
      om.partialThinking("stop", "c", { ...at, stopReason: "retryable" }),
      om.requestEnd("retryable", at),
    ]);
    assert.deepEqual(types(out), ["thinking", "request_end"]);
    assert.deepEqual(out[0].payload, { type: "thinking", role: "assistant", thinking: "abc", stop_reason: "retryable" });
  });

  test("interleaved tool segments are keyed by tool_call_id; images are the whole set", () => {
    const agg = new om.Aggregator();
    const out = feedAll(agg, [
      om.partialToolCall("start", "ls", "", "A", at),
      om.partialToolCall("start", "cat", "", "B", at),
      om.partialToolCall("delta", "ls", '{"p":', "A", at),
      om.partialToolCall("delta", "cat", '{"f":1}', "B", at),
      om.partialToolCall("delta", "ls", '"."}', "A", at),
      om.partialToolCall("stop", "ls", "", "A", at),
      om.toolCall("ls", '{"p":"."}', "A", at),
      om.partialToolCall("stop", "cat", "", "B", at),
      om.partialToolCallOutput("delta", "out", "A", { ...at, images: ["img"] }),
      om.partialToolCallOutput("stop", "", "A", at),
    ]);
    assert.deepEqual(types(out), ["tool_call"]);
    assert.equal(agg.open.size, 0);
    const rest = agg.finish();
    assert.deepEqual(
      rest.map((m) => m.payload),
      [
        { type: "tool_call", role: "assistant", name: "cat", arguments: '{"f":1}', tool_call_id: "B", stop_reason: "completed" },
        { type: "tool_call_output", role: "user", output: "out", images: ["img"], tool_call_id: "A", stop_reason: "completed" },
      ],
    );
  });

  test("origins keep subagent streams apart; unclosed segments end aborted", () => {
    const agg = new om.Aggregator();
    const child = (m) => om.withOrigin(m, "child");
    feedAll(agg, [om.partialText("start", "main ", at), child(om.partialText("start", "child ", at)), om.partialText("delta", "text", at)]);
    assert.equal(agg.open.size, 2);
    assert.deepEqual([...agg.open.values()].map((s) => s.text).sort(), ["child ", "main text"]);
    const rest = agg.finish();
    assert.deepEqual(rest.map((m) => [m.payload.text, m.payload.stop_reason, m.origin]), [["main text", "aborted", undefined], ["child ", "aborted", ["child"]]]);
  });

  test("a complete message that disagrees with its fragments is recorded", () => {
    const agg = new om.Aggregator();
    feedAll(agg, [
      om.partialToolCallOutput("delta", "abc", "A", { ...at, images: ["i"] }),
      om.partialToolCallOutput("stop", "", "A", at),
      om.toolCallOutput("abX", "A", at),
    ]);
    assert.equal(agg.mismatches.length, 2);
    assert.deepEqual(agg.mismatches.map(([, f]) => f), ["output", "images"]);
  });

  test("a surrogate pair split between two deltas joins up again (UTF-16)", () => {
    // A tool output cut mid-pair by a JavaScript producer, decoded from the wire.
    const head = `{"timestamp":"${at.timestamp}","type":"model_msg","payload":`;
    const part = (ev, frag) => om.decode(`${head}{"type":"partial_tool_call_output","role":"user","event_type":"${ev}","output":"${frag}","tool_call_id":"c"}}`);
    const stream = [part("start", ""), part("delta", "abc\\ud83d"), part("delta", "\\ude00def \\ud83d"), part("stop", "\\ude01")];
    const complete = om.decode(`${head}{"type":"tool_call_output","role":"user","output":"abc😀def 😁","tool_call_id":"c"}}`);

    const agg = new om.Aggregator();
    feedAll(agg, stream.slice(0, 2));
    assert.equal([...agg.open.values()][0].text, "abc\ud83d");
    assert.deepEqual(feedAll(agg, [...stream.slice(2), complete]), [complete]);
    assert.deepEqual(agg.mismatches, []);

    const lost = new om.Aggregator();
    const out = [...feedAll(lost, stream), ...lost.finish()];
    assert.equal(out.length, 1);
    assert.equal(out[0].payload.output, "abc😀def 😁");
    assert.equal(om.encode(out[0]), `${head}{"type":"tool_call_output","role":"user","output":"abc😀def 😁","tool_call_id":"c","stop_reason":"completed"}}`);
  });

  test("events, session_meta and opaque messages pass through", () => {
    const agg = new om.Aggregator();
    const opaque = om.decode('{"timestamp":"t","type":"future_msg","payload":{}}', { lenient: true });
    const msgs = [om.subagent("s", at), opaque];
    assert.deepEqual(feedAll(agg, msgs), msgs);
  });
});
