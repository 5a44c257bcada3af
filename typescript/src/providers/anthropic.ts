/**
 * Anthropic Messages: a context as the `system` and `messages` of a request body (`model` and
 * `max_tokens` are the caller's), as the Python binding's `omnimessage.providers.anthropic` (the
 * spec; docs/model.md, "Providers"), after the reference's gateway client (AgentHub
 * `ant_messages/client.py`, `transform_uni_message_to_model_input`):
 *
 * - each run of one role is one message, one content block per payload;
 * - `thinking` is a thinking block signed with `fidelity.signature`; the gateway's redacted
 *   sentinel text (`_REDACTED_THINKING`) is a `redacted_thinking` block whose data is that
 *   signature; a thinking without a signature is not sent (`thinking-unsigned`);
 * - `tool_call` is a `tool_use` block (arguments parsed, the id's `#n` suffix stripped);
 *   `tool_call_output` a `tool_result` block: its text, then its images;
 * - images: a `data:` URL is a base64 source, any other URL a URL source;
 * - every other `fidelity` key, `inline_data` and `inline_thinking`: losses.
 *
 * @module
 */

import { dataUrl, prepare, stripIdSuffix, toolArguments, type Item, type LossLog, type Projection, type ProjectionInput } from "./types.js";

/** The image media types the Messages API takes (a `data:` URL's own type is passed on as it is). */
export type AnthropicImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** The gateway's text of a redacted thinking block (`REDACTED_THINKING` of the gateway client). */
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
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; content: (AnthropicTextBlock | AnthropicImageBlock)[]; tool_use_id: string };

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

/** The request body without `model` and `max_tokens`. */
export interface AnthropicBody {
  system?: string;
  messages: AnthropicMessage[];
}

function image(item: Item, url: string, pointer: string, losses: LossLog): AnthropicImageBlock | null {
  if (!url.startsWith("data:")) return { type: "image", source: { type: "url", url } };
  const d = dataUrl(url);
  if (d === null) {
    losses.add(item.index, pointer, "image-url-malformed");
    return null;
  }
  return { type: "image", source: { type: "base64", media_type: d.mediaType as AnthropicImageType, data: d.data } };
}

function thinking(item: Item, losses: LossLog): AnthropicBlock | null {
  const signature = item.fidelity.signature;
  if (typeof signature !== "string") {
    losses.add(item.index, "/payload/thinking", "thinking-unsigned");
    losses.fidelity(item);
    return null;
  }
  losses.fidelity(item, ["signature"]);
  const text = item.text("thinking");
  return text === REDACTED_THINKING ? { type: "redacted_thinking", data: signature } : { type: "thinking", thinking: text, signature };
}

function block(item: Item, losses: LossLog): AnthropicBlock | null {
  switch (item.type) {
    case "text":
      losses.fidelity(item);
      return { type: "text", text: item.text("text") };
    case "image_url":
      return image(item, item.text("image_url"), "/payload/image_url", losses);
    case "thinking":
      return thinking(item, losses);
    case "tool_call": {
      losses.fidelity(item);
      const id = stripIdSuffix(item, losses);
      return { type: "tool_use", id, name: item.text("name"), input: toolArguments(item, losses) };
    }
    case "tool_call_output": {
      const content: (AnthropicTextBlock | AnthropicImageBlock)[] = [{ type: "text", text: item.text("output") }];
      item.images().forEach((url, n) => {
        const b = image(item, url, `/payload/images/${n}`, losses);
        if (b !== null) content.push(b);
      });
      return { type: "tool_result", content, tool_use_id: stripIdSuffix(item, losses) };
    }
    default: // inline_data, inline_thinking
      losses.add(item.index, "/payload/type", "inline-data-not-supported");
      return null;
  }
}

/** The Anthropic Messages request body of a context (without `model` and `max_tokens`). */
export function projectAnthropic(input: ProjectionInput): Projection<AnthropicBody> {
  const { groups, losses, system } = prepare(input);
  const messages: AnthropicMessage[] = [];
  for (const g of groups) {
    const content = g.items.map((item) => block(item, losses)).filter((b): b is AnthropicBlock => b !== null);
    if (content.length > 0) messages.push({ role: g.role, content });
  }
  return { body: { system, messages }, losses: losses.sorted() };
}
