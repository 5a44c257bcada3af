/**
 * The byte-exact codec: strict `decode`, canonical `encode`, `canonicalize`.
 *
 * Decoding has paths that must agree (the tests check they do):
 *
 * - one-pass (`canonical.ts`): the generated readers (`generated/read.ts`) read a canonical line
 *   in one walk, keys matched as exact literals, the message built as they go; anything else
 *   (not canonical, invalid) gives up, and the fast path decides.
 * - fast: `JSON.parse`, the generated validators, then the generated encoders run against the
 *   input (`Verifier` of `verifier.ts`: a writer that compares instead of writing). When the canonical form is the input
 *   itself, the line was canonical, which also proves it had no duplicate keys and no
 *   non-canonical spelling; verbatim values are cut from the input as they are met.
 * - plain (valid but not canonical, and every line over 1 MiB): `scanPlain` (`scan-plain.ts`) reads
 *   the line into the plain values JSON.parse would make, verbatim objects checked and kept as
 *   spans, giving up on anything the strict path must judge (a duplicate key, a lone surrogate
 *   escape, a number other than a short integer, any error); the fast validators then check it.
 *   No node per value: memory stays a small multiple of the line.
 * - slow (`decode-slow.ts`; anything else: invalid, or what the plain reader gave up on): the
 *   strict scanner (`scan.ts`) builds a position-aware tree, a lexical pass refuses what JSON Schema cannot
 *   see (outside verbatim values only), then the generated strict validators (`check.ts`) check
 *   the schema. Errors carry the Python binding's category, JSON pointer, byte offset and detail.
 *
 * @module
 */
import type { CodecTables } from "./codec-tables.js";
import { checkMessage } from "./generated/check.js";
import { encodeMessage, writeMessage } from "./generated/encode.js";
import { readMessage } from "./generated/read.js";
import { FRAGMENT_OF, PAYLOAD_STRUCTS, PROTOCOL_VERSION, VERBATIM_LOCATIONS } from "./generated/schema.js";
import type { OmniMessage } from "./generated/types.js";
import { isValidMessage } from "./generated/validate.js";
import { readCanonical } from "./canonical.js";
import { decodeSlow } from "./decode-slow.js";
import { DecodeError } from "./errors.js";
import { OpaqueMessage } from "./opaque.js";
import { RawJson, trustedRawJson } from "./raw.js";
import { scanPlain } from "./scan-plain.js";
import { byteOffset, decodeUtf8, loneSurrogateIndex, utf8Error } from "./utf8.js";
import { Replay, SOURCE, Verifier, type Kept } from "./verifier.js";

export { OpaqueMessage } from "./opaque.js";

/** The package's own generated tables (`src/generated/`, the newest protocol version). */
const OWN: CodecTables<OmniMessage> = {
  protocolVersion: PROTOCOL_VERSION,
  readMessage,
  checkMessage,
  isValidMessage,
  writeMessage,
  encodeMessage,
  verbatimLocations: VERBATIM_LOCATIONS,
  payloadStructs: PAYLOAD_STRUCTS,
  fragmentOf: FRAGMENT_OF,
};

/**
 * The byte-exact codec bound to one protocol version's generated tables: what `register` of
 * `omnimessage/runtime` hands to generated code (its `decode`, `encode`, `canonicalize`), the
 * package's own `decode`/`encode` being this codec bound to `src/generated/`.
 */
export interface Codec<M> {
  /** The protocol version of the tables (their `PROTOCOL_VERSION`). */
  readonly protocolVersion: string;
  /** {@link decode}, into these tables' messages. */
  decode(line: string | Uint8Array, options?: { lenient?: false }): M;
  decode(line: string | Uint8Array, options: DecodeOptions): M | OpaqueMessage;
  /** {@link encode}, with these tables' encoders. */
  encode(msg: M | OpaqueMessage): string;
  /** {@link canonicalize}, through these tables. */
  canonicalize(line: string | Uint8Array, options?: DecodeOptions): string;
}

