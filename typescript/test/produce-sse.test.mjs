// omnimessage/produce sseHandler under hostile clients (issue 31), the TypeScript half of
// python/tests/test_sse_hold.py and test_sse_servers.py: odd request targets never throw (a 400 or
// 404, the process keeps serving), hostile Last-Event-IDs mean resync_required and leave no
// subscriber, each client's backlog is bounded in events and bytes and drained in bounded writes,
// a client that stops reading is cut off while another receives every event (counted, not timed),
// a heartbeat is observed at a short interval, `<epoch>-0` replays the epoch from its start.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createServer, get } from "node:http";
import { connect } from "node:net";
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as produce from "omnimessage/produce";

const hostileIds = (epoch) => [`${epoch}-${"9".repeat(5000)}`, `${epoch}-${"1".repeat(17)}`, `${epoch}-${2 ** 53}`, "", "-",
  `${epoch}-`, `${epoch}--1`, `${epoch}-1x`, `${epoch}-\u0661`, "é".repeat(10), `${epoch}-1, ${epoch}-2`,
  `${epoch}-${"1".repeat(10_000)}`, "x".repeat(70_000), `${epoch}-1\u0000`, ` ${epoch}-1`];

/** Send a raw request head; collect until `until` appears, the socket ends, or `limit` bytes. */
function raw(port, head, until, limit = 1 << 20) {
  return new Promise((resolve) => {
    const sock = connect(port, "127.0.0.1");
    let got = Buffer.alloc(0);
    const finish = () => {
      sock.destroy();
      resolve(got);
    };
    sock.on("data", (chunk) => {
      got = Buffer.concat([got, chunk]);
      if ((until !== undefined && got.includes(until)) || got.length >= limit) finish();
    });
    sock.on("end", finish);
    sock.on("close", finish);
    sock.on("error", finish);
    sock.write(head);
  });
}
const request = (target, ...headers) => Buffer.concat([Buffer.from("GET "), Buffer.from(target, "latin1"),
  Buffer.from(" HTTP/1.1\r\nHost: 127.0.0.1\r\n"), ...headers.map((h) => Buffer.from(`${h}\r\n`, "latin1")), Buffer.from("\r\n")]);
const status = (reply) => (reply.subarray(0, 7).toString() === "HTTP/1." ? Number(reply.toString("latin1").split(" ")[1]) : undefined);

