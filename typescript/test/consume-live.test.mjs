// omnimessage/consume (issue 31), end to end: the scripted session (a subagent with a grandchild,
// parallel tool calls, signed thinking, a compaction, two new contexts) through the TypeScript
// `Session`, served by `sseHandler` on 127.0.0.1, read by `subscribe` over the real `fetch` while
// the server destroys the client's socket mid-stream three times. The render model's cards are
// compared byte for byte with the traces the session wrote.
//
// The relation: for a card with origin chain O (the root: O = []), whose session is O's last id
// (the root: the main session), every complete message's text is that session's trace line with
// `,"origin":<O as JSON>` before its final `}` (none for the root), and the list of these lines
// equals the session's trace lines (all its files, in order) less the lines the session stored
// without streaming: the `session_meta` of a context not announced, `record()`ed messages, and the
// `subagent` pointers to its children (their session_meta reaches the stream inside the child's
// card instead).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as produce from "omnimessage/produce";
import { RenderModel, subscribe } from "omnimessage/consume";
import { runScript, scriptLines } from "./support/produce-script.mjs";

const SCRIPT = new URL("../../examples/produce/scripted-session.ops.jsonl", import.meta.url);
const IDS = { main: "session-2026-09-14-16-12-40-0c9d2b6e", child: "session-2026-09-14-16-14-02-41fe0c8b", grandchild: "session-2026-09-14-16-14-03-9a03d5f2" };
const CUT_AFTER = new Set([9, 40, 41, 77]); // event numbers after which the client's socket is destroyed
const wait = (ms) => new Promise((r) => setTimeout(r, ms));

/** The lines each scripted session stored without streaming them (its script says which). */
function recordedOnly(lines) {
  const out = new Set();
  for (let i = 0; i < lines.length; ) {
    const h = JSON.parse(lines[i]);
    const msgs = lines.slice(i + 1, i + 1 + h.n);
    if (h.op === "record" || (h.op === "start" && !h.announce) || h.op === "context") out.add(msgs[0]);
    i += 1 + h.n;
  }
  return out;
}

function traceLines(dir, sid) {
  return readdirSync(dir).filter((f) => f.startsWith(sid)).sort().flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").slice(0, -1));
}

/** A snapshot card's messages in place order (a complete message where its segment started). */
function placed(card) {
  return card.items.filter((x) => "message" in x).map((x) => x.message);
}

/** The live card with this origin. */
function liveCard(model, origin) {
  let card = model.root;
  for (let i = 1; i <= origin.length; i++) card = card.items.find((x) => x.kind === "card" && x.card.origin.length === i && x.card.origin[i - 1] === origin[i - 1]).card;
  return card;
}

