/**
 * The one sanitiser of the command line: every string from input (a key in a pointer, a detail,
 * a file name) goes through it before stderr. It escapes exactly as the Python binding's
 * `omnimessage.text.sanitize.sanitize` does (python/tests/test_hostile_output.py compares the two):
 *
 * - C0 controls (line feed and tab included), DEL and C1 controls become `\xNN`;
 * - the bidirectional controls U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, U+2028,
 *   U+2029 and lone surrogates become `\uNNNN`;
 * - a `:` that would start the line (only blanks before it) becomes `\x3a`, so no output line
 *   starts with `::` (a GitHub Actions workflow command) from input;
 * - GitHub's legacy command syntax, which the Actions runner executes anywhere in a line: the `[`
 *   after `##` becomes `\x5b`, and a `#` ending the string after another `#` becomes `\x23`, so
 *   no `##[` is left and none forms where the result meets the next piece of a line.
 *
 * Backslashes are kept: the result is harmless, not reversible.
 *
 * @module
 */

const UNSAFE =
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const LEGACY_COMMAND = /(?<=##)\[|(?<=#)#$/g;
const LEADING_COLON = /^([ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]*):/;

function escape(c: string): string {
  const n = c.charCodeAt(0);
  return n < 0x100 ? "\\x" + n.toString(16).padStart(2, "0") : "\\u" + n.toString(16).padStart(4, "0");
}

/** `s` as one harmless line. */
export function sanitize(s: string): string {
  return s.replace(UNSAFE, escape).replace(LEGACY_COMMAND, escape).replace(LEADING_COLON, "$1\\x3a");
}

/** The longest string from input (a JSON pointer, a refusal's detail) quoted whole; as Python's
 * `omnimessage.text.sanitize.MAX_QUOTED_CHARS`. */
export const MAX_QUOTED_CHARS = 200;
/** The longest message (a usage error echoing an argument) kept whole; as Python's `MAX_MESSAGE_CHARS`. */
export const MAX_MESSAGE_CHARS = 1000;

/**
 * `s` if at most `limit` characters, else its first 3/4 and last 1/4 of `limit` characters around
 * `...(N characters)...`, N its length: a megabyte key makes a line of about 200 characters. Counts
 * code points (a lone surrogate is one), as Python's `clip_text` does, so both clip alike. Not
 * sanitised: sanitise the result.
 */
export function clipText(s: string, limit: number = MAX_QUOTED_CHARS): string {
  if (s.length <= limit) return s; // code points <= UTF-16 units
  const points = Array.from(s);
  if (points.length <= limit) return s;
  const tail = Math.floor(limit / 4);
  return `${points.slice(0, limit - tail).join("")}...(${points.length} characters)...${points.slice(points.length - tail).join("")}`;
}
