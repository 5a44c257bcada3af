/**
 * `SseParser`: the WHATWG `text/event-stream` interpretation
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation),
 * fed bytes as they arrive, with bounded memory.
 *
 * - Lines end with CR LF, LF or CR; a CR ending one chunk and the LF starting the next are one line end.
 * - Lines are split on bytes (CR and LF never occur inside a UTF-8 sequence) and each line decoded
 *   whole, so a character split across chunks decodes right; invalid UTF-8 becomes U+FFFD, as the
 *   standard's decoder does. One byte order mark at the start of the stream is dropped.
 * - `data:` values are joined with LF; one space after the colon is removed; a line starting with
 *   `:` is a comment; an `id` holding NUL is ignored; `retry:` is taken only when it is ASCII digits;
 *   other fields are ignored; a blank line dispatches, an event without data is not dispatched (but
 *   its `id` still becomes the last event id); an event the stream ends inside is dropped.
 *
 * Bounds: a line longer than `maxLineBytes` bytes, or an event whose data is longer than
 * `maxEventBytes` bytes, throws {@link SseLimitError}: the parser never holds more than about
 * `maxLineBytes + maxEventBytes` bytes.
 *
 * @module
 */

/** The default cap on one event's data, in bytes (16 MiB). */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** A line may be this many bytes longer than the event cap (its field name, colon and space). */
export const LINE_OVERHEAD_BYTES = 64;

/** One dispatched event. `lastEventId`: the stream's last event id once this event was read. */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly lastEventId: string;
}

/** What {@link SseParser.push} reads: an event, a `retry:` value (milliseconds) or a comment. */
export type SseRecord =
  | { readonly type: "event"; readonly message: SseMessage }
  | { readonly type: "retry"; readonly ms: number }
  | { readonly type: "comment" };

/** A line or an event over its cap in bytes. */
export class SseLimitError extends Error {
  override name = "SseLimitError";
}

const CR = 0x0d;
const LF = 0x0a;

/** Options of {@link SseParser}. */
export interface SseParserOptions {
  /** The last event id a resumed stream starts with (default ""). */
  lastEventId?: string;
  /** Cap on one event's data in bytes (default {@link DEFAULT_MAX_EVENT_BYTES}). */
  maxEventBytes?: number;
  /** Cap on one line in bytes (default `maxEventBytes` + {@link LINE_OVERHEAD_BYTES}). */
  maxLineBytes?: number;
}

/** An incremental event-stream parser: {@link push} bytes, read the records it returns. */
export class SseParser {
  readonly maxEventBytes: number;
  readonly maxLineBytes: number;
  /** The stream's last event id (the standard's "last event ID string"). */
  lastEventId: string;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private line: Uint8Array[] = [];
  private lineBytes = 0;
  private afterCR = false;
  private atStart = true;
  private bomBytes = 0;
  private data: string[] = [];
  private dataBytes = 0;
  private hasData = false;
  private eventType = "";
  private idBuffer: string;

  constructor(opts: SseParserOptions = {}) {
    this.maxEventBytes = opts.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.maxLineBytes = opts.maxLineBytes ?? this.maxEventBytes + LINE_OVERHEAD_BYTES;
    if (!(this.maxEventBytes >= 1 && this.maxLineBytes >= 1)) throw new RangeError("the caps of an event and a line are at least one byte");
    this.lastEventId = opts.lastEventId ?? "";
    this.idBuffer = this.lastEventId;
  }

  /** Read one chunk of the stream; returns what it completed, in order. */
  push(chunk: Uint8Array): SseRecord[] {
    const out: SseRecord[] = [];
    let start = 0;
    if (this.atStart) start = this.skipBom(chunk);
    if (this.afterCR && start < chunk.length) {
      this.afterCR = false;
      if (chunk[start] === LF) start++;
    }
    for (let i = start; i < chunk.length; i++) {
      const b = chunk[i];
      if (b !== CR && b !== LF) continue;
      this.append(chunk, start, i);
      this.endLine(out);
      if (b === CR) {
        if (i + 1 === chunk.length) this.afterCR = true;
        else if (chunk[i + 1] === LF) i++;
      }
      start = i + 1;
    }
    this.append(chunk, start, chunk.length);
    return out;
  }

  /** The stream ended: an event not yet dispatched is dropped, as the standard says. */
  end(): void {
    this.line = [];
    this.lineBytes = 0;
    this.resetEvent();
  }

  /** A byte order mark (EF BB BF) at the very start of the stream, possibly split across chunks. */
  private skipBom(chunk: Uint8Array): number {
    const BOM = [0xef, 0xbb, 0xbf];
    let i = 0;
    while (i < chunk.length && this.bomBytes < 3) {
      if (chunk[i] !== BOM[this.bomBytes]) {
        // Not a BOM after all: the bytes taken so far are text.
        this.atStart = false;
        const taken = this.bomBytes;
        this.bomBytes = 0;
        if (taken > 0) this.lineAppend(Uint8Array.from(BOM.slice(0, taken)));
        return i;
      }
      this.bomBytes++;
      i++;
    }
    if (this.bomBytes === 3) this.atStart = false;
    return i;
  }

  private append(chunk: Uint8Array, from: number, to: number): void {
    if (to > from) this.lineAppend(chunk.subarray(from, to));
  }

  private lineAppend(bytes: Uint8Array): void {
    this.lineBytes += bytes.length;
    if (this.lineBytes > this.maxLineBytes) {
      throw new SseLimitError(`an event-stream line is longer than ${this.maxLineBytes} bytes (the line cap)`);
    }
    this.line.push(bytes.slice());
  }

  private endLine(out: SseRecord[]): void {
    const parts = this.line;
    let bytes: Uint8Array;
    if (parts.length === 1) bytes = parts[0]!;
    else {
      bytes = new Uint8Array(this.lineBytes);
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
      }
    }
    this.line = [];
    this.lineBytes = 0;
    this.processLine(bytes.length === 0 ? "" : this.decoder.decode(bytes), bytes.length, out);
  }

  private processLine(line: string, byteLength: number, out: SseRecord[]): void {
    if (line === "") {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 0x3a) {
      out.push({ type: "comment" });
      return;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case "event":
        this.eventType = value;
        break;
      case "data": {
        // The value's bytes: the line's bytes less the field name, the colon and the space.
        const valueBytes = byteLength - (colon < 0 ? byteLength : colon + 1 + (line.charCodeAt(colon + 1) === 0x20 ? 1 : 0));
        this.dataBytes += valueBytes + (this.hasData ? 1 : 0);
        if (this.dataBytes > this.maxEventBytes) {
          this.resetEvent();
          throw new SseLimitError(`an event's data is longer than ${this.maxEventBytes} bytes (the event cap)`);
        }
        this.data.push(value);
        this.hasData = true;
        break;
      }
      case "id":
        if (!value.includes("\0")) this.idBuffer = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) out.push({ type: "retry", ms: Number(value) });
        break;
      default:
        break;
    }
  }

  private dispatch(out: SseRecord[]): void {
    this.lastEventId = this.idBuffer;
    if (this.hasData) out.push({ type: "event", message: { event: this.eventType === "" ? "message" : this.eventType, data: this.data.join("\n"), lastEventId: this.lastEventId } });
    this.resetEvent();
  }

  private resetEvent(): void {
    this.data = [];
    this.dataBytes = 0;
    this.hasData = false;
    this.eventType = "";
  }
}
