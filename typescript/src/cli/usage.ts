/**
 * The command line's words: help texts, exit codes and the arguments of `canonicalize`, parsed as
 * the Python binding's argparse parser reads them (same messages, same exit codes).
 *
 * @module
 */

import { readFileSync } from "node:fs";

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** The command's name as installed (package.json `bin`); `omnimessage` is the Python command. */
export const PROG = "omnimessage-ts";
export const USAGE = `usage: ${PROG} [-h] [--version] COMMAND ...\n`;
export const USAGE_CANON = `usage: ${PROG} canonicalize [-h] [--in-place] [--keep-invalid] [--check] [--lenient] [FILE ...]\n`;
export const HELP = `${USAGE}
OmniMessage toolkit (TypeScript binding).

commands:
  canonicalize   re-encode JSON Lines canonically (strict)
  restore        print a session's model context, restored from its trace
  testee         answer the conformance runner on stdin/stdout (conformance/TESTEE-PROTOCOL.md)

options:
  -h, --help     show this help message and exit
  --version      show the package version and exit
`;

/** The version in this package's package.json (`omnimessage --version`; dist/cli/ is two levels below it). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
  return String(pkg.version);
}
export const HELP_CANON = `${USAGE_CANON}
positional arguments:
  FILE            input files (default: stdin; '-' is stdin)

options:
  -h, --help      show this help message and exit
  --in-place      replace each file atomically (kept as is if any line is invalid
                  or it changed while read; symbolic links and hard-linked
                  files are refused)
  --keep-invalid  copy invalid lines through unchanged instead of dropping them
  --check         write nothing; exit 1 unless every line is valid and canonical
  --lenient       pass well-formed lines the strict decoder refuses through verbatim

A FILE may be a regular file, or a FIFO or pipe (\`<(zcat t.gz)\`, read as stdin
is); a device or a socket is refused. Pointers and details quoted from input are
clipped to 200 characters.

--in-place replaces only a regular file with a single link, keeping its mode,
owner and group: a symbolic link is refused (give the file it points to; the
link is never replaced by a copy), as is a file with other hard links
(canonicalize to standard output instead). A file that changed while it was
read (a trace still being written: its size, times or inode differ just before
the rename) is left untouched, exit 2. Every refusal and write error names the
file.
`;

/** A misuse found after parsing (conflicting options): exit 2 with the usage line. */
export class UsageError extends Error {}

/** The options of `canonicalize`. */
export interface CanonicalizeArgs {
  files: string[];
  inPlace: boolean;
  keepInvalid: boolean;
  check: boolean;
  lenient: boolean;
  help: boolean;
}

/** `canonicalize`'s arguments, and those it does not know (a usage error). */
export function parseCanonicalize(argv: readonly string[]): { args: CanonicalizeArgs; unknown: string[] } {
  const args: CanonicalizeArgs = { files: [], inPlace: false, keepInvalid: false, check: false, lenient: false, help: false };
  const unknown: string[] = [];
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
