// `decode` stays within a small multiple of the line, whatever the line (issue 12, part A).
//
// Each measurement runs in a child Node with a small heap (--max-old-space-size): the line is
// built as bytes, the peak resident set is reset (/proc/self/clear_refs), the line is decoded,
// and the peak (VmHWM) over the resident set before decoding is what the decode cost. A
// non-canonical line (one space outside the verbatim value) holding a `fidelity` array of
// millions of zeros used to cost 80x the line (a node per value, and JSON.parse's array):
// 4.7 GB for the 64 MiB line readers must accept. Times are not asserted, only that ten times
// the line costs at most LINEAR_FACTOR times as long. The 64 MiB line runs with
// OMNIMESSAGE_HOSTILE=full.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const FULL = process.env.OMNIMESSAGE_HOSTILE === "full";
const MIB = 1 << 20;
const RSS_FACTOR = 10; // measured: 0.4x (20 MB) to 4x (2 MB) over the line
const RSS_SLACK = 16 * MIB;
const LINEAR_FACTOR = 30; // 10x the line may take at most this many times as long (measured: about 10x)
const INDEX = new URL("../dist/index.js", import.meta.url).href;

// The worst schema-valid lines of many small values outside verbatim values (the Python
// binding's bounds test has the same list): `head`, then `item` repeated (comma-separated) to
// the size asked, then `tail`; the space after "payload": makes the line non-canonical, so that
// the slow path decides it. Peak over the line at 4 MB, see the report in test_decode_bounds.py.
export const SHAPES = {
  fidelity: ['{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload": {"type":"text","role":"user","text":"hi","fidelity":{"a":[', "0", "]}}}"],
  servers_empty: ['{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload": {"type":"mcp_connect_begin","servers":[', '""', "]}}"],
  servers_names: ['{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload": {"type":"mcp_connect_begin","servers":[', '"github"', "]}}"],
  origin: ['{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload": {"type":"text","role":"user","text":"hi"},"origin":[', '"session-2026-07-18-03-11-02-9f8e7d6c"', "]}"],
  images: ['{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload": {"type":"tool_call_output","role":"user","output":"","images":[', '""', '],"tool_call_id":"c"}}'],
  results: ['{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload": {"type":"mcp_connect_end","status":"completed","results":[', '{"server":"a","transport":"stdio","status":"completed","duration_ms":1}', "]}}"],
  tools: ['{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload": {"type":"tool_list_ready","tools":[', '{"name":"a","description":""}', "]}}"],
  tools_params: ['{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload": {"type":"tool_list_ready","tools":[', '{"name":"a","description":"","parameters":{}}', "]}}"],
};

const WORKER = `
import { readFileSync, writeFileSync } from "node:fs";
const { decode, DecodeError } = await import(${JSON.stringify(INDEX)});
const [shape, size, canonical] = [process.argv[1], Number(process.argv[2]), process.argv[3] === "canonical"];
const [head, item, tail] = JSON.parse(process.argv[4] ?? "[]");
const status = (key) => Number(new RegExp(key + ":\\\\s+(\\\\d+)").exec(readFileSync("/proc/self/status", "utf8"))[1]) * 1024;
let line;
if (shape === "key_items") {
  line = '{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"text","role":"user","text":"hi","' +
    "k".repeat(100000) + '":[' + Array(20000).fill("0").join(",") + "]}}";
} else {
  const n = Math.max(1, Math.floor((size - head.length - tail.length) / (item.length + 1)));
  line = head + (item + ",").repeat(n - 1) + item + tail;
  if (canonical) line = line.replace('"payload": ', '"payload":');
}
line = Buffer.from(line);
globalThis.gc();
writeFileSync("/proc/self/clear_refs", "5");
const base = status("VmRSS");
const t = performance.now();
let outcome;
try {
  decode(line);
  outcome = "ok";
} catch (e) {
  outcome = e instanceof DecodeError ? "DecodeError:" + e.category : "escaped:" + e;
}
const seconds = (performance.now() - t) / 1000;
console.log(JSON.stringify({ line: line.length, peak: status("VmHWM") - base, seconds, outcome }));
`;

export function measure(shape, size, heapMib, canonical = false) {
  const args = [shape, String(size), canonical ? "canonical" : "slow", JSON.stringify(SHAPES[shape] ?? [])];
  const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMib}`, "--expose-gc", "--input-type=module", "-e", WORKER, ...args], {
    encoding: "utf8",
    timeout: 600_000,
    cwd: fileURLToPath(new URL("..", import.meta.url)),
  });
  assert.equal(r.status, 0, `${r.stderr}`.slice(-2000));
  return JSON.parse(r.stdout);
}

function within(r, factor = RSS_FACTOR) {
  const bound = factor * r.line + RSS_SLACK;
  assert.ok(r.peak <= bound, `decode peaked at ${(r.peak / MIB).toFixed(0)} MiB over a ${(r.line / MIB).toFixed(1)} MiB line`);
}

function linear(small, large, heapMib) {
  const a = measure("fidelity", small, heapMib);
  const b = measure("fidelity", large, heapMib);
  for (const r of [a, b]) {
    assert.equal(r.outcome, "ok", JSON.stringify(r));
    within(r);
  }
  const ratio = b.seconds / Math.max(a.seconds, 1e-3);
  assert.ok(ratio <= (LINEAR_FACTOR * large) / small / 10, `${large / small}x the line took ${ratio.toFixed(1)}x as long`);
}

test("a long key over many items is refused in bounded memory", () => {
  const r = measure("key_items", 0, 256);
  assert.equal(r.outcome, "DecodeError:unexpected_field", JSON.stringify(r));
  within(r);
});

test("a non-canonical 20 MB line of tiny verbatim values decodes within 10x, in linear time", () => {
  linear(2_000_000, 20_000_000, 256);
});

// Measured peak over the 4 MB line, node tree -> plain values: servers_empty 18x -> 8x,
// servers_names 9x -> 6x, origin 7x -> 3x, images 18x -> 9x, results 24x -> 6x, tools 40x -> 8x,
// tools_params 32x -> 9x (it varies by about 1x from run to run: the young generation). A valid
// line the fast path does not take (not canonical, or over 1 MiB) is read by scanPlain into the
// values JSON.parse would make (no node per value; verbatim objects checked, kept as spans),
// then checked by the fast validators; only a line that reader gives up on (a float, a lone
// surrogate escape, a duplicate key, any error) builds the node tree of the strict path, whose
// cost over such a line is still up to 40x (issue 12, open).
for (const shape of Object.keys(SHAPES).filter((s) => s !== "fidelity")) {
  test(`a non-canonical 4 MB line of many small values (${shape}) decodes within ${RSS_FACTOR}x`, () => {
    const r = measure(shape, 4_000_000, 256);
    assert.equal(r.outcome, "ok", JSON.stringify(r));
    within(r);
  });
}

test("a non-canonical 64 MiB line decodes within 10x on a 512 MiB heap", { skip: FULL ? false : "OMNIMESSAGE_HOSTILE=full" }, () => {
  const r = measure("fidelity", 64 * MIB, 512);
  assert.equal(r.outcome, "ok", JSON.stringify(r));
  within(r);
});
