"""The testee process: started, spoken to over pipes, timed out and killed (the fork-pipe runner).

The testee is started once, without a shell, in a process group of its own; every exchange has a
deadline, its answers are size-capped, and its process group is killed on close, after which the
kill sweep (:mod:`.sweep`) finds what left the group. A testee that exits is noticed at once (a
pidfd), even while a process it started still holds its stdout open.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import IO, Any, Final, get_type_hints

import msgspec

from omnimessage.text.sanitize import clip, printable, sanitize

from . import testee_protocol as wire
from .suite import PROTOCOL_VERSION, Suite
from .sweep import TOKEN_VAR, sweep

__all__ = ["ANSWER_FIELDS", "DEFAULT_STARTUP_TIMEOUT", "HELLO", "STDERR_TAIL", "Testee", "TesteeError", "parse_answer"]

HELLO = wire.HELLO
DEFAULT_STARTUP_TIMEOUT = 30.0
STDERR_TAIL = 16 * 1024


_Scalar = str | int | float | bool | None
ANSWER_FIELDS: Final = tuple(dict.fromkeys(
    name for answer in (wire.TesteeHello, wire.Encoded, wire.Refused, wire.Skipped) for name in get_type_hints(answer)
))
"""The members of a handshake reply or a codec answer the runner reads: those of the generated types
(:mod:`.testee_protocol`, from conformance/testee-protocol.schema.json). Each is read as any scalar, so
that a wrong-typed one is judged (and named) by :func:`.judge.judge`, a nested one refused as it is met;
every other member is skipped by the parser, never built into objects."""
_Answer = msgspec.defstruct(
    "_Answer", [(f, _Scalar | msgspec.UnsetType, msgspec.UNSET) for f in ANSWER_FIELDS], forbid_unknown_fields=False,
)
_ANSWER_DECODER = msgspec.json.Decoder(_Answer)


def parse_answer(line: bytes, what: str) -> dict[str, Any]:
    """An answer line as the dict of its protocol members; TesteeError (a failed case) otherwise.

    Bounded: the line is capped before parsing (`max_response_bytes`); the members the protocol
    defines are scalars (a nested value in one of them is refused as it is met), and every other
    member is skipped without being built, so a 64 MiB answer of small values costs its bytes, not
    ~27 times them. Nesting too deep for the parser is a protocol error, never a RecursionError."""
    shielded = False
    try:
        try:
            reply = _ANSWER_DECODER.decode(line)
        except msgspec.DecodeError:
            again = _shield(line)
            if again == line:
                raise
            reply, shielded = _ANSWER_DECODER.decode(again), True
    except msgspec.ValidationError as exc:
        if line.lstrip()[:1] != b"{":
            raise TesteeError("protocol", f"answer to {what} is not a JSON object: {clip(line)}") from None
        raise TesteeError("protocol", f"answer to {what} breaks the protocol: {printable(str(exc), 200)}: "
                                      f"{clip(line)}") from None
    except msgspec.DecodeError:
        raise TesteeError(
            "protocol", f"answer to {what} is not a JSON line: {clip(line)} (stdout is for protocol lines only)"
        ) from None
    except RecursionError:
        raise TesteeError("protocol", f"answer to {what} nests too deeply to be parsed: {clip(line)}") from None
    out = {f: v for f in ANSWER_FIELDS if (v := getattr(reply, f)) is not msgspec.UNSET}
    if shielded:
        out = {f: _unshield(v) if isinstance(v, str) else v for f, v in out.items()}
    return out


# A lone surrogate escape (`"\udc00"`: a pointer into a key holding one) is valid JSON that msgspec
# refuses; such a line is decoded again with each surrogate escape shielded as U+E000 + `uXXXX`, and
# the strings read back (pairs recombined), as Python's json module reads them.
_SURROGATE_ESCAPE: Final = re.compile(rb"(\\+)u([dD][89a-fA-F][0-9a-fA-F]{2})")
_SHIELDED: Final = re.compile("\ue000u([dD][89a-fA-F][0-9a-fA-F]{2})")
_PAIR: Final = re.compile("([\ud800-\udbff])([\udc00-\udfff])")


def _shield(line: bytes) -> bytes:
    def sub(m: re.Match[bytes]) -> bytes:
        run = m.group(1)
        return m.group() if len(run) % 2 == 0 else run[:-1] + b"\\ue000u" + m.group(2)

    return _SURROGATE_ESCAPE.sub(sub, line)


def _unshield(s: str) -> str:
    s = _SHIELDED.sub(lambda m: chr(int(m.group(1), 16)), s)
    return _PAIR.sub(lambda m: chr(0x10000 + ((ord(m.group(1)) - 0xD800) << 10) + ord(m.group(2)) - 0xDC00), s)


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
        hello: wire.RunnerHello = {
            "hello": HELLO,
            "protocol": PROTOCOL_VERSION,
            "suite_version": suite.suite_version,
            "schema_id": suite.schema_id,
        }
        reply = self._roundtrip(hello, time.monotonic() + timeout, "the handshake")
        if reply.get("hello") != HELLO or reply.get("protocol") != PROTOCOL_VERSION:
            raise TesteeError(
                "protocol",
                f"bad handshake reply {printable(json.dumps(reply))[:300]} "
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
        """The end of what the testee wrote on stderr: each of its lines sanitised and quoted as `  | line`,
        so none can pass for a line of the report (or start with `::`)."""
        text = self._stderr.decode("utf-8", "replace")[-limit:]
        return "\n".join(f"  | {sanitize(line)}" for line in text.rstrip("\n").split("\n")) if text else ""

    def request(self, req: wire.Request, timeout: float) -> dict[str, Any]:
        return self._roundtrip(req, time.monotonic() + timeout, f"case {req.get('id')}")

    def request_line(self, req: wire.ConsumerRequest, timeout: float) -> bytes:
        """The answer line to `req` unparsed (capped at `max_response_bytes`), for an answer the
        caller parses itself (the consumer role's nested cards)."""
        return self._exchange(json.dumps(req).encode() + b"\n", time.monotonic() + timeout, f"case {req.get('id')}")

    def _roundtrip(self, msg: Mapping[str, object], deadline: float, what: str) -> dict[str, Any]:
        line = self._exchange(json.dumps(msg).encode() + b"\n", deadline, what)
        return parse_answer(line, what)

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
            return self._pop_line(nl)
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
        """Send `payload` and return the answer line: waits on stdin, stdout, stderr and the pidfd
        at once, so a testee that writes before reading all, floods stderr or exits cannot block it."""
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
                if nl >= 0:
                    if writing:
                        raise TesteeError("protocol", f"testee answered before reading all of {what}")
                    return self._pop_line(nl)
                self._scan = len(self._buf)
                events = self._wait(sel, deadline, what)
                if self._pidfd is None and not events and proc.poll() is not None:
                    return self._exited(what)  # no pidfd: noticed by polling
                for key, _ in events:
                    if key.fileobj is self._pidfd:
                        if writing:
                            raise self._died(what, stdout_open=True)
                        return self._exited(what)
                    if key.fileobj is stdin:
                        sent = self._send(stdin, view, sent, what)
                        if sent == len(view):
                            sel.unregister(stdin)
                            writing = False
                    elif key.fileobj is proc.stdout:
                        self._receive(proc.stdout, what)
                    else:
                        self._read_stderr(proc.stderr, sel)
        finally:
            if writing:
                with contextlib.suppress(KeyError, ValueError):
                    sel.unregister(stdin)

    def _pop_line(self, nl: int) -> bytes:
        """The buffered line ending at `nl` (the line feed dropped), taken out of the buffer."""
        line = bytes(self._buf[:nl])
        del self._buf[: nl + 1]
        self._scan = 0
        return line

    def _wait(self, sel: selectors.BaseSelector, deadline: float, what: str) -> list[tuple[selectors.SelectorKey, int]]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TesteeError("timeout", f"no answer to {what} in time")
        return sel.select(min(remaining, 1.0 if self._pidfd is not None else 0.2))

    def _send(self, stdin: IO[bytes], view: memoryview, sent: int, what: str) -> int:
        """Write what the pipe takes of `view` from `sent` on; how much is sent now."""
        try:
            return sent + os.write(stdin.fileno(), view[sent : sent + (1 << 20)])
        except BlockingIOError:
            return sent
        except (BrokenPipeError, ConnectionResetError):
            raise self._died(what) from None

    def _receive(self, stdout: IO[bytes], what: str) -> None:
        try:
            chunk = os.read(stdout.fileno(), 1 << 20)
        except BlockingIOError:
            return
        if not chunk:
            raise self._died(what)
        self._buf += chunk
        if len(self._buf) > self.max_response_bytes:
            raise TesteeError(
                "too_large", f"answer to {what} exceeds {self.max_response_bytes} bytes without a line feed"
            )

    def _read_stderr(self, stderr: IO[bytes], sel: selectors.BaseSelector) -> None:
        try:
            chunk = os.read(stderr.fileno(), 1 << 16)
        except BlockingIOError:
            return
        if chunk:
            self._keep_stderr(chunk)
        else:
            sel.unregister(stderr)
