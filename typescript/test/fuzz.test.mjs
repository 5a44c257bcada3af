// Property-based fuzzing of the TypeScript decoder with fast-check.
//
// Messages are generated from the canonical schema itself (every envelope and payload kind, each
// optional field present or absent, every enum value, unicode strings with the characters
// JSON.stringify escapes, doubles and safe integers, origin chains, and verbatim values written
// every odd way: whitespace, number spellings, escapes, duplicate and `__proto__` keys). Their
// canonical line is what the reference producer writes: objects in schema order through
// JSON.stringify, verbatim values spliced in as their exact text. Properties:
//
//   - a canonical line decodes, and encodes back to itself byte for byte (string and bytes input);
//   - a respelling of it (keys shuffled, whitespace, escapes outside verbatim values) decodes to
//     the same message: its encoding is the canonical line;
//   - whatever the input (bytes, strings with lone surrogates, JSON texts, canonical lines with
//     hostile edits), decode returns a message or throws a DecodeError, nothing else, strict or
//     lenient; an accepted line's encoding is a fixed point; an opaque message encodes to its input;
//     byte and string input agree; nothing reaches Object.prototype;
//   - the one-pass path and the general paths decide every such line the same (message, retained
//     source, error), and the one-pass path reads every canonical line.
//
// The number of runs per property: OMNIMESSAGE_FC_RUNS (default a short run for `npm test`); the
// seed: OMNIMESSAGE_FC_SEED (a failure prints the seed and path that reproduce it). Long run:
//   OMNIMESSAGE_FC_RUNS=100000 node --test test/fuzz.test.mjs     (make fuzz-ts)
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { CATEGORIES, DecodeError, OpaqueMessage, decode, encode, canonicalize } from "../dist/index.js";
import { decodeLine } from "../dist/codec.js";
import { readCanonical } from "../dist/canonical.js";
import { readMessage } from "../dist/generated/read.js";

const RUNS = Number(process.env.OMNIMESSAGE_FC_RUNS ?? "") || 0;
const SEED = process.env.OMNIMESSAGE_FC_SEED === undefined ? undefined : Number(process.env.OMNIMESSAGE_FC_SEED);
/** fast-check parameters: `base` runs in the short run, OMNIMESSAGE_FC_RUNS when set. */
const params = (base) => ({ numRuns: RUNS || base, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true });

const schema = JSON.parse(readFileSync(new URL("../../schema/omnimessage.schema.json", import.meta.url), "utf8"));
const defs = schema.$defs;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const utf8 = new TextEncoder();

// ---------------------------------------------------------------------------
// verbatim values: JSON object texts written every odd way
// ---------------------------------------------------------------------------

// (no CR or LF: inside a message they are \`line_break\`, schema/README.md section 1.5)
const ws = fc.constantFrom("", "", "", " ", "\t", "\t\t", "  ", " \t");
const stringText = fc.oneof(
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"\\u00e9"', '"\\/"', '"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d\\ude00"', '"\\u0041"', '""', '"\\\\"', '"\\"x"'),
);
const numberText = fc.oneof(
  fc.constantFrom("0", "-0", "1.0", "1E2", "1e+2", "-1.5e-3", "18446744073709551617", "1e400", "-1e-400", "0.1", "1" + "0".repeat(400)),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);
const keyText = fc.oneof(stringText, fc.constantFrom('"__proto__"', '"constructor"', '"prototype"', '"a"', '"a"', '"toString"', '""'));

function objectText(member) {
  return fc
    .array(fc.tuple(ws, keyText, ws, ws, member, ws), { maxLength: 4 })
    .chain((ms) => ws.map((w) => "{" + (ms.length ? ms.map(([a, k, b, c, v, d]) => a + k + b + ":" + c + v + d).join(",") : w) + "}"));
}

const { jsonText } = fc.letrec((tie) => ({
  jsonText: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    stringText,
    numberText,
    fc.constantFrom("true", "false", "null"),
    fc.array(fc.tuple(ws, tie("jsonText"), ws), { maxLength: 4 }).chain((items) =>
      ws.map((w) => "[" + (items.length ? items.map(([a, v, b]) => a + v + b).join(",") : w) + "]"),
    ),
    objectText(tie("jsonText")),
  ),
}));
const verbatimObject = objectText(jsonText);
const scalarMap = objectText(fc.oneof(stringText, numberText, fc.constantFrom("true", "false")));

