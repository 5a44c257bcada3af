/**
 * The decoder's one-pass path: the generated readers (`generated/read.ts`, one per object of the
 * schema) walk a canonical line once, matching its keys and punctuation as exact literals and
 * building the message as they go; `CanonicalReader` hands them the line's tokens, and reads only
 * canonical spellings (a string as `JSON.stringify` writes its value, a number as ECMAScript
 * spells it). A line they read is one the general path accepts too, as the very same message
 * with the very same retained source: anything else (a space, another key order, an escape
 * `JSON.stringify` does not write, any error) gives up, and the general path decides.
 *
 * Strings are sliced from the line, not copied: a message keeps its line alive as long as it lives
 * (as it does anyway with `retainSource`, the default).
 *
 * @module
 */

import type { Reader } from "./generated/read.js";
import type { VerbatimShape } from "./generated/schema.js";
import { objectEnd } from "./object-end.js";
import { trustedRawJson } from "./raw.js";
import { SOURCE, canonicalUnicodeEscape, type Kept } from "./verifier.js";

/** Thrown by {@link CanonicalReader.fail}: the line is left to the general path. */
const GIVE_UP: unique symbol = Symbol("omnimessage.readCanonical.giveUp");

/** The index of the next `needle` at or after `from`, or the text's length. */
function next(t: string, needle: string, from: number): number {
  const i = t.indexOf(needle, from);
  return i < 0 ? t.length : i;
}

/**
 * A regular expression's `c*` for the one-character class `c`, written `(?:cccc)*c*`: the same
 * match, and V8's compiled expression checks the end of the text once per four characters instead
 * of once per character (8% fewer instructions on the bench's trace; written `(?:c{4})*c*`
 * instead, the trace's whole decode cost 65% more than with `c*`).
 */
function run(c: string): string {
  return `(?:${c}${c}${c}${c})*${c}*`;
}

/**
 * A string token's characters, short escapes (the ones `JSON.stringify` writes: `\\"`, `\\\\`,
 * `\\b`, `\\f`, `\\n`, `\\r`, `\\t`) and surrogate pairs, up to its end, a `\\u` escape, any other
 * escape, a raw control character or a lone surrogate; {@link CanonicalReader.str} goes on past a
 * canonical `\\u00XX`. These searches are the proof that a line the one-pass path reads holds no lone
 * surrogate, which UTF-8 cannot carry (`decode` refuses it), so such a line is not scanned again for
 * one: a high surrogate is taken only with the low one after it, and a low one only so. (A
 * unicode-mode class, which steps over pairs itself, costs several times this on every character.
 * Written as a run of characters, then escapes and pairs each followed by a run, `A*(BA*)*`, it
 * stops where `(A+|B)*` would and costs 2% fewer instructions on the bench's trace; taking a pair
 * here rather than stopping at it for `str` to step over costs 2% fewer again on the trace, whose
 * text holds an emoji every 540 characters.)
 */
