// Issue 32: a message is one line (schema/README.md section 1.5). A raw LF or CR inside a message,
// verbatim values included, is `line_break` (every decoding path, the one-pass reader included);
// builders, encode and the trace writer refuse what would not be one line; the trace writer
// never follows a link planted in its root.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as om from "omnimessage";
import * as produce from "omnimessage/produce";
import { decodeLine } from "../dist/codec.js";

const TS = "2026-09-14T08:12:41.000Z";
const SID = "session-2026-09-14-16-12-40-0c9d2b6e";
const GOOD = '{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}';
const thinking = (fid) => `{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":${fid}}}`;
const FORGED = thinking(`{"signature":\n${GOOD}\n}`);
const tmp = () => mkdtempSync(join(tmpdir(), "om-one-line-"));

const REFUSED = {
  "forged-record-in-fidelity": FORGED,
  "forged-lf-terminated": `${FORGED}\n`,
  "cr-in-fidelity": `${thinking('{"a":1,\r"b":2}')}\r\n`,
  "lf-in-tool-parameters": `{"timestamp":"t","type":"event_msg","payload":{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":{"type":"object",\n"properties":{}}}]}}`,
  "lf-in-hook-output": `{"timestamp":"t","type":"event_msg","payload":{"type":"hook","hook":"stop","name":"h","output":{"a":"b"\n}}}\n`,
  "lf-between-tokens": GOOD.replace('"type":"event_msg"', '"type":\n"event_msg"'),
  "lf-before-object": `\n${GOOD}\n`,
  "cr-in-string": GOOD.replace("request_begin", "request\rbegin"),
  "two-messages": `${GOOD}\n${GOOD}\n`,
  "lf-then-syntax-error": '{"timestamp":\n,}',
};

describe("decode: line_break", () => {
  for (const [name, text] of Object.entries(REFUSED)) {
    test(name, () => {
      const first = Math.min(...[text.indexOf("\n"), text.indexOf("\r")].filter((i) => i >= 0));
      for (const input of [text, new TextEncoder().encode(text)]) {
        for (const onePass of [true, false]) {
          for (const lenient of [false, true]) {
            assert.throws(() => decodeLine(input, { lenient }, onePass), (e) => e instanceof om.DecodeError && e.category === "line_break" && e.pointer === "" && e.offset === first);
          }
        }
      }
    });
  }
  test("line breaks after the value stay JSON whitespace", () => {
    for (const text of [`${GOOD}\r\n`, `${GOOD}\r\r\n`, `${GOOD} \t\r\n`, `${GOOD}\r`, `${GOOD}\n \n`]) {
      assert.equal(om.encode(om.decode(text)), GOOD);
    }
    assert.equal(om.encode(om.decode(`${thinking('{"a":1,\t "b":2}')}\n`)), thinking('{"a":1,\t "b":2}'));
  });
  test("a reader reports the CR-broken record as one refused line", () => {
    const data = new TextEncoder().encode(`${thinking(`{"signature":\r${GOOD}\r}`)}\n${GOOD}\n`);
    assert.deepEqual([...om.iterMessagesSync(data)].map((l) => l.error?.category ?? null), ["line_break", null]);
  });
});

describe("builders and encode refuse what would not be one line", () => {
  test("verbatim text with a raw LF or CR", () => {
    for (const text of ['{"signature":\n"x"}', '{"a":1,\r"b":2}', '\n{"a":1,\n"b":2}\n']) {
      assert.throws(() => om.thinking("ok", { fidelity: text }), /line_break/);
      assert.throws(() => om.hook("stop", "h", { output: text }), /line_break/);
      assert.throws(() => om.toolDefinition("t", "d", text), /line_break/);
      assert.throws(() => om.thinking("ok", { fidelity: { text, parse: () => ({}) } }), /line_break/);
    }
    assert.equal(om.thinking("ok", { fidelity: "{\r\n}" }).payload.fidelity, undefined);
    assert.ok(!om.encode(om.thinking("ok", { fidelity: { s: "a\nb" }, timestamp: TS })).includes("\n"));
  });
  test("encode of a hand-built message", () => {
    const msg = { timestamp: TS, type: "model_msg", payload: { type: "thinking", role: "assistant", thinking: "ok", fidelity: { text: '{"a":\n1}', parse: () => ({}) } } };
    assert.throws(() => om.encode(msg), /one line/);
  });
});

