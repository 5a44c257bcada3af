/**
 * The way back from OpenAI Chat Completions: its chunks (`ChatCompletionChunk` of `openai`, plain
 * objects) as the neutral events AgentHub's Chat Completions client yields (`openai_chat/client.ts`
 * `transformModelOutputToUniEvent` and its stream loop): a tool call's complete form when the
 * next call begins or the stream stops (arguments parsed); the finish reason and usage together
 * in one stop event once both arrived. The Python binding's `openai_chat.uni_events`.
 *
 * @module
 */

import { uni, type Uni, type UniItem, type UniUsage } from "./translate.js";
import { count, num, obj, parseArguments, pyStr, text, truthy, type Obj } from "./stream-wire.js";

const FINISH: Readonly<Record<string, string>> = { stop: "stop", length: "length", tool_calls: "tool_call", content_filter: "stop" };

/** One chunk as the gateway reads it: its event type (`delta`, `stop` or null) and its neutral event. */
function chunk(ev: Obj, n: number): [string | null, Uni] {
  let kind: string | null = null;
  const u = uni();
  const choices = ev.choices;
  if (Array.isArray(choices) && choices.length > 0) {
    const choice = obj(choices[0], n, "/choices/0");
    const delta = obj(choice.delta, n, "/choices/0/delta");
    if (text(delta, "content")) {
      kind = "delta";
      u.items.push({ type: "text", text: text(delta, "content") });
    }
    const rc = text(delta, "reasoning_content");
    const r = text(delta, "reasoning");
    if (rc || r) {
      kind = "delta";
      const both = rc !== "" && r !== ""; // both: the origin is ambiguous, no fidelity (a replay sends both)
      u.items.push(both ? { type: "thinking", thinking: rc || r } : { type: "thinking", thinking: rc || r, fidelity: { reasoning_field: rc ? "reasoning_content" : "reasoning" } });
    }
    const calls = delta.tool_calls;
    (Array.isArray(calls) ? calls : []).forEach((call: unknown, k: number) => {
      kind = "delta";
      const c = obj(call, n, `/choices/0/delta/tool_calls/${k}`);
      const fn = obj(c.function, n, `/choices/0/delta/tool_calls/${k}/function`);
      u.items.push({ type: "partial_tool_call", name: text(fn, "name"), arguments: text(fn, "arguments"), tool_call_id: text(c, "id") || text(fn, "name") });
    });
    const reason = choice.finish_reason;
    if (truthy(reason)) {
      kind = kind ?? "stop";
      u.finish = FINISH[pyStr(reason)] ?? "unknown";
    }
  }
  const usage = ev.usage;
  if (typeof usage === "object" && usage !== null && !Array.isArray(usage)) {
    const us = usage as Obj;
    kind = kind ?? "stop";
    const cachedV = count(obj(us.prompt_tokens_details, n, "/usage/prompt_tokens_details"), "cached_tokens");
    const thoughtsV = count(obj(us.completion_tokens_details, n, "/usage/completion_tokens_details"), "reasoning_tokens");
    const cached = truthy(cachedV) ? cachedV : null;
    const thoughts = truthy(thoughtsV) ? thoughtsV : null;
    u.usage = { cached_tokens: cached, prompt_tokens: num(us, "prompt_tokens") - (cached || 0), thoughts_tokens: thoughts, response_tokens: num(us, "completion_tokens") - (thoughts || 0) };
  }
  return [kind, u];
}

interface Open {
  name: string;
  arguments: string;
  tool_call_id: string;
}

function complete(tool: Open, n: number): Uni {
  return uni([{ type: "tool_call", name: tool.name, tool_call_id: tool.tool_call_id, arguments: parseArguments(tool.arguments, n) }]);
}

function open(item: UniItem): Open {
  return { name: item.name ?? "", arguments: typeof item.arguments === "string" ? item.arguments : "", tool_call_id: item.tool_call_id ?? "" };
}

/** The neutral events of `events`, each with the index of the event it comes from. */
export function* openAIChatUni(events: Iterable<unknown>): Generator<[number, Uni]> {
  let tool: Open | null = null;
  let finish: string | null = null;
  let usage: UniUsage | null = null;
  let n = -1;
  for (const event of events) {
    n++;
    const [kind, u] = chunk(obj(event, n, ""), n);
    finish = u.finish || finish;
    usage = u.usage ?? usage;
    if (kind === "delta") {
      for (const item of u.items) {
        if (item.type !== "partial_tool_call") continue;
        if (tool === null || !tool.name) tool = open(item);
        else if (item.name) {
          yield [n, complete(tool, n)];
          tool = open(item);
        } else tool.arguments += typeof item.arguments === "string" ? item.arguments : "";
      }
      yield [n, u];
    } else if (kind === "stop") {
      if (tool !== null && tool.name) {
        yield [n, complete(tool, n)];
        tool = null;
      }
      if (finish && usage) {
        yield [n, uni([], usage, finish)];
        finish = null;
        usage = null;
      }
    }
  }
}
