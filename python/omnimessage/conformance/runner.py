"""Runs the conformance cases against a testee process and judges its answers byte for byte.

The testee is started once, without a shell, in a process group of its own; every request has
a time limit, the whole run has one, its output is size-capped, and its process group is killed
on timeout, on a protocol error and at the end. A testee that crashes or hangs fails the case
at hand and is restarted for the next one (a bounded number of times), so the run always ends.

Processes a testee starts are killed with it: those of its process group, and (Linux) those that
left the group: every process of its session, and every process carrying the run's token in its
environment (`OMNIMESSAGE_CONFORMANCE_TESTEE`, inherited even by a daemon that started a session
of its own); those are reported as warnings. Only a process that both starts a session and
clears its environment escapes: run testees you do not trust in a container. A testee that exits
is noticed at once (a pidfd), even while a process it started still holds its stdout open.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import fnmatch
import json
import os
import secrets
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .suite import GROUPS, OPTIONAL_FEATURES, PROTOCOL_VERSION, Case, Suite

__all__ = [
    "ExpectedFailures",
    "Outcome",
    "RunResult",
    "Testee",
    "TesteeError",
    "escape_bytes",
    "first_difference",
    "judge",
    "load_expected_failures",
    "run_cases",
]

HELLO = "omnimessage-conformance"
DEFAULT_REQUEST_TIMEOUT = 10.0
DEFAULT_TOTAL_TIMEOUT = 900.0
DEFAULT_STARTUP_TIMEOUT = 30.0
MAX_RESTARTS = 8
STDERR_TAIL = 16 * 1024
TOKEN_VAR = "OMNIMESSAGE_CONFORMANCE_TESTEE"
"""Set in each testee's environment to a fresh token, so that its descendants can be found."""

PASSED, FAILED, SKIPPED, XFAIL, XPASS = "passed", "failed", "skipped", "xfail", "xpass"


# ---------------------------------------------------------------------------
# byte diffs
# ---------------------------------------------------------------------------


def escape_bytes(data: bytes) -> str:
    """Printable ASCII as is (backslash doubled), every other byte as \\xNN: one line, no surprises."""
    out = []
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


def first_difference(expected: bytes, got: bytes, context: int = 24) -> str:
    """Where two byte strings first differ, shown in context with a caret under the byte."""
    n = min(len(expected), len(got))
    i = next((k for k in range(n) if expected[k] != got[k]), n)
    if i == len(expected) == len(got):
        return "identical"
    lo = max(0, i - context)
    lead = "..." if lo else ""
    prefix = escape_bytes(expected[lo:i])

    def seg(b: bytes) -> str:
        tail = "..." if len(b) > i + context else ""
        return lead + escape_bytes(b[lo : i + context]) + tail

    if i == len(got):
        what = f"got ends early: {len(got)} bytes, expected {len(expected)}"
    elif i == len(expected):
        what = f"got has {len(got) - len(expected)} extra bytes after the expected {len(expected)}"
    else:
        what = f"expected {len(expected)} bytes, got {len(got)}"
    return (
        f"first difference at byte {i} ({what})\n"
        f"  expected: {seg(expected)}\n"
        f"  got:      {seg(got)}\n"
        f"            {' ' * (len(lead) + len(prefix))}^"
    )


def _clip(data: bytes, limit: int = 160) -> str:
    return escape_bytes(data[:limit]) + (f"... ({len(data)} bytes)" if len(data) > limit else "")


def _printable(s: str, limit: int = 2000) -> str:
    s = "".join(c if c in "\n\t" or (c >= " " and c != "\x7f") else f"\\x{ord(c):02x}" for c in s[:limit])
    return s + ("..." if len(s) > limit else "")


# ---------------------------------------------------------------------------
# the testee process
# ---------------------------------------------------------------------------


