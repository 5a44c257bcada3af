# ruff: noqa: E501, RUF001  (long and non-ASCII data literals are the point of this corpus)
"""Sessions of one or a few turns: a plain turn, tools with approvals, retries, aborts, hooks."""

from __future__ import annotations

from .material import SIGNATURE, TOOLS, new_session
from .payloads import compaction_begin, compaction_end, counts, hook, partial_text, text, thinking
from .session import Session


def plain_turn() -> Session:
    """One question, one answer: thinking closed by its signature, then text."""
    s = new_session("session-2026-09-14-10-41-07-3f8a1c2d", "2026-09-14T02:41:07.312Z")
    s.write_meta()
    s.user_input("Why does `pnpm dev` print \"port 5173 in use\" — and how do I pick another port?", 2841)
    s.tool_list(TOOLS, 37)                          # first run: toolset after the input (session.ts)
    s.begin(4)
    s.stream_thinking(["The user hits a port clash. ", "Vite's dev server defaults to 5173; ",
                       "`server.port` or `--port` changes it, `strictPort` decides fallback."],
                      gap=180, fidelity=SIGNATURE)
    s.stream_text(["Vite's dev server listens on **5173** by default; another process ",
                   "(often a second `pnpm dev`) already holds it.\n\n",
                   "Pick another port either way:\n\n",
                   "```sh\npnpm dev --port 5180\n```\n\n",
                   "or in `vite.config.ts`:\n\n```ts\nserver: { port: 5180, strictPort: true }\n```\n",
                   "\tWith `strictPort: true` Vite fails instead of trying 5174 — 企鹅 approves 🐧."],
                  gap=95)
    s.usage(counts(11264, 0, 402, 14013), 212)
    s.end(3)
    return s


def tools_session() -> Session:
    """Parallel tools with approvals: two allowed (outputs in completion order, one after
    request_end), one denied by the user, one forbidden by the command policy; a GPT-5 style
    encrypted-reasoning block (empty thinking, fidelity only, no partials)."""
    s = new_session("session-2026-09-14-11-02-44-9b0e7f31", "2026-09-14T03:02:44.870Z",
                    provider="openai", model_id="gpt-5.5", window=400000)
    s.write_meta()
    s.user_input("Run the tests and tell me what's failing. Clean the build dir first if needed.", 3120)
    s.tool_list(TOOLS, 41)
    s.begin(5)
    # reasoning with empty text: flushThinking still emits the complete message, no segment
    s.model(thinking("", fidelity={"id": "rs_0d3f5a9c1e7b", "encrypted_content": "gAAAAABmQ3x1Y2FpZC1yZWFzb25pbmctYmxvYg=="}), 1830)
    s.stream_text(["I'll run the test suite and look at the package manifest in parallel."], gap=60,
                  fidelity={"phase": "commentary"})
    a, b, c, d = "call_Qm3v8TbX2kLp", "call_7yHn1WcR4sZd", "call_Lk0aE5uVq9Jf", "call_Fz6pN2gYx8Mt"
    s.stream_tool_call("exec_command", a, ['{"cmd":"pnpm', ' test --', 'reporter=dot"}'])
    s.approve(a, "allow", 14)
    s.output_start(a, 9)                                 # tool A starts while the model streams on
    s.stream_tool_call("read_file", b, ['{"path":"', 'package.json"}'])
    s.approve(b, "allow", 11)
    s.output_start(b, 6)
    s.output_delta(a, "\n> tidepool@0.4.1 test /home/mira/work/tidepool\n> vitest run --reporter=dot\n\n", 40)
    s.stream_tool_call("exec_command", c, ['{"cmd":"rm -rf ', 'build dist"}'])
    s.output_delta(b, '{\n  "name": "tidepool",\n  "version": "0.4.1",\n  "scripts": {\n    "dev": "vite",\n    "test": "vitest run"\n  }\n}\n', 8)
    s.output_end(b, '{\n  "name": "tidepool",\n  "version": "0.4.1",\n  "scripts": {\n    "dev": "vite",\n    "test": "vitest run"\n  }\n}\n', 3)
    s.approve(c, "deny", 6204)                           # the human said no
    s.stream_tool_call("exec_command", d, ['{"cmd":"git push --force ', 'origin main"}'])
    s.approve(d, "forbidden", 3)                         # project command policy veto
    s.usage(counts(0, 9472, 388, 9860), 240)
    s.end(2)
    s.output_delta(a, "·····×·····\n", 2311)              # tool A keeps running after request_end
    s.output_delta(a, "\n FAIL  src/tide.test.ts > tide table > parses \"HW\" rows\n"
                      "AssertionError: expected 2 to be 3\n\n Tests  1 failed | 10 passed (11)\n", 1877)
    s.output_delta(a, "\n[exit code 1]", 12)
    full_a = ("\n> tidepool@0.4.1 test /home/mira/work/tidepool\n> vitest run --reporter=dot\n\n"
              "·····×·····\n"
              "\n FAIL  src/tide.test.ts > tide table > parses \"HW\" rows\n"
              "AssertionError: expected 2 to be 3\n\n Tests  1 failed | 10 passed (11)\n"
              "\n[exit code 1]")
    s.output_end(a, full_a, 4, "completed")
    # next turn: the outputs go back to the model in call order; nothing is re-written
    s.begin(36)
    s.stream_text(["One test fails: `src/tide.test.ts` — *parses \"HW\" rows* expects 3 rows, gets 2.\n",
                   "I didn't clean `build/` (you declined) and the force-push was blocked by the project policy."],
                  gap=70, fidelity={"phase": "final_answer"})
    s.usage(counts(9472, 1210, 96, 10874), 160)
    s.end(2)
    return s


