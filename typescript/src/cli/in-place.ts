/**
 * `canonicalize --in-place`: each file replaced atomically, as the Python binding replaces it.
 *
 * The replacement is written to an anonymous file in the same directory (Linux O_TMPFILE), so a
 * process killed mid-write, even by SIGKILL, leaves no partial file; only when it is complete is it
 * named and renamed over the target, with the target's permission bits. Elsewhere a hidden named
 * temporary file is used, removed on any error or catchable signal ({@link removePendingTemp}).
 *
 * Only a regular file with one link is replaced: a symbolic link, a file with other hard links, a
 * FIFO or a device is refused (the file untouched). The replacement keeps the target's mode, owner
 * and group (fchown: root may keep another user's). The target is stat'ed again right before the
 * rename: if it changed while it was read (inode, size, modification or change time; a trace still
 * being appended) it is left as it is, with an error. Write errors (a full disk) name the file.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  createReadStream,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
  type BigIntStats,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { NotReadable, openRegular } from "./files.js";
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

/** What must not change while a file is rewritten: device, inode, size, mtime and ctime (ns). */
function identity(st: BigIntStats): string {
  return [st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join(":");
}

/** Give the replacement `fd` the owner and group of the original `st`, or refuse. */
function keepOwner(fd: number, st: BigIntStats, path: string): void {
  const mine = fstatSync(fd, { bigint: true });
  if (mine.uid === st.uid && mine.gid === st.gid) return;
  try {
    fchownSync(fd, Number(st.uid), Number(st.gid));
  } catch (e) {
    if ((e as { code?: unknown }).code !== "EPERM") throw e;
    throw new NotReadable(path, `cannot keep its owner and group (${st.uid}:${st.gid}): left unchanged`, "EOWNER");
  }
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
function linkAnonymous(fd: number, dir: string, base: string, original: BigIntStats, path: string): string {
  const mode = Number(original.mode) & 0o7777;
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
    keepOwner(out, original, path);
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
 * Replace the regular file `path` by its canonical form, atomically. The original is kept when a
 * line is invalid (unless --keep-invalid), and refused (an error naming it, the file untouched)
 * when it is a link, has other hard links, is not a regular file or changed while it was read.
 */
export async function inPlace(path: string, args: LineOptions, stats: Stats): Promise<void> {
  const before = stats.invalid;
  if (lstatSync(path).isSymbolicLink()) {
    throw new NotReadable(path, "a symbolic link: --in-place replaces only regular files, not links (give the file it points to)", "ESYMLINK");
  }
  const input = openRegular(path, { follow: false });
  let fd: number | null = null;
  let named: string | null = null;
  try {
    const original = fstatSync(input, { bigint: true });
    if (original.nlink > 1n) {
      throw new NotReadable(path, `has ${original.nlink} hard links: --in-place would split them (canonicalize to standard output instead)`, "EHARDLINK");
    }
    const mode = Number(original.mode) & 0o7777;
    const dir = dirname(path);
    fd = openAnonymous(dir);
    if (fd === null) {
      named = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
      fd = openSync(named, "wx", 0o600);
      pendingTemp = named;
    }
    const sink = new Sink(fd);
    for await (const chunk of canonicalLines(createReadStream(path, { fd: input, autoClose: false }), path, args, stats)) await sink.write(chunk);
    await sink.flush();
    if (stats.invalid > before && !args.keepInvalid) {
      process.stderr.write(`${sanitize(path)}: left unchanged: it has invalid lines (--keep-invalid copies them through)\n`);
    } else {
      keepOwner(fd, original, path);
      fchmodSync(fd, mode); // after fchown, which clears set-user-ID bits
      fsyncSync(fd);
      if (named === null) named = linkAnonymous(fd, dir, basename(path), original, path);
      if (identity(lstatSync(path, { bigint: true })) !== identity(original)) {
        throw new NotReadable(path, "changed while it was read (still being written?): left unchanged; run again when it is complete", "ECHANGED");
      }
      renameSync(named, path);
      named = null;
      pendingTemp = null;
      syncDirectory(dir);
    }
  } catch (e) {
    // a write error (a full disk, RLIMIT_FSIZE) names the file being replaced
    if (typeof e === "object" && e !== null && "syscall" in e && !("path" in e && (e as { path?: unknown }).path)) {
      Object.assign(e, { path });
    }
    throw e;
  } finally {
    for (const d of [fd, input]) {
      if (d === null) continue;
      try {
        closeSync(d);
      } catch {}
    }
    if (named !== null) {
      try {
        unlinkSync(named);
      } catch {}
    }
    pendingTemp = null;
  }
}
