/**
 * The one sanitiser of the command line: every string from input (a key in a pointer, a detail,
 * a file name) goes through it before stderr. It escapes exactly as the Python binding's
 * `omnimessage._sanitize.sanitize` does (python/tests/test_hostile_output.py compares the two):
 *
 * - C0 controls (line feed and tab included), DEL and C1 controls become `\xNN`;
 * - the bidirectional controls U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, U+2028,
 *   U+2029 and lone surrogates become `\uNNNN`;
 * - a `:` that would start the line (only blanks before it) becomes `\x3a`, so no output line
 *   starts with `::` (a GitHub Actions workflow command) from input.
 *
 * Backslashes are kept: the result is harmless, not reversible.
 *
 * @module
 */

const UNSAFE =
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const LEADING_COLON = /^([ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]*):/;

function escape(c: string): string {
  const n = c.charCodeAt(0);
  return n < 0x100 ? "\\x" + n.toString(16).padStart(2, "0") : "\\u" + n.toString(16).padStart(4, "0");
}

/** `s` as one harmless line. */
export function sanitize(s: string): string {
  return s.replace(UNSAFE, escape).replace(LEADING_COLON, "$1\\x3a");
}
