// The one-pass path (src/canonical.ts on the generated readers of src/generated/read.ts) against
// the general paths (JSON.parse, validators, verifier; the scanners): on every line they decide
// the same (the same message, the same retained source, the same error), and the one-pass path
// reads what it should (every canonical valid line) and nothing else.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DecodeError, RawJson, encode } from "../dist/index.js";
import { decodeLine } from "../dist/codec.js";
import { readCanonical } from "../dist/canonical.js";
import { readMessage } from "../dist/generated/read.js";
import { HAVE_SUITE, cases, inputBytes } from "./support/conformance.mjs";

/** A deep copy where RawJson values become their text, keys in their order. */
function plain(v) {
  if (v instanceof RawJson) return { raw: v.text };
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === "object" && v !== null) return Object.entries(v).map(([k, x]) => [k, plain(x)]);
  return v;
}

/** What a decode of `input` gives, compared whole: message, retained source, encoding, or the error. */
function result(input, options, onePass) {
  try {
    const m = decodeLine(input, options, onePass);
    const kept = Object.getOwnPropertySymbols(m).map((s) => m[s]);
    return { kind: m.constructor.name, msg: plain(m), kept: plain(kept.map((k) => ({ text: k.text, values: k.values }))), out: encode(m) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { err: [e.category, e.pointer, e.offset, e.detail] };
  }
}

/** Both paths agree on `line` (strict, lenient, without retained source); the one-pass read, or null. */
export function agree(line) {
  for (const options of [{}, { lenient: true }, { retainSource: false }]) {
    assert.deepEqual(result(line, options, true), result(line, options, false), `${JSON.stringify(options)} ${String(line).slice(0, 300)}`);
  }
  const text = typeof line === "string" ? line : new TextDecoder().decode(line);
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  return text.isWellFormed() ? readCanonical(readMessage, text, end, true) : null;
}

const TS = "2026-07-18T03:10:22.531Z";
const msg = (payload, env = "model_msg", extra = "") => `{"timestamp":"${TS}","type":"${env}","payload":${payload}${extra}}`;
const text = (t, extra = "") => msg(`{"type":"text","role":"assistant","text":${t}${extra}}`);
const mcp = (duration, extra = "") =>
  msg(`{"type":"mcp_connect_end","status":"completed","results":[{"server":"s","transport":"stdio","status":"completed","duration_ms":${duration}${extra}}]}`, "event_msg");
const hook = (output) => msg(`{"type":"hook","hook":"stop","name":"h","output":${output}}`, "event_msg");

/** Canonical valid lines: the one-pass path reads each. */
const READ = [
  text('"hi"'),
  text('"hi"') + "\n",
  text('"a\\"b\\\\c\\n\\t\\r\\b\\f\\u0000\\u001f\\u007f"'.replace("\\u007f", "\u007f")),
  text('"\u2028\u2029 é 😀 \ufeff"'),
  // Surrogate pairs next to escapes, quotes, each other and the token's ends.
  text('"😀"'),
  text('"😀😀\\n😀\\"😀\\\\😀\\u0001😀"'),
  text('"\\"😀"', ',"fidelity":{"a":"😀"}'),
  text('""'),
  text('"x"', ',"fidelity":{ "a" :[1 , 2.50,{"b":null}],\t"a":"\\/\\ud800"}'),
  text('"x"', ',"stop_reason":"completed","fidelity":{},"sender":"harness"'),
  mcp("0"),
  mcp("1.5"),
  mcp("1e+21"),
  mcp("5e-324"),
  mcp("1.7976931348623157e+308"),
  mcp("123456789012345680"),
  mcp("12", ',"tools":9007199254740991,"error_code":"timeout","error_message":"m"'),
  hook('{"a":1,"b":"x","c":true,"d":-0.5e3}'),
  msg('{"type":"abort","reason":null}', "event_msg"),
  msg('{"type":"abort","error_code":"user_abort","reason":"r"}', "event_msg"),
  msg('{"type":"request_begin","prefix_records":0,"prefix_extends_prev":false}', "event_msg"),
  msg('{"session_id":"s","provider":"p","model_id":"m","model_context_window":"1M","system_prompt":"","agent_state":"","workspace":"w"}', "session_meta", ',"origin":["a","b"]'),
  msg('{"session_id":"s","provider":"p","model_id":"m","model_context_window":200000,"system_prompt":"","agent_state":"","workspace":"w","source":"cli"}', "session_meta"),
  msg('{"type":"tool_list_ready","tools":[{"name":"n","description":"d","parameters":{"type":"object"}},{"name":"m","description":""}]}', "event_msg"),
];

/** Lines the one-pass path leaves to the general paths (not canonical, or refused). */
const LEFT = [
  " " + text('"hi"'),
  text('"hi"') + " ",
  text('"hi"') + "\r\n",
  text('"hi"') + "\n\n",
  text('"\\/"'),
  text('"\\u0041"'),
  text('"\\u001F"'),
  text('"\\ud83d\\ude00"'),
  text('"\\ud800"'),
  text('"a\tb"'),
  // Raw line breaks: in a string, and as whitespace in a verbatim value (refused as line_break).
  text('"a\nb"'),
  text('"a\rb"'),
  text('"x"', ',"fidelity":{"a":\n1}'),
  text('"x"', ',"fidelity":{"a":1\r}'),
  text('"x"', ',"fidelity":{"a":[1,\r\n2]}'),
  text('"a'),
  text('"a\\'),
  text('"a\\"'),
  text('"hi"', ',"sender":"harness","fidelity":{}'),
  text('"hi"', ',"fidelity":[]'),
  text('"hi"', ',"fidelity":{"a":}'),
  text('"hi"', ',"fidelity":{"a":1}}'),
  text('"hi"', ',"fidelity":' + "[".repeat(600) + "]".repeat(600)),
  text('"hi"', ',"stop_reason":"done"'),
  text('"hi"', ',"text":"again"'),
  text('"hi"', ',"extra":1'),
  msg('{"type":"text","role":"system","text":"x"}'),
  msg('{"type":"nope","role":"user","text":"x"}'),
  msg('{"type":"text","role":"user","text":"x"}', "nope_msg"),
  mcp("-0"),
  mcp("-1"),
  mcp("01"),
  mcp("1.0"),
  mcp("1E+21"),
  mcp("1e21"),
  mcp("1.50"),
  mcp("123456789012345678"),
  mcp("1e400"),
  mcp(".5"),
  mcp("1."),
  mcp("12", ',"tools":1.5'),
  mcp("12", ',"tools":9007199254740992'),
  hook('{"a":null}'),
  hook('{"a":{}}'),
  msg('{"type":"request_begin","prefix_extends_prev":tru}', "event_msg"),
  msg('{"session_id":"s","provider":"p","model_id":"m","model_context_window":-1,"system_prompt":"","agent_state":"","workspace":"w"}', "session_meta"),
  msg('{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":"","workspace":"w"}', "session_meta", ',"origin":[]'),
  `{"type":"model_msg","timestamp":"${TS}","payload":{"type":"text","role":"user","text":"x"}}`,
  "[]",
  "",
  "{",
];

/**
 * Lone surrogates (in a JS string: bytes cannot carry one) at a string's start and end, beside a
 * pair, an escape, each other: the general paths refuse each, the one-pass path reads none.
 */
const LONE = [
  text('"\ud800"'),
  text('"\udc00"'),
  text('"a\ud83d"'),
  text('"\ude00b"'),
  text('"😀\ud800😀"'),
  text('"\ud800\ud800\udc00"'),
  text('"\ud800\udc00\udc00"'),
  text('"\udc00\ud800"'),
  text('"\ud800\ud800"'),
  text('"a\udc00\udc00b"'),
  text('"\udbff\udbff\udbff\udfff"'),
  text('"\\n\ud800"'),
  text('"\ud800\\n"'),
  text('"\ud800\\u0001"'),
  text('"x"', ',"fidelity":{"a":"\ud800"}'),
];

describe("one-pass decode against the general paths", () => {
  test("canonical valid lines are read in one pass, as the general paths decode them", () => {
    for (const line of READ) {
      assert.notEqual(agree(line), null, `not read in one pass: ${line}`);
      assert.notEqual(agree(Buffer.from(line)), null, `not read in one pass (bytes): ${line}`);
    }
  });

  test("anything else is left to the general paths, which decide as before", () => {
    for (const line of LEFT) {
      assert.equal(agree(line), null, `read in one pass: ${line}`);
      assert.equal(agree(Buffer.from(line)), null);
    }
  });

  test("a lone surrogate is left to the general paths, which refuse it", () => {
    for (const line of LONE) {
      agree(line);
      const end = line.length;
      assert.equal(readCanonical(readMessage, line, end, true), null, `read in one pass: ${JSON.stringify(line)}`);
      assert.equal(result(line, {}, true).err?.[0], "invalid_utf8", JSON.stringify(line));
    }
  });

  test("runs of every length from 0 to 9 before and after each kind of stop", () => {
    // The string search takes characters four at a time, then one at a time: every remainder.
    for (let n = 0; n <= 9; n++) {
      for (const m of [0, 1, 3, 4, 5]) {
        const [a, b] = ["a".repeat(n), "é中".repeat(m)];
        for (const t of [`"${a}"`, `"${a}\\n${b}"`, `"${a}😀${b}"`, `"${a}\\u0001${b}"`, `"${a}\\"${b}\\\\"`]) {
          assert.notEqual(agree(text(t)), null, `not read in one pass: ${t}`);
          assert.notEqual(agree(text('"x"', `,"fidelity":{"k":${t},${t}:[${t}]}`)), null, `not read in one pass: ${t}`);
        }
        for (const t of [`"${a}\t${b}"`, `"${a}\u007f\u0000${b}"`, `"${a}\\/${b}"`, `"${a}\\u0041${b}"`, `"${a}\\x${b}"`, `"${a}`]) {
          assert.equal(agree(text(t)), null, `read in one pass: ${JSON.stringify(t)}`);
        }
        const lone = [`"${a}\ud800${b}"`, `"${a}\udc00${b}"`, `"${a}\ud800"`, `"${a}\ud800\ud800${b}"`, `"${a}\udc00\udc00${b}"`];
        for (const line of [...lone.map((t) => text(t)), ...lone.map((t) => text('"x"', `,"fidelity":{"k":${t}}`)), text('"x"', `,"fidelity":{${lone[0]}:1}`)]) {
          agree(line);
          assert.equal(readCanonical(readMessage, line, line.length, true), null, `read in one pass: ${JSON.stringify(line)}`);
        }
      }
    }
  });

  test("the examples: every line agrees, every canonical one is read in one pass", () => {
    let read = 0;
    for (const name of ["trace", "stream", "broken-stream", "invalid"]) {
      const data = readFileSync(new URL(`../../examples/${name}.jsonl`, import.meta.url), "utf8");
      for (const line of data.split("\n").filter((l) => l !== "")) {
        const m = agree(line);
        if (m !== null) {
          assert.equal(encode(m), line);
          read++;
        }
      }
    }
    assert.ok(read > 50, `read ${read}`);
  });

  test("conformance cases: every input agrees, every identical round trip is read in one pass", { skip: !HAVE_SUITE && "no conformance suite beside the package" }, () => {
    let read = 0;
    for (const c of cases()) {
      if (c.max_line_bytes !== undefined) continue;
      const bytes = inputBytes(c.input);
      if (bytes.length > 1 << 16) continue;
      const m = agree(bytes);
      if (m !== null) read++;
      else if (c.expect.kind === "identical" && c.mode !== "lenient") {
        const t = bytes.toString("utf8");
        assert.ok(/\\u(?!00[01])|\\u00[01][A-F]|\\\/|"\\ud/.test(t) || !/^\{"/.test(t), `canonical, not read in one pass: ${c.id}`);
      }
    }
    assert.ok(read > 100, `read ${read}`);
  });
});