/** Wait for a state (never a duration decides the verdict); fail after `ms`. */
async function until(cond, what, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    assert.ok(Date.now() < deadline, `never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function serving(ch, opts, body) {
  const server = createServer(produce.sseHandler(ch, opts));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await body(server.address().port);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe("SseChannel: Last-Event-ID parsed defensively", () => {
  test("hostile ids miss; a subscriber that fails while replaying is removed", () => {
    const ch = new produce.SseChannel();
    for (let i = 0; i < 3; i++) ch.publish("{}");
    for (const bad of hostileIds(ch.epoch)) {
      assert.equal(produce.parseSeq(bad, ch.epoch), undefined, bad.slice(0, 40));
      assert.deepEqual(ch.replayAfter(bad), { hit: false, events: [] });
      const got = [];
      ch.subscribe((e) => got.push(e.data), bad)();
      assert.deepEqual(got, ['{"type":"resync_required"}']);
    }
    assert.equal(produce.parseSeq(`${ch.epoch}-${produce.MAX_SEQ}`, ch.epoch), produce.MAX_SEQ);
    for (const last of [`${ch.epoch}-0`, "stale"]) {
      assert.throws(() => ch.subscribe(() => { throw new Error("the client broke"); }, last), /broke/);
    }
    assert.equal(ch.subscriberCount, 0);
  });

  test("<epoch>-0 replays the epoch from its start while seq 1 is kept, else misses", () => {
    const ch = new produce.SseChannel({ maxEvents: 3 });
    assert.deepEqual(ch.replayAfter(`${ch.epoch}-0`), { hit: true, events: [] });
    const evts = [0, 1, 2].map((i) => ch.publish(`{"n":${i}}`));
    assert.deepEqual(ch.replayAfter(`${ch.epoch}-0`), { hit: true, events: evts });
    ch.publish("{}");
    assert.deepEqual(ch.replayAfter(`${ch.epoch}-0`), { hit: false, events: [] });
  });
});

describe("Backlog: one client's queue, bounded in events and bytes", () => {
  test("caps in events and in UTF-8 data bytes; an overflow drops all and takes nothing more", () => {
    const ch = new produce.SseChannel();
    const ev = new produce.Backlog(3, 1000);
    for (let i = 0; i < 3; i++) assert.equal(ev.offer(ch.publish("x")), true);
    assert.equal(ev.offer(ch.publish("x")), false);
    assert.equal(ev.overflowed, true);
    assert.deepEqual(ev.size, [0, 0]);
    assert.equal(ev.take(), "");
    const by = new produce.Backlog(100, 10);
    assert.equal(by.offer(ch.publish("ééééé")), true); // 10 bytes, 5 UTF-16 units
    assert.deepEqual(by.size, [1, 10]);
    assert.equal(by.offer(ch.publish("1")), false);
  });

  test("drains in bounded writes, each frame once and in order (linear by structure)", () => {
    const ch = new produce.SseChannel({ maxEvents: 100_000, maxBytes: 1 << 30 });
    const backlog = new produce.Backlog(100_000, 1 << 30);
    const frames = [];
    for (let i = 0; i < 20_000; i++) {
      const evt = ch.publish(`"${i}${"x".repeat(i % 300)}"`);
      backlog.offer(evt);
      frames.push(produce.frame(evt));
    }
    const big = ch.publish("y".repeat(3 * produce.WRITE_CHUNK));
    backlog.offer(big);
    frames.push(produce.frame(big));
    const writes = [];
    for (let body = backlog.take(); body !== ""; body = backlog.take()) writes.push(body);
    assert.equal(writes.join(""), frames.join(""));
    const longest = Math.max(...frames.slice(0, -1).map((f) => f.length));
    assert.ok(writes.slice(0, -1).every((w) => Buffer.byteLength(w) < produce.WRITE_CHUNK + longest));
    assert.deepEqual(backlog.size, [0, 0]);
  });

  test("the handler refuses caps below the replay buffer and bad heartbeats", () => {
    const ch = new produce.SseChannel({ maxEvents: 10, maxBytes: 100 });
    for (const opts of [{ maxBacklogEvents: 9 }, { maxBacklogBytes: 99 }, { heartbeatMs: 0 }, { heartbeatMs: NaN }]) {
      assert.throws(() => produce.sseHandler(ch, opts), RangeError);
    }
  });
});

describe("sseHandler on node:http, hostile clients on raw sockets", () => {
  test("request targets: parsed without throwing", () => {
    const cases = { "/events": "/events", "/%65vents?x=%zz": "/events", "http://h:1/events": "/events", "HTTP://h": "/",
      "//": "//", "*": undefined, "events": undefined, "/%zz%": undefined, "/ev%ents": undefined, "/\u00e9": undefined,
      "/a b": undefined, [`/${"a".repeat(9000)}`]: undefined, "/%ff%fe": undefined, "h:443": undefined };
    for (const [target, path] of Object.entries(cases)) assert.equal(produce.requestPath(target), path, target);
  });

  test("odd request targets are a 400 or a 404 and the process keeps serving", { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [new URL("./support/sse-server.mjs", import.meta.url).pathname], { stdio: ["pipe", "pipe", "inherit"] });
    child.stdout.setEncoding("utf8");
    const lines = [];
    let buf = "";
    child.stdout.on("data", (d) => {
      buf += d;
      const parts = buf.split("\n");
      buf = parts.pop();
      lines.push(...parts);
    });
    try {
      await until(() => lines.length > 0, "the child's port");
      const [, port, epoch] = lines[0].split(" ");
      const odd = { "//": 404, "*": 400, "//events": 404, "/%zz%": 400, "/ev%ents": 400, "/\u00c3\u00a9vents": 400,
        [`/${"a".repeat(9000)}`]: 400, "/%ff%fe": 400, "events": 400, "/events%00": 404, "/../events": 404 };
      for (const [target, want] of Object.entries(odd)) {
        const reply = await raw(Number(port), request(target), "\r\n\r\n");
        assert.equal(status(reply), want, `${target.slice(0, 40)}: ${reply.toString("latin1").slice(0, 80)}`);
      }
      const absolute = await raw(Number(port), request(`http://127.0.0.1:${port}/events`, `Last-Event-ID: ${epoch}-0`), "data: []");
      assert.equal(status(absolute), 200);
      assert.ok(absolute.includes("data: []\nid: "));
      assert.equal(child.exitCode, null, "the server process is still running");
      let count;
      await until(() => {
        const answer = lines.findLast((l) => l.startsWith("subscribers "));
        count = answer === undefined ? undefined : Number(answer.split(" ")[1]);
        if (count !== 0) child.stdin.write("?\n");
        return count === 0;
      }, "no subscriber left behind");
    } finally {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    }
  });

  test("hostile Last-Event-IDs: resync_required, and no subscriber left behind", { timeout: 60_000 }, async () => {
    const ch = new produce.SseChannel();
    ch.publish("{}");
    const e = ch.epoch;
    const heads = [[`Last-Event-ID: ${e}-${"9".repeat(5000)}`], ["Last-Event-ID: "], [`Last-Event-ID: ${e}-`],
      [`Last-Event-ID: ${e}-1\u00c3\u00a9`], ["Last-Event-ID: \u00ff\u00fe"], [`Last-Event-ID: ${e}-1`, `Last-Event-ID: ${e}-1`],
      [`Last-Event-ID: ${e}-${"1".repeat(12_000)}`], [`Last-Event-ID: ${"x".repeat(40_000)}`], [`Last-Event-ID: ${e}-${2 ** 53}`]];
    await serving(ch, { heartbeatMs: 60_000 }, async (port) => {
      let resyncs = 0;
      for (let round = 0; round < 3; round++) {
        for (const headers of heads) {
          const reply = await raw(port, request("/events", ...headers), "resync_required");
          if (reply.includes("resync_required")) {
            assert.equal(status(reply), 200);
            resyncs++;
          } else {
            assert.ok([undefined, 400, 431].includes(status(reply)), reply.toString("latin1").slice(0, 200));
            assert.ok(headers.join("").length > 8000);
          }
        }
      }
      assert.ok(resyncs >= 3 * 7, String(resyncs));
      await until(() => ch.subscriberCount === 0, "every hostile subscriber removed");
      const ok = await raw(port, request("/events", `Last-Event-ID: ${e}-0`), "data: {}");
      assert.equal(status(ok), 200);
      await until(() => ch.subscriberCount === 0, "the good client removed after it left");
    });
  });

  test("a heartbeat at a short interval is observed; <epoch>-0 over HTTP", { timeout: 60_000 }, async () => {
    const ch = new produce.SseChannel({ maxEvents: 3 });
    for (let i = 0; i < 3; i++) ch.publish(`{"n":${i}}`);
    await serving(ch, { heartbeatMs: 50 }, async (port) => {
      const ping = await raw(port, request("/events"), ": ping\n\n");
      assert.ok(ping.includes(": ping\n\n"));
      const zero = await raw(port, request("/events", `Last-Event-ID: ${ch.epoch}-0`), `id: ${ch.epoch}-3\n\n`);
      const data = zero.toString().split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
      assert.deepEqual(data, ['{"n":0}', '{"n":1}', '{"n":2}']);
      ch.publish("{}");
      const miss = await raw(port, request("/events", `Last-Event-ID: ${ch.epoch}-0`), "resync_required");
      assert.ok(miss.includes('event: server_event\ndata: {"type":"resync_required"}'));
      await until(() => ch.subscriberCount === 0, "no subscriber left behind");
    });
  });

  test("a client that stops reading is cut off while another receives every event", { timeout: 120_000 }, async () => {
    const ch = new produce.SseChannel({ maxBytes: 1 << 20 });
    const rounds = 48, perRound = 32, size = 16 * 1024, total = rounds * perRound; // a round is half the cap
    await serving(ch, { heartbeatMs: 60_000 }, async (port) => {
      const slow = connect({ port, host: "127.0.0.1" });
      slow.pause(); // never reads
      let slowEnded = false;
      slow.on("close", () => (slowEnded = true));
      slow.on("error", () => {});
      slow.write(request("/events"));
      const res = await new Promise((resolve) => get({ host: "127.0.0.1", port, path: "/events" }, resolve));
      assert.equal(res.statusCode, 200);
      await until(() => ch.subscriberCount === 2, "both clients subscribed");
      const seen = [];
      let buf = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        buf += chunk;
        const frames = buf.split("\n\n");
        buf = frames.pop();
        for (const f of frames) if (f.startsWith("data: ")) seen.push(f.slice(f.lastIndexOf("\nid: ") + 5));
      });
      for (let r = 0; r < rounds; r++) {
        for (let i = 0; i < perRound; i++) ch.publish(`"${String(r * perRound + i).padStart(6, "0")}${"x".repeat(size)}"`);
        await until(() => seen.length >= (r + 1) * perRound, `B received round ${r}`);
      }
      assert.deepEqual(seen, Array.from({ length: total }, (_, n) => `${ch.epoch}-${n + 1}`));
      await until(() => ch.subscriberCount === 1, "A cut off and removed, B still subscribed");
      const slowGot = [];
      slow.on("data", (chunk) => slowGot.push(chunk));
      slow.resume();
      await until(() => slowEnded, "A's connection closed");
      // the documented outcome: A reconnects with the last id it got whole, and replays or resyncs
      const text = Buffer.concat(slowGot).toString("latin1");
      const whole = text.slice(0, text.lastIndexOf("\n\n"));
      const last = whole.slice(whole.lastIndexOf("\nid: ") + 5);
      assert.match(last, new RegExp(`^${ch.epoch}-[0-9]+$`));
      assert.ok(Number(last.split("-")[1]) < total);
      const { hit } = ch.replayAfter(last);
      const want = hit ? `id: ${ch.epoch}-${Number(last.split("-")[1]) + 1}\n\n` : '{"type":"resync_required"}';
      const again = await raw(port, request("/events", `Last-Event-ID: ${last}`), want);
      assert.ok(again.includes(want), `${last} ${hit}`);
      res.destroy();
      await until(() => ch.subscriberCount === 0, "B removed after it left");
    });
  });
});
