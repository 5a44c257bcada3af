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
import { FRAGMENT_OF } from "./generated/schema.js";

type Message = t.OmniMessage | OpaqueMessage;
type PartialMessage = t.ModelMessage<t.PartialModelPayload>;

/** The complete payload `type` of each partial one, and the field its fragments add up (from the schema). */
const COMPLETE_OF = FRAGMENT_OF satisfies Record<
  t.PartialModelPayload["type"],
  readonly [t.CompleteModelPayload["type"], string]
>;

const PARTIAL_OF: ReadonlyMap<string, t.PartialModelPayload["type"]> = new Map(
  Object.entries(COMPLETE_OF).map(([p, [c]]) => [c, p as t.PartialModelPayload["type"]]),
);

/** A segment key: origin chain, partial type and `tool_call_id` (JSON text, so it can key a Map). */
export type SegmentKey = string;

function keyOf(origin: t.Origin | undefined, partialType: string, toolCallId: string | undefined): SegmentKey {
  return JSON.stringify([origin ?? [], partialType, toolCallId ?? null]);
}

/** The key of the segment a fragment belongs to. */
export function segmentKey(msg: PartialMessage): SegmentKey {
  const p = msg.payload;
  return keyOf(msg.origin, p.type, "tool_call_id" in p ? p.tool_call_id : undefined);
}

/** The key of the segment a complete message would close, if it is of a streamed kind. */
function completeKey(msg: t.ModelMessage<t.CompleteModelPayload>): SegmentKey | null {
  const p = msg.payload;
  const partial = PARTIAL_OF.get(p.type);
  if (partial === undefined) return null;
  return keyOf(msg.origin, partial, "tool_call_id" in p ? p.tool_call_id : undefined);
}

function fragmentText(p: t.PartialModelPayload): string {
  switch (p.type) {
    case "partial_text":
      return p.text;
    case "partial_thinking":
      return p.thinking;
    case "partial_tool_call":
      return p.arguments;
    case "partial_tool_call_output":
      return p.output;
  }
}

/** One streamed segment: its fragments so far. */
export class Segment {
  readonly parts: string[] = [];
  images: string[] | undefined;
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
    let payload: t.CompleteModelPayload;
    switch (p.type) {
      case "partial_text":
        payload = { type: "text", role: p.role, text: this.text, stop_reason: stop };
        break;
      case "partial_thinking":
        payload = { type: "thinking", role: p.role, thinking: this.text, stop_reason: stop };
        break;
      case "partial_tool_call":
        payload = { type: "tool_call", role: p.role, name: p.name, arguments: this.text, tool_call_id: p.tool_call_id, stop_reason: stop };
        break;
      case "partial_tool_call_output":
        payload = { type: "tool_call_output", role: p.role, output: this.text, tool_call_id: p.tool_call_id, stop_reason: stop };
        if (this.images !== undefined && this.images.length) {
          payload = { type: "tool_call_output", role: p.role, output: this.text, images: this.images, tool_call_id: p.tool_call_id, stop_reason: stop };
        }
        break;
    }
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
    seg.parts.push(fragmentText(p));
    if (p.type === "partial_tool_call_output" && p.images !== undefined) seg.images = [...p.images];
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
    const p = complete.payload;
    const field = COMPLETE_OF[seg.first.payload.type][1];
    if ((p as unknown as Record<string, unknown>)[field] !== seg.text) this.mismatches.push([seg.key, field]);
    if (seg.first.payload.type === "partial_tool_call_output") {
      const mine = seg.images ?? [];
      const theirs = p.type === "tool_call_output" ? (p.images ?? []) : [];
      if (mine.length !== theirs.length || mine.some((x, i) => x !== theirs[i])) this.mismatches.push([seg.key, "images"]);
    }
  }
}
