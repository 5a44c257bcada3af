/**
 * The byte-exact codec: strict `decode`, canonical `encode`, `canonicalize`.
 *
 * Decoding has two paths that must agree (the tests check they do):
 *
 * - fast: `JSON.parse`, the generated validators, then the generated encoders run against the
 *   input (a writer that compares instead of writing). When the canonical form is the input
 *   itself, the line was canonical, which also proves it had no duplicate keys and no
 *   non-canonical spelling; verbatim values are cut from the input as they are met.
 * - plain (valid but not canonical, and every line over 1 MiB): `scanPlain` (`scan.ts`) reads
 *   the line into the plain values JSON.parse would make, verbatim objects checked and kept as
 *   spans, giving up on anything the strict path must judge (a duplicate key, a lone surrogate
 *   escape, a number other than a short integer, any error); the fast validators then check it.
 *   No node per value: memory stays a small multiple of the line.
 * - slow (anything else: invalid, or what the plain reader gave up on): the strict scanner
 *   (`scan.ts`) builds a position-aware tree, a lexical pass refuses what JSON Schema cannot
 *   see (outside verbatim values only), then the generated strict validators (`check.ts`) check
 *   the schema. Errors carry the Python binding's category, JSON pointer, byte offset and detail.
 *
 * @module
 */

import { ARR, LIT, NUM, OBJ, STR, checkMessage, escapePointerToken, member, pyRepr, type Problem } from "./generated/check.js";
import { encodeMessage, writeMessage, type Writer } from "./generated/encode.js";
import { FRAGMENT_OF, PAYLOAD_STRUCTS, VERBATIM_LOCATIONS, type VerbatimShape } from "./generated/schema.js";
import type { OmniMessage } from "./generated/types.js";
import { isValidMessage } from "./generated/validate.js";
import { DecodeError } from "./errors.js";
import { RawJson, trustedRawJson } from "./raw.js";
import { Node, RAW, ScanError, expand, objectEnd, scan, scanPlain } from "./scan.js";
import { byteOffset, decodeUtf8, loneSurrogateIndex, utf8Error } from "./utf8.js";

/**
 * A well-formed line that strict decoding refused (lenient mode only). It re-encodes to
 * exactly the bytes of its object, from `{` to `}` (schema/README.md section 5), so relays and
 * forward-compatible readers pass messages of a newer protocol version through untouched.
 */
export class OpaqueMessage {
  /**
   * @param raw - the line's object, from its `{` to its `}` (the JSON whitespace around it, a CR
   *   before the line feed included, is not part of it).
   * @param error - why strict decoding refused it.
   */
  constructor(
    readonly raw: string,
    readonly error: DecodeError,
  ) {}
}

/** Options of {@link decode}. */
export interface DecodeOptions {
  /** Keep a well-formed JSON object that strict decoding refuses as an {@link OpaqueMessage}. */
  lenient?: boolean;
  /**
   * Keep a canonical line's text with its message (default true), so that `encode` of the
   * message, unchanged, gives the text back without serialising it again. The text lives as
   * long as the message does; `false` saves that memory.
   */
  retainSource?: boolean;
}

/**
 * Decode one line (one trailing line feed allowed) into a message.
 *
 * Strict by default: anything the wire contract refuses throws a {@link DecodeError}, and no
 * other error escapes, whatever the input. With `lenient: true`, a well-formed JSON object
 * that strict decoding refuses comes back as an {@link OpaqueMessage}.
 */
export function decode(line: string | Uint8Array, options?: { lenient?: false }): OmniMessage;
export function decode(line: string | Uint8Array, options: DecodeOptions): OmniMessage | OpaqueMessage;
export function decode(line: string | Uint8Array, options?: DecodeOptions): OmniMessage | OpaqueMessage {
  const lenient = options?.lenient === true;
  const retain = options?.retainSource !== false;
  let text: string | null;
  if (typeof line === "string") {
    text = line;
    if (!text.isWellFormed()) {
      // A lone surrogate in a JS string is what UTF-8 cannot carry (Python: ED A0 80 ...).
      throw new DecodeError("invalid_utf8", "invalid UTF-8 (invalid continuation byte)", "", byteOffset(text, loneSurrogateIndex(text)));
    }
  } else if (line instanceof Uint8Array) {
    text = decodeUtf8(line);
    if (text === null) {
      const e = utf8Error(line) ?? { index: 0, reason: "invalid data" };
      throw new DecodeError("invalid_utf8", `invalid UTF-8 (${e.reason})`, "", e.index);
    }
  } else {
    throw new TypeError("decode: the line must be a string or a Uint8Array");
  }
  try {
    return decodeText(text, lenient, retain);
  } catch (e) {
    if (e instanceof RangeError) {
      // Engine limits (string length, memory): the line is too large for this process.
      throw new DecodeError("too_large", `line too large to decode here (${e.message})`, "", null);
    }
    throw e;
  }
}

