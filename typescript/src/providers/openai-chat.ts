/**
 * OpenAI Chat Completions: a context as the `messages` of a request body, the system prompt first.
 * The mapping of the reference's gateway clients for chat-completions APIs (Prism-Shadow/AgentHub
 * `src_ts/src/kimi_k2_5/client.ts`, `transformUniMessageToModelInput`):
 *
 * - each run of one role is one message; on the user side each `tool_call_output` is a `tool`
 *   message of its own, in place, and the rest (text, images) one user message after them;
 *   tool output images, which a `tool` message cannot hold, join that user message (the gateway's
 *   way for APIs without images in tool results);
 * - assistant text is the content's text parts, `tool_call`s are `tool_calls` (arguments as
 *   written, the id's `#n` suffix stripped);
 * - `thinking` has a place only in OpenAI-compatible APIs that name it: with a
 *   `fidelity.reasoning_field` (`reasoning_content`) the thinking texts go there; otherwise
 *   `thinking-not-supported`;
 * - every other `fidelity` key (encrypted reasoning, signatures, phases), `inline_thinking`,
 *   non-image `inline_data`, assistant images: losses.
 *
 * @module
 */

import type { ModelPayload } from "../generated/types.js";
import { Losses, fidelityOf, groupByRole, parseArguments, stripToolCallIdSuffix, unsupported, type Member, type Projection, type ProjectionInput } from "./types.js";

export interface ChatTextPart {
  type: "text";
  text: string;
}
export interface ChatImagePart {
  type: "image_url";
  image_url: { url: string };
}
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: (ChatTextPart | ChatImagePart)[] }
  | { role: "tool"; tool_call_id: string; content: string }
  | ChatAssistantMessage;

/** An assistant message; an OpenAI-compatible API's reasoning field (named by `fidelity`) beside. */
export interface ChatAssistantMessage {
  role: "assistant";
  content?: ChatTextPart[];
  tool_calls?: ChatToolCall[];
  [reasoningField: string]: unknown;
}

/** The request body without `model`. */
export interface OpenAIChatBody {
  messages: ChatMessage[];
}

type Payload = ModelPayload;

function userSide(members: readonly Member<Payload>[], out: ChatMessage[], losses: Losses): void {
  const parts: (ChatTextPart | ChatImagePart)[] = [];
  for (const { index, payload: p } of members) {
    const fidelity = "fidelity" in p ? fidelityOf(p) : {};
    if (p.type === "text") {
      losses.fidelity(index, fidelity);
      parts.push({ type: "text", text: p.text });
    } else if (p.type === "image_url") {
      parts.push({ type: "image_url", image_url: { url: p.image_url } });
    } else if (p.type === "inline_data") {
      losses.fidelity(index, fidelity);
      if (p.mime_type.startsWith("image/")) parts.push({ type: "image_url", image_url: { url: `data:${p.mime_type};base64,${p.data}` } });
      else losses.add(index, "/payload/mime_type", "inline-data-type-not-supported");
    } else if (p.type === "tool_call_output") {
      out.push({ role: "tool", tool_call_id: stripToolCallIdSuffix(p.tool_call_id), content: p.output });
      for (const url of p.images ?? []) parts.push({ type: "image_url", image_url: { url } });
    } else unsupported(index, p, losses);
  }
  if (parts.length > 0) out.push({ role: "user", content: parts });
}

function assistantSide(members: readonly Member<Payload>[], out: ChatMessage[], losses: Losses): void {
  const msg: ChatAssistantMessage = { role: "assistant" };
  const parts: ChatTextPart[] = [];
  const calls: ChatToolCall[] = [];
  const reasoning = new Map<string, string>();
  for (const { index, payload: p } of members) {
    const fidelity = "fidelity" in p ? fidelityOf(p) : {};
    if (p.type === "text") {
      losses.fidelity(index, fidelity);
      parts.push({ type: "text", text: p.text });
    } else if (p.type === "thinking") {
      const field = fidelity.reasoning_field;
      const usable = typeof field === "string" && field !== "role" && field !== "content" && field !== "tool_calls";
      losses.fidelity(index, fidelity, usable ? ["reasoning_field"] : []);
      if (usable) reasoning.set(field, (reasoning.get(field) ?? "") + p.thinking);
      else losses.add(index, "/payload/thinking", "thinking-not-supported");
    } else if (p.type === "tool_call") {
      losses.fidelity(index, fidelity);
      const args = parseArguments(p.arguments);
      if ("reason" in args) losses.add(index, "/payload/arguments", args.reason);
      calls.push({ id: stripToolCallIdSuffix(p.tool_call_id), type: "function", function: { name: p.name, arguments: p.arguments === "" ? "{}" : p.arguments } });
    } else if (p.type === "inline_data" || p.type === "image_url") {
      losses.add(index, "", "assistant-image-not-supported");
    } else unsupported(index, p, losses);
  }
  if (parts.length > 0) msg.content = parts;
  if (calls.length > 0) msg.tool_calls = calls;
  for (const [field, text] of reasoning) msg[field] = text;
  if (Object.keys(msg).length > 1) out.push(msg);
}

/** The OpenAI Chat Completions request body of a context (without `model`). */
export function projectOpenAIChat(input: ProjectionInput): Projection<OpenAIChatBody> {
  const losses = new Losses();
  const messages: ChatMessage[] = [];
  if (input.config.system_prompt !== "") messages.push({ role: "system", content: input.config.system_prompt });
  for (const group of groupByRole(input, losses)) {
    if (group.role === "user") userSide(group.members, messages, losses);
    else assistantSide(group.members, messages, losses);
  }
  return { body: { messages }, losses: losses.list };
}
