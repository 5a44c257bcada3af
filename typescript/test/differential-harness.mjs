// Line-by-line decode harness for the cross-language differential test
// (python/tests/test_ts_differential.py). Reads base64-encoded lines on stdin, one per line;
// writes one JSON result per line: {"out": base64 of the canonical text, "opaque": bool} or
// {"err": [category, pointer, offset, detail]}. Mode "lenient" as argv[2] decodes leniently.
import { createInterface } from "node:readline";
import { DecodeError, OpaqueMessage, decode, encode } from "../dist/index.js";

const lenient = process.argv[2] === "lenient";
const out = [];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const b64 of rl) {
  const bytes = Buffer.from(b64, "base64");
  let result;
  try {
    const msg = decode(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), { lenient });
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
