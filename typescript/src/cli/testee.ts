/**
 * `omnimessage testee`: the conformance testee (conformance/TESTEE-PROTOCOL.md) on stdin/stdout, which
 * `omnimessage conformance --impl typescript` runs. Each request's input is read as a one-line
 * JSON Lines file, and answered `encoded`, `refused` or `skipped`; a request of the consumer role
 * (`"role": "consumer"`, `--role consumer`) is answered by ./testee-consumer.ts.
 *
 * @module
 */

import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { DEFAULT_MAX_LINE_BYTES, encode, iterMessagesSync } from "omnimessage";
import { handleConsumer, isConsumerRequest, type Echoed } from "./testee-consumer.js";
import { HELLO, PROTOCOL, type Answer, type Refused, type Request, type TesteeHello } from "./testee-protocol.js";
import { EXIT_OK, EXIT_USAGE } from "./usage.js";

/** A request as it arrives: any JSON value; its members are checked here before they are used. */
type Arrived = { [K in keyof Request]?: unknown };
type Response = Echoed<Answer>;

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Answer one testee request: the input read as a one-line JSON Lines file. */
export function handle(parsed: unknown): Response {
  const req = parsed as Arrived; // null throws below, as any malformed request: answered `skipped`
  const id = req.id ?? null;
  let data: Uint8Array;
  let lenient: boolean;
  let limit: number;
  try {
    if (typeof req.input !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(req.input)) throw new Error("input must be base64");
    data = Buffer.from(req.input, "base64");
    lenient = (req.mode ?? "strict") === "lenient";
    limit = req.max_line_bytes ? Number(req.max_line_bytes) : DEFAULT_MAX_LINE_BYTES;
    if (!Number.isSafeInteger(limit) || limit < 0) throw new Error("max_line_bytes must be an integer");
  } catch (e) {
    return { id, result: "skipped", reason: `malformed request: ${messageOf(e)}` };
  }
  const lines = [...iterMessagesSync(data, { lenient, maxLineBytes: limit })];
  const line = lines[0];
  // Zero bytes hold no line, and two lines are two: a malformed request (TESTEE-PROTOCOL.md), which the runner fails.
  if (lines.length !== 1 || line === undefined) return { id, result: "skipped", reason: `malformed request: the input holds ${lines.length} lines; the protocol sends exactly one` };
  if (line.error !== null) {
    const e = line.error;
    const resp: Echoed<Refused> = { id, result: "refused", category: e.category, pointer: e.pointer };
    if (e.offset !== null) resp.offset = e.offset;
    resp.message = e.detail;
    return resp;
  }
  if (line.message === null) throw new Error("a line with neither a message nor an error");
  return { id, result: "encoded", output: Buffer.from(encode(line.message), "utf8").toString("base64") };
}

/** The version in this package's package.json (dist/cli/ is two levels below it). */
function packageVersion(): string | undefined {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
  return typeof pkg.version === "string" ? pkg.version : undefined;
}

/** Whether the first line is the runner's handshake, of a protocol version this testee speaks. */
function isHello(text: string): boolean {
  let hello: { [K in keyof TesteeHello]?: unknown } | null;
  try {
    hello = JSON.parse(text) as { [K in keyof TesteeHello]?: unknown } | null;
  } catch {
    hello = null;
  }
  return !!hello && hello.hello === HELLO && hello.protocol === PROTOCOL;
}

/** Serve the runner until stdin ends; the exit code. */
export async function testee(): Promise<number> {
  const version = packageVersion();
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let first = true;
  for await (const text of rl) {
    if (first) {
      first = false;
      if (!isHello(text)) {
        process.stderr.write(`testee: unsupported handshake ${text}\n`);
        return EXIT_USAGE;
      }
      const reply: TesteeHello = { hello: HELLO, protocol: PROTOCOL, implementation: "omnimessage-typescript", ...(version === undefined ? {} : { version }) };
      process.stdout.write(JSON.stringify(reply) + "\n");
      continue;
    }
    if (!text.trim()) continue;
    let resp: Response;
    try {
      const parsed: unknown = JSON.parse(text);
      resp = isConsumerRequest(parsed) ? await handleConsumer(parsed) : handle(parsed);
    } catch (e) {
      resp = { id: null, result: "skipped", reason: `malformed request: ${messageOf(e)}` };
    }
    if (!process.stdout.write(JSON.stringify(resp) + "\n")) await once(process.stdout, "drain");
  }
  return EXIT_OK;
}
