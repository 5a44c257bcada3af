#!/usr/bin/env node
/**
 * The OmniMessage command line, TypeScript binding: `canonicalize` and `restore`, with the same
 * behaviour, messages and exit codes as the Python binding's commands of those names, and `testee`, the
 * conformance testee (`omnimessage conformance --impl typescript` runs it). The package's `bin`;
 * `bin/omnimessage.mjs` runs it from a checkout.
 *
 * @module
 */

import { canonicalize } from "./canonicalize.js";
import { didYouMean } from "./did-you-mean.js";
import { removePendingTemp } from "./in-place.js";
import { restoreCommand } from "./restore.js";
import { MAX_MESSAGE_CHARS, clipText, sanitize } from "./sanitize.js";
import { testee } from "./testee.js";
import { EXIT_OK, EXIT_USAGE, HELP, HELP_CANON, PROG, USAGE, USAGE_CANON, UsageError, packageVersion, parseCanonicalize } from "./usage.js";

/** The exit code of an internal error (EX_SOFTWARE). */
const EXIT_INTERNAL = 70;

/** strerror(3) of the errors a file argument meets, as Python prints them. */
const STRERROR: Readonly<Record<string, string>> = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EPERM: "Operation not permitted",
  EROFS: "Read-only file system",
  ENOSPC: "No space left on device",
  EMFILE: "Too many open files",
  EFBIG: "File too large",
  EIO: "Input/output error",
  EDQUOT: "Disk quota exceeded",
};

/** An argument echoed in a usage error: one clipped, harmless line. */
function echo(arg: string): string {
  return sanitize(clipText(arg, MAX_MESSAGE_CHARS));
}

/** What a thrown system error (or our `EISDIR`) may carry. */
interface SystemError {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  message?: unknown;
}

/** The exit code for an error `canonicalize` threw, reported on stderr; undefined for a bug. */
function failure(e: unknown): number | undefined {
  if (e instanceof UsageError) {
    process.stderr.write(USAGE);
    process.stderr.write(`omnimessage: ${e.message}\n`);
    return EXIT_USAGE;
  }
  const err = typeof e === "object" && e !== null ? (e as SystemError) : null;
  if (err === null) return undefined;
  if (err.code === "EPIPE") return EXIT_OK;
  if ((typeof err.code === "string" && err.syscall !== undefined) || err.code === "EISDIR") {
    const why = typeof err.code === "string" ? STRERROR[err.code] : undefined;
    process.stderr.write(`omnimessage: ${sanitize(String(err.path ?? ""))}: ${sanitize(String(why ?? err.message))}\n`);
    return EXIT_USAGE;
  }
  return undefined;
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "-h" || command === "--help") {
    process.stdout.write(HELP);
    return EXIT_OK;
  }
  if (command === "--version") {
    process.stdout.write(`omnimessage ${packageVersion()}\n`);
    return EXIT_OK;
  }
  if (command === "testee" && rest.length === 0) return testee();
  if (command === "restore") return reported(() => restoreCommand(rest));
  if (command !== "canonicalize") {
    process.stderr.write(USAGE);
    process.stderr.write(
      command === undefined
        ? `${PROG}: error: the following arguments are required: COMMAND\n`
        : `${PROG}: error: argument COMMAND: invalid choice: '${echo(command)}' (choose from 'canonicalize', 'restore', 'testee')\n`,
    );
    return EXIT_USAGE;
  }
  const { args, unknown } = parseCanonicalize(rest);
  if (args.help) {
    process.stdout.write(HELP_CANON);
    return EXIT_OK;
  }
  if (unknown.length) {
    process.stderr.write(USAGE_CANON);
    const options = ["-h", "--help", "--in-place", "--keep-invalid", "--check", "--lenient"];
    process.stderr.write(`${PROG} canonicalize: error: ${echo(`unrecognized arguments: ${unknown.join(" ")}${didYouMean(unknown, options)}`)}\n`);
    return EXIT_USAGE;
  }
  return reported(() => canonicalize(args));
}

/** A command's exit code, the errors `failure` knows reported on stderr; a bug is thrown on. */
async function reported(command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } catch (e) {
    const code = failure(e);
    if (code === undefined) throw e;
    return code;
  }
}

function cleanupAndExit(code: number): never {
  removePendingTemp();
  process.exit(code);
}

process.on("SIGINT", () => cleanupAndExit(130));
process.on("SIGTERM", () => cleanupAndExit(143));
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") cleanupAndExit(EXIT_OK);
  // a full disk behind stdout: named, as the Python binding names it
  const why = (typeof e.code === "string" ? STRERROR[e.code] : undefined) ?? e.message;
  process.stderr.write(`omnimessage: <stdout>: ${sanitize(String(why))}\n`);
  cleanupAndExit(EXIT_USAGE);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const stack = typeof e === "object" && e !== null && "stack" in e && e.stack ? e.stack : e;
    process.stderr.write(`omnimessage: internal error: ${String(stack)}\n`);
    process.exitCode = EXIT_INTERNAL;
  },
);
