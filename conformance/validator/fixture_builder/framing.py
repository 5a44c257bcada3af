# ruff: noqa: E501  (fixture descriptions are long literals)
"""OM0xx: framing of a trace file (line feeds, CR LF, emptiness, crash heals)."""

from __future__ import annotations

from .fixture import TORN, fx, stream, trace


def declare() -> None:
    """Declare the OM0xx fixtures."""
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
    f = stream("OM007", "pass-128-child-sessions", "128 child sessions: as many as the validator keeps")
    for i in range(128):
        f.meta(sid=f"child-{i:03d}", origin=[f"child-{i:03d}"])
    f = stream("OM007", "fail-129-child-sessions", "129 child sessions: the 129th shares the overflow session")
    for i in range(128):
        f.meta(sid=f"child-{i:03d}", origin=[f"child-{i:03d}"])
    n = f.meta(sid="child-128", origin=["child-128"])
    f.expect("OM007", n)
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
