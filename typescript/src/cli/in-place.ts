/**
 * `canonicalize --in-place`: each file replaced atomically, as the Python binding replaces it.
 *
 * The replacement is written to an anonymous file in the same directory (Linux O_TMPFILE), so a
 * process killed mid-write, even by SIGKILL, leaves no partial file; only when it is complete is it
 * named and renamed over the target, with the target's permission bits. Elsewhere a hidden named
 * temporary file is used, removed on any error or catchable signal ({@link removePendingTemp}).
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, constants, createReadStream, fchmodSync, fsyncSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { canonicalLines, type LineOptions, type Stats } from "./lines.js";
import { Sink } from "./output.js";
import { sanitize } from "./sanitize.js";

/** The named temporary file not yet renamed into place, removed if the process is stopped. */
let pendingTemp: string | null = null;

/** Remove the named temporary file a stopped replacement left (a signal handler calls this). */
export function removePendingTemp(): void {
  if (pendingTemp === null) return;
  try {
    unlinkSync(pendingTemp);
  } catch {}
}

/** The error a directory given as a file gets (as fs reports it: `EISDIR`). */
export function isDirectoryError(path: string): Error {
  return Object.assign(new Error("is a directory"), { code: "EISDIR", path });
}

// Linux O_TMPFILE (__O_TMPFILE | O_DIRECTORY): an anonymous file in a directory, gone if the process dies.
const O_TMPFILE = 0o20000000 | (constants.O_DIRECTORY ?? 0);

/** An anonymous file in `dir` (Linux O_TMPFILE), or null where the system or file system has none. */
function openAnonymous(dir: string): number | null {
  if (process.platform !== "linux") return null;
  try {
    return openSync(dir, O_TMPFILE | constants.O_RDWR, 0o600);
  } catch {
    return null;
  }
}

/**
 * Give the anonymous file `fd` a hidden unique name beside its target: linkat(2) with
 * AT_SYMLINK_FOLLOW on /proc/self/fd/N, which Node's fs does not offer, done by `ln -L` with the
 * descriptor handed over as its fd 3. Without `ln` or /proc the content is copied into a named file.
 */
function linkAnonymous(fd: number, dir: string, base: string, mode: number): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const candidate = join(dir, `.${base}.${process.pid}.${attempt}.tmp`);
    pendingTemp = candidate; // a signal from here on removes it
    const r = spawnSync("ln", ["-L", "--", "/proc/self/fd/3", candidate], { stdio: ["ignore", "ignore", "pipe", fd] });
    if (r.status === 0) return candidate;
    pendingTemp = null;
    if (r.status === null || !/exists/i.test(String(r.stderr))) break;
  }
  const named = join(dir, `.${base}.${randomBytes(6).toString("hex")}.tmp`);
  const out = openSync(named, "wx", 0o600);
  pendingTemp = named;
  try {
    copyFd(fd, out);
    fchmodSync(out, mode);
    fsyncSync(out);
  } finally {
    closeSync(out);
  }
  return named;
}

/** Copy the whole content of `from` (read from its start) to `to`. */
function copyFd(from: number, to: number): void {
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let pos = 0; ; ) {
    const n = readSync(from, buf, 0, buf.length, pos);
    if (n === 0) break;
    for (let off = 0; off < n; ) off += writeSync(to, buf, off, n - off);
    pos += n;
  }
}

/** fsync the directory `dir`, so that a rename in it is durable too (best effort). */
function syncDirectory(dir: string): void {
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {}
}

/**
 * Replace `path` by its canonical form, atomically. The original is kept when a line is invalid
 * (unless --keep-invalid).
 */
export async function inPlace(path: string, args: LineOptions, stats: Stats): Promise<void> {
  const before = stats.invalid;
  const st = statSync(path);
  if (st.isDirectory()) throw isDirectoryError(path);
  const dir = dirname(path);
  let fd = openAnonymous(dir);
  let named: string | null = null;
  if (fd === null) {
    named = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
    fd = openSync(named, "wx", 0o600);
    pendingTemp = named;
  }
  try {
    const sink = new Sink(fd);
    for await (const chunk of canonicalLines(createReadStream(path), path, args, stats)) await sink.write(chunk);
    await sink.flush();
    if (stats.invalid > before && !args.keepInvalid) {
      process.stderr.write(`${sanitize(path)}: left unchanged: it has invalid lines (--keep-invalid copies them through)\n`);
    } else {
      fchmodSync(fd, st.mode & 0o7777);
      fsyncSync(fd);
      if (named === null) named = linkAnonymous(fd, dir, basename(path), st.mode & 0o7777);
      renameSync(named, path);
      named = null;
      pendingTemp = null;
      syncDirectory(dir);
    }
  } finally {
    try {
      closeSync(fd);
    } catch {}
    if (named !== null) {
      try {
        unlinkSync(named);
      } catch {}
    }
    pendingTemp = null;
  }
}
