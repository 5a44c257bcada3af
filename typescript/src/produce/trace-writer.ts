/**
 * `TraceWriter`: append a session's trace, crash-safe, the way the reference writer does (the
 * Python binding's `omnimessage.produce.TraceWriter`; the facts are listed there and in
 * docs/producing.md): one record per `write(2)` on a file opened `O_APPEND` per record; a
 * torn tail healed by a LF before the next record; partials and `origin` messages refused;
 * a `session_meta` on a file that holds records rotates to the next index; `openContext` writes a
 * new context's head in the reference's order; reopening continues the newest file; the appends
 * of one writer are serialised on one promise chain (PenguinHarness `trace/writer.ts`), so
 * concurrent producers in a process never splice records.
 *
 * @module
 */

import { constants, mkdirSync, openSync, closeSync, fstatSync, readSync, readdirSync, lstatSync, fsyncSync } from "node:fs";
import { open } from "node:fs/promises";
import { dirname, join } from "node:path";

import type * as t from "omnimessage";
import { encode, isPartialMessage, isSessionMeta } from "omnimessage";
import { localDate, sessionDate, tracePath, TRACE_FILE_PATTERN } from "./ids.js";

/** A message that the trace channel never carries, or a head out of the reference's order. */
export class TraceRefused extends Error {
  override name = "TraceRefused";
}

/** The date directory and index of a session's newest trace file under `root`, if any. */
export function latestTraceFile(root: string, sessionId: string): { date: string; index: number } | undefined {
  let best: { date: string; index: number } | undefined;
  let days;
  try {
    days = readdirSync(root, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  for (const day of days.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!day.isDirectory()) continue;
    for (const entry of readdirSync(join(root, day.name), { withFileTypes: true })) {
      const match = TRACE_FILE_PATTERN.exec(entry.name);
      if (!match || match[1] !== sessionId || !entry.isFile()) continue;
      const index = Number(match[2]);
      if (best === undefined || index > best.index) best = { date: day.name, index };
    }
  }
  return best;
}

/** Why the trace refuses a message, or undefined when it takes it. */
export function traceRefusal(msg: t.OmniMessage): string | undefined {
  if (msg.origin !== undefined) {
    return `a message with an origin belongs to a child session's own trace, never to this one (origin ${JSON.stringify(msg.origin)}); the parent trace holds a \`subagent\` pointer instead`;
  }
  if (isPartialMessage(msg)) {
    return `a trace never stores streaming fragments (${msg.payload.type}); write the complete message that follows the segment's stop`;
  }
  return undefined;
}

const HEADS = ["", "tool_list_ready", "mcp_connect_begin,mcp_connect_end", "mcp_connect_begin,mcp_connect_end,tool_list_ready"];

/** Options of {@link TraceWriter}. */
export interface TraceWriterOptions {
  /** The date directory of a new trace; default: the date in a reference-shaped id, else today (local). */
  date?: string;
  /** Flush every record to stable storage before `write` resolves (and the directory when a file is created). */
  fsync?: boolean;
}

// Links planted in a shared trace root (`/tmp/traces`) must not redirect a record: the date
// directory is refused when it is a link, the file is opened without following one (O_NOFOLLOW: a
// link, even a dangling one, fails with ELOOP instead of creating or appending to its target).
// Where the platform has no O_NOFOLLOW (Windows), lstat refuses a link before the open.
const NO_FOLLOW: number = constants.O_NOFOLLOW ?? 0;

function refuseLinkedDirectory(dir: string): void {
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw Object.assign(new Error(`the trace's date directory is a symbolic link or not a directory; refusing to write through it: ${dir}`), { code: st.isSymbolicLink() ? "ELOOP" : "ENOTDIR", path: dir });
  }
}

