/**
 * The strict JSON scanner of the decoder's slow path.
 *
 * `scan` parses one JSON text by the RFC 8259 grammar into a tree that remembers where every
 * value starts and ends, so that the decoder can copy verbatim values as their exact source
 * text, refuse what JSON Schema cannot see (duplicate keys, lone surrogate escapes, numbers
 * beyond the double range) outside verbatim values, and name the byte offset of every error.
 * Errors and their positions are the Python binding's (`omnimessage/codec/scan.py`): the first problem met
 * scanning left to right. Nesting is checked against `MAX_DEPTH` before descending.
 *
 * Memory stays a small multiple of the line: an object at a place where some payload keeps a
 * verbatim value (`SKIP_PATHS`) is checked but not built (one {@link RAW} node holding its span);
 * the decoder expands it with {@link expand} if this payload keeps no verbatim value there.
 *
 * `scanPlain` (`scan-plain.ts`) reads a line with this scanner's tokens into plain values, and
 * `objectEnd` (`object-end.ts`) finds the span of a verbatim object for the fast path.
 *
 * @module
 */

import { ARR, LIT, NUM, OBJ, STR, pyRepr, type JsonNode } from "./generated/check.js";
import { MAX_DEPTH, VERBATIM_LOCATIONS } from "./generated/schema.js";
import type { RejectionCategory } from "./generated/schema.js";

/**
 * A grammar or limit error: `invalid_json`, `too_deep` or `trailing_data`, at code unit `pos`.
 * Always caught inside the package (turned into a `DecodeError`), so it is not an `Error`: a
 * stack trace per refused line would be most of the cost of a million refused lines.
 */
export class ScanError {
  constructor(
    readonly category: RejectionCategory,
    readonly detail: string,
    readonly pos: number,
  ) {}
}

/**
 * {@link Node} kind: an object at a verbatim place, checked but not built (its span only; for a
 * scalar map, `keys` and `keyStarts` name its first member whose value is not a string, number
 * or boolean). The generated checks never see one: the decoder cuts it, or expands it first.
 */
export const RAW = 5;

/** Paths from the payload (`/`-joined, `*` for any array item) where some payload keeps a verbatim value. */
export const SKIP_PATHS: ReadonlySet<string> = new Set([...VERBATIM_LOCATIONS.values()].flatMap((m) => [...m.values()].flatMap((t) => [...t.keys()])));
export const SKIP_LEVELS = Math.max(0, ...[...SKIP_PATHS].map((k) => k.split("/").length));

/** One scanned value (a RAW one becomes the tree it spans when {@link expand}ed). */
export class Node implements JsonNode {
  constructor(
    public kind: number,
    readonly start: number,
    readonly end: number,
    public value: string | boolean | null,
    public keys: string[] | null,
    public keyStarts: number[] | null,
    /** Objects: whether each key escapes a lone surrogate. */
    public keyLone: boolean[] | null,
    public items: Node[] | null,
    /** Strings: whether the value escapes a lone surrogate. */
    readonly lone: boolean,
  ) {}
}

/**
 * A string, number or literal. It stores only its span and value: `kind`, `lone` and the
 * container fields (null) are on its class's prototype, so a line of many small values costs
 * one small object per value (48 bytes, not the 96 of a {@link Node}). Typed as a `Node`.
 */
class Leaf {
  constructor(
    readonly start: number,
    readonly end: number,
    readonly value: string | boolean | null,
  ) {}
}
class StrLeaf extends Leaf {}
class LoneStrLeaf extends Leaf {}
class NumLeaf extends Leaf {}
class LitLeaf extends Leaf {}
for (const [cls, kind, lone] of [
  [StrLeaf, STR, false],
  [LoneStrLeaf, STR, true],
  [NumLeaf, NUM, false],
  [LitLeaf, LIT, false],
] as const) {
  for (const [name, value] of [
    ["kind", kind],
    ["lone", lone],
    ["keys", null],
    ["keyStarts", null],
    ["keyLone", null],
    ["items", null],
  ] as const) {
    Object.defineProperty(cls.prototype, name, { value, writable: false, enumerable: false, configurable: false });
  }
}

