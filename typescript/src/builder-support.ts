/**
 * The hand-written part of the builders: what the generated ones (`generated/builders.ts`) call.
 *
 * One rule for verbatim values given to a builder (schema/README.md): an empty object, in any
 * form (a plain `{}`, JSON text `{ }`, a RawJson of `{}`), is left out.
 *
 * @module
 */

import type * as t from "./generated/types.js";
import { RawJson } from "./raw.js";

/** A verbatim value as builders take it: a RawJson (kept as is), JSON text, or a plain object. */
export type JsonObjectInput = t.VerbatimJson | string | { readonly [key: string]: unknown };

/** When a message was produced: an ISO string as written, or a Date. */
export type TimestampInput = string | Date;

/** The options every builder of a message takes. */
export interface Stamp {
  timestamp?: TimestampInput;
}

/** The current time as `Date.toISOString()` writes it (UTC, milliseconds, `Z`). */
export function now(): string {
  return new Date().toISOString();
}

/** A timestamp as written: now unless given. */
export function stamp(ts: TimestampInput | undefined): string {
  if (ts === undefined) return now();
  return typeof ts === "string" ? ts : ts.toISOString();
}

function isVerbatim(value: unknown): value is t.VerbatimJson {
  return typeof value === "object" && value !== null && typeof (value as t.VerbatimJson).text === "string" && typeof (value as t.VerbatimJson).parse === "function";
}

/**
 * A verbatim JSON object: a RawJson or any `VerbatimJson` as is, JSON text (checked, kept byte
 * for byte, surrounding whitespace trimmed), or a plain object (written as `JSON.stringify`
 * writes it).
 */
export function rawJson(value: JsonObjectInput): t.VerbatimJson<{ [key: string]: unknown }> {
  const raw = anyRawJson(value);
  if (/[\n\r]/.test(raw.text) && !EMPTY_OBJECT.test(raw.text)) {
    // A message is one line (schema/README.md section 1.5): kept byte for byte, a raw LF would
    // split the record (and could smuggle a forged one onto its own line).
    throw new TypeError("a verbatim value holds a raw line feed or carriage return (line_break): a message is one line");
  }
  return raw;
}

const EMPTY_OBJECT = /^\{[ \t\r\n]*\}$/;

function anyRawJson(value: JsonObjectInput): t.VerbatimJson<{ [key: string]: unknown }> {
  if (typeof value === "string") return new RawJson(value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, ""));
  if (isVerbatim(value)) return value as t.VerbatimJson<{ [key: string]: unknown }>;
  return RawJson.from(value as { [key: string]: unknown });
}

/** A verbatim value, or undefined when absent or empty in any form (the reference builders omit `{}`). */
export function verbatim(value: JsonObjectInput | undefined): t.VerbatimJson<{ [key: string]: unknown }> | undefined {
  if (value === undefined) return undefined;
  const raw = rawJson(value);
  return EMPTY_OBJECT.test(raw.text) ? undefined : raw;
}

/** A copy of an optional array, or undefined when absent or empty (left out). */
export function nonEmpty<T>(items: readonly T[] | undefined): T[] | undefined {
  return items && items.length ? [...items] : undefined;
}

/** `T` whose optional keys may also be given as `undefined` (under `exactOptionalPropertyTypes` too). */
export type Loose<T> = { [K in keyof T]: {} extends Pick<T, K> ? T[K] | undefined : T[K] };

/** Copy `fields` without the keys whose value is undefined (absent stays absent). */
export function defined<T extends object>(fields: Loose<T>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out as T;
}
