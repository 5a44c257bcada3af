/**
 * Reading a provider's streaming events, which are input: plain objects from JSON or from an
 * SDK, read defensively (a wrong shape is a {@link StreamError} naming the event and the JSON
 * pointer, never a crash), as the Python binding's `omnimessage/providers/_wire.py` reads them.
 *
 * @module
 */

import { pyRepr } from "../restore/pyrepr.js";
import { ParseError, parsePython, type Parsed } from "./stream-json.js";
import { StreamError } from "./translate.js";

/** A plain JSON object. */
export type Obj = Record<string, unknown>;

/** `value` as an object; null or undefined reads as an empty one, anything else is an error. */
export function obj(value: unknown, event: number, pointer: string): Obj {
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new StreamError(event, `${pointer || "the event"} is not an object`);
  return value as Obj;
}

/** The string at `key`, `""` when it is none. */
export function text(d: Obj, key: string): string {
  const v = d[key];
  return typeof v === "string" ? v : "";
}

/** The integer at `key`, 0 when it is none. */
/** A token count the event may carry: an integer, or null (absent, or anything else). */
export function count(d: Obj, key: string): number | null {
  const v = d[key];
  return isInt(v) ? v : null;
}

export function num(d: Obj, key: string): number {
  const v = d[key];
  return isInt(v) ? v : 0;
}

/** Whether `v` is a JSON integer (Python's `int`, not `bool`). */
export function isInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

/** A tool call's streamed arguments, parsed (an empty string is no arguments); JSON that does not
 * parse is an error, as the gateway's `parse_tool_call_arguments` makes it. */
export function parseArguments(raw: string, event: number): Parsed | Obj | null {
  if (!raw) return {};
  try {
    const parsed = parsePython(raw);
    return parsed.text === "null" ? null : parsed; // JSON null: no arguments, as Python's None
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    throw new StreamError(event, e.deep ? "a tool call's arguments are nested too deeply" : `a tool call's arguments are not JSON: ${e.message}`);
  }
}

/** Python's `repr` of a JSON value (what the Python binding's `!r` writes). */
export function pyValue(v: unknown): string {
  if (v === undefined || v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return pyRepr(v);
  if (typeof v === "number") return String(v); // a float Python reads as `1.0` is `1` here
  if (Array.isArray(v)) return `[${v.map(pyValue).join(", ")}]`;
  if (typeof v === "object") return `{${Object.entries(v as Obj).map(([k, x]) => `${pyRepr(k)}: ${pyValue(x)}`).join(", ")}}`;
  return String(v);
}

/** Python's truth of a JSON value (`0`, `""`, `[]`, `{}`, null and false are false). */
export function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object" && v !== null) return Object.keys(v).length > 0;
  return Boolean(v);
}

/** Python's `str` of a JSON value (for a table lookup). */
export function pyStr(v: unknown): string {
  return typeof v === "string" ? v : pyValue(v);
}