function leaf(cls: typeof Leaf, start: number, end: number, value: string | boolean | null): Node {
  return new cls(start, end, value) as unknown as Node;
}

/** Distinct short keys interned by one scan (a key is a new string per member otherwise). */
export const INTERN_CAP = 4096;
/** Keys and shared leaves longer than this (UTF-16 code units) are not interned. */
export const INTERN_LEN = 32;
/**
 * Distinct short strings and literals whose leaf one array shares between its items. Sharing
 * is exact for every check: items of one array have one schema, each is checked alone, and the
 * first refused wins, so a refused shared leaf is refused at its first item, whose start it keeps.
 */
const SHARED_PER_ARRAY = 256;

const ESCAPES: Record<number, string> = { 34: '"', 92: "\\", 47: "/", 98: "\b", 102: "\f", 110: "\n", 114: "\r", 116: "\t" };
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function nextIndex(t: string, needle: string, from: number): number {
  const i = t.indexOf(needle, from);
  return i < 0 ? t.length : i;
}

const CONTROL = /[\u0000-\u001f]/g;

function nextControl(t: string, from: number): number {
  CONTROL.lastIndex = from;
  return CONTROL.test(t) ? CONTROL.lastIndex - 1 : t.length;
}

function charAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i) as number);
}

/** The strict scanner (its token readers serve `scanPlain` too). */
export class Scanner {
  /** The keys (`*` for array items) from the root to the value being scanned, while not skipping. */
  private readonly path: string[] = [];
  /** The depth of the RAW object being skipped, or 0. */
  private rawDepth = 0;
  private bad: [string, number] | null = null;
  private readonly interned = new Map<string, string>();

  constructor(
    readonly text: string,
    /** Skip the objects at `SKIP_PATHS`. */
    private readonly skip: boolean,
  ) {}

  /** Is an object at key `key` of the container at the end of `path` at a verbatim place? */
  private skipAt(key: string): boolean {
    const path = this.path;
    if (!this.skip || this.rawDepth !== 0 || path.length === 0 || path.length > SKIP_LEVELS || path[0] !== "payload") return false;
    return SKIP_PATHS.has(path.length === 1 ? key : path.slice(1).join("/") + "/" + key);
  }

  /** The member value at `i`, under `key`: a RAW node if it is an object at a verbatim place. */
  private child(i: number, depth: number, key: string): Node {
    if (this.rawDepth !== 0) return this.value(i, depth);
    if (this.text.charCodeAt(i) === 123 && this.skipAt(key)) return this.raw(i, depth);
    this.path.push(key);
    const node = this.value(i, depth);
    this.path.pop();
    return node;
  }

  /** Check the object at `i` without building it: a RAW node holding its span (and its first non-scalar member). */
  raw(i: number, depth: number): Node {
    this.rawDepth = depth;
    this.bad = null;
    const node = this.object(i, depth);
    this.rawDepth = 0;
    const bad = this.bad as [string, number] | null;
    return new Node(RAW, node.start, node.end, null, bad === null ? null : [bad[0]], bad === null ? null : [bad[1]], null, null, false);
  }

  ws(i: number): number {
    const t = this.text;
    while (i < t.length && isWs(t.charCodeAt(i))) i++;
    return i;
  }

  document(): Node {
    const t = this.text;
    if (t.charCodeAt(0) === 0xfeff) throw new ScanError("invalid_json", "byte order mark (U+FEFF) before the message", 0);
    const i = this.ws(0);
    if (i === t.length) throw new ScanError("invalid_json", "empty line: no JSON value", i);
    const node = this.value(i, 1);
    const j = this.ws(node.end);
    if (j !== t.length) throw new ScanError("trailing_data", "data after the message object", j);
    return node;
  }

