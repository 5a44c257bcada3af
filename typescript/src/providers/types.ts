/**
 * What every provider projection shares: its input (a restored context), its output (the request
 * body and a loss report), the context's messages as plain payloads, the grouping of adjacent
 * same-role messages, tool arguments and tool-call ids.
 *
 * The behaviour is the Python binding's (`python/omnimessage/providers/`, the reference spec of
 * both; `python/tests/test_providers_ts.py` holds the two command lines byte-equal), which
 * follows the reference's model gateway (PenguinHarness `packages/core/src/llm/generative-model.ts`:
 * `groupHistoryToUniMessages`, `payloadToContentItem`, `parseToolArguments`; `llm/tool-call-ids.ts`
 * `stripToolCallIdSuffix`) and AgentHub's client for each provider. docs/model.md, "Providers",
 * documents the mapping, the reason codes and where `fidelity` goes.
 *
 * @module
 */

import { MAX_DEPTH } from "../generated/schema.js";
import type { OmniMessage } from "../generated/types.js";
import { encode, type OpaqueMessage } from "../codec.js";
import { decodeUtf8 } from "../utf8.js";

/** The providers a context projects to. */
export type Provider = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/** Every provider, in the order the command line lists them. */
export const PROVIDERS: readonly Provider[] = Object.freeze(["anthropic", "openai-chat", "openai-responses", "gemini"]);

/** What a projection reads of a context (a `Restored` of `omnimessage/restore` is one): each
 * message (its trace bytes `raw` when given, else its encoding) and the system prompt. */
export interface ProjectionInput {
  readonly messages: readonly { readonly message: OmniMessage | OpaqueMessage; readonly raw?: Uint8Array }[];
  readonly config: { readonly system_prompt: string };
}

/** One thing a projection could not carry. */
export interface Loss {
  /** 0-based index of the message in the context. */
  readonly message: number;
  /** JSON pointer inside that message (`""`: the whole message). */
  readonly pointer: string;
  /** A short kebab-case code (docs/model.md, "Providers", lists them). */
  readonly reason: string;
}

/** A provider's request body and what it could not carry, in context order. */
export interface Projection<B = unknown> {
  readonly body: B;
  readonly losses: readonly Loss[];
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A JSON pointer token (RFC 6901). */
export function pointerToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** One complete model message of the context: its index and its payload as plain JSON. */
export class Item {
  constructor(readonly index: number, readonly payload: Json) {}

  get type(): string {
    return String(this.payload.type);
  }

  get role(): string {
    return String(this.payload.role);
  }

  get fidelity(): Json {
    const f = this.payload.fidelity;
    return isObject(f) ? f : {};
  }

  /** The string at `key`, `""` when it is none. */
  text(key: string): string {
    const v = this.payload[key];
    return typeof v === "string" ? v : "";
  }

  /** The payload's `images`, as strings. */
  images(): string[] {
    const v = this.payload.images;
    return Array.isArray(v) ? v.map(String) : [];
  }
}

/** Losses as a projection finds them; `sorted()` puts them in context order (stable). */
export class LossLog {
  private readonly found: Loss[] = [];

  add(message: number, pointer: string, reason: string): void {
    this.found.push({ message, pointer, reason });
  }

  /** Every fidelity key of `item` not in `carried`, as `fidelity-not-carried`. */
  fidelity(item: Item, carried: readonly string[] = []): void {
    for (const key of Object.keys(item.fidelity)) {
      if (!carried.includes(key)) this.add(item.index, `/payload/fidelity/${pointerToken(key)}`, "fidelity-not-carried");
    }
  }

