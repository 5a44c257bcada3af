/**
 * {@link sseHandler}: an {@link SseChannel} served with `node:http`, with the bounds and behaviour
 * of the Python binding's `sse_app` (docs/producing.md has the table): every request target and
 * header parsed defensively (a target that is not origin-form or absolute-form, or whose path is
 * not printable ASCII or has bad percent-encoding, is a 400; another path a 404; a malformed
 * `Last-Event-ID` a `resync_required`), each client's backlog bounded in events and data bytes
 * (by default the channel's replay caps) and flushed in writes of about 64 KiB, a client that
 * falls behind its caps cut off (the connection is destroyed: it reconnects with its
 * `Last-Event-ID` and replays, or resyncs), a heartbeat every `heartbeatMs`. Every way out removes
 * the subscriber.
 *
 * @module
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { HEARTBEAT_MS, frame, type SseChannel, type SseEvent } from "./sse.js";

/** A write handed to the socket holds frames up to about this many bytes (one frame at least). */
export const WRITE_CHUNK = 64 * 1024;
/** A `Last-Event-ID` longer than this (characters) is a miss without being looked at. */
const MAX_LAST_EVENT_ID = 64;
/** A request target longer than this (characters) is a 400 (node:http refuses heads over 16 KiB itself). */
const MAX_TARGET = 8 * 1024;

/**
 * One client's queue of events not yet written, bounded in events and data bytes (UTF-8 bytes of
 * the `data:` payloads, what the replay buffer counts). An event that would pass a cap makes it
 * overflowed: it drops what it holds and takes nothing more.
 */
export class Backlog {
  private events: SseEvent[] = [];
  private head = 0;
  private bytes = 0;
  private over = false;

  constructor(
    readonly maxEvents: number,
    readonly maxBytes: number,
  ) {}

  /** True once an event would have passed a cap (the client is to be cut off). */
  get overflowed(): boolean {
    return this.over;
  }

  /** [events, data bytes] held now. */
  get size(): [number, number] {
    return [this.events.length - this.head, this.bytes];
  }

  /** Queue `evt`; false when it overflowed (now or before). O(1) apart from measuring `evt.data`. */
  offer(evt: SseEvent): boolean {
    if (this.over) return false;
    const n = Buffer.byteLength(evt.data);
    if (this.events.length - this.head >= this.maxEvents || this.bytes + n > this.maxBytes) {
      this.over = true;
      this.events = [];
      this.head = 0;
      this.bytes = 0;
      return false;
    }
    this.events.push(evt);
    this.bytes += n;
    return true;
  }

  /** The frames of the oldest queued events, up to `limit` bytes (one frame at least), joined once; "" when empty. */
  take(limit: number = WRITE_CHUNK): string {
    const frames: string[] = [];
    let size = 0;
    while (this.head < this.events.length && (frames.length === 0 || size < limit)) {
      const evt = this.events[this.head++]!;
      this.bytes -= Buffer.byteLength(evt.data);
      const f = frame(evt);
      frames.push(f);
      size += Buffer.byteLength(f);
    }
    if (this.head === this.events.length) {
      this.events = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    return frames.join("");
  }
}

/** Options of {@link sseHandler}. */
export interface SseHandlerOptions {
  /** The path served (default `/events`); other paths get 404. */
  path?: string;
  /** Heartbeat interval in milliseconds (default 20,000). */
  heartbeatMs?: number;
  /** A client's backlog cap in events (default and minimum: the channel's `maxEvents`). */
  maxBacklogEvents?: number;
  /** A client's backlog cap in data bytes (default and minimum: the channel's `maxBytes`). */
  maxBacklogBytes?: number;
}

/** The decoded path of a request target, or undefined when the target is not one this server parses. */
export function requestPath(target: string | undefined): string | undefined {
  if (target === undefined || target.length > MAX_TARGET) return undefined;
  let rest = target;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (absolute !== null) {
    rest = target.slice(absolute[0].length);
    if (!rest.startsWith("/")) rest = `/${rest}`;
  }
  if (!rest.startsWith("/")) return undefined; // "*", authority-form, garbage
  const query = rest.search(/[?#]/);
  const raw = query < 0 ? rest : rest.slice(0, query);
  if (!/^[\x21-\x7e]*$/.test(raw)) return undefined; // controls, spaces, non-ASCII
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined; // "%" garbage
  }
}

/** The `Last-Event-ID` as the channel sees it: repeated headers arrive joined with ", " (a miss). */
function lastEventId(req: IncomingMessage): string | undefined {
  const header = req.headers["last-event-id"];
  const value = Array.isArray(header) ? header.join(", ") : header;
  return value === undefined ? undefined : value.slice(0, MAX_LAST_EVENT_ID + 1);
}

/**
 * A `node:http` request listener serving `channel`: `text/event-stream` with `Cache-Control:
 * no-cache` and `X-Accel-Buffering: no`, replay from `Last-Event-ID`, then every published event
 * and a heartbeat until the client goes away or falls behind its backlog caps.
 */
export function sseHandler(channel: SseChannel, opts: SseHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const path = opts.path ?? "/events";
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const maxEvents = opts.maxBacklogEvents ?? channel.maxEvents;
  const maxBytes = opts.maxBacklogBytes ?? channel.maxBytes;
  if (maxEvents < channel.maxEvents || maxBytes < channel.maxBytes) {
    throw new RangeError("a client's backlog caps are at least the channel's replay caps (a full replay must fit)");
  }
  if (!(heartbeatMs > 0)) throw new RangeError("the heartbeat interval is a positive number of milliseconds");
  return (req, res) => {
    const target = requestPath(req.url);
    if (target === undefined) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end("bad request target\n");
      return;
    }
    if (target !== path || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    res.flushHeaders();
    const backlog = new Backlog(maxEvents, maxBytes);
    let blocked = false; // the socket is above its high-water mark: wait for "drain"
    let scheduled = false;
    let closed = false;
    const flush = (): void => {
      scheduled = false;
      if (closed || backlog.overflowed) return;
      while (!blocked) {
        const body = backlog.take(WRITE_CHUNK);
        if (body === "") return;
        blocked = !res.write(body);
      }
    };
    // Writes go out on the next turn (setImmediate), so a burst of publishes is joined into few writes.
    const listener = (evt: SseEvent): void => {
      if (!backlog.offer(evt)) {
        res.destroy(); // cut off now, even while a write is blocked ("close" unsubscribes)
        return;
      }
      if (!scheduled && !blocked) {
        scheduled = true;
        setImmediate(flush);
      }
    };
    let unsubscribe = (): void => {};
    const heartbeat = setInterval(() => {
      if (!blocked && !closed) res.write(": ping\n\n");
    }, heartbeatMs);
    const done = (): void => {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
    };
    res.on("close", done);
    res.on("error", done);
    res.on("drain", () => {
      blocked = false;
      flush();
    });
    try {
      unsubscribe = channel.subscribe(listener, lastEventId(req)); // subscribe first, then replay: no gap
    } catch (err) {
      done();
      res.destroy();
      throw err;
    }
    if (res.destroyed) done(); // closed before the subscription existed
  };
}
