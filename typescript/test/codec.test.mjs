import { test, describe } from "node:test";
import assert from "node:assert/strict";
import {
  DecodeError,
  OpaqueMessage,
  RawJson,
  canonicalize,
  decode,
  encode,
  isValidMessage,
  iterMessagesSync,
  MAX_DEPTH,
  partialToolCallOutput,
} from "../dist/index.js";
import { HAVE_SUITE, cases, expectedBytes, inputBytes } from "./support/conformance.mjs";

const TS = "2026-07-18T03:10:22.531Z";
const enc = new TextEncoder();
const line = (payload, env = "model_msg", extra = "") => `{"timestamp":"${TS}","type":"${env}","payload":${payload}${extra}}`;
/** A line with the timestamp "t" (the offsets below are counted on it). */
const short = (payload, env = "model_msg", extra = "") => `{"timestamp":"t","type":"${env}","payload":${payload}${extra}}`;

function refusal(input, opts) {
  try {
    decode(input, opts);
  } catch (e) {
    assert.ok(e instanceof DecodeError, `not a DecodeError: ${e}`);
    return e;
  }
  assert.fail(`accepted: ${typeof input === "string" ? input.slice(0, 200) : input}`);
}

/** A deep copy where RawJson values become their text, for comparing messages. */
function plain(v) {
  if (v instanceof RawJson) return { raw: v.text };
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

describe("conformance suite (../conformance), through the reader", { skip: !HAVE_SUITE && "no conformance suite beside the package" }, () => {
  for (const c of cases()) {
    test(c.id, () => {
      const lines = [...iterMessagesSync(inputBytes(c.input), { lenient: c.mode === "lenient", maxLineBytes: c.max_line_bytes })];
      assert.equal(lines.length, 1);
      const [l] = lines;
      if (c.expect.kind === "reject") {
        assert.ok(l.error, `accepted, expected ${c.expect.category}`);
        assert.equal(l.error.category, c.expect.category, l.error.message);
        if (c.expect.pointer !== undefined) assert.equal(l.error.pointer, c.expect.pointer);
        return;
      }
      assert.equal(l.error, null, l.error?.message);
      const out = Buffer.from(encode(l.message));
      const want = c.expect.kind === "identical" ? Buffer.from(l.raw) : expectedBytes(c.expect.output);
      assert.ok(out.equals(want), `re-encoded differently:\n${out.toString().slice(0, 300)}\n${want.toString().slice(0, 300)}`);
      if (c.expect.kind === "identical" && !(l.message instanceof OpaqueMessage)) {
        // The strict path (non-canonical input) decodes to the same message as the fast path.
        const slow = decode(" " + Buffer.from(l.raw).toString());
        assert.deepEqual(plain(slow), plain(l.message));
        assert.equal(encode(slow), encode(l.message));
        assert.ok(isValidMessage(l.message), "a decoded message is valid");
      }
    });
  }
});

describe("canonical encoding", () => {
  test("keys in schema order, whatever the insertion order", () => {
    const msg = { origin: ["s2", "s1"], payload: { sender: "harness", text: "hi", role: "user", type: "text", stop_reason: "completed" }, type: "model_msg", timestamp: TS };
    assert.equal(
      encode(msg),
      `{"timestamp":"${TS}","type":"model_msg","payload":{"type":"text","role":"user","text":"hi","stop_reason":"completed","sender":"harness"},"origin":["s2","s1"]}`,
    );
  });

  test("optional keys only when set; undefined is absent; null is a value", () => {
    assert.equal(encode({ timestamp: TS, type: "event_msg", payload: { type: "abort", error_code: undefined, reason: null } }), line('{"type":"abort","reason":null}', "event_msg"));
  });

  test("numbers as ECMAScript spells them", () => {
    const cases = [
      [5, "5"], [-0, "0"], [1e21, "1e+21"], [1e-7, "1e-7"], [1.5e-7, "1.5e-7"], [0.000001, "0.000001"], [123456789012345680000, "123456789012345680000"], [12.5, "12.5"],
    ];
    for (const [v, s] of cases) {
      const out = encode({ timestamp: TS, type: "event_msg", payload: { type: "request_end", status: "retryable", retry_in_ms: v } });
      assert.equal(out, line(`{"type":"request_end","status":"retryable","retry_in_ms":${s}}`, "event_msg"));
    }
    const spelled = [["1.0", "1"], ["1E2", "100"], ["-0", "0"], ["-0.0", "0"], ["10000000000000000000000", "1e+22"], ["1e-7", "1e-7"], ["0.1e1", "1"], ["9007199254740993", "9007199254740992"]];
    for (const [inp, out] of spelled) {
      assert.equal(
        canonicalize(line(`{"type":"request_end","status":"retryable","retry_in_ms":${inp}}`, "event_msg")),
        line(`{"type":"request_end","status":"retryable","retry_in_ms":${out}}`, "event_msg"),
        inp,
      );
    }
  });

  test("strings escaped as JSON.stringify escapes them", () => {
    const s = "\"\\\b\f\n\r\t\u0000\u001f\u007f/\u2028\u2029é😀\ud800";
    const out = encode({ timestamp: TS, type: "model_msg", payload: { type: "text", role: "user", text: s } });
    assert.equal(out, line(`{"type":"text","role":"user","text":${JSON.stringify(s)}}`));
    assert.ok(out.includes('\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\u007f/\u2028\u2029é😀\\ud800'));
    assert.equal(canonicalize(line('{"type":"text","role":"user","text":"\\u00e9\\/\\u0041\\ud83d\\ude00"}')), line('{"type":"text","role":"user","text":"é/A😀"}'));
  });

  test("verbatim values spliced back unchanged; plain objects written as JSON.stringify writes them", () => {
    const raw = ' {"b" : 1.0, "a":[1E2, "\\u00e9"], "a": -0} '.trim();
    const msg = { timestamp: TS, type: "model_msg", payload: { type: "thinking", role: "assistant", thinking: "t", fidelity: new RawJson(raw) } };
    assert.equal(encode(msg), line(`{"type":"thinking","role":"assistant","thinking":"t","fidelity":${raw}}`));
    msg.payload.fidelity = { z: 1, a: [1.5] };
    assert.equal(encode(msg), line('{"type":"thinking","role":"assistant","thinking":"t","fidelity":{"z":1,"a":[1.5]}}'));
  });

  test("a wrong JavaScript type is a TypeError naming the field, never bad JSON", () => {
    assert.throws(() => encode({ timestamp: TS, type: "model_msg", payload: { type: "text", role: "user" } }), /TextPayload\.text: expected a string, got undefined/);
    assert.throws(() => encode({ timestamp: TS, type: "event_msg", payload: { type: "request_end", status: "completed", retry_in_ms: NaN } }), /retry_in_ms: expected a finite number, got NaN/);
    assert.throws(() => encode({ timestamp: TS, type: "nope", payload: {} }), /OmniMessage\.type/);
    assert.throws(() => encode({ timestamp: TS, type: "model_msg", payload: { type: "nope" } }), /ModelPayload\.type/);
  });

  test("opaque messages re-encode to their input", () => {
    const src = line('{"type":"text","role":"user","text":"a","x-new":1}');
    const m = decode(src + "\n", { lenient: true });
    assert.ok(m instanceof OpaqueMessage);
    assert.equal(m.error.category, "unexpected_field");
    assert.equal(encode(m), src);
  });
});

describe("an unchanged decoded message encodes to its line", () => {
  const src = line(
    '{"type":"tool_list_ready","tools":[{"name":"ls","description":"List.","parameters":{"type" : "object"}},{"name":"cat","description":"Show."}]}',
    "event_msg",
    ',"origin":["child"]',
  );
  test("unchanged: the retained text; changed anywhere: encoded again", () => {
    assert.equal(encode(decode(src)), src);
    const edits = [
      [(m) => (m.timestamp = "t"), src.replace(TS, "t")],
      [(m) => (m.payload.tools[1].name = "dog"), src.replace('"cat"', '"dog"')],
      [(m) => m.payload.tools.pop(), src.replace(',{"name":"cat","description":"Show."}', "")],
      [(m) => (m.payload.tools[0].parameters = new RawJson("{}")), src.replace('{"type" : "object"}', "{}")],
      [(m) => delete m.payload.tools[0].parameters, src.replace(',"parameters":{"type" : "object"}', "")],
      [(m) => (m.origin = ["parent", "child"]), src.replace('["child"]', '["parent","child"]')],
      [(m) => m.origin.push("grandchild"), src.replace('["child"]', '["child","grandchild"]')],
      [(m) => delete m.origin, src.replace(',"origin":["child"]', "")],
      [(m) => (m.payload.tools[0].description = "List.\n"), src.replace('"List."', '"List.\\n"')],
    ];
    for (const [edit, want] of edits) {
      const m = decode(src);
      edit(m);
      assert.equal(encode(m), want, String(edit));
    }
  });
  test("the retained text is invisible and optional", () => {
    const m = decode(src);
    assert.deepEqual(Object.keys(m), ["timestamp", "type", "payload", "origin"]);
    assert.ok(!JSON.stringify(m).includes("omnimessage.source"));
    assert.equal(encode({ ...m }), src);
    assert.equal(encode(structuredClone({ ...m, payload: { type: "request_begin" } })), line('{"type":"request_begin"}', "event_msg", ',"origin":["child"]'));
    assert.equal(encode(decode(src, { retainSource: false })), src);
    assert.equal(encode(decode(src + "\n")), src);
  });
});

describe("strict decoding", () => {
  test("categories, pointers and byte offsets", () => {
    const table = [
      [short('{"type":"text","role":"user","text":"\\ud800"}'), "lone_surrogate", "/payload/text", 82],
      [short('{"type":"text","role":"user","text":"a","text":"b"}'), "duplicate_key", "/payload/text", 86],
      [short('{"type":"text","role":"user","typ\\u0065":"text","text":"a"}'), "duplicate_key", "/payload/type", 75],
      [short('{"type":"request_end","status":"completed","attempt":1.0}', "event_msg"), "invalid_number", "/payload/attempt", 99],
      [short('{"type":"request_end","status":"completed","retry_in_ms":1e400}', "event_msg"), "invalid_number", "/payload/retry_in_ms", 103],
      [short('{"type":"request_end","status":"failed"}', "event_msg"), "invalid_value", "/payload/status", 77],
      [short('{"type":"text","role":"user"}'), "missing_field", "/payload/text", 46],
      [short('{"type":"text","role":"user","text":"a","x":1}'), "unexpected_field", "/payload/x", 86],
      [short('{"type":"request_begin"}'), "unknown_type", "/payload/type", 54],
      [short('{"type":"text","role":"user","text":"a"}', "model_msg", ',"origin":[]'), "invalid_value", "/origin", 96],
      [short('{"type":"text","role":"user","text":"a","fidelity":[]}'), "wrong_type", "/payload/fidelity", 97],
      ['{"a":1} x', "trailing_data", "", 8],
      ["\ufeff{}", "invalid_json", "", 0],
      ["", "invalid_json", "", 0],
      ['{"a":01}', "invalid_json", "", 5],
      ['{"a":NaN}', "invalid_json", "", 5],
      ["[]", "wrong_type", "", 0],
    ];
    for (const [input, category, pointer, offset] of table) {
      const e = refusal(input);
      assert.deepEqual([e.category, e.pointer, e.offset], [category, pointer, offset], `${input}: ${e.message}`);
    }
  });

  test("the error reads like the Python binding's", () => {
    const e = refusal(short('{"type":"text","role":"bot","text":"a"}'));
    assert.equal(e.message, "invalid_value (at /payload/role, byte 68): 'bot' is not allowed here");
    assert.equal(e.lexical, false);
    assert.deepEqual(e.toJSON(), { category: "invalid_value", pointer: "/payload/role", detail: "'bot' is not allowed here", offset: 68 });
  });

  test("bytes: invalid UTF-8 with its offset; a BOM is not stripped; one trailing LF is allowed", () => {
    const good = enc.encode(line('{"type":"text","role":"user","text":"é"}') + "\n");
    assert.equal(decode(good).payload.text, "é");
    const bad = Uint8Array.from([...enc.encode('{"a":"'), 0xed, 0xa0, 0x80, ...enc.encode('"}')]);
    const e = refusal(bad);
    assert.deepEqual([e.category, e.offset, e.detail], ["invalid_utf8", 6, "invalid UTF-8 (invalid continuation byte)"]);
    assert.equal(refusal(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])).category, "invalid_json");
    assert.equal(refusal(Uint8Array.from([0x7b, 0xc0, 0xaf])).detail, "invalid UTF-8 (invalid start byte)");
    assert.equal(refusal(Uint8Array.from([0x7b, 0xf0, 0x9f])).detail, "invalid UTF-8 (unexpected end of data)");
  });

  test("a JS string with a lone surrogate is not UTF-8", () => {
    const e = refusal(short('{"type":"text","role":"user","text":"a\ud800"}'));
    assert.deepEqual([e.category, e.offset], ["invalid_utf8", 84]);
  });

  test("a lone surrogate anywhere in a JS string: refused at its offset by the one-pass path and the general one alike", async () => {
    // The one-pass reader proves the absence in its own scans (canonical.ts): it gives up on every one
    // of these lines (and reads each with a pair where the line is canonical); the other paths check the
    // whole line first. Each place the proof touches, with a lone half, a reversed pair and a pair.
    const { decodeLine } = await import("../dist/codec.js");
    const { readCanonical } = await import("../dist/canonical.js");
    const { readMessage } = await import("../dist/generated/read.js");
    const L = (text, extra = "") => line(`{"type":"text","role":"user","text":"${text}"${extra}}`);
    const canonical = [ // a pair in place of the @ makes a canonical line
      L("@"), L("@abc"), L("abc@"), L("a@b"), // a string without escapes: start, end, middle
      L("\\n@"), L("@\\n"), L('a\\"@\\\\b'), L("\\u0001@x"), L("\\t\\n@\\r"), // strings with escapes
      L("x", ',"fidelity":{"k":"@"}'), L("x", ',"fidelity":{"@":1}'), L("x", ',"fidelity":{"k":"\\n@"}'), // verbatim
    ];
    const other = [ // not canonical (or not valid) even with a pair
      "@" + L("a"), // the line's start
      L("a") + "@", // its end: a high surrogate last
      L("a") + "@\n", // before its line feed
      line('{"type":"te@xt","role":"user","text":"a"}'), // a discriminator
      '{"timestamp":"t","ty@pe":"model_msg","payload":{"type":"text","role":"user","text":"a"}}', // a key
      '{"timestamp":"t\r","type":"model_msg","payload":{"type":"text","role":"user","text":"a@"}}', // and a raw CR
    ];
    const both = (input) => [true, false].map((onePass) => {
      try {
        return { ok: plain(decodeLine(input, undefined, onePass)) };
      } catch (e) {
        assert.ok(e instanceof DecodeError, `${e}`);
        return { category: e.category, offset: e.offset };
      }
    });
    const end = (t) => (t.endsWith("\n") ? t.length - 1 : t.length);
    for (const place of [...canonical, ...other]) {
      const offset = enc.encode(place.slice(0, place.indexOf("@"))).length;
      for (const [lone, skip] of [["\ud83d", 0], ["\ude00", 0], ["\ude00\ud83d", 0], ["a\ud83d", 1]]) {
        const input = place.replace("@", lone);
        assert.equal(readCanonical(readMessage, input, end(input), true), null, JSON.stringify(input));
        for (const got of both(input)) assert.deepEqual(got, { category: "invalid_utf8", offset: offset + skip }, JSON.stringify(input));
      }
      const input = place.replace("@", "\ud83d\ude00");
      const [onePass, general] = both(input);
      assert.deepEqual(onePass, general, place);
      if (canonical.includes(place)) assert.ok(onePass.ok && readCanonical(readMessage, input, end(input), true) !== null, place);
    }
    assert.equal(decode(L("\ud83d\ude00")).payload.text, "\u{1f600}");
    assert.equal(decode(L("\\n\ud83d\ude00\\t")).payload.text, "\n\u{1f600}\t");
  });

  test("depth: 512 levels pass, 513 are too deep, 100000 never crash", () => {
    const deep = (n) => line(`{"type":"text","role":"user","text":"a","fidelity":{"a":${"[".repeat(n)}${"]".repeat(n)}}}`);
    assert.ok(decode(deep(MAX_DEPTH - 3)));
    assert.ok(decode(" " + deep(MAX_DEPTH - 3)));
    const e = refusal(deep(MAX_DEPTH - 2));
    assert.equal(e.category, "too_deep");
    assert.equal(e.offset, deep(MAX_DEPTH - 2).indexOf("[") + MAX_DEPTH - 3);
    assert.equal(refusal("[".repeat(100000)).category, "too_deep");
    assert.equal(refusal(deep(100000)).category, "too_deep");
  });

  test("__proto__ and constructor keys are plain data", () => {
    const before = Object.getOwnPropertyNames(Object.prototype).length;
    const e = refusal(line('{"type":"text","role":"user","text":"a","__proto__":{"polluted":1}}'));
    assert.deepEqual([e.category, e.pointer], ["unexpected_field", "/payload/__proto__"]);
    assert.equal(refusal(line('{"type":"text","role":"user","text":"a","constructor":1}')).pointer, "/payload/constructor");
    assert.equal(refusal('{"constructor":1,"type":"model_msg"}').category, "unexpected_field");
    const ok = decode(line('{"type":"text","role":"user","text":"a","fidelity":{"__proto__":{"polluted":1},"constructor":2}}'));
    assert.equal(ok.payload.fidelity.text, '{"__proto__":{"polluted":1},"constructor":2}');
    assert.deepEqual(Object.keys(ok.payload.fidelity.parse()), ["__proto__", "constructor"]);
    assert.equal({}.polluted, undefined);
    assert.equal(Object.getOwnPropertyNames(Object.prototype).length, before);
  });

  test("lenient keeps well-formed objects only", () => {
    assert.ok(decode(line('{"type":"text","role":"user","text":"\\ud800"}'), { lenient: true }) instanceof OpaqueMessage);
    assert.ok(decode('{"a":1,"a":2}', { lenient: true }) instanceof OpaqueMessage);
    assert.equal(refusal("[1]", { lenient: true }).category, "wrong_type");
    assert.equal(refusal('{"a":', { lenient: true }).category, "invalid_json");
  });

  test("a 16 MB string, canonical and not", () => {
    const big = "x\n".repeat(8 << 20);
    const src = line(`{"type":"tool_call_output","role":"user","output":${JSON.stringify(big)},"tool_call_id":"c"}`);
    assert.equal(decode(src).payload.output.length, big.length);
    assert.equal(canonicalize(" " + src), src);
  });

  test("only DecodeError escapes, whatever the input; decoding is idempotent", () => {
    const seeds = [
      line('{"type":"tool_call","role":"assistant","name":"ls","arguments":"{\\"a\\":1}","tool_call_id":"c","stop_reason":"completed","fidelity":{"sig":"A\\/b","n":[1.0,-0,1e400]}}'),
      line('{"type":"hook","hook":"stop","name":"n","decision":"allow","output":{"a":1,"b":"x","c":true}}', "event_msg"),
      line('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","parameters":{"type":"object"}}]}', "event_msg", ',"origin":["s1"]'),
      '{"timestamp":"t","type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":"big","system_prompt":"","agent_state":"","workspace":""}}',
    ];
    let state = 12345;
    const rnd = (n) => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state % n;
    };
    const alphabet = ['"', "\\", "{", "}", "[", "]", ":", ",", " ", "1", "e", "-", ".", "u", "d8", "\n", "\u2028", "😀", "null", "0"];
    let accepted = 0;
    for (let i = 0; i < 4000; i++) {
      const s = [...seeds[i % seeds.length]];
      for (let k = 0, n = 1 + rnd(3); k < n; k++) {
        const at = rnd(s.length + 1);
        const op = rnd(3);
        if (op === 0) s.splice(at, 1);
        else if (op === 1) s.splice(at, 0, alphabet[rnd(alphabet.length)]);
        else s.splice(at, 1, alphabet[rnd(alphabet.length)]);
      }
      const text = s.join("");
      for (const input of [text, enc.encode(text)]) {
        for (const lenient of [false, true]) {
          let m;
          try {
            m = decode(input, { lenient });
          } catch (e) {
            assert.ok(e instanceof DecodeError, `${text}: ${e}`);
            continue;
          }
          accepted++;
          const once = encode(m);
          assert.equal(encode(decode(once, { lenient })), once, text);
        }
      }
    }
    assert.ok(accepted > 100, `only ${accepted} mutants accepted`);
  });
});

