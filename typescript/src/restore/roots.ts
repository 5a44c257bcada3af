/**
 * Finding a session's newest trace file under a trace root (`<yyyy-mm-dd>/<session_id>_<NNN>.jsonl`),
 * from the listing alone, as the Python binding's `omnimessage.validate.sources.roots.index_root` reads it:
 * names starting with `.` are ignored; only real directories and regular files are taken (a
 * symbolic link is never followed, a FIFO named `*.jsonl` never opened); a directory that cannot
 * be listed is not searched. The session id is compared with the names, never made into a path.
 *
 * @module
 */

import { readdirSync, statSync, type Dirent } from "node:fs";

/** A session's file: `<session_id>_<NNN>.jsonl` (the index has at least three digits). Python's
 * `.` matches anything but a line feed: so does `[^\n]`. */
const TRACE_NAME = /^([^\n]+)_([0-9]{3,})\.jsonl$/;
const DATE_DIR = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/** A `yyyy-mm-dd` name that is a real date (years 1 to 9999, as Python's `datetime.date`). */
export function isDate(name: string): boolean {
  const m = DATE_DIR.exec(name);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] as number;
  return d <= days;
}

/** `os.path.join(dir, name)` of Python, for a relative `name`: the path as the Python binding prints it. */
export function joinPath(dir: string, name: string): string {
  return dir === "" || dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

/** Code point order (Python's `sorted` of str), not UTF-16 unit order. */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => byCodePoint(a.name, b.name));
  } catch {
    return []; // a directory that cannot be listed is not searched
  }
}

/** Why a trace root cannot be read at all: `code` ENOENT (no such root) or ENOTDIR (not a directory). */
export class TraceRootError extends Error {
  constructor(
    readonly code: "ENOENT" | "ENOTDIR",
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = "TraceRootError";
  }
}

/** One file of a session: its rotation index and its path. */
export interface SessionFile {
  readonly index: bigint;
  readonly path: string;
}

/**
 * The files of `sessionId` under `root`, in rotation order (by index, then path). Throws a
 * {@link TraceRootError} when `root` is no directory.
 */
export function sessionFiles(root: string, sessionId: string): SessionFile[] {
  let isDir = false;
  let exists = false;
  try {
    const st = statSync(root);
    exists = true;
    isDir = st.isDirectory();
  } catch {
    // as Python's os.path.exists: a root that cannot be examined does not exist
  }
  if (!isDir) {
    if (exists) {
      throw new TraceRootError("ENOTDIR", root, "not a trace root (a directory laid out <yyyy-mm-dd>/<session_id>_<NNN>.jsonl); "
        + "read a single file with omnimessage.iter_messages");
    }
    throw new TraceRootError("ENOENT", root, "no such trace root");
  }
  const found: SessionFile[] = [];
  for (const day of list(root)) {
    if (day.name.startsWith(".") || day.isSymbolicLink() || !day.isDirectory() || !isDate(day.name)) continue;
    const dir = joinPath(root, day.name);
    for (const entry of list(dir)) {
      const name = entry.name;
      if (name.startsWith(".") || !name.endsWith(".jsonl") || entry.isSymbolicLink() || !entry.isFile()) continue;
      const m = TRACE_NAME.exec(name);
      if (m !== null && m[1] === sessionId) found.push({ index: BigInt(m[2] as string), path: joinPath(dir, name) });
    }
  }
  return found.sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : byCodePoint(a.path, b.path)));
}
