"""Write the protocol fixtures: `python conformance/protocol/build.py` (from the repository root).

Each fixture is declared below with its input and, written by hand, the findings a validator must
report for it (rule id and line). The files are committed; this script only spares writing JSON
by hand (messages are canonicalised with the codec, so passing fixtures are byte-canonical).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from omnimessage.codec import canonicalize

HERE = Path(__file__).resolve().parent
SID = "session-2026-07-18-03-10-22-0a1b2c3d"
CHILD = "session-2026-07-18-03-11-05-4e5f6a7b"


class Fx:
    """One fixture: lines (or SSE text, or a directory), options, expected findings."""

    def __init__(self, rule: str, name: str, profile: str, about: str, **options: Any) -> None:
        self.rule, self.name, self.profile, self.about, self.options = rule, name, profile, about, options
        self.lines: list[bytes] = []
        self.expected: list[dict[str, Any]] = []
        self.ms = 1784344222000
        self.tail = b"\n"

    # -- timestamps and lines ----------------------------------------------------------
    def ts(self) -> str:
        self.ms += 7
        s, ms = divmod(self.ms, 1000)
        import datetime

        d = datetime.datetime.fromtimestamp(s, datetime.UTC)
        return d.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms:03d}Z"

    def line(self, env: str, payload: dict[str, Any], origin: list[str] | None = None, ts: str | None = None) -> int:
        obj: dict[str, Any] = {"timestamp": ts or self.ts(), "type": env, "payload": payload}
        if origin is not None:
            obj["origin"] = origin
        return self.raw(canonicalize(json.dumps(obj, ensure_ascii=False).encode()))

    def obj(self, obj: dict[str, Any]) -> int:
        """A line encoded as is (for lines the strict decoder refuses)."""
        return self.raw(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode())

    def raw(self, data: bytes) -> int:
        if b"@TS@" in data:
            data = data.replace(b"@TS@", self.ts().encode())
        self.lines.append(data)
        return len(self.lines)

    def expect(self, rule: str, line: int, **extra: Any) -> None:
        self.expected.append({"rule": rule, "line": line, **extra})

    # -- messages ----------------------------------------------------------------------
    def meta(self, sid: str = SID, origin: list[str] | None = None, **over: Any) -> int:
        p = {
            "session_id": sid, "provider": "anthropic", "model_id": "claude-sonnet-4", "model_context_window": 200000,
            "system_prompt": "You are a helpful agent.", "agent_state": "/home/agent/.agent/state",
            "workspace": "/home/agent/work", "source": "user" if origin is None else "subagent",
        }
        p.update(over)
        return self.line("session_meta", p, origin)

    def tools(self) -> int:
        return self.ev({"type": "tool_list_ready", "tools": [
            {"name": "read_file", "description": "Read a file", "parameters": {"type": "object"}}]})

    def ev(self, payload: dict[str, Any], origin: list[str] | None = None) -> int:
        return self.line("event_msg", payload, origin)

    def model(self, payload: dict[str, Any], origin: list[str] | None = None) -> int:
        return self.line("model_msg", payload, origin)

    def user(self, text: str = "list the files", origin: list[str] | None = None) -> int:
        return self.model({"type": "text", "role": "user", "text": text}, origin)

    def say(self, text: str = "Here they are.", origin: list[str] | None = None) -> int:
        return self.model({"type": "text", "role": "assistant", "text": text, "stop_reason": "completed"}, origin)

    def begin(self, origin: list[str] | None = None) -> int:
        return self.ev({"type": "request_begin"}, origin)

    def usage(self, origin: list[str] | None = None) -> int:
        c = {"cache_read": 10, "cache_write": 5, "output": 20, "total": 35}
        return self.ev({"type": "token_usage", "session": c, "request": c}, origin)

    def end(self, status: str = "completed", origin: list[str] | None = None, **extra: Any) -> int:
        return self.ev({"type": "request_end", "status": status, **extra}, origin)

    def call(self, tid: str = "toolu_1", name: str = "read_file", args: str = '{"path":"a.txt"}') -> int:
        return self.model({"type": "tool_call", "role": "assistant", "name": name, "arguments": args,
                           "tool_call_id": tid, "stop_reason": "completed"})

    def approve(self, tid: str = "toolu_1", decision: str = "allow") -> int:
        return self.ev({"type": "approval_decision", "decision": decision, "tool_call_id": tid})

    def out(self, tid: str = "toolu_1", output: str = "hello", stop: str = "completed", **extra: Any) -> int:
        return self.model({"type": "tool_call_output", "role": "user", "output": output, **extra,
                           "tool_call_id": tid, "stop_reason": stop})

    def ptext(self, et: str, text: str = "", **extra: Any) -> int:
        return self.model({"type": "partial_text", "role": "assistant", "event_type": et, "text": text, **extra})

    def pcall(self, et: str, args: str = "", tid: str = "toolu_1", name: str = "read_file") -> int:
        return self.model({"type": "partial_tool_call", "role": "assistant", "event_type": et, "name": name,
                           "arguments": args, "tool_call_id": tid})

    def pout(self, et: str, output: str = "", tid: str = "toolu_1", **extra: Any) -> int:
        return self.model({"type": "partial_tool_call_output", "role": "user", "event_type": et, "output": output,
                           **extra, "tool_call_id": tid})

    def turn(self, tid: str = "toolu_1") -> None:
        """A complete, valid turn with a tool call (trace form)."""
        self.user()
        self.begin()
        self.call(tid)
        self.usage()
        self.end()
        self.approve(tid)
        self.out(tid)
        self.begin()
        self.say()
        self.usage()
        self.end()

    def streamed_turn(self) -> None:
        """A complete, valid turn in stream form: every assistant message streamed."""
        self.user()
        self.begin()
        self.pcall("start")
        self.pcall("delta", '{"path":')
        self.pcall("delta", '"a.txt"}')
        self.pcall("stop")
        self.call()
        self.usage()
        self.end()
        self.approve()
        self.pout("start")
        self.pout("delta", "hel")
        self.pout("delta", "lo")
        self.pout("stop")
        self.out()
        self.begin()
        self.ptext("start")
        self.ptext("delta", "Here they")
        self.ptext("delta", " are.")
        self.ptext("stop", stop_reason="completed")
        self.say()
        self.usage()
        self.end()


FIXTURES: list[Any] = []


def fx(rule: str, name: str, profile: str, about: str, **options: Any) -> Fx:
    f = Fx(rule, name, profile, about, **options)
    FIXTURES.append(f)
    return f


def trace(rule: str, name: str, about: str, **options: Any) -> Fx:
    f = fx(rule, name, "trace", about, **options)
    f.meta()
    f.tools()
    return f


def stream(rule: str, name: str, about: str, **options: Any) -> Fx:
    return fx(rule, name, "stream", about, **options)


def M(env: str, payload: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A message as a dict; `@TS@` becomes the fixture's next timestamp when the line is written."""
    return {"timestamp": "@TS@", "type": env, "payload": payload, **more}



# ============================================================================ OM0xx framing
f = trace("OM001", "pass-complete-last-line", "every line, the last included, ends with a line feed")
f.turn()
f = trace("OM001", "fail-torn-last-line", "a crash left half a record without a line feed")
f.turn()
n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text","role":"us')
f.tail = b""
f.expect("OM001", n)

f = trace("OM002", "pass-final-newline", "the last line ends with a line feed")
f.user()
f = trace("OM002", "fail-no-final-newline", "the last line is complete but has no line feed")
n = f.user()
f.tail = b""
f.expect("OM002", n)

f = trace("OM003", "pass-lf", "LF line endings")
f.user()
f = trace("OM003", "fail-crlf", "one line ends with CR LF")
n = f.user()
f.lines[n - 1] += b"\r"
f.say()
f.expect("OM003", n)

f = trace("OM004", "pass-not-empty", "a trace with its session_meta")
f = fx("OM004", "fail-empty", "trace", "an empty file")
f.tail = b""
f.expect("OM004", 0)

