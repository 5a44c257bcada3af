/**
 * OpenAI Responses: a context as the `instructions` and `input` items of a request body, as the
 * Python binding's `omnimessage.providers.openai_responses` (the spec; docs/model.md,
 * "Providers"): a user run's text and image parts collect into one message item, everything else
 * is an item of its own, in order: an assistant text a message with its `fidelity.phase`, a
 * thinking a `reasoning` item (`fidelity.id`; its text a `summary_text` when `fidelity.channel` is
 * `summary`, else `reasoning_text` content; `encrypted_content`, `signature`, `format`), a tool
 * call a `function_call`, a tool output a `function_call_output` (its text, then its images).
 *
 * @module
 */

import { prepare, stripIdSuffix, toolArguments, type Group, type Item, type LossLog, type Projection, type ProjectionInput } from "./types.js";

export interface ResponsesInputText {
  type: "input_text";
  text: string;
}
export interface ResponsesInputImage {
  type: "input_image";
  image_url: string;
  detail: "auto";
}
export interface ResponsesReasoning {
  type: "reasoning";
  id: string;
  summary: { type: "summary_text"; text: string }[];
  content?: { type: "reasoning_text"; text: string }[];
  encrypted_content?: string;
}
export type ResponsesItem =
  | { role: "user" | "assistant"; content: (ResponsesInputText | ResponsesInputImage)[] }
  | { role: "assistant"; content: string; phase?: "commentary" | "final_answer" }
  | ResponsesReasoning
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: (ResponsesInputText | { type: "input_image"; image_url: string })[] };

/** The request body without `model`. */
export interface OpenAIResponsesBody {
  instructions?: string;
  input: ResponsesItem[];
}

const REASONING_KEYS = ["encrypted_content", "signature", "format"] as const;
const PHASES: readonly unknown[] = ["commentary", "final_answer"];

function reasoning(item: Item, losses: LossLog): ResponsesReasoning | null {
  const fid = item.fidelity;
  if (typeof fid.id !== "string") {
    losses.add(item.index, "/payload/thinking", "reasoning-without-id");
    losses.fidelity(item);
    return null;
  }
  losses.fidelity(item, ["id", "channel", ...REASONING_KEYS]);
  const out: ResponsesReasoning = { type: "reasoning", id: fid.id, summary: [] };
  const text = item.text("thinking");
  if (fid.channel === "summary") {
    if (text !== "") out.summary = [{ type: "summary_text", text }];
  } else if (text !== "") out.content = [{ type: "reasoning_text", text }];
  const extra = out as unknown as Record<string, unknown>;
  for (const key of REASONING_KEYS) if (fid[key] !== undefined && fid[key] !== null) extra[key] = fid[key];
  return out;
}

function run(g: Group, out: ResponsesItem[], losses: LossLog): void {
  let content: (ResponsesInputText | ResponsesInputImage)[] = [];
  const flush = (): void => {
    if (content.length > 0) out.push({ role: g.role, content });
    content = [];
  };
  for (const item of g.items) {
    const kind = item.type;
    if (kind !== "text" && kind !== "image_url") flush();
    if (kind === "text" && g.role === "assistant") {
      const phase = item.fidelity.phase;
      const carried = PHASES.includes(phase);
      losses.fidelity(item, carried ? ["phase"] : []);
      out.push(carried ? { role: "assistant", content: item.text("text"), phase: phase as "commentary" | "final_answer" } : { role: "assistant", content: item.text("text") });
    } else if (kind === "text") {
      losses.fidelity(item);
      content.push({ type: "input_text", text: item.text("text") });
    } else if (kind === "image_url") {
      content.push({ type: "input_image", image_url: item.text("image_url"), detail: "auto" });
    } else if (kind === "thinking") {
      const r = reasoning(item, losses);
      if (r !== null) out.push(r);
    } else if (kind === "tool_call") {
      losses.fidelity(item);
      const callId = stripIdSuffix(item, losses);
      const name = item.text("name");
      out.push({ type: "function_call", call_id: callId, name, arguments: JSON.stringify(toolArguments(item, losses)) });
    } else if (kind === "tool_call_output") {
      const output = [{ type: "input_text" as const, text: item.text("output") }, ...item.images().map((url) => ({ type: "input_image" as const, image_url: url }))];
      out.push({ type: "function_call_output", call_id: stripIdSuffix(item, losses), output });
    } else {
      losses.add(item.index, "/payload/type", "inline-data-not-supported"); // inline_data, inline_thinking
    }
  }
  flush();
}

/** The OpenAI Responses request body of a context (without `model`). */
export function projectOpenAIResponses(input: ProjectionInput): Projection<OpenAIResponsesBody> {
  const { groups, losses, system } = prepare(input);
  const items: ResponsesItem[] = [];
  for (const g of groups) run(g, items, losses);
  return { body: { instructions: system, input: items }, losses: losses.sorted() };
}
