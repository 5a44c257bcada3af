// omnimessage/consume (issue 31): subscribe() against scripted responses (an injected fetch):
// resume with Last-Event-ID, retry:, bounded attempts, idle timeout, cancellation, non-SSE answers.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as om from "omnimessage";
import { ConsumeConnectionError, ConsumeDecodeError, ConsumeResponseError, SseLimitError, subscribe } from "omnimessage/consume";

const enc = new TextEncoder();
const LINE = om.encode(om.userText("hi", { timestamp: "2026-09-14T08:12:41.000Z" }));
const FAST = { delayMs: 0, maxDelayMs: 0 };

/** A Response whose body sends `chunks` (strings or bytes), then ends, errors or hangs. */
function sse(chunks, { then = "end", type = "text/event-stream", status = 200, onCancel } = {}) {
  let i = 0;
  const body = new ReadableStream({
    pull(c) {
      if (i < chunks.length) {
        const x = chunks[i++];
        c.enqueue(typeof x === "string" ? enc.encode(x) : x);
      } else if (then === "end") c.close();
      else if (then === "error") c.error(new TypeError("terminated"));
      else return new Promise(() => {}); // hangs
    },
    cancel() {
      onCancel?.();
    },
  }, { highWaterMark: 0 });
  return new Response(status === 204 ? null : body, { status, headers: { "content-type": type } });
}

/** A fetch answering each call with the next factory's response; records the headers it got. */
function scripted(...answers) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url: String(url), lastEventId: init.headers["last-event-id"] });
    const next = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (next instanceof Error) throw next;
    return next(init);
  };
  return { fetch, calls };
}

async function collect(iterable, limit = 100) {
  const out = [];
  for await (const e of iterable) {
    out.push(e);
    if (out.length >= limit) break;
  }
  return out;
}

