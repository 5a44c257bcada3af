/**
 * `RawJson`: a verbatim JSON value (`fidelity`, tool `parameters`, hook `output`) held as its
 * exact source text, so that it is written back byte for byte.
 *
 * @module
 */

import type { VerbatimJson } from "./generated/types.js";
import { OBJ } from "./generated/check.js";
import { ScanError, scan } from "./scan.js";

let trusted = false;

/**
 * The exact text of a JSON object. {@link RawJson.parse} gives a (lossy) parsed view;
 * `JSON.stringify` of a message holding one writes that view.
 *
 * @typeParam T - what {@link RawJson.parse} gives back.
 */
export class RawJson<T = unknown> implements VerbatimJson<T> {
  /** The exact JSON text, from `{` to `}`. */
  readonly text: string;

  /**
   * Holds `text`, which must be a JSON object (RFC 8259; whitespace around it is not allowed).
   *
   * @throws TypeError if it is not.
   */
  constructor(text: string) {
    if (!trusted) {
      if (typeof text !== "string") throw new TypeError("RawJson: the text must be a string");
      if (!text.isWellFormed()) throw new TypeError("RawJson: the text holds a lone surrogate");
      let kind: number;
      try {
        kind = scan(text).kind;
      } catch (e) {
        if (e instanceof ScanError) throw new TypeError(`RawJson: not a JSON text (${e.category} at ${e.pos}: ${e.detail})`);
        throw e;
      }
      if (kind !== OBJ || text.charCodeAt(0) !== 123 || text.charCodeAt(text.length - 1) !== 125) {
        throw new TypeError("RawJson: the text must be one JSON object, from `{` to `}`");
      }
    }
    this.text = text;
  }

  /** The JSON text `JSON.stringify` writes for `value`, which must be a plain object. */
  static from<T extends object>(value: T): RawJson<T> {
    if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof RawJson) {
      throw new TypeError("RawJson.from: the value must be a plain object");
    }
    return new RawJson<T>(JSON.stringify(value));
  }

  /** A parsed view (duplicate keys, number spelling and escapes are not kept). */
  parse(): T {
    return JSON.parse(this.text) as T;
  }

  /** Is `other` the same text? */
  equals(other: VerbatimJson): boolean {
    return other.text === this.text;
  }

  /** `JSON.stringify` writes the parsed view. */
  toJSON(): T {
    return this.parse();
  }

  toString(): string {
    return this.text;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `RawJson ${this.text.length > 200 ? this.text.slice(0, 200) + "..." : this.text}`;
  }
}

/** A RawJson for text the decoder has already checked. */
export function trustedRawJson(text: string): RawJson {
  trusted = true;
  const r = new RawJson(text);
  trusted = false;
  return r;
}
