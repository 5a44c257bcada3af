/**
 * `SseChannel`: server-sent events as the reference server frames them (the Python binding's
 * `omnimessage.produce.SseChannel`; PenguinHarness `server/src/runtime/channel.ts`,
 * `server/src/http/sse.ts`): an epoch of 8 hex digits of a random UUID per channel, ids
 * `<epoch>-<seq>` from 1, an OmniMessage as an unnamed event with one `data:` line of its exact
 * text, server events named `server_event`; a bounded replay buffer (the newest 10,000 events or
 * 8 MiB of data bytes, whichever is smaller) serving `Last-Event-ID`, a miss answered with
 * `resync_required` to that subscriber alone; `: ping` every 20 s. {@link sseHandler} serves a
 * channel with `node:http`.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

export const DEFAULT_MAX_EVENTS = 10_000;
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
export const HEARTBEAT_MS = 20_000;

/** One numbered event. `event` undefined: an OmniMessage. */
export interface SseEvent {
  readonly id: string;
  readonly seq: number;
  readonly data: string;
  readonly event?: string;
}

/** The event as it goes on the wire: `event:` (when named), `data:`, `id:`, an empty line. */
export function frame(evt: SseEvent): string {
  return `${evt.event === undefined ? "" : `event: ${evt.event}\n`}data: ${evt.data}\nid: ${evt.id}\n\n`;
}

export type SseListener = (evt: SseEvent) => void;

/** Options of {@link SseChannel}. */
export interface SseChannelOptions {
  maxEvents?: number;
  maxBytes?: number;
}

/** Numbering, a bounded replay buffer and fan-out; no HTTP. */
export class SseChannel {
  readonly epoch: string = randomUUID().slice(0, 8);
  readonly maxEvents: number;
  readonly maxBytes: number;
  private next = 1;
  private buffer: SseEvent[] = [];
  private head = 0;
  private bytes = 0;
  private lastEvicted = 0;
  private readonly listeners = new Set<SseListener>();

  constructor(opts: SseChannelOptions = {}) {
    this.maxEvents = opts.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    if (this.maxEvents < 1 || this.maxBytes < 1) throw new RangeError("the replay buffer keeps at least one event and one byte");
  }

  /** How many subscribers the channel has now. */
  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** The id of the newest event numbered so far (`<epoch>-0` before the first). */
  get lastEventId(): string {
    return `${this.epoch}-${this.next - 1}`;
  }

  /** Number an event, buffer it (evicting the oldest beyond the caps), send it to every subscriber. */
  publish(data: string, event?: string): SseEvent {
    const evt = this.make(data, event);
    this.buffer.push(evt);
    this.bytes += Buffer.byteLength(evt.data);
    while (this.buffer.length - this.head > 0 && (this.buffer.length - this.head > this.maxEvents || this.bytes > this.maxBytes)) {
      const old = this.buffer[this.head++]!;
      this.bytes -= Buffer.byteLength(old.data);
      this.lastEvicted = Math.max(this.lastEvicted, old.seq);
    }
    if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.head);
      this.head = 0;
    }
    for (const listener of [...this.listeners]) listener(evt);
    return evt;
  }

  /** Number an event for one subscriber only (not buffered, not broadcast). */
  sendTo(listener: SseListener, data: string, event?: string): SseEvent {
    const evt = this.make(data, event);
    listener(evt);
    return evt;
  }

  /** Add a subscriber, then replay to it (or tell it to resync); returns the unsubscribe function. */
  subscribe(listener: SseListener, lastEventId?: string): () => void {
    this.listeners.add(listener);
    if (lastEventId !== undefined) {
      const { hit, events } = this.replayAfter(lastEventId);
      if (!hit) this.sendTo(listener, '{"type":"resync_required"}', "server_event");
      for (const evt of events) listener(evt);
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The buffered events after an id of this epoch; a miss for another epoch, a malformed id, a seq never assigned, or evicted events. */
  replayAfter(lastEventId: string): { hit: boolean; events: SseEvent[] } {
    const sep = lastEventId.lastIndexOf("-");
    const seqText = lastEventId.slice(sep + 1);
    if (sep <= 0 || lastEventId.slice(0, sep) !== this.epoch || !/^[0-9]+$/.test(seqText)) return { hit: false, events: [] };
    const seq = Number(seqText);
    if (!(this.lastEvicted <= seq && seq < this.next)) return { hit: false, events: [] };
    return { hit: true, events: this.buffer.slice(this.head).filter((e) => e.seq > seq) };
  }

  private make(data: string, event?: string): SseEvent {
    if (/[\r\n]/.test(data)) throw new RangeError("an SSE event's data here is one line: it holds no CR or LF");
    if (event !== undefined && (event === "" || /[\r\n]/.test(event))) throw new RangeError(`not an SSE event name: ${JSON.stringify(event)}`);
    const seq = this.next++;
    const evt: SseEvent = event === undefined ? { id: `${this.epoch}-${seq}`, seq, data } : { id: `${this.epoch}-${seq}`, seq, data, event };
    return evt;
  }
}

/** Options of {@link sseHandler}. */
export interface SseHandlerOptions {
  /** The path served (default `/events`); other paths get 404. */
  path?: string;
  /** Heartbeat interval in milliseconds (default 20,000). */
  heartbeatMs?: number;
}

/**
 * A `node:http` request listener serving `channel`: `text/event-stream` with `Cache-Control:
 * no-cache` and `X-Accel-Buffering: no`, replay from `Last-Event-ID`, then every published event
 * and a heartbeat until the client goes away. A client more than `maxBytes` behind is disconnected.
 */
export function sseHandler(channel: SseChannel, opts: SseHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const path = opts.path ?? "/events";
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== path || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    res.flushHeaders();
    const header = req.headers["last-event-id"];
    // A client that falls behind by more than the channel's byte cap is disconnected (what is queued
    // for it stays bounded); it reconnects with its Last-Event-ID and replays, or resyncs.
    const unsubscribe = channel.subscribe((evt) => {
      if (res.writableLength > channel.maxBytes) res.destroy();
      else res.write(frame(evt));
    }, Array.isArray(header) ? header[0] : header);
    const heartbeat = setInterval(() => res.write(": ping\n\n"), heartbeatMs);
    const done = (): void => {
      clearInterval(heartbeat);
      unsubscribe();
    };
    res.on("close", done);
    res.on("error", done);
  };
}
