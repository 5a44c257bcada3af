// omnimessage/consume (issue 31): the WHATWG event-stream parser, fed every stream split at every
// byte (and byte by byte), against records written out by hand from the standard's rules.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { SseLimitError, SseParser } from "omnimessage/consume";

const enc = new TextEncoder();
const ev = (event, data, lastEventId) => ({ type: "event", message: { event, data, lastEventId } });

/** Each case: the stream's bytes, the records the standard gives. */
const CASES = [
  ["LF line ends, one data line, an id", "data: {\"a\":1}\nid: e-1\n\n", [ev("message", '{"a":1}', "e-1")]],
  ["CRLF line ends", "data: x\r\nid: e-2\r\n\r\n", [ev("message", "x", "e-2")]],
  ["CR-only line ends", "data: x\rdata: y\r\r", [ev("message", "x\ny", "")]],
  ["data lines joined with LF, one space stripped, not two", "data:a\ndata:  b\ndata\n\n", [ev("message", "a\n b\n", "")]],
  ["a comment, a heartbeat, then an event", ": ping\n\n:\ndata: z\n\n", [{ type: "comment" }, { type: "comment" }, ev("message", "z", "")]],
  ["a BOM at the start is dropped", "\ufeffdata: b\n\n", [ev("message", "b", "")]],
  ["a BOM later is text", "data: \ufeffb\n\n", [ev("message", "\ufeffb", "")]],
  ["an id with NUL is ignored; the id persists across events", "id: k-1\ndata: a\n\nid: k\u00002\ndata: b\n\n", [ev("message", "a", "k-1"), ev("message", "b", "k-1")]],
  ["an event without data is not dispatched, its id is kept", "id: k-9\nevent: x\n\ndata: c\n\n", [ev("message", "c", "k-9")]],
  ["retry: digits only", "retry: 1500\nretry: 15x\nretry:\nretry: -1\ndata: r\n\n", [{ type: "retry", ms: 1500 }, ev("message", "r", "")]],
  ["a named event; the name resets after dispatch", "event: server_event\ndata: {\"type\":\"resync_required\"}\nid: q-3\n\ndata: m\n\n",
    [ev("server_event", '{"type":"resync_required"}', "q-3"), ev("message", "m", "q-3")]],
  ["unknown fields and a field without a colon are ignored", "foo: bar\nfoo\ndata: d\n\n", [ev("message", "d", "")]],
  ["multi-byte characters (2, 3 and 4 bytes)", "data: é€😀\n\n", [ev("message", "é€😀", "")]],
  ["an event the stream ends inside is dropped", "data: kept\n\ndata: lost\n", [ev("message", "kept", "")]],
  ["an empty id resets the last event id", "id: a-1\ndata: x\n\nid\ndata: y\n\n", [ev("message", "x", "a-1"), ev("message", "y", "")]],
  ["CR at the end, then LF: one line end", "data: x\r\n\r\n", [ev("message", "x", "")]],
  ["a field with a colon in its value", "data: a: b\n\n", [ev("message", "a: b", "")]],
];

function feed(chunks) {
  const p = new SseParser();
  const out = [];
  for (const c of chunks) out.push(...p.push(c));
  p.end();
  return out;
}

