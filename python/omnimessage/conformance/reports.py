"""Reports of a run: text for a terminal, JSON for tools, JUnit XML for CI. Each states the level
each case has and the level the run reached (:mod:`.levels`).

What a testee supplied (its handshake, answers, stderr) is sanitised where it enters a message
(:mod:`.judge`, :mod:`.testee_process`); every report passes each of its lines through the one
sanitiser once more (:func:`omnimessage.text.sanitize.sanitize_lines`), so no control character and no line
starting with `::` reaches a terminal, a CI log or a report file.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from omnimessage.files.write_errors import named
from omnimessage.text.sanitize import sanitize, sanitize_lines

from .judge import describe_expectation
from .outcomes import FAILED, PASSED, SKIPPED, XFAIL, XPASS, Outcome, RunResult
from .suite import PROTOCOL_VERSION, Suite

__all__ = [
    "MARK",
    "Progress",
    "format_failure",
    "print_result",
    "report_json",
    "sanitized",
    "write_json_report",
    "write_junit",
]

# ---------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------

MARK = {PASSED: "PASS ", FAILED: "FAIL ", SKIPPED: "SKIP ", XFAIL: "XFAIL", XPASS: "XPASS"}


def _indent(text: str, pad: str = "    ") -> str:
    return "\n".join(pad + ln for ln in text.split("\n"))


def format_failure(o: Outcome) -> str:
    """A failed case for a person: where it comes from, what was expected, what happened."""
    c = o.case
    lines = [f"{MARK[o.status]} {c.id}  [{c.group}, spec section {c.spec}]", f"    {c.description}"]
    lines.append(
        f"    input: {c.source}"
        + (f" (mode {c.mode})" if c.mode != "strict" else "")
        + (f" (max_line_bytes {c.max_line_bytes})" if c.max_line_bytes else "")
    )
    lines.append(f"    expected: {describe_expectation(c)}")
    lines.append(_indent(o.message))
    return sanitize_lines("\n".join(lines))


def print_result(result: RunResult, out: TextIO, *, verbose: bool, streamed: bool) -> None:
    """The text report: failures (unless `streamed` already showed them), run-level problems, a table per group."""
    if not streamed:
        for o in result.outcomes:
            if o.failed and not o.not_run:
                out.write(format_failure(o) + "\n")
    if result.n_not_run:  # once, not once per case: the error below says why
        out.write(f"NOT RUN {result.n_not_run} cases (each counted as failed)\n")
    for s in result.stale:
        out.write(sanitize_lines(f"STALE {s}") + "\n")
    for e in result.errors:
        out.write(sanitize_lines(f"ERROR {e}") + "\n")
    for w in result.warnings:
        out.write(sanitize_lines(f"WARNING {w}") + "\n")
    groups = result.by_group()
    if groups:
        width = max(len(g) for g in groups)
        out.write("\n")
        for g, n in groups.items():
            total = sum(n.values())
            extra = "".join(
                f", {n[k]} {label}" for k, label in ((XFAIL, "expected failures"), (XPASS, "unexpected passes")) if n[k]
            )
            out.write(
                f"  {g:<{width}}  {n[PASSED]:>4}/{total:<4} passed, {n[FAILED]} failed, {n[SKIPPED]} skipped{extra}\n"
            )
    if result.seed is not None:
        seed = result.seed
        out.write(f"fresh cases: {result.n_fresh} generated from seed {seed}; replay them with --seed {seed}\n")
    out.write(f"{result.summary()}\n")


class Progress:
    """One updating line on a terminal while a long run goes on (`12/1270 rejection.x`); silent when
    `stream` is not a terminal. Redrawn at most 10 times a second, erased by :meth:`close`; what it
    shows passes through the one sanitiser."""

    def __init__(self, stream: TextIO, total: int, label: str, *, enabled: bool | None = None) -> None:
        self.stream, self.total, self.label = stream, total, label
        self.enabled = _isatty(stream) if enabled is None else enabled
        self.done = 0
        self.last = -1.0
        self.shown = False
        self._lock = threading.Lock()  # steps may come from worker threads (the mutation check)

    def step(self, what: str = "") -> None:
        """One more unit done (`what`: its name)."""
        with self._lock:
            self.done += 1
            if not self.enabled:
                return
            now = time.monotonic()
            if self.shown and now - self.last < 0.1 and self.done < self.total:
                return
            self.last = now
            self._draw(f"{self.label} {self.done}/{self.total} {what}")

    def note(self, what: str) -> None:
        """Show what is going on before the first unit is done."""
        if self.enabled:
            with self._lock:
                self._draw(f"{self.label}: {what}")

    def _draw(self, line: str) -> None:
        try:
            width = os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            width = 0
        width = width if width > 0 else 80  # a terminal of unknown size (a fresh pty says 0)
        text = sanitize(line)[: max(10, width - 1)]
        self.stream.write("\r\x1b[K" + text)
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the line (a terminal only)."""
        with self._lock:
            if self.shown:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self.shown = False


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------


