/**
 * JSON Lines reading: every line decoded or reported, memory flat (the Python binding's
 * `iter_messages`). A line longer than the limit is refused as `too_large` without being kept;
 * a last line with no line feed that does not parse is a torn write, refused as `truncated`.
 *
 * @module
 */

import { DecodeError } from "./errors.js";
import { decode, type OpaqueMessage } from "./codec.js";
import { DEFAULT_MAX_LINE_BYTES } from "./generated/schema.js";
import type { OmniMessage } from "./generated/types.js";

/** One line as split: its bytes without the line feed (null when longer than the limit). */
export interface RawLine {
  /** 1-based line number. */
  readonly number: number;
  readonly raw: Uint8Array | null;
  /** False for a last line with no line feed. */
  readonly terminated: boolean;
}

/** One line of a JSON Lines input: exactly one of `message` and `error` is set. */
export interface Line {
  readonly number: number;
  /** The line without its line feed (empty for a line refused as `too_large`). */
  readonly raw: Uint8Array;
  readonly message: OmniMessage | OpaqueMessage | null;
  readonly error: DecodeError | null;
  readonly terminated: boolean;
}

/** Options of the readers. */
export interface ReadOptions {
  /** Keep well-formed lines that strict decoding refuses as opaque messages. */
  lenient?: boolean;
  /** Longest line kept, in bytes (default `DEFAULT_MAX_LINE_BYTES`). */
  maxLineBytes?: number;
}

const EMPTY = new Uint8Array(0);

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Splits a byte stream into lines, chunk by chunk, keeping at most `maxLineBytes` of a line. */
export class LineSplitter {
  private parts: Uint8Array[] = [];
  private size = 0;
  private number = 0;
  private skipping = false;

  constructor(readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {}

  /** The lines completed by `chunk`. */
  push(chunk: Uint8Array): RawLine[] {
    const out: RawLine[] = [];
    let start = 0;
    let held = false;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      if (!this.skipping && end > start) {
        if (this.size + (end - start) > this.maxLineBytes) {
          this.skipping = true;
          this.parts = [];
          this.size = 0;
        } else {
          this.parts.push(chunk.subarray(start, end));
          this.size += end - start;
          held = nl < 0;
        }
      }
      if (nl < 0) break;
      this.number++;
      out.push({ number: this.number, raw: this.skipping ? null : concat(this.parts, this.size), terminated: true });
      this.parts = [];
      this.size = 0;
      this.skipping = false;
      start = nl + 1;
    }
    // A source may reuse its chunk: the piece held over for the next chunk is a copy.
    if (held) this.parts[this.parts.length - 1] = (this.parts[this.parts.length - 1] as Uint8Array).slice();
    return out;
  }

  /** The last line, if the input did not end with a line feed. */
  end(): RawLine[] {
    const out: RawLine[] = [];
    if (this.skipping) out.push({ number: this.number + 1, raw: null, terminated: false });
    else if (this.size > 0) out.push({ number: this.number + 1, raw: concat(this.parts, this.size), terminated: false });
    this.parts = [];
    this.size = 0;
    this.skipping = false;
    return out;
  }
}

/** Decode one split line, as a reader reports it. */
export function readLine(line: RawLine, options: ReadOptions = {}): Line {
  const { number, raw, terminated } = line;
  if (raw === null) {
    const err = new DecodeError("too_large", `line longer than ${options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES} bytes`, "", null, number);
    return { number, raw: EMPTY, message: null, error: err, terminated };
  }
  try {
    return { number, raw, message: decode(raw, { lenient: options.lenient === true }), error: null, terminated };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    // Only an unterminated tail that does not even parse is a torn write; a complete but
    // invalid last line keeps its own category.
    const torn = !terminated && (e.category === "invalid_json" || e.category === "invalid_utf8");
    const err = !torn
      ? e
      : new DecodeError("truncated", `last line has no line feed and does not decode (${e.category}: ${e.detail})`, e.pointer, e.offset);
    err.line = number;
    return { number, raw, message: null, error: err, terminated };
  }
}

/** Decode a JSON Lines byte stream line by line; never stops early. */
export async function* iterMessages(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: ReadOptions = {}): AsyncGenerator<Line> {
  const splitter = new LineSplitter(options.maxLineBytes);
  for await (const chunk of source) for (const line of splitter.push(chunk)) yield readLine(line, options);
  for (const line of splitter.end()) yield readLine(line, options);
}

/** Decode JSON Lines held in memory, line by line. */
export function* iterMessagesSync(data: Uint8Array, options: ReadOptions = {}): Generator<Line> {
  const splitter = new LineSplitter(options.maxLineBytes);
  for (const line of splitter.push(data)) yield readLine(line, options);
  for (const line of splitter.end()) yield readLine(line, options);
}
