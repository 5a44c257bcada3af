// The codec's optimized code survives a full garbage collection: the one-pass readers
// (src/canonical.ts, SHAPE_KEEPER) and the generated encoders run on the writers (the Verifier of
// the general decode path and the Replay of `encode`, src/verifier.ts, SHAPE_KEEPERS). Without
// one alive, a collection freed their object shape, which optimized code holds only weakly, and
// threw that code away: every collection between decodes made the next lines run unoptimized and
// compile it all again.
//
// V8's own view is asked in a child process (`--allow-natives-syntax`): the functions are
// optimized on purpose, a full collection runs with no reader nor writer alive, and the code must
// still be optimized. Deterministic: no timing, the engine's state is read, not measured.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const DIST = new URL("../dist/", import.meta.url);

const PROBE = `
import { decode, encode } from ${JSON.stringify(new URL("index.js", DIST).href)};
import { decodeLine } from ${JSON.stringify(new URL("codec.js", DIST).href)};
import { writeMessage } from ${JSON.stringify(new URL("generated/encode.js", DIST).href)};
import { readCanonical } from ${JSON.stringify(new URL("canonical.js", DIST).href)};
import { readMessage } from ${JSON.stringify(new URL("generated/read.js", DIST).href)};
const line = ${JSON.stringify('{"timestamp":"2025-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"abort","reason":"x"}}')};
const onePass = readCanonical(readMessage, line, line.length, true) !== null;
// The one-pass path; the general path (JSON.parse, then the encoders on a Verifier); encode (a Replay).
const runs = { readCanonical: () => decode(line), writeMessage: () => encode(decodeLine(line, undefined, false)) };
const fns = { readCanonical, writeMessage };
const status = {};
for (const name of Object.keys(runs)) {
  %PrepareFunctionForOptimization(fns[name]);
  for (let i = 0; i < 100; i++) runs[name]();
  %OptimizeFunctionOnNextCall(fns[name]);
  runs[name]();
}
for (const name of Object.keys(runs)) status[name] = [%GetOptimizationStatus(fns[name])];
gc();
for (const name of Object.keys(runs)) status[name].push(%GetOptimizationStatus(fns[name]));
process.stdout.write(JSON.stringify({ onePass, status }));
`;

// %GetOptimizationStatus: bit 4 (16) is "optimized".
const OPTIMIZED = 16;

test("the one-pass readers and the encoders on the writers stay optimized across a full collection", () => {
  const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--expose-gc", "--input-type=module", "-e", PROBE], {
    cwd: fileURLToPath(DIST),
    encoding: "utf8",
    timeout: 60_000,
  });
  const { onePass, status } = JSON.parse(out);
  assert.equal(onePass, true, "the probe line takes the one-pass path");
  assert.deepEqual(Object.keys(status), ["readCanonical", "writeMessage"]);
  for (const [name, [before, after]] of Object.entries(status)) {
    assert.ok(before & OPTIMIZED, `${name} optimized before the collection (status ${before.toString(2)})`);
    assert.ok(after & OPTIMIZED, `${name} still optimized after a full collection (status ${after.toString(2)})`);
  }
});