# A crash heal (facts 9): the writer prefixes its next record with a line feed.
TORN = b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"tool_call","role":"assistant","name":"rea'
f = trace("OM005", "pass-no-crash", "a trace without a crash: every line a whole record")
f.turn()
f = trace("OM005", "fail-torn-record-mid-file", "a crash cut a record mid-request; the restarted writer healed it "
          "and began a new request (the open one is closed without a finding)")
f.user()
f.begin()
n = f.raw(TORN)
f.user("go on")
f.begin()
f.say()
f.usage()
f.end()
f.expect("OM005", n)
f = trace("OM005", "fail-torn-in-a-character", "the cut fell inside a multi-byte character of a string")
f.user()
n = f.raw('{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text","role":"user","text":"café 数'
          .encode()[:-1])
f.user()
f.expect("OM005", n)
f = trace("OM006", "pass-no-blank-line", "no empty line")
f.user()
f = trace("OM006", "fail-spurious-heal", "the writer healed a last line that was not torn: one empty line")
f.user()
n = f.raw(b"")
f.user("again")
f.expect("OM006", n)
f = trace("OM102", "fail-two-empty-lines", "two empty lines in a row: a heal writes its line feed and a record in one "
          "write, so neither is a heal's")
f.user()
n = f.raw(b"")
f.raw(b"")
f.user("again")
f.expect("OM102", n)
f.expect("OM102", n + 1)
f = trace("OM102", "fail-empty-last-line", "an empty line at the end of a file: no record followed it, so no heal "
          "explains it")
f.user()
n = f.raw(b"")
f.expect("OM102", n)
f = trace("OM102", "fail-torn-last-terminated-line", "a torn record with a line feed at the end of the file: a heal "
          "would have written a record after it")
f.user()
n = f.raw(TORN)
f.expect("OM102", n)

# ============================================================================ OM1xx schema
U = {"type": "text", "role": "user", "text": "hi"}
CB = {"type": "compaction_begin", "reason": "context", "mode": "summarize", "context": 180000, "turns": 12}
f = trace("OM101", "pass-utf8", "non-ASCII text as raw UTF-8")
f.user("naïve café 数据 ✓ 😀")
f = trace("OM101", "fail-latin1", "a Latin-1 byte inside a string; validation goes on with the next line")
n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text","role":"user",'
          b'"text":"caf\xe9"}}')
f.user()
f.expect("OM101", n)

f = trace("OM102", "pass-json", "well-formed lines")
f.user()
f = trace("OM102", "fail-syntax-in-the-middle", "a malformed line in the middle is an error; the next line is checked")
n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text",}}')
f.user()
f.expect("OM102", n)
f = stream("OM102", "fail-blank-line-in-a-stream", "an empty line between two messages of a stream (in a trace it "
           "is a crash heal, OM006)")
f.user()
n = f.raw(b"")
f.user()
f.expect("OM102", n)
f = trace("OM102", "fail-spliced-records", "two records spliced together, as concurrent writers leave them: not a "
          "torn line")
f.user()
n = f.raw(TORN + json.dumps(M("model_msg", U), separators=(",", ":")).encode())
f.user()
f.expect("OM102", n)

f = trace("OM103", "pass-one-object-per-line", "one object per line")
f.user()
f.user("again")
f = trace("OM103", "fail-two-objects-on-a-line", "two records written without a line feed between them")
a = json.dumps(M("model_msg", U), separators=(",", ":")).encode()
n = f.raw(a + a)
f.expect("OM103", n)

deep: Any = 0
for _ in range(300):
    deep = [deep]
f = trace("OM104", "pass-fidelity-300-levels", "a verbatim fidelity value nesting 300 levels")
f.model({"type": "text", "role": "assistant", "text": "ok", "stop_reason": "completed", "fidelity": {"d": deep}})
deep = 0
for _ in range(520):
    deep = [deep]
f = trace("OM104", "fail-520-levels", "nesting beyond 512 levels")
n = f.obj(M("model_msg",
            {"type": "text", "role": "assistant", "text": "ok", "stop_reason": "completed", "fidelity": {"d": deep}}))
f.expect("OM104", n)

f = trace("OM105", "pass-under-limit", "every line under the reader's limit (--max-line-bytes 2000)",
          max_line_bytes=2000)
f.user("x" * 1000)
f = trace("OM105", "fail-over-limit", "a line over the reader's limit (--max-line-bytes 2000)", max_line_bytes=2000)
n = f.user("x" * 3000)
f.user()
f.expect("OM105", n)

f = trace("OM106", "pass-unique-keys", "unique keys (duplicates inside fidelity are verbatim and fine)")
f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"thinking","role":"assistant",'
      b'"thinking":"ok","stop_reason":"completed","fidelity":{"n":1,"n":2}}}')
f = trace("OM106", "fail-duplicate-role", "the payload has `role` twice")
n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text","role":"user",'
          b'"role":"user","text":"hi"}}')
f.expect("OM106", n)

f = trace("OM107", "pass-non-bmp-character", "a character outside the BMP, written raw (a pair in UTF-16)")
f.user("😀")
f = trace("OM107", "fail-lone-surrogate", "text cut between the two halves of a surrogate pair")
n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text","role":"user",'
          b'"text":"\\ud83d"}}')
f.expect("OM107", n)
f = stream("OM107", "pass-split-pair-in-fragments", "a surrogate pair split between two deltas (JSON.stringify "
           "escapes each half): accepted in a partial's fragment field, joined in UTF-16")
f.user()
f.begin()
f.ptext("start")
a = f.ptext("delta", "smile @HI@")
b = f.ptext("delta", "@LO@ done")
f.ptext("stop", stop_reason="completed")
f.say("smile \U0001f600 done")
f.usage()
f.end()
f.lines[a - 1] = f.lines[a - 1].replace(b"@HI@", b"\\ud83d")
f.lines[b - 1] = f.lines[b - 1].replace(b"@LO@", b"\\ude00")
f = stream("OM107", "fail-lone-surrogate-in-a-complete-message", "a lone surrogate in a complete text: only the "
           "fragment field of a partial may hold one")
f.user()
n = f.say("smile @HI@")
f.lines[n - 1] = f.lines[n - 1].replace(b"@HI@", b"\\ud83d")
f.expect("OM107", n)

f = trace("OM108", "pass-integer-attempt", "`attempt` written as an integer")
f.begin()
f.usage()
f.end(attempt=2)
f = trace("OM108", "fail-attempt-1.0", "`attempt` written with a fraction")
f.begin()
f.usage()
n = f.raw(b'{"timestamp":"@TS@","type":"event_msg","payload":{"type":"request_end",'
          b'"status":"completed","attempt":1.0}}')
f.expect("OM108", n)

f = trace("OM109", "pass-string-text", "`text` is a string")
f.user()
f = trace("OM109", "fail-number-text", "`text` is a number")
n = f.obj(M("model_msg", {"type": "text", "role": "user", "text": 5}))
f.expect("OM109", n)

f = trace("OM110", "pass-all-required", "every required field present")
f.user()
f = trace("OM110", "fail-no-text", "a text payload without `text`")
n = f.obj(M("model_msg", {"type": "text", "role": "user"}))
f.expect("OM110", n)

f = trace("OM111", "pass-known-fields", "only defined keys")
f.user()
f = trace("OM111", "fail-extra-key", "a key the schema does not define")
n = f.obj(M("model_msg", {"type": "text", "role": "user", "text": "hi", "lang": "en"}))
f.user()
f.expect("OM111", n)
f = trace("OM111", "fail-retired-field-without-legacy", "`request_end.message` without --legacy")
f.begin()
f.usage()
n = f.obj(M("event_msg", {"type": "request_end", "status": "fatal", "error_code": "auth",
                                                      "error_message": "401", "message": "401"}))
f.expect("OM111", n)

f = trace("OM112", "pass-known-types", "known envelope and payload types")
f.user()
f = trace("OM112", "fail-unknown-payload-type", "payload type `video`")
n = f.obj(M("model_msg", {"type": "video", "role": "user", "url": "x"}))
f.expect("OM112", n)

