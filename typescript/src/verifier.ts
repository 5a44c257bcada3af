/**
 * The writers of the decoder's fast path: `Verifier` checks the canonical form against the input
 * instead of writing it (and cuts verbatim values from it), `Replay` checks that an unchanged
 * decoded message would encode to the very line it was decoded from.
 *
 * @module
 */

import type { Writer } from "./generated/encode.js";
import type { VerbatimShape } from "./generated/schema.js";
import { trustedRawJson } from "./raw.js";
import { objectEnd } from "./object-end.js";

/** The index of the next `needle` at or after `from`, or the text's length. */
function next(t: string, needle: string, from: number): number {
  const i = t.indexOf(needle, from);
  return i < 0 ? t.length : i;
}

/** `\u00XX` is the canonical escape of the control characters without a short one. */
export function canonicalUnicodeEscape(t: string, b: number): boolean {
  // \u 0 0 [0-1] [0-9a-f], lower-case, and not \b \t \n \f \r (which have short forms).
  if (t.charCodeAt(b + 2) !== 48 || t.charCodeAt(b + 3) !== 48) return false;
  const h = t.charCodeAt(b + 4);
  const l = t.charCodeAt(b + 5);
  if (h !== 48 && h !== 49) return false;
  const lo = l >= 48 && l <= 57 ? l - 48 : l >= 97 && l <= 102 ? l - 87 : -1;
  if (lo < 0) return false;
  const c = (h - 48) * 16 + lo;
  return c !== 8 && c !== 9 && c !== 10 && c !== 12 && c !== 13;
}

/**
 * A writer that checks the canonical form against the input instead of writing it, and cuts
 * verbatim values from the input as they are met. Once the input is known to be one JSON text
 * (`JSON.parse` took it) and every piece so far matched, the token at the current position is
 * the value being written, so a string is checked in place: canonical when its escapes are the
 * ones `JSON.stringify` writes (nothing is allocated, long strings are searched, not copied).
 */
export class Verifier implements Writer {
  pos = 0;
  ok = true;
  /** Each string and verbatim value written, then where its token ends (see {@link Replay}). */
  readonly values: unknown[] = [];
  /** The next backslash and the next quote at or after the scan position (the input's length when there is none). */
  private backslash = -1;
  private quote = -1;

  constructor(readonly text: string) {}

  put(s: string): void {
    if (this.ok) {
      if (this.text.startsWith(s, this.pos)) this.pos += s.length;
      else this.ok = false;
    }
  }

  /**
   * The string token at the current position is canonical when it holds no escape that
   * JSON.stringify would not write: `\\"`, `\\\\`, the short ones and lower-case `\\u00XX` for
   * other control characters are canonical; `\\/`, upper-case hex and any other `\\u` are not
   * (JSON.stringify writes a lone surrogate as `\\udXXX`: strict decoding accepts those only in
   * a partial's fragment field, which the slow path decides, so they take it).
   * The token is checked in place, escape by escape, with searches that only move forward (a
   * line stays linear); nothing is allocated. The value itself is the token's (JSON.parse read
   * it there), so it need not be compared.
   */
  string(value: string): void {
    if (!this.ok) return;
    const t = this.text;
    let p = this.pos;
    if (t.charCodeAt(p) !== 34) {
      this.ok = false;
      return;
    }
    p++;
    for (;;) {
      let q = this.quote;
      if (q < p) q = this.quote = next(t, '"', p);
      let b = this.backslash;
      if (b < p) b = this.backslash = next(t, "\\", p);
      if (q === t.length) {
        this.ok = false;
        return;
      }
      if (b > q) {
        this.pos = q + 1;
        this.values.push(value, q + 1);
        return;
      }
      const e = t.charCodeAt(b + 1);
      if (e === 34 || e === 92 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) p = b + 2;
      else if (e === 117 && canonicalUnicodeEscape(t, b)) p = b + 6;
      else {
        this.ok = false;
        return;
      }
    }
  }

  verbatim(v: unknown, shape: VerbatimShape, depth: number): unknown {
    if (!this.ok) return v;
    const end = objectEnd(this.text, this.pos, depth, shape === "scalar_map");
    if (end < 0) {
      this.ok = false;
      return v;
    }
    const raw = trustedRawJson(this.text.slice(this.pos, end));
    this.values.push(raw, end);
    this.pos = end;
    return raw;
  }
}

/** The canonical text a message was decoded from, and the values written in it. */
export interface Kept {
  readonly text: string;
  /** Each string and verbatim value, then the index where its token ends in `text`. */
  readonly values: readonly unknown[];
}

/** Where a decoded message keeps its {@link Kept} (a non-enumerable property, invisible to JSON, spread and keys). */
export const SOURCE: unique symbol = Symbol("omnimessage.source");

/**
 * A writer that checks the encoders would write the retained text again: the pieces against the
 * text, and each string and verbatim value against the one decoded there (the same value has the
 * same canonical token, which was checked when the line was decoded).
 */
export class Replay implements Writer {
  pos = 0;
  ok = true;
  private i = 0;
  private readonly text: string;
  private readonly values: readonly unknown[];

  constructor(kept: Kept) {
    this.text = kept.text;
    this.values = kept.values;
  }

  put(s: string): void {
    if (this.ok && this.text.startsWith(s, this.pos)) this.pos += s.length;
    else this.ok = false;
  }

  string(v: string): void {
    this.value(v);
  }

  verbatim(v: unknown): unknown {
    this.value(v);
    return v;
  }

  private value(v: unknown): void {
    if (this.ok && this.values[this.i] === v) {
      this.pos = this.values[this.i + 1] as number;
      this.i += 2;
    } else this.ok = false;
  }
}


/**
 * One instance of each writer kept alive for the life of the module, never used: the optimized
 * generated encoders hold a writer's object shape only weakly, so without one alive a full
 * collection threw that code away (see `SHAPE_KEEPER` of `canonical.ts`, the same for the readers).
 */
export const SHAPE_KEEPERS: readonly object[] = [new Verifier(""), new Replay({ text: "", values: [] })];
