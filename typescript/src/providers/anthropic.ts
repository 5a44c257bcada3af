/**
 * Anthropic Messages: a context as the `system` and `messages` of a request body (model and
 * `max_tokens` are the caller's). The mapping of the reference's gateway client
 * (Prism-Shadow/AgentHub `src_ts/src/claude4_6/client.ts`, `transformUniMessageToModelInput`):
 *
 * - each run of one role is one message, one content block per payload;
 * - `thinking` is a thinking block signed with `fidelity.signature`; the gateway's redacted
 *   sentinel text (`_REDACTED_THINKING`) is a `redacted_thinking` block whose data is that
 *   signature; a thinking without a signature cannot be replayed (`thinking-signature-missing`);
 * - `tool_call` is a `tool_use` block (arguments parsed, the id's `#n` suffix stripped);
 *   `tool_call_output` a `tool_result` block: its text, then its images;
 * - images: a `data:` URL is a base64 source, any other URL a URL source; `inline_data` of an
 *   image type the API takes is a base64 image, a PDF a document block;
 * - every other `fidelity` key, `inline_thinking`, other media types: losses.
 *
 * @module
 */

import type { ModelPayload } from "../generated/types.js";
import { Losses, convertRuns, dataUrl, fidelityOf, parseArguments, stripToolCallIdSuffix, unsupported, type Projection, type ProjectionInput } from "./types.js";

/** The image media types the Messages API takes. */
export type AnthropicImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

const IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/** The gateway's text of a redacted thinking block (claude4_6/client.ts `REDACTED_THINKING`). */
export const REDACTED_THINKING = "_REDACTED_THINKING";

export interface AnthropicImageBlock {
  type: "image";
  source: { type: "base64"; media_type: AnthropicImageType; data: string } | { type: "url"; url: string };
}
export interface AnthropicTextBlock {
  type: "text";
  text: string;
}
export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string } }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: (AnthropicTextBlock | AnthropicImageBlock)[] };

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

/** The request body without `model` and `max_tokens`. */
export interface AnthropicBody {
  system?: string;
  messages: AnthropicMessage[];
}

function image(url: string): AnthropicImageBlock | null {
  const d = dataUrl(url);
  if (d === null) return { type: "image", source: { type: "url", url } };
  return IMAGE_TYPES.includes(d.mediaType) ? { type: "image", source: { type: "base64", media_type: d.mediaType as AnthropicImageType, data: d.data } } : null;
}

function block(index: number, p: ModelPayload, losses: Losses): AnthropicBlock | null {
  const fidelity = "fidelity" in p ? fidelityOf(p) : {};
  switch (p.type) {
    case "text":
      losses.fidelity(index, fidelity);
      return { type: "text", text: p.text };
    case "thinking": {
      const signature = fidelity.signature;
      losses.fidelity(index, fidelity, ["signature"]);
      if (typeof signature !== "string") {
        losses.add(index, "/payload/thinking", "thinking-signature-missing");
        return null;
      }
      return p.thinking === REDACTED_THINKING ? { type: "redacted_thinking", data: signature } : { type: "thinking", thinking: p.thinking, signature };
    }
    case "tool_call": {
      losses.fidelity(index, fidelity);
      const args = parseArguments(p.arguments);
      if ("reason" in args) losses.add(index, "/payload/arguments", args.reason);
      return { type: "tool_use", id: stripToolCallIdSuffix(p.tool_call_id), name: p.name, input: "value" in args ? args.value : {} };
    }
    case "tool_call_output": {
      const content: (AnthropicTextBlock | AnthropicImageBlock)[] = [{ type: "text", text: p.output }];
      (p.images ?? []).forEach((url, k) => {
        const b = image(url);
        if (b === null) losses.add(index, `/payload/images/${k}`, "image-type-not-supported");
        else content.push(b);
      });
      return { type: "tool_result", tool_use_id: stripToolCallIdSuffix(p.tool_call_id), content };
    }
    case "image_url": {
      const b = image(p.image_url);
      if (b === null) losses.add(index, "/payload/image_url", "image-type-not-supported");
      return b;
    }
    case "inline_data":
      losses.fidelity(index, fidelity);
      if (IMAGE_TYPES.includes(p.mime_type)) return { type: "image", source: { type: "base64", media_type: p.mime_type as AnthropicImageType, data: p.data } };
      if (p.mime_type === "application/pdf") return { type: "document", source: { type: "base64", media_type: "application/pdf", data: p.data } };
      losses.add(index, "/payload/mime_type", "inline-data-type-not-supported");
      return null;
    default:
      return unsupported(index, p, losses);
  }
}

/** The Anthropic Messages request body of a context (without `model` and `max_tokens`). */
export function projectAnthropic(input: ProjectionInput): Projection<AnthropicBody> {
  const losses = new Losses();
  const runs = convertRuns(input, losses, (index, p) => block(index, p, losses));
  const messages: AnthropicMessage[] = runs.map(({ role, items }) => ({ role, content: items }));
  const system = input.config.system_prompt;
  return { body: system === "" ? { messages } : { system, messages }, losses: losses.list };
}