class TesteeError(Exception):
    """The testee crashed, hung, broke the protocol or wrote too much."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # start | timeout | exited | protocol | too_large
        self.message = message


class Testee:
    """One testee process speaking the protocol over stdin/stdout."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        max_response_bytes: int = 64 << 20,
    ) -> None:
        if not argv:
            raise TesteeError("start", "empty testee command")
        self.argv = list(argv)
        self.cwd = cwd
        self.env = env
        self.max_response_bytes = max_response_bytes
        self.proc: subprocess.Popen[bytes] | None = None
        self.hello: dict[str, Any] = {}
        self._buf = bytearray()
        self._scan = 0
        self._stderr = bytearray()
        self._sel: selectors.BaseSelector | None = None
        self._pidfd: int | None = None
        self.token = secrets.token_hex(12)
        self.escaped: list[str] = []
        """Processes the testee left outside its process group (killed), for the report."""

    # -- lifecycle --

    def start(self, suite: Suite, timeout: float = DEFAULT_STARTUP_TIMEOUT) -> dict[str, Any]:
        env = dict(os.environ if self.env is None else self.env)
        env[TOKEN_VAR] = self.token  # inherited by its descendants: found by the sweep
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env=env,
                start_new_session=True,  # its own session and process group, killed as a whole
                bufsize=0,
            )
        except OSError as exc:
            raise TesteeError("start", f"cannot start {self.argv[0]!r}: {exc.strerror or exc}") from None
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            os.set_blocking(f.fileno(), False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)
        self._sel.register(self.proc.stderr, selectors.EVENT_READ)
        with contextlib.suppress(AttributeError, OSError):  # Linux >= 5.3: readable once it exits
            self._pidfd = os.pidfd_open(self.proc.pid)
            self._sel.register(self._pidfd, selectors.EVENT_READ)
        hello = {
            "hello": HELLO,
            "protocol": PROTOCOL_VERSION,
            "suite_version": suite.suite_version,
            "schema_id": suite.schema_id,
        }
        reply = self._roundtrip(hello, time.monotonic() + timeout, "the handshake")
        if reply.get("hello") != HELLO or reply.get("protocol") != PROTOCOL_VERSION:
            raise TesteeError(
                "protocol",
                f"bad handshake reply {_printable(json.dumps(reply))[:300]} "
                f'(expected {{"hello": "{HELLO}", "protocol": {PROTOCOL_VERSION}, ...}})',
            )
        self.hello = reply
        return reply

    def close(self, grace: float = 2.0) -> int | None:
        """Close stdin, give the testee `grace` seconds to exit, then kill its process group."""
        proc = self.proc
        if proc is None:
            return None
        self.proc = None
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        rc: int | None = None
        with contextlib.suppress(subprocess.TimeoutExpired):
            rc = proc.wait(timeout=grace)
        self._kill_group(proc)
        if rc is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                rc = proc.wait(timeout=5)
        self.escaped += sweep(proc.pid, self.token)
        if self._sel is not None:
            self._sel.close()
            self._sel = None
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = None
        for f in (proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                assert f is not None
                f.close()
        return rc

    def kill(self) -> None:
        self.close(grace=0)

    @staticmethod
    def _kill_group(proc: subprocess.Popen[bytes]) -> None:
        # start_new_session made the testee the leader of a group whose id is its pid
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            proc.kill()

    def __enter__(self) -> Testee:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- I/O --

    def stderr_tail(self, limit: int = 1500) -> str:
        text = self._stderr.decode("utf-8", "replace")
        return text[-limit:]

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        return self._roundtrip(req, time.monotonic() + timeout, f"case {req.get('id')}")

    def _roundtrip(self, msg: dict[str, Any], deadline: float, what: str) -> dict[str, Any]:
        line = self._exchange(json.dumps(msg).encode() + b"\n", deadline, what)
        try:
            reply = json.loads(line)
        except ValueError:
            raise TesteeError(
                "protocol", f"answer to {what} is not a JSON line: {_clip(line)} (stdout is for protocol lines only)"
            ) from None
        if not isinstance(reply, dict):
            raise TesteeError("protocol", f"answer to {what} is not a JSON object: {_clip(line)}")
        return reply

    def _died(self, what: str, *, stdout_open: bool = False) -> TesteeError:
        proc = self.proc
        rc = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                rc = proc.wait(timeout=2)
        if not stdout_open:
            self._drain_stderr()
        if rc is None:
            how = "closed its stdout"
        elif rc < 0:
            try:
                how = f"was killed by {signal.Signals(-rc).name}"
            except ValueError:
                how = f"was killed by signal {-rc}"
        else:
            how = f"exited with status {rc}"
        if stdout_open:
            how += " (a process it started still holds its stdout open)"
        tail = self.stderr_tail()
        return TesteeError("exited", f"testee {how} during {what}" + (f"; its stderr ends:\n{tail}" if tail else ""))

    def _exited(self, what: str) -> bytes:
        """The testee exited: the answer it wrote before exiting, if a whole one is there; else its death."""
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        with contextlib.suppress(BlockingIOError, OSError):
            while len(self._buf) <= self.max_response_bytes:
                chunk = os.read(proc.stdout.fileno(), 1 << 20)
                if not chunk:
                    break
                self._buf += chunk
        nl = self._buf.find(b"\n")
        if nl >= 0:
            line = bytes(self._buf[:nl])
            del self._buf[: nl + 1]
            self._scan = 0
            return line
        raise self._died(what, stdout_open=True)

    def _drain_stderr(self) -> None:
        proc = self.proc
        if proc is None or proc.stderr is None:
            return
        with contextlib.suppress(OSError, ValueError):
            while True:
                chunk = os.read(proc.stderr.fileno(), 1 << 16)
                if not chunk:
                    break
                self._keep_stderr(chunk)

    def _keep_stderr(self, chunk: bytes) -> None:
        self._stderr += chunk
        if len(self._stderr) > STDERR_TAIL:
            del self._stderr[: len(self._stderr) - STDERR_TAIL]

    def _exchange(self, payload: bytes, deadline: float, what: str) -> bytes:
        proc, sel = self.proc, self._sel
        if proc is None or sel is None or proc.stdin is None or proc.stdout is None or proc.stderr is None:
            raise TesteeError("exited", "testee is not running")
        view = memoryview(payload)
        sent = 0
        stdin: IO[bytes] = proc.stdin
        writing = False
        if view:
            sel.register(stdin, selectors.EVENT_WRITE)
            writing = True
        try:
            while True:
                nl = self._buf.find(b"\n", self._scan)
                if nl >= 0 and not writing:
                    line = bytes(self._buf[:nl])
                    del self._buf[: nl + 1]
                    self._scan = 0
                    return line
                if nl >= 0 and writing:
                    raise TesteeError("protocol", f"testee answered before reading all of {what}")
                self._scan = len(self._buf)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TesteeError("timeout", f"no answer to {what} in time")
                events = sel.select(min(remaining, 1.0 if self._pidfd is not None else 0.2))
                if self._pidfd is None and not events and proc.poll() is not None:
                    return self._exited(what)  # no pidfd: noticed by polling
                for key, _ in events:
                    if key.fileobj is self._pidfd:
                        if writing:
                            raise self._died(what, stdout_open=True)
                        return self._exited(what)
                    if key.fileobj is stdin:
                        try:
                            sent += os.write(stdin.fileno(), view[sent : sent + (1 << 20)])
                        except BlockingIOError:
                            continue
                        except (BrokenPipeError, ConnectionResetError):
                            raise self._died(what) from None
                        if sent == len(view):
                            sel.unregister(stdin)
                            writing = False
                    elif key.fileobj is proc.stdout:
                        try:
                            chunk = os.read(proc.stdout.fileno(), 1 << 20)
                        except BlockingIOError:
                            continue
                        if not chunk:
                            raise self._died(what)
                        self._buf += chunk
                        if len(self._buf) > self.max_response_bytes:
                            raise TesteeError(
                                "too_large",
                                f"answer to {what} exceeds {self.max_response_bytes} bytes without a line feed",
                            )
                    else:
                        try:
                            chunk = os.read(proc.stderr.fileno(), 1 << 16)
                        except BlockingIOError:
                            continue
                        if chunk:
                            self._keep_stderr(chunk)
                        else:
                            sel.unregister(proc.stderr)
        finally:
            if writing:
                with contextlib.suppress(KeyError, ValueError):
                    sel.unregister(stdin)


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, process group, session) of a process, from /proc."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return fields[0].decode(), int(fields[2]), int(fields[3])
    except (IndexError, ValueError):
        return None


