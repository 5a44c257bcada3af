// omnimessage/produce (issue 25): TraceWriter, SseChannel, Session, and the scripted session
// served by node:http on loopback.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createServer, get } from "node:http";
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as om from "omnimessage";
import * as produce from "omnimessage/produce";
import { runScript, scriptLines } from "./support/produce-script.mjs";

const SID = "session-2026-09-14-16-12-40-0c9d2b6e";
const ts = "2026-09-14T08:12:41.000Z";
const tmp = () => mkdtempSync(join(tmpdir(), "om-produce-"));
const meta = (modelId = "claude-opus-5") =>
  om.sessionMeta({ sessionId: SID, provider: "anthropic", modelId, modelContextWindow: 200000, systemPrompt: "You are Penguin.\n", agentState: "/a", workspace: "/w", timestamp: "2026-09-14T08:12:40.551Z" });
const SCRIPT = new URL("../../examples/produce/scripted-session.ops.jsonl", import.meta.url);

describe("ids", () => {
  test("session ids and file names in the reference's format", () => {
    const sid = produce.newSessionId(new Date(2026, 8, 14, 16, 12, 40));
    assert.match(sid, /^session-2026-09-14-16-12-40-[0-9a-f]{8}$/);
    assert.equal(produce.sessionDate(sid), "2026-09-14");
    assert.equal(produce.traceFileName(sid, 7), `${sid}_007.jsonl`);
    assert.throws(() => produce.traceFileName(sid, 0), RangeError);
  });
});

describe("TraceWriter", () => {
  test("rotation on a session_meta, the head in the reference's order, refusals", async () => {
    const root = tmp();
    const w = new produce.TraceWriter(root, SID);
    await w.write(meta());
    await w.write(om.userText("hi", { timestamp: ts }));
    assert.equal(w.index, 1);
    const tools = om.toolListReady([om.toolDefinition("read_file", "Read.")], { timestamp: ts });
    await assert.rejects(w.openContext(meta(), tools, om.mcpConnectBegin(["g"], { timestamp: ts })), produce.TraceRefused);
    await w.openContext(meta("claude-haiku-5"), tools);
    assert.equal(w.index, 2);
    await assert.rejects(w.write(om.partialText("delta", "x", { timestamp: ts })), /streaming fragments/);
    await assert.rejects(w.write(om.withOrigin(om.userText("x", { timestamp: ts }), "session-x")), /child session/);
    assert.equal(readFileSync(w.path, "utf8"), `${om.encode(meta("claude-haiku-5"))}\n${om.encode(tools)}\n`);
  });

  test("a torn tail is healed with a line feed; reopening continues the newest file", async () => {
    const root = tmp();
    const w = new produce.TraceWriter(root, SID);
    await w.write(meta());
    await w.write(meta("b"));
    const good = `${om.encode(om.userText("kept", { timestamp: ts }))}\n`;
    writeFileSync(w.path, readFileSync(w.path, "utf8") + good + good.slice(0, 25));
    const again = new produce.TraceWriter(root, SID);
    assert.equal(again.index, 2);
    const line = await again.write(om.userText("after", { timestamp: ts }));
    assert.ok(readFileSync(again.path, "utf8").endsWith(good + good.slice(0, 25) + "\n" + line));
    const third = new produce.TraceWriter(root, SID, { fsync: true });
    await third.write(om.userText("clean", { timestamp: ts }));
    assert.ok(!readFileSync(third.path, "utf8").includes("\n\n"));
  });

  test("concurrent writes never splice records", async () => {
    const root = tmp();
    const w = new produce.TraceWriter(root, SID);
    await w.write(meta());
    const sizes = [1, 7, 4096, 65536, 300 * 1024];
    const lines = await Promise.all(Array.from({ length: 200 }, (_, i) => w.write(om.userText(`${i}-` + "x".repeat(sizes[i % 5]), { timestamp: ts }))));
    const got = readFileSync(w.path, "utf8").split("\n");
    assert.equal(got.length, 202);
    assert.deepEqual(got.slice(1, -1).map((l) => `${l}\n`), lines); // whole, and in call order
  });
});

