/**
 * `Session`: one object that takes every message a producer emits and feeds the caller's stream,
 * the trace and the SSE channel from it (the Python binding's `omnimessage.produce.Session`, which
 * lists the reference facts; docs/producing.md). `emit` streams a message (and stores it when the
 * trace takes it), `record` stores it only, a forwarded child message (`child()`) is streamed only
 * and a direct child's `session_meta` leaves a `subagent` pointer in this trace, `newContext`
 * rotates the trace at the next trace write. As messages pass, the aggregator checks that every
 * partial segment closes into its complete message: a violation rejects with
 * {@link StreamDisciplineError} before the message reaches any channel.
 *
 * Calls are checked in call order and then run, trace first, on one promise chain, so the stream
 * order and the trace order agree even when producers do not await each other.
 *
 * @module
 */

import type * as t from "omnimessage";
import { Aggregator, encode, isPartialMessage, isSessionMeta, now, segmentKey, subagent, withOrigin } from "omnimessage";
import type { SseChannel } from "./sse.js";
import { TraceRefused, traceRefusal, type TraceWriter } from "./trace-writer.js";

/** A message that breaks the streaming discipline; nothing of it reached any channel. */
export class StreamDisciplineError extends Error {
  override name = "StreamDisciplineError";
}

type Outlet = (msg: t.OmniMessage, line: string) => unknown;

/** Options of {@link Session}. */
export interface SessionOptions {
  trace?: TraceWriter;
  sse?: SseChannel;
  /** Called with each streamed message's line (its text and a LF), in order. */
  stream?: (line: string) => unknown;
  /** The timestamp of the records the session makes itself (`subagent` pointers). */
  clock?: () => string;
  sessionId?: string;
}

const kindOf = (msg: t.OmniMessage): string => (msg.type === "session_meta" ? "session_meta" : msg.payload.type);
const originKey = (msg: t.OmniMessage): string => JSON.stringify(msg.origin ?? []);

/** Route one session's messages to its stream, its trace and its SSE channel. */
export class Session {
  readonly trace: TraceWriter | undefined;
  readonly sse: SseChannel | undefined;
  readonly sessionId: string | undefined;
  closed = false;
  private readonly clock: () => string;
  private readonly outlets: Outlet[] = [];
  private readonly agg = new Aggregator();
  private readonly compacting = new Set<string>();
  private pending: [t.SessionMetaMessage, t.EventMessage[]] | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(opts: SessionOptions = {}) {
    this.trace = opts.trace;
    this.sse = opts.sse;
    this.sessionId = opts.sessionId ?? opts.trace?.sessionId;
    this.clock = opts.clock ?? (() => now());
    const stream = opts.stream;
    if (stream !== undefined) this.outlets.push((_msg, line) => stream(line));
  }

  /** The session's first context: its `session_meta` is stored now; `announce`: a child's stream opens with it. */
  start(meta: t.SessionMetaMessage, opts: { announce?: boolean } = {}): Promise<void> {
    if (!isSessionMeta(meta)) return Promise.reject(new TypeError("start() takes the session's session_meta"));
    const line = `${encode(meta)}\n`;
    return this.enqueue(async () => {
      if (this.trace !== undefined) await this.trace.write(meta);
      if (opts.announce) await this.push(meta, line);
    });
  }

