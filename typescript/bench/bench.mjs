#!/usr/bin/env node
// Throughput of the TypeScript codec on a JSON Lines file, side by side in one run:
//   node bench/bench.mjs [TRACE.jsonl] [--mb 110] [--seed 1] [--rounds N] [--json OUT.json]
// Without TRACE, the corpus is the benchmark trace of the repository's one synthetic-message
// generator (dev/omnimessage_dev/synth, the `trace` corpus of `make bench`), written at bench time
// by `python -m omnimessage_dev.synth bench-trace` into bench/corpora/ (kept for the next run);
// $PYTHON names the interpreter (default: the checkout's .venv/bin/python, else python3).
// Contenders: JSON.parse alone (the floor), JSON.parse + ajv (the canonical schema, 2020-12,
// strict), JSON.parse + JSON.stringify, our decode (strict, verbatim values kept), and our
// decode + encode (the round trip; an unchanged decoded message encodes to its retained text),
// plus the round trip that serialises again (`retainSource: false`, what a changed message
// costs) and decode from bytes (UTF-8 decoding included). Rounds interleave the contenders;
// each figure is the median of the rounds, in MB/s of input (10^6 bytes), with its ratio to
// JSON.parse. Lines are handed over as JS strings, each decoded from its own bytes as a reader
// would, since that is what JSON.parse takes.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { compileSchema } from "../test/support/ajv.mjs";
import { decode, encode, DecodeError } from "../dist/index.js";


const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const VALUED = new Set(["--rounds", "--json", "--mb", "--seed"]);
const file = args.find((a, i) => !a.startsWith("--") && !VALUED.has(args[i - 1])) ?? generatedCorpus();

function generatedCorpus() {
  const mb = Number(opt("--mb", "110"));
  const seed = Number(opt("--seed", "1"));
  const dir = fileURLToPath(new URL("../../bench/corpora/", import.meta.url));
  const out = `${dir}ts-bench-trace-v2-${mb}MB-seed${seed}.jsonl`; // v2: omnimessage_dev.synth.corpora.VERSION
  if (!existsSync(out)) {
    const venv = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));
    const python = process.env.PYTHON ?? (existsSync(venv) ? venv : "python3");
    mkdirSync(dir, { recursive: true });
    execFileSync(python, ["-m", "omnimessage_dev.synth", "bench-trace", out, "--bytes", String(mb * 1e6), "--seed", String(seed)], { stdio: "inherit" });
  }
  return out;
}
const rounds = Math.max(5, Number(opt("--rounds", "7")));

const data = readFileSync(file);
// Lines as a reader gives them: each decoded from its own bytes (so a line without non-ASCII
// characters is a one-byte string, as JSON.parse prefers), not slices of one big string.
const byteLines = [];
for (let start = 0; start < data.length; ) {
  let nl = data.indexOf(10, start);
  if (nl < 0) nl = data.length;
  byteLines.push(data.subarray(start, nl));
  start = nl + 1;
}
const lines = byteLines.map((b) => b.toString("utf8"));
const mb = data.length / 1e6;

const validate = compileSchema();

// Every contender must see the whole trace as valid (a benchmark of refusals would be meaningless).
let refused = 0;
for (const l of lines) {
  try {
    decode(l);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    refused++;
  }
}
if (refused) process.stderr.write(`warning: ${refused} lines are refused by decode\n`);

let sink = 0;
// Without the retained text, encode serialises the message again (what encoding a changed message costs).
const NO_RETAIN = { retainSource: false };
const contenders = [
  ["JSON.parse", () => { for (const l of lines) sink += JSON.parse(l) === null ? 1 : 0; }],
  ["JSON.parse + ajv", () => { for (const l of lines) if (!validate(JSON.parse(l))) throw new Error("ajv refused a line"); }],
  ["JSON.parse + JSON.stringify", () => { for (const l of lines) sink += JSON.stringify(JSON.parse(l)).length; }],
  ["decode", () => { for (const l of lines) sink += decode(l) === null ? 1 : 0; }],
  ["decode + encode", () => { for (const l of lines) sink += encode(decode(l)).length; }],
  ["decode + encode, re-serialised", () => { for (const l of lines) sink += encode(decode(l, NO_RETAIN)).length; }],
  ["decode (bytes)", () => { for (const l of byteLines) sink += decode(l) === null ? 1 : 0; }],
];

const times = new Map(contenders.map(([name]) => [name, []]));
for (const [, fn] of contenders) fn(); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of contenders) {
    const t0 = performance.now();
    fn();
    times.get(name).push((performance.now() - t0) / 1000);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const floor = mb / median(times.get("JSON.parse"));
const results = contenders.map(([name]) => {
  const t = median(times.get(name));
  return { name, seconds: t, mb_per_s: mb / t, ratio: mb / t / floor };
});
process.stdout.write(`${file}: ${mb.toFixed(1)} MB, ${lines.length} lines; node ${process.version}; median of ${rounds} rounds\n\n`);
process.stdout.write(`| contender | MB/s | x JSON.parse |\n| --- | ---: | ---: |\n`);
for (const r of results) process.stdout.write(`| ${r.name} | ${r.mb_per_s.toFixed(0)} | ${r.ratio.toFixed(2)} |\n`);
const jsonOut = opt("--json", null);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ file, megabytes: mb, lines: lines.length, node: process.version, rounds, results }, null, 2) + "\n");
if (sink === -1) process.stdout.write("");