describe("SseChannel", () => {
  test("ids, frames, a bounded buffer and replay within the epoch", () => {
    const ch = new produce.SseChannel({ maxEvents: 3 });
    assert.match(ch.epoch, /^[0-9a-f]{8}$/);
    assert.notEqual(ch.epoch, new produce.SseChannel().epoch);
    const evts = [1, 2, 3, 4, 5].map((i) => ch.publish(`{"n":${i}}`));
    assert.equal(produce.frame(evts[0]), `data: {"n":1}\nid: ${ch.epoch}-1\n\n`);
    assert.deepEqual(ch.replayAfter(`${ch.epoch}-3`), { hit: true, events: evts.slice(3) });
    assert.equal(ch.replayAfter(`${ch.epoch}-1`).hit, false);
    assert.equal(ch.replayAfter(`0b7e41d5-3`).hit, false);
    const got = [];
    ch.subscribe((e) => got.push(e), "garbage");
    assert.equal(produce.frame(got[0]), `event: server_event\ndata: {"type":"resync_required"}\nid: ${ch.epoch}-6\n\n`);
    const small = new produce.SseChannel({ maxBytes: 10 });
    for (let i = 0; i < 4; i++) small.publish('"abcd"');
    assert.deepEqual(small.replayAfter(`${small.epoch}-3`).events.map((e) => e.seq), [4]);
    assert.throws(() => ch.publish("a\nb"), /one line/);
  });
});

describe("Session", () => {
  test("the discipline is checked before anything is written", async () => {
    const s = new produce.Session();
    await assert.rejects(s.emit(om.partialText("delta", "x", { timestamp: ts })), /never started/);
    await assert.rejects(s.emit(meta()), /opens a context/);
    const t = new produce.Session({ trace: new produce.TraceWriter(tmp(), SID) });
    await t.emit(om.partialText("start", "", { timestamp: ts }));
    await t.emit(om.partialText("delta", "ab", { timestamp: ts }));
    await t.emit(om.partialText("stop", "", { timestamp: ts }));
    await assert.rejects(t.emit(om.assistantText("abc", { timestamp: ts })), /do not join/);
    assert.equal(existsSync(t.trace.path), false);
    const u = new produce.Session();
    await u.emit(om.partialText("start", "", { timestamp: ts }));
    await assert.rejects(u.close(), /never stopped/);
  });

  test("producers that do not await each other: stream, SSE and trace in one order", async () => {
    const lines = [];
    const data = [];
    const sse = new produce.SseChannel();
    sse.subscribe((e) => data.push(`${e.data}\n`));
    const s = new produce.Session({ trace: new produce.TraceWriter(tmp(), SID), sse, stream: (l) => lines.push(l) });
    await s.start(meta());
    await Promise.all(Array.from({ length: 300 }, (_, i) => s.emit(om.userText(`${i}-` + "y".repeat((i * 997) % 70000), { timestamp: ts }))));
    await s.close();
    const trace = readFileSync(s.trace.path, "utf8").split(/(?<=\n)/);
    assert.equal(lines.length, 300);
    assert.deepEqual(trace.slice(1), lines);
    assert.deepEqual(data, lines);
  });

  test("node:http: a client more than maxBytes behind is disconnected", { timeout: 20_000 }, async () => {
    const ch = new produce.SseChannel({ maxBytes: 64 * 1024 });
    const server = createServer(produce.sseHandler(ch));
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const res = await new Promise((resolve) => get({ host: "127.0.0.1", port: server.address().port, path: "/events" }, resolve));
    res.pause(); // a client that does not read
    const ended = new Promise((resolve) => res.on("close", resolve));
    for (let i = 0; i < 2000; i++) ch.publish(`"${i}${"x".repeat(4096)}"`);
    await ended;
    server.close();
  });

  test("the scripted session, served by node:http on loopback", { timeout: 30_000 }, async () => {
    const ch = new produce.SseChannel();
    const server = createServer(produce.sseHandler(ch, { heartbeatMs: 60_000 }));
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address();
    const res = await new Promise((resolve) => get({ host: "127.0.0.1", port, path: "/events" }, resolve));
    assert.equal(res.headers["content-type"], "text/event-stream");
    let capture = "";
    res.setEncoding("utf8");
    res.on("data", (chunk) => (capture += chunk));
    const root = tmp();
    const stream = await runScript(scriptLines(SCRIPT), join(root, "traces"), { sse: ch });
    const lines = stream.split("\n").slice(0, -1);
    while ((capture.match(/\nid: /g) ?? []).length < lines.length) await new Promise((r) => setTimeout(r, 10));
    res.destroy();
    server.close();
    const data = capture.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
    assert.deepEqual(data, lines);
    const ids = capture.split("\n").filter((l) => l.startsWith("id: ")).map((l) => l.slice(4));
    assert.deepEqual(ids, lines.map((_, i) => `${ch.epoch}-${i + 1}`));
    const files = readdirSync(join(root, "traces", "2026-09-14")).sort();
    assert.deepEqual(files.filter((f) => f.startsWith(SID)), [1, 2, 3].map((i) => `${SID}_00${i}.jsonl`));
    assert.equal(files.length, 5);
    writeFileSync(join(root, "capture.sse"), capture);
  });
});
