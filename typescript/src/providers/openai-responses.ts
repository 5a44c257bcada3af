/**
 * OpenAI Responses: a context as the `instructions` and `input` items of a request body. The
 * mapping of the reference's gateway client (Prism-Shadow/AgentHub `src_ts/src/gpt5_4/client.ts`,
 * `transformUniMessageToModelInput`):
 *
 * - user text and images of a run are one user message (`input_text`, `input_image`);
 * - assistant text is an assistant message with its `fidelity.phase` (`commentary`,
 *   `final_answer`), one per text so each keeps its phase;
 * - `thinking` is a `reasoning` item: `fidelity.id` and `fidelity.encrypted_content` (the
 *   encrypted reasoning replayed verbatim), its text as the summary; without an id it has no place
 *   (`reasoning-id-missing`);
 * - `tool_call` is a `function_call` (arguments as written, the id's `#n` suffix stripped),
 *   `tool_call_output` a `function_call_output` holding its text and images.
 *
 * Items keep the context's order (the gateway emits a run's message after the run's reasoning and
 * calls; the order of the trace is kept here instead). Every other `fidelity` key,
 * `inline_thinking`, non-image `inline_data`, assistant images: losses.
 *
 * @module
 */

import type { ModelPayload } from "../generated/types.js";
import { Losses, fidelityOf, groupByRole, parseArguments, stripToolCallIdSuffix, unsupported, type Projection, type ProjectionInput } from "./types.js";

export interface ResponsesInputText {
  type: "input_text";
  text: string;
}
export interface ResponsesInputImage {
  type: "input_image";
  image_url: string;
  detail: "auto";
}
export type ResponsesItem =
  | { role: "user"; content: (ResponsesInputText | ResponsesInputImage)[] }
  | { role: "assistant"; content: string; phase?: "commentary" | "final_answer" }
  | { type: "reasoning"; id: string; summary: { type: "summary_text"; text: string }[]; encrypted_content?: string }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: (ResponsesInputText | ResponsesInputImage)[] };

/** The request body without `model`. */
export interface OpenAIResponsesBody {
  instructions?: string;
  input: ResponsesItem[];
}

const PHASES: readonly string[] = ["commentary", "final_answer"];

function item(index: number, p: ModelPayload, parts: (ResponsesInputText | ResponsesInputImage)[], losses: Losses): ResponsesItem | null {
  const fidelity = "fidelity" in p ? fidelityOf(p) : {};
  const image = (url: string): ResponsesInputImage => ({ type: "input_image", image_url: url, detail: "auto" });
  switch (p.type) {
    case "text": {
      if (p.role === "user") {
        losses.fidelity(index, fidelity);
        parts.push({ type: "input_text", text: p.text });
        return null;
      }
      const phase = fidelity.phase;
      const carried = typeof phase === "string" && PHASES.includes(phase);
      losses.fidelity(index, fidelity, carried ? ["phase"] : []);
      return carried ? { role: "assistant", content: p.text, phase: phase as "commentary" | "final_answer" } : { role: "assistant", content: p.text };
    }
    case "image_url":
      parts.push(image(p.image_url));
      return null;
    case "inline_data":
      losses.fidelity(index, fidelity);
      if (p.role === "user" && p.mime_type.startsWith("image/")) parts.push(image(`data:${p.mime_type};base64,${p.data}`));
      else losses.add(index, p.role === "user" ? "/payload/mime_type" : "", p.role === "user" ? "inline-data-type-not-supported" : "assistant-image-not-supported");
      return null;
    case "thinking": {
      const { id, encrypted_content: encrypted } = fidelity;
      losses.fidelity(index, fidelity, typeof id === "string" ? ["id", ...(typeof encrypted === "string" ? ["encrypted_content"] : [])] : []);
      if (typeof id !== "string") {
        losses.add(index, "/payload/thinking", "reasoning-id-missing");
        return null;
      }
      const summary = p.thinking === "" ? [] : [{ type: "summary_text" as const, text: p.thinking }];
      return typeof encrypted === "string" ? { type: "reasoning", id, summary, encrypted_content: encrypted } : { type: "reasoning", id, summary };
    }
    case "tool_call": {
      losses.fidelity(index, fidelity);
      const args = parseArguments(p.arguments);
      if ("reason" in args) losses.add(index, "/payload/arguments", args.reason);
      return { type: "function_call", call_id: stripToolCallIdSuffix(p.tool_call_id), name: p.name, arguments: p.arguments === "" ? "{}" : p.arguments };
    }
    case "tool_call_output":
      return { type: "function_call_output", call_id: stripToolCallIdSuffix(p.tool_call_id), output: [{ type: "input_text", text: p.output }, ...(p.images ?? []).map(image)] };
    default:
      return unsupported(index, p, losses);
  }
}

/** The OpenAI Responses request body of a context (without `model`). */
export function projectOpenAIResponses(input: ProjectionInput): Projection<OpenAIResponsesBody> {
  const losses = new Losses();
  const items: ResponsesItem[] = [];
  for (const group of groupByRole(input, losses)) {
    let parts: (ResponsesInputText | ResponsesInputImage)[] = [];
    const flush = (): void => {
      if (parts.length > 0) items.push({ role: "user", content: parts });
      parts = [];
    };
    for (const { index, payload } of group.members) {
      const it = item(index, payload, parts, losses);
      if (it !== null) {
        flush();
        items.push(it);
      }
    }
    flush();
  }
  const system = input.config.system_prompt;
  return { body: system === "" ? { input: items } : { instructions: system, input: items }, losses: losses.list };
}
