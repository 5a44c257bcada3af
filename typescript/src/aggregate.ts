/**
 * Stream aggregation: turn `partial_*` fragments into complete messages (the Python binding's
 * `Aggregator`).
 *
 * A live stream carries, per segment, `start`, zero or more `delta`, then `stop`, and the
 * complete message immediately after the `stop`. A segment is keyed by its partial type and
 * `tool_call_id` (segments of different tools may interleave) and by its `origin` (streams of
 * nested subagents interleave too).
 *
 * {@link Aggregator.feed} returns the complete messages a consumer that does not render
 * fragments should see, in stream order: non-partial messages pass through; a segment's
 * complete message is the one the producer sends after the `stop` (it carries `fidelity`,
 * which fragments do not). If a producer breaks the discipline and no complete message
 * follows, the message assembled from the fragments is emitted in its place, so nothing
 * streamed is lost. {@link Aggregator.open} holds the text so far of every open segment, for
 * live rendering.
 *
 * @module
 */

import type * as t from "./generated/types.js";
import type { OpaqueMessage } from "./codec.js";
import { isCompleteModelMessage, isPartialMessage } from "./guards.js";
import { ASSEMBLY } from "./generated/schema.js";

type Message = t.OmniMessage | OpaqueMessage;
type PartialMessage = t.ModelMessage<t.PartialModelPayload>;

type PartialType = t.PartialModelPayload["type"];
type Fields = Record<string, unknown>;

/** A payload's members by name, for the table-driven steps below. */
function fieldsOf(p: object): Fields {
  return p as Fields;
}

/** How each partial's segment adds up to its complete payload (generated from the schema). */
const HOW = ASSEMBLY satisfies Record<PartialType, { readonly complete: t.CompleteModelPayload["type"] }>;

const PARTIAL_OF: ReadonlyMap<string, PartialType> = new Map(
  Object.entries(HOW).map(([p, { complete }]) => [complete, p as PartialType]),
);

/** The value of a segment's key field (`tool_call_id`) in a payload, if the kind has one. */
function keyField(partialType: PartialType, p: object): string | undefined {
  const name = HOW[partialType].key;
  return name === null ? undefined : (fieldsOf(p)[name] as string | undefined);
}

/** A segment key: origin chain, partial type and `tool_call_id` (JSON text, so it can key a Map). */
export type SegmentKey = string;

function keyOf(origin: t.Origin | undefined, partialType: string, toolCallId: string | undefined): SegmentKey {
  return JSON.stringify([origin ?? [], partialType, toolCallId ?? null]);
}

/** The key of the segment a fragment belongs to. */
export function segmentKey(msg: PartialMessage): SegmentKey {
  const p = msg.payload;
  return keyOf(msg.origin, p.type, keyField(p.type, p));
}

/** The key of the segment a complete message would close, if it is of a streamed kind. */
function completeKey(msg: t.ModelMessage<t.CompleteModelPayload>): SegmentKey | null {
  const p = msg.payload;
  const partial = PARTIAL_OF.get(p.type);
  if (partial === undefined) return null;
  return keyOf(msg.origin, partial, keyField(partial, p));
}

/** One streamed segment: its fragments so far. */
export class Segment {
  readonly parts: string[] = [];
  /** The fields fragments carry whole (`images`), the last value of each. */
  readonly carried: Record<string, readonly unknown[]> = {};
  /** The `stop` fragment, once seen. */
  closed: PartialMessage | undefined;

  constructor(
    readonly key: SegmentKey,
    readonly first: PartialMessage,
  ) {}

  /** The text so far. Strings join in UTF-16, so a surrogate pair split between two deltas is one character again. */
  get text(): string {
    return this.parts.join("");
  }

