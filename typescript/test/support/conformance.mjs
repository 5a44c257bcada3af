// Loads the language-neutral conformance suite (../../conformance) for the unit tests.
import { existsSync, readFileSync } from "node:fs";

export const SUITE = new URL("../../../conformance/", import.meta.url);
export const HAVE_SUITE = existsSync(new URL("manifest.json", SUITE));

const fileCache = new Map();

function fileLines(file) {
  let lines = fileCache.get(file);
  if (lines === undefined) {
    const data = readFileSync(new URL(file, SUITE));
    lines = [];
    let start = 0;
    for (;;) {
      const nl = data.indexOf(10, start);
      if (nl < 0) {
        if (start < data.length) lines.push(data.subarray(start));
        break;
      }
      lines.push(data.subarray(start, nl));
      start = nl + 1;
    }
    fileCache.set(file, lines);
  }
  return lines;
}

/** The bytes a case sends: a line of a file (with its LF), or inline base64 as is. */
export function inputBytes(ref) {
  if (ref.base64 !== undefined) return Buffer.from(ref.base64, "base64");
  return Buffer.concat([fileLines(ref.file)[ref.line - 1], Buffer.from("\n")]);
}

/** The expected output bytes of a `canonical` case (without LF). */
export function expectedBytes(ref) {
  if (ref.base64 !== undefined) return Buffer.from(ref.base64, "base64");
  return Buffer.from(fileLines(ref.file)[ref.line - 1]);
}

export function cases() {
  if (!HAVE_SUITE) return [];
  return JSON.parse(readFileSync(new URL("manifest.json", SUITE), "utf8")).cases.filter((c) => c.group !== "protocol");
}
