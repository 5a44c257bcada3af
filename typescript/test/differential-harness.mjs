// Line-by-line decode harness for the cross-language differential test
// (python/tests/test_ts_differential.py). Reads base64-encoded lines on stdin, one per line;
// writes one JSON result per line: {"out": base64 of the canonical text, "opaque": bool} or
// {"err": [category, pointer, offset, detail]}. Mode "lenient" as argv[2] decodes leniently;
// "string" as argv[3] hands the decoder JS strings (the lines must be UTF-8) instead of bytes.
import { createInterface } from "node:readline";
import { DecodeError, OpaqueMessage, decode, encode } from "../dist/index.js";

const lenient = process.argv[2] === "lenient";
const asString = process.argv[3] === "string";
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const out = [];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const b64 of rl) {
  const bytes = Buffer.from(b64, "base64");
  let result;
  try {
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    const msg = decode(asString ? utf8.decode(view) : view, { lenient });
    result = { out: Buffer.from(encode(msg), "utf8").toString("base64"), opaque: msg instanceof OpaqueMessage };
  } catch (e) {
    if (!(e instanceof DecodeError)) {
      result = { crash: String(e && e.stack ? e.stack : e) };
    } else {
      result = { err: [e.category, e.pointer, e.offset, e.detail] };
    }
  }
  out.push(JSON.stringify(result));
  if (out.length >= 1000) {
    process.stdout.write(out.join("\n") + "\n");
    out.length = 0;
  }
}
if (out.length) process.stdout.write(out.join("\n") + "\n");
