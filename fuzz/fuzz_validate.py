"""Coverage-guided fuzzing of the protocol validator (atheris / libFuzzer).

The input is a whole file: split on LF into lines, it is fed to a `Validator` of each profile
(`trace` and `stream`; the first byte also picks `legacy` and `truncated`), the last line without
LF as unterminated, then `finish()`; and once more as a captured text/event-stream (the SSE
parser). Whatever the bytes, the validator must answer with findings only:

- no exception escapes `feed`, `feed_raw`, `take`, `finish` or the SSE parser;
- every finding names a registered rule with its registered severity (or a legacy/truncated
  downgrade to warning), a line within the input, and a message;
- feeding the same lines again gives the same findings (no state leaks between validators).

Seeded from the conformance protocol fixtures (whole streams and traces), the per-line fixtures
and the examples (`fuzz/seed_corpus.py --files`). Run through `make fuzz` (FUZZ_SECONDS per
target) or directly:
    python fuzz/fuzz_validate.py .fuzz-corpus/validate -max_total_time=60 -dict=.fuzz-corpus/omnimessage.dict
"""

from __future__ import annotations

import contextlib
import sys

try:
    import atheris
except ImportError:  # replaying fixtures (python/tests/test_fuzz_crashes.py) needs no fuzzer
    atheris = None

with atheris.instrument_imports(include=["omnimessage"]) if atheris is not None else contextlib.nullcontext():
    from omnimessage.validate.engine.rules import PROFILES, RULES
    from omnimessage.validate.engine.validator import Finding, Validator
    from omnimessage.validate.sources.sse import iter_lines_bytes, validate_sse

SEVERITIES = frozenset({"error", "warning", "info"})
MAX_LINE = 1 << 20


def check(findings: list[Finding], n_lines: int, where: str) -> None:
    for f in findings:
        rule = RULES.get(f.rule)
        if rule is None:
            raise AssertionError(f"{where}: unregistered rule {f.rule!r}")
        if f.severity not in SEVERITIES:
            raise AssertionError(f"{where}: {f.rule} with severity {f.severity!r}")
        if f.severity != rule.severity and f.severity != "warning":
            raise AssertionError(f"{where}: {f.rule} is {rule.severity}, reported as {f.severity}")
        if not 0 <= f.line <= max(n_lines, 1):
            raise AssertionError(f"{where}: {f.rule} on line {f.line} of {n_lines}")
        if not f.message:
            raise AssertionError(f"{where}: {f.rule} without a message")


def run_lines(data: bytes, profile: str, legacy: bool, truncated: bool) -> list[Finding]:
    v = Validator(profile, legacy=legacy, truncated=truncated, source="<fuzz>")
    parts = data.split(b"\n")
    last = parts.pop()
    out: list[Finding] = []
    number = 0
    for raw in parts:
        number += 1
        out += v.feed(raw, line=number)
    if last:
        number += 1
        out += v.feed(last, line=number, terminated=False)
    out += v.finish()
    check(out, number, f"{profile} lines")
    return out


def run_sse(data: bytes, legacy: bool) -> list[Finding]:
    v = Validator("stream", legacy=legacy, source="<fuzz.sse>")
    out: list[Finding] = []
    validate_sse(iter_lines_bytes(iter([data]), MAX_LINE), v, out.append, max_bytes=MAX_LINE)
    out += v.finish()
    check(out, data.count(b"\n") + data.count(b"\r") + 1, "sse")  # SSE lines end at CR LF, LF or CR
    return out


def test_one_input(data: bytes) -> None:
    if not data:
        return
    flags, body = data[0], data[1:]
    legacy, truncated = bool(flags & 1), bool(flags & 2)
    for profile in PROFILES:
        first = run_lines(body, profile, legacy, truncated)
        if flags & 4:  # determinism: a second validator over the same lines says the same
            again = run_lines(body, profile, legacy, truncated)
            if [(f.rule, f.line, f.message) for f in first] != [(f.rule, f.line, f.message) for f in again]:
                raise AssertionError(f"{profile}: two validators disagree on the same input")
    run_sse(body, legacy)


def main() -> None:
    if atheris is None:
        raise SystemExit("atheris is not installed (pip install atheris; Linux x86_64, Python < 3.14)")
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