const handBuilt = () => ({ timestamp: TS, type: "model_msg", payload: { type: "thinking", role: "assistant", thinking: "ok", fidelity: { text: `{"signature":\n${GOOD}\n}`, parse: () => ({}) } } });
const meta = () => om.sessionMeta({ sessionId: SID, provider: "p", modelId: "m", modelContextWindow: 1, systemPrompt: "", agentState: "/a", workspace: "/w", timestamp: TS });

describe("TraceWriter and Session", () => {
  test("the writer refuses before writing anything", async () => {
    const root = tmp();
    const w = new produce.TraceWriter(root, SID);
    await assert.rejects(w.write(handBuilt()), produce.TraceRefused);
    assert.deepEqual(readdirSync(root), []);
    await w.write(om.userText("first", { timestamp: TS }));
    const before = readFileSync(w.path);
    const head = om.toolListReady([{ name: "t", description: "d", parameters: { text: '{"a":\n1}', parse: () => ({}) } }], { timestamp: TS });
    await assert.rejects(w.openContext(meta(), head), produce.TraceRefused);
    assert.deepEqual(readFileSync(w.path), before);
    assert.equal(w.index, 1);
  });
  test("Session.emit leaves trace and SSE agreeing", async () => {
    const sse = new produce.SseChannel();
    const seen = [];
    sse.subscribe((e) => seen.push(e.data));
    const lines = [];
    const s = new produce.Session({ trace: new produce.TraceWriter(tmp(), SID), sse, stream: (l) => lines.push(l), clock: () => TS });
    await s.start(meta());
    await assert.rejects(s.emit(handBuilt()), /one line/);
    await s.emit(om.assistantText("after", { timestamp: TS }));
    await s.close();
    const trace = readFileSync(s.trace.path, "utf8").split("\n").filter((x) => x);
    assert.equal(trace.length, 2);
    assert.deepEqual(trace.slice(1), seen);
    assert.deepEqual(seen, lines.map((l) => l.replace(/\n$/, "")));
  });
});

describe("TraceWriter never follows a planted link", { skip: process.platform === "win32" }, () => {
  const DAY = "2026-09-14";
  const NAME = `${SID}_001.jsonl`;
  const msg = () => om.userText("hello", { timestamp: TS });
  test("a dangling link never creates a file outside the root", async () => {
    const base = tmp();
    mkdirSync(join(base, "root", DAY), { recursive: true });
    mkdirSync(join(base, "outside"));
    symlinkSync(join(base, "outside", "planted.jsonl"), join(base, "root", DAY, NAME));
    await assert.rejects(new produce.TraceWriter(join(base, "root"), SID, { date: DAY }).write(msg()), /symbolic link|ELOOP/);
    assert.deepEqual(readdirSync(join(base, "outside")), []);
  });
  test("a linked file is never appended to", async () => {
    const base = tmp();
    mkdirSync(join(base, "root", DAY), { recursive: true });
    writeFileSync(join(base, "victim.txt"), "precious\n");
    symlinkSync(join(base, "victim.txt"), join(base, "root", DAY, NAME));
    await assert.rejects(new produce.TraceWriter(join(base, "root"), SID, { date: DAY }).write(msg()), /symbolic link|ELOOP/);
    assert.equal(readFileSync(join(base, "victim.txt"), "utf8"), "precious\n");
  });
  test("a linked date directory is refused", async () => {
    const base = tmp();
    mkdirSync(join(base, "root"));
    mkdirSync(join(base, "elsewhere"));
    symlinkSync(join(base, "elsewhere"), join(base, "root", DAY), "dir");
    await assert.rejects(new produce.TraceWriter(join(base, "root"), SID, { date: DAY }).write(msg()), /date directory/);
    assert.deepEqual(readdirSync(join(base, "elsewhere")), []);
  });
  test("a linked root is the caller's choice", async () => {
    const base = tmp();
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "alias"), "dir");
    await new produce.TraceWriter(join(base, "alias"), SID, { date: DAY }).write(msg());
    assert.ok(existsSync(join(base, "real", DAY, NAME)));
  });
});
