#!/usr/bin/env node
// The OmniMessage command line, TypeScript binding: `canonicalize`, with the same behaviour,
// messages and exit codes as the Python binding's `omnimessage canonicalize`, and `testee`, the
// conformance testee (`omnimessage conformance --impl typescript` runs it).
import { once } from "node:events";
import { closeSync, constants, createReadStream, fchmodSync, fsyncSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, encode, iterMessagesSync, readLine } from "../dist/index.js";
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";

const EXIT_OK = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;
const LF = Buffer.from("\n");

const USAGE = "usage: omnimessage [-h] COMMAND ...\n";
const USAGE_CANON = "usage: omnimessage canonicalize [-h] [--in-place] [--keep-invalid] [--check] [--lenient] [FILE ...]\n";
const HELP = `${USAGE}
OmniMessage toolkit (TypeScript binding).

commands:
  canonicalize   re-encode JSON Lines canonically (strict)
  testee         answer the conformance runner on stdin/stdout (conformance/PROTOCOL.md)
`;
const HELP_CANON = `${USAGE_CANON}
positional arguments:
  FILE            input files (default: stdin; '-' is stdin)

options:
  -h, --help      show this help message and exit
  --in-place      replace each file atomically (kept as is if any line is invalid)
  --keep-invalid  copy invalid lines through unchanged instead of dropping them
  --check         write nothing; exit 1 unless every line is valid and canonical
  --lenient       pass well-formed lines the strict decoder refuses through verbatim
`;

class UsageError extends Error {}

const STRERROR = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EPERM: "Operation not permitted",
  EROFS: "Read-only file system",
  ENOSPC: "No space left on device",
  EMFILE: "Too many open files",
};

/** Write to stderr, waiting while a slow reader (a pipe) has not taken the previous reports: a
 * million refused lines must not queue up in memory. */
async function writeErr(text) {
  if (!process.stderr.write(text)) await once(process.stderr, "drain");
}

async function report(err, name) {
  const where = [];
  if (err.pointer) where.push(`at ${err.pointer}`);
  if (err.offset !== null) where.push(`byte ${err.offset}`);
  const suffix = where.length ? ` (${where.join(", ")})` : "";
  // A pointer may hold a lone surrogate, which UTF-8 cannot carry: written as Python writes it
  // to stderr (backslashreplace), `\udXXX`.
  const text = `${name}:${err.line}: ${err.category}: ${err.detail}${suffix}\n`.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16),
  );
  await writeErr(text);
}

/** Output chunks (Buffers, LF included) for one input; invalid lines reported on stderr. */
async function* canonicalLines(stream, name, args, stats) {
  const splitter = new LineSplitter(DEFAULT_MAX_LINE_BYTES);
  const options = { lenient: args.lenient, maxLineBytes: DEFAULT_MAX_LINE_BYTES };
  async function* lines() {
    for await (const chunk of stream) yield* splitter.push(chunk);
    yield* splitter.end();
  }
  for await (const split of lines()) {
    const line = readLine(split, options);
    stats.lines++;
    if (line.error !== null) {
      stats.invalid++;
      await report(line.error, name);
      if (args.keepInvalid && line.raw.length) yield line.terminated ? Buffer.concat([line.raw, LF]) : Buffer.from(line.raw);
      continue;
    }
    const out = Buffer.from(encode(line.message), "utf8");
    if (!out.equals(line.raw)) {
      stats.changed++;
      if (args.check) await writeErr(`${name}:${line.number}: not canonical\n`);
    }
    yield out;
    yield LF;
  }
}

/** Write chunks to a file descriptor or stdout in batches. */
class Sink {
  constructor(fd) {
    this.fd = fd;
    this.parts = [];
    this.size = 0;
  }
  async write(buf) {
    this.parts.push(buf);
    this.size += buf.length;
    if (this.size >= 1 << 20) await this.flush();
  }
  async flush() {
    if (!this.size) return;
    const data = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    if (this.fd === null) {
      if (!process.stdout.write(data)) await once(process.stdout, "drain");
    } else {
      let off = 0;
      while (off < data.length) off += writeSync(this.fd, data, off);
    }
  }
}

