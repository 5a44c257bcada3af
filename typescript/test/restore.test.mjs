// omnimessage/restore (issue 37): a session's model context from its trace. The expected line
// numbers are those python/tests/test_restore.py works out from the reference's replay
// (PenguinHarness packages/core/src/trace/resume.ts); python/tests/test_restore_ts.py compares the
// two command lines byte for byte on the whole producer corpus.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as om from "omnimessage";
import { PLACEHOLDER_OUTPUT, RestoreError, TraceRootError, restore } from "omnimessage/restore";

const PRODUCERS = new URL("../../conformance/producers/", import.meta.url).pathname;
const tmp = () => mkdtempSync(join(tmpdir(), "om-restore-"));
const lineNumbers = (items) => items.map((m) => m.line);

/** A single corpus trace file as `_001` of a fresh trace root. */
function fileRoot(name) {
  const src = join(PRODUCERS, `${name}.trace.jsonl`);
  const sid = JSON.parse(readFileSync(src, "utf8").split("\n", 1)[0]).payload.session_id;
  const root = tmp();
  mkdirSync(join(root, "2026-09-14"));
  copyFileSync(src, join(root, "2026-09-14", `${sid}_001.jsonl`));
  return [root, sid];
}

/** Every message is its trace line byte for byte, and re-encodes to it. */
function checkBytes(ctx) {
  const lines = readFileSync(ctx.path).toString("latin1").split("\n");
  for (const item of ctx.messages) {
    if (item.line === null) continue;
    assert.equal(Buffer.from(item.raw).toString("latin1"), lines[item.line - 1]);
    assert.equal(om.encode(item.message), Buffer.from(item.raw).toString("utf8"));
  }
  assert.equal(ctx.config.session_id, ctx.sessionId);
}

describe("restore on the producer corpus", () => {
  test("a model switch: only the newest file, its session_meta is the configuration", () => {
    const ctx = restore(join(PRODUCERS, "newest-model-switch"), "session-2026-10-12-11-30-02-9c41d7e0");
    assert.deepEqual(lineNumbers(ctx.history), [3, 4, 6]);
    assert.deepEqual(ctx.carryOver, []);
    assert.ok(ctx.path.endsWith("_002.jsonl"));
    assert.deepEqual([ctx.config.provider, ctx.config.model_id, ctx.meta.line], ["anthropic", "claude-opus-5", 1]);
    checkBytes(ctx);
  });

  test("a crash heal: torn and blank lines skipped, the reference's placeholder before the next input", () => {
    const [root, sid] = fileRoot("crash-healed");
    const ctx = restore(root, sid);
    assert.deepEqual(lineNumbers(ctx.history), [2, 5, null, 10, 13, 17, 19]);
    assert.deepEqual(ctx.skipped, [9, 16]);
    checkBytes(ctx);
    const ph = ctx.history[2].message;
    const lines = readFileSync(ctx.path, "utf8").split("\n");
    assert.equal(ph.payload.output, PLACEHOLDER_OUTPUT);
    assert.equal(ph.payload.stop_reason, "aborted");
    assert.equal(ph.payload.tool_call_id, JSON.parse(lines[4]).payload.tool_call_id);
    assert.equal(ph.timestamp, JSON.parse(lines[14]).timestamp);
  });

  test("retries: dropped turns resend their input, the last one's input is carry-over", () => {
    const [root, sid] = fileRoot("retries");
    const ctx = restore(root, sid);
    assert.deepEqual(lineNumbers(ctx.history), [2, 10]);
    assert.deepEqual(lineNumbers(ctx.carryOver), [13]);
    assert.deepEqual(lineNumbers(ctx.messages), [2, 10, 13]);
  });

  test("legacy traces: the meta and retired statuses read as their successors, the bytes as written", () => {
    const ctx = restore(join(PRODUCERS, "legacy-0.1.1"), "session-2026-07-22-15-04-10-2ab94c7e");
    assert.deepEqual([lineNumbers(ctx.history), lineNumbers(ctx.carryOver), ctx.retired], [[2, 3, 5], [9], [1]]);
    checkBytes(ctx);
    const written = JSON.parse(Buffer.from(ctx.meta.raw).toString("utf8")).payload;
    assert.ok("tools" in written && "thinking_level" in written);
    assert.ok(!("tools" in ctx.config) && !("thinking_level" in ctx.config));
    assert.deepEqual([ctx.config.provider, ctx.config.model_id, ctx.config.workspace], [written.provider, written.model_id, written.workspace]);
    const auth = restore(join(PRODUCERS, "legacy-0.2.0"), "session-2026-08-03-18-44-02-6c0f1a93");
    assert.deepEqual([lineNumbers(auth.history), lineNumbers(auth.carryOver), auth.retired], [[], [2, 3], [1, 5]]);
    const [root, sid] = fileRoot("legacy-source-benchmark");
    const bench = restore(root, sid);
    assert.deepEqual([lineNumbers(bench.messages), bench.retired, bench.config.source], [[2, 5], [1], "cli"]);
  });

  test("a completed compaction closes the context", () => {
    const ctx = restore(join(PRODUCERS, "compaction-rotation"), "session-2026-09-14-16-12-40-0c9d2b6e");
    assert.equal(ctx.contextClosed, true);
    assert.deepEqual(ctx.messages, []);
    assert.deepEqual(lineNumbers(ctx.summaryFrom), [20]);
  });

  test("subagents: the parent's pointer is no message, the child restores by its own id", () => {
    const root = join(PRODUCERS, "subagent-traces");
    assert.deepEqual(lineNumbers(restore(root, "session-2026-09-14-18-20-33-e2b7a4c9").messages), [2, 5, 6, 11, 13]);
    assert.deepEqual(lineNumbers(restore(root, "session-2026-09-14-18-20-35-41fe0c8b").messages), [2, 5, 10, 12]);
  });
});

