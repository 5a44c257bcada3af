/**
 * The way back: a provider's stream, read as the gateway's neutral events, to OmniMessages (the
 * Python binding's `omnimessage/providers/_translate.py`, byte for byte; the parity test
 * `python/tests/test_providers_stream_ts.py` holds the two equal).
 *
 * Each provider's stream reader turns its SDK's streaming events into {@link Uni} events (what
 * AgentHub's client yields: content items, usage, finish reason); {@link Translator} turns those
 * into OmniMessages as the reference's `EventTranslator` does (PenguinHarness
 * `packages/core/src/llm/generative-model.ts`; tool-call ids from `llm/tool-call-ids.ts`):
 *
 * - text, thinking and tool-call segments stream as `partial_*` start, deltas, stop, and each
 *   segment's complete message follows its stop, `fidelity` included;
 * - a thinking segment ends where its fidelity changes; a text segment ends after a
 *   `fidelity.signature` and where `fidelity.phase` changes; a segment of one kind ends where
 *   another kind begins;
 * - a complete tool call is emitted at once, its arguments re-serialised from the parsed value; a
 *   tool call seen only in fragments is completed at the end from them;
 * - a repeated tool-call id gets a `#n` suffix (the first keeps it), unique over `usedIds`;
 * - the last segment ends with the stream's stop reason (`completed` for a stop or a tool call,
 *   `fatal` for a length or unknown finish), every earlier one `completed`;
 * - `token_usage` comes last: the latest usage snapshot (never a sum), and the session's counts.
 *
 * Memory: the text, thinking and argument buffers of one response are capped together by
 * `maxBytes` (UTF-8 bytes; a {@link StreamError} past it).
 *
 * @module
 */

import * as b from "../builders.js";
import type { OmniMessage, StopReason, TokenCounts } from "../generated/types.js";
import { writeValue, type Value } from "./stream-json.js";

/** The default cap on the text a response's open segments buffer (UTF-8 bytes, all together). */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;

/** A stream that cannot be read: `event` is the 0-based index of the offending event. */
export class StreamError extends Error {
  constructor(readonly event: number, readonly detail: string) {
    super(`event ${event}: ${detail}`);
    this.name = "StreamError";
  }
}

/** One neutral content item (shaped as AgentHub's). */
export interface UniItem {
  readonly type: string;
  readonly text?: string;
  readonly thinking?: string;
  readonly name?: string;
  readonly arguments?: unknown;
  readonly tool_call_id?: string;
  readonly fidelity?: Record<string, unknown>;
  readonly data?: string;
  readonly mime_type?: unknown;
}

/** A usage snapshot, as AgentHub's clients report it. */
export interface UniUsage {
  readonly cached_tokens: number | null;
  readonly prompt_tokens: number | null;
  readonly thoughts_tokens: number | null;
  readonly response_tokens: number | null;
}

/** One neutral event: content items, a usage snapshot, a finish reason (`stop`, `length`,
 * `tool_call`, `unknown`). */
export interface Uni {
  items: UniItem[];
  usage?: UniUsage | null;
  finish?: string | null;
}

/** An empty neutral event, or one of `items`. */
export function uni(items: UniItem[] = [], usage: UniUsage | null = null, finish: string | null = null): Uni {
  return { items, usage, finish };
}

type Fid = Record<string, unknown>;

function has(fid: Fid | null | undefined): boolean {
  return fid !== null && fid !== undefined && Object.keys(fid).length > 0;
}

function same(a: Fid | null | undefined, c: Fid | null | undefined): boolean {
  return writeValue((a ?? {}) as Value) === writeValue((c ?? {}) as Value);
}

/** The UTF-8 length of `s`, a lone surrogate counted as 3 bytes (Python's `surrogatepass`). */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

interface Tool {
  name: string;
  readonly callId: string;
  readonly providerKey: string;
  args: string;
  complete: string | null;
  fidelity: Fid | null;
  emitted: boolean;
}

/** A usage snapshot as token counts (`usageToTokenCounts`): cache_read is the cached input,
 * cache_write the rest of the input, output the thoughts and the response. */
export function counts(usage: UniUsage): TokenCounts {
  const cached = usage.cached_tokens || 0;
  const prompt = usage.prompt_tokens || 0;
  const output = (usage.thoughts_tokens || 0) + (usage.response_tokens || 0);
  return b.tokenCounts({ cacheRead: cached, cacheWrite: prompt, output, total: cached + prompt + output });
}