  value(i: number, depth: number): Node {
    const t = this.text;
    const c = t.charCodeAt(i);
    if (c === 123) return this.object(i, depth);
    if (c === 91) return this.array(i, depth);
    if (c === 34) return this.string(i);
    if (c === 45 || (c >= 48 && c <= 57)) return this.number(i);
    if (t.startsWith("true", i)) return leaf(LitLeaf, i, i + 4, true);
    if (t.startsWith("false", i)) return leaf(LitLeaf, i, i + 5, false);
    if (t.startsWith("null", i)) return leaf(LitLeaf, i, i + 4, null);
    if (i >= t.length) throw new ScanError("invalid_json", "unexpected end of line", i);
    for (const word of ["NaN", "Infinity"]) {
      if (t.startsWith(word, i)) throw new ScanError("invalid_json", `${word} is not JSON`, i);
    }
    if (c === 93 || c === 125) throw new ScanError("invalid_json", "a value expected", i); // `{"a":}`, `[1,:]`
    throw new ScanError("invalid_json", `unexpected character ${pyRepr(charAt(t, i))}`, i);
  }

  number(i: number): Node {
    const t = this.text;
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(t);
    if (m === null) throw new ScanError("invalid_json", "invalid number", i);
    const end = i + m[0].length;
    if (end < t.length) {
      const n = t.charCodeAt(end);
      const isDigit = n >= 48 && n <= 57;
      // What belongs to a number token (schema/README.md section 1.3): digits, . e E + - and ASCII letters.
      if (isDigit || n === 46 || n === 43 || n === 45 || (n >= 65 && n <= 90) || (n >= 97 && n <= 122)) {
        const zero = m[0] === "0" || m[0] === "-0";
        throw new ScanError("invalid_json", zero && isDigit ? "leading zero" : "invalid number", i);
      }
    }
    return leaf(NumLeaf, i, end, m[0]);
  }

  // The next quote, backslash and raw control character at or after the scan position (the
  // text's length when there is none): searches only move forward, so a line stays linear.
  private quote = -1;
  private backslash = -1;
  private control = -1;

  string(i: number): Node {
    const value = this.str(i);
    return leaf(this.strLone ? LoneStrLeaf : StrLeaf, i, this.strEnd, value);
  }

  /** Where the string read last by {@link str} ends, and whether it escapes a lone surrogate. */
  strEnd = 0;
  strLone = false;

  /** The value of the string token at `i` (its end and loneness in {@link strEnd}, {@link strLone}). */
  str(i: number): string {
    const t = this.text;
    const n = t.length;
    let j = i + 1;
    let out = "";
    let surrogate = false;
    for (;;) {
      let q = this.quote;
      if (q < j) q = this.quote = nextIndex(t, '"', j);
      let b = this.backslash;
      if (b < j) b = this.backslash = nextIndex(t, "\\", j);
      let c = this.control;
      if (c < j) c = this.control = nextControl(t, j);
      if (q < b && q < c) {
        const value = out + t.slice(j, q);
        this.strLone = surrogate && !value.isWellFormed();
        this.strEnd = q + 1;
        return value;
      }
      if (c < b) {
        if (c === n) throw new ScanError("invalid_json", "unterminated string", i);
        throw new ScanError("invalid_json", `raw control character U+${t.charCodeAt(c).toString(16).toUpperCase().padStart(4, "0")} inside a string`, c);
      }
      if (b === n) throw new ScanError("invalid_json", "unterminated string", i);
      out += t.slice(j, b);
      const e = t.charCodeAt(b + 1);
      if (e === 117) {
        let code = 0;
        for (let k = 2; k < 6; k++) {
          const h = hexValue(t.charCodeAt(b + k));
          if (h < 0) throw new ScanError("invalid_json", "invalid \\u escape (four hex digits expected)", b);
          code = code * 16 + h;
        }
        if (code >= 0xd800 && code <= 0xdfff) surrogate = true;
        out += String.fromCharCode(code);
        j = b + 6;
        continue;
      }
      const esc = ESCAPES[e];
      if (esc === undefined) {
        const shown = b + 1 < n ? "\\" + charAt(t, b + 1) : "\\";
        throw new ScanError("invalid_json", `invalid escape ${pyRepr(shown)}`, b);
      }
      out += esc;
      j = b + 2;
    }
  }