f = trace("OM112", "fail-goal-finished-without-legacy", "goal mode's retired goal_finished event without --legacy")
n = f.obj(M("event_msg", {"type": "goal_finished", "outcome": "achieved", "rounds": 3, "tokens_used": 48210}))
f.expect("OM112", n)

# --lenient: a newer producer's additive fields and types (facts 11)
USAGE = {"cache_read": 10, "cache_write": 5, "output": 20, "total": 35}
f = trace("OM115", "pass-known-fields-lenient", "--lenient changes nothing for known fields", lenient=True)
f.turn()
f = trace("OM115", "fail-newer-fields", "a newer producer's cost in token_usage and prompt-prefix statistics in "
          "request_begin (--lenient): warnings, the pairing rules still run", lenient=True)
f.user()
a = f.obj(M("event_msg", {"type": "request_begin", "prefix": {"cached_tokens": 1200, "hash": "9f8e"}}))
f.say()
b = f.obj(M("event_msg", {"type": "token_usage", "session": USAGE, "request": USAGE, "cost": 0.0042}))
f.end()
f.expect("OM115", a)
f.expect("OM115", b)
f = trace("OM115", "fail-newer-field-and-a-real-error", "an unknown field is a warning, a bad value on the same line "
          "is still an error (--lenient)", lenient=True)
f.user()
f.begin()
f.say()
f.usage()
n = f.obj(M("event_msg", {"type": "request_end", "status": "finished", "duration_ms": 812}))
f.expect("OM115", n)
f.expect("OM113", n)
f = trace("OM116", "pass-known-types-lenient", "--lenient changes nothing for known types", lenient=True)
f.turn()
f = trace("OM116", "fail-newer-event-type", "an event type of a newer producer (--lenient): a warning; the request "
          "around it is still checked", lenient=True)
f.user()
f.begin()
n = f.obj(M("event_msg", {"type": "context_snapshot", "tokens": 1834}))
f.say()
f.usage()
f.end()
f.expect("OM116", n)

f = trace("OM113", "pass-enum-values", "values from the vocabularies")
f.user()
f = trace("OM113", "fail-role-system", "role `system` is not a role")
n = f.obj(M("model_msg", {"type": "text", "role": "system", "text": "hi"}))
f.expect("OM113", n)
f = trace("OM113", "fail-retired-stop-reason-without-legacy", "stop reason `failed` without --legacy")
f.begin()
f.usage()
n = f.obj(M("event_msg", {"type": "request_end", "status": "failed",
                                                      "error_code": "network", "error_message": "reset"}))
f.expect("OM113", n)

f = trace("OM114", "pass-canonical", "canonical lines")
f.user()
f = trace("OM114", "fail-spaces-and-key-order", "valid, with spaces and another key order")
n = f.raw(b'{"type": "model_msg", "timestamp": "@TS@", "payload": {"type": "text", '
          b'"role": "user", "text": "hi"}}')
f.expect("OM114", n)

# ============================================================================ OM2xx trace files
f = trace("OM201", "pass-opens-with-session-meta", "session_meta first")
f.turn()
f = fx("OM201", "fail-opens-with-text", "trace", "the file opens with a user text")
n = f.user()
f.meta()
f.expect("OM201", n)

f = trace("OM202", "pass-one-session-meta", "one session_meta")
f.turn()
f = trace("OM202", "fail-two-session-metas", "a model switch written into the same file")
f.turn()
n = f.meta(model_id="gpt-5")
f.expect("OM202", n)

f = trace("OM203", "pass-complete-messages-only", "complete messages only")
f.say()
f = trace("OM203", "fail-partials", "streamed fragments stored in a trace")
f.user()
f.begin()
a = f.ptext("start")
b = f.ptext("delta", "Here they are.")
c = f.ptext("stop", stop_reason="completed")
f.say()
f.usage()
f.end()
for n in (a, b, c):
    f.expect("OM203", n)

f = trace("OM204", "pass-subagent-pointer", "the parent holds only a subagent pointer")
f.ev({"type": "subagent", "session_id": CHILD})
f = trace("OM204", "fail-forwarded-message", "a message forwarded from a child stored in the parent trace")
f.ev({"type": "subagent", "session_id": CHILD})
n = f.user("child prompt", origin=[CHILD])
f.expect("OM204", n)

# ============================================================================ OM3xx streaming
f = stream("OM301", "pass-start-first", "every segment opens with start")
f.streamed_turn()
f = stream("OM301", "fail-delta-without-start", "the first fragment is a delta")
f.user()
f.begin()
n = f.ptext("delta", "Hi")
f.ptext("stop", stop_reason="completed")
f.say("Hi")
f.usage()
f.end()
f.expect("OM301", n)
f = stream("OM301", "fail-delta-after-stop", "a delta after the segment's stop")
f.user()
f.begin()
f.ptext("start")
f.ptext("delta", "Hi")
f.ptext("stop", stop_reason="completed")
f.say("Hi")
n = f.ptext("delta", "!")
f.expect("OM301", n)
f.expect("OM308", n)  # the segment that delta opened is never closed
f.usage()
f.end()

f = stream("OM302", "pass-sequential-segments", "two text segments one after the other")
f.user()
f.begin()
for t in ("One.", "Two."):
    f.ptext("start")
    f.ptext("delta", t)
    f.ptext("stop", stop_reason="completed")
    f.say(t)
f.usage()
f.end()
f = stream("OM302", "fail-restart", "a second start before the first segment stopped")
f.user()
f.begin()
f.ptext("start")
f.ptext("delta", "One")
n = f.ptext("start")
f.ptext("delta", "Two.")
f.ptext("stop", stop_reason="completed")
f.say("Two.")
f.usage()
f.end()
f.expect("OM302", n)

f = stream("OM303", "pass-complete-right-after-stop", "the complete text follows its stop at once")
f.streamed_turn()
f = stream("OM303", "pass-parallel-tool-outputs-interleave", "two tools run in parallel: the second tool's output "
           "lands between the first one's stop and its complete output")
f.user()
f.begin()
f.call("toolu_1")
f.call("toolu_2", args='{"path":"b.txt"}')
f.usage()
f.end()
f.pout("start", tid="toolu_1")
f.pout("start", tid="toolu_2")
f.pout("delta", "hello", tid="toolu_1")
f.pout("stop", tid="toolu_1")
f.pout("delta", "world", tid="toolu_2")
f.pout("stop", tid="toolu_2")
f.out("toolu_1", "hello")
f.out("toolu_2", "world")
f = stream("OM303", "fail-event-between-stop-and-complete", "token_usage lands between the stop and the complete")
f.user()
f.begin()
f.ptext("start")
f.ptext("delta", "Hi")
f.ptext("stop", stop_reason="completed")
n = f.usage()
f.say("Hi")
f.end()
f.expect("OM303", n)
f.expect("OM407", n + 1)  # and the text then comes after token_usage

f = stream("OM303", "pass-compaction-summary-streamed", "between compaction_begin and compaction_end the summary's "
           "partial_text segments have no complete text after their stop; each attempt's token_usage comes "
           "without request events (facts 3)")
f.user()
f.ev(CB)
for attempt in (1, 2):
    f.ptext("start")
    f.ptext("delta", f"Summary, attempt {attempt}")
    f.ptext("stop", stop_reason="completed" if attempt == 2 else "retryable")
    f.usage()
f.ev({"type": "compaction_end", "reason": "context", "mode": "summarize", "status": "completed", "attempt": 2})
f.user("go on")
f.begin()
f.say()
f.usage()
f.end()
f = stream("OM303", "pass-compaction-summary-complete-alone", "no partial carried content: the summary's complete "
           "text alone, then its token_usage")
f.ev(CB)
f.say("The summary.")
f.usage()
f.ev({"type": "compaction_end", "reason": "context", "mode": "summarize", "status": "completed", "attempt": 1})
f = stream("OM303", "fail-stop-without-complete-after-compaction", "after compaction_end a stop needs its complete "
           "message again")