/** The options of a {@link Translator}. */
export interface TranslatorOptions {
  readonly usedIds?: Iterable<string>;
  readonly timestamp?: string;
  readonly maxBytes?: number;
}

/** Neutral events in, OmniMessages out (see the module's documentation). */
export class Translator {
  private readonly used: Set<string>;
  private readonly ts: string | undefined;
  private readonly max: number;
  private held = 0;
  private event = 0;
  private textStarted = false;
  private thinkingStarted = false;
  private text = "";
  private thinking = "";
  private textFid: Fid | null = null;
  private thinkingFid: Fid | null = null;
  private readonly toolStarted = new Set<string>();
  private active: string | null = null;
  private readonly order: string[] = [];
  private readonly tools = new Map<string, Tool>();
  finishReason: string | null = null;
  request: TokenCounts = b.tokenCounts();

  constructor(opts: TranslatorOptions = {}) {
    this.used = new Set(opts.usedIds ?? []);
    this.ts = opts.timestamp;
    this.max = opts.maxBytes ?? MAX_STREAM_BYTES;
  }

  private hold(piece: string): void {
    this.held += utf8Length(piece);
    if (this.held > this.max) throw new StreamError(this.event, `the response's open segments exceed ${this.max} bytes (max_bytes)`);
  }

  private allocate(providerId: string): string {
    let cid = providerId;
    for (let n = 2; this.used.has(cid); n++) cid = `${providerId}#${n}`;
    this.used.add(cid);
    return cid;
  }

  private stamp(): { timestamp?: string } {
    return this.ts === undefined ? {} : { timestamp: this.ts };
  }

  /** The messages `event` (the `index`th of the stream) produces, appended to `out`. */
  push(event: Uni, index: number, out: OmniMessage[]): void {
    this.event = index;
    if (event.finish !== null && event.finish !== undefined) this.finishReason = event.finish;
    if (event.usage !== null && event.usage !== undefined) this.request = counts(event.usage); // the latest wins
    for (const item of event.items) {
      if (item.type === "text") this.onText(item, out);
      else if (item.type === "thinking") this.onThinking(item, out);
      else if (item.type === "partial_tool_call") this.onPartialTool(item, out);
      else if (item.type === "tool_call") this.onTool(item, out);
    }
  }

  private onText(item: UniItem, out: OmniMessage[]): void {
    const fid = item.fidelity ?? null;
    const text = item.text ?? "";
    const current = (this.textFid ?? {}).phase;
    const incoming = (fid ?? {}).phase;
    const sig = (this.textFid ?? {}).signature;
    const closed = sig !== undefined && sig !== null;
    if ((closed && (text !== "" || has(fid))) || (incoming !== undefined && incoming !== null && !sameValue(incoming, current))) {
      this.flushThinking("completed", out);
      this.flushText("completed", out);
    }
    if (has(fid)) this.textFid = { ...(this.textFid ?? {}), ...fid };
    if (text === "") return;
    this.flushThinking("completed", out);
    if (!this.textStarted) {
      this.textStarted = true;
      out.push(b.partialText("start", "", this.stamp()));
    }
    this.hold(text);
    this.text += text;
    out.push(b.partialText("delta", text, this.stamp()));
  }

  private onThinking(item: UniItem, out: OmniMessage[]): void {
    const fid = item.fidelity ?? null;
    const text = item.thinking ?? "";
    if (has(this.thinkingFid) && !same(this.thinkingFid, fid) && (text !== "" || has(fid))) this.flushThinking("completed", out);
    if (has(fid)) this.thinkingFid = { ...fid };
    if (text === "") return;
    this.flushText("completed", out);
    if (!this.thinkingStarted) {
      this.thinkingStarted = true;
      out.push(b.partialThinking("start", "", this.stamp()));
    }
    this.hold(text);
    this.thinking += text;
    out.push(b.partialThinking("delta", text, this.stamp()));
  }

  private newTool(key: string, name: string): Tool {
    const tool: Tool = { name, callId: this.allocate(key), providerKey: key, args: "", complete: null, fidelity: null, emitted: false };
    this.tools.set(key, tool);
    this.order.push(key);
    return tool;
  }