let pendingTemp = null;

// Linux O_TMPFILE (__O_TMPFILE | O_DIRECTORY): an anonymous file in a directory, gone if the process dies.
const O_TMPFILE = 0o20000000 | (constants.O_DIRECTORY ?? 0);

/** An anonymous file in `dir` (Linux O_TMPFILE), or null where the system or file system has none. */
function openAnonymous(dir) {
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
function linkAnonymous(fd, dir, base, mode) {
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
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let pos = 0; ; ) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      for (let off = 0; off < n; ) off += writeSync(out, buf, off, n - off);
      pos += n;
    }
    fchmodSync(out, mode);
    fsyncSync(out);
  } finally {
    closeSync(out);
  }
  return named;
}

/**
 * Replace `path` atomically, as the Python binding does: the replacement is written to an anonymous
 * file in the same directory (Linux O_TMPFILE), so a process killed mid-write, even by SIGKILL,
 * leaves no partial file; only when it is complete is it named and renamed over the target, with
 * the target's permission bits. Elsewhere a hidden named temporary file is used, removed on any
 * error or catchable signal. The original is kept when a line is invalid (unless --keep-invalid).
 */
async function inPlace(path, args, stats) {
  const before = stats.invalid;
  const st = statSync(path);
  if (st.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR", path });
  const dir = dirname(path);
  let fd = openAnonymous(dir);
  let named = null;
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
      process.stderr.write(`${path}: left unchanged: it has invalid lines (--keep-invalid copies them through)\n`);
    } else {
      fchmodSync(fd, st.mode & 0o7777);
      fsyncSync(fd);
      if (named === null) named = linkAnonymous(fd, dir, basename(path), st.mode & 0o7777);
      renameSync(named, path);
      named = null;
      pendingTemp = null;
      try {
        const dfd = openSync(dir, "r"); // make the rename durable too
        try {
          fsyncSync(dfd);
        } finally {
          closeSync(dfd);
        }
      } catch {}
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

async function canonicalize(args) {
  const stats = { lines: 0, invalid: 0, changed: 0 };
  if (args.inPlace && !args.files.length) throw new UsageError("--in-place needs file arguments");
  if (args.inPlace && args.check) throw new UsageError("--in-place and --check exclude each other");
  if (args.inPlace) {
    for (const f of args.files) await inPlace(f, args, stats);
  } else {
    const sink = new Sink(null);
    for (const f of args.files.length ? args.files : ["-"]) {
      let stream;
      if (f === "-") stream = process.stdin;
      else {
        if (statSync(f).isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR", path: f });
        stream = createReadStream(f);
        await once(stream, "open");
      }
      const name = f === "-" ? "<stdin>" : f;
      for await (const chunk of canonicalLines(stream, name, args, stats)) if (!args.check) await sink.write(chunk);
    }
    await sink.flush();
  }
  if (args.check) {
    process.stderr.write(
      `${stats.lines} lines: ${stats.lines - stats.invalid - stats.changed} canonical, ${stats.changed} not canonical, ${stats.invalid} invalid\n`,
    );
    return stats.invalid || stats.changed ? EXIT_INVALID : EXIT_OK;
  }
  return stats.invalid ? EXIT_INVALID : EXIT_OK;
}

const HELLO = "omnimessage-conformance";
const PROTOCOL = 1;

/** Answer one testee request (conformance/PROTOCOL.md): the input read as a one-line JSON Lines file. */
function handle(req) {
  const id = req.id ?? null;
  let data;
  let lenient;
  let limit;
  try {
    if (typeof req.input !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(req.input)) throw new Error("input must be base64");
    data = Buffer.from(req.input, "base64");
    lenient = (req.mode ?? "strict") === "lenient";
    limit = req.max_line_bytes ? Number(req.max_line_bytes) : DEFAULT_MAX_LINE_BYTES;
    if (!Number.isSafeInteger(limit) || limit < 0) throw new Error("max_line_bytes must be an integer");
  } catch (e) {
    return { id, result: "skipped", reason: `malformed request: ${e.message}` };
  }
  const lines = [...iterMessagesSync(data, { lenient, maxLineBytes: limit })];
  if (lines.length !== 1) return { id, result: "skipped", reason: `the input holds ${lines.length} lines; the protocol sends exactly one` };
  const line = lines[0];
  if (line.error !== null) {
    const e = line.error;
    const resp = { id, result: "refused", category: e.category, pointer: e.pointer };
    if (e.offset !== null) resp.offset = e.offset;
    resp.message = e.detail;
    return resp;
  }
  return { id, result: "encoded", output: Buffer.from(encode(line.message), "utf8").toString("base64") };
}

async function testee() {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let first = true;
  for await (const text of rl) {
    if (first) {
      first = false;
      let hello;
      try {
        hello = JSON.parse(text);
      } catch {
        hello = null;
      }
      if (!hello || hello.hello !== HELLO || hello.protocol !== PROTOCOL) {
        process.stderr.write(`testee: unsupported handshake ${text}\n`);
        return EXIT_USAGE;
      }
      process.stdout.write(JSON.stringify({ hello: HELLO, protocol: PROTOCOL, implementation: "omnimessage-typescript", version: pkg.version }) + "\n");
      continue;
    }
    if (!text.trim()) continue;
    let resp;
    try {
      resp = handle(JSON.parse(text));
    } catch (e) {
      resp = { id: null, result: "skipped", reason: `malformed request: ${e.message}` };
    }
    if (!process.stdout.write(JSON.stringify(resp) + "\n")) await once(process.stdout, "drain");
  }
  return EXIT_OK;
}

function parseCanonicalize(argv) {
  const args = { files: [], inPlace: false, keepInvalid: false, check: false, lenient: false, help: false };
  const unknown = [];
  let positional = false;
  for (const a of argv) {
    if (positional || a === "-" || !a.startsWith("-")) args.files.push(a);
    else if (a === "--") positional = true;
    else if (a === "--in-place") args.inPlace = true;
    else if (a === "--keep-invalid") args.keepInvalid = true;
    else if (a === "--check") args.check = true;
    else if (a === "--lenient") args.lenient = true;
    else if (a === "-h" || a === "--help") args.help = true;
    else unknown.push(a);
  }
  return { args, unknown };
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === "-h" || command === "--help") {
    process.stdout.write(HELP);
    return EXIT_OK;
  }
  if (command === "testee" && rest.length === 0) return testee();
  if (command !== "canonicalize") {
    process.stderr.write(USAGE);
    process.stderr.write(
      command === undefined
        ? "omnimessage: error: the following arguments are required: COMMAND\n"
        : `omnimessage: error: argument COMMAND: invalid choice: '${command}' (choose from 'canonicalize', 'testee')\n`,
    );
    return EXIT_USAGE;
  }
  const { args, unknown } = parseCanonicalize(rest);
  if (args.help) {
    process.stdout.write(HELP_CANON);
    return EXIT_OK;
  }
  if (unknown.length) {
    process.stderr.write(USAGE);
    process.stderr.write(`omnimessage: error: unrecognized arguments: ${unknown.join(" ")}\n`);
    return EXIT_USAGE;
  }
  try {
    return await canonicalize(args);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(USAGE);
      process.stderr.write(`omnimessage: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e && e.code === "EPIPE") return EXIT_OK;
    if (e && typeof e.code === "string" && e.syscall !== undefined || (e && e.code === "EISDIR")) {
      process.stderr.write(`omnimessage: ${e.path ?? ""}: ${STRERROR[e.code] ?? e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}

function cleanupAndExit(code) {
  if (pendingTemp !== null) {
    try {
      unlinkSync(pendingTemp);
    } catch {}
  }
  process.exit(code);
}

process.on("SIGINT", () => cleanupAndExit(130));
process.on("SIGTERM", () => cleanupAndExit(143));
process.stdout.on("error", (e) => {
  if (e.code === "EPIPE") cleanupAndExit(EXIT_OK);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`omnimessage: internal error: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 70;
  },
);