f.ev(CB)
f.ev({"type": "compaction_end", "reason": "context", "mode": "summarize", "status": "completed", "attempt": 1})
f.begin()
f.ptext("start")
f.ptext("delta", "Hi")
f.ptext("stop", stop_reason="completed")
n = f.usage()
f.end()
f.expect("OM303", n)

f = stream("OM304", "pass-stop-then-complete", "stop, then the complete message")
f.streamed_turn()
f = stream("OM304", "fail-complete-before-stop", "the complete text arrives before the segment's stop")
f.user()
f.begin()
f.ptext("start")
f.ptext("delta", "Hi")
n = f.say("Hi")
f.usage()
f.end()
f.expect("OM304", n)

f = stream("OM305", "pass-joined-fragments-equal", "fragments join to the complete text, arguments and output")
f.streamed_turn()
f = stream("OM305", "fail-dropped-fragment", "the complete text has a piece no fragment carried")
f.user()
f.begin()
f.ptext("start")
f.ptext("delta", "Hel")
f.ptext("delta", "lo")
f.ptext("stop", stop_reason="completed")
n = f.say("Hello, world")
f.usage()
f.end()
f.expect("OM305", n)
f = stream("OM305", "fail-arguments-differ", "tool call fragments differ from the complete arguments")
f.user()
f.begin()
f.pcall("start")
f.pcall("delta", '{"path":"b.txt"}')
f.pcall("stop")
n = f.call()
f.usage()
f.end()
f.approve()
f.out()
f.expect("OM305", n)

f = stream("OM306", "pass-same-name", "one tool name across the segment")
f.streamed_turn()
f = stream("OM306", "pass-name-on-start-only", "the reference names the tool on the start; delta and stop carry "
           "an empty name")
f.user()
f.begin()
f.pcall("start")
f.pcall("delta", '{"path":"a.txt"}', name="")
f.pcall("stop", name="")
f.call()
f.usage()
f.end()
f.approve()
f.out()
f = stream("OM306", "fail-name-changes", "the tool name changes between fragments")
f.user()
f.begin()
f.pcall("start")
n = f.pcall("delta", '{"path":"a.txt"}', name="write_file")
f.pcall("stop")
f.call()
f.usage()
f.end()
f.approve()
f.out()
f.expect("OM306", n)
f = stream("OM306", "fail-complete-other-name", "the complete tool_call names another tool")
f.user()
f.begin()
f.pcall("start")
f.pcall("delta", '{"path":"a.txt"}')
f.pcall("stop")
n = f.call(name="write_file")
f.usage()
f.end()
f.approve()
f.out()
f.expect("OM306", n)

IMG = "data:image/png;base64,iVBORw0KGgo="
IMG2 = "data:image/png;base64,R0lGODlh"


def out_prefix(f: Fx) -> None:
    f.user()
    f.begin()
    f.call()
    f.usage()
    f.end()
    f.approve()


f = stream("OM307", "pass-images-in-one-delta", "one delta carries the images, the complete output the same")
out_prefix(f)
f.pout("start")
f.pout("delta", "shot", images=[IMG])
f.pout("stop")
f.out(output="shot", images=[IMG])
f = stream("OM307", "fail-images-on-start", "images on the start fragment")
out_prefix(f)
n = f.pout("start", images=[IMG])
f.pout("delta", "shot")
f.pout("stop")
f.out(output="shot", images=[IMG])
f.expect("OM307", n)
f = stream("OM307", "fail-images-twice", "two deltas carry images")
out_prefix(f)
f.pout("start")
f.pout("delta", "sh", images=[IMG])
n = f.pout("delta", "ot", images=[IMG2])
f.pout("stop")
f.out(output="shot", images=[IMG])
f.expect("OM307", n)
f = stream("OM307", "fail-complete-images-differ", "the complete output carries other images")
out_prefix(f)
f.pout("start")
f.pout("delta", "shot", images=[IMG])
f.pout("stop")
n = f.out(output="shot", images=[IMG2])
f.expect("OM307", n)

f = stream("OM308", "pass-closed", "every segment closed and completed")
f.streamed_turn()
f = stream("OM308", "fail-never-stopped", "the stream ends inside a segment")
f.user()
f.begin()
n = f.ptext("start")
f.ptext("delta", "Hi")
f.expect("OM308", n)
f.expect("OM420", n - 1)
f = stream("OM308", "fail-stopped-without-complete", "the stream ends right after a stop")
f.user()
f.begin()
f.ptext("start")
f.ptext("delta", "Hi")
n = f.ptext("stop", stop_reason="completed")
f.expect("OM308", n)
f.expect("OM420", n - 3)
f = stream("OM308", "fail-truncated-capture", "a capture cut on purpose (--truncated): a warning", truncated=True)
f.user()
f.begin()
n = f.ptext("start")
f.ptext("delta", "Hi")
f.expect("OM308", n, severity="warning")
f.expect("OM420", n - 1)

f = stream("OM309", "pass-no-main-session-meta", "a main stream without session_meta")
f.streamed_turn()
f = stream("OM309", "fail-main-session-meta", "the main session's session_meta on its stream")
n = f.meta()
f.streamed_turn()
f.expect("OM309", n)

# ============================================================================ OM4xx pairing
f = trace("OM401", "pass-call-then-output", "the output answers an earlier call")
f.turn()
f = trace("OM401", "fail-output-without-call", "an output whose id matches no call")
f.user()
n = f.out("toolu_9")
f.expect("OM401", n)

f = trace("OM402", "pass-one-output", "one complete output per call")
f.turn()
f = trace("OM402", "fail-two-outputs", "the same call answered twice")
f.turn()
n = f.out()
f.expect("OM402", n)

f = trace("OM403", "pass-unique-ids", "every call has its own id")
f.user()
f.begin()
f.call("toolu_1")
f.call("toolu_2")
f.usage()
f.end()
f.out("toolu_1")
f.out("toolu_2")
f = trace("OM403", "fail-reused-id", "two calls share an id")
f.user()
f.begin()
f.call("toolu_1")
n = f.call("toolu_1")
f.usage()
f.end()
f.out("toolu_1")
f.expect("OM403", n)

f = trace("OM404", "pass-approval-in-window", "approval after the call, before its output")
f.turn()
f = trace("OM404", "fail-approval-after-output", "the approval comes after the output")
f.user()
f.begin()
f.call()
f.usage()
f.end()
f.out()
n = f.approve()
f.expect("OM404", n)
f = trace("OM404", "fail-approval-without-call", "an approval for a call that never happened")
f.user()
n = f.approve("toolu_7")
f.expect("OM404", n)
f = stream("OM404", "fail-approval-after-output-started", "the approval lands after the output's first fragment")
out_prefix(f)
f.lines.pop()  # no approval before the output
f.pout("start")
n = f.approve()
f.pout("delta", "hello")
f.pout("stop")
f.out()
f.expect("OM404", n)

f = trace("OM405", "pass-denied-aborted", "a denied call gets a synthetic aborted output")
f.user()
f.begin()
f.call()
f.usage()
f.end()
f.approve(decision="deny")
f.out(output="denied by the user", stop="aborted")
f = trace("OM405", "fail-denied-completed", "a denied call's output claims completed")
f.user()
f.begin()
f.call()
f.usage()
f.end()
f.approve(decision="forbidden")
n = f.out(output="ran anyway")
f.expect("OM405", n)

f = trace("OM406", "pass-alternating", "begin, end, begin, end")
f.turn()
f = trace("OM406", "fail-begin-twice", "a second request_begin while one is open")
f.user()
f.begin()
n = f.begin()
f.usage()
f.end()
f.expect("OM406", n)
f = trace("OM406", "fail-end-without-begin", "request_end with no request open")
f.user()
n = f.end(status="aborted", error_code="user_abort", error_message="interrupted")
f.expect("OM406", n)