  /** The complete message the fragments add up to (`aborted` when the segment never closed). */
  assemble(): t.ModelMessage<t.CompleteModelPayload> {
    const last = this.closed ?? this.first;
    const p = last.payload;
    const stop: t.StopReason = this.closed !== undefined ? (p.stop_reason ?? "completed") : "aborted";
    const how = HOW[p.type];
    const out: Fields = { type: how.complete };
    for (const [name, from, value] of how.fields) {
      if (from === "fixed") out[name] = value;
      else if (from === "text") out[name] = this.text;
      else if (from === "stop") out[name] = stop;
      else if (from === "copy" && fieldsOf(p)[name] !== undefined) out[name] = fieldsOf(p)[name];
      else if (from === "carry" && this.carried[name]?.length) out[name] = [...(this.carried[name] ?? [])];
    }
    const payload = out as unknown as t.CompleteModelPayload; // the table's fields, in schema order
    const msg: t.ModelMessage<t.CompleteModelPayload> = { timestamp: last.timestamp, type: "model_msg", payload };
    if (last.origin !== undefined) msg.origin = last.origin;
    return msg;
  }
}

/** Feed stream messages in order; get complete messages back. */
export class Aggregator {
  /** Segments still streaming, by key. */
  readonly open: Map<SegmentKey, Segment> = new Map();
  /** Segments whose fragments differ from the complete message that followed: (key, field). */
  readonly mismatches: [SegmentKey, string][] = [];
  private readonly awaiting: Map<SegmentKey, Segment> = new Map();

  /** The messages to pass on after `msg`, in stream order. */
  feed(msg: Message): Message[] {
    const out: Message[] = [];
    if (isPartialMessage(msg)) {
      this.fragment(msg, out);
      return out;
    }
    const key = isCompleteModelMessage(msg) ? completeKey(msg) : null;
    let seg: Segment | undefined;
    if (key !== null) {
      seg = this.awaiting.get(key);
      this.awaiting.delete(key);
    }
    this.flushAwaiting(out);
    if (seg !== undefined) this.compare(seg, msg as t.ModelMessage<t.CompleteModelPayload>);
    out.push(msg);
    return out;
  }

  /** End of stream: segments never completed are emitted as assembled (unclosed ones `aborted`). */
  finish(): Message[] {
    const out: Message[] = [];
    this.flushAwaiting(out);
    for (const seg of this.open.values()) out.push(seg.assemble());
    this.open.clear();
    return out;
  }

  private fragment(msg: PartialMessage, out: Message[]): void {
    const p = msg.payload;
    const key = segmentKey(msg);
    const stale = this.awaiting.get(key);
    if (stale !== undefined) {
      // A new segment with the same key: the old one never got its complete message.
      this.awaiting.delete(key);
      out.push(stale.assemble());
    }
    let seg = this.open.get(key);
    if (seg === undefined) {
      seg = new Segment(key, msg);
      this.open.set(key, seg);
    }
    const how = HOW[p.type];
    seg.parts.push(fieldsOf(p)[how.text] as string);
    for (const name of how.carried) {
      const v = fieldsOf(p)[name];
      if (Array.isArray(v)) seg.carried[name] = [...(v as unknown[])];
    }
    if (p.event_type === "stop") {
      seg.closed = msg;
      this.open.delete(key);
      this.awaiting.set(key, seg);
    }
  }

  private flushAwaiting(out: Message[]): void {
    for (const seg of this.awaiting.values()) out.push(seg.assemble());
    this.awaiting.clear();
  }

  private compare(seg: Segment, complete: t.ModelMessage<t.CompleteModelPayload>): void {
    const p = fieldsOf(complete.payload);
    const how = HOW[seg.first.payload.type];
    if (p[how.text] !== seg.text) this.mismatches.push([seg.key, how.text]);
    for (const name of how.carried) {
      const mine = seg.carried[name] ?? [];
      const theirs = (p[name] ?? []) as readonly unknown[];
      if (mine.length !== theirs.length || mine.some((x, i) => x !== theirs[i])) this.mismatches.push([seg.key, name]);
    }
  }
}
