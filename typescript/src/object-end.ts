/**
 * The span finder of the decoder's fast path: where a verbatim object of a text `JSON.parse`
 * accepted ends, without building it.
 *
 * @module
 */

import { MAX_DEPTH } from "./generated/schema.js";

/**
 * The end (exclusive) of the JSON object starting at `pos` of `text`, a text `JSON.parse`
 * accepted; -1 if `pos` does not start an object, if nesting goes deeper than `MAX_DEPTH`
 * (the object itself is at depth `depth`), or if `scalarMap` and a member value is not a
 * string, number or boolean. Never throws, whatever `pos` is.
 */
export function objectEnd(text: string, pos: number, depth: number, scalarMap: boolean): number {
  if (text.charCodeAt(pos) !== 123 || depth > MAX_DEPTH) return -1;
  const n = text.length;
  let d = depth;
  let i = pos + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string: the next quote not escaped by an odd run of backslashes.
      let q = text.indexOf('"', i + 1);
      for (;;) {
        if (q < 0) return -1;
        let b = q - 1;
        while (text.charCodeAt(b) === 92) b--;
        if ((q - 1 - b) % 2 === 0) break;
        q = text.indexOf('"', q + 1);
      }
      i = q + 1;
    } else if (c === 123 || c === 91) {
      if (++d > MAX_DEPTH || (scalarMap && d === depth + 1)) return -1;
      i++;
    } else if (c === 125 || c === 93) {
      i++;
      if (--d < depth) return i;
    } else {
      // Outside strings, an `n` can only start `null`.
      if (scalarMap && c === 110 && d === depth) return -1;
      i++;
    }
  }
  return -1;
}