/** The codec bound to `t` (generated tables of one protocol version). */
export function bindCodec<M>(t: CodecTables<M>): Codec<M> {
  function dec(line: string | Uint8Array, options?: { lenient?: false }): M;
  function dec(line: string | Uint8Array, options: DecodeOptions): M | OpaqueMessage;
  function dec(line: string | Uint8Array, options?: DecodeOptions): M | OpaqueMessage {
    return decodeWith(t, line, options, true);
  }
  const enc = (msg: M | OpaqueMessage): string => encodeWith(t, msg);
  return Object.freeze({
    protocolVersion: t.protocolVersion ?? PROTOCOL_VERSION,
    decode: dec,
    encode: enc,
    canonicalize: (line: string | Uint8Array, options?: DecodeOptions): string => enc(dec(line, options ?? {})),
  });
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
  return decodeWith(OWN, line, options, true);
}

/**
 * {@link decode}, with the one-pass path (`canonical.ts`) or without it (`onePass: false`: the
 * general paths alone, which decide the same). Not part of the public API: the benchmark and the
 * tests run both paths on the same lines.
 */
export function decodeLine(line: string | Uint8Array, options: DecodeOptions | undefined, onePass: boolean): OmniMessage | OpaqueMessage {
  return decodeWith(OWN, line, options, onePass);
}

function decodeWith<M>(t: CodecTables<M>, line: string | Uint8Array, options: DecodeOptions | undefined, onePass: boolean): M | OpaqueMessage {
  const lenient = options?.lenient === true;
  const retain = options?.retainSource !== false;
  let text: string | null;
  // A string may hold a lone surrogate; text decoded from bytes never does.
  let wellFormed: boolean;
  if (typeof line === "string") {
    text = line;
    wellFormed = false;
  } else if (line instanceof Uint8Array) {
    text = decodeUtf8(line);
    if (text === null) {
      const e = utf8Error(line) ?? { index: 0, reason: "invalid data" };
      throw new DecodeError("invalid_utf8", `invalid UTF-8 (${e.reason})`, "", e.index);
    }
    wellFormed = true;
  } else {
    throw new TypeError("decode: the line must be a string or a Uint8Array");
  }
  try {
    return decodeText(t, text, wellFormed, lenient, retain, onePass);
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
 * throws a `TypeError` naming the field, and so does a message that would not be one line (a
 * raw LF or CR in a verbatim value built by hand; schema/README.md section 1.5).
 */
export function encode(msg: OmniMessage | OpaqueMessage): string {
  return encodeWith(OWN, msg);
}

function encodeWith<M>(t: CodecTables<M>, msg: M | OpaqueMessage): string {
  const out = encodeAny(t, msg);
  const broken = lineBreakAt(out, out.length);
  if (broken >= 0) {
    // Only a message built by hand can hold one (decoding and the builders refuse them).
    const name = out.charCodeAt(broken) === 10 ? "line feed (LF)" : "carriage return (CR)";
    throw new TypeError(`a message is one line: its text holds a raw ${name} at index ${broken} (line_break; a verbatim value built by hand?)`);
  }
  return out;
}

function encodeAny<M>(t: CodecTables<M>, msg: M | OpaqueMessage): string {
  if (msg instanceof OpaqueMessage) return msg.raw;
  const kept = (msg as unknown as { [SOURCE]?: Kept })[SOURCE];
  if (kept !== undefined) {
    // Decoded from a canonical line: if the encoders write the same pieces and the very same
    // values, the canonical form is that line.
    const r = new Replay(kept);
    t.writeMessage(r, msg);
    if (r.ok && r.pos === kept.text.length) return kept.text;
  }
  return t.encodeMessage(msg);
}

// ---------------------------------------------------------------------------
// fast path
// ---------------------------------------------------------------------------

function isPlainObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Does the text start, after JSON whitespace, with `{`? (Only an object can take the fast path.) */
function startsWithObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return c === 123;
  }
  return false;
}

