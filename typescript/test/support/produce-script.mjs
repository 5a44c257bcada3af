// Replays the scripted session (examples/produce/scripted-session.ops.jsonl, written by
// python/tests/produce_script.py) through the TypeScript `Session`, as run_script does in Python.
//   node test/support/produce-script.mjs SCRIPT TRACE_ROOT STREAM_OUT [SSE_OUT]
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { decode } from "omnimessage";
import { Session, SseChannel, TraceWriter, frame } from "omnimessage/produce";

/** Replay `lines` (the script's lines); the trace goes under `root`; resolves with the stream text. */
export async function runScript(lines, root, { sse, fsync = false } = {}) {
  const stream = [];
  let clock = "";
  const sessions = new Map();
  for (let i = 0; i < lines.length; ) {
    const header = JSON.parse(lines[i]);
    const msgs = lines.slice(i + 1, i + 1 + header.n).map((l) => decode(l));
    i += 1 + header.n;
    if (msgs.length) clock = msgs[0].timestamp;
    const s = sessions.get(header.session);
    switch (header.op) {
      case "open": {
        const writer = new TraceWriter(root, header.id, { fsync });
        sessions.set(header.session, header.parent === null
          ? new Session({ trace: writer, sse, stream: (line) => stream.push(line), clock: () => clock })
          : sessions.get(header.parent).child(writer));
        break;
      }
      case "start": await s.start(msgs[0], { announce: header.announce }); break;
      case "emit": await s.emit(msgs[0]); break;
      case "record": await s.record(msgs[0]); break;
      case "context": s.newContext(msgs[0], ...msgs.slice(1)); break;
      case "close": await s.close(); break;
      default: throw new Error(`unknown op ${header.op}`);
    }
  }
  return stream.join("");
}

export function scriptLines(path) {
  return readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [script, root, streamOut, sseOut] = process.argv.slice(2);
  const sse = new SseChannel();
  const frames = [];
  sse.subscribe((evt) => frames.push(frame(evt)));
  const stream = await runScript(scriptLines(script), root, { sse });
  writeFileSync(streamOut, stream);
  if (sseOut) writeFileSync(sseOut, frames.join(""));
}