  object(start: number, depth: number): Node {
    if (depth > MAX_DEPTH) throw new ScanError("too_deep", `nesting deeper than ${MAX_DEPTH} levels`, start);
    const t = this.text;
    const keys: string[] = [];
    const keyStarts: number[] = [];
    let keyLone: boolean[] | null = null; // only once a key escapes a lone surrogate
    const items: Node[] = [];
    let i = this.ws(start + 1);
    if (t.charCodeAt(i) === 125) return new Node(OBJ, start, i + 1, null, keys, keyStarts, keyLone, items, false);
    for (;;) {
      if (t.charCodeAt(i) !== 34) {
        // After a comma (an empty object closed when it opened).
        if (t.charCodeAt(i) === 125) throw new ScanError("invalid_json", "trailing comma in object", i);
        throw new ScanError("invalid_json", "object key expected (a double-quoted string)", i);
      }
      const key = this.string(i);
      i = this.ws(key.end);
      if (t.charCodeAt(i) !== 58) throw new ScanError("invalid_json", "':' expected after object key", i);
      i = this.ws(i + 1);
      if (this.rawDepth === depth && this.bad === null) {
        // A member of the RAW object being skipped: is its value a scalar (a scalar map's must be)?
        const c = t.charCodeAt(i);
        if (c === 123 || c === 91 || t.startsWith("null", i)) this.bad = [key.value as string, i];
      }
      const val = this.child(i, depth + 1, key.value as string);
      if (this.rawDepth === 0) {
        let name = key.value as string;
        if (name.length <= INTERN_LEN) {
          const seen = this.interned.get(name);
          if (seen !== undefined) name = seen;
          else if (this.interned.size < INTERN_CAP) this.interned.set(name, name);
        }
        if (key.lone && keyLone === null) keyLone = keys.map(() => false);
        keys.push(name);
        keyStarts.push(key.start);
        if (keyLone !== null) keyLone.push(key.lone);
        items.push(val);
      }
      i = this.ws(val.end);
      const c = t.charCodeAt(i);
      if (c === 44) {
        i = this.ws(i + 1);
        continue;
      }
      if (c === 125) return new Node(OBJ, start, i + 1, null, keys, keyStarts, keyLone, items, false);
      throw new ScanError("invalid_json", "',' or '}' expected in object", i);
    }
  }

  array(start: number, depth: number): Node {
    if (depth > MAX_DEPTH) throw new ScanError("too_deep", `nesting deeper than ${MAX_DEPTH} levels`, start);
    const t = this.text;
    const items: Node[] = [];
    let shared: Map<string | boolean | null, Node> | null = null;
    let i = this.ws(start + 1);
    if (t.charCodeAt(i) === 93) return new Node(ARR, start, i + 1, null, null, null, null, items, false);
    for (;;) {
      if (t.charCodeAt(i) === 93) throw new ScanError("invalid_json", "trailing comma in array", i);
      const val = this.child(i, depth + 1, "*");
      if (this.rawDepth === 0) {
        const v = val.value;
        if ((val instanceof StrLeaf && (v as string).length <= INTERN_LEN) || val instanceof LitLeaf) {
          shared ??= new Map();
          const same = shared.get(v);
          if (same !== undefined) items.push(same);
          else {
            if (shared.size < SHARED_PER_ARRAY) shared.set(v, val);
            items.push(val);
          }
        } else items.push(val);
      }
      i = this.ws(val.end);
      const c = t.charCodeAt(i);
      if (c === 44) {
        i = this.ws(i + 1);
        continue;
      }
      if (c === 93) return new Node(ARR, start, i + 1, null, null, null, null, items, false);
      throw new ScanError("invalid_json", "',' or ']' expected in array", i);
    }
  }
}

/**
 * Parse one JSON text strictly (RFC 8259 grammar, `MAX_DEPTH`) into a position-aware tree,
 * with the objects at verbatim places kept as {@link RAW} spans.
 */
export function scan(text: string): Node {
  return new Scanner(text, true).document();
}

/** Turn a RAW node of `scan(text)`, at depth `depth`, into the object tree it spans (in place). */
export function expand(text: string, node: Node, depth: number): void {
  const full = new Scanner(text, false).value(node.start, depth);
  node.kind = full.kind;
  node.value = full.value;
  node.keys = full.keys;
  node.keyStarts = full.keyStarts;
  node.keyLone = full.keyLone;
  node.items = full.items;
}
