/**
 * `RenderModel`: the live state a UI draws from an OmniMessage stream, whatever carried it.
 *
 * Messages are grouped into nested cards by their `origin` chain (outer to inner; no `origin`: the
 * root card). A card holds, in arrival order:
 * - complete messages (every message that is not a `partial_*` fragment), with their exact text;
 * - segments: one per streamed `partial_*` segment (keyed by partial type and `tool_call_id`), with
 *   the fragments joined so far (text, thinking, tool arguments or tool output), the images a
 *   `partial_tool_call_output` carried, and whether it is still open (its `stop` not yet seen);
 * - child cards, at the position where the first message of that origin arrived.
 *
 * The complete message that follows a segment's `stop` replaces the segment in place, so `items`
 * is in place order while `messages` keeps each card's complete messages in arrival order. A stopped
 * segment whose complete message does not come next in its card (the compaction summary, which the
 * reference producer streams without its complete message) stays, closed. `reset()` drops
 * everything (the caller's answer to a `resync` event; {@link apply} does it itself).
 *
 * Bounds: a segment holds at most `maxSegmentBytes` bytes (default 16 MiB), cards nest at most
 * `maxDepth` deep (default 32), and the whole model holds at most `maxBytes` bytes of message text
 * and fragments (default 256 MiB); beyond a bound {@link apply} throws {@link RenderLimitError} and
 * leaves the model as it was.
 *
 * @module
 */

import { OpaqueMessage, isPartialMessage, type OmniMessage } from "omnimessage";
import type { ConsumeEvent } from "./subscribe.js";

/** A streamed segment: its fragments joined so far. */
export interface LiveSegment {
  /** The partial type: `partial_text`, `partial_thinking`, `partial_tool_call` or `partial_tool_call_output`. */
  readonly type: string;
  readonly toolCallId: string | null;
  /** A tool call's name (from its fragments), else "". */
  name: string;
  text: string;
  images: readonly string[] | undefined;
  open: boolean;
}

/** One entry of a card. */
export type CardItem =
  | { readonly kind: "message"; readonly raw: string; readonly message: OmniMessage | OpaqueMessage; readonly seq: number }
  | { readonly kind: "segment"; readonly segment: LiveSegment }
  | { readonly kind: "card"; readonly card: Card };

/** The messages of one origin chain. */
export interface Card {
  readonly origin: readonly string[];
  /** What to draw, in place order: a complete message sits where its segment started. */
  readonly items: readonly CardItem[];
  /** The complete messages' exact text in arrival order (a message item's `seq` indexes it): the order its trace stores them. */
  readonly messages: readonly string[];
}

/** The JSON of {@link RenderModel.snapshot} (the Python binding's render model gives the same). */
export interface CardSnapshot {
  origin: string[];
  items: ({ message: string } | { segment: { type: string; tool_call_id: string | null; text: string; open: boolean; images?: string[] } } | { card: CardSnapshot })[];
}

/** A bound of the render model would be exceeded; the model is unchanged. */
export class RenderLimitError extends Error {
  override name = "RenderLimitError";
}

/** Options of {@link RenderModel}. */
export interface RenderModelOptions {
  maxSegmentBytes?: number;
  maxDepth?: number;
  maxBytes?: number;
}

interface MutableCard extends Card {
  readonly items: CardItem[];
  readonly messages: string[];
  readonly children: Map<string, MutableCard>;
  /** Segments by key: the open ones, and the one just stopped (awaiting its complete message). */
  readonly segments: Map<string, { segment: LiveSegment; index: number; bytes: number }>;
  awaiting: string | undefined;
}

const COMPLETE_TO_PARTIAL: Readonly<Record<string, string>> = {
  text: "partial_text",
  thinking: "partial_thinking",
  tool_call: "partial_tool_call",
  tool_call_output: "partial_tool_call_output",
};

function newCard(origin: readonly string[]): MutableCard {
  return { origin, items: [], messages: [], children: new Map(), segments: new Map(), awaiting: undefined };
}

/** UTF-8 length of a string (a lone surrogate counts 3, as its replacement would). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? (i++, 1) : 2;
  }
  return n;
}

function fragmentOf(p: Record<string, unknown>): string {
  const v = p.type === "partial_text" ? p.text : p.type === "partial_thinking" ? p.thinking : p.type === "partial_tool_call" ? p.arguments : p.output;
  return typeof v === "string" ? v : "";
}

/** The envelope fields the model reads; an `OpaqueMessage` (lenient decoding) is read from its text. */
function fieldsOf(message: OmniMessage | OpaqueMessage): { origin: readonly string[]; type: unknown; payload: Record<string, unknown> } {
  let m: unknown = message;
  if (message instanceof OpaqueMessage) {
    try {
      m = JSON.parse(message.raw);
    } catch {
      m = {};
    }
  }
  const o = (typeof m === "object" && m !== null ? m : {}) as { origin?: unknown; type?: unknown; payload?: unknown };
  const origin = Array.isArray(o.origin) && o.origin.every((x) => typeof x === "string") ? (o.origin as string[]) : [];
  const payload = typeof o.payload === "object" && o.payload !== null ? (o.payload as Record<string, unknown>) : {};
  return { origin, type: o.type, payload };
}

/** The live cards of one stream. */
export class RenderModel {
  readonly maxSegmentBytes: number;
  readonly maxDepth: number;
  readonly maxBytes: number;
  /** Bytes held now (message text and fragments). */
  bytes = 0;
  /** Incremented by every change: a UI redraws when it moved. */
  version = 0;
  private rootCard: MutableCard = newCard([]);