def sanitized(value: Any) -> Any:
    """JSON data with every string (keys included) through the one sanitiser, line feeds of our own kept."""
    if isinstance(value, str):
        return sanitize_lines(value)
    if isinstance(value, dict):
        return {sanitize(str(k)): sanitized(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [sanitized(v) for v in value]
    return value


def report_json(result: RunResult, argv: Sequence[str], suite: Suite) -> dict[str, Any]:
    """The JSON report; every string in it sanitised."""
    report: dict[str, Any] = sanitized({
        "suite_version": suite.suite_version,
        "protocol_version": PROTOCOL_VERSION,
        "command": list(argv),
        "implementation": result.implementation,
        "seed": result.seed,
        "fresh_cases": result.n_fresh,
        "gate": result.gate,
        "level_reached": result.level_reached,
        "summary": {
            "passed": result.count(PASSED),
            "failed": result.n_failed,
            "skipped": result.count(SKIPPED),
            "expected_failures": result.count(XFAIL),
            "unexpected_passes": result.count(XPASS),
            "failed_not_gating": result.n_failed_ungated,
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
                "level": o.case.level,
                "status": o.status,
                "not_run": o.not_run,
                "message": "not run (see errors)" if o.not_run else o.message,
                "expected_failure_reason": o.reason or None,
                "duration_ms": round(o.duration * 1000, 3),
            }
            for o in result.outcomes
        ],
    })
    return report


def write_json_report(result: RunResult, path: str | os.PathLike[str], argv: Sequence[str], suite: Suite) -> None:
    with named(path):  # a full disk names the report file
        Path(path).write_text(json.dumps(report_json(result, argv, suite), indent=1, ensure_ascii=False) + "\n",
                              "utf-8")


# ---------------------------------------------------------------------------
# JUnit XML
# ---------------------------------------------------------------------------


def write_junit(result: RunResult, path: str | os.PathLike[str], name: str) -> None:
    import xml.etree.ElementTree as ET

    seed = f" (seed {result.seed})" if result.seed is not None else ""
    root = ET.Element(
        "testsuites",
        name=_xml_safe(f"omnimessage-conformance {name}{seed}, level reached: {result.level_reached}"),
        tests=str(len(result.outcomes) + len(result.stale)),
        failures=str(result.n_failed),
        skipped=str(result.count(SKIPPED) + result.count(XFAIL) + result.n_failed_ungated),
        time=f"{result.duration:.3f}",
    )
    suites: dict[str, ET.Element] = {}
    for o in result.outcomes:
        s = suites.get(o.case.group)
        if s is None:
            s = suites[o.case.group] = ET.SubElement(root, "testsuite", name=o.case.group)
            if result.seed is not None:  # every suite says how to replay the run's fresh cases
                props = ET.SubElement(s, "properties")
                ET.SubElement(props, "property", name="seed", value=str(result.seed))
                ET.SubElement(props, "property", name="replay", value=f"--seed {result.seed}")
        tc = ET.SubElement(
            s, "testcase", classname=f"omnimessage.conformance.{o.case.group}", name=o.case.id, time=f"{o.duration:.4f}"
        )
        ET.SubElement(ET.SubElement(tc, "properties"), "property", name="level", value=o.case.level)
        if not result.gating(o) and o.failed:  # below --level: reported, not a failure of the run
            ET.SubElement(tc, "skipped", type="not_gating",
                          message=_xml_safe(f"{o.case.level} case failed (not gating at --level {result.gate}): "
                                            + o.message.split(chr(10), 1)[0])[:500])
        elif o.not_run:  # why: once, in the `run` suite below
            ET.SubElement(tc, "failure", message="not run (see the run error)", type="not_run")
        elif o.status in (FAILED, XPASS):
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
        cases = [c for c in s if c.tag == "testcase"]
        s.set("tests", str(len(cases)))
        s.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        s.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    with named(path):  # a full disk names the report file
        ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _xml_safe(s: str) -> str:
    """Sanitised lines (no control character but our line feeds, no lone surrogate): what XML 1.0 can carry,
    U+FFFE and U+FFFF aside, replaced."""
    return "".join(c if c not in "\ufffe\uffff" else "?" for c in sanitize_lines(s))
