// Line-by-line decode harness for the cross-language differential tests
// (python/tests/test_ts_differential.py, fuzz/differential.py). Reads base64-encoded lines on stdin,
// one per line; writes one JSON result per line: {"out": base64 of the canonical text, "opaque":
// bool} or {"err": [category, pointer, offset, detail]} ({"crash": stack} if anything but a
// DecodeError escapes). Mode "lenient" as argv[2] decodes leniently; "string" as argv[3] hands the
// decoder JS strings (the lines must be UTF-8) instead of bytes; "json" as argv[3] hands it the JS
// string each line's bytes spell as a JSON string literal (how a lone surrogate reaches it).
//
// Mode "all" as argv[2] (the fuzzing harness, a long-running process): each result line is
// {"s": strict, "l": lenient, "t": strict from a JS string or null when the bytes are not UTF-8},
// and a line holding "=" flushes the results written so far (the end of a batch).
import { createInterface } from "node:readline";
import { DecodeError, OpaqueMessage, decode, encode } from "../dist/index.js";

const mode = process.argv[2];
const lenient = mode === "lenient";
const asString = process.argv[3] === "string";
const asJson = process.argv[3] === "json";
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function result(input, options) {
  try {
    const msg = decode(input, options);
    return { out: Buffer.from(encode(msg), "utf8").toString("base64"), opaque: msg instanceof OpaqueMessage };
  } catch (e) {
    if (!(e instanceof DecodeError)) return { crash: String(e && e.stack ? e.stack : e) };
    return { err: [e.category, e.pointer, e.offset, e.detail] };
  }
}

function text(view) {
  try {
    return utf8.decode(view);
  } catch {
    return null;
  }
}

const out = [];
function flush() {
  if (out.length) process.stdout.write(out.join("\n") + "\n");
  out.length = 0;
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const b64 of rl) {
  if (mode === "all" && b64 === "=") {
    flush();
    continue;
  }
  const bytes = Buffer.from(b64, "base64");
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  if (mode === "all") {
    const t = text(view);
    out.push(JSON.stringify({ s: result(view, {}), l: result(view, { lenient: true }), t: t === null ? null : result(t, {}) }));
    continue;
  }
  let input = view;
  if (asString) input = utf8.decode(view);
  else if (asJson) input = JSON.parse(utf8.decode(view));
  out.push(JSON.stringify(result(input, { lenient })));
  if (out.length >= 1000) flush();
}
flush();
