#!/usr/bin/env node
// One timed pass of one implementation over a JSON Lines file, for `make bench` (bench/run.py):
//   node bench/worker.mjs TASK IMPL FILE
// prints {"accepted", "identical", "seconds"}; the pass is timed after an untimed warm-up pass,
// excluding Node's start-up and reading the file. Lines are JS strings, each decoded from its
// own bytes, as a reader hands them over.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { compileSchema } from "../test/support/ajv.mjs";
import { decode, encode, DecodeError } from "../dist/index.js";
import { decodeLine } from "../dist/codec.js";


const [task, impl, file] = process.argv.slice(2);
const data = readFileSync(file);
const lines = [];
for (let start = 0; start < data.length; ) {
  let nl = data.indexOf(10, start);
  if (nl < 0) nl = data.length;
  lines.push(data.subarray(start, nl).toString("utf8"));
  start = nl + 1;
}


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

const pass = passes[`${task}/${impl}`];
if (!pass) {
  process.stderr.write(`unknown task/implementation ${task}/${impl}\n`);
  process.exit(2);
}
pass(); // warm-up
const t0 = performance.now();
const [accepted, identical] = pass();
const seconds = (performance.now() - t0) / 1000;
process.stdout.write(JSON.stringify({ accepted, identical, seconds }) + "\n");
