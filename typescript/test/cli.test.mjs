import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, readlinkSync, writeFileSync, statSync, chmodSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HAVE_SUITE, cases, inputBytes } from "./support/conformance.mjs";

const BIN = fileURLToPath(new URL("../bin/omnimessage.mjs", import.meta.url));
const run = (args, input) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, maxBuffer: 1 << 30 });
  return { code: r.status, out: r.stdout, err: r.stderr.toString() };
};
const TS = "2026-07-18T03:10:22.531Z";
const GOOD = `{"timestamp":"${TS}","type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity": {"sig" : "a\\/b", "n":1.0, "n":1E2}}}`;
const GOOD_OUT = `{"timestamp":"${TS}","type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"sig" : "a\\/b", "n":1.0, "n":1E2}}}`;
const CANON = `{"timestamp":"${TS}","type":"event_msg","payload":{"type":"request_begin"}}`;
const BAD = '{"timestamp":"t","type":"event_msg","payload":{"type":"request_end","status":"failed"}}';
const MIXED = `${CANON}\n${GOOD}\n${BAD}\n\n${CANON}`;

describe("omnimessage.mjs canonicalize", () => {
  test("a canonical file with every payload kind and every verbatim torture case comes back byte-identical", { skip: !HAVE_SUITE && "no conformance suite" }, () => {
    const lines = cases()
      .filter((c) => (c.group === "roundtrip" || c.group === "verbatim") && c.input.file)
      .map((c) => inputBytes(c.input));
    const file = Buffer.concat(lines);
    assert.ok(lines.length > 400);
    const r = run(["canonicalize"], file);
    assert.equal(r.err, "");
    assert.equal(r.code, 0);
    assert.ok(r.out.equals(file));
  });

  test("every invalid conformance case is refused with its category", { skip: !HAVE_SUITE && "no conformance suite" }, () => {
    const rejections = cases().filter((c) => c.group === "rejection" && !c.max_line_bytes);
    // One-line cases go through one run, one line each; the others (torn lines, bytes) alone.
    const single = rejections.filter((c) => {
      const b = inputBytes(c.input);
      return b.indexOf(10) === b.length - 1;
    });
    const r = run(["canonicalize"], Buffer.concat(single.map((c) => inputBytes(c.input))));
    assert.equal(r.code, 1);
    assert.equal(r.out.length, 0);
    const reported = r.err.trimEnd().split("\n");
    assert.equal(reported.length, single.length);
    single.forEach((c, i) => assert.match(reported[i], new RegExp(`^<stdin>:${i + 1}: ${c.expect.category}: `), c.id));
    for (const c of rejections.filter((c) => !single.includes(c))) {
      const one = run(["canonicalize"], inputBytes(c.input));
      assert.equal(one.code, 1, c.id);
      assert.match(one.err, new RegExp(`^<stdin>:1: ${c.expect.category}: `), c.id);
    }
  });

  test("stdin to stdout: invalid lines reported, valid ones written, exit 1", () => {
    const r = run(["canonicalize"], MIXED);
    assert.equal(r.code, 1);
    assert.equal(r.out.toString(), `${CANON}\n${GOOD_OUT}\n${CANON}\n`);
    assert.equal(
      r.err,
      "<stdin>:3: invalid_value: 'failed' is not allowed here (at /payload/status, byte 77)\n<stdin>:4: invalid_json: empty line: no JSON value (byte 0)\n",
    );
  });

  test("a torn last line is truncated; earlier lines are kept", () => {
    const r = run(["canonicalize"], `${CANON}\n{"timestamp":"t","type":"ev`);
    assert.equal(r.code, 1);
    assert.equal(r.out.toString(), CANON + "\n");
    assert.equal(r.err, "<stdin>:2: truncated: last line has no line feed and does not decode (invalid_json: unterminated string) (byte 24)\n");
  });

  test("--check writes nothing and counts", () => {
    const r = run(["canonicalize", "--check"], MIXED);
    assert.equal(r.code, 1);
    assert.equal(r.out.length, 0);
    assert.match(r.err, /<stdin>:2: not canonical\n/);
    assert.match(r.err, /5 lines: 2 canonical, 1 not canonical, 2 invalid\n$/);
    assert.equal(run(["canonicalize", "--check"], CANON + "\n").code, 0);
  });

  test("--keep-invalid copies invalid lines; --lenient passes refused objects through", () => {
    assert.equal(run(["canonicalize", "--keep-invalid"], MIXED).out.toString(), `${CANON}\n${GOOD_OUT}\n${BAD}\n${CANON}\n`);
    const lenient = run(["canonicalize", "--lenient"], `${BAD}\n{"a":1,"a":2}\n`);
    assert.equal(lenient.code, 0);
    assert.equal(lenient.out.toString(), `${BAD}\n{"a":1,"a":2}\n`);
  });

  test("--in-place: replaced atomically, mode kept; left alone when a line is invalid", () => {
    const dir = mkdtempSync(join(tmpdir(), "om-cli-"));
    const f = join(dir, "t.jsonl");
    writeFileSync(f, `${GOOD}\n`);
    chmodSync(f, 0o640);
    const r = run(["canonicalize", "--in-place", f]);
    assert.equal(r.code, 0, r.err);
    assert.equal(readFileSync(f, "utf8"), `${GOOD_OUT}\n`);
    assert.equal(statSync(f).mode & 0o777, 0o640);
    writeFileSync(f, MIXED);
    const bad = run(["canonicalize", "--in-place", f]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /left unchanged: it has invalid lines/);
    assert.equal(readFileSync(f, "utf8"), MIXED);
    assert.deepEqual(readdirSync(dir), ["t.jsonl"]);
  });

  test("a slow reader of stderr holds the reports back: memory stays flat", { skip: !existsSync("/proc/self/status") && "no /proc" }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "om-cli-"));
    const f = join(dir, "empty-lines.jsonl");
    const n = 400_000;
    writeFileSync(f, "\n".repeat(n));
    const child = spawn(process.execPath, [BIN, "canonicalize", f], { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.pause();
    // Not read for 2 s: unless the CLI waits for the pipe, ~30 MB of reports queue up in its memory.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const peakMiB = Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
    let lines = 0;
    child.stderr.on("data", (chunk) => {
      for (const b of chunk) if (b === 10) lines++;
    });
    child.stderr.resume();
    const [code] = await once(child, "close");
    rmSync(dir, { recursive: true });
    assert.equal(code, 1);
    assert.equal(lines, n);
    assert.ok(peakMiB < 100, `peak RSS ${peakMiB.toFixed(0)} MiB while stderr was not read`);
  });

  test("--in-place without `ln` (no way to name the anonymous file): copied into place, just as atomic", () => {
    const dir = mkdtempSync(join(tmpdir(), "om-cli-"));
    const f = join(dir, "t.jsonl");
    writeFileSync(f, `${GOOD}\n`);
    chmodSync(f, 0o604);
    const r = spawnSync(process.execPath, [BIN, "canonicalize", "--in-place", f], { env: { PATH: "" } });
    assert.equal(r.status, 0, String(r.stderr));
    assert.equal(readFileSync(f, "utf8"), `${GOOD_OUT}\n`);
    assert.equal(statSync(f).mode & 0o777, 0o604);
    assert.deepEqual(readdirSync(dir), ["t.jsonl"]);
    rmSync(dir, { recursive: true });
  });

  for (const sig of ["SIGKILL", "SIGTERM"]) {
    test(`--in-place killed mid-write (${sig}): the original or the complete new file, and nothing else`, { skip: !existsSync("/proc/self/fd") && "no /proc" }, async () => {
      const dir = mkdtempSync(join(tmpdir(), "om-cli-"));
      const f = join(dir, "big.jsonl");
      const nonCanon = `{ "type":"event_msg","payload":{"type":"request_begin"},"timestamp":"${TS}"}\n`;
      const original = nonCanon.repeat(400_000); // ~40 MB: takes a few seconds to rewrite
      writeFileSync(f, original);
      const child = spawn(process.execPath, [BIN, "canonicalize", "--in-place", f], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (c) => (stderr += c));
      const closed = once(child, "close");
      // Wait until the replacement is being written: an anonymous file open in the directory.
      let writing = false;
      for (let i = 0; i < 3000 && !writing && child.exitCode === null; i++) {
        try {
          writing = readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
            try {
              const target = readlinkSync(`/proc/${child.pid}/fd/${fd}`);
              return target.startsWith(dir) && target.endsWith("(deleted)");
            } catch {
              return false;
            }
          });
        } catch {}
        if (!writing) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(writing, "never saw the replacement being written");
      await new Promise((resolve) => setTimeout(resolve, 200));
      child.kill(sig);
      await closed;
      const now = readFileSync(f, "utf8");
      const canonical = `{"timestamp":"${TS}","type":"event_msg","payload":{"type":"request_begin"}}\n`.repeat(400_000);
      assert.ok(now === original || now === canonical, `a partial file: ${now.length} bytes`);
      assert.deepEqual(readdirSync(dir), ["big.jsonl"]);
      assert.doesNotMatch(stderr, /\n\s+at |internal error/);
      rmSync(dir, { recursive: true });
    });
  }

  test("usage and file errors exit 2", () => {
    assert.equal(run([]).code, 2);
    assert.equal(run(["frobnicate"]).code, 2);
    assert.equal(run(["canonicalize", "--bogus"]).code, 2);
    assert.equal(run(["canonicalize", "--in-place"]).code, 2);
    const missing = run(["canonicalize", "/nonexistent/x.jsonl"]);
    assert.equal(missing.code, 2);
    assert.equal(missing.err, "omnimessage: /nonexistent/x.jsonl: No such file or directory\n");
    assert.equal(run(["canonicalize", "--help"]).code, 0);
  });

  test("calls itself omnimessage-ts, its installed name, in its usage", () => {
    assert.ok(run(["--help"]).out.toString().startsWith("usage: omnimessage-ts [-h] [--version] COMMAND ...\n"));
    assert.ok(run(["canonicalize", "--help"]).out.toString().startsWith("usage: omnimessage-ts canonicalize [-h]"));
    const bogus = run(["canonicalize", "--bogus"]);
    assert.ok(bogus.err.startsWith("usage: omnimessage-ts canonicalize [-h]"), bogus.err);
    assert.ok(bogus.err.includes("omnimessage-ts canonicalize: error: unrecognized arguments: --bogus"), bogus.err);
    assert.ok(run(["frobnicate"]).err.includes("omnimessage-ts: error: argument COMMAND: invalid choice"));
  });
});

