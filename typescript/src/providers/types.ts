/**
 * What every provider projection shares: its input (a restored context), its output (the request
 * body and a loss report) and the walk over the context's messages.
 *
 * A projection follows the reference's model gateway (PenguinHarness
 * `packages/core/src/llm/generative-model.ts`: `groupHistoryToUniMessages`,
 * `mergeOmniToUniMessage`, `payloadToContentItem`; `llm/tool-call-ids.ts`), and the gateway's
 * clients for each provider (Prism-Shadow/AgentHub `src_ts/src/claude4_6/client.ts`,
 * `src_ts/src/kimi_k2_5/client.ts`, `gpt5_4/client.ts`, `gemini3/client.ts`,
 * `transformUniMessageToModelInput`): runs of adjacent messages of
 * one role become one provider message, `tool_call.arguments` is parsed from its JSON string, the
 * engine's `#n` uniqueness suffix is stripped from tool-call ids, and `fidelity` goes where the
 * provider takes it. What a provider has no place for is reported, never dropped silently.
 *
 * @module
 */

import type { ModelPayload, OmniMessage } from "../generated/types.js";
import type { OpaqueMessage } from "../opaque.js";

/** The providers a context projects to. */
export type Provider = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/** Every provider, in the order the command line lists them. */
export const PROVIDERS: readonly Provider[] = Object.freeze(["anthropic", "openai-chat", "openai-responses", "gemini"]);

/** What a projection reads of a context (a `Restored` of `omnimessage/restore` is one). */
export interface ProjectionInput {
  readonly messages: readonly { readonly message: OmniMessage | OpaqueMessage }[];
  readonly config: { readonly system_prompt: string };
}

/** One thing a projection could not carry. */
export interface Loss {
  /** 0-based index of the message in the context. */
  readonly message: number;
  /** JSON pointer inside that message (`""`: the whole message). */
  readonly pointer: string;
  /** A short kebab-case code: `fidelity-not-carried`, `image-not-supported`, ... */
  readonly reason: string;
}

/** A provider's request body and what it could not carry, in context order. */
export interface Projection<B = unknown> {
  readonly body: B;
  readonly losses: readonly Loss[];
}

/** The engine's uniqueness suffix off a tool-call id (`stripToolCallIdSuffix` of the reference). */
export function stripToolCallIdSuffix(id: string): string {
  return id.replace(/#\d+$/, "");
}

/** A JSON pointer token (RFC 6901). */
export function pointerToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The fidelity object of a payload, parsed (empty when absent). */
export function fidelityOf(payload: { readonly fidelity?: unknown }): Record<string, unknown> {
  const f = payload.fidelity as { parse(): unknown } | undefined;
  if (f === undefined) return {};
  const v = f.parse();
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** A `data:` URL's media type and base64 data, or null for any other URL. */
export function dataUrl(url: string): { mediaType: string; data: string } | null {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m === null ? null : { mediaType: m[1] as string, data: m[2] as string };
}

/**
 * Tool arguments from their JSON string: an object (the empty string is no arguments), or null
 * with the reason when they are no JSON object.
 */
export function parseArguments(raw: string): { value: Record<string, unknown> } | { reason: string } {
  if (raw === "") return { value: {} };
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { reason: "arguments-not-json" };
  }
  return typeof v === "object" && v !== null && !Array.isArray(v) ? { value: v as Record<string, unknown> } : { reason: "arguments-not-object" };
}

/** Collects losses for one message at a time. */
export class Losses {
  readonly list: Loss[] = [];

  add(message: number, pointer: string, reason: string): void {
    this.list.push({ message, pointer, reason });
  }

  /** Each fidelity key not in `carried`, as `fidelity-not-carried`. */
  fidelity(message: number, fidelity: Record<string, unknown>, carried: readonly string[] = []): void {
    for (const key of Object.keys(fidelity)) {
      if (!carried.includes(key)) this.add(message, `/payload/fidelity/${pointerToken(key)}`, "fidelity-not-carried");
    }
  }
}

/** One message of a group: its index in the context and its payload. */
export interface Member<P> {
  readonly index: number;
  readonly payload: P;
}

/**
 * Runs of adjacent messages of one role (`groupHistoryToUniMessages`). A message the projection
 * cannot read (an opaque one, of a newer protocol version) is reported and left out.
 */
export function groupByRole(input: ProjectionInput, losses: Losses): { role: "user" | "assistant"; members: Member<ModelPayload>[] }[] {
  const groups: { role: "user" | "assistant"; members: Member<ModelPayload>[] }[] = [];
  input.messages.forEach(({ message }, index) => {
    if (!("payload" in message) || message.type !== "model_msg") {
      losses.add(index, "", "opaque-message");
      return;
    }
    const role = (message.payload as { role?: unknown }).role;
    if (role !== "user" && role !== "assistant") {
      losses.add(index, "/payload/role", "role-not-supported");
      return;
    }
    const last = groups[groups.length - 1];
    if (last !== undefined && last.role === role) last.members.push({ index, payload: message.payload });
    else groups.push({ role, members: [{ index, payload: message.payload }] });
  });
  return groups;
}

/** What no projection has a place for: an `inline_thinking` (the gateway sends none), or a
 * streaming fragment (never context). Reported; null. */
export function unsupported(index: number, p: ModelPayload, losses: Losses): null {
  if (p.type === "inline_thinking") losses.add(index, "", "inline-thinking-not-supported");
  else losses.add(index, "/payload/type", "not-a-complete-message");
  return null;
}

/** Each run of one role with its payloads converted, in order (`convert` gives null for what it
 * reported as not carried), runs left empty left out. */
export function convertRuns<T>(input: ProjectionInput, losses: Losses, convert: (index: number, p: ModelPayload) => T | null): { role: "user" | "assistant"; items: T[] }[] {
  const out: { role: "user" | "assistant"; items: T[] }[] = [];
  for (const group of groupByRole(input, losses)) {
    const items: T[] = [];
    for (const { index, payload } of group.members) {
      const item = convert(index, payload);
      if (item !== null) items.push(item);
    }
    if (items.length > 0) out.push({ role: group.role, items });
  }
  return out;
}
