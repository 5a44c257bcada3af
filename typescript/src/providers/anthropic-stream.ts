/**
 * The way back from Anthropic: Messages streaming events (`RawMessageStreamEvent` of
 * `@anthropic-ai/sdk`, plain objects) as the neutral events AgentHub's Messages client yields
 * (`ant_messages/client.py` `transform_model_output_to_uni_event` and its stream loop): a tool
 * call's complete form at its block's stop (arguments parsed), usage from `message_start`
 * completed by `message_delta`. The Python binding's `anthropic.uni_events`, event for event.
 *
 * @module
 */

import { REDACTED_THINKING } from "./anthropic.js";
import { StreamError, uni, type Uni, type UniUsage } from "./translate.js";
import { count, isInt, num, obj, parseArguments, pyStr, pyValue, text, truthy } from "./stream-wire.js";

const FINISH: Readonly<Record<string, string>> = { end_turn: "stop", max_tokens: "length", stop_sequence: "stop", tool_use: "tool_call" };
const IGNORED: ReadonlySet<unknown> = new Set(["message_stop", "ping", "text", "thinking", "signature", "input_json"]);

/** The neutral events of `events`, each with the index of the event it comes from. */
export function* anthropicUni(events: Iterable<unknown>): Generator<[number, Uni]> {
  let tool: { name: string; arguments: string; tool_call_id: string } | null = null;
  let started: { prompt_tokens: number | null; cached_tokens: number | null } = { prompt_tokens: null, cached_tokens: null };
  let n = -1;
  for (const event of events) {
    n++;
    const ev = obj(event, n, "");
    const kind = ev.type;
    if (kind === "message_start") {
      const usage = obj(obj(ev.message, n, "/message").usage, n, "/message/usage");
      started = { prompt_tokens: num(usage, "input_tokens") + num(usage, "cache_creation_input_tokens"), cached_tokens: count(usage, "cache_read_input_tokens") };
    } else if (kind === "content_block_start") {
      const block = obj(ev.content_block, n, "/content_block");
      if (block.type === "tool_use") {
        tool = { name: text(block, "name"), arguments: "", tool_call_id: text(block, "id") };
        yield [n, uni([{ type: "partial_tool_call", ...tool }])];
      } else if (block.type === "redacted_thinking") {
        yield [n, uni([{ type: "thinking", thinking: REDACTED_THINKING, fidelity: { signature: text(block, "data") } }])];
      }
    } else if (kind === "content_block_delta") {
      const delta = obj(ev.delta, n, "/delta");
      const dtype = delta.type;
      if (dtype === "thinking_delta") yield [n, uni([{ type: "thinking", thinking: text(delta, "thinking") }])];
      else if (dtype === "text_delta") yield [n, uni([{ type: "text", text: text(delta, "text") }])];
      else if (dtype === "input_json_delta") {
        const piece = text(delta, "partial_json");
        if (tool !== null) tool.arguments += piece;
        yield [n, uni([{ type: "partial_tool_call", name: "", arguments: piece, tool_call_id: "" }])];
      } else if (dtype === "signature_delta") {
        yield [n, uni([{ type: "thinking", thinking: "", fidelity: { signature: text(delta, "signature") } }])];
      }
    } else if (kind === "content_block_stop") {
      if (tool !== null) {
        const args = parseArguments(tool.arguments, n);
        yield [n, uni([{ type: "tool_call", name: tool.name, tool_call_id: tool.tool_call_id, arguments: args }])];
        tool = null;
      }
    } else if (kind === "message_delta") {
      const delta = obj(ev.delta, n, "/delta");
      const reason = delta.stop_reason;
      const finish = truthy(reason) ? (FINISH[pyStr(reason)] ?? "unknown") : null;
      const u = ev.usage;
      if (typeof u === "object" && u !== null && !Array.isArray(u)) {
        const usage = u as Record<string, unknown>;
        const details = usage.output_tokens_details;
        const thoughts = typeof details === "object" && details !== null && !Array.isArray(details) ? count(details as Record<string, unknown>, "thinking_tokens") : null;
        const given = usage.input_tokens;
        const prompt = isInt(given) ? given + num(usage, "cache_creation_input_tokens") : null;
        const cached = count(usage, "cache_read_input_tokens");
        const snapshot: UniUsage = {
          prompt_tokens: prompt ?? started.prompt_tokens,
          cached_tokens: cached !== null ? cached : started.cached_tokens,
          thoughts_tokens: thoughts,
          response_tokens: num(usage, "output_tokens") - (thoughts || 0),
        };
        yield [n, uni([], snapshot, finish)];
      }
    } else if (!IGNORED.has(kind)) {
      throw new StreamError(n, `not a Messages stream event: type ${pyValue(kind)}`);
    }
  }
}