  sorted(): Loss[] {
    return this.found.map((loss, n) => ({ loss, n })).sort((a, b) => a.loss.message - b.loss.message || a.n - b.n).map((x) => x.loss);
  }
}

/** A run of adjacent messages of one role: the reference's one gateway message. */
export interface Group {
  readonly role: "user" | "assistant";
  readonly items: Item[];
}

const COMPLETE_TYPES: readonly string[] = ["text", "thinking", "inline_thinking", "tool_call", "tool_call_output", "image_url", "inline_data"];

/** A `JSON.parse` reviver refusing a number past the double range (`1e400`, a 400-digit
 * integer): it parses to Infinity, which JSON cannot spell; the Python binding refuses it too. */
function finite(_key: string, v: unknown): unknown {
  if (typeof v === "number" && !Number.isFinite(v)) throw new RangeError("a number past the double range");
  return v;
}

/** The context's complete model messages as plain payloads; anything else is a loss (an event,
 * a partial, a newer version's type). */
export function items(input: ProjectionInput, losses: LossLog): Item[] {
  const out: Item[] = [];
  input.messages.forEach((entry, index) => {
    let env: unknown;
    try {
      const text = entry.raw !== undefined ? decodeUtf8(entry.raw) : encode(entry.message);
      if (text === null) throw new SyntaxError("not UTF-8");
      env = JSON.parse(text, finite);
    } catch {
      losses.add(index, "", "not-json");
      return;
    }
    const payload = isObject(env) ? env.payload : undefined;
    if (!isObject(env) || env.type !== "model_msg" || !isObject(payload)) {
      losses.add(index, "/type", "not-a-model-message");
      return;
    }
    if (!COMPLETE_TYPES.includes(payload.type as string) || (payload.role !== "user" && payload.role !== "assistant")) {
      losses.add(index, "/payload/type", "message-type-not-supported");
      return;
    }
    out.push(new Item(index, payload));
  });
  return out;
}

/** Adjacent messages of one role make one group (`groupHistoryToUniMessages`). */
export function group(found: readonly Item[]): Group[] {
  const groups: Group[] = [];
  for (const item of found) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last.role === item.role) last.items.push(item);
    else groups.push({ role: item.role as "user" | "assistant", items: [item] });
  }
  return groups;
}

/** How deep arrays and objects nest in `text` (`{}` is 1), brackets inside strings not counted,
 * whether or not `text` is JSON; as the Python binding's `nesting` counts. */
export function nesting(text: string): number {
  let level = 0;
  let top = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next unit is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) top = Math.max(top, ++level);
    else if (c === 0x5d || c === 0x7d) level--;
  }
  return top;
}

/** The tool call's arguments parsed (`parseToolArguments`): an empty string is no arguments, a
 * non-object is none; arguments that do not re-serialise to the same string, or nest deeper than
 * the trace's `MAX_DEPTH`, are a loss. */
export function toolArguments(item: Item, losses: LossLog): Json {
  const raw = item.text("arguments");
  if (raw === "") return {};
  if (nesting(raw) > MAX_DEPTH) {
    losses.add(item.index, "/payload/arguments", "arguments-too-deep"); // the trace's own limit, refused before parsing
    return {};
  }
  let parsed: unknown;
  let spelled: string;
  try {
    parsed = JSON.parse(raw, finite);
    spelled = JSON.stringify(parsed);
  } catch {
    losses.add(item.index, "/payload/arguments", "arguments-not-json");
    return {};
  }
  if (!isObject(parsed)) {
    losses.add(item.index, "/payload/arguments", "arguments-not-object");
    return {};
  }
  if (spelled !== raw) losses.add(item.index, "/payload/arguments", "arguments-respelled");
  return parsed;
}

/** The provider's own tool-call id: the `#n` suffix the reference adds to a repeated id stripped
 * (`stripToolCallIdSuffix`; `n` any decimal digits, as Python's `\d`), which is a loss. */
export function stripIdSuffix(item: Item, losses: LossLog): string {
  const id = item.text("tool_call_id");
  const bare = id.replace(/#\p{Nd}+$/u, "");
  if (bare !== id) losses.add(item.index, "/payload/tool_call_id", "tool-call-id-suffix-stripped");
  return bare;
}

/** A base64 `data:` URL's media type and data, or null for any other URL. */
export function dataUrl(url: string): { mediaType: string; data: string } | null {
  const m = /^data:([^;,]+);base64,(.+)$/s.exec(url);
  return m === null ? null : { mediaType: m[1] as string, data: m[2] as string };
}

/** The groups of a context, its losses so far, and its system prompt. */
export function prepare(input: ProjectionInput): { groups: Group[]; losses: LossLog; system: string } {
  const losses = new LossLog();
  return { groups: group(items(input, losses)), losses, system: input.config.system_prompt };
}
