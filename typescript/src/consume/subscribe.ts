/**
 * `subscribe(url, options)`: an OmniMessage SSE stream as an async iterable of
 * {@link ConsumeEvent}s, over `fetch` streaming (Node.js 20+ and browsers; no dependency).
 *
 * - An unnamed event (`message`) is an OmniMessage line: decoded strictly by the package's decoder,
 *   its exact data text kept as `raw`. A line that does not decode throws {@link ConsumeDecodeError}
 *   naming the event id; with `strict: false` it is yielded as an `invalid_message` event instead
 *   (its data and the decoder's `DecodeError`), and the stream goes on.
 * - A `server_event` whose data is `{"type":"resync_required"}` is a `resync` event: the server
 *   could not replay from the id sent, the caller drops its state and starts over (what follows is
 *   live). Every other named event is a `server_event` with its name, its data, and its JSON `type`
 *   (when the data is a JSON object with a string `type`, else null).
 * - When the connection ends, fails, or stays silent for `idleTimeoutMs` (heartbeats count), a
 *   `reconnect` event is yielded and the client waits, then reconnects sending `Last-Event-ID`.
 *   The wait starts at the server's `retry:` value (else `reconnect.delayMs`) and doubles with each
 *   attempt that delivers no event, up to `reconnect.maxDelayMs`; after `reconnect.attempts`
 *   attempts in a row without an event the iteration throws {@link ConsumeConnectionError}.
 * - A response that is not `200` with `Content-Type: text/event-stream` throws
 *   {@link ConsumeResponseError} (no retry, as the standard says); `204` ends the iteration.
 * - Aborting `signal`, or leaving a `for await` loop (the iterator's `return()`), closes the
 *   connection and ends the iteration without an error.
 * - Memory: one event's data at most `maxEventBytes` bytes, a line at most `maxEventBytes` + 64
 *   (else {@link SseLimitError}, not retried: the server would send it again).
 *
 * @module
 */

import { DecodeError, decode, type OmniMessage } from "omnimessage";
import { DEFAULT_MAX_EVENT_BYTES, SseParser } from "./sse-parser.js";

/** What the iteration yields. */
export type ConsumeEvent =
  | { readonly kind: "message"; readonly id: string; readonly raw: string; readonly message: OmniMessage }
  | { readonly kind: "invalid_message"; readonly id: string; readonly raw: string; readonly error: DecodeError }
  | { readonly kind: "server_event"; readonly id: string; readonly name: string; readonly data: string; readonly type: string | null }
  | { readonly kind: "resync"; readonly id: string }
  | { readonly kind: "reconnect"; readonly attempt: number; readonly delay: number; readonly lastEventId: string; readonly reason: ReconnectReason };

/** Why the client reconnects: the stream ended, the connection failed, or it stayed silent too long. */
export type ReconnectReason = "end" | "error" | "idle";

/** The reconnect policy. */
export interface ReconnectOptions {
  /** Attempts in a row that deliver no event before giving up (default 8). */
  attempts?: number;
  /** The first wait in milliseconds when the server sent no `retry:` (default 1,000). */
  delayMs?: number;
  /** The longest wait in milliseconds (default 30,000). */
  maxDelayMs?: number;
}

/** Options of {@link subscribe}. */
export interface SubscribeOptions {
  /** Resume after this event id (sent as `Last-Event-ID` on the first request too). */
  lastEventId?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** A message that does not decode ends the iteration with an error (default true); `false`: an `invalid_message` event. */
  strict?: boolean;
  /** The reconnect policy; `false`: a lost connection ends the iteration with an error. */
  reconnect?: ReconnectOptions | false;
  /** Aborting it closes the connection and ends the iteration. */
  signal?: AbortSignal;
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch;
  /** Cap on one event's data in bytes (default 16 MiB). */
  maxEventBytes?: number;
  /** Reconnect when no byte arrives for this long (default 45,000 ms: two missed 20 s heartbeats). */
  idleTimeoutMs?: number;
}

