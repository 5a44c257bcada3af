/**
 * `scanPlain` reads a line with the strict scanner's tokens into plain values (what JSON.parse
 * makes: no node per value), for the decoder's valid lines; it gives up, and the decoder scans,
 * on anything the tree must decide.
 *
 * @module
 */

import { MAX_DEPTH } from "./generated/schema.js";
import { INTERN_CAP, INTERN_LEN, SKIP_LEVELS, SKIP_PATHS, ScanError, Scanner } from "./scan.js";

/** Thrown inside {@link scanPlain} when it leaves the line to the strict scanner. */
const GIVE_UP: unique symbol = Symbol("omnimessage.scanPlain.giveUp");

/** Number spellings {@link scanPlain} reads: integers a double holds exactly (anything else is the strict scanner's). */
const PLAIN_INTEGER = /^-?[0-9]{1,15}$/;

/** Items of a long array are collected in chunks of this many (see PlainReader.array). */
const CHUNK = 65536;

/** What {@link scanPlain} read. */
export interface PlainScan {
  /** The line's object, as plain JavaScript values; objects at `SKIP_PATHS` are what its `raw` made of their spans. */
  readonly value: Record<string, unknown>;
  /**
   * Each `SKIP_PATHS` entry (`/`-joined from the payload, `*` for array items) where an object was
   * kept as a span, with whether some member value of one of them is an object, an array or null.
   */
  readonly verbatim: ReadonlyMap<string, boolean>;
}

/** The reader of {@link scanPlain}: a {@link Scanner} for tokens, values built as JSON.parse builds them. */
class PlainReader {
  private readonly s: Scanner;
  private readonly path: string[] = [];
  private readonly interned = new Map<string, string>();
  readonly verbatim = new Map<string, boolean>();
  /** Where the value read last ends. */
  private end = 0;

  constructor(
    readonly text: string,
    private readonly raw: (start: number, end: number) => unknown,
  ) {
    this.s = new Scanner(text, true);
  }

  document(): Record<string, unknown> {
    const t = this.text;
    const i = this.s.ws(0);
    if (t.charCodeAt(i) !== 123) throw GIVE_UP;
    const v = this.object(i, 1);
    if (this.s.ws(this.end) !== t.length) throw GIVE_UP;
    return v;
  }

  /** The `SKIP_PATHS` entry of key `key` of the container at the end of `path`, or null. */
  private skipKey(key: string): string | null {
    const path = this.path;
    if (path.length === 0 || path.length > SKIP_LEVELS || path[0] !== "payload") return null;
    const k = path.length === 1 ? key : path.slice(1).join("/") + "/" + key;
    return SKIP_PATHS.has(k) ? k : null;
  }

  /** The value at `i` under `key` (`*` for array items) at depth `depth`. */
  private member(i: number, depth: number, key: string): unknown {
    if (this.text.charCodeAt(i) === 123) {
      const skip = this.skipKey(key);
      if (skip !== null) {
        const node = this.s.raw(i, depth);
        this.verbatim.set(skip, this.verbatim.get(skip) === true || node.keys !== null);
        this.end = node.end;
        return this.raw(node.start, node.end);
      }
    }
    this.path.push(key);
    const v = this.value(i, depth);
    this.path.pop();
    return v;
  }

  private value(i: number, depth: number): unknown {
    const t = this.text;
    const c = t.charCodeAt(i);
    if (c === 123) return this.object(i, depth);
    if (c === 91) return this.array(i, depth);
    if (c === 34) return this.string(i);
    if (t.startsWith("true", i)) {
      this.end = i + 4;
      return true;
    }
    if (t.startsWith("false", i)) {
      this.end = i + 5;
      return false;
    }
    if (t.startsWith("null", i)) {
      this.end = i + 4;
      return null;
    }
    const n = this.s.number(i);
    const spelling = n.value as string;
    if (!PLAIN_INTEGER.test(spelling)) throw GIVE_UP;
    this.end = n.end;
    const v = Number(spelling);
    return v === 0 ? 0 : v;
  }

  private string(i: number): string {
    let v = this.s.str(i);
    if (this.s.strLone) throw GIVE_UP;
    this.end = this.s.strEnd;
    if (v.length <= INTERN_LEN) {
      const seen = this.interned.get(v);
      if (seen !== undefined) v = seen;
      else if (this.interned.size < INTERN_CAP) this.interned.set(v, v);
    }
    return v;
  }

  private object(start: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const t = this.text;
    const out: Record<string, unknown> = {};
    let i = this.s.ws(start + 1);
    if (t.charCodeAt(i) === 125) {
      this.end = i + 1;
      return out;
    }
    for (;;) {
      if (t.charCodeAt(i) !== 34) throw GIVE_UP;
      const key = this.string(i);
      // A duplicate is refused, and `__proto__` would set the prototype: the strict scanner decides.
      if (key === "__proto__" || Object.hasOwn(out, key)) throw GIVE_UP;
      i = this.s.ws(this.end);
      if (t.charCodeAt(i) !== 58) throw GIVE_UP;
      out[key] = this.member(this.s.ws(i + 1), depth + 1, key);
      i = this.s.ws(this.end);
      const c = t.charCodeAt(i);
      if (c === 44) {
        i = this.s.ws(i + 1);
        continue;
      }
      if (c !== 125) throw GIVE_UP;
      this.end = i + 1;
      return out;
    }
  }

  private array(start: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const t = this.text;
    const out: unknown[] = [];
    let i = this.s.ws(start + 1);
    if (t.charCodeAt(i) === 93) {
      this.end = i + 1;
      return out;
    }
    // Items go in chunks of CHUNK, joined once at the end: a growing array would leave the
    // discarded copies of its store (half again the final one, and more) to the collector.
    let chunks: unknown[][] | null = null;
    let chunk = out;
    for (;;) {
      if (t.charCodeAt(i) === 93) throw GIVE_UP;
      if (chunk.length === CHUNK) {
        chunks ??= [out];
        chunks.push((chunk = []));
      }
      chunk.push(this.member(i, depth + 1, "*"));
      i = this.s.ws(this.end);
      const c = t.charCodeAt(i);
      if (c === 44) {
        i = this.s.ws(i + 1);
        continue;
      }
      if (c !== 93) throw GIVE_UP;
      this.end = i + 1;
      return chunks === null ? out : out.concat(...chunks.slice(1));
    }
  }
}

/**
 * Read a line that holds one JSON object as the plain values `JSON.parse` would make of it
 * (small: no node per value), or null when the line holds anything the strict path must judge
 * or refuse: a grammar or depth error, a duplicate key, a lone surrogate escape, a number that
 * is not an integer of at most 15 digits, a `__proto__` key. Objects at `SKIP_PATHS` are
 * checked, not built: each becomes `raw(start, end)` of its span.
 *
 * What it gives back equals what the strict path builds for the same line, once the caller
 * has checked the spans sit at this message's verbatim places and the schema accepts it.
 */
export function scanPlain(text: string, raw: (start: number, end: number) => unknown): PlainScan | null {
  const reader = new PlainReader(text, raw);
  try {
    return { value: reader.document(), verbatim: reader.verbatim };
  } catch (e) {
    if (e === GIVE_UP || e instanceof ScanError) return null;
    throw e;
  }
}