// ---------------------------------------------------------------------------
// messages, generated from the schema
// ---------------------------------------------------------------------------

/** A verbatim value: kept as its text, spliced into the line in place of a marker string. */
class Verbatim {
  constructor(text) {
    this.text = text;
  }
}
const ABSENT = Symbol("absent");

const textUnit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom('"', "\\", "/", "\n", "\r", "\t", "\b", "\f", "\u0000", "\u001f", "\u007f", "\u2028", "\u2029", "\ufeff", "\ud83d\ude00", "\uffff") },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
);
const text = fc.string({ unit: textUnit, maxLength: 24 });

const arbs = new Map();
function arbFor(s) {
  if (s.$ref) {
    const name = s.$ref.split("/").pop();
    if (!arbs.has(name)) arbs.set(name, arbFor(defs[name]));
    return arbs.get(name);
  }
  if ("const" in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.oneOf) return fc.oneof(...s.oneOf.map(arbFor));
  if (s.anyOf) return fc.oneof(...s.anyOf.map(arbFor));
  if (s["x-omnimessage-verbatim"]) {
    const scalar = s.additionalProperties && s.additionalProperties.anyOf;
    return (scalar ? scalarMap : verbatimObject).map((t) => new Verbatim(t));
  }
  switch (s.type) {
    case "string":
      return text;
    case "integer":
      return fc.oneof(fc.integer({ min: s.minimum ?? 0, max: Math.min(s.maximum ?? MAX_SAFE, 1000) }), fc.integer({ min: s.minimum ?? 0, max: s.maximum ?? MAX_SAFE }));
    case "number":
      return fc.oneof(
        fc.nat(100000),
        fc.double({ min: s.minimum ?? -Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 2 ** 53 + 2),
      );
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(arbFor(s.items), { minLength: s.minItems ?? 0, maxLength: 3 });
    case "object": {
      const props = Object.entries(s.properties ?? {});
      const required = new Set(s.required ?? []);
      return fc.tuple(...props.map(([k, p]) => (required.has(k) ? arbFor(p) : fc.option(arbFor(p), { nil: ABSENT, freq: 2 })))).map((values) => {
        const out = {};
        props.forEach(([k], i) => {
          if (values[i] !== ABSENT) out[k] = values[i];
        });
        return out;
      });
    }
    default:
      throw new Error(`no arbitrary for ${JSON.stringify(s).slice(0, 200)}`);
  }
}
const message = arbFor({ oneOf: schema.oneOf });

const MARK = "\u0001omnimessage-verbatim-";
/** The object with each verbatim value replaced by a marker string, and the texts by marker. */
function withMarkers(v, texts) {
  if (v instanceof Verbatim) {
    const m = MARK + texts.length + "\u0001";
    texts.push([JSON.stringify(m), v.text]);
    return m;
  }
  if (Array.isArray(v)) return v.map((x) => withMarkers(x, texts));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withMarkers(x, texts)]));
  return v;
}
const splice = (json, texts) => texts.reduce((acc, [marker, raw]) => acc.replace(marker, () => raw), json);

/** The reference producer: JSON.stringify in schema order, verbatim texts spliced in. */
function canonicalLine(msg) {
  const texts = [];
  return splice(JSON.stringify(withMarkers(msg, texts)), texts);
}