f = trace("OM407", "pass-usage-last", "token_usage is the last message of the model stream")
f.turn()
f = trace("OM407", "fail-usage-outside-request", "token_usage with no request open")
f.user()
n = f.usage()
f.expect("OM407", n)
f = stream("OM407", "pass-compaction-usage-on-the-stream", "the compaction attempt's token_usage rides the stream "
           "without its request events (facts 3)")
f.ev(CB)
f.say("The summary.")
f.usage()
f.ev({"type": "compaction_end", "reason": "context", "mode": "summarize", "status": "completed", "attempt": 1})
f = trace("OM407", "fail-compaction-usage-outside-request-in-a-trace", "a trace stores the compaction's request "
          "events: token_usage outside them is an error there")
f.ev(CB)
f.say("The summary.")
n = f.usage()
f.ev({"type": "compaction_end", "reason": "context", "mode": "summarize", "status": "completed", "attempt": 1})
f.expect("OM407", n)
f = trace("OM407", "fail-output-after-usage", "assistant text after the request's token_usage")
f.user()
f.begin()
f.usage()
n = f.say()
f.end()
f.expect("OM407", n)
f = trace("OM407", "fail-usage-twice", "two token_usage in one request")
f.user()
f.begin()
f.say()
f.usage()
n = f.usage()
f.end()
f.expect("OM407", n)

f = trace("OM408", "pass-usage-before-end", "a completed request reports its usage")
f.turn()
f = trace("OM408", "fail-completed-without-usage", "a completed request with no token_usage")
f.user()
f.begin()
f.say()
n = f.end()
f.expect("OM408", n)

f = trace("OM409", "pass-compaction-pair", "begin and end with the same reason and mode")
f.ev(CB)
f.ev({"type": "compaction_end", "reason": "context", "mode": "summarize", "status": "completed", "attempt": 1})
f = trace("OM409", "fail-mode-differs", "the end reports another mode")
f.ev(CB)
n = f.ev({"type": "compaction_end", "reason": "context", "mode": "discard", "status": "completed"})
f.expect("OM409", n)
f = trace("OM409", "fail-end-without-begin", "compaction_end with no compaction open")
n = f.ev({"type": "compaction_end", "reason": "manual", "mode": "summarize", "status": "completed"})
f.expect("OM409", n)

MR = {"server": "files", "transport": "stdio", "status": "completed", "duration_ms": 12.5, "tools": 4}
f = fx("OM410", "pass-mcp-pair", "trace", "begin, then end with results for listed servers")
f.meta()
f.ev({"type": "mcp_connect_begin", "servers": ["files"]})
f.ev({"type": "mcp_connect_end", "status": "completed", "results": [MR]})
f.tools()
f = fx("OM410", "fail-unlisted-server", "trace", "a result for a server the begin did not list")
f.meta()
f.ev({"type": "mcp_connect_begin", "servers": ["web"]})
n = f.ev({"type": "mcp_connect_end", "status": "completed", "results": [MR]})
f.tools()
f.expect("OM410", n)
f = fx("OM410", "fail-end-without-begin", "trace", "mcp_connect_end with no connect open")
f.meta()
n = f.ev({"type": "mcp_connect_end", "status": "completed", "results": [MR]})
f.expect("OM410", n)

f = trace("OM420", "pass-request-closed", "every request ended")
f.turn()
f = trace("OM420", "fail-request-open", "the trace ends inside a request (crash or still running)")
f.user()
n = f.begin()
f.say()
f.expect("OM420", n)

f = trace("OM421", "pass-every-call-answered", "every call has its output")
f.turn()
f = trace("OM421", "fail-call-unanswered", "a call with no output at the end")
f.user()
f.begin()
n = f.call()
f.usage()
f.end()
f.approve()
f.expect("OM421", n)

f = trace("OM422", "pass-phases-closed", "compaction closed")
f.ev(CB)
f.ev({"type": "compaction_end", "reason": "context", "mode": "summarize", "status": "completed"})
f = trace("OM422", "fail-compaction-open", "the trace ends inside a compaction")
n = f.ev(CB)
f.expect("OM422", n)
f = fx("OM422", "fail-mcp-connect-open", "trace", "the trace ends inside an MCP connect")
f.meta()
n = f.ev({"type": "mcp_connect_begin", "servers": ["files"]})
f.expect("OM422", n)

# ============================================================================ OM5xx error vocabulary
f = trace("OM501", "pass-error-on-failure", "the error pair on a failed request")
f.begin()
f.end(status="retryable", error_code="timeout", error_message="timed out", attempt=1, retry_in_ms=2000)
f = trace("OM501", "fail-error-on-completed", "a completed request carrying an error_code")
f.begin()
f.usage()
n = f.end(error_code="timeout", error_message="timed out")
f.expect("OM501", n)
f = fx("OM501", "fail-mcp-result-error-on-completed", "trace", "a completed MCP server result with an error")
f.meta()
f.ev({"type": "mcp_connect_begin", "servers": ["files"]})
n = f.ev({"type": "mcp_connect_end", "status": "completed", "results": [
    {**MR, "error_code": "connect_failed", "error_message": "spawn failed"}]})
f.tools()
f.expect("OM501", n)

f = trace("OM502", "pass-retry-on-retryable", "retry_in_ms on a retryable request_end")
f.begin()
f.end(status="retryable", error_code="network", error_message="reset", attempt=1, retry_in_ms=500)
f = trace("OM502", "fail-retry-on-fatal", "retry_in_ms on a fatal request_end")
f.begin()
n = f.end(status="fatal", error_code="auth", error_message="401", retry_in_ms=500)
f.expect("OM502", n)

CE = {"type": "compaction_end", "reason": "context", "mode": "summarize"}
f = trace("OM503", "pass-compaction-end-attempt", "a failed compaction_end reports its attempt")
f.ev(CB)
f.ev({**CE, "status": "retryable", "attempt": 3, "error_code": "timeout", "error_message": "timed out"})
f = trace("OM503", "fail-retry-on-compaction-end", "compaction_end with retry_in_ms")
f.ev(CB)
n = f.obj(M("event_msg", {**CE, "status": "retryable", "error_code": "timeout",
                                                      "error_message": "timed out", "retry_in_ms": 1000}))
f.expect("OM503", n)

f = trace("OM504", "pass-attempt-1", "attempt counts from 1")
f.begin()
f.usage()
f.end(attempt=1)
f = trace("OM504", "fail-attempt-0", "attempt 0")
f.begin()
f.usage()
n = f.obj(M("event_msg", {"type": "request_end", "status": "completed", "attempt": 0}))
f.expect("OM504", n)

f = trace("OM505", "pass-abort-code", "abort with user_abort")
f.ev({"type": "abort", "error_code": "user_abort", "error_message": "Interrupted by the user"})
f = trace("OM505", "fail-abort-timeout", "abort with the failure code timeout")
n = f.obj(M("event_msg", {"type": "abort", "error_code": "timeout",
                                                      "error_message": "timed out"}))
f.expect("OM505", n)

f = trace("OM506", "pass-full-error-pair", "code and message together")
f.begin()
f.end(status="fatal", error_code="rejected", error_message="400 bad request")
f = trace("OM506", "fail-failure-without-code", "a retryable request_end with no error_code")
f.begin()
n = f.end(status="retryable", error_message="upstream hiccup")
f.expect("OM506", n)
f = trace("OM506", "fail-code-without-message", "an aborted request_end with error_code only")
f.begin()
n = f.end(status="aborted", error_code="user_abort")
f.expect("OM506", n)

# ============================================================================ OM6xx origin and ids
f = trace("OM601", "pass-no-origin", "main-session messages have no origin")
f.user()
f = trace("OM601", "fail-empty-origin", "origin: []")
n = f.obj(M("model_msg", U, origin=[]))
f.expect("OM601", n)

f = trace("OM602", "pass-safe-ids", "reference-shaped session ids")
f.ev({"type": "subagent", "session_id": CHILD})
f = trace("OM602", "fail-traversal-subagent-id", "a subagent pointer that would leave the trace root")
n = f.ev({"type": "subagent", "session_id": "../../../etc/passwd"})
f.expect("OM602", n)
f = stream("OM602", "fail-backslash-in-origin", "an origin id with a backslash")
n = f.meta(sid="c\\1", origin=["c\\1"])
f.expect("OM602", n)
f.expect("OM602", n)  # both the origin entry and the forwarded session_meta's own id

