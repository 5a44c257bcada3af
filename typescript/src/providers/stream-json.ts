/**
 * JSON as the Python binding's way back reads and writes it: a tool call's streamed arguments
 * parsed as Python's `json.loads` parses them (object keys in the order written, a repeated key's
 * last value at its first place, `NaN` and `Infinity` read; a refusal carries `json.loads`'s own
 * message, positions in code points), and values written as its `write_json` writes them (the
 * ECMAScript `JSON.stringify` spelling; a number past the double range refused).
 *
 * Nesting: Python refuses a value its recursion limit cannot hold (about 990 deep, less with a
 * deeper caller); here the limit is a fixed {@link NEST_LIMIT}.
 *
 * @module
 */

/** How deep a parsed or written value may nest (arrays and objects; `[]` is 1). */
export const NEST_LIMIT = 900;

/** A value parsed from text, held as the canonical text `write_json` would write for it (or the
 * reason it cannot be written). */
export class Parsed {
  constructor(readonly text: string | null, readonly unwritable: string | null = null) {}
}

/** A plain JSON value, or a {@link Parsed} one. */
export type Value = null | boolean | number | string | Parsed | readonly Value[] | { readonly [key: string]: Value };

/** A value that `write_json` refuses (a number past the double range, nesting too deep). */
export class WriteError extends Error {
  constructor(message: string, readonly deep = false) {
    super(message);
    this.name = "WriteError";
  }
}

/** A `json.loads` refusal: its message as Python writes it, or nesting past the limit. */
export class ParseError extends Error {
  constructor(message: string, readonly deep = false) {
    super(message);
    this.name = "ParseError";
  }
}

function numberText(n: number, integer: boolean): string {
  if (!Number.isFinite(n)) {
    if (integer) throw new WriteError("integer beyond the IEEE 754 double range has no JSON number spelling");
    throw new WriteError(`${Number.isNaN(n) ? "nan" : n > 0 ? "inf" : "-inf"} has no JSON spelling`);
  }
  return JSON.stringify(n);
}

