/**
 * Restore a session's model context from its trace, as the reference's resume rebuilds it: the
 * Python binding's `omnimessage.restore` (python/omnimessage/model_context/rebuild.py states each rule and
 * where the reference has it: PenguinHarness `Agent.resumeSession` in `packages/core/src/agent.ts`,
 * the replay in `packages/core/src/trace/resume.ts`), with the same results and the same errors.
 *
 * - Only the session's highest-index trace file is read (one file is one model context); two files
 *   with that index are an error.
 * - Its first `session_meta` is the runtime configuration; none, or one naming another session,
 *   is an error.
 * - The messages are the committed history, then the carry-over (see `replay.ts`); events and
 *   streaming fragments never count.
 * - A last record that is a completed `compaction_end` closes the context (no messages); in
 *   `summarize` mode `summaryFrom` holds the output the reference writes the next context's
 *   summary from. A summary that is blank once `[summary]` tags go voids the closure.
 * - Blank lines and torn records (a proper prefix of a record) are skipped and listed; any other
 *   line that does not decode is a {@link RestoreError} naming the file and line.
 * - A committed tool call whose output never reached the trace is answered by the reference's
 *   placeholder, built in memory (`line` null).
 * - A line in a retired spelling of an older release (a legacy trace) is read as its successor
 *   (`retired.ts`) and listed in `retired`; its `raw` stays the trace's bytes.
 *
 * Memory: the context is held whole, its bytes capped by `maxContextBytes`; the file is read in
 * chunks, one line at a time.
 *
 * @module
 */

import { closeSync, openSync, readSync } from "node:fs";
import {
  DEFAULT_MAX_LINE_BYTES,
  DecodeError,
  LineSplitter,
  decode,
  OpaqueMessage,
  encode,
  toolCallOutput,
  type OmniMessage,
  type RawLine,
  type SessionMetaMessage,
  type SessionMetaPayload,
} from "omnimessage";
import { readLine } from "#internal";
import { pyRepr } from "./pyrepr.js";
import { PLACEHOLDER_OUTPUT, Replay, type Turn } from "./replay.js";
import { sessionFiles } from "./roots.js";
import { HARD_CATEGORIES, successor } from "./retired.js";
import { isRecordPrefix } from "./torn.js";

/** The default cap on the bytes of the model messages a restore holds; past it, a {@link RestoreError}. */
export const MAX_CONTEXT_BYTES = 256 * 1024 * 1024;

/** Bytes read from the trace file at a time. */
const CHUNK = 1 << 16;

/**
 * A session that cannot be restored whole. `path` and `line` (1-based; null for the session or the
 * file as a whole) name where; `message` is `PATH:LINE: detail` (not sanitised: the file name and
 * the detail may quote input).
 */
export class RestoreError extends Error {
  constructor(
    readonly path: string,
    readonly line: number | null,
    readonly detail: string,
  ) {
    super(line !== null ? `${path}:${line}: ${detail}` : `${path}: ${detail}`);
    this.name = "RestoreError";
  }
}

/** One message of a restored context: where it is and its exact bytes (no line feed). `line` is
 * null for a pairing placeholder, which no trace holds. */
export interface ContextLine {
  readonly path: string;
  readonly line: number | null;
  readonly raw: Uint8Array;
  readonly message: OmniMessage | OpaqueMessage;
}

/** A session's current context. `messages` is what the model is sent next (history, then carry-over). */
export interface Restored {
  readonly sessionId: string;
  /** The newest trace file, the one read. */
  readonly path: string;
  /** Its first `session_meta`. */
  readonly meta: ContextLine;
  /** The runtime configuration: `meta`'s payload. */
  readonly config: SessionMetaPayload;
  readonly history: readonly ContextLine[];
  readonly carryOver: readonly ContextLine[];
  readonly messages: readonly ContextLine[];
  readonly contextClosed: boolean;
  readonly summaryFrom: readonly ContextLine[];
  /** Line numbers of blank and torn lines skipped. */
  readonly skipped: readonly number[];
  /** Line numbers read in a retired spelling of an older release, as its successor (`message`;
   * `raw` stays the trace's bytes). */
  readonly retired: readonly number[];
}

/** Options of {@link restore}. */
export interface RestoreOptions {
  /** Read records of a newer protocol version as opaque (a `session_meta` stays an error). */
  lenient?: boolean;
  /** Longest line read, in bytes (default `DEFAULT_MAX_LINE_BYTES`). */
  maxLineBytes?: number;
  /** Cap on the context's bytes (default {@link MAX_CONTEXT_BYTES}). */
  maxContextBytes?: number;
}