def sweep(leader: int, token: str) -> list[str]:
    """SIGKILL what a testee left behind outside its (already killed) process group: the processes
    of its session, and those whose environment carries its token. Returns a description of each
    one found alive (Linux; elsewhere nothing is found)."""
    needle = f"{TOKEN_VAR}={token}".encode()
    me = os.getpid()
    found: dict[int, str] = {}
    for _ in range(5):  # a forking process may add one between two scans
        hit = False
        try:
            pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
        except OSError:
            return []
        for pid in pids:
            if pid == me:
                continue
            st = _stat(pid)
            if st is None or st[0] in ("Z", "X"):
                continue
            ours = st[2] == leader
            if not ours:
                try:
                    ours = needle in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                except OSError:
                    continue
            if not ours:
                continue
            if pid not in found and st[1] != leader:  # not in its process group: report it
                try:
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").strip()
                except OSError:
                    cmd = b"?"
                found[pid] = f"pid {pid} ({_clip(cmd, 80)})"
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                hit = True
        if not hit:
            break
        time.sleep(0.02)
    return list(found.values())


# ---------------------------------------------------------------------------
# judging
# ---------------------------------------------------------------------------


@dataclass
class Outcome:
    case: Case
    status: str
    message: str = ""
    duration: float = 0.0
    reason: str = ""  # the expected-failure reason, for xfail / xpass

    @property
    def failed(self) -> bool:
        return self.status in (FAILED, XPASS)