f = stream("OM603", "pass-nested-origin", "a grandchild forwarded through its parent")
f.meta(sid="child-b", origin=["child-a", "child-b"])
f.user("hi", origin=["child-a", "child-b"])
f = stream("OM603", "fail-origin-cycle", "a session appearing twice in its chain")
n = f.meta(sid="child-a", origin=["child-a", "child-b", "child-a"])
f.expect("OM603", n)

f = stream("OM604", "pass-child-meta-owned", "the child's session_meta names the innermost origin id")
f.meta(sid=CHILD, origin=[CHILD])
f = stream("OM604", "fail-child-meta-of-another-session", "a forwarded session_meta of another session")
n = f.meta(sid=SID, origin=[CHILD])
f.expect("OM604", n)

f = stream("OM605", "pass-child-opens-with-meta", "a child stream opens with its session_meta")
f.ev({"type": "subagent", "session_id": CHILD})
f.meta(sid=CHILD, origin=[CHILD])
f.user("do it", origin=[CHILD])
f = stream("OM605", "fail-child-opens-with-text", "a child stream's first message is a text")
f.ev({"type": "subagent", "session_id": CHILD})
n = f.user("do it", origin=[CHILD])
f.expect("OM605", n)

# ============================================================================ OM70x values
f = trace("OM701", "pass-iso-utc", "toISOString timestamps, and one without milliseconds")
f.line("model_msg", U, ts="2026-07-18T03:12:00Z")
f = trace("OM701", "fail-space-separator", "a space instead of T, no Z")
n = f.line("model_msg", U, ts="2026-07-18 03:12:00")
f.expect("OM701", n)
f = trace("OM701", "fail-offset", "+00:00 instead of Z")
n = f.line("model_msg", U, ts="2026-07-18T03:12:00.000+00:00")
f.expect("OM701", n)
f = trace("OM701", "fail-february-30", "a date that does not exist")
n = f.line("model_msg", U, ts="2026-02-30T03:12:00.000Z")
f.expect("OM701", n)

f = trace("OM702", "pass-increasing", "timestamps never go backwards (equal is fine)")
f.line("model_msg", U, ts="2026-07-18T03:12:00.000Z")
f.line("model_msg", U, ts="2026-07-18T03:12:00Z")
f.line("model_msg", U, ts="2026-07-18T03:12:00.5Z")
f.line("model_msg", U, ts="2026-07-18T03:12:00.500Z")
f = trace("OM702", "fail-backwards", "a timestamp earlier than the previous one")
f.line("model_msg", U, ts="2026-07-18T03:12:00.000Z")
n = f.line("model_msg", U, ts="2026-07-18T03:11:59.999Z")
f.expect("OM702", n)

f = trace("OM703", "pass-sender-on-user-text", "sender on a user-role text")
f.model({"type": "text", "role": "user", "text": "child done", "sender": "harness"})
f = trace("OM703", "fail-sender-on-assistant", "sender on an assistant text")
n = f.model({"type": "text", "role": "assistant", "text": "hi", "stop_reason": "completed", "sender": "server"})
f.expect("OM703", n)

f = trace("OM704", "pass-data-url-images", "a data URL image and an https image_url")
f.user()
f.begin()
f.call()
f.usage()
f.end()
f.approve()
f.out(images=[IMG])
f.model({"type": "image_url", "role": "user", "image_url": "https://example.com/cat.png"})
f = trace("OM704", "fail-web-url-in-images", "a tool image that is a web URL")
f.user()
f.begin()
f.call()
f.usage()
f.end()
f.approve()
n = f.out(images=["https://example.com/cat.png"])
f.expect("OM704", n)
f = trace("OM704", "fail-file-image-url", "an image_url with a file: URL")
n = f.model({"type": "image_url", "role": "user", "image_url": "file:///etc/passwd"})
f.expect("OM704", n)

f = trace("OM705", "pass-json-arguments", "arguments hold a JSON text")
f.turn()
f = trace("OM705", "fail-broken-arguments", "arguments cut off mid-object")
f.user()
f.begin()
n = f.call(args='{"path":"a.t')
f.usage()
f.end()
f.approve()
f.out()
f.expect("OM705", n)

f = fx("OM706", "pass-absolute-paths", "trace", "POSIX and Windows absolute paths")
f.meta(workspace="C:\\Users\\agent\\work")
f.tools()
f = fx("OM706", "fail-relative-workspace", "trace", "a relative workspace path")
n = f.meta(workspace="work")
f.tools()
f.expect("OM706", n)

# ============================================================================ OM75x retired spellings
f = trace("OM751", "pass-current-stop-reasons", "current stop reasons, with --legacy", legacy=True)
f.begin()
f.end(status="fatal", error_code="auth", error_message="401")
f = trace("OM751", "fail-failed", "an old trace's request_end status failed (--legacy)", legacy=True)
f.begin()
n = f.obj(M("event_msg", {"type": "request_end", "status": "failed",
                                                      "error_code": "network", "error_message": "reset"}))
f.expect("OM751", n)
f = trace("OM751", "fail-failed-then-retried", "releases 0.1.5 to 0.2.4 retried `failed`: with retry_in_ms it reads as "
          "retryable (--legacy), so no OM502", legacy=True)
f.begin()
n = f.obj(M("event_msg", {"type": "request_end", "status": "failed", "error_code": "network",
                          "error_message": "socket hang up", "attempt": 1, "retry_in_ms": 2000}))
f.begin()
f.say()
f.usage()
f.end()
f.expect("OM751", n)
f = trace("OM751", "fail-timeout-stop-reason", "a model message with stop_reason timeout (--legacy)", legacy=True)
n = f.obj(M("model_msg", {"type": "text", "role": "assistant", "text": "par",
                                                      "stop_reason": "timeout"}))
f.expect("OM751", n)

f = fx("OM752", "pass-current-session-meta", "trace", "no retired fields, with --legacy", legacy=True)
f.meta()
f.tools()
f = fx("OM752", "fail-thinking-level", "trace", "session_meta with thinking_level and tools (--legacy)", legacy=True)
n = f.obj(M("session_meta", {
    "session_id": SID, "provider": "anthropic", "model_id": "claude", "model_context_window": 200000,
    "system_prompt": "", "agent_state": "/s", "workspace": "/w", "thinking_level": "high", "tools": ["read_file"]}))
f.tools()
f.expect("OM752", n)
f.expect("OM752", n)

f = trace("OM753", "pass-abort-error-pair", "abort with error_code and error_message")
f.ev({"type": "abort", "error_code": "user_abort", "error_message": "Interrupted"})
f = trace("OM753", "fail-abort-reason", "abort with legacy prose reason")
n = f.ev({"type": "abort", "reason": "User pressed Ctrl-C"})
f.expect("OM753", n)
f = trace("OM753", "pass-abort-reason-null", "abort with reason null (no prose)")
f.ev({"type": "abort", "error_code": "user_abort", "error_message": "Interrupted", "reason": None})

f = fx("OM754", "pass-mcp-error-pair", "trace", "a failed MCP server with the error pair (--legacy)", legacy=True)
f.meta()
f.ev({"type": "mcp_connect_begin", "servers": ["files"]})
f.ev({"type": "mcp_connect_end", "status": "fatal", "error_code": "connect_failed", "error_message": "1 failed",
      "results": [{"server": "files", "transport": "stdio", "status": "fatal", "duration_ms": 3,
                   "error_code": "connect_failed", "error_message": "spawn ENOENT"}]})
f.tools()
f = fx("OM754", "fail-mcp-error-field", "trace", "a per-server error string (--legacy)", legacy=True)
f.meta()
f.ev({"type": "mcp_connect_begin", "servers": ["files"]})
n = f.obj(M("event_msg", {
    "type": "mcp_connect_end", "status": "fatal", "error_code": "connect_failed", "error_message": "1 failed",
    "results": [{"server": "files", "transport": "stdio", "status": "fatal", "duration_ms": 3,
                 "error_code": "connect_failed", "error": "spawn ENOENT"}]}))