describe("restore refuses what it cannot rebuild whole", () => {
  const SID = "session-2026-09-14-00-00-00-00000000";
  const USER = '{"timestamp":"2026-09-14T00:00:01.000Z","type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}';
  const meta = (sid = SID) => JSON.stringify({ timestamp: "2026-09-14T00:00:00.000Z", type: "session_meta", payload: { session_id: sid, provider: "p", model_id: "m", model_context_window: 1000, system_prompt: "s", agent_state: "/a", workspace: "/w" } });
  const writeRoot = (...lines) => {
    const root = tmp();
    mkdirSync(join(root, "2026-09-14"));
    writeFileSync(join(root, "2026-09-14", `${SID}_001.jsonl`), lines.map((l) => `${l}\n`).join(""));
    return root;
  };
  const refused = (fn, line, pattern) => {
    assert.throws(fn, (e) => e instanceof RestoreError && e.line === line && pattern.test(e.detail) && (line === null || e.message.startsWith(`${e.path}:${line}: `)));
  };

  test("a spliced line mid-file names its line", () => refused(() => restore(writeRoot(meta(), USER.slice(0, 50) + USER, USER), SID), 2, /^invalid_json/));
  test("no session_meta", () => refused(() => restore(writeRoot(USER), SID), null, /no session_meta/));
  test("a foreign session_meta, quoted as Python quotes it", () => refused(() => restore(writeRoot(meta("it's"), USER), SID), 1, /names session "it's", the file 'session-/));
  test("no such session, no such root", () => {
    refused(() => restore(writeRoot(meta(), USER), "nope"), null, /no trace file of session 'nope'/);
    assert.throws(() => restore(join(tmp(), "absent"), SID), (e) => e instanceof TraceRootError && e.code === "ENOENT");
  });
  test("the context cap", () => refused(() => restore(writeRoot(meta(), USER, USER), SID, { maxContextBytes: USER.length + 1 }), 3, /exceeds/));
  test("a newer record: an error when strict, context when lenient", () => {
    const newer = '{"timestamp":"2026-09-14T00:00:01.000Z","type":"model_msg","payload":{"type":"hologram","role":"user"}}';
    const root = writeRoot(meta(), newer, USER);
    refused(() => restore(root, SID), 2, /^unknown_type/);
    assert.deepEqual(lineNumbers(restore(root, SID, { lenient: true }).messages), [2, 3]);
  });
});