test("the scripted session over SSE with forced disconnects: every card equals its trace, byte for byte", { timeout: 60_000 }, async () => {
  const sockets = new Set();
  let cutPending = 0;
  let cuts = 0;
  const cut = () => {
    for (const s of sockets) s.destroy();
    sockets.clear(); // a destroyed socket's "close" comes later: never cut the same one twice
    cuts++;
    cutPending--;
  };
  class CuttingChannel extends produce.SseChannel {
    publish(data, event) {
      const evt = super.publish(data, event);
      if (CUT_AFTER.has(evt.seq)) cutPending++;
      if (cutPending > 0 && sockets.size > 0) cut(); // a cut while the client reconnects waits for its socket
      return evt;
    }
  }
  const ch = new CuttingChannel();
  const server = createServer(produce.sseHandler(ch, { heartbeatMs: 60_000 }));
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/events`;

  const model = new RenderModel();
  const ac = new AbortController();
  let target;
  let lastSeen = "";
  const kinds = { message: 0, reconnect: 0, resync: 0, server_event: 0 };
  const reading = (async () => {
    for await (const ev of subscribe(url, { signal: ac.signal, reconnect: { delayMs: 5, maxDelayMs: 50 } })) {
      kinds[ev.kind]++;
      model.apply(ev);
      if (ev.kind !== "reconnect") lastSeen = ev.id;
      if (lastSeen === target) break;
    }
  })();
  for (let i = 0; i < 2000 && ch.subscriberCount === 0; i++) await wait(5);
  assert.equal(ch.subscriberCount, 1, "the client connected");

  const root = mkdtempSync(join(tmpdir(), "om-consume-"));
  const lines = scriptLines(SCRIPT);
  const stream = await runScript(lines, join(root, "traces"), { sse: ch });
  // Make sure every planned cut happened while a connection was open (the client reconnects quickly).
  for (let i = 0; i < 2000 && cutPending > 0; i++) {
    if (sockets.size > 0) cut();
    else await wait(5);
  }
  target = ch.lastEventId;
  if (lastSeen === target) ac.abort();
  await reading;
  server.close();
  for (const s of sockets) s.destroy();

  assert.equal(cuts, CUT_AFTER.size);
  assert.ok(kinds.reconnect >= cuts, JSON.stringify(kinds));
  assert.equal(kinds.resync, 0);
  assert.equal(kinds.message, stream.split("\n").length - 1, "every streamed line, once");

  const dir = join(root, "traces", "2026-09-14");
  const recorded = recordedOnly(lines);
  const expected = (sid) => traceLines(dir, sid).filter((l) => !recorded.has(l) && JSON.parse(l).payload?.type !== "subagent");
  const strip = (raw, origin) => {
    const suffix = `,"origin":${JSON.stringify(origin)}}`;
    assert.ok(raw.endsWith(suffix), raw);
    return `${raw.slice(0, -suffix.length)}}`;
  };

  // each card's messages in arrival order equal its trace; its items hold the same messages in place order
  const cases = [[IDS.main], [IDS.child], [IDS.child, IDS.grandchild]];
  for (const chain of cases) {
    const origin = chain[0] === IDS.main ? [] : chain;
    const card = liveCard(model, origin);
    assert.deepEqual(card.origin, origin);
    const lines = origin.length === 0 ? card.messages : card.messages.map((r) => strip(r, origin));
    assert.deepEqual(lines, expected(chain.at(-1)), `card ${JSON.stringify(origin)}`);
    const inPlace = card.items.filter((x) => x.kind === "message");
    assert.deepEqual(inPlace.map((x) => x.raw).sort(), [...card.messages].sort());
    assert.ok(inPlace.every((x) => card.messages[x.seq] === x.raw));
  }
  const snap = model.snapshot();
  assert.deepEqual(snap.origin, []);
  assert.deepEqual(placed(snap).sort(), [...model.root.messages].sort());
  const cards = snap.items.filter((x) => "card" in x).map((x) => x.card);
  assert.equal(cards.length, 1);
  assert.deepEqual(cards[0].origin, [IDS.child]);
  const [grand] = cards[0].items.filter((x) => "card" in x).map((x) => x.card);
  assert.deepEqual(grand.origin, [IDS.child, IDS.grandchild]);
  assert.equal(grand.items.length, liveCard(model, grand.origin).messages.length);
  // the one segment left: the compaction summary (streamed as partials, its complete text in the trace only)
  const segments = snap.items.filter((x) => "segment" in x).map((x) => x.segment);
  assert.deepEqual(segments, [{ type: "partial_text", tool_call_id: null, text: "[summary]\nKEL-04 lacks a timezone; the parser issues are pending.\n[/summary]", open: false }]);
  assert.equal(cards[0].items.filter((x) => "segment" in x).length, 0);
  // in place order, a tool output stands where its segment started: before the usage and request_end that preceded it
  const placedKinds = snap.items.map((x) => ("message" in x ? JSON.parse(x.message).payload?.type : "card" in x ? "card" : "segment"));
  const atCard = placedKinds.indexOf("card");
  assert.deepEqual(placedKinds.slice(atCard - 4, atCard), ["approval_decision", "tool_call_output", "token_usage", "request_end"]);
  // and the root's messages are the stream's root lines less its fragments, in stream order
  const streamed = stream.split("\n").slice(0, -1).filter((l) => !/"type":"partial_/.test(l) && !l.includes('"origin":'));
  assert.deepEqual(model.root.messages, streamed);
});