/** `write_json` of a value: `JSON.stringify`'s spelling, keys in their order. */
export function writeValue(v: Value, depth = 0): string {
  if (v instanceof Parsed) {
    if (v.text === null) throw new WriteError(v.unwritable ?? "", v.unwritable === null);
    return v.text;
  }
  if (v === null || typeof v === "boolean" || typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return numberText(v, false); // a double: past its range only as a float
  if (depth >= NEST_LIMIT) throw new WriteError("", true);
  if (Array.isArray(v)) return `[${(v as readonly Value[]).map((x) => writeValue(x, depth + 1)).join(",")}]`;
  const o = v as { readonly [key: string]: Value };
  return `{${Object.keys(o).map((k) => `${JSON.stringify(k)}:${writeValue(o[k] as Value, depth + 1)}`).join(",")}}`;
}

const WS = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const NUMBER = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/;
const NUMBER_CHAR = /^[-+.0-9eE]$/;
const INT_DIGITS = 4300; // Python's int_max_str_digits

class Stop {
  constructor(readonly at: number) {}
}

/** Python's `json.loads(raw)`, as the canonical text of the value (or why it cannot be written). */
export function parsePython(raw: string): Parsed {
  const s = Array.from(raw); // Python indexes by code point
  const fail = (msg: string, pos: number): never => {
    let line = 1;
    let last = -1;
    for (let i = 0; i < pos; i++) if (s[i] === "\n") { line++; last = i; }
    throw new ParseError(`${msg}: line ${line} column ${pos - last} (char ${pos})`);
  };
  const ws = (i: number): number => {
    while (i < s.length && WS.has(s[i] as string)) i++;
    return i;
  };
  let unwritable: string | null = null;
  const num = (text: string, integer: boolean): string => {
    try {
      return numberText(Number(text), integer);
    } catch (e) {
      unwritable ??= (e as Error).message;
      return "null";
    }
  };

  const str = (end: number): [string, number] => {
    const begin = end - 1;
    let out = "";
    for (;;) {
      let next = end;
      let c = "";
      for (; next < s.length; next++) {
        c = s[next] as string;
        if (c === '"' || c === "\\") break;
        if ((c.codePointAt(0) as number) <= 0x1f) fail("Invalid control character at", next);
      }
      if (next >= s.length) fail("Unterminated string starting at", begin);
      out += s.slice(end, next).join("");
      if (c === '"') return [out, next + 1];
      next++;
      if (next === s.length) fail("Unterminated string starting at", begin);
      c = s[next] as string;
      if (c !== "u") {
        const e = ESCAPES[c];
        if (e === undefined) fail("Invalid \\escape", next - 1);
        out += e;
        end = next + 1;
        continue;
      }
      const hex = (at: number): number => {
        const h = s.slice(at, at + 4).join("");
        if (!/^[0-9a-fA-F]{4}$/.test(h)) fail("Invalid \\uXXXX escape", at - 1);
        return parseInt(h, 16);
      };
      end = next + 5;
      if (end >= s.length) fail("Invalid \\uXXXX escape", next);
      const unit = hex(next + 1);
      out += String.fromCharCode(unit);
      if (unit >= 0xd800 && unit <= 0xdbff && end + 6 < s.length && s[end] === "\\" && s[end + 1] === "u") {
        const low = hex(end + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(low);
          end += 6;
        }
      }
    }
  };

  const value = (idx: number, depth: number): [string, number] => {
    if (idx >= s.length) throw new Stop(idx);
    const c = s[idx];
    if (c === '"') {
      const [text, end] = str(idx + 1);
      return [JSON.stringify(text), end];
    }
    if (c === "{" || c === "[") {
      if (depth >= NEST_LIMIT) throw new ParseError("", true);
      return c === "{" ? object(idx + 1, depth + 1) : array(idx + 1, depth + 1);
    }
    const rest = s.slice(idx, idx + 9).join("");
    if (c === "n" && rest.startsWith("null")) return ["null", idx + 4];
    if (c === "t" && rest.startsWith("true")) return ["true", idx + 4];
    if (c === "f" && rest.startsWith("false")) return ["false", idx + 5];
    if (c === "N" && rest.startsWith("NaN")) return [num("NaN", false), idx + 3];
    if (c === "I" && rest.startsWith("Infinity")) return [num("Infinity", false), idx + 8];
    if (c === "-" && rest.startsWith("-Infinity")) return [num("-Infinity", false), idx + 9];
    let j = idx;
    while (j < s.length && NUMBER_CHAR.test(s[j] as string)) j++;
    const m = NUMBER.exec(s.slice(idx, j).join(""));
    if (m === null) throw new Stop(idx);
    const integer = m[1] === undefined && m[2] === undefined;
    if (integer && m[0].replace("-", "").length > INT_DIGITS) {
      const digits = m[0].replace("-", "").length;
      throw new ParseError(`Exceeds the limit (${INT_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`);
    }
    return [num(m[0], integer), idx + m[0].length];
  };

  const expect = (idx: number, depth: number): [string, number] => {
    try {
      return value(idx, depth);
    } catch (e) {
      if (e instanceof Stop) fail("Expecting value", e.at);
      throw e;
    }
  };

  const object = (idx: number, depth: number): [string, number] => {
    const keys: string[] = [];
    const vals = new Map<string, string>();
    idx = ws(idx);
    if (s[idx] === "}") return ["{}", idx + 1];
    for (;;) {
      if (s[idx] !== '"') fail("Expecting property name enclosed in double quotes", idx);
      const [key, afterKey] = str(idx + 1);
      idx = ws(afterKey);
      if (s[idx] !== ":") fail("Expecting ':' delimiter", idx);
      const [val, afterVal] = expect(ws(idx + 1), depth);
      if (!vals.has(key)) keys.push(key);
      vals.set(key, val);
      idx = ws(afterVal);
      if (s[idx] === "}") break;
      if (s[idx] !== ",") fail("Expecting ',' delimiter", idx);
      idx = ws(idx + 1);
    }
    return [`{${keys.map((k) => `${JSON.stringify(k)}:${vals.get(k) as string}`).join(",")}}`, idx + 1];
  };

  const array = (idx: number, depth: number): [string, number] => {
    const vals: string[] = [];
    idx = ws(idx);
    if (s[idx] === "]") return ["[]", idx + 1];
    for (;;) {
      const [val, after] = expect(idx, depth);
      vals.push(val);
      idx = ws(after);
      if (s[idx] === "]") break;
      if (s[idx] !== ",") fail("Expecting ',' delimiter", idx);
      idx = ws(idx + 1);
    }
    return [`[${vals.join(",")}]`, idx + 1];
  };

  if (s[0] === "\ufeff") fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
  const [text, end] = expect(ws(0), 0);
  if (ws(end) !== s.length) fail("Extra data", ws(end));
  return unwritable === null ? new Parsed(text) : new Parsed(null, unwritable);
}
