/**
 * A line in a retired spelling of an older release (rules OM751 to OM757), rewritten to its
 * successor as the Python binding's `validate --legacy` rewrites it (`legacy_spots` in
 * python/omnimessage/validate/engine/recover.py): retired stop reasons and statuses read as `retryable` or
 * `fatal`, `request_end.message` and MCP `error` move to `error_message`, a `session_meta` loses
 * `tools` and `thinking_level` and reads `source: "benchmark"` as `cli`. A `goal_finished` event
 * has no successor. Restore reads legacy traces with it, as the reference's resume reads every
 * record by its shape only.
 *
 * @module
 */

/** Refusals after which a line's structure is unknown: no retired spelling to look for. */
export const HARD_CATEGORIES: ReadonlySet<string> = new Set([
  "invalid_utf8", "line_break", "invalid_json", "trailing_data", "too_deep", "too_large", "truncated",
]);

const RETIRED_STOP_REASONS: Readonly<Record<string, string>> = { failed: "fatal", timeout: "retryable", malformed: "retryable", auth: "fatal" };
const STATUS_EVENTS: ReadonlySet<string> = new Set(["request_end", "compaction_end", "mcp_connect_end"]);

/** What a retired line reads as: the successor's JSON text, or a `goal_finished` event's payload. */
export type Successor =
  | { readonly kind: "line"; readonly json: string }
  | { readonly kind: "goal_finished"; readonly payload: Record<string, unknown>; readonly timestamp: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The successor of a line (well-formed JSON) holding a retired spelling; null when it holds none. */
export function successor(text: string): Successor | null {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(obj) || !isObject(obj.payload)) return null;
  const env = obj.type;
  const p = obj.payload;
  const ptype = p.type;
  let found = false;
  const stop = (container: Record<string, unknown>, key: string): void => {
    const v = container[key];
    if (typeof v === "string" && Object.hasOwn(RETIRED_STOP_REASONS, v)) {
      // releases 0.1.5 to 0.2.4 retried `failed` (the engine's retry list): then it reads as retryable
      container[key] = v === "failed" && Object.hasOwn(container, "retry_in_ms") ? "retryable" : RETIRED_STOP_REASONS[v];
      found = true;
    }
  };
  const moved = (container: Record<string, unknown>, old: string, now: string): void => {
    if (!Object.hasOwn(container, old)) return;
    found = true;
    const value = container[old];
    delete container[old];
    if (typeof value === "string" && !Object.hasOwn(container, now)) container[now] = value;
  };
  if (env === "model_msg") {
    stop(p, "stop_reason");
  } else if (env === "event_msg" && typeof ptype === "string" && STATUS_EVENTS.has(ptype)) {
    stop(p, "status");
    if (ptype === "request_end") moved(p, "message", "error_message");
    else if (ptype === "mcp_connect_end" && Array.isArray(p.results)) {
      for (const res of p.results) {
        if (isObject(res)) {
          stop(res, "status");
          moved(res, "error", "error_message");
        }
      }
    }
  } else if (env === "event_msg" && ptype === "goal_finished") {
    return { kind: "goal_finished", payload: p, timestamp: typeof obj.timestamp === "string" ? obj.timestamp : "" };
  } else if (env === "session_meta") {
    for (const key of ["thinking_level", "tools"]) {
      if (Object.hasOwn(p, key)) {
        delete p[key];
        found = true;
      }
    }
    if (p.source === "benchmark") {
      p.source = "cli";
      found = true;
    }
  }
  return found ? { kind: "line", json: JSON.stringify(obj) } : null;
}