const CHAR = String.raw`[^"\\\u0000-\u001f\ud800-\udfff]`;
const PAIR = String.raw`[\ud800-\udbff][\udc00-\udfff]`;
const PLAIN = new RegExp(`${run(CHAR)}(?:(?:${String.raw`\\["\\bfnrt]`}|${PAIR})${run(CHAR)})*`, "y");

/**
 * A text's code units up to its first lone surrogate: all of it when it holds none. What
 * `isWellFormed` answers, at half its instructions on a two-byte text (V8 11's loop takes one code
 * unit at a time): 1.3M fewer on the bench's trace, whose verbatim spans `isWellFormed` took 2.65M.
 */
const NOT_SURROGATE = String.raw`[^\ud800-\udfff]`;
const WELL_FORMED = new RegExp(`${run(NOT_SURROGATE)}(?:${PAIR}${run(NOT_SURROGATE)})*`, "y");

/** Whether `s` holds no lone surrogate. */
function wellFormed(s: string): boolean {
  WELL_FORMED.lastIndex = 0;
  WELL_FORMED.test(s);
  return WELL_FORMED.lastIndex === s.length;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The tokens of one line for the generated readers: canonical spellings only. */
class CanonicalReader implements Reader {
  pos = 0;
  /** Each string and verbatim value read, then where its token ends (what the `Verifier` of `verifier.ts` keeps). */
  readonly values: unknown[] = [];
  /** The first backslash at or after the end of a string read before (the text's length when there is none). */
  private backslash = -1;

  constructor(readonly text: string) {}

  fail(): never {
    throw GIVE_UP;
  }

  lit(piece: string): boolean {
    if (!this.text.startsWith(piece, this.pos)) return false;
    this.pos += piece.length;
    return true;
  }

  need(piece: string): void {
    if (!this.text.startsWith(piece, this.pos)) throw GIVE_UP;
    this.pos += piece.length;
  }

  peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  bool(): boolean {
    if (this.lit("true")) return true;
    if (this.lit("false")) return false;
    throw GIVE_UP;
  }

  tag(): string {
    const t = this.text;
    const p = this.pos;
    if (t.charCodeAt(p) !== 34) throw GIVE_UP;
    const q = t.indexOf('"', p + 1);
    if (q < 0) throw GIVE_UP;
    this.pos = q + 1;
    // A text with a backslash or a control character in it is no discriminator of the schema's.
    return t.slice(p + 1, q);
  }

  /**
   * A string token is canonical when its escapes are the ones `JSON.stringify` writes (`\\"`,
   * `\\\\`, the short ones, lower-case `\\u00XX` for the other control characters) and it holds
   * no raw control character nor lone surrogate: one forward search by {@link PLAIN}, resumed past
   * each `\\u00XX`. Without escapes its value is a slice of the line; with them,
   * `JSON.parse` of the token makes it.
   */
  str(): string {
    const t = this.text;
    const p = this.pos;
    if (t.charCodeAt(p) !== 34) throw GIVE_UP;
    let q = p + 1;
    for (;;) {
      PLAIN.lastIndex = q;
      PLAIN.test(t);
      q = PLAIN.lastIndex;
      const c = t.charCodeAt(q);
      if (c === 34) break;
      if (c === 92 && t.charCodeAt(q + 1) === 117 && canonicalUnicodeEscape(t, q)) q += 6;
      else throw GIVE_UP; // another escape, a raw control character, a lone surrogate, or the line's end
    }
    let b = this.backslash;
    if (b <= p) b = this.backslash = next(t, "\\", p + 1);
    let value: string;
    if (b > q) value = t.slice(p + 1, q);
    else {
      try {
        value = JSON.parse(t.slice(p, q + 1)) as string;
      } catch {
        throw GIVE_UP;
      }
    }
    this.pos = q + 1;
    this.values.push(value, q + 1);
    return value;
  }

  /**
   * A number token is canonical when it is what `String` writes of its value: an integer of at
   * most 15 digits (exact in a double) is, unless it is `-0` or has a leading zero (the next
   * literal then fails); any other token is compared with `String(Number(token))`.
   */
  num(): number {
    const t = this.text;
    const s = this.pos;
    let p = s;
    let c = t.charCodeAt(p);
    const neg = c === 45;
    if (neg) c = t.charCodeAt(++p);
    let v = 0;
    if (c === 48) c = t.charCodeAt(++p);
    else if (c >= 49 && c <= 57) {
      do {
        v = v * 10 + (c - 48);
        c = t.charCodeAt(++p);
      } while (isDigit(c));
    } else throw GIVE_UP;
    if (c !== 46 && c !== 101 && c !== 69 && p - s <= 15) {
      if (neg && v === 0) throw GIVE_UP; // -0 is written 0
      this.pos = p;
      return neg ? -v : v;
    }
    if (c === 46) {
      if (!isDigit(t.charCodeAt(++p))) throw GIVE_UP;
      while (isDigit(t.charCodeAt(++p)));
      c = t.charCodeAt(p);
    }
    if (c === 101 || c === 69) {
      c = t.charCodeAt(++p);
      if (c === 43 || c === 45) c = t.charCodeAt(++p);
      if (!isDigit(c)) throw GIVE_UP;
      while (isDigit(t.charCodeAt(++p)));
    }
    const token = t.slice(s, p);
    const n = Number(token);
    if (String(n) !== token) throw GIVE_UP;
    this.pos = p;
    return n;
  }

  /**
   * A verbatim object: its span (as the fast path finds it, depth and scalar-map shape checked),
   * then `JSON.parse` of it, which checks its grammar. Kept as its exact text.
   */
  verbatim(shape: VerbatimShape, depth: number): unknown {
    const t = this.text;
    const end = objectEnd(t, this.pos, depth, shape === "scalar_map");
    if (end < 0) throw GIVE_UP;
    const source = t.slice(this.pos, end);
    // A raw line break between its tokens is JSON whitespace, but no line's (`decode` refuses it
    // before anything else, and does not search the lines this path reads).
    if (source.indexOf("\n") >= 0 || source.indexOf("\r") >= 0) throw GIVE_UP;
    // JSON.parse checks the grammar; the strings inside are not searched by PLAIN, so the span is
    // checked for a lone surrogate here (only the verbatim spans, not the whole line).
    if (!wellFormed(source)) throw GIVE_UP;
    try {
      JSON.parse(source);
    } catch {
      throw GIVE_UP;
    }
    const raw = trustedRawJson(source);
    this.values.push(raw, end);
    this.pos = end;
    return raw;
  }
}

/**
 * One reader kept alive for the life of the module, never used to read. Optimized code of the
 * generated readers (they inline `CanonicalReader`'s methods) holds the readers' object shape
 * only weakly; between decodes no reader is alive, and a full collection then frees that shape and
 * throws the optimized readers away, which the next lines pay for by running unoptimized and
 * compiling them again (measured: a collection before a pass of 3,563 small lines made the pass
 * cost 4.7 times its instructions). This instance keeps the shape, so the code survives
 * collections (typescript/test/canonical-gc.test.mjs).
 */
export const SHAPE_KEEPER: object = new CanonicalReader("");

/**
 * The message of a canonical line, read in one pass (`end`: the line's length without its one
 * trailing line feed), its source kept when `retain`; null when the general path must decide.
 */
export function readCanonical<M>(readMessage: (r: Reader) => M, text: string, end: number, retain: boolean): M | null {
  const r = new CanonicalReader(text);
  let msg: M;
  try {
    msg = readMessage(r);
  } catch (e) {
    // A RangeError is an engine limit (a regular expression's stack, say): the general paths decide.
    if (e === GIVE_UP || e instanceof RangeError) return null;
    throw e;
  }
  if (r.pos !== end) return null;
  if (retain) {
    const kept: Kept = { text: end === text.length ? text : text.slice(0, end), values: r.values };
    Object.defineProperty(msg, SOURCE, { value: kept });
  }
  return msg;
}
