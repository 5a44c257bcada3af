#!/usr/bin/env node
// Checks the suite's expected bytes against the reference producer itself: JavaScript objects
// built in schema order, serialised by JSON.stringify (schema/README.md section 2). No OmniMessage
// code is involved. For every strict case that expects bytes, it parses the input with JSON.parse, rebuilds every object with
// its keys in the order the schema lists them, and compares JSON.stringify's output with the
// expected bytes (verbatim values, whose bytes JSON.parse cannot keep, are matched as `{...}`). Prints one JSON line per mismatch, then a summary line; exit 1 on a mismatch.
//
//   node conformance/tools/reference_producer.mjs [conformance-dir] [schema.json]
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const suite = resolve(process.argv[2] ?? join(here, ".."));
const schema = JSON.parse(readFileSync(process.argv[3] ?? join(suite, "..", "schema", "omnimessage.schema.json"), "utf8"));
const defs = schema.$defs;
const manifest = JSON.parse(readFileSync(join(suite, "manifest.json"), "utf8"));

const files = new Map();
/** The bytes of a compact `{parts: [...]}` source: each piece (`text` as UTF-8, or `base64`) repeated `repeat` times. */
function partsBytes(parts) {
  return Buffer.concat(parts.map((p) => {
    const piece = p.text !== undefined ? Buffer.from(p.text, "utf8") : Buffer.from(p.base64, "base64");
    return Buffer.alloc(piece.length * (p.repeat ?? 1), piece);
  }));
}
function lineOf(src) {
  if (src.base64 !== undefined) return Buffer.from(src.base64, "base64");
  if (src.parts !== undefined) return partsBytes(src.parts);
  if (!files.has(src.file)) {
    const data = readFileSync(join(suite, src.file));
    const lines = [];
    let start = 0;
    for (let i = 0; i < data.length; i++) if (data[i] === 0x0a) { lines.push(data.subarray(start, i + 1)); start = i + 1; }
    if (start < data.length) lines.push(data.subarray(start));
    files.set(src.file, lines);
  }
  return files.get(src.file)[src.line - 1];
}
const stripLF = (b) => (b.length && b[b.length - 1] === 0x0a ? b.subarray(0, b.length - 1) : b);
const refName = (d) => (d && d.$ref ? d.$ref.split("/").pop() : null);

function pick(options, value) {
  for (const o of options) {
    const name = refName(o);
    const d = defs[name];
    if (d.oneOf) { if (pick(d.oneOf, value)) return name; continue; }
    const t = d.properties?.type?.const;
    if (t === undefined || value?.type === t) return name;
  }
  return null;
}

const VERBATIM = "\u0000verbatim\u0000";

function order(d, value) {
  if (d["x-omnimessage-verbatim"]) return VERBATIM; // its bytes are the input's: matched below
  const name = refName(d);
  if (name) return order(defs[name], value);
  if (d.oneOf) return order(defs[pick(d.oneOf, value)], value);
  if (d.type === "array" && Array.isArray(value)) return value.map((v) => order(d.items, v));
  if (d.type === "object" && d.properties && value && typeof value === "object") {
    const out = {};
    for (const [k, pd] of Object.entries(d.properties)) if (Object.hasOwn(value, k)) out[k] = order(pd, value[k]);
    return out;
  }
  return value;
}

// expected == parts[0] + {..} + parts[1] + {..} + ... + parts[n-1], each {..} a non-empty object text
function aroundVerbatim(parts, expected) {
  if (!expected.startsWith(parts[0])) return false;
  let pos = parts[0].length;
  for (let i = 1; i < parts.length; i++) {
    if (expected[pos] !== "{") return false;
    const last = i === parts.length - 1;
    let at = last ? expected.length - parts[i].length : expected.indexOf(parts[i], pos + 1);
    while (!last && at > 0 && expected[at - 1] !== "}") at = expected.indexOf(parts[i], at + 1);
    if (at <= pos || expected[at - 1] !== "}" || !expected.startsWith(parts[i], at)) return false;
    pos = at + parts[i].length;
  }
  return pos === expected.length;
}

let checked = 0, bad = 0, withVerbatim = 0;
for (const c of manifest.cases) {
  if (c.expect.kind === "reject" || (c.mode ?? "strict") !== "strict") continue;
  const input = stripLF(lineOf(c.input)).toString("utf8");
  const expected = c.expect.kind === "identical" ? input : stripLF(lineOf(c.expect.output)).toString("utf8");
  const root = JSON.parse(input);
  const got = JSON.stringify(order({ oneOf: schema.oneOf }, root));
  checked++;
  // Around verbatim values the bytes must be JSON.stringify's; the values themselves must be
  // objects copied from the input (checked as `{...}` here, byte for byte by the suite).
  const parts = got.split(JSON.stringify(VERBATIM));
  const ok = parts.length === 1 ? got === expected : aroundVerbatim(parts, expected);
  if (parts.length > 1) withVerbatim++;
  if (!ok) {
    bad++;
    let i = 0;
    while (i < got.length && got[i] === expected[i]) i++;
    console.log(JSON.stringify({ id: c.id, at: i, expected: expected.slice(Math.max(0, i - 30), i + 30), got: got.slice(Math.max(0, i - 30), i + 30) }));
  }
}
console.log(`${checked} checked against JSON.stringify (${withVerbatim} around verbatim values), ${bad} mismatches`);
process.exit(bad ? 1 : 0);