/**
 * Where the first raw LF or CR of the line (its first `end` code units: less its terminating LF)
 * is, when it comes before the JSON whitespace that ends the line, i.e. inside the message
 * (schema/README.md section 1.5, `line_break`); -1 when there is none.
 */
function lineBreakAt(text: string, end: number): number {
  const lf = text.indexOf("\n");
  const cr = text.indexOf("\r");
  const at = lf < 0 || (cr >= 0 && cr < lf) ? cr : lf;
  if (at < 0 || at >= end) return -1;
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return at;
  }
  return -1;
}

/** Longer lines (UTF-16 code units) skip the fast path, whose JSON.parse is not bounded by a small multiple of the line. */
const FAST_PATH_MAX = 1 << 20;

/**
 * Refuse a lone surrogate in a JS string (what UTF-8 cannot carry; Python: ED A0 80 ...) before any
 * other verdict. Every path but the one-pass reader runs it first; that reader proves the absence
 * itself in the scans it makes anyway (`canonical.ts`), so a canonical line is not scanned twice.
 */
function refuseLoneSurrogate(text: string, wellFormed: boolean): void {
  if (!wellFormed && !text.isWellFormed()) {
    throw new DecodeError("invalid_utf8", "invalid UTF-8 (invalid continuation byte)", "", byteOffset(text, loneSurrogateIndex(text)));
  }
}

function decodeText<M>(t: CodecTables<M>, text: string, wellFormed: boolean, lenient: boolean, retain: boolean, onePass: boolean): M | OpaqueMessage {
  let end = text.length;
  if (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  // The one-pass reader reads no raw line break (its strings refuse control characters, its
  // verbatim spans line breaks), so a line it reads is not searched for one: only what it leaves.
  if (onePass && text.length <= FAST_PATH_MAX && startsWithObject(text)) {
    const msg = readCanonical(t.readMessage, text, end, retain);
    if (msg !== null) return msg;
  }
  const broken = lineBreakAt(text, end);
  if (broken >= 0) {
    refuseLoneSurrogate(text, wellFormed);
    const name = text.charCodeAt(broken) === 10 ? "line feed (LF)" : "carriage return (CR)";
    throw new DecodeError("line_break", `raw ${name} inside the message`, "", byteOffset(text, broken));
  }
  // Anything but an object goes straight to the strict scanner, which decides exactly: a
  // JSON.parse that throws costs more than the scan (empty lines, binary junk). A long line
  // skips JSON.parse, which builds every value of verbatim objects too (13x the line for a long
  // array of zeros): the plain reader only checks them.
  refuseLoneSurrogate(text, wellFormed);
  if (!startsWithObject(text)) return decodeSlow(t, text, lenient);
  if (text.length > FAST_PATH_MAX) return decodePlain(t, text) ?? decodeSlow(t, text, lenient);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return decodeSlow(t, text, lenient);
  }
  if (t.isValidMessage(value, isPlainObject)) {
    const w = new Verifier(text);
    t.writeMessage(w, value);
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
    return decodePlain(t, text) ?? decodeSlow(t, text, lenient);
  }
  return decodeSlow(t, text, lenient);
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
function decodePlain<M>(t: CodecTables<M>, text: string): M | null {
  const read = scanPlain(text, (start, end) => trustedRawJson(text.slice(start, end)));
  if (read === null) return null;
  const root = read.value;
  const env = root["type"];
  if (typeof env !== "string") return null;
  const payload = root["payload"];
  const ptype = isPlainObject(payload) ? (payload as Record<string, unknown>)["type"] : undefined;
  const table = t.verbatimLocations.get(env)?.get(typeof ptype === "string" ? ptype : "");
  // Each object kept as a span must sit at a verbatim place of this message (and a scalar map's
  // members must be scalars); the validators then see a RawJson at every verbatim place.
  for (const [key, notScalar] of read.verbatim) {
    const shape = table?.get(key);
    if (shape === undefined || (notScalar && shape === "scalar_map")) return null;
  }
  return t.isValidMessage(root, isRawJson) ? root : null;
}
