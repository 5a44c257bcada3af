/**
 * `omnimessage canonicalize [--in-place] [--keep-invalid] [--check] [--lenient] [FILE...]`: strict
 * re-encoding to canonical form, with the behaviour, messages and exit codes of the Python binding.
 *
 * @module
 */

import { readStream } from "./files.js";
import { inPlace } from "./in-place.js";
import { canonicalLines, type Stats } from "./lines.js";
import { Sink } from "./output.js";
import { EXIT_INVALID, EXIT_OK, UsageError, type CanonicalizeArgs } from "./usage.js";

/** An input opened for reading: stdin for `-`; a FIFO or pipe named here is read as stdin is
 * (`<(zcat t.gz)`), a device or a socket is refused ({@link readStream}). */
async function open(file: string): Promise<AsyncIterable<Uint8Array>> {
  if (file === "-") return process.stdin;
  return readStream(file);
}

/** Run `canonicalize`; its exit code. */
export async function canonicalize(args: CanonicalizeArgs): Promise<number> {
  const stats: Stats = { lines: 0, invalid: 0, changed: 0 };
  if (args.inPlace && !args.files.length) throw new UsageError("--in-place needs file arguments");
  if (args.inPlace && args.check) throw new UsageError("--in-place and --check exclude each other");
  if (args.inPlace) {
    for (const f of args.files) await inPlace(f, args, stats);
  } else {
    const sink = new Sink(null);
    for (const f of args.files.length ? args.files : ["-"]) {
      const stream = await open(f);
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