def retries_session() -> Session:
    """A dropped stream and an idle timeout, retried in-run with a live countdown (retry_in_ms =
    2000 x 2^(n-1)), the third attempt completing; then a run ending on a fatal rejection, whose
    request_end is the terminal record (no abort event)."""
    s = new_session("session-2026-09-14-13-20-05-c41d92e0", "2026-09-14T05:20:05.004Z",
                    provider="deepseek", model_id="deepseek-v4-pro", window=1000000)
    s.write_meta()
    s.user_input("Summarise CHANGELOG.md for the 0.4 line in three bullets.", 1952)
    s.tool_list(TOOLS, 33)
    s.begin(5)
    s.stream_text(["Here is the 0.4 line in"], gap=620, stop_reason="retryable")  # cut mid-stream
    s.end(14, "retryable", error_code="network",
          error_message="terminated: other side closed (UND_ERR_SOCKET)", attempt=1, retry_in_ms=2000)
    s.begin(2003)
    s.end(120004, "retryable", error_code="timeout",
          error_message="no stream event for 120000ms (idle timeout)", attempt=2, retry_in_ms=4000)
    s.begin(4002)
    s.stream_text(["- **0.4.0** — tide tables parse the new `HW`/`LW` rows.\n",
                   "- **0.4.1** — `pnpm dev` honours `--port`.\n",
                   "- **0.4.2** — offline cache for station lists."], gap=140)
    s.usage(counts(0, 8120, 77, 8197), 180)
    s.end(2, attempt=3)
    # a second task: a deterministic provider rejection, not retried
    s.user_input("Now translate that into Japanese.", 48211)
    s.begin(6)
    s.end(811, "fatal", error_code="rejected",
          error_message="400 Bad Request: max_tokens exceeds the model's output limit (invalid_request_error)",
          attempt=1)
    return s


