// omnimessage/consume (issue 31): the render model on hand-built streams: segments growing and
// replaced in place, interleaved tools, nested cards at their first message, the compaction
// summary left as a closed segment, resync, bounds.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as om from "omnimessage";
import { RenderLimitError, RenderModel } from "omnimessage/consume";

let ms = 0;
const T = () => ({ timestamp: `2026-09-14T08:12:${String(10 + Math.floor(++ms / 1000)).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}Z` });
const line = (m) => om.encode(m);
const feed = (model, ...msgs) => {
  for (const m of msgs) {
    const raw = line(m);
    model.apply({ kind: "message", id: "", raw, message: om.decode(raw) });
  }
};
const seg = (type, tool_call_id, text, open) => ({ segment: { type, tool_call_id, text, open } });

describe("RenderModel", () => {
  test("a thinking segment grows, then its complete message (with fidelity) takes its place", () => {
    const m = new RenderModel();
    const user = om.userText("Check it.", T());
    feed(m, user, om.partialThinking("start", "", T()), om.partialThinking("delta", "The file ", T()));
    assert.deepEqual(m.snapshot(), { origin: [], items: [{ message: line(user) }, seg("partial_thinking", null, "The file ", true)] });
    feed(m, om.partialThinking("delta", "is small.", T()), om.partialThinking("stop", "", T()));
    assert.deepEqual(m.snapshot().items[1], seg("partial_thinking", null, "The file is small.", false));
    const done = om.thinking("The file is small.", { fidelity: { signature: "EqQB==" }, ...T() });
    const after = om.assistantText("Done.", T());
    feed(m, done, after);
    assert.deepEqual(m.snapshot(), { origin: [], items: [{ message: line(user) }, { message: line(done) }, { message: line(after) }] });
  });

  test("interleaved tool segments keep their places; each complete message replaces its own", () => {
    const m = new RenderModel();
    const a = "toolu_a", b = "toolu_b";
    feed(m, om.partialToolCall("start", "read_file", "", a, T()), om.partialToolCall("start", "grep", "", b, T()),
      om.partialToolCall("delta", "", '{"path":', a, T()), om.partialToolCall("delta", "", '{"q":1}', b, T()),
      om.partialToolCall("delta", "", '"x"}', a, T()));
    assert.deepEqual(m.snapshot().items, [seg("partial_tool_call", a, '{"path":"x"}', true), seg("partial_tool_call", b, '{"q":1}', true)]);
    assert.equal(m.root.items[0].segment.name, "read_file");
    feed(m, om.partialToolCall("stop", "", "", b, T()));
    const callB = om.toolCall("grep", '{"q":1}', b, T());
    feed(m, callB, om.partialToolCall("stop", "", "", a, T()));
    const callA = om.toolCall("read_file", '{"path":"x"}', a, T());
    feed(m, callA);
    assert.deepEqual(m.snapshot().items, [{ message: line(callA) }, { message: line(callB) }]);
    // tool output with images: the segment holds them until its complete message
    feed(m, om.partialToolCallOutput("start", "", a, T()), om.partialToolCallOutput("delta", "ok", a, { images: ["data:image/png;base64,AA=="], ...T() }));
    assert.deepEqual(m.root.items[2].segment.images, ["data:image/png;base64,AA=="]);
    assert.equal(m.root.items[2].segment.text, "ok");
    assert.deepEqual(m.snapshot().items[2], { segment: { type: "partial_tool_call_output", tool_call_id: a, text: "ok", open: true, images: ["data:image/png;base64,AA=="] } });
    m.apply({ kind: "invalid_message", id: "", raw: "[", error: new om.DecodeError("invalid_json", "x") });
    assert.equal(m.snapshot().items.length, 3);
  });

  test("cards nest by origin, outer to inner, each where its first message arrived", () => {
    const m = new RenderModel();
    const r1 = om.userText("go", T());
    const c1 = om.withOrigin(om.userText("child task", { sender: "parent_agent", ...T() }), "child");
    const r2 = om.assistantText("waiting", T());
    const g1 = om.withOrigin(om.withOrigin(om.assistantText("grandchild says", T()), "grand"), "child");
    const c2 = om.withOrigin(om.assistantText("child done", T()), "child");
    const x1 = om.withOrigin(om.withOrigin(om.assistantText("deep first", T()), "y"), "x"); // no message of ["x"] before
    feed(m, r1, c1, r2, g1, c2, x1);
    assert.deepEqual(m.snapshot(), {
      origin: [],
      items: [
        { message: line(r1) },
        { card: { origin: ["child"], items: [{ message: line(c1) }, { card: { origin: ["child", "grand"], items: [{ message: line(g1) }] } }, { message: line(c2) }] } },
        { message: line(r2) },
        { card: { origin: ["x"], items: [{ card: { origin: ["x", "y"], items: [{ message: line(x1) }] } }] } },
      ],
    });
    // a child's fragment does not close the parent's segment, and the other way round
    feed(m, om.partialText("start", "", T()), om.withOrigin(om.partialText("start", "", T()), "child"), om.partialText("stop", "", T()),
      om.withOrigin(om.partialText("delta", "hi", T()), "child"));
    const text = om.assistantText("", T());
    feed(m, text);
    assert.deepEqual(m.snapshot().items.at(-1), { message: line(text) });
    assert.deepEqual(m.snapshot().items[1].card.items.at(-1), seg("partial_text", null, "hi", true));
  });

  test("a stop not followed by its complete message (the compaction summary) leaves a closed segment", () => {
    const m = new RenderModel();
    const begin = om.compactionBegin("context", "summarize", 3000, 3, T());
    const end = om.compactionEnd("context", "summarize", "completed", { attempt: 1, ...T() });
    const user = om.userText("next", T());
    feed(m, begin, om.partialText("start", "", T()), om.partialText("delta", "[summary]", T()), om.partialText("stop", "", T()), end, user);
    assert.deepEqual(m.snapshot().items, [{ message: line(begin) }, seg("partial_text", null, "[summary]", false), { message: line(end) }, { message: line(user) }]);
    // a later text segment is a new one; its complete replaces it, not the closed one
    const reply = om.assistantText("ok", T());
    feed(m, om.partialText("start", "", T()), om.partialText("delta", "ok", T()), om.partialText("stop", "", T()), reply);
    assert.deepEqual(m.snapshot().items.slice(1), [seg("partial_text", null, "[summary]", false), { message: line(end) }, { message: line(user) }, { message: line(reply) }]);
  });

  test("resync drops everything; other events change nothing", () => {
    const m = new RenderModel();
    feed(m, om.userText("a", T()));
    const v = m.version;
    m.apply({ kind: "server_event", id: "1", name: "server_event", data: "{}" });
    m.apply({ kind: "reconnect", attempt: 1, delay: 0, lastEventId: "1", reason: "end" });
    assert.equal(m.version, v);
    m.apply({ kind: "resync", id: "2" });
    assert.deepEqual(m.snapshot(), { origin: [], items: [] });
    assert.equal(m.bytes, 0);
  });

  test("bounds: segment bytes, nesting depth, total bytes; the model is unchanged after a refusal", () => {
    const m = new RenderModel({ maxSegmentBytes: 10, maxDepth: 2, maxBytes: 400 });
    feed(m, om.partialText("start", "", T()), om.partialText("delta", "ééééé", T())); // 10 bytes
    const before = JSON.stringify(m.snapshot());
    assert.throws(() => feed(m, om.partialText("delta", "x", T())), RenderLimitError);
    assert.throws(() => feed(m, om.withOrigin(om.withOrigin(om.withOrigin(om.userText("deep", T()), "c"), "b"), "a")), /3 deep/);
    assert.throws(() => feed(m, om.userText("x".repeat(400), T())), /more than 400 bytes/);
    assert.equal(JSON.stringify(m.snapshot()), before);
    assert.equal(m.bytes, 10);
  });
});