/** A respelling: keys shuffled, whitespace between tokens, characters of strings escaped (outside verbatim values). */
function respelled(msg, rng) {
  const shuffle = (v) => {
    if (v instanceof Verbatim || v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map(shuffle);
    const entries = Object.entries(v).map(([k, x]) => [k, shuffle(x)]);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [entries[i], entries[j]] = [entries[j], entries[i]];
    }
    return Object.fromEntries(entries);
  };
  const texts = [];
  const json = JSON.stringify(withMarkers(shuffle(msg), texts));
  let out = "";
  let inString = false;
  let marker = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === "\\") {
        const n = json[i + 1] === "u" ? 6 : 2; // an escape JSON.stringify wrote: copied whole
        out += json.slice(i, i + n);
        i += n - 1;
        continue;
      }
      if (c === '"') {
        inString = false;
        out += c;
        continue;
      }
      // Escape some characters; an astral character (a surrogate pair) as two \u escapes or not at all.
      const code = c.charCodeAt(0);
      const pair = code >= 0xd800 && code <= 0xdbff ? json[i + 1] : "";
      if (pair) i++;
      const esc = (ch) => {
        const hex = ch.charCodeAt(0).toString(16).padStart(4, "0");
        return "\\u" + (rng() < 0.3 ? hex.toUpperCase() : hex);
      };
      if (!marker && rng() < 0.15) out += esc(c) + (pair ? esc(pair) : "");
      else if (!marker && c === "/" && rng() < 0.5) out += "\\/";
      else out += c + pair;
      continue;
    }
    if (c === '"') {
      inString = true;
      marker = json.startsWith('"\\u0001omnimessage-verbatim-', i);
      out += c;
      continue;
    }
    out += c;
    if ("{[,:".includes(c) && rng() < 0.3) out += [" ", "\t", " \t", "  "][Math.floor(rng() * 4)]; // CR inside: line_break
  }
  return (rng() < 0.3 ? " " : "") + splice(out, texts) + (rng() < 0.3 ? " \r" : "");
}

// ---------------------------------------------------------------------------
// the oracle
// ---------------------------------------------------------------------------

/** Decode; anything but a DecodeError is a failure. */
function outcome(input, options) {
  try {
    const msg = decode(input, options);
    return { msg, out: encode(msg) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw new Error(`${e && e.name}: ${e && e.message} escaped decode(${JSON.stringify(String(input).slice(0, 200))})`);
    assert.ok(CATEGORIES.includes(e.category), e.category);
    assert.equal(typeof e.pointer, "string");
    assert.ok(e.offset === null || (Number.isInteger(e.offset) && e.offset >= 0));
    return { err: e };
  }
}

function checkAny(input) {
  const strict = outcome(input);
  if (strict.msg !== undefined) {
    // The canonical form is a fixed point.
    const again = outcome(strict.out);
    assert.equal(again.out, strict.out, "canonical output is not a fixed point");
    assert.equal(canonicalize(strict.out), strict.out);
  }
  const lenient = outcome(input, { lenient: true });
  if (strict.msg !== undefined) assert.equal(lenient.out, strict.out, "lenient changed an accepted line");
  if (lenient.msg instanceof OpaqueMessage) {
    const text = typeof input === "string" ? input : new TextDecoder().decode(input);
    // The opaque message is the line's object, from `{` to `}`: without the JSON whitespace around it (schema/README.md section 5).
    const line = text.endsWith("\n") ? text.slice(0, -1) : text;
    assert.equal(lenient.out, line.replace(/^[ \t\r\n]+/, "").replace(/[ \t\r\n]+$/, ""), "an opaque message is not its object");
    assert.notEqual(strict.err, undefined);
  }
  // Bytes and string input agree (for text that UTF-8 can carry).
  if (typeof input === "string" && input.isWellFormed()) {
    const bytes = outcome(utf8.encode(input));
    assert.equal(bytes.out, strict.out);
    if (strict.err) assert.deepEqual([bytes.err.category, bytes.err.pointer, bytes.err.offset], [strict.err.category, strict.err.pointer, strict.err.offset]);
  }
  return strict;
}

const HOSTILE = ["\u0000", "\ufeff", "\ud800", "\udc00", "\\ud800", "\\u0000", "NaN", "-", "01", "1.", "1e400", "[", "{", "]", "}", ",", ":", '"', "\\", "'", "/*", "//", "\r", "\n", "__proto__", '"__proto__":{},', '"type":"x",', "\u2028", "😀"];
/** A line with a few hostile edits: insertions, deletions, replacements. */
const edited = (line) =>
  fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.constantFrom(...HOSTILE)), { minLength: 1, maxLength: 4 }).map((edits) => {
    let s = line;
    for (const [at, kind, piece] of edits) {
      const i = at % (s.length + 1);
      s = kind === 0 ? s.slice(0, i) + piece + s.slice(i) : kind === 1 ? s.slice(0, i) + s.slice(i + 1) : s.slice(0, i) + piece + s.slice(i + 1);
    }
    return s;
  });

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

