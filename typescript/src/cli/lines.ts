/**
 * One input re-encoded line by line: canonical lines out, each invalid line reported on stderr as
 * `FILE:LINE: category: detail (at POINTER, byte N)`, as the Python binding reports it.
 *
 * @module
 */

import { DEFAULT_MAX_LINE_BYTES, LineSplitter, encode, type DecodeError, type RawLine } from "omnimessage";
import { readLine } from "#internal";
import { canonicalDiff } from "./bytes-diff.js";
import { writeErr } from "./output.js";
import { clipText, sanitize } from "./sanitize.js";

const LF = Buffer.from("\n");

/** What the lines of a run came to, over all its inputs. */
export interface Stats {
  lines: number;
  invalid: number;
  changed: number;
}

/** How the lines are read and what becomes of invalid ones. */
export interface LineOptions {
  lenient: boolean;
  keepInvalid: boolean;
  check: boolean;
}

/** Report one invalid line on stderr; the pointer and the detail quote input, so each is clipped
 * ({@link clipText}) and sanitised, as the Python binding does. */
export async function report(err: DecodeError, name: string): Promise<void> {
  const where: string[] = [];
  if (err.pointer) where.push(`at ${clipText(err.pointer)}`);
  if (err.offset !== null) where.push(`byte ${err.offset}`);
  const suffix = where.length ? ` (${sanitize(where.join(", "))})` : "";
  // Every part from input through the one sanitiser (lone surrogates as `\udXXX`, as Python's).
  const text = `${sanitize(name)}:${err.line}: ${err.category}: ${sanitize(clipText(err.detail))}${suffix}\n`;
  await writeErr(text);
}

async function* split(stream: AsyncIterable<Uint8Array>): AsyncGenerator<RawLine> {
  const splitter = new LineSplitter(DEFAULT_MAX_LINE_BYTES);
  for await (const chunk of stream) yield* splitter.push(chunk);
  yield* splitter.end();
}

/** Output chunks (line feeds included) for one input; invalid lines reported on stderr. */
export async function* canonicalLines(stream: AsyncIterable<Uint8Array>, name: string, args: LineOptions, stats: Stats): AsyncGenerator<Uint8Array> {
  const options = { lenient: args.lenient, maxLineBytes: DEFAULT_MAX_LINE_BYTES };
  for await (const raw of split(stream)) {
    const line = readLine(raw, options);
    stats.lines++;
    if (line.error !== null) {
      stats.invalid++;
      await report(line.error, name);
      if (args.keepInvalid && line.raw.length) yield line.terminated ? Buffer.concat([line.raw, LF]) : Buffer.from(line.raw);
      continue;
    }
    if (line.message === null) throw new Error("a line with neither a message nor an error");
    const out = Buffer.from(encode(line.message), "utf8");
    if (!out.equals(line.raw)) {
      stats.changed++;
      if (args.check) {
        await writeErr(`${sanitize(name)}:${line.number}: not canonical\n`);
        // the first difference of the run, shown (the rest only named), as the Python binding does
        if (stats.changed === 1) await writeErr(canonicalDiff(line.raw, out) + "\n");
      }
    }
    yield out;
    yield LF;
  }
}
