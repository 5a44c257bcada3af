/**
 * The way back from Gemini: `generateContent` stream chunks (`GenerateContentResponse` of
 * `@google/genai`: the REST JSON, camelCase, or an SDK's snake_case dump) as the neutral events
 * AgentHub's Gemini client yields (`gemini3_8/client.py` `transform_model_output_to_uni_event`):
 * each chunk's parts in order (a function call complete, its id or else its name as the id; a
 * part's thought signature as its fidelity), the finish reason, and the chunk's usage, a
 * cumulative snapshot. The Python binding's `gemini.uni_events`.
 *
 * @module
 */

import { uni, type Uni, type UniItem } from "./translate.js";
import { isInt, obj, pyStr, text, truthy, type Obj } from "./stream-wire.js";

/** A field in either spelling: snake_case first, as Python's `d.get(snake, d.get(camel))`. */
function get(d: Obj, snake: string, camel: string): unknown {
  return snake in d ? d[snake] : d[camel];
}

function partItems(part: Obj, n: number, where: string): UniItem[] {
  const signature = get(part, "thought_signature", "thoughtSignature");
  const fid = signature !== null && signature !== undefined ? { fidelity: { signature } } : {};
  const call = get(part, "function_call", "functionCall");
  const inline = get(part, "inline_data", "inlineData");
  if (call !== null && call !== undefined) {
    const c = obj(call, n, `${where}/function_call`);
    const args = c.args;
    const plain = typeof args === "object" && args !== null && !Array.isArray(args);
    return [{ type: "tool_call", name: text(c, "name"), arguments: plain ? args : {}, tool_call_id: text(c, "id") || text(c, "name"), ...fid }];
  }
  if (inline !== null && inline !== undefined) {
    const blob = obj(inline, n, `${where}/inline_data`); // inline output: not streaming text (the translator skips it)
    return [{ type: truthy(part.thought) ? "inline_thinking" : "inline_data", data: text(blob, "data"), mime_type: get(blob, "mime_type", "mimeType"), ...fid }];
  }
  if (typeof part.text === "string") {
    return [truthy(part.thought) ? { type: "thinking", thinking: part.text, ...fid } : { type: "text", text: part.text, ...fid }];
  }
  return [];
}

function int(v: unknown): number | null {
  return isInt(v) ? v : null;
}

/** The neutral events of `events`, each with the index of the event it comes from. */
export function* geminiUni(events: Iterable<unknown>): Generator<[number, Uni]> {
  let n = -1;
  for (const event of events) {
    n++;
    const chunk = obj(event, n, "");
    const u = uni();
    const candidates = chunk.candidates;
    if (Array.isArray(candidates) && candidates.length > 0) {
      const candidate = obj(candidates[0], n, "/candidates/0");
      const content = obj(candidate.content, n, "/candidates/0/content");
      const parts = content.parts;
      (Array.isArray(parts) ? parts : []).forEach((part: unknown, k: number) => {
        const where = `/candidates/0/content/parts/${k}`;
        u.items.push(...partItems(obj(part, n, where), n, where));
      });
      const reason = get(candidate, "finish_reason", "finishReason");
      if (truthy(reason)) u.finish = ({ STOP: "stop", MAX_TOKENS: "length" } as Record<string, string>)[pyStr(reason)] ?? "unknown";
    }
    const usage = get(chunk, "usage_metadata", "usageMetadata");
    if (typeof usage === "object" && usage !== null && !Array.isArray(usage)) {
      const us = usage as Obj;
      const prompt = int(get(us, "prompt_token_count", "promptTokenCount"));
      const cached = int(get(us, "cached_content_token_count", "cachedContentTokenCount"));
      u.usage = {
        cached_tokens: cached, prompt_tokens: (prompt ?? 0) - (cached ?? 0),
        thoughts_tokens: int(get(us, "thoughts_token_count", "thoughtsTokenCount")),
        response_tokens: int(get(us, "candidates_token_count", "candidatesTokenCount")),
      };
    }
    if (u.items.length > 0 || u.usage !== null || u.finish !== null) yield [n, u];
  }
}