/** What the replay reads of one record, from a typed message or a newer version's opaque one. */
interface Record_ {
  readonly kind: string; // session_meta, model_msg, event_msg
  readonly ptype: string; // the payload's type ("" for session_meta)
  readonly fields: Readonly<Record<string, unknown>>;
  readonly timestamp: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function record(msg: OmniMessage | OpaqueMessage, path: string, number: number): Record_ {
  if (!(msg instanceof OpaqueMessage)) {
    const payload = msg.payload as unknown as Record<string, unknown>;
    const ptype = msg.type === "session_meta" ? "" : String(payload.type);
    return { kind: msg.type, ptype, fields: payload, timestamp: msg.timestamp };
  }
  const parsed: unknown = JSON.parse(msg.raw); // well-formed: lenient decoding checked it
  const env = isObject(parsed) ? parsed : {};
  const payload = env.payload;
  const kind = env.type;
  if ((kind !== "model_msg" && kind !== "event_msg") || !isObject(payload) || (kind === "model_msg" && typeof payload.role !== "string")) {
    const what = typeof kind === "string" ? kind : "a record";
    throw new RestoreError(path, number, `${what} this protocol version cannot read (a newer or a retired spelling): the context `
      + `cannot be rebuilt from it (${msg.error.category}: ${msg.error.detail})`);
  }
  const ts = env.timestamp;
  return { kind, ptype: typeof payload.type === "string" ? payload.type : String(payload.type), fields: payload, timestamp: typeof ts === "string" ? ts : "" };
}

/** A line in a retired spelling read as its successor, with what the replay reads of it (a
 * `goal_finished` event: its record only, no message). */
interface Legacy {
  readonly rec: Record_;
  readonly message: OmniMessage | null;
}

function readRetired(raw: Uint8Array): Legacy | null {
  const next = successor(new TextDecoder().decode(raw));
  if (next === null) return null;
  if (next.kind === "goal_finished") {
    return { rec: { kind: "event_msg", ptype: "goal_finished", fields: next.payload, timestamp: next.timestamp }, message: null };
  }
  let message: OmniMessage;
  try {
    message = decode(next.json);
  } catch (e) {
    if (e instanceof DecodeError) return null;
    throw e;
  }
  return { rec: record(message, "", 0), message };
}

function turn(item: ContextLine, rec: Record_): Turn<ContextLine> {
  const cid = rec.fields.tool_call_id;
  const role = String(rec.fields.role);
  if (rec.ptype === "tool_call_output" && typeof cid === "string") return { item, role, outputOf: cid };
  if (rec.ptype === "tool_call" && rec.fields.stop_reason === "completed" && typeof cid === "string") return { item, role, completedCall: cid };
  return { item, role };
}

const utf8 = new TextEncoder();

function placeholder(path: string): (callId: string, at: string) => Turn<ContextLine> {
  return (callId, at) => {
    const msg = toolCallOutput(PLACEHOLDER_OUTPUT, callId, { stopReason: "aborted", timestamp: at === "" ? undefined : at });
    return { item: { path, line: null, raw: utf8.encode(encode(msg)), message: msg }, role: "user", outputOf: callId };
  };
}

/** Python's `bytes.strip()` whitespace. */
function isBlank(raw: Uint8Array): boolean {
  return raw.every((b) => b === 0x20 || (b >= 0x09 && b <= 0x0d));
}

/** Python's `str.isspace()` characters. */
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** The reference voids a closure whose summary extracts empty (`extractSummary` in
 * `omnimessage/markers/engine-blocks.ts`); approximated as the Python binding does: the text is
 * blank once summary tags go. */
function summaryBlank(lines: readonly ContextLine[]): boolean {
  let text = "";
  for (const m of lines) {
    const t = (JSON.parse(new TextDecoder().decode(m.raw)) as { payload: Record<string, unknown> }).payload.text;
    text += typeof t === "string" ? t : t ? String(t) : "";
  }
  for (const tag of ["[summary]", "[/summary]", "<summary>", "</summary>"]) text = text.replaceAll(tag, "");
  return PY_SPACE.test(text);
}

/** The raw lines of a file, read in chunks. */
function* fileLines(path: string, maxLineBytes: number): Generator<RawLine> {
  const fd = openSync(path, "r");
  try {
    const splitter = new LineSplitter(maxLineBytes);
    const buf = new Uint8Array(CHUNK);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      yield* splitter.push(buf.subarray(0, n));
    }
    yield* splitter.end();
  } finally {
    closeSync(fd);
  }
}

function newestFile(root: string, sessionId: string): string {
  const files = sessionFiles(root, sessionId);
  const last = files[files.length - 1];
  if (last === undefined) {
    throw new RestoreError(root, null, `no trace file of session ${pyRepr(sessionId)} (<yyyy-mm-dd>/<session_id>_<NNN>.jsonl)`);
  }
  const top = files.filter((f) => f.index === last.index);
  if (top.length > 1) {
    const [first, second] = top as [typeof last, typeof last];
    throw new RestoreError(second.path, null, `two trace files with the highest index ${String(last.index).padStart(3, "0")} `
      + `(also ${first.path}): which context is current is unknown`);
  }
  return last.path;
}