/** The canonical text of one line (no line feed); throws {@link DecodeError}. */
export function canonicalize(line: string | Uint8Array, options?: DecodeOptions): string {
  return encode(decode(line, options ?? {}));
}

/**
 * The canonical text of a message (no line feed): keys in schema order, optional keys only
 * when set, strings and numbers as `JSON.stringify` writes them, verbatim values copied as
 * their exact text. An {@link OpaqueMessage} encodes to its original object.
 *
 * The message is not validated (see `isValidMessage`); a value of the wrong JavaScript type
 * throws a `TypeError` naming the field.
 */
export function encode(msg: OmniMessage | OpaqueMessage): string {
  if (msg instanceof OpaqueMessage) return msg.raw;
  const kept = (msg as unknown as { [SOURCE]?: Kept })[SOURCE];
  if (kept !== undefined) {
    // Decoded from a canonical line: if the encoders write the same pieces and the very same
    // values, the canonical form is that line.
    const r = new Replay(kept);
    writeMessage(r, msg);
    if (r.ok && r.pos === kept.text.length) return kept.text;
  }
  return encodeMessage(msg);
}

// ---------------------------------------------------------------------------
// fast path
// ---------------------------------------------------------------------------

function isPlainObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The index of the next `needle` at or after `from`, or the text's length. */
function next(t: string, needle: string, from: number): number {
  const i = t.indexOf(needle, from);
  return i < 0 ? t.length : i;
}