  private onPartialTool(item: UniItem, out: OmniMessage[]): void {
    const given = item.tool_call_id ?? "";
    const key = given || this.active; // a fragment without an id belongs to the open call
    if (!key) return;
    if (given) this.active = given;
    const name = item.name ?? "";
    const tool = this.tools.get(key) ?? this.newTool(key, name);
    if (name) tool.name = name;
    if (has(item.fidelity)) tool.fidelity = { ...item.fidelity };
    if (!this.toolStarted.has(tool.callId)) {
      this.flushThinking("completed", out);
      this.flushText("completed", out);
      this.toolStarted.add(tool.callId);
      out.push(b.partialToolCall("start", tool.name, "", tool.callId, this.stamp()));
    }
    const piece = typeof item.arguments === "string" ? item.arguments : "";
    if (piece) {
      this.hold(piece);
      tool.args += piece;
      out.push(b.partialToolCall("delta", "", piece, tool.callId, this.stamp()));
    }
  }

  private onTool(item: UniItem, out: OmniMessage[]): void {
    const given = item.tool_call_id ?? "";
    if (!given) return;
    this.flushThinking("completed", out);
    this.flushText("completed", out);
    let tool = this.tools.get(given);
    if (tool === undefined || tool.emitted) tool = this.newTool(given, item.name ?? ""); // another call under a name-as-id provider's id
    tool.name = item.name ?? "";
    const args = item.arguments;
    tool.complete = writeValue((args !== undefined && args !== null ? args : {}) as Value);
    if (has(item.fidelity)) tool.fidelity = { ...item.fidelity };
    this.emitTool(tool, "completed", out);
  }

  private emitTool(tool: Tool, stop: StopReason, out: OmniMessage[]): void {
    tool.emitted = true;
    if (this.toolStarted.has(tool.callId)) out.push(b.partialToolCall("stop", "", "", tool.callId, { stopReason: stop, ...this.stamp() }));
    out.push(b.toolCall(tool.name, tool.complete ?? tool.args, tool.callId, { stopReason: stop, ...fidelity(tool.fidelity), ...this.stamp() }));
    if (this.active === tool.providerKey) this.active = null;
  }

  private flushThinking(stop: StopReason, out: OmniMessage[]): void {
    if (this.thinkingStarted) {
      out.push(b.partialThinking("stop", "", { stopReason: stop, ...this.stamp() }));
      this.thinkingStarted = false;
    }
    if (this.thinking !== "" || has(this.thinkingFid)) {
      out.push(b.thinking(this.thinking, { stopReason: stop, ...fidelity(this.thinkingFid), ...this.stamp() }));
      this.held -= utf8Length(this.thinking);
      this.thinking = "";
      this.thinkingFid = null;
    }
  }

  private flushText(stop: StopReason, out: OmniMessage[]): void {
    if (this.textStarted) {
      out.push(b.partialText("stop", "", { stopReason: stop, ...this.stamp() }));
      this.textStarted = false;
    }
    if (this.text !== "" || has(this.textFid)) {
      out.push(b.assistantText(this.text, { stopReason: stop, ...fidelity(this.textFid), ...this.stamp() }));
      this.held -= utf8Length(this.text);
      this.text = "";
      this.textFid = null;
    }
  }

  /** The last segments' stops and complete messages, the tool calls seen only in fragments, then
   * `token_usage` (the session's counts are `sessionBefore` plus this request's). */
  finish(out: OmniMessage[], sessionBefore?: TokenCounts): void {
    const r = this.finishReason;
    const stop: StopReason = r === null || r === "stop" || r === "tool_call" ? "completed" : "fatal";
    this.flushThinking(stop, out);
    this.flushText(stop, out);
    for (const key of this.order) {
      const tool = this.tools.get(key) as Tool;
      if (!tool.emitted) this.emitTool(tool, "completed", out);
    }
    const before = sessionBefore ?? b.tokenCounts();
    const req = this.request;
    const session = b.tokenCounts({
      cacheRead: before.cache_read + req.cache_read, cacheWrite: before.cache_write + req.cache_write,
      output: before.output + req.output, total: before.total + req.total,
    });
    out.push(b.tokenUsage(session, req, this.stamp()));
  }
}

/** A fidelity as the builders' option: its canonical text (key order kept, as Python writes it). */
function fidelity(fid: Fid | null): { fidelity?: string } {
  return fid === null ? {} : { fidelity: writeValue(fid as Value) };
}

/** Python's `!=` of two JSON values (1 and 1.0 equal, key order not counted). */
function sameValue(a: unknown, c: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof c !== "object" || c === null) return a === c;
  return writeValue(a as Value) === writeValue(c as Value) && Array.isArray(a) === Array.isArray(c);
}
