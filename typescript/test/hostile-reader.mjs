// Reads one file with the TypeScript reader (`iterMessages` over a file stream) and prints what it
// made of it as one JSON line: the same summary as python/tests/hostile_reader.py, which
// python/tests/test_hostile_files.py compares (lines, messages, lines re-encoding to themselves,
// refusals by category, and a digest of every line's outcome).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { DecodeError, encode, iterMessages } from "../dist/index.js";

const digest = createHash("sha256");
const refused = {};
let lines = 0;
let messages = 0;
let identical = 0;
for await (const line of iterMessages(createReadStream(process.argv[2]))) {
  lines++;
  if (line.error !== null) {
    const e = line.error;
    if (!(e instanceof DecodeError)) throw new Error(`not a DecodeError: ${e}`);
    refused[e.category] = (refused[e.category] ?? 0) + 1;
    const pointer = Buffer.from(e.pointer, "utf16le").toString("hex");
    digest.update(`${line.number}\t${e.category}\t${pointer}\t${e.offset === null ? "None" : e.offset}\t${line.terminated ? "True" : "False"}\n`);
    continue;
  }
  const out = Buffer.from(encode(line.message), "utf8");
  messages++;
  if (out.equals(line.raw)) identical++;
  digest.update(`${line.number}\tok\t${out.length}\t${line.terminated ? "True" : "False"}\n`);
  digest.update(out);
}
const sorted = Object.fromEntries(Object.entries(refused).sort(([a], [b]) => (a < b ? -1 : 1)));
process.stdout.write(JSON.stringify({ lines, messages, identical, refused: sorted, digest: digest.digest("hex") }) + "\n");
