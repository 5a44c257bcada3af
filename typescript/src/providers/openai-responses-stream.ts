/**
 * The way back from OpenAI Responses: its streaming events (`ResponseStreamEvent` of `openai`,
 * plain objects) as the neutral events AgentHub's Responses client yields
 * (`openai_responses/client.py` and its stream loop): a tool call's complete form at its
 * arguments' `done` (arguments parsed), the finish reason and usage at `response.completed` or
 * `.incomplete`; a reasoning item's `id` is kept in its fidelity. The Python binding's
 * `openai_responses.uni_events`.
 *
 * @module
 */

import { uni, type Uni } from "./translate.js";
import { num, obj, parseArguments, pyStr, text, truthy, type Obj } from "./stream-wire.js";

const STATUS: Readonly<Record<string, string>> = { completed: "stop", incomplete: "length" };

/** One event as the gateway reads it (`transform_model_output_to_uni_event`). */
function read(ev: Obj, n: number): [string | null, Uni] {
  const kind = ev.type;
  if (kind === "response.output_text.delta") return ["delta", uni([{ type: "text", text: text(ev, "delta") }])];
  if (kind === "response.reasoning_text.delta" || kind === "response.reasoning_summary_text.delta") {
    return ["delta", uni([{ type: "thinking", thinking: text(ev, "delta") }])];
  }
  if (kind === "response.output_item.added" || kind === "response.output_item.done") {
    const item = obj(ev.item, n, "/item");
    const added = kind.endsWith("added");
    if (added && item.type === "function_call") {
      return ["start", uni([{ type: "partial_tool_call", name: text(item, "name"), arguments: "", tool_call_id: text(item, "call_id") }])];
    }
    if (added && item.type === "message" && truthy(item.phase)) return ["delta", uni([{ type: "text", text: "", fidelity: { phase: item.phase } }])];
    if (!added && item.type === "reasoning") {
      // the item's wire shape, so that a replay sends it back: its id, the channel of a summary,
      // the fields the server demands back
      const fid: Obj = typeof item.id === "string" ? { id: item.id } : {};
      if (truthy(item.summary)) fid.channel = "summary";
      for (const k of ["encrypted_content", "signature", "format"]) {
        if (item[k] !== null && item[k] !== undefined) fid[k] = item[k];
      }
      return ["delta", uni([{ type: "thinking", thinking: "", fidelity: fid }])];
    }
    return [null, uni()];
  }
  if (kind === "response.function_call_arguments.delta") {
    return ["delta", uni([{ type: "partial_tool_call", name: "", arguments: text(ev, "delta"), tool_call_id: "" }])];
  }
  if (kind === "response.function_call_arguments.done") return ["stop", uni()];
  if (kind === "response.completed" || kind === "response.incomplete") {
    const response = obj(ev.response, n, "/response");
    const u = uni([], null, STATUS[pyStr(response.status ?? null)] ?? "unknown");
    const usage = response.usage;
    if (typeof usage === "object" && usage !== null && !Array.isArray(usage)) {
      const us = usage as Obj;
      const cached = num(obj(us.input_tokens_details, n, "/response/usage/input_tokens_details"), "cached_tokens");
      const thoughts = num(obj(us.output_tokens_details, n, "/response/usage/output_tokens_details"), "reasoning_tokens");
      u.usage = { cached_tokens: cached, prompt_tokens: num(us, "input_tokens") - cached, thoughts_tokens: thoughts, response_tokens: num(us, "output_tokens") - thoughts };
    }
    return ["stop", u];
  }
  return [null, uni()]; // gateways inject their own events: dropped, as the gateway drops them
}

/** The neutral events of `events`, each with the index of the event it comes from. */
export function* openAIResponsesUni(events: Iterable<unknown>): Generator<[number, Uni]> {
  let tool: { name: string; arguments: string; tool_call_id: string } | null = null;
  let n = -1;
  for (const event of events) {
    n++;
    const [kind, u] = read(obj(event, n, ""), n);
    if (kind === "start") {
      const first = u.items[0];
      tool = { name: first?.name ?? "", arguments: "", tool_call_id: first?.tool_call_id ?? "" };
      yield [n, u];
    } else if (kind === "delta") {
      for (const item of u.items) {
        if (item.type === "partial_tool_call" && tool !== null) tool.arguments += typeof item.arguments === "string" ? item.arguments : "";
      }
      yield [n, u];
    } else if (kind === "stop") {
      if (tool !== null) {
        const args = parseArguments(tool.arguments, n);
        yield [n, uni([{ type: "tool_call", name: tool.name, tool_call_id: tool.tool_call_id, arguments: args }])];
        tool = null;
      }
      if (u.finish || u.usage) yield [n, u];
    }
  }
}
