/**
 * Opening an input without surprises, as the Python binding's `omnimessage.files.safe_open.open_regular`:
 * open(2) with O_NONBLOCK (a FIFO without a writer does not block the open), then fstat what was
 * opened, the object and not the name:
 *
 * - a regular file is read;
 * - a directory is refused as `Is a directory`;
 * - a FIFO or pipe only where streams are allowed (a FILE named on the command line, as in
 *   `omnimessage canonicalize <(zcat trace.jsonl.gz)`): read through {@link readStream}, so
 *   that, like `cat`, the read waits for the writer;
 * - a device or a socket never (`/dev/zero` never ends);
 * - with `follow: false` a symbolic link is refused (O_NOFOLLOW).
 *
 * @module
 */

import { closeSync, constants, createReadStream, fstatSync, openSync, type Stats } from "node:fs";
import { Socket } from "node:net";
import type { Readable } from "node:stream";

/** An input that is deliberately not read; `failure` in main.ts prints `omnimessage: PATH: message`. */
export class NotReadable extends Error {
  readonly code: string;
  readonly syscall = "open";
  constructor(
    readonly path: string,
    message: string,
    code = "ENOTREG",
  ) {
    super(message);
    this.code = code;
  }
}

/** The error a directory given as a file gets (as fs reports it: `EISDIR`). */
export function isDirectoryError(path: string): Error {
  return Object.assign(new Error("is a directory"), { code: "EISDIR", path });
}

/** What a file is, in words: `a FIFO`, `a character device`, ... (as Python's `kind_of`). */
export function kindOf(st: Stats): string {
  if (st.isFile()) return "a regular file";
  if (st.isDirectory()) return "a directory";
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isFIFO()) return "a FIFO";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "a special file";
}

/** Open `path` for reading if it is a regular file (or, with `streams`, a FIFO or pipe); its descriptor
 * (a FIFO's stays non-blocking: {@link readStream} reads it). */
export function openRegular(path: string, options: { streams?: boolean; follow?: boolean } = {}): number {
  const { streams = false, follow = true } = options;
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (follow ? 0 : constants.O_NOFOLLOW);
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (e) {
    if (!follow && (e as { code?: unknown }).code === "ELOOP") throw new NotReadable(path, "a symbolic link: not followed", "ELOOP");
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw isDirectoryError(path);
    if (st.isFIFO() && streams) return fd;
    if (!st.isFile()) throw new NotReadable(path, `${kindOf(st)}, not a regular file: not read`);
    return fd;
  } catch (e) {
    try {
      closeSync(fd);
    } catch {}
    throw e;
  }
}

/** `path` opened by {@link openRegular} with streams allowed, as a stream of its bytes. A FIFO or
 * pipe becomes a libuv pipe (net.Socket): its epoll waits, as `cat`'s blocking open would, until a
 * writer has come, and sees the hang-up of a writer that already wrote everything and closed (the
 * bytes stay in the pipe). Opening the FIFO a second time, blocking, to wait would hang forever on
 * that last writer (issue 39). */
export function readStream(path: string): Readable {
  const fd = openRegular(path, { streams: true });
  let fifo: boolean;
  try {
    fifo = fstatSync(fd).isFIFO();
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fifo ? new Socket({ fd, readable: true, writable: false }) : createReadStream(path, { fd });
}
