#!/usr/bin/env node
// Writes a synthetic, realistic OmniMessage trace for the benchmark (not committed):
//   node bench/gen-trace.mjs OUT.jsonl [MEGABYTES=110] [SEED=1]
// A session's mix, turn after turn: requests, thinking with provider signatures in `fidelity`,
// assistant text (some of it non-ASCII), tool calls, long tool outputs (code listings, logs),
// base64 images (inline data, tool output images), token usage; a tool list with JSON Schema
// parameters after each session_meta. Every line is canonical, built by the package's builders.
import { openSync, writeSync, closeSync } from "node:fs";
import * as om from "../dist/index.js";

const [out, mb = "110", seedArg = "1"] = process.argv.slice(2);
if (!out) {
  process.stderr.write("usage: node bench/gen-trace.mjs OUT.jsonl [MEGABYTES] [SEED]\n");
  process.exit(2);
}
const target = Number(mb) * 1e6;
let seed = Number(seedArg) >>> 0 || 1;
const rnd = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};
const pick = (a) => a[Math.floor(rnd() * a.length)];
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const b64 = (n) => {
  let s = "";
  for (let i = 0; i < n; i++) s += B64[(rnd() * 64) | 0];
  return s + "=".repeat((4 - (n % 4)) % 4);
};
const WORDS = "the of and to in is that for it as with was on be by this are or from at an which file function return value error test build module config data line output result".split(" ");
const UNICODE = ["データ", "文件", "résumé", "naïve", "Straße", "😀", "🚀", "—", "“quoted”", "→", "∑", "Ελληνικά", "кириллица"];
const words = (n, uni = 0) => {
  const w = [];
  for (let i = 0; i < n; i++) w.push(uni && rnd() < uni ? pick(UNICODE) : pick(WORDS));
  return w.join(" ");
};
const codeLine = () =>
  pick([
    `  const ${pick(WORDS)}_${int(0, 99)} = await ${pick(WORDS)}(${JSON.stringify(pick(WORDS))}, { retries: ${int(0, 5)} });`,
    `def ${pick(WORDS)}_${int(0, 99)}(self, ${pick(WORDS)}: int = ${int(0, 9)}) -> "${pick(WORDS)}":`,
    `\t\treturn ${pick(WORDS)}["${pick(WORDS)}"] + ${int(0, 1000)}  # ${words(int(2, 8))}`,
    `${new Date(1.78e12 + int(0, 1e9)).toISOString()} INFO [${pick(WORDS)}] ${words(int(4, 14))}`,
    `src/${pick(WORDS)}/${pick(WORDS)}.ts:${int(1, 900)}:${int(1, 80)} - error TS${int(1000, 9999)}: ${words(int(5, 12))}`,
    `-rw-r--r--  1 ada staff  ${int(100, 99999)} Jul 18 03:10 ${pick(WORDS)}_${int(0, 999)}.${pick(["py", "ts", "md", "json"])}`,
  ]);
const toolOutput = () => {
  const lines = [];
  const n = pick([int(1, 10), int(20, 120), int(200, 900)]);
  for (let i = 0; i < n; i++) lines.push(codeLine());
  return lines.join("\n") + "\n";
};

let ms = 1.7843e12;
const ts = () => new Date((ms += int(5, 3000))).toISOString();
const fd = openSync(out, "w");
let written = 0;
let pending = [];
let pendingBytes = 0;
const emit = (msg) => {
  const line = om.encode(msg) + "\n";
  pending.push(line);
  pendingBytes += line.length;
  if (pendingBytes > 1 << 22) flush();
};
const flush = () => {
  const buf = Buffer.from(pending.join(""), "utf8");
  writeSync(fd, buf);
  written += buf.length;
  pending = [];
  pendingBytes = 0;
};
const tools = ["read_file", "write_file", "bash", "search", "list_files", "web_fetch", "edit"].map((name) =>
  om.toolDefinition(name, words(int(8, 30)), {
    type: "object",
    properties: { path: { type: "string", description: words(6) }, limit: { type: "integer", minimum: 1 } },
    required: ["path"],
  }),
);

let session = 0;
while (written + pendingBytes < target) {
  session++;
  const sid = `session-2026-07-18-03-10-22-${(session * 2654435761 >>> 0).toString(16).padStart(8, "0")}`;
  emit(om.sessionMeta({ timestamp: ts(), sessionId: sid, provider: "anthropic", modelId: "claude-sonnet-4-5", modelContextWindow: 200000, systemPrompt: words(int(200, 1500)), agentState: "/home/ada/.penguin/agents/default", workspace: "/home/ada/src/app", source: "cli" }));
  emit(om.toolListReady(tools, { timestamp: ts() }));
  for (let turn = 0, turns = int(5, 40); turn < turns; turn++) {
    emit(om.userText(words(int(5, 80), 0.05), { timestamp: ts() }));
    for (let step = 0, steps = int(1, 6); step < steps; step++) {
      emit(om.requestBegin({ timestamp: ts() }));
      emit(om.thinking(words(int(20, 400), 0.02), { timestamp: ts(), fidelity: { signature: b64(int(200, 1400)), type: "thinking" } }));
      if (rnd() < 0.5) emit(om.assistantText(words(int(10, 300), 0.08), { timestamp: ts(), fidelity: rnd() < 0.3 ? { phase: "final", id: `msg_${b64(16)}` } : undefined }));
      const calls = int(0, 3);
      const ids = [];
      for (let c = 0; c < calls; c++) {
        const id = `toolu_${b64(22).replace(/[+/=]/g, "x")}`;
        ids.push(id);
        emit(om.toolCall(pick(tools).name, JSON.stringify({ path: `src/${pick(WORDS)}.ts`, limit: int(1, 500) }), id, { timestamp: ts() }));
        if (rnd() < 0.2) emit(om.approvalDecision(pick(["allow", "deny"]), id, { timestamp: ts() }));
      }
      emit(om.tokenUsage(om.tokenCounts({ cacheRead: int(0, 1e6), cacheWrite: int(0, 1e5), output: int(0, 8000), total: int(1, 2e6) }), om.tokenCounts({ cacheRead: int(0, 1e5), output: int(0, 4000), total: int(1, 2e5) }), { timestamp: ts() }));
      emit(om.requestEnd("completed", { timestamp: ts() }));
      for (const id of ids) {
        const images = rnd() < 0.06 ? [`data:image/png;base64,${b64(int(20000, 200000))}`] : undefined;
        emit(om.toolCallOutput(toolOutput(), id, { timestamp: ts(), images }));
      }
      if (rnd() < 0.03) emit(om.inlineData(b64(int(50000, 400000)), "image/png", { timestamp: ts() }));
      if (rnd() < 0.05) emit(om.hook("pre_tool_use", "guard", { timestamp: ts(), decision: "allow", output: { checked: true, score: rnd() } }));
    }
  }
  if (rnd() < 0.5) emit(om.compactionBegin("context", "summarize", int(150000, 190000), int(10, 90), { timestamp: ts() }));
}
flush();
closeSync(fd);
process.stderr.write(`wrote ${out}: ${(written / 1e6).toFixed(1)} MB\n`);