/** `\u00XX` is the canonical escape of the control characters without a short one. */
function canonicalUnicodeEscape(t: string, b: number): boolean {
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
class Verifier implements Writer {
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
interface Kept {
  readonly text: string;
  /** Each string and verbatim value, then the index where its token ends in `text`. */
  readonly values: readonly unknown[];
}

/** Where a decoded message keeps its {@link Kept} (a non-enumerable property, invisible to JSON, spread and keys). */
const SOURCE: unique symbol = Symbol("omnimessage.source");

/**
 * A writer that checks the encoders would write the retained text again: the pieces against the
 * text, and each string and verbatim value against the one decoded there (the same value has the
 * same canonical token, which was checked when the line was decoded).
 */
class Replay implements Writer {
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

/** Does the text start, after JSON whitespace, with `{`? (Only an object can take the fast path.) */
function startsWithObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return c === 123;
  }
  return false;
}

/** Longer lines (UTF-16 code units) skip the fast path, whose JSON.parse is not bounded by a small multiple of the line. */
const FAST_PATH_MAX = 1 << 20;

function decodeText(text: string, lenient: boolean, retain: boolean): OmniMessage | OpaqueMessage {
  let end = text.length;
  if (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  // Anything but an object goes straight to the strict scanner, which decides exactly: a
  // JSON.parse that throws costs more than the scan (empty lines, binary junk). A long line
  // skips JSON.parse, which builds every value of verbatim objects too (13x the line for a long
  // array of zeros): the plain reader only checks them.
  if (!startsWithObject(text)) return decodeSlow(text, lenient);
  if (text.length > FAST_PATH_MAX) return decodePlain(text) ?? decodeSlow(text, lenient);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return decodeSlow(text, lenient);
  }
  if (isValidMessage(value, isPlainObject)) {
    const w = new Verifier(text);
    writeMessage(w, value);
    if (w.ok && w.pos === end) {
      if (retain) {
        const kept: Kept = { text: end === text.length ? text : text.slice(0, end), values: w.values };
        Object.defineProperty(value, SOURCE, { value: kept });
      }
      return value;
    }
    // Valid but not canonical (a space, an escape, another key order): most likely valid,
    // and then read without a node per value.
    value = undefined;
    return decodePlain(text) ?? decodeSlow(text, lenient);
  }
  return decodeSlow(text, lenient);
}

/** A verbatim value read by {@link scanPlain} (the only kind it makes). */
function isRawJson(v: unknown): boolean {
  return v instanceof RawJson;
}

/**
 * A valid line, read without a node per value: {@link scanPlain} builds the plain values
 * (or gives up on anything the strict path must judge), then the fast validators check them.
 * Null when the strict path must decide: what this accepts, the strict path accepts too, and
 * builds the same message of (the same values, verbatim values cut from the same spans).
 */
function decodePlain(text: string): OmniMessage | null {
  const read = scanPlain(text, (start, end) => trustedRawJson(text.slice(start, end)));
  if (read === null) return null;
  const root = read.value;
  const env = root["type"];
  if (typeof env !== "string") return null;
  const payload = root["payload"];
  const ptype = isPlainObject(payload) ? (payload as Record<string, unknown>)["type"] : undefined;
  const table = VERBATIM_LOCATIONS.get(env)?.get(typeof ptype === "string" ? ptype : "");
  // Each object kept as a span must sit at a verbatim place of this message (and a scalar map's
  // members must be scalars); the validators then see a RawJson at every verbatim place.
  for (const [key, notScalar] of read.verbatim) {
    const shape = table?.get(key);
    if (shape === undefined || (notScalar && shape === "scalar_map")) return null;
  }
  return isValidMessage(root, isRawJson) ? root : null;
}

// ---------------------------------------------------------------------------
// slow path
// ---------------------------------------------------------------------------

function decodeSlow(text: string, lenient: boolean): OmniMessage | OpaqueMessage {
  let root: Node;
  try {
    root = scan(text);
  } catch (e) {
    if (e instanceof ScanError) throw new DecodeError(e.category, e.detail, "", byteOffset(text, e.pos));
    throw e;
  }
  if (root.kind !== OBJ) throw new DecodeError("wrong_type", "a message is a JSON object", "", 0);
  const verbatim = verbatimTable(root);
  const problem = new Lexical(text, verbatim, fragmentField(root)).walk(root, "", null) ?? checkMessage(root);
  if (problem !== null) {
    const err = new DecodeError(problem.category, problem.detail, problem.pointer, byteOffset(text, problem.at));
    // The opaque message is the object, from its `{` to its `}`: the JSON whitespace around it
    // (a CR before the LF included) is not part of it (schema/README.md section 5).
    if (lenient) return new OpaqueMessage(text.slice(root.start, root.end), err);
    throw err;
  }
  return build(root, text, verbatim, null, true) as OmniMessage;
}

type VerbatimTable = ReadonlyMap<string, VerbatimShape> | null;

/** Where verbatim values sit in this message, by its envelope and payload `type`. */
function verbatimTable(root: Node): VerbatimTable {
  const env = member(root, "type");
  const payload = member(root, "payload");
  const ptype = payload === null ? null : member(payload, "type");
  const envTag = env !== null && env.kind === STR ? (env.value as string) : null;
  const pTag = ptype !== null && ptype.kind === STR ? (ptype.value as string) : "";
  if (envTag === null) return null;
  return VERBATIM_LOCATIONS.get(envTag)?.get(pTag) ?? null;
}

/**
 * The fragment field of this message's payload when it is a streaming partial (`text`,
 * `thinking`, `arguments`, `output`), else null: the one string that may escape lone surrogates
 * (the reference producer cuts fragments at any UTF-16 offset, so a pair can be split between
 * two deltas; joined, the halves pair up again).
 */
function fragmentField(root: Node): string | null {
  const env = member(root, "type");
  const payload = member(root, "payload");
  const ptype = payload === null ? null : member(payload, "type");
  if (env === null || env.kind !== STR || ptype === null || ptype.kind !== STR) return null;
  const pTag = ptype.value as string;
  if (PAYLOAD_STRUCTS.get(env.value as string)?.has(pTag) !== true || !Object.hasOwn(FRAGMENT_OF, pTag)) return null;
  return FRAGMENT_OF[pTag as keyof typeof FRAGMENT_OF][1];
}

/** The shape of the verbatim value at `rel` (a path from the payload), if one sits there. */
function verbatimAt(table: VerbatimTable, rel: readonly string[] | null): VerbatimShape | undefined {
  if (table === null || rel === null || rel.length === 0) return undefined;
  let key = "";
  for (let i = 0; i < rel.length; i++) {
    const seg = rel[i] as string;
    if (seg.includes("/")) return undefined;
    key += (i ? "/" : "") + (/^[0-9]+$/.test(seg) ? "*" : seg);
  }
  return table.get(key);
}

/**
 * What JSON Schema cannot see, outside verbatim values, in document order: lone surrogate
 * escapes (except in a partial's fragment field), duplicate keys, numbers beyond the double
 * range; and the shape of verbatim values.
 */
class Lexical {
  constructor(
    readonly text: string,
    readonly verbatim: VerbatimTable,
    /** The payload's fragment field, where lone surrogate escapes are allowed (see {@link fragmentField}). */
    readonly fragment: string | null,
  ) {}

  walk(node: Node, pointer: string, rel: string[] | null): Problem | null {
    const shape = verbatimAt(this.verbatim, rel);
    if (shape !== undefined) return verbatimShape(node, pointer, shape);
    // An object at a place where another payload keeps a verbatim value: build it now (it sits
    // below the root, the payload and `rel`).
    if (node.kind === RAW) expand(this.text, node, (rel as string[]).length + 2);
    switch (node.kind) {
      case OBJ: {
        const keys = node.keys as string[];
        const seen = new Set<string>();
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as string;
          const ptr = pointer + "/" + escapePointerToken(key);
          const at = (node.keyStarts as number[])[i] as number;
          if (node.keyLone !== null && node.keyLone[i] === true) return problem("lone_surrogate", "object key escapes a lone surrogate", ptr, at);
          if (seen.has(key)) return problem("duplicate_key", `duplicate key ${pyRepr(key)}`, ptr, at);
          seen.add(key);
          const crel = rel === null ? (pointer === "" && key === "payload" ? [] : null) : [...rel, key];
          const r = this.walk((node.items as Node[])[i] as Node, ptr, crel);
          if (r !== null) return r;
        }
        return null;
      }
      case ARR: {
        const items = node.items as Node[];
        // A string that escapes no lone surrogate, or a literal, has nothing to refuse unless a
        // verbatim value sits at the items' place: skip it without a pointer or a path (a line
        // of a million short strings would allocate both a million times).
        const plainOk = verbatimAt(this.verbatim, rel === null ? null : [...rel, "0"]) === undefined;
        for (let i = 0; i < items.length; i++) {
          const c = items[i] as Node;
          if (plainOk && ((c.kind === STR && !c.lone) || c.kind === LIT)) continue;
          const r = this.walk(c, pointer + "/" + i, rel === null ? null : [...rel, String(i)]);
          if (r !== null) return r;
        }
        return null;
      }
      case STR:
        if (!node.lone || (this.fragment !== null && rel !== null && rel.length === 1 && rel[0] === this.fragment)) return null;
        return problem("lone_surrogate", "string escapes a lone surrogate", pointer, node.start);
      case NUM: {
        const s = node.value as string;
        if (Number.isFinite(Number(s))) return null;
        const shown = s.length > 40 ? s.slice(0, 40) + "..." : s;
        return problem("invalid_number", `${shown} is beyond the IEEE 754 double range`, pointer, node.start);
      }
      default:
        return null;
    }
  }
}