describe("split surrogate pairs in streaming fragments (wire contract 4.1)", () => {
  /** A canonical partial of `kind` whose fragment field is the JSON string body `frag`. */
  const partial = (kind, frag) =>
    ({
      text: line(`{"type":"partial_text","role":"assistant","event_type":"delta","text":"${frag}"}`),
      thinking: line(`{"type":"partial_thinking","role":"assistant","event_type":"delta","thinking":"${frag}"}`),
      arguments: line(`{"type":"partial_tool_call","role":"assistant","event_type":"delta","name":"f","arguments":"${frag}","tool_call_id":"c"}`),
      output: line(`{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"${frag}","tool_call_id":"c"}`),
    })[kind];

  test("a lone half in the fragment field decodes to the lone code unit and re-encodes byte for byte", () => {
    const bodies = [
      ["abc\\ud83d", "abc\ud83d"],
      ["\\ude00def", "\ude00def"],
      ["\\udc00 mid \\udbff", "\udc00 mid \udbff"],
      ["\\ud83d", "\ud83d"],
      ["a\\udc00b", "a\udc00b"],
      ["😀\\ud83d", "😀\ud83d"],
    ];
    for (const kind of ["text", "thinking", "arguments", "output"]) {
      for (const [body, value] of bodies) {
        const src = partial(kind, body);
        for (const input of [src, enc.encode(src), src + "\n"]) {
          const m = decode(input);
          assert.equal(m.payload[kind], value, `${kind} ${body}`);
          assert.equal(encode(m), src);
          assert.equal(encode(decode(input, { retainSource: false })), src);
        }
        assert.equal(canonicalize(src), src);
      }
    }
  });

  test("other spellings are valid and canonicalise to JSON.stringify's lower case", () => {
    for (const [spelled, canonical] of [
      ["abc\\uD83D", "abc\\ud83d"],
      ["\\uDE00def", "\\ude00def"],
      ["\\uDc00x\\udBfF", "\\udc00x\\udbff"],
      ["\\uD83D\\uDE00\\ud83d", "😀\\ud83d"],
      ["\\u0041\\/\\ud83d", "A/\\ud83d"],
    ]) {
      assert.equal(canonicalize(partial("output", spelled)), partial("output", canonical));
    }
    const reordered = `{"payload":{"tool_call_id":"c","output":"abc\\ud83d","event_type":"delta","role":"user","type":"partial_tool_call_output"},"type":"model_msg","timestamp":"${TS}"}`;
    assert.equal(canonicalize(reordered), partial("output", "abc\\ud83d"));
  });

  test("everywhere else a lone surrogate is still refused", () => {
    const table = [
      [line('{"type":"partial_tool_call","role":"assistant","event_type":"delta","name":"\\ud83d","arguments":"","tool_call_id":"c"}'), "/payload/name"],
      [line('{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"x","tool_call_id":"c\\udbff"}'), "/payload/tool_call_id"],
      [line('{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"","images":["\\udc00"],"tool_call_id":"c"}'), "/payload/images/0"],
      [line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d","\\ud83d":1}'), "/payload/\ud83d"],
      [line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"x","fidelity":{"s":"\\ud83d"}}'), "/payload/fidelity/s"],
      [line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"","output":"\\ud83d"}'), "/payload/output"],
      [line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d"}', "model_msg", ',"origin":["\\ud800"]'), "/origin/0"],
      [line('{"type":"tool_call_output","role":"user","output":"abc\\ud83d","tool_call_id":"c"}'), "/payload/output"],
      [line('{"type":"text","role":"assistant","text":"\\ude00"}'), "/payload/text"],
      [line('{"type":"tool_call","role":"assistant","name":"n","arguments":"\\ud83d","tool_call_id":"c"}'), "/payload/arguments"],
      [line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d"}', "event_msg"), "/payload/text"],
      ['{"timestamp":"\\ud83d","type":"model_msg","payload":{"type":"partial_text","role":"assistant","event_type":"delta","text":"x"}}', "/timestamp"],
    ];
    for (const [input, pointer] of table) {
      const e = refusal(input);
      assert.deepEqual([e.category, e.pointer], ["lone_surrogate", pointer], input);
      const opaque = decode(input, { lenient: true });
      assert.ok(opaque instanceof OpaqueMessage);
      assert.equal(encode(opaque), input);
    }
  });

  test("surrogates in the UTF-8 bytes (or raw in a JS string) stay invalid_utf8", () => {
    const src = partial("text", "abcX");
    const bytes = enc.encode(src);
    const at = bytes.indexOf(0x58);
    const bad = Uint8Array.from([...bytes.subarray(0, at), 0xed, 0xa0, 0xbd, ...bytes.subarray(at + 1)]);
    assert.deepEqual([refusal(bad).category, refusal(bad).offset], ["invalid_utf8", at]);
    assert.equal(refusal(src.replace("X", "\ud83d")).category, "invalid_utf8");
  });

  test("verbatim values keep lone surrogate escapes as before, upper case included", () => {
    const src = line('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"s":"\\uD83D"}}');
    assert.equal(encode(decode(src)), src);
  });

  test("builders write a lone half as JSON.stringify does", () => {
    const m = partialToolCallOutput("delta", "abc\ud83d", "c", { timestamp: TS });
    const src = encode(m);
    assert.ok(src.includes('"output":"abc\\ud83d"'));
    assert.equal(decode(src).payload.output, "abc\ud83d");
  });
});

describe("RawJson", () => {
  test("holds exact JSON object text", () => {
    const r = new RawJson('{"n":1.0,"n":1E2,"s":"\\u00e9"}');
    assert.equal(r.text, '{"n":1.0,"n":1E2,"s":"\\u00e9"}');
    assert.deepEqual(r.parse(), { n: 100, s: "é" });
    assert.equal(JSON.stringify({ f: r }), '{"f":{"n":100,"s":"é"}}');
    assert.ok(r.equals(new RawJson(r.text)));
  });
  test("refuses what is not one JSON object", () => {
    for (const bad of ["[]", "1", " {}", "{} ", '{"a":}', "{", '{"a":"\ud800"}', "{}{}"]) assert.throws(() => new RawJson(bad), TypeError, bad);
  });
  test("from a value", () => {
    assert.equal(RawJson.from({ b: 1, a: [true, null] }).text, '{"b":1,"a":[true,null]}');
    assert.throws(() => RawJson.from([]), TypeError);
  });
});