describe("SseParser", () => {
  for (const [name, text, expected] of CASES) {
    test(name, () => {
      const bytes = enc.encode(text);
      assert.deepEqual(feed([bytes]), expected, "whole");
      for (let i = 0; i <= bytes.length; i++) {
        assert.deepEqual(feed([bytes.subarray(0, i), bytes.subarray(i)]), expected, `split at byte ${i}`);
      }
      assert.deepEqual(feed([...bytes].map((b) => Uint8Array.of(b))), expected, "byte by byte");
    });
  }

  test("every case in one stream, split at every byte and at every pair of bytes", () => {
    // The streams joined (each ends with a blank line but the dropped ones); the BOM case goes first.
    const parts = CASES.filter(([n]) => !n.includes("ends inside") && !n.includes("BOM at the start"));
    const text = "\ufeff" + parts.map(([, t]) => t).join("");
    const p0 = new SseParser();
    const whole = [...p0.push(enc.encode(text))];
    // Ids persist from case to case here, so compare data and names; and every split with the whole.
    const expected = parts.flatMap(([, , recs]) => recs).map((r) => (r.type === "event" ? [r.message.event, r.message.data] : r));
    assert.deepEqual(whole.map((r) => (r.type === "event" ? [r.message.event, r.message.data] : r)), expected);
    const bytes = enc.encode(text);
    for (let i = 0; i <= bytes.length; i += 1) {
      for (let j = i; j <= bytes.length; j += 7) {
        assert.deepEqual(feed([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]), whole, `split at ${i} and ${j}`);
      }
    }
  });

  test("a multi-byte character split across chunks decodes whole; invalid UTF-8 becomes U+FFFD", () => {
    const bytes = enc.encode("data: 😀\n\n");
    assert.deepEqual(feed([bytes.subarray(0, 7), bytes.subarray(7, 8), bytes.subarray(8)]), [ev("message", "😀", "")]);
    assert.deepEqual(feed([Uint8Array.of(0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a)]), [ev("message", "\ufffd", "")]);
  });

  test("a resumed parser starts from the id it was given", () => {
    const p = new SseParser({ lastEventId: "e-4" });
    assert.deepEqual(p.push(enc.encode("data: x\n\n")), [ev("message", "x", "e-4")]);
  });

  test("caps: a line and an event's data, in bytes", () => {
    const p = new SseParser({ maxEventBytes: 10 });
    assert.deepEqual(p.push(enc.encode("data: 0123456789\n\n")), [ev("message", "0123456789", "")]);
    assert.throws(() => p.push(enc.encode("data: 01234\ndata: 56789\n\n")), SseLimitError); // 5 + LF + 5 = 11
    const q = new SseParser({ maxEventBytes: 10 });
    assert.throws(() => q.push(enc.encode("data: ééééé€\n\n")), SseLimitError); // 13 bytes, 6 characters
    const r = new SseParser({ maxEventBytes: 10, maxLineBytes: 20 });
    assert.throws(() => {
      for (let i = 0; i < 100; i++) r.push(enc.encode(": comment "));
    }, /longer than 20 bytes/);
  });
});

describe("SseParser on arbitrary bytes", () => {
  test("any bytes, cut anywhere: the same records as whole, and no error but the cap", async () => {
    const fc = (await import("fast-check")).default;
    const piece = fc.oneof(
      fc.constantFrom("data:", "data: ", "id: ", "event: ", "retry: ", ":", "\r", "\n", "\r\n", "\ufeff", "\u0000", "é", "😀"),
      fc.string({ maxLength: 6 }),
    );
    const stream = fc.tuple(fc.array(piece, { maxLength: 40 }), fc.uint8Array({ maxLength: 8 }))
      .map(([parts, noise]) => {
        const text = enc.encode(parts.join(""));
        const out = new Uint8Array(text.length + noise.length);
        out.set(text);
        out.set(noise, text.length); // invalid UTF-8 and stray bytes at the end
        return out;
      });
    fc.assert(fc.property(stream, fc.array(fc.nat(), { maxLength: 5 }), (bytes, cuts) => {
      const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      const chunks = [];
      let prev = 0;
      for (const c of at) {
        chunks.push(bytes.subarray(prev, c));
        prev = c;
      }
      chunks.push(bytes.subarray(prev));
      const run = (cs) => {
        const p = new SseParser({ maxEventBytes: 64 });
        try {
          return cs.flatMap((c) => p.push(c));
        } catch (err) {
          if (err instanceof SseLimitError) return "limit";
          throw err;
        }
      };
      assert.deepEqual(run(chunks), run([bytes]));
    }), { numRuns: 2000, seed: 31 });
  });
});