f.tools()
f.expect("OM754", n)

f = trace("OM755", "pass-error-message", "request_end with error_message (--legacy)", legacy=True)
f.begin()
f.end(status="fatal", error_code="auth", error_message="401")
f = trace("OM755", "fail-request-end-message", "request_end with message (--legacy)", legacy=True)
f.begin()
n = f.obj(M("event_msg", {"type": "request_end", "status": "fatal", "error_code": "auth",
                                                      "message": "401 Unauthorized"}))
f.expect("OM755", n)

f = trace("OM757", "pass-no-goal-event", "a legacy trace without goal mode (--legacy)", legacy=True)
f.turn()
f = trace("OM757", "fail-goal-finished", "goal mode's goal_finished event of releases 0.1.5 to 0.2.4 (--legacy)",
          legacy=True)
f.turn()
n = f.obj(M("event_msg", {"type": "goal_finished", "outcome": "achieved", "rounds": 3, "tokens_used": 48210}))
f.expect("OM757", n)

f = fx("OM756", "pass-source-cli", "trace", "source cli (--legacy)", legacy=True)
f.meta(source="cli")
f.tools()
f = fx("OM756", "fail-source-benchmark", "trace", "source benchmark (--legacy)", legacy=True)
n = f.obj(M("session_meta", {
    "session_id": SID, "provider": "anthropic", "model_id": "claude", "model_context_window": 200000,
    "system_prompt": "", "agent_state": "/s", "workspace": "/w", "source": "benchmark"}))
f.tools()
f.expect("OM756", n)


# ============================================================================ OM8xx trace directories
class Dir(Fx):
    """A trace root: files by relative path."""

    def __init__(self, rule: str, name: str, about: str) -> None:
        super().__init__(rule, name, "trace", about)
        self.files: dict[str, list[bytes]] = {}
        self.current: Fx | None = None

    def file(self, rel: str) -> Fx:
        """A file; its clock goes on from the previous file's (rotated files follow each other)."""
        if self.current is not None:
            self.ms = self.current.ms
        f = self.current = Fx(self.rule, rel, "trace", "")
        f.ms = self.ms
        self.files[rel] = f.lines
        return f


def dfx(rule: str, name: str, about: str) -> Dir:
    d = Dir(rule, name, about)
    FIXTURES.append(d)
    return d


def session_file(d: Dir, rel: str, sid: str = "sess-a", *, rotated: bool = False) -> Fx:
    f = d.file(rel)
    f.meta(sid=sid)
    f.tools()
    f.turn(f"toolu_{rel.replace('/', '_')}")  # call ids stay unique across a session's files
    return f


d = dfx("OM801", "pass-laid-out", "every file under <yyyy-mm-dd>/<session_id>_<NNN>.jsonl")
session_file(d, "2026-07-18/sess-a_001.jsonl")
d = dfx("OM801", "fail-stray-file", "a .jsonl file outside the layout")
session_file(d, "2026-07-18/sess-a_001.jsonl")
session_file(d, "notes/sess-b.jsonl", "sess-b")
d.expect("OM801", 0, path="notes/sess-b.jsonl")

d = dfx("OM802", "pass-contiguous", "indexes 001, 002, 003")
for i in (1, 2, 3):
    session_file(d, f"2026-07-18/sess-a_{i:03d}.jsonl")
d = dfx("OM802", "fail-gap", "index 002 is missing")
session_file(d, "2026-07-18/sess-a_001.jsonl")
session_file(d, "2026-07-18/sess-a_003.jsonl")
d.expect("OM802", 0, path="2026-07-18/sess-a_003.jsonl")
d = dfx("OM802", "fail-duplicate-index", "index 001 in two date directories")
session_file(d, "2026-07-18/sess-a_001.jsonl")
session_file(d, "2026-07-19/sess-a_001.jsonl")
d.expect("OM802", 0, path="2026-07-19/sess-a_001.jsonl")

d = dfx("OM803", "pass-rotated-opening", "the rotated file opens with session_meta then tool_list_ready")
session_file(d, "2026-07-18/sess-a_001.jsonl")
session_file(d, "2026-07-18/sess-a_002.jsonl")
d = dfx("OM803", "pass-rotated-with-mcp", "the newest head: session_meta, the new context's MCP connect pair, then "
        "tool_list_ready; releases up to 0.2.4 rewrite the first file's messages with their old timestamps")
f = session_file(d, "2026-07-18/sess-a_001.jsonl")
old_meta, old_tools = f.lines[0], f.lines[1]
f = d.file("2026-07-18/sess-a_002.jsonl")
f.raw(old_meta)
f.ev({"type": "mcp_connect_begin", "servers": ["fs"]})
f.ev({"type": "mcp_connect_end", "status": "completed", "results": [
    {"server": "fs", "transport": "stdio", "status": "completed", "duration_ms": 41}]})
f.raw(old_tools)
f.user("[context_summary] earlier we read a.txt")
d = dfx("OM803", "pass-rotated-without-tools", "an agent without tools: a rotated file opens with session_meta alone")
f = d.file("2026-07-18/sess-a_001.jsonl")
f.meta(sid="sess-a")
f.user()
f.begin()
f.say()
f.usage()
f.end()
f = d.file("2026-07-18/sess-a_002.jsonl")
f.meta(sid="sess-a")
f.user("[context_summary] we said hello")
d = dfx("OM803", "fail-rotated-without-tool-list", "a session with tools: its rotated file goes on without "
        "announcing them again")
session_file(d, "2026-07-18/sess-a_001.jsonl")
f = d.file("2026-07-18/sess-a_002.jsonl")
f.meta(sid="sess-a")
n = f.user()
d.expect("OM803", n, path="2026-07-18/sess-a_002.jsonl")
d = dfx("OM803", "fail-rotated-file-ends-in-its-head", "a session with tools: its rotated file holds only its "
        "session_meta and MCP connect pair")
session_file(d, "2026-07-18/sess-a_001.jsonl")
f = d.file("2026-07-18/sess-a_002.jsonl")
f.meta(sid="sess-a")
f.ev({"type": "mcp_connect_begin", "servers": ["fs"]})
n = f.ev({"type": "mcp_connect_end", "status": "completed", "results": [
    {"server": "fs", "transport": "stdio", "status": "completed", "duration_ms": 41}]})
d.expect("OM803", n, path="2026-07-18/sess-a_002.jsonl")

d = dfx("OM804", "pass-names-match", "session_meta.session_id equals the file name's id")
session_file(d, "2026-07-18/sess-a_001.jsonl")
d = dfx("OM804", "fail-other-session-id", "the file of sess-a holds sess-b's session_meta")
session_file(d, "2026-07-18/sess-a_001.jsonl", "sess-b")
d.expect("OM804", 1, path="2026-07-18/sess-a_001.jsonl")

d = dfx("OM805", "pass-child-present", "the subagent's trace is under the root")
f = session_file(d, "2026-07-18/sess-a_001.jsonl")
f.ev({"type": "subagent", "session_id": "sess-c"})
session_file(d, "2026-07-18/sess-c_001.jsonl", "sess-c")
d = dfx("OM805", "fail-child-missing", "the subagent's trace is not under the root")
f = session_file(d, "2026-07-18/sess-a_001.jsonl")
n = f.ev({"type": "subagent", "session_id": "sess-c"})
d.expect("OM805", n, path="2026-07-18/sess-a_001.jsonl")