def abort_session() -> Session:
    """The three abort causes: a user abort mid-thinking, an abort during the reconnect backoff,
    an abort of a running tool; plus an abort during a mid-task compaction (compaction_end
    aborted, then abort compaction_interrupted)."""
    s = new_session("session-2026-09-14-14-05-51-5e6a0b17", "2026-09-14T06:05:51.440Z")
    s.write_meta()
    s.user_input("Refactor the tide parser into smaller functions.", 2210)
    s.tool_list(TOOLS, 29)
    s.begin(4)
    s.stream_thinking(["The parser has three responsibilities: ", "tokenising rows, "], gap=210,
                      stop_reason="aborted")      # finishInterrupted("aborted") closes the segment
    s.end(6, "aborted", attempt=1)
    s.event({"type": "abort", "error_code": "user_abort"}, 3)
    # task 2: the retry countdown is interrupted
    s.user_input("Try again, but only for parseRow.", 30880)
    s.begin(7)
    s.end(1602, "retryable", error_code="network", error_message="fetch failed: ECONNRESET",
          attempt=1, retry_in_ms=2000)
    s.event({"type": "abort", "error_code": "backoff_interrupted"}, 1210)
    # task 3: the user stops a running tool
    s.user_input("Just run the watcher so I can see the output.", 20115)
    s.begin(6)
    w = "toolu_01XvB7nq2cHsE4yRk9aTfW3m"
    s.stream_tool_call("exec_command", w, ['{"cmd":"pnpm vitest ', '--watch"}'], fidelity=None)
    s.approve(w, "allow", 12)
    s.output_start(w, 8)
    s.usage(counts(10240, 512, 38, 11190), 190)
    s.end(2)
    s.output_delta(w, "\n DEV  v3.2.4 /home/mira/work/tidepool\n\n ✓ src/tide.test.ts (11 tests) 38ms\n", 1490)
    s.output_delta(w, "\n[interrupted: tool aborted by user]", 8950)
    s.output_end(w, "\n DEV  v3.2.4 /home/mira/work/tidepool\n\n ✓ src/tide.test.ts (11 tests) 38ms\n"
                    "\n[interrupted: tool aborted by user]", 2, "aborted")
    s.event({"type": "abort", "error_code": "user_abort"}, 3)
    # task 4: a mid-task compaction the user interrupts
    s.user_input("Continue with the refactor.", 15003)
    s.begin(5)
    r = "toolu_01PdK3sWm8JqZ2LvNc6HbY5t"
    s.stream_tool_call("read_file", r, ['{"path":"src/tide.ts"}'])
    s.approve(r, "allow", 9)
    s.run_tool(r, ["export function parseTide(rows: string[]) {\n", "  // 240 lines\n}\n"], gap=30)
    s.usage(counts(11264, 96000, 61, 412960), 140)
    s.end(2)
    s.event(compaction_begin("context", "summarize", 412960, 7), 4)
    s.user_input("Summarise the conversation so far for a fresh context. Write it inside [summary]…[/summary].", 1)
    s.begin(2, stream=False)
    s.model(partial_text("start"), 830, trace=False)
    s.model(partial_text("delta", "[summary]\nGoal: refactor src/tide.ts into"), 260, trace=False)
    s.model(partial_text("stop", "", "aborted"), 1402, trace=False)
    s.model(text("assistant", "[summary]\nGoal: refactor src/tide.ts into", "aborted"), 1, stream=False)
    s.end(2, "aborted", attempt=1, stream=False)
    s.event(compaction_end("context", "summarize", "aborted", attempt=1), 2)
    s.event({"type": "abort", "error_code": "compaction_interrupted"}, 2)
    return s


def hooks_session() -> Session:
    """A pre_tool_use hook that only leaves a record (the normal approval follows), and the goal
    stop hook: `continue` (its injected input is the harness user text that follows), then `stop`."""
    s = new_session("session-2026-09-14-15-30-12-a7c3e9d4", "2026-09-14T07:30:12.118Z")
    s.write_meta()
    s.user_input("[goal]\nObjective: make `pnpm test` pass.\nRound 1. Update the goal file when done.\n[/goal]", 1675)
    s.tool_list(TOOLS, 31)
    s.begin(5)
    e = "toolu_01Ny6wRc3KbZ8TqLm1VfXe4H"
    s.stream_tool_call("edit_file", e, ['{"path":"src/tide.ts","old_string":"rows.slice(1)",',
                                        '"new_string":"rows.slice(0)"}'])
    s.event(hook("pre_tool_use", "audit-log", output={"logged": True, "tool": "edit_file"}), 18)
    s.approve(e, "allow", 4)
    s.run_tool(e, ["Edited src/tide.ts (1 replacement)\n@@ -41 +41 @@\n-  return rows.slice(1)\n+  return rows.slice(0)\n"], gap=25)
    s.usage(counts(9216, 1024, 140, 10620), 160)
    s.end(2)
    s.begin(30)
    s.stream_text(["Fixed the off-by-one in `parseTide`; the goal file is updated."], gap=80)
    s.usage(counts(10240, 420, 22, 10899), 150)
    s.end(2)
    s.event(hook("stop", "goal", decision="continue", reason="round 1 of at most 5: objective not complete yet",
                 output={"status": "active", "round": 1, "tokens_used": 2466, "budget": 200000}), 412)
    s.model(text("user", "[goal]\nObjective: make `pnpm test` pass.\nRound 2. Verify with `pnpm test`.\n[/goal]",
                 sender="harness"), 3)
    s.begin(8)
    v = "toolu_01AqT5mHs2XcW9eLr4PbNv7K"
    s.stream_tool_call("exec_command", v, ['{"cmd":"pnpm test"}'])
    s.event(hook("pre_tool_use", "audit-log", output={"logged": True, "tool": "exec_command"}), 15)
    s.approve(v, "allow", 3)
    s.run_tool(v, ["\n Tests  11 passed (11)\n"], gap=900, note="[exit code 0]")
    s.usage(counts(10752, 300, 35, 11330), 120)
    s.end(2)
    s.begin(28)
    s.stream_text(["All 11 tests pass. Goal complete."], gap=60)
    s.usage(counts(11008, 180, 12, 11290), 110)
    s.end(2)
    s.event(hook("stop", "goal", decision="stop", reason="goal complete after 2 rounds",
                 output={"status": "complete", "round": 2, "tokens_used": 3125, "budget": 200000}), 380)
    return s