def describe_expectation(case: Case) -> str:
    if case.expect == "reject":
        return f"refusal `{case.category}`" + (f" at pointer {case.pointer!r}" if case.pointer is not None else "")
    if case.expect == "identical":
        return "the input bytes back, unchanged"
    return "the canonical bytes"


def judge(case: Case, resp: dict[str, Any]) -> tuple[str, str]:
    """(status, message) of one answer. Raises TesteeError when the answer breaks the protocol."""
    if resp.get("id") != case.id:
        raise TesteeError("protocol", f"answer carries id {resp.get('id')!r}, expected {case.id!r}")
    result = resp.get("result")
    if result == "skipped":
        reason = _printable(str(resp.get("reason", "")), 300)
        if case.optional:
            return SKIPPED, reason
        return (
            FAILED,
            f"skipped a required case ({reason}); only cases needing an optional feature "
            f"({', '.join(sorted(OPTIONAL_FEATURES))}) may be skipped",
        )
    if result == "encoded":
        out = resp.get("output")
        if not isinstance(out, str):
            raise TesteeError("protocol", "an `encoded` answer needs `output` (base64)")
        try:
            got = base64.b64decode(out, validate=True)
        except (binascii.Error, ValueError):
            raise TesteeError("protocol", "`output` is not valid base64") from None
        if case.expect == "reject":
            return FAILED, f"accepted a line it must refuse as `{case.category}`; it encoded it as: {_clip(got)}"
        assert case.output is not None
        if got == case.output:
            return PASSED, ""
        return FAILED, f"wrong bytes: {first_difference(case.output, got)}"
    if result == "refused":
        cat = resp.get("category")
        if not isinstance(cat, str):
            raise TesteeError("protocol", "a `refused` answer needs `category` (a string)")
        detail = _printable(str(resp.get("message", "")), 300)
        where = f" at {resp.get('pointer')!r}" if isinstance(resp.get("pointer"), str) else ""
        said = f"`{cat}`{where}" + (f" ({detail})" if detail else "")
        if case.expect != "reject":
            return FAILED, f"refused a line it must {'keep' if case.expect == 'identical' else 'canonicalise'}: {said}"
        if cat != case.category:
            return FAILED, f"refused as {said}, expected `{case.category}`"
        if case.pointer is not None:
            ptr = resp.get("pointer")
            if not isinstance(ptr, str):
                return FAILED, f"refused as `{cat}` without a pointer; expected pointer {case.pointer!r}"
            if ptr != case.pointer:
                return FAILED, f"refused as `{cat}` at pointer {ptr!r}, expected {case.pointer!r}"
        return PASSED, ""
    raise TesteeError("protocol", f"unknown result {result!r} (encoded | refused | skipped)")


# ---------------------------------------------------------------------------
# expected failures
# ---------------------------------------------------------------------------


@dataclass
class ExpectedFailures:
    """`case-id-or-glob  reason` per line; `#` starts a comment."""

    entries: list[tuple[str, str, int]] = field(default_factory=list)  # pattern, reason, line number
    path: str = ""

    def reason(self, case_id: str) -> str | None:
        for pattern, reason, _ in self.entries:
            if pattern == case_id or (_is_glob(pattern) and fnmatch.fnmatchcase(case_id, pattern)):
                return reason
        return None

    def stale(self, all_ids: Iterable[str]) -> list[str]:
        ids = list(all_ids)
        out = []
        for pattern, _, number in self.entries:
            hit = any(pattern == i or (_is_glob(pattern) and fnmatch.fnmatchcase(i, pattern)) for i in ids)
            if not hit:
                out.append(f"{self.path}:{number}: entry {pattern!r} matches no case")
        return out


def _is_glob(p: str) -> bool:
    return any(c in p for c in "*?[")


