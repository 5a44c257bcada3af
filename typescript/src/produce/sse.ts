/**
 * `SseChannel`: server-sent events as the reference server frames them (the Python binding's
 * `omnimessage.produce.SseChannel`; PenguinHarness `server/src/runtime/channel.ts`,
 * `server/src/http/sse.ts`): an epoch of 8 hex digits of a random UUID per channel, ids
 * `<epoch>-<seq>` from 1, an OmniMessage as an unnamed event with one `data:` line of its exact
 * text, server events named `server_event`; a bounded replay buffer (the newest 10,000 events or
 * 8 MiB of data bytes, whichever is smaller) serving `Last-Event-ID`, a miss answered with
 * `resync_required` to that subscriber alone; `: ping` every 20 s. `<epoch>-0` asks for all this
 * epoch still keeps from its start (a hit while seq 1 was never evicted). An id is parsed
 * defensively: `<epoch>-<seq>`, seq 1 to 16 ASCII digits at most 2**53 - 1; anything else is a
 * miss. `sseHandler` (./sse-http.js) serves a channel with `node:http`.
 *
 * @module
 */

import { randomUUID } from "node:crypto";

export const DEFAULT_MAX_EVENTS = 10_000;
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
export const HEARTBEAT_MS = 20_000;
/** The largest seq an id may carry (what a JavaScript number holds exactly; 16 digits at most). */
export const MAX_SEQ = Number.MAX_SAFE_INTEGER;

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
    const unsubscribe = (): void => {
      this.listeners.delete(listener);
    };
    this.listeners.add(listener);
    try {
      if (lastEventId !== undefined) {
        const { hit, events } = this.replayAfter(lastEventId);
        if (!hit) this.sendTo(listener, '{"type":"resync_required"}', "server_event");
        for (const evt of events) listener(evt);
      }
    } catch (err) {
      unsubscribe(); // a subscriber that failed to start is never left behind
      throw err;
    }
    return unsubscribe;
  }

  /** The buffered events after an id of this epoch; a miss for another epoch, a malformed id, a seq never assigned, or evicted events. */
  replayAfter(lastEventId: string): { hit: boolean; events: SseEvent[] } {
    const seq = parseSeq(lastEventId, this.epoch);
    if (seq === undefined || !(this.lastEvicted <= seq && seq < this.next)) return { hit: false, events: [] };
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

/** The seq of `<epoch>-<seq>` when the id is of `epoch` and well formed; bounded work for any input. */
export function parseSeq(lastEventId: string, epoch: string): number | undefined {
  if (lastEventId.length > epoch.length + 17) return undefined; // "-" and 16 digits
  const sep = lastEventId.lastIndexOf("-");
  const seqText = lastEventId.slice(sep + 1);
  if (sep <= 0 || lastEventId.slice(0, sep) !== epoch || !/^[0-9]{1,16}$/.test(seqText)) return undefined;
  const seq = Number(seqText);
  return seq <= MAX_SEQ ? seq : undefined;
}