  constructor(opts: RenderModelOptions = {}) {
    this.maxSegmentBytes = opts.maxSegmentBytes ?? 16 * 1024 * 1024;
    this.maxDepth = opts.maxDepth ?? 32;
    this.maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  }

  /** The root card (the main session). */
  get root(): Card {
    return this.rootCard;
  }

  /** Drop every card and segment. */
  reset(): void {
    this.rootCard = newCard([]);
    this.bytes = 0;
    this.version++;
  }

  /** Take one event of {@link subscribe}: a message is placed, a resync resets, the rest (server events, reconnects, invalid messages) is ignored. */
  apply(event: ConsumeEvent): void {
    if (event.kind === "message") this.applyMessage(event.raw, event.message);
    else if (event.kind === "resync") this.reset();
  }

  /** Place one message (its exact text and its decoded form). */
  applyMessage(raw: string, message: OmniMessage | OpaqueMessage): void {
    const { origin, type, payload } = fieldsOf(message);
    if (origin.length > this.maxDepth) throw new RenderLimitError(`an origin chain ${origin.length} deep (the render model nests at most ${this.maxDepth} cards)`);
    const partial = !(message instanceof OpaqueMessage) && isPartialMessage(message);
    const add = partial ? utf8Length(fragmentOf(payload)) : utf8Length(raw);
    if (this.bytes + add > this.maxBytes) throw new RenderLimitError(`the render model would hold more than ${this.maxBytes} bytes`);
    if (add > this.maxSegmentBytes && partial) throw new RenderLimitError(`a fragment of more than ${this.maxSegmentBytes} bytes (the segment cap)`);
    const card = this.cardFor(origin);
    if (partial) this.applyFragment(card, payload, add);
    else this.applyComplete(card, raw, message, type, payload);
    this.bytes += add;
    this.version++;
  }

  /** The model as JSON: `{"origin": [...], "items": [{"message"} | {"segment"} | {"card"}]}`. */
  snapshot(): CardSnapshot {
    return snap(this.rootCard);
  }

  private cardFor(origin: readonly string[]): MutableCard {
    let card = this.rootCard;
    for (let depth = 1; depth <= origin.length; depth++) {
      const id = origin[depth - 1]!;
      let child = card.children.get(id);
      if (child === undefined) {
        child = newCard(origin.slice(0, depth));
        card.children.set(id, child);
        card.items.push({ kind: "card", card: child });
      }
      card = child;
    }
    return card;
  }

  private applyFragment(card: MutableCard, p: Record<string, unknown>, bytes: number): void {
    const type = String(p.type);
    const toolCallId = typeof p.tool_call_id === "string" ? p.tool_call_id : null;
    const key = JSON.stringify([type, toolCallId]);
    let entry = card.segments.get(key);
    if (entry !== undefined && (!entry.segment.open || p.event_type === "start")) entry = undefined; // a new segment
    if (entry !== undefined && entry.bytes + bytes > this.maxSegmentBytes) {
      throw new RenderLimitError(`segment ${key} would hold more than ${this.maxSegmentBytes} bytes`);
    }
    if (card.awaiting !== undefined) {
      card.segments.delete(card.awaiting);
      card.awaiting = undefined;
    }
    if (entry === undefined) {
      const segment: LiveSegment = { type, toolCallId, name: "", text: "", images: undefined, open: true };
      entry = { segment, index: card.items.length, bytes: 0 };
      card.items.push({ kind: "segment", segment });
      card.segments.set(key, entry);
    }
    const seg = entry.segment;
    seg.text += fragmentOf(p);
    entry.bytes += bytes;
    if (typeof p.name === "string" && p.name !== "") seg.name = p.name;
    if (Array.isArray(p.images)) seg.images = p.images.filter((x): x is string => typeof x === "string");
    if (p.event_type === "stop") {
      seg.open = false;
      card.awaiting = key;
    }
  }

  private applyComplete(card: MutableCard, raw: string, message: OmniMessage | OpaqueMessage, type: unknown, p: Record<string, unknown>): void {
    const item: CardItem = { kind: "message", raw, message, seq: card.messages.length };
    card.messages.push(raw);
    const partialType = type === "model_msg" ? COMPLETE_TO_PARTIAL[String(p.type)] : undefined;
    const key = partialType === undefined ? undefined : JSON.stringify([partialType, typeof p.tool_call_id === "string" ? p.tool_call_id : null]);
    const entry = key === undefined ? undefined : card.segments.get(key);
    // It closes its segment when that segment is still open, or was the one just stopped.
    if (key !== undefined && entry !== undefined && (entry.segment.open || card.awaiting === key)) {
      this.bytes -= entry.bytes;
      card.items[entry.index] = item;
      card.segments.delete(key);
    } else {
      card.items.push(item);
    }
    if (card.awaiting !== undefined) {
      card.segments.delete(card.awaiting);
      card.awaiting = undefined;
    }
  }
}

function segmentSnapshot(s: LiveSegment): { type: string; tool_call_id: string | null; text: string; open: boolean; images?: string[] } {
  const out = { type: s.type, tool_call_id: s.toolCallId, text: s.text, open: s.open };
  return s.images === undefined ? out : { ...out, images: [...s.images] };
}

function snap(card: Card): CardSnapshot {
  return {
    origin: [...card.origin],
    items: card.items.map((it) =>
      it.kind === "message"
        ? { message: it.raw }
        : it.kind === "segment"
          ? { segment: segmentSnapshot(it.segment) }
          : { card: snap(it.card) },
    ),
  };
}
