/**
 * Session ids and trace file names in the reference producer's format (the Python binding's
 * `omnimessage.produce.ids`): `session-YYYY-MM-DD-HH-mm-ss-<8 hex>` in local time (PenguinHarness
 * `internal/session-support.ts` formatSessionId), and `<root>/<yyyy-mm-dd>/<session_id>_<NNN>.jsonl`
 * with a three-digit index from 001 (`trace/writer.ts` currentPath).
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { join } from "node:path";

/** The reference's session id shape (the date is group 1). */
export const SESSION_ID_PATTERN = /^session-(\d{4}-\d{2}-\d{2})-\d{2}-\d{2}-\d{2}-[0-9a-f]{8}$/;
/** A trace file name, `<session_id>_<NNN>.jsonl` (groups: session id, index). */
export const TRACE_FILE_PATTERN = /^(.+)_(\d{3,})\.jsonl$/;

const pad = (n: number, width = 2): string => n.toString().padStart(width, "0");

/** The local `yyyy-mm-dd` of a date. */
export function localDate(date: Date = new Date()): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A fresh session id for a session created at `date` (default now, local time). */
export function newSessionId(date: Date = new Date()): string {
  const time = `${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
  return `session-${localDate(date)}-${time}-${randomUUID().replace(/-/g, "").slice(0, 8)}`;
}

/** The `yyyy-mm-dd` a reference-shaped session id was created on (undefined for other ids). */
export function sessionDate(sessionId: string): string | undefined {
  return SESSION_ID_PATTERN.exec(sessionId)?.[1];
}

/** `<session_id>_<NNN>.jsonl`, the index zero-padded to three digits. */
export function traceFileName(sessionId: string, index: number): string {
  if (!Number.isInteger(index) || index < 1) throw new RangeError(`trace file indexes start at 1, not ${index}`);
  return `${sessionId}_${pad(index, 3)}.jsonl`;
}

/** `<root>/<date>/<session_id>_<NNN>.jsonl`. */
export function tracePath(root: string, sessionId: string, index: number, date: string): string {
  return join(root, date, traceFileName(sessionId, index));
}