# ============================================================================ OM9xx SSE
class Sse(Fx):
    """An SSE capture: events built from lines; `self.text` is the file."""

    def __init__(self, rule: str, name: str, about: str) -> None:
        super().__init__(rule, name, "stream", about)
        self.chunks: list[bytes] = []
        self.lineno = 0
        self.seq = 0

    def put(self, *lines: bytes) -> int:
        first = self.lineno + 1
        for line in lines:
            self.chunks.append(line + b"\n")
            self.lineno += 1
        return first

    def msg_event(self, builder: Any, *args: Any, event_id: bytes | None = None, **kw: Any) -> int:
        """An unnamed event carrying the line `builder` makes; returns its data line number."""
        n = builder(*args, **kw)
        data = self.lines[n - 1]
        self.seq += 1
        eid = event_id if event_id is not None else b"3f9a0c12-%d" % self.seq  # the reference: 8 hex of a UUID
        first = self.put(b"id: " + eid, b"data: " + data, b"")
        return first + 1


def sfx(rule: str, name: str, about: str) -> Sse:
    s = Sse(rule, name, about)
    FIXTURES.append(s)
    return s


def sse_turn(s: Sse) -> None:
    s.put(b": connected", b"retry: 3000", b"")
    s.msg_event(s.user)
    s.msg_event(s.begin)
    s.put(b": heartbeat", b"")
    s.msg_event(s.ptext, "start")
    s.msg_event(s.ptext, "delta", "Hi")
    s.msg_event(s.ptext, "stop", stop_reason="completed")
    s.msg_event(s.say, "Hi")
    s.put(b"event: server_event", b'data: {"type":"task_state","state":"running"}', b"")
    s.msg_event(s.usage)
    s.msg_event(s.end)


s = sfx("OM901", "pass-epoch-seq-ids", "ids shaped <epoch>-<seq>, comments, retry and a server_event")
sse_turn(s)
s = sfx("OM901", "pass-decimal-epoch", "an epoch of digits is as opaque as any other")
s.msg_event(s.user, event_id=b"1784344222-1")
s.msg_event(s.begin, event_id=b"1784344222-2")
s.msg_event(s.usage, event_id=b"1784344222-3")
s.msg_event(s.end, event_id=b"1784344222-4")
s = sfx("OM901", "fail-uuid-id", "an event id that is not <epoch>-<seq>")
s.msg_event(s.user)
n = s.msg_event(s.begin, event_id=b"3f1c-uuid")
s.msg_event(s.usage)
s.msg_event(s.end)
s.expect("OM901", n - 1)
s = sfx("OM901", "fail-no-sequence", "an epoch with no sequence number")
s.msg_event(s.user)
n = s.msg_event(s.begin, event_id=b"3f9a0c12")
s.msg_event(s.usage)
s.msg_event(s.end)
s.expect("OM901", n - 1)

s = sfx("OM902", "pass-increasing-ids", "seq increases within an epoch; a new (random, unordered) epoch restarts it")
s.msg_event(s.user, event_id=b"f3a90c12-16")
s.msg_event(s.begin, event_id=b"f3a90c12-17")
s.msg_event(s.usage, event_id=b"f3a90c12-19")  # a unicast to another subscriber took seq 18
s.msg_event(s.end, event_id=b"f3a90c12-20")
s.msg_event(s.user, "again", event_id=b"0b71e4d5-1")
s.msg_event(s.begin, event_id=b"0b71e4d5-2")
s.msg_event(s.say, event_id=b"0b71e4d5-3")
s.msg_event(s.usage, event_id=b"0b71e4d5-4")
s.msg_event(s.end, event_id=b"0b71e4d5-5")
s = sfx("OM902", "pass-epoch-change-mid-segment", "the server restarted mid-request: the new epoch is a new channel; "
        "the open segment and request died with the old server and are forgotten")
s.msg_event(s.user, event_id=b"f3a90c12-1")
s.msg_event(s.begin, event_id=b"f3a90c12-2")
s.msg_event(s.ptext, "start", event_id=b"f3a90c12-3")
s.msg_event(s.ptext, "delta", "Hel", event_id=b"f3a90c12-4")
s.put(b"event: server_event", b'data: {"type":"resync_required"}', b"")
s.msg_event(s.user, "are you there?", event_id=b"0b71e4d5-1")
s.msg_event(s.begin, event_id=b"0b71e4d5-2")
s.msg_event(s.say, "Yes.", event_id=b"0b71e4d5-3")
s.msg_event(s.usage, event_id=b"0b71e4d5-4")
s.msg_event(s.end, event_id=b"0b71e4d5-5")
s = sfx("OM902", "fail-id-goes-back", "a sequence number smaller than the previous one of the same epoch")
s.msg_event(s.user, event_id=b"3f9a0c12-5")
n = s.msg_event(s.begin, event_id=b"3f9a0c12-4")
s.msg_event(s.usage, event_id=b"3f9a0c12-6")
s.msg_event(s.end, event_id=b"3f9a0c12-7")
s.expect("OM902", n - 1)
s = sfx("OM902", "fail-id-repeats", "the same id twice")
s.msg_event(s.user, event_id=b"3f9a0c12-5")
n = s.msg_event(s.begin, event_id=b"3f9a0c12-5")
s.msg_event(s.usage, event_id=b"3f9a0c12-6")
s.msg_event(s.end, event_id=b"3f9a0c12-7")
s.expect("OM902", n - 1)

s = sfx("OM903", "pass-single-data-line", "each message on one data: line")
sse_turn(s)
s = sfx("OM903", "fail-split-message", "a message split over two data: lines")
s.msg_event(s.user)
s.user("split")
line = s.lines[-1]
cut = line.index(b'"payload"')
n = s.put(b"id: 1784344222-9", b"data: " + line[:cut], b"data: " + line[cut:], b"") + 1
s.expect("OM903", n)
s.expect("OM114", n)  # joined with a line feed: valid JSON, but not the canonical single line

s = sfx("OM904", "pass-known-events", "unnamed events and server_event only")
sse_turn(s)
s = sfx("OM904", "fail-custom-event", "an event with another name")
s.msg_event(s.user)
n = s.put(b"event: debug", b'data: {"x":1}', b"")
s.expect("OM904", n)

s = sfx("OM905", "pass-server-event-object", "server_event data is a JSON object with a type")
sse_turn(s)
s.put(b"event: server_event", b'data: {"type":"resync_required"}', b"")
s = sfx("OM905", "fail-server-event-text", "server_event data that is plain text")
s.msg_event(s.user)
n = s.put(b"event: server_event", b"data: task running", b"") + 1
s.expect("OM905", n)

s = sfx("OM906", "pass-terminated-events", "every event ends with a blank line")
sse_turn(s)
s = sfx("OM906", "fail-capture-ends-mid-event", "the capture ends inside an event")
s.msg_event(s.user)
n = s.put(b"id: 1784344222-9", b'data: {"timestamp":"2026-07-18T03:11:00.000Z","type":"event_msg","payload":')
s.expect("OM906", n)


# ============================================================================ writing


def write() -> None:
    for sub in HERE.iterdir():
        if sub.is_dir() and sub.name.startswith("OM"):
            shutil.rmtree(sub)
    seen = set()
    for f in FIXTURES:
        key = (f.rule, f.name)
        assert key not in seen, key
        seen.add(key)
        folder = HERE / f.rule
        folder.mkdir(exist_ok=True)
        meta: dict[str, Any] = {"rule": f.rule, "description": f.about, "profile": f.profile}
        options = {k: v for k, v in f.options.items() if v}
        if options:
            meta["options"] = options
        if isinstance(f, Dir):
            meta["input"] = "dir"
            for rel, lines in f.files.items():
                p = folder / f.name / rel
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(b"".join(x + b"\n" for x in lines))
        elif isinstance(f, Sse):
            meta["input"] = "sse"
            (folder / f"{f.name}.sse").write_bytes(b"".join(f.chunks))
        else:
            meta["input"] = "jsonl"
            data = b"\n".join(f.lines) + (f.tail if f.lines else b"")
            (folder / f"{f.name}.jsonl").write_bytes(data)
        meta["findings"] = sorted(f.expected, key=lambda e: (e.get("path", ""), e["line"], e["rule"]))
        (folder / f"{f.name}.expect.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(FIXTURES)} fixtures", file=sys.stderr)


if __name__ == "__main__":
    write()