function refuseLink(path: string): void {
  try {
    if (lstatSync(path).isSymbolicLink()) throw Object.assign(new Error(`the trace file is a symbolic link; refusing to follow it: ${path}`), { code: "ELOOP", path });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

function openNoFollow(path: string, flags: number): number {
  if (NO_FOLLOW === 0) refuseLink(path);
  return openSync(path, flags | NO_FOLLOW);
}

/**
 * The record of a message: its canonical text and the LF. What would not be one line (a raw LF or
 * CR in a verbatim value built by hand: `encode` throws) is a {@link TraceRefused}.
 */
function recordOf(msg: t.OmniMessage): string {
  try {
    return `${encode(msg)}\n`;
  } catch (err) {
    if (err instanceof TypeError && err.message.startsWith("a message is one line")) throw new TraceRefused(err.message);
    throw err;
  }
}

/** Append-only writer of one session's trace files under `root`. */
export class TraceWriter {
  readonly date: string;
  index: number;
  readonly fsync: boolean;
  private prepared = -1;
  private torn = false;
  private hasRecords = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly root: string,
    readonly sessionId: string,
    opts: TraceWriterOptions = {},
  ) {
    if (!sessionId || sessionId.includes("/") || sessionId.includes("\\") || sessionId === "." || sessionId === "..") {
      throw new RangeError(`not a usable session id for a file name: ${JSON.stringify(sessionId)}`);
    }
    this.fsync = opts.fsync ?? false;
    const latest = latestTraceFile(root, sessionId);
    this.date = latest?.date ?? opts.date ?? sessionDate(sessionId) ?? localDate();
    this.index = latest?.index ?? 1;
  }

  /** The current trace file. */
  get path(): string {
    return tracePath(this.root, this.sessionId, this.index, this.date);
  }

  /**
   * Append one record; resolves with the line written (without a heal prefix) once it is in the
   * file. A `session_meta` written to a file that already holds records rotates first. Rejects with
   * {@link TraceRefused} for a partial, an `origin` message, or one that would not be one line (a
   * raw LF or CR in a verbatim value), before anything is queued.
   */
  write(msg: t.OmniMessage): Promise<string> {
    const refusal = traceRefusal(msg);
    if (refusal !== undefined) return Promise.reject(new TraceRefused(refusal));
    let line: string;
    try {
      line = recordOf(msg);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.enqueue(async () => {
      if (isSessionMeta(msg)) this.rotateIfUsed();
      await this.append(line);
      return line;
    });
  }

  /** Start a new model context: rotate, then write its head (`session_meta`, the MCP pair, `tool_list_ready`). */
  openContext(meta: t.SessionMetaMessage, ...head: t.EventMessage[]): Promise<string[]> {
    if (!isSessionMeta(meta)) return Promise.reject(new TraceRefused("a context opens with its session_meta"));
    const kinds = head.map((r) => (r.type === "event_msg" ? r.payload.type : r.type)).join(",");
    if (!HEADS.includes(kinds)) {
      return Promise.reject(new TraceRefused(`a context's head is session_meta, then its mcp_connect_begin and mcp_connect_end if any, then its tool_list_ready if any; got [${kinds}]`));
    }
    for (const r of [meta, ...head]) {
      const refusal = traceRefusal(r);
      if (refusal !== undefined) return Promise.reject(new TraceRefused(refusal));
    }
    let lines: string[];
    try {
      lines = [meta, ...head].map(recordOf); // all of them, before anything is queued
    } catch (err) {
      return Promise.reject(err);
    }
    return this.enqueue(async () => {
      this.rotateIfUsed();
      for (const line of lines) await this.append(line);
      return lines;
    });
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const result = this.chain.then(op);
    this.chain = result.then(
      () => undefined,
      () => undefined, // a failed append must not wedge the writer
    );
    return result;
  }

  private rotateIfUsed(): void {
    let size = 0;
    try {
      const st = lstatSync(this.path);
      size = st.isFile() ? st.size : 0;
    } catch {
      size = 0;
    }
    if (this.hasRecords || size > 0) {
      this.index += 1;
      this.hasRecords = false;
    }
  }

  private prepare(path: string): void {
    mkdirSync(dirname(path), { recursive: true });
    refuseLinkedDirectory(dirname(path));
    this.torn = false;
    let fd: number;
    try {
      fd = openNoFollow(path, constants.O_RDONLY);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      throw err;
    }
    try {
      const { size } = fstatSync(fd);
      if (size > 0) {
        this.hasRecords = true;
        const last = Buffer.alloc(1);
        this.torn = readSync(fd, last, 0, 1, size - 1) !== 1 || last[0] !== 0x0a;
      }
    } finally {
      closeSync(fd);
    }
  }

  private async append(line: string): Promise<void> {
    const path = this.path;
    if (this.prepared !== this.index) {
      this.prepare(path);
      this.prepared = this.index;
    }
    const buf = Buffer.from(this.torn ? `\n${line}` : line, "utf8");
    const created = this.fsync && !this.hasRecords;
    refuseLinkedDirectory(dirname(path)); // replaced by a link since it was prepared?
    if (NO_FOLLOW === 0) refuseLink(path);
    const fh = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW, 0o644);
    try {
      let written = 0;
      while (written < buf.length) {
        let bytesWritten: number;
        try {
          ({ bytesWritten } = await fh.write(buf, written, buf.length - written));
        } catch (err) {
          if (written > 0) this.torn = true;
          throw err;
        }
        if (bytesWritten <= 0) {
          if (written > 0) this.torn = true;
          throw new Error(`trace append made no progress at byte ${written} of ${buf.length}: ${path}`);
        }
        written += bytesWritten;
      }
      if (this.fsync) await fh.sync();
    } finally {
      await fh.close();
    }
    if (created) {
      const dir = openSync(dirname(path), "r");
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    }
    this.torn = false;
    this.hasRecords = true;
  }
}