def load_expected_failures(path: str | os.PathLike[str]) -> ExpectedFailures:
    ef = ExpectedFailures(path=str(path))
    with open(path, encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            parts = text.split(None, 1)
            reason = parts[1].strip() if len(parts) > 1 else ""
            if not reason:
                raise ValueError(f"{path}:{number}: an expected failure needs a reason after the case id")
            ef.entries.append((parts[0], reason, number))
    return ef


# ---------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------


@dataclass
class RunResult:
    outcomes: list[Outcome]
    implementation: dict[str, Any] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # run-level problems (start failures, time limit)
    warnings: list[str] = field(default_factory=list)  # what did not fail a case (processes left behind)
    duration: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def n_failed(self) -> int:
        return self.count(FAILED) + self.count(XPASS) + len(self.stale)

    @property
    def ok(self) -> bool:
        return self.n_failed == 0

    def summary(self) -> str:
        return (
            f"{self.count(PASSED)} passed, {self.n_failed} failed, {self.count(SKIPPED)} skipped, "
            f"{self.count(XFAIL)} expected failures"
        )

    def by_group(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for o in self.outcomes:
            g = out.setdefault(o.case.group, {PASSED: 0, FAILED: 0, SKIPPED: 0, XFAIL: 0, XPASS: 0})
            g[o.status] += 1
        return {g: out[g] for g in GROUPS if g in out}


def run_cases(
    suite: Suite,
    cases: Sequence[Case],
    argv: Sequence[str],
    *,
    expected: ExpectedFailures | None = None,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    total_timeout: float = DEFAULT_TOTAL_TIMEOUT,
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    max_restarts: int = MAX_RESTARTS,
    max_response_bytes: int = 64 << 20,
) -> RunResult:
    """Send `cases` to the testee `argv` and judge every answer."""
    start = time.monotonic()
    deadline = start + total_timeout
    result = RunResult(outcomes=[])
    expected = expected or ExpectedFailures()
    testee: Testee | None = None
    restarts = 0
    fatal: str | None = None

    def record(case: Case, status: str, message: str, t0: float) -> None:
        reason = expected.reason(case.id)
        if reason is not None:
            if status == FAILED:
                status = XFAIL
            elif status == PASSED:
                status, message = XPASS, f"listed as an expected failure ({reason}) but passed: remove it from the list"
        o = Outcome(case, status, message, time.monotonic() - t0, reason or "")
        result.outcomes.append(o)
        if on_outcome is not None:
            on_outcome(o)

    def retire(t: Testee, *, kill: bool) -> None:
        if kill:
            t.kill()
        else:
            t.close()
        if t.escaped:
            result.warnings.append(
                f"the testee left {len(t.escaped)} process(es) running outside its process group, killed: "
                + "; ".join(t.escaped[:5])
            )
            t.escaped = []

    try:
        for case in cases:
            t0 = time.monotonic()
            if fatal is not None:
                record(case, FAILED, f"not run: {fatal}", t0)
                continue
            if time.monotonic() >= deadline:
                fatal = f"the whole-run time limit of {total_timeout:g}s was exceeded"
                result.errors.append(fatal)
                record(case, FAILED, f"not run: {fatal}", t0)
                continue
            if testee is None:
                testee = Testee(argv, cwd=cwd, max_response_bytes=max_response_bytes)
                try:
                    hello = testee.start(suite, min(startup_timeout, max(0.1, deadline - time.monotonic())))
                    result.implementation = result.implementation or hello
                except TesteeError as exc:
                    msg = exc.message
                    tail = testee.stderr_tail()
                    if tail and "stderr" not in msg:
                        msg += f"; its stderr ends:\n{tail}"
                    retire(testee, kill=True)
                    testee = None
                    fatal = f"the testee did not start: {msg}"
                    result.errors.append(fatal)
                    record(case, FAILED, f"not run: {fatal}", t0)
                    continue
            testee.max_response_bytes = max(max_response_bytes, 4 * len(case.input))
            try:
                budget = min(request_timeout, max(0.0, deadline - time.monotonic()))
                resp = testee.request(case.request(), budget)
                status, message = judge(case, resp)
            except TesteeError as exc:
                status, message = FAILED, f"{exc.kind}: {exc.message}"
                if exc.kind == "timeout":
                    message = f"timeout: no answer within {budget:.3g}s; the testee was killed"
                retire(testee, kill=True)
                testee = None
                restarts += 1
                if restarts > max_restarts:
                    fatal = f"the testee failed {restarts} times (crash, hang or protocol error); giving up"
                    result.errors.append(fatal)
            record(case, status, message, t0)
    finally:
        if testee is not None:
            retire(testee, kill=False)
    result.stale = expected.stale(c.id for c in suite.cases)
    result.duration = time.monotonic() - start
    return result


def select_cases(
    suite: Suite, categories: Sequence[str] = (), patterns: Sequence[str] = (), groups: Iterable[str] = GROUPS
) -> list[Case]:
    """The cases selected by `--category` (group, rejection category or tag) and `--case` (id or glob)."""
    wanted = set(groups)
    out = []
    for c in suite.cases:
        if c.group not in wanted:
            continue
        if categories and not any(c.matches(s) for s in categories):
            continue
        if patterns and not any(c.id == p or fnmatch.fnmatchcase(c.id, p) for p in patterns):
            continue
        out.append(c)
    return out


def report_json(result: RunResult, argv: Sequence[str], suite: Suite) -> dict[str, Any]:
    return {
        "suite_version": suite.suite_version,
        "protocol_version": PROTOCOL_VERSION,
        "command": list(argv),
        "implementation": result.implementation,
        "summary": {
            "passed": result.count(PASSED),
            "failed": result.n_failed,
            "skipped": result.count(SKIPPED),
            "expected_failures": result.count(XFAIL),
            "unexpected_passes": result.count(XPASS),
            "ok": result.ok,
            "duration_s": round(result.duration, 3),
        },
        "groups": result.by_group(),
        "stale_expected_failures": result.stale,
        "errors": result.errors,
        "warnings": result.warnings,
        "cases": [
            {
                "id": o.case.id,
                "group": o.case.group,
                "status": o.status,
                "message": o.message,
                "expected_failure_reason": o.reason or None,
                "duration_ms": round(o.duration * 1000, 3),
            }
            for o in result.outcomes
        ],
    }


def write_junit(result: RunResult, path: str | os.PathLike[str], name: str) -> None:
    import xml.etree.ElementTree as ET

    root = ET.Element(
        "testsuites",
        name=f"omnimessage-conformance {name}",
        tests=str(len(result.outcomes) + len(result.stale)),
        failures=str(result.n_failed),
        skipped=str(result.count(SKIPPED) + result.count(XFAIL)),
        time=f"{result.duration:.3f}",
    )
    suites: dict[str, ET.Element] = {}
    for o in result.outcomes:
        s = suites.get(o.case.group)
        if s is None:
            s = suites[o.case.group] = ET.SubElement(root, "testsuite", name=o.case.group)
        tc = ET.SubElement(
            s, "testcase", classname=f"omnimessage.conformance.{o.case.group}", name=o.case.id, time=f"{o.duration:.4f}"
        )
        if o.status in (FAILED, XPASS):
            first = o.message.split("\n", 1)[0]
            el = ET.SubElement(tc, "failure", message=_xml_safe(first[:500]), type=o.status)
            el.text = _xml_safe(f"{o.case.description}\nexpected: {describe_expectation(o.case)}\n{o.message}")
        elif o.status == SKIPPED:
            ET.SubElement(tc, "skipped", message=_xml_safe(o.message[:500]))
        elif o.status == XFAIL:
            ET.SubElement(tc, "skipped", type="xfail", message=_xml_safe(f"expected failure: {o.reason}"[:500]))
    if result.stale or result.errors:
        s = ET.SubElement(root, "testsuite", name="run")
        for i, text in enumerate(result.stale + result.errors):
            tc = ET.SubElement(s, "testcase", classname="omnimessage.conformance.run", name=f"run-error-{i + 1}")
            ET.SubElement(tc, "failure", message=_xml_safe(text[:500]))
    for s in suites.values():
        cases = list(s)
        s.set("tests", str(len(cases)))
        s.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        s.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _xml_safe(s: str) -> str:
    ok = ("\n", "\t")
    return "".join(
        c if c in ok or " " <= c <= "\ud7ff" or "\ue000" <= c <= "\ufffd" or c >= "\U00010000" else "?" for c in s
    )


def write_json_report(result: RunResult, path: str | os.PathLike[str], argv: Sequence[str], suite: Suite) -> None:
    Path(path).write_text(json.dumps(report_json(result, argv, suite), indent=1, ensure_ascii=False) + "\n", "utf-8")