describe("fast-check: the decoder under generated and hostile input", () => {
  test("a canonical generated message decodes and encodes back byte for byte", () => {
    fc.assert(
      fc.property(message, (msg) => {
        const line = canonicalLine(msg);
        const r = outcome(line);
        assert.equal(r.err, undefined, `refused ${line.slice(0, 300)}: ${r.err}`);
        assert.equal(r.out, line);
        assert.equal(outcome(utf8.encode(line + "\n")).out, line);
      }),
      params(2000),
    );
  });

  test("a respelled message (keys shuffled, whitespace, escapes) decodes to its canonical line", () => {
    fc.assert(
      fc.property(message, fc.infiniteStream(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })), (msg, stream) => {
        const it = stream[Symbol.iterator]();
        const rng = () => it.next().value;
        const line = canonicalLine(msg);
        const spelled = respelled(msg, rng);
        const r = outcome(spelled);
        assert.equal(r.err, undefined, `refused ${spelled.slice(0, 300)}: ${r.err}`);
        assert.equal(r.out, line);
      }),
      params(2000),
    );
  });

  test("canonical lines with hostile edits: a message or a DecodeError, fixed points, lenient and bytes agree", () => {
    const seen = { accepted: 0, refused: new Set() };
    fc.assert(
      fc.property(message.chain((msg) => edited(canonicalLine(msg))), (line) => {
        const r = checkAny(line);
        if (r.err) seen.refused.add(r.err.category);
        else seen.accepted++;
      }),
      params(3000),
    );
    if (process.env.OMNIMESSAGE_FC_VERBOSE) console.log(seen);
    // The edits reach both sides: some lines survive them, and refusals are of many kinds.
    assert.ok(seen.accepted > 0 && seen.refused.size >= 8, `accepted ${seen.accepted}, refused as ${[...seen.refused]}`);
  });

  test("arbitrary bytes, strings (lone surrogates included) and JSON texts: only DecodeError escapes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (b) => void checkAny(b)), params(1000));
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => void checkAny(s)), params(1000));
    fc.assert(fc.property(fc.json({ maxDepth: 6 }), (s) => void checkAny(s)), params(1000));
    fc.assert(fc.property(jsonText, (s) => void checkAny(s)), params(1000));
  });

  test("the one-pass path and the general paths agree; every canonical line is read in one pass", () => {
    const same = (line) => {
      const run = (onePass) => {
        try {
          const m = decodeLine(line, {}, onePass);
          const kept = Object.getOwnPropertySymbols(m).map((k) => m[k]);
          return { m, out: encode(m), kept: kept.map((k) => [k.text, k.values.map((v) => (typeof v === "object" ? v.text : v))]) };
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e;
          return { err: [e.category, e.pointer, e.offset, e.detail] };
        }
      };
      const [a, b] = [run(true), run(false)];
      assert.deepEqual(a, b, line.slice(0, 300));
    };
    fc.assert(
      fc.property(message, (msg) => {
        const line = canonicalLine(msg);
        same(line);
        // JSON.stringify writes a lone surrogate as \udXXX, which only the strict path may accept (a fragment field).
        if (!/\\ud[89a-f]/.test(line)) assert.notEqual(readCanonical(readMessage, line, line.length, true), null, line.slice(0, 300));
      }),
      params(2000),
    );
    fc.assert(fc.property(message.chain((msg) => edited(canonicalLine(msg))), (line) => same(line)), params(2000));
  });

  test("nothing reached Object.prototype", () => {
    const probe = {};
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).filter((k) => !(k in Object.getPrototypeOf(probe) && typeof Object.prototype[k] === "function") && k !== "__proto__"), []);
    assert.equal(probe.polluted, undefined);
    assert.equal(probe.type, undefined);
  });
});
