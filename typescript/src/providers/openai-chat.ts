/**
 * OpenAI Chat Completions: a context as the `messages` of a request body, as the Python binding's
 * `omnimessage.providers.openai_chat` (the spec; docs/model.md, "Providers"): the system prompt
 * first (when not empty); per run of one role, each tool output first as its own `tool` message,
 * then one message with the text and image parts (a tool output's images among them), the tool
 * calls and the thinking joined into the reasoning field `fidelity.reasoning_field` names (both
 * `reasoning_content` and `reasoning` when unknown or mixed).
 *
 * @module
 */

import { prepare, stripIdSuffix, toolArguments, type Group, type Item, type LossLog, type Projection, type ProjectionInput } from "./types.js";

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
  | { role: "tool"; tool_call_id: string; content: ChatTextPart[] }
  | ChatAssistantMessage;

/** An assistant message; the reasoning fields are the OpenAI-compatible servers' extension. */
export interface ChatAssistantMessage {
  role: "assistant";
  content?: ChatTextPart[];
  tool_calls?: ChatToolCall[];
  reasoning_content?: string;
  reasoning?: string;
}

/** The request body without `model`. */
export interface OpenAIChatBody {
  messages: ChatMessage[];
}

const imagePart = (url: string): ChatImagePart => ({ type: "image_url", image_url: { url } });

function run(g: Group, out: ChatMessage[], losses: LossLog): void {
  const parts: (ChatTextPart | ChatImagePart)[] = [];
  const calls: ChatToolCall[] = [];
  const thinking: Item[] = [];
  for (const item of g.items) {
    switch (item.type) {
      case "text":
        losses.fidelity(item);
        parts.push({ type: "text", text: item.text("text") });
        break;
      case "image_url":
        parts.push(imagePart(item.text("image_url")));
        break;
      case "thinking":
        losses.fidelity(item, ["reasoning_field"]);
        if (thinking.length > 0) losses.add(item.index, "/payload/thinking", "thinking-merged");
        thinking.push(item);
        break;
      case "tool_call": {
        losses.fidelity(item);
        const id = stripIdSuffix(item, losses);
        const name = item.text("name");
        calls.push({ id, type: "function", function: { name, arguments: JSON.stringify(toolArguments(item, losses)) } });
        break;
      }
      case "tool_call_output":
        parts.push(...item.images().map(imagePart));
        out.push({ role: "tool", tool_call_id: stripIdSuffix(item, losses), content: [{ type: "text", text: item.text("output") }] });
        break;
      default: // inline_data, inline_thinking
        losses.add(item.index, "/payload/type", "inline-data-not-supported");
    }
  }
  const message: Record<string, unknown> = { role: g.role };
  if (parts.length > 0) message.content = parts;
  if (calls.length > 0) message.tool_calls = calls;
  const text = thinking.map((item) => item.text("thinking")).join("");
  if (text !== "") {
    const fields = thinking.map((item) => item.fidelity.reasoning_field);
    if (fields.every((f) => f === "reasoning_content")) message.reasoning_content = text;
    else if (fields.every((f) => f === "reasoning")) message.reasoning = text;
    else {
      message.reasoning_content = text;
      message.reasoning = text;
    }
  } else {
    // thinking with no text sends no reasoning field: the message is not carried
    for (const item of thinking) losses.add(item.index, "/payload/thinking", "thinking-empty");
  }
  if (Object.keys(message).length > 1) out.push(message as ChatMessage);
}

/** The OpenAI Chat Completions request body of a context (without `model`). */
export function projectOpenAIChat(input: ProjectionInput): Projection<OpenAIChatBody> {
  const { groups, losses, system } = prepare(input);
  const messages: ChatMessage[] = [];
  if (system !== "") messages.push({ role: "system", content: system });
  for (const g of groups) run(g, messages, losses);
  return { body: { messages }, losses: losses.sorted() };
}