describe("omnimessage.mjs testee", () => {
  test("speaks the conformance testee protocol", () => {
    const reqs = [
      { hello: "omnimessage-conformance", protocol: 1 },
      { id: "a", input: Buffer.from(GOOD + "\n").toString("base64") },
      { id: "b", input: Buffer.from(BAD).toString("base64") },
      { id: "c", input: Buffer.from(BAD).toString("base64"), mode: "lenient" },
      { id: "d", input: Buffer.from(CANON).toString("base64"), max_line_bytes: 10 },
      { id: "e", input: "not base64!" },
    ];
    const r = run(["testee"], reqs.map((x) => JSON.stringify(x)).join("\n") + "\n");
    assert.equal(r.code, 0, r.err);
    const [hello, a, b, c, d, e] = r.out.toString().trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(hello.implementation, "omnimessage-typescript");
    assert.deepEqual(a, { id: "a", result: "encoded", output: Buffer.from(GOOD_OUT).toString("base64") });
    // A complete but invalid last line without LF keeps its own category (only a torn one is truncated).
    assert.deepEqual(b, { id: "b", result: "refused", category: "invalid_value", pointer: "/payload/status", offset: 77, message: "'failed' is not allowed here" });
    assert.deepEqual(c, { id: "c", result: "encoded", output: Buffer.from(BAD).toString("base64") });
    assert.equal(d.category, "too_large");
    assert.equal(e.result, "skipped");
  });
});