/** Not an event stream: the HTTP status or the content type is wrong. */
export class ConsumeResponseError extends Error {
  override name = "ConsumeResponseError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The connection could not be (re)established within the allowed attempts. */
export class ConsumeConnectionError extends Error {
  override name = "ConsumeConnectionError";
}

/** An event's data is not a message the decoder accepts. */
export class ConsumeDecodeError extends Error {
  override name = "ConsumeDecodeError";
  constructor(
    message: string,
    readonly id: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

/** The `type` of a server event's data when it is a JSON object with a string `type`, else null. */
function jsonType(data: string): string | null {
  try {
    const v: unknown = JSON.parse(data);
    const t = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as { type?: unknown }).type : undefined;
    return typeof t === "string" ? t : null;
  } catch {
    return null;
  }
}

/**
 * A string from the network quoted for an error message: clipped to `limit` characters, then
 * JSON-quoted with every character outside printable ASCII escaped (`\uXXXX`), so no control,
 * C1 or bidirectional character from a hostile server reaches a terminal or a page through an error.
 */
function quote(s: string, limit = 80): string {
  const clipped = s.length > limit ? `${s.slice(0, limit - 20)}...(${s.length} characters)` : s;
  return JSON.stringify(clipped).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Subscribe to the OmniMessage SSE stream at `url`. */
export function subscribe(url: string | URL, options: SubscribeOptions = {}): AsyncIterable<ConsumeEvent> {
  return {
    [Symbol.asyncIterator]() {
      const stop = new AbortController();
      const outer = options.signal;
      const onAbort = (): void => stop.abort();
      if (outer !== undefined) {
        if (outer.aborted) stop.abort();
        else outer.addEventListener("abort", onAbort, { once: true });
      }
      const gen = run(url, options, stop.signal);
      const finish = (): void => {
        outer?.removeEventListener("abort", onAbort);
      };
      return {
        async next() {
          try {
            const r = await gen.next();
            if (r.done === true) finish();
            return r;
          } catch (err) {
            finish();
            throw err;
          }
        },
        async return() {
          // Abort first: a read waiting on the network rejects, so the generator can finish now.
          stop.abort();
          finish();
          await gen.return(undefined);
          return { done: true, value: undefined };
        },
      };
    },
  };
}

interface Outcome {
  reason: ReconnectReason | "stopped" | "no-content";
  delivered: boolean;
  error?: unknown;
}

async function* run(url: string | URL, options: SubscribeOptions, signal: AbortSignal): AsyncGenerator<ConsumeEvent, void, undefined> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const policy = options.reconnect === false ? undefined : options.reconnect ?? {};
  const maxAttempts = policy?.attempts ?? 8;
  const baseDelay = policy?.delayMs ?? 1_000;
  const maxDelay = policy?.maxDelayMs ?? 30_000;
  const idleMs = options.idleTimeoutMs ?? 45_000;
  const strict = options.strict ?? true;
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  let lastEventId = options.lastEventId ?? "";
  let retryMs: number | undefined;
  let failures = 0; // connections in a row that delivered no event
  let reconnects = 0; // reconnections since the last event
  for (;;) {
    if (signal.aborted) return;
    const conn = new AbortController();
    const onStop = (): void => conn.abort();
    signal.addEventListener("abort", onStop, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    let idled = false;
    const arm = (): void => {
      if (idle !== undefined) clearTimeout(idle);
      idle = setTimeout(() => {
        idled = true;
        conn.abort();
      }, idleMs);
    };
    let outcome: Outcome;
    let delivered = false;
    try {
      const headers: Record<string, string> = { accept: "text/event-stream", ...options.headers };
      if (lastEventId !== "") headers["last-event-id"] = lastEventId;
      arm();
      let res: Response;
      try {
        res = await untilAborted(doFetch(url, { headers, signal: conn.signal }), conn.signal);
      } catch (err) {
        throw err instanceof Lost ? err : new Lost(err);
      }
      if (res.status === 204) {
        await res.body?.cancel();
        outcome = { reason: "no-content", delivered };
      } else {
        const type = res.headers.get("content-type") ?? "";
        if (res.status !== 200 || !/^text\/event-stream\s*(;|$)/i.test(type)) {
          await res.body?.cancel().catch(() => undefined);
          throw new ConsumeResponseError(`not an event stream: HTTP ${res.status}, Content-Type ${quote(type)} (expected 200 and text/event-stream)`, res.status);
        }
        if (res.body === null) throw new ConsumeResponseError("not an event stream: the response has no body", res.status);
        const parser = new SseParser({ lastEventId, maxEventBytes });
        const reader = res.body.getReader();
        // Cancelling the reader ends a pending read even where the fetch ignores its signal.
        const onConnAbort = (): void => void reader.cancel().catch(() => undefined);
        conn.signal.addEventListener("abort", onConnAbort, { once: true });
        try {
          for (;;) {
            let chunk: ReadableStreamReadResult<Uint8Array>;
            try {
              chunk = await reader.read();
            } catch (err) {
              throw new Lost(err);
            }
            if (chunk.done) break;
            arm();
            for (const rec of parser.push(chunk.value)) {
              if (rec.type === "retry") retryMs = rec.ms;
              if (rec.type !== "event") continue;
              const m = rec.message;
              lastEventId = m.lastEventId;
              delivered = true;
              failures = 0;
              reconnects = 0;
              yield toEvent(m.event, m.data, m.lastEventId, strict);
            }
            // An event with an id and no data dispatches nothing, but it sets the last event id (WHATWG).
            lastEventId = parser.lastEventId;
          }
          parser.end();
        } finally {
          conn.signal.removeEventListener("abort", onConnAbort);
          void reader.cancel().catch(() => undefined);
        }
        outcome = signal.aborted ? { reason: "stopped", delivered } : { reason: idled ? "idle" : "end", delivered };
      }
    } catch (err) {
      if (!(err instanceof Lost)) throw err;
      outcome = signal.aborted ? { reason: "stopped", delivered } : { reason: idled ? "idle" : "error", delivered, error: err.cause };
    } finally {
      if (idle !== undefined) clearTimeout(idle);
      signal.removeEventListener("abort", onStop);
      conn.abort();
    }
    if (outcome.reason === "stopped" || outcome.reason === "no-content" || signal.aborted) return;
    if (!outcome.delivered) failures++;
    const why = outcome.reason === "error" ? `the connection failed (${describe(outcome.error)})` : outcome.reason === "idle" ? `no byte for ${idleMs} ms` : "the stream ended";
    if (policy === undefined) throw new ConsumeConnectionError(`${why}; reconnecting is off`, { cause: outcome.error });
    if (failures >= maxAttempts) throw new ConsumeConnectionError(`${why}; gave up after ${failures} attempt(s) in a row without an event`, { cause: outcome.error });
    reconnects++;
    const delay = Math.min(maxDelay, (retryMs ?? baseDelay) * 2 ** (reconnects - 1));
    yield { kind: "reconnect", attempt: reconnects, delay, lastEventId, reason: outcome.reason };
    await sleep(delay, signal);
  }
}

/** A network failure (fetch rejected, or the body stream broke). */
class Lost extends Error {
  constructor(override readonly cause: unknown) {
    super("connection lost");
  }
}

function describe(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return quote(text, 200).slice(1, -1);
}

function toEvent(name: string, data: string, id: string, strict: boolean): ConsumeEvent {
  if (name === "message") {
    try {
      return { kind: "message", id, raw: data, message: decode(data) };
    } catch (err) {
      if (!strict && err instanceof DecodeError) return { kind: "invalid_message", id, raw: data, error: err };
      throw new ConsumeDecodeError(`event ${quote(id)}: not an OmniMessage line: ${describe(err)}`, id, err);
    }
  }
  const type = jsonType(data);
  if (name === "server_event" && type === "resync_required") return { kind: "resync", id };
  return { kind: "server_event", id, name, data, type };
}

/** `p`, or a rejection with {@link Lost} once `signal` aborts. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Lost(signal.reason));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