  /** Stream a message (and store it, when the trace takes it); resolves with it once it is on every channel. */
  emit<M extends t.OmniMessage>(msg: M): Promise<M> {
    if (isSessionMeta(msg) && msg.origin === undefined) {
      return Promise.reject(new TypeError("a session_meta opens a context: use start() or newContext(), not emit()"));
    }
    let line: string;
    try {
      // Encoded first: a message that would not be one line changes nothing (stream state, trace, SSE).
      line = `${encode(msg)}\n`;
      this.check(msg);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.enqueue(async () => {
      if (msg.origin !== undefined) {
        if (isSessionMeta(msg) && msg.origin.length === 1) await this.store(subagent(msg.origin[0]!, { timestamp: this.clock() }));
      } else if (!isPartialMessage(msg)) {
        await this.store(msg);
      }
      await this.push(msg, line);
      return msg;
    });
  }

  /** Store a message in the trace only (never streamed); a partial or an `origin` message is refused ({@link TraceRefused}) before it is checked. */
  record(msg: t.OmniMessage): Promise<void> {
    const refusal = traceRefusal(msg);
    if (refusal !== undefined) return Promise.reject(new TraceRefused(refusal));
    try {
      this.check(msg);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.enqueue(() => this.store(msg));
  }

  /** A new model context (a compaction, a model switch): its head is written, the trace rotated, at the next trace write. */
  newContext(meta: t.SessionMetaMessage, ...head: t.EventMessage[]): void {
    if (!isSessionMeta(meta)) throw new TypeError("a context opens with its session_meta");
    this.pending = [meta, head];
  }

  /** A child session (a subagent) whose stream is forwarded into this one, `origin` prepended. */
  child(trace: TraceWriter, opts: { sessionId?: string } = {}): Session {
    const childId = opts.sessionId ?? trace.sessionId;
    const forwarded = new Session({ trace, clock: this.clock, sessionId: childId });
    forwarded.outlets.push((msg) => this.emit(withOrigin(msg, childId)));
    return forwarded;
  }

  /** End of the stream: waits for every queued write; a segment left open, or stopped without its complete message, rejects. */
  async close(): Promise<void> {
    await this.chain;
    if (this.closed) return;
    this.closed = true;
    if (this.agg.open.size > 0) throw new StreamDisciplineError(`segments never stopped: ${[...this.agg.open.keys()].join(", ")}`);
    const leftover = this.agg.finish().filter((m) => !this.compacting.has(originKey(m as t.OmniMessage)));
    if (leftover.length > 0) {
      throw new StreamDisciplineError(`segments stopped without their complete message: ${leftover.map((m) => kindOf(m as t.OmniMessage)).join(", ")}`);
    }
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const result = this.chain.then(op);
    this.chain = result.catch(() => undefined);
    return result;
  }

  private check(msg: t.OmniMessage): void {
    if (this.closed) throw new StreamDisciplineError("the session is closed");
    const agg = this.agg;
    if (isPartialMessage(msg)) {
      const key = segmentKey(msg);
      const open = agg.open.has(key);
      if (!open && msg.payload.event_type !== "start") throw new StreamDisciplineError(`a ${msg.payload.event_type} fragment of a segment that never started: ${key}`);
      if (open && msg.payload.event_type === "start") throw new StreamDisciplineError(`a segment started again before it stopped: ${key}`);
    }
    const before = agg.mismatches.length;
    const out = agg.feed(msg);
    const missing = out.filter((x) => x !== msg && !this.compacting.has(originKey(x as t.OmniMessage)));
    if (missing.length > 0) {
      throw new StreamDisciplineError(`segments stopped without their complete message before this ${kindOf(msg)}: ${missing.map((x) => kindOf(x as t.OmniMessage)).join(", ")}`);
    }
    if (agg.mismatches.length > before) {
      const [key, field] = agg.mismatches[agg.mismatches.length - 1]!;
      throw new StreamDisciplineError(`the fragments of segment ${key} do not join into the complete message that followed their stop (field ${JSON.stringify(field)})`);
    }
    if (msg.type === "event_msg") {
      if (msg.payload.type === "compaction_begin") this.compacting.add(originKey(msg));
      else if (msg.payload.type === "compaction_end") this.compacting.delete(originKey(msg));
    }
  }

  private async store(msg: t.OmniMessage): Promise<void> {
    if (this.trace === undefined) return;
    if (this.pending !== undefined) {
      const [meta, head] = this.pending;
      this.pending = undefined;
      await this.trace.openContext(meta, ...head);
      for (const record of head) {
        this.agg.feed(record);
        await this.push(record, `${encode(record)}\n`);
      }
    }
    await this.trace.write(msg);
  }

  private async push(msg: t.OmniMessage, line: string): Promise<void> {
    for (const outlet of this.outlets) await outlet(msg, line);
    this.sse?.publish(line.slice(0, -1));
  }
}
