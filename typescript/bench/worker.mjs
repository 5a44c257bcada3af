#!/usr/bin/env node
// One timed pass of one implementation over a JSON Lines file, for `make bench` (bench/run.py):
//   node bench/worker.mjs TASK IMPL FILE [TASK IMPL FILE ...]
// prints {"accepted", "identical", "seconds"} (one line per triple); the pass is timed after an
// untimed warm-up pass, excluding Node's start-up and reading the file. Lines are JS strings, each
// decoded from its own bytes, as a reader hands them over. With OMNIMESSAGE_CALLGRIND_SHIM (the
// Node-API module bench/callgrind.py builds from bench/callgrind_shim.c, run under valgrind's
// callgrind) each timed pass is also the only code whose instructions are counted.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { compileSchema } from "../test/support/ajv.mjs";
import { decode, encode, DecodeError } from "../dist/index.js";
import { decodeLine } from "../dist/codec.js";

function readLines(file) {
  const data = readFileSync(file);
  const out = [];
  for (let start = 0; start < data.length; ) {
    let nl = data.indexOf(10, start);
    if (nl < 0) nl = data.length;
    out.push(data.subarray(start, nl).toString("utf8"));
    start = nl + 1;
  }
  return out;
}

/** The lines of the pass being run. */
let lines = [];

function tryDecode(l, options) {
  try {
    return decode(l, options);
  } catch (e) {
    if (e instanceof DecodeError) return null;
    throw e;
  }
}

/** The general paths alone (JSON.parse, validators, the verifying writer), without the one-pass readers. */
function tryDecodeGeneral(l, options) {
  try {
    return decodeLine(l, options, false);
  } catch (e) {
    if (e instanceof DecodeError) return null;
    throw e;
  }
}

const NO_RETAIN = { retainSource: false };
const passes = {
  "decode_validate/omnimessage-typescript": () => {
    let ok = 0;
    for (const l of lines) if (tryDecode(l) !== null) ok++;
    return [ok, null];
  },
  "decode_validate/omnimessage-typescript-json-parse": () => {
    let ok = 0;
    for (const l of lines) if (tryDecodeGeneral(l) !== null) ok++;
    return [ok, null];
  },
  "decode_validate/json-parse": () => {
    let ok = 0;
    for (const l of lines) if (JSON.parse(l) !== undefined) ok++;
    return [ok, null];
  },
  "decode_validate/json-parse+ajv": (() => {
    const validate = compileSchema();
    return () => {
      let ok = 0;
      for (const l of lines) if (validate(JSON.parse(l))) ok++;
      return [ok, null];
    };
  })(),
  "roundtrip/omnimessage-typescript": () => {
    let ok = 0, same = 0;
    for (const l of lines) {
      const m = tryDecode(l);
      if (m === null) continue;
      ok++;
      if (encode(m) === l) same++;
    }
    return [ok, same];
  },
  "roundtrip/omnimessage-typescript-json-parse": () => {
    let ok = 0, same = 0;
    for (const l of lines) {
      const m = tryDecodeGeneral(l);
      if (m === null) continue;
      ok++;
      if (encode(m) === l) same++;
    }
    return [ok, same];
  },
  "roundtrip/omnimessage-typescript-reserialise": () => {
    let ok = 0, same = 0;
    for (const l of lines) {
      const m = tryDecode(l, NO_RETAIN);
      if (m === null) continue;
      ok++;
      if (encode(m) === l) same++;
    }
    return [ok, same];
  },
  "roundtrip/json-parse+stringify": () => {
    let same = 0;
    for (const l of lines) if (JSON.stringify(JSON.parse(l)) === l) same++;
    return [lines.length, same];
  },
};

const callgrind = { start() {}, stop() {} };
// Under callgrind the corpora are small: the warm-up pass runs again until it has seen this many
// lines, so that the measured pass counts the code the engine settled on, not its compiling it.
let warmLines = 0;
if (process.env.OMNIMESSAGE_CALLGRIND_SHIM) {
  const shim = { exports: {} };
  process.dlopen(shim, process.env.OMNIMESSAGE_CALLGRIND_SHIM);
  Object.assign(callgrind, shim.exports);
  warmLines = Number(process.env.OMNIMESSAGE_CALLGRIND_WARM_LINES ?? 0);
}
const args = process.argv.slice(2);
if (args.length === 0 || args.length % 3 !== 0) {
  process.stderr.write("usage: worker.mjs TASK IMPL FILE [TASK IMPL FILE ...]\n");
  process.exit(2);
}
for (let k = 0; k < args.length; k += 3) {
  const [task, impl, file] = args.slice(k, k + 3);
  const pass = passes[`${task}/${impl}`];
  if (!pass) {
    process.stderr.write(`unknown task/implementation ${task}/${impl}\n`);
    process.exit(2);
  }
  lines = readLines(file);
  let warmed = 0;
  do {
    pass(); // warm-up
    warmed += lines.length;
  } while (warmed < warmLines && lines.length > 0);
  globalThis.gc?.(); // (under callgrind, --expose-gc: each pass starts from a collected heap)
  const t0 = performance.now();
  callgrind.start(); // (reading the clock is left out: its instructions vary)
  const [accepted, identical] = pass();
  callgrind.stop();
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write(JSON.stringify({ accepted, identical, seconds }) + "\n");
}
