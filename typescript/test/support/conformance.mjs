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

/** The bytes of a compact `{parts: [...]}` source: each piece (`text` as UTF-8, or `base64`) repeated `repeat` times. */
export function partsBytes(parts) {
  return Buffer.concat(parts.map((p) => {
    const piece = p.text !== undefined ? Buffer.from(p.text, "utf8") : Buffer.from(p.base64, "base64");
    return Buffer.alloc(piece.length * (p.repeat ?? 1), piece);
  }));
}

/** The bytes a case sends: a line of a file (with its LF), inline base64 or compact parts as is. */
export function inputBytes(ref) {
  if (ref.base64 !== undefined) return Buffer.from(ref.base64, "base64");
  if (ref.parts !== undefined) return partsBytes(ref.parts);
  return Buffer.concat([fileLines(ref.file)[ref.line - 1], Buffer.from("\n")]);
}

/** The expected output bytes of a `canonical` case (without LF). */
export function expectedBytes(ref) {
  if (ref.base64 !== undefined) return Buffer.from(ref.base64, "base64");
  if (ref.parts !== undefined) return partsBytes(ref.parts);
  return Buffer.from(fileLines(ref.file)[ref.line - 1]);
}

export function cases() {
  if (!HAVE_SUITE) return [];
  return JSON.parse(readFileSync(new URL("manifest.json", SUITE), "utf8")).cases.filter((c) => c.group !== "protocol");
}
