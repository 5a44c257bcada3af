// The one-pass readers' optimized code survives a full garbage collection (src/canonical.ts,
// SHAPE_KEEPER). Without a reader alive, a collection freed the readers' object shape, which the
// optimized code holds only weakly, and threw that code away: every collection between decodes
// made the next lines run unoptimized and compile the readers again.
//
// V8's own view is asked in a child process (`--allow-natives-syntax`): readCanonical is
// optimized on purpose, a full collection runs with no reader alive, and the code must still be
// optimized. Deterministic: no timing, the engine's state is read, not measured.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const DIST = new URL("../dist/", import.meta.url);

const PROBE = `
import { decode } from ${JSON.stringify(new URL("index.js", DIST).href)};
import { readCanonical } from ${JSON.stringify(new URL("canonical.js", DIST).href)};
import { readMessage } from ${JSON.stringify(new URL("generated/read.js", DIST).href)};
const line = ${JSON.stringify('{"timestamp":"2025-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"abort","reason":"x"}}')};
const onePass = readCanonical(readMessage, line, line.length, true) !== null;
%PrepareFunctionForOptimization(readCanonical);
for (let i = 0; i < 100; i++) decode(line);
%OptimizeFunctionOnNextCall(readCanonical);
decode(line);
const before = %GetOptimizationStatus(readCanonical);
gc();
const after = %GetOptimizationStatus(readCanonical);
process.stdout.write(JSON.stringify({ onePass, before, after }));
`;

// %GetOptimizationStatus: bit 4 (16) is "optimized".
const OPTIMIZED = 16;

test("the one-pass readers stay optimized across a full collection", () => {
  const out = execFileSync(process.execPath, ["--allow-natives-syntax", "--expose-gc", "--input-type=module", "-e", PROBE], {
    cwd: fileURLToPath(DIST),
    encoding: "utf8",
    timeout: 60_000,
  });
  const { onePass, before, after } = JSON.parse(out);
  assert.equal(onePass, true, "the probe line takes the one-pass path");
  assert.ok(before & OPTIMIZED, `readCanonical optimized before the collection (status ${before.toString(2)})`);
  assert.ok(after & OPTIMIZED, `readCanonical still optimized after a full collection (status ${after.toString(2)})`);
});