function problem(category: Problem["category"], detail: string, pointer: string, at: number): Problem {
  return { category, detail, pointer, at };
}

function verbatimShape(node: Node, pointer: string, shape: VerbatimShape): Problem | null {
  if (node.kind !== OBJ && node.kind !== RAW) return problem("wrong_type", "a verbatim value here must be a JSON object", pointer, node.start);
  if (shape === "scalar_map" && node.kind === RAW) {
    // The scanner noted the first member whose value is not a scalar.
    if (node.keys === null) return null;
    const ptr = pointer + "/" + escapePointerToken(node.keys[0] as string);
    return problem("wrong_type", "values here must be strings, numbers or booleans", ptr, (node.keyStarts as number[])[0] as number);
  }
  if (shape === "scalar_map") {
    const items = node.items as Node[];
    for (let i = 0; i < items.length; i++) {
      const c = items[i] as Node;
      if (c.kind !== STR && c.kind !== NUM && !(c.kind === LIT && c.value !== null)) {
        const ptr = pointer + "/" + escapePointerToken((node.keys as string[])[i] as string);
        return problem("wrong_type", "values here must be strings, numbers or booleans", ptr, c.start);
      }
    }
  }
  return null;
}

/** The message value of a checked tree: verbatim values as RawJson, numbers as numbers. */
function build(node: Node, text: string, verbatim: VerbatimTable, rel: string[] | null, root = false): unknown {
  if (verbatimAt(verbatim, rel) !== undefined) return trustedRawJson(text.slice(node.start, node.end));
  switch (node.kind) {
    case OBJ: {
      // Keys are the schema's (checked), so plain assignment cannot reach a prototype.
      const out: Record<string, unknown> = {};
      const keys = node.keys as string[];
      const items = node.items as Node[];
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const crel = rel === null ? (root && key === "payload" ? [] : null) : [...rel, key];
        out[key] = build(items[i] as Node, text, verbatim, crel);
      }
      return out;
    }
    case ARR: {
      // Strings and literals are their values (a verbatim place holding one was refused).
      const items = node.items as Node[];
      const out = new Array<unknown>(items.length);
      for (let i = 0; i < items.length; i++) {
        const c = items[i] as Node;
        out[i] = c.kind === STR || c.kind === LIT ? c.value : build(c, text, verbatim, rel === null ? null : [...rel, String(i)]);
      }
      return out;
    }
    case NUM: {
      const n = Number(node.value as string);
      return n === 0 ? 0 : n;
    }
    default:
      return node.value;
  }
}