describe("the package's bin", () => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const target = fileURLToPath(new URL(`../${pkg.bin["omnimessage-ts"]}`, import.meta.url));

  test("is the built CLI (src/cli/, strict TypeScript) that bin/omnimessage.mjs runs", () => {
    assert.ok(target.includes(`${join("dist", "cli")}`), target);
    assert.ok(readFileSync(target, "utf8").startsWith("#!/usr/bin/env node\n"));
    const direct = spawnSync(process.execPath, [target, "canonicalize", "--check"], { input: MIXED });
    const shim = run(["canonicalize", "--check"], MIXED);
    assert.equal(direct.status, 1);
    assert.equal(direct.stderr.toString(), shim.err);
    assert.equal(spawnSync(process.execPath, [target, "--help"]).stdout.toString(), run(["--help"]).out.toString());
  });

  test("its testee reports the package's version in the handshake", () => {
    const hello = JSON.stringify({ hello: "omnimessage-conformance", protocol: 1 }) + "\n";
    const r = spawnSync(process.execPath, [target, "testee"], { input: hello });
    assert.equal(r.status, 0, r.stderr.toString());
    assert.deepEqual(JSON.parse(r.stdout.toString()), {
      hello: "omnimessage-conformance",
      protocol: 1,
      implementation: "omnimessage-typescript",
      version: pkg.version,
    });
  });
});