describe("subscribe", () => {
  test("messages decoded with their exact text; a resync and a server event surfaced; reconnect resumes from the last id", async () => {
    const { fetch, calls } = scripted(
      () => sse([`data: ${LINE}\nid: e-1\n\n`, `retry: 5\nevent: server_event\ndata: {"type":"resync_required"}\nid: e-2\n\n`, "event: server_event\ndata: {\"type\":\"x\"}\nid: e-3\n\ndata: {\"cut"], { then: "error" }),
      () => sse([`data: ${LINE}\nid: e-4\n\n`]),
      () => sse([], { status: 204 }),
    );
    const got = await collect(subscribe("http://127.0.0.1:1/events", { fetch, lastEventId: "e-0", reconnect: { delayMs: 1000 } }));
    assert.deepEqual(calls.map((c) => c.lastEventId), ["e-0", "e-3", "e-4"]);
    assert.deepEqual(got.map((e) => e.kind), ["message", "resync", "server_event", "reconnect", "message", "reconnect"]);
    assert.equal(got[0].raw, LINE);
    assert.equal(om.encode(got[0].message), LINE);
    assert.equal(got[0].id, "e-1");
    assert.deepEqual(got[2], { kind: "server_event", id: "e-3", name: "server_event", data: '{"type":"x"}', type: "x" });
    // the server's retry: (5 ms) replaces the default delay; the cut event is dropped
    assert.deepEqual(got[3], { kind: "reconnect", attempt: 1, delay: 5, lastEventId: "e-3", reason: "error" });
    assert.deepEqual(got[5], { kind: "reconnect", attempt: 1, delay: 5, lastEventId: "e-4", reason: "end" });
  });

  test("an event with an id and no data dispatches nothing but sets the id a reconnect sends (WHATWG)", async () => {
    const { fetch, calls } = scripted(
      () => sse([`data: ${LINE}\nid: e-1\n\n`, "id: e-2\n\n"]),
      () => sse([], { status: 204 }),
    );
    const got = await collect(subscribe("http://127.0.0.1:1/events", { fetch, reconnect: FAST }));
    assert.deepEqual(got.map((e) => e.kind), ["message", "reconnect"]);
    assert.equal(got[1].lastEventId, "e-2");
    assert.deepEqual(calls.map((c) => c.lastEventId), [undefined, "e-2"]);
  });

  test("attempts in a row without an event are bounded; the delay doubles up to its cap", async () => {
    const { fetch, calls } = scripted(new TypeError("fetch failed"));
    const got = [];
    await assert.rejects(async () => {
      for await (const e of subscribe("http://127.0.0.1:1/", { fetch, reconnect: { attempts: 4, delayMs: 1, maxDelayMs: 3 } })) got.push(e);
    }, (err) => err instanceof ConsumeConnectionError && /gave up after 4 attempt/.test(err.message) && /fetch failed/.test(err.message));
    assert.equal(calls.length, 4);
    assert.deepEqual(got.map((e) => [e.attempt, e.delay, e.reason]), [[1, 1, "error"], [2, 2, "error"], [3, 3, "error"]]);
  });

  test("reconnect: false ends on the first loss", async () => {
    const { fetch } = scripted(() => sse([`data: ${LINE}\n\n`]));
    await assert.rejects(collect(subscribe("http://x/", { fetch, reconnect: false })), /the stream ended; reconnecting is off/);
  });

  test("not an event stream: a clear error, no retry", async () => {
    for (const [status, type, want] of [[200, "text/html", /HTTP 200, Content-Type "text\/html"/], [503, "text/event-stream", /HTTP 503/], [200, "text/event-streamx", /event-streamx/]]) {
      const { fetch, calls } = scripted(() => sse(["<html>"], { status, type }));
      await assert.rejects(collect(subscribe("http://x/", { fetch })), (e) => e instanceof ConsumeResponseError && e.status === status && want.test(e.message));
      assert.equal(calls.length, 1);
    }
    // a hostile content type reaches the message escaped and clipped: no control or C1 character
    const hostile = scripted(() => sse([], { type: "text/html\u009b31m\u0085" + "x".repeat(500) }));
    await assert.rejects(collect(subscribe("http://x/", { fetch: hostile.fetch })), (e) => /^[\x20-\x7e]*$/.test(e.message) && e.message.includes("\\u009b31m\\u0085") && e.message.length < 200);
    const { fetch } = scripted(() => sse([`data: ${LINE}\n\n`], { type: "Text/Event-Stream; charset=utf-8" }));
    assert.equal((await collect(subscribe("http://x/", { fetch }), 1))[0].raw, LINE);
  });

  test("strict: a message that does not decode names its event; strict: false yields it as invalid_message and goes on", async () => {
    const odd = '{"timestamp":"2026-09-14T08:12:41.000Z","type":"future_msg","payload":{}}';
    const { fetch } = scripted(() => sse([`data: ${odd}\nid: z-7\n\n`]));
    await assert.rejects(collect(subscribe("http://x/", { fetch })), (e) => e instanceof ConsumeDecodeError && e.id === "z-7" && /event "z-7"/.test(e.message));
    const frames = [`data: ${odd}\nid: z-8\n\n`, "data: [1,\n\n", `data: ${LINE}\nid: z-9\n\n`, "event: server_event\ndata: [\"type\"]\n\n"];
    const got = await collect(subscribe("http://x/", { fetch: scripted(() => sse(frames)).fetch, strict: false }), 4);
    assert.deepEqual(got.map((e) => e.kind), ["invalid_message", "invalid_message", "message", "server_event"]);
    assert.ok(got[0].error instanceof om.DecodeError && got[1].error instanceof om.DecodeError);
    assert.deepEqual([got[0].raw, got[0].id, got[1].raw], [odd, "z-8", "[1,"]);
    assert.equal(got[3].type, null);
  });

  test("an event over the cap is an error, not retried", async () => {
    const { fetch, calls } = scripted(() => sse([`data: ${"x".repeat(2000)}\n\n`]));
    await assert.rejects(collect(subscribe("http://x/", { fetch, maxEventBytes: 1000 })), SseLimitError);
    assert.equal(calls.length, 1);
  });

  test("an idle connection is dropped and resumed; heartbeats keep it", async () => {
    const { fetch, calls } = scripted(
      () => sse([`data: ${LINE}\nid: i-1\n\n`], { then: "hang" }),
      () => sse([`data: ${LINE}\nid: i-2\n\n`]),
    );
    const got = await collect(subscribe("http://x/", { fetch, idleTimeoutMs: 20, reconnect: FAST }), 3);
    assert.deepEqual(got.map((e) => e.kind), ["message", "reconnect", "message"]);
    assert.equal(got[1].reason, "idle");
    assert.deepEqual(calls.map((c) => c.lastEventId), [undefined, "i-1"]);
  });

  test("heartbeats reset the idle timer: eight pings a quarter of the timeout apart keep the connection", async () => {
    // Each ping's timer expires before the idle timer and its chunk re-arms the idle timer in the
    // microtasks that follow, so the order is fixed whatever the machine's load.
    let pings = 0;
    const body = new ReadableStream({
      pull(c) {
        if (pings < 8) return new Promise((r) => setTimeout(() => { pings++; c.enqueue(enc.encode(": ping\n\n")); r(); }, 50));
        c.enqueue(enc.encode(`data: ${LINE}\nid: h-1\n\n`));
        c.close();
      },
    }, { highWaterMark: 0 });
    const fetch = async () => new Response(body, { headers: { "content-type": "text/event-stream" } });
    const got = await collect(subscribe("http://x/", { fetch, idleTimeoutMs: 200, reconnect: FAST }), 1);
    assert.equal(pings, 8);
    assert.deepEqual(got.map((e) => [e.kind, e.id]), [["message", "h-1"]]);
  });

  test("cancellation: return() and an AbortSignal close the connection", async () => {
    let cancelled = 0;
    const hang = () => sse([`data: ${LINE}\n\n`], { then: "hang", onCancel: () => cancelled++ });
    // return() while the iterator waits on the network
    const it = subscribe("http://x/", { fetch: scripted(hang).fetch })[Symbol.asyncIterator]();
    assert.equal((await it.next()).value.kind, "message");
    const pending = it.next();
    await it.return();
    assert.deepEqual(await pending, { done: true, value: undefined });
    assert.equal(cancelled, 1);
    // an AbortSignal: the loop ends without an error
    const ac = new AbortController();
    const got = [];
    for await (const e of subscribe("http://x/", { fetch: scripted(hang).fetch, signal: ac.signal })) {
      got.push(e);
      ac.abort();
    }
    assert.equal(got.length, 1);
    assert.equal(cancelled, 2);
    // already aborted: nothing is fetched
    const { fetch, calls } = scripted(hang);
    assert.deepEqual(await collect(subscribe("http://x/", { fetch, signal: AbortSignal.abort() })), []);
    assert.equal(calls.length, 0);
  });
});
