"""Reports of a run: text for a terminal, JSON for tools, JUnit XML for CI.

What a testee supplied (its handshake, answers, stderr) is sanitised where it enters a message
(:mod:`.judge`, :mod:`.testee_process`); every report passes each of its lines through the one
sanitiser once more (:func:`.escaping.sanitize_lines`), so no control character and no line
starting with `::` reaches a terminal, a CI log or a report file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .escaping import sanitize, sanitize_lines
from .judge import describe_expectation
from .outcomes import FAILED, PASSED, SKIPPED, XFAIL, XPASS, Outcome, RunResult
from .suite import PROTOCOL_VERSION, Suite

__all__ = [
    "MARK", "format_failure", "print_result", "report_json", "sanitized", "write_json_report", "write_junit",
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
            if o.failed:
                out.write(format_failure(o) + "\n")
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
    out.write(f"{result.summary()}\n")


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
    })
    return report


def write_json_report(result: RunResult, path: str | os.PathLike[str], argv: Sequence[str], suite: Suite) -> None:
    Path(path).write_text(json.dumps(report_json(result, argv, suite), indent=1, ensure_ascii=False) + "\n", "utf-8")


# ---------------------------------------------------------------------------
# JUnit XML
# ---------------------------------------------------------------------------


def write_junit(result: RunResult, path: str | os.PathLike[str], name: str) -> None:
    import xml.etree.ElementTree as ET

    root = ET.Element(
        "testsuites",
        name=_xml_safe(f"omnimessage-conformance {name}"),
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
    """Sanitised lines (no control character but our line feeds, no lone surrogate): what XML 1.0 can carry,
    U+FFFE and U+FFFF aside, replaced."""
    return "".join(c if c not in "\ufffe\uffff" else "?" for c in sanitize_lines(s))