/**
 * The context of `sessionId` under the trace root `traceRoot` as the reference's resume rebuilds
 * it. Throws a {@link RestoreError} naming the file and line of what is wrong or missing, a
 * `TraceRootError` (code `ENOENT` or `ENOTDIR`) when the root is no directory.
 */
export function restore(traceRoot: string, sessionId: string, options: RestoreOptions = {}): Restored {
  const lenient = options.lenient === true;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const maxContextBytes = options.maxContextBytes ?? MAX_CONTEXT_BYTES;
  const path = newestFile(traceRoot, sessionId);
  const replay = new Replay<ContextLine>(placeholder(path));
  let meta: ContextLine | null = null;
  const skipped: number[] = [];
  const retired: number[] = [];
  let held = 0;
  let last: Record_ | null = null;
  let lastTs = ""; // of the last record read: a placeholder made at the end carries it
  let requestText: ContextLine[] = []; // assistant texts of the request being read
  let completedText: ContextLine[] = []; // those of the last completed request
  for (const split of fileLines(path, maxLineBytes)) {
    const line = readLine(split, { lenient, maxLineBytes });
    let legacy: Legacy | null = null;
    if (line.error !== null) {
      const err = line.error;
      if (err.category !== "too_large" && (isBlank(line.raw) || isRecordPrefix(line.raw))) {
        skipped.push(line.number); // a crash heal's blank or torn line, or a torn tail
        continue;
      }
      legacy = HARD_CATEGORIES.has(err.category) ? null : readRetired(line.raw);
      if (legacy === null) {
        throw new RestoreError(path, line.number, `${err.category}: ${err.detail}${err.pointer ? ` (at ${err.pointer})` : ""}`);
      }
    } else if (line.message instanceof OpaqueMessage) {
      legacy = readRetired(line.raw);
    }
    let msg: OmniMessage | OpaqueMessage;
    let rec: Record_;
    if (legacy !== null) {
      retired.push(line.number);
      if (legacy.message === null) { // goal_finished: no message, no part in the replay
        last = legacy.rec;
        lastTs = legacy.rec.timestamp || lastTs;
        continue;
      }
      ({ rec, message: msg } = legacy);
    } else {
      msg = line.message as OmniMessage | OpaqueMessage;
      rec = record(msg, path, line.number);
    }
    last = rec;
    lastTs = rec.timestamp || lastTs;
    if (rec.kind === "session_meta") {
      // a copy: the line is a view of the read buffer, which the next chunk overwrites
      if (meta === null) meta = { path, line: line.number, raw: line.raw.slice(), message: msg };
      continue;
    }
    if (rec.kind === "event_msg") {
      if (rec.ptype === "request_begin") {
        replay.requestBegin();
        requestText = [];
      } else if (rec.ptype === "request_end") {
        const completed = rec.fields.status === "completed";
        if (completed) completedText = requestText;
        replay.requestEnd(completed, lastTs);
        requestText = [];
      } else if (rec.ptype === "compaction_begin" || rec.ptype === "compaction_end") {
        replay.compaction(rec.ptype === "compaction_begin");
      }
      continue;
    }
    if (rec.ptype.startsWith("partial_")) continue; // a streaming fragment: never stored as context
    held += line.raw.length;
    if (held > maxContextBytes) throw new RestoreError(path, line.number, `the context exceeds ${maxContextBytes} bytes (max_context_bytes)`);
    const item: ContextLine = { path, line: line.number, raw: line.raw.slice(), message: msg }; // a copy, as above
    replay.model(turn(item, rec));
    if (replay.inRequest && rec.ptype === "text" && rec.fields.role === "assistant") requestText.push(item);
  }
  if (meta === null) throw new RestoreError(path, null, "no session_meta in the newest trace file: the runtime configuration is missing");
  const config = (meta.message as SessionMetaMessage).payload;
  if (config.session_id !== sessionId) {
    throw new RestoreError(path, meta.line, `session_meta names session ${pyRepr(config.session_id)}, the file ${pyRepr(sessionId)}`);
  }
  const base = { sessionId, path, meta, config };
  if (last !== null && last.ptype === "compaction_end" && last.fields.status === "completed"
    && (last.fields.mode !== "summarize" || !summaryBlank(completedText))) {
    const summaryFrom = last.fields.mode === "summarize" ? completedText : [];
    return { ...base, history: [], carryOver: [], messages: [], contextClosed: true, summaryFrom, skipped, retired };
  }
  const carry = replay.finish(lastTs).map((t) => t.item);
  const history = replay.history.map((t) => t.item);
  return { ...base, history, carryOver: carry, messages: history.concat(carry), contextClosed: false, summaryFrom: [], skipped, retired };
}
