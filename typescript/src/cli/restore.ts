/**
 * `omnimessage-ts restore ROOT SESSION_ID [--lenient]`: a session's current model context as JSON
 * Lines, the same bytes on stdout, the same notes and errors on stderr and the same exit codes as
 * the Python binding's `omnimessage restore` (python/omnimessage/cli/restore.py).
 *
 * @module
 */

import { PROVIDERS, project, type Provider } from "omnimessage";
import { RestoreError, TraceRootError, restore } from "omnimessage/restore";
import { didYouMean } from "./did-you-mean.js";
import { Sink, writeErr } from "./output.js";
import { MAX_MESSAGE_CHARS, clipText, sanitize } from "./sanitize.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, PROG } from "./usage.js";

export const USAGE_RESTORE = `usage: ${PROG} restore [-h] [--lenient] [--to {${PROVIDERS.join(",")}}] ROOT SESSION_ID\n`;
const USAGE_SHORT = `usage: ${PROG} restore [OPTIONS] ... ('${PROG} restore --help' lists the options)\n`;
export const HELP_RESTORE = `${USAGE_RESTORE}
Print the model context a resume of SESSION_ID rebuilds from the trace root ROOT,
as the reference harness does: the newest trace file's committed history, then
its carry-over input, one message per line, each the trace line's exact bytes
(fidelity included). Pairing placeholders the reference synthesizes are printed
too and named on standard error, as are skipped blank or torn lines and lines of
an older release read as their successor (a legacy trace). A context closed by a
completed compaction prints nothing and says so on standard error.
Anything wrong or missing (no such session, a line that does not decode, no
session_meta) is one line on standard error naming the file and line, exit
status 1.

positional arguments:
  ROOT        the trace root (<yyyy-mm-dd>/<session_id>_<NNN>.jsonl)
  SESSION_ID  the session to restore

options:
  -h, --help  show this help message and exit
  --lenient   read events of a newer protocol version as opaque (they never
              enter the context)
  --to P      print the request body of provider P (${PROVIDERS.join(", ")})
              instead: JSON on one line; each thing it cannot carry is a line
              'loss: message N POINTER: REASON' on standard error (N counts the
              context's messages from 0)
`;

/** The parsed arguments of `restore`. */
interface RestoreArgs {
  root: string;
  sessionId: string;
  lenient: boolean;
  to: Provider | null;
}

/** `restore`'s arguments, or the exit code of a usage error or of `--help` (already written). */
function parse(argv: readonly string[]): RestoreArgs | number {
  const positional: string[] = [];
  const unknown: string[] = [];
  let lenient = false;
  let to: string | null = null;
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (rest || a === "-" || !a.startsWith("-")) positional.push(a);
    else if (a === "--") rest = true;
    else if (a === "--lenient") lenient = true;
    else if (a === "--to" || a.startsWith("--to=")) {
      const value = a === "--to" ? argv[++i] : a.slice(5);
      if (value === undefined) return usage("argument --to: expected one argument");
      to = value;
    }
    else if (a === "-h" || a === "--help") {
      process.stdout.write(HELP_RESTORE);
      return EXIT_OK;
    } else unknown.push(a);
  }
  if (positional.length < 2) {
    const missing = ["ROOT", "SESSION_ID"].slice(positional.length).join(", ");
    process.stderr.write(`${USAGE_RESTORE}${PROG} restore: error: the following arguments are required: ${missing}\n`);
    return EXIT_USAGE;
  }
  if (to !== null && !(PROVIDERS as readonly string[]).includes(to)) {
    return usage(`argument --to: invalid choice: '${sanitize(clipText(to, MAX_MESSAGE_CHARS))}' (choose from ${PROVIDERS.map((p) => `'${p}'`).join(", ")})`);
  }
  unknown.push(...positional.slice(2));
  if (unknown.length) {
    const message = `unrecognized arguments: ${unknown.join(" ")}${didYouMean(unknown, ["-h", "--help", "--lenient", "--to"])}`;
    process.stderr.write(`${USAGE_SHORT}${PROG} restore: error: ${sanitize(clipText(message, MAX_MESSAGE_CHARS))}\n`);
    return EXIT_USAGE;
  }
  return { root: positional[0] as string, sessionId: positional[1] as string, lenient, to: to as Provider | null };
}

function usage(message: string): number {
  process.stderr.write(`${USAGE_RESTORE}${PROG} restore: error: ${message}\n`);
  return EXIT_USAGE;
}

const LF = new Uint8Array([10]);
const utf8 = new TextEncoder();

/** Run `restore` with its arguments (after the command's name); the exit code. */
export async function restoreCommand(argv: readonly string[]): Promise<number> {
  const args = parse(argv);
  if (typeof args === "number") return args;
  const me = "omnimessage restore";
  let ctx;
  try {
    ctx = restore(args.root, args.sessionId, { lenient: args.lenient });
  } catch (e) {
    if (e instanceof RestoreError) {
      await writeErr(`${me}: ${sanitize(e.message)}\n`);
      return EXIT_INVALID;
    }
    if (e instanceof TraceRootError) {
      await writeErr(`omnimessage: ${e.path ? `${sanitize(e.path)}: ` : ""}${sanitize(e.message)}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
  const where = sanitize(ctx.path);
  for (const number of ctx.skipped) await writeErr(`${me}: ${where}:${number}: skipped (a blank or torn line)\n`);
  for (const number of ctx.retired) await writeErr(`${me}: ${where}:${number}: a retired spelling, read as its successor\n`);
  if (ctx.contextClosed) {
    const from = ctx.summaryFrom[ctx.summaryFrom.length - 1];
    const summary = from !== undefined ? `, the summary written from line ${from.line}` : "";
    await writeErr(`${me}: ${where}: the context is closed by a completed compaction: the next one starts empty${summary}\n`);
  }
  for (const item of ctx.messages) {
    if (item.line === null) await writeErr(`${me}: ${where}: a placeholder output synthesized for a tool call with no output in the trace\n`);
  }
  const out = new Sink(null);
  if (args.to !== null) {
    const { body, losses } = project(ctx, args.to);
    for (const loss of losses) await writeErr(`loss: message ${loss.message} ${sanitize(clipText(loss.pointer))}: ${sanitize(loss.reason)}\n`);
    await out.write(utf8.encode(`${JSON.stringify(body)}\n`));
    await out.flush();
    return EXIT_OK;
  }
  for (const item of ctx.messages) {
    await out.write(item.raw);
    await out.write(LF);
  }
  await out.flush();
  return EXIT_OK;
}
