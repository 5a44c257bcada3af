/**
 * Python's `repr` of a string, for the messages the Python binding writes with `!r` (the command
 * line's errors are the same bytes in both bindings).
 *
 * @module
 */

/** Python's printable characters: letters, marks, numbers, punctuation, symbols, and the space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, "0");
}

/** `repr(s)` as Python writes it: single quotes unless the string holds `'` and no `"`. */
export function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp >= 0x7f && PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + quote;
}
