"""Reports: human text, JSON, JUnit XML, GitHub workflow annotations, SARIF 2.1.0; a TTY progress line.

Every reporter streams: findings are written as they come (JUnit per input), so memory does not
grow with the number of findings. Every string from input (paths, messages quoting keys and values,
pointers, server_event types, notes, unreadable inputs) goes through the one sanitiser,
:func:`omnimessage.text.sanitize.sanitize`, in every format: one line, no control characters, no
line starting with `::`.
"""

from __future__ import annotations

import json
import time
from typing import Final, TextIO
from urllib.parse import quote
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from omnimessage.text.ci import workflow_data, workflow_property
from omnimessage.text.sanitize import sanitize
from omnimessage.validate.engine.rules import RULES
from omnimessage.validate.engine.validator import Finding
from omnimessage.validate.reporting.html import HtmlReporter
from omnimessage.validate.reporting.progress_log import format_duration
from omnimessage.validate.reporting.report import event_types, finding_dict
from omnimessage.validate.reporting.reporter import Reporter, Summary

__all__ = ["FORMATS", "Progress", "Reporter", "Summary", "make_reporter"]

FORMATS: Final = ("text", "json", "junit", "github", "sarif", "html")
TOOL_NAME: Final = "omnimessage-validate"


# ------------------------------------------------------------------ text

_RED, _YELLOW, _BOLD, _DIM, _RESET = "\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[2m", "\x1b[0m"


class TextReporter(Reporter):
    """`path:line: OM201 error: message`, the rule's hint under its first finding, a summary table."""

    def __init__(self, out: TextIO, color: bool) -> None:
        super().__init__(out)
        self.color = color
        self.hinted: set[str] = set()

    def _c(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text

    def finding(self, f: Finding) -> None:
        sev = self._c(_RED if f.severity == "error" else _YELLOW, f.severity)
        path = sanitize(f.path)
        loc = f"{path}:{f.line}" if f.line else path
        self.out.write(f"{self._c(_BOLD, loc)}: {self._c(_BOLD, f.rule)} {sev}: {sanitize(f.message)}\n")
        if f.rule not in self.hinted:
            self.hinted.add(f.rule)
            self.out.write(self._c(_DIM, f"    hint ({RULES[f.rule].name}): {f.hint}") + "\n")

    def end(self, s: Summary) -> None:
        w = self.out.write
        if s.counts:
            w("\n")
            rows = [(r, sev, n, RULES[r].name) for (r, sev), n in sorted(s.counts.items())]
            w(f"{'rule':<7} {'severity':<8} {'count':>7}  name\n")
            for r, sev, n, name in rows:
                sev_c = self._c(_RED if sev == "error" else _YELLOW, f"{sev:<8}")
                w(f"{r:<7} {sev_c} {n:>7}  {name}\n")
        if s.server_events:
            kinds = ", ".join(f"{k} {n}" for k, n in event_types(s.server_events).items())
            w(f"server events (not OmniMessages): {sum(s.server_events.values())} ({kinds})\n")
        for note in s.notes:
            w(f"note: {sanitize(note)}\n")
        if s.unlisted_notes:
            w(f"note: {s.unlisted_notes} more note(s), not listed\n")
        for fail in s.failures:
            w(self._c(_RED, f"unreadable: {sanitize(fail)}") + "\n")
        if s.unlisted_failures:
            w(self._c(_RED, f"unreadable: {s.unlisted_failures} more input(s), not listed") + "\n")
        if s.errors:
            status = self._c(_RED, "FAILED")
        elif s.failed:  # nothing wrong was found, but not everything could be read (exit 2)
            status = self._c(_RED, "ERROR")
        else:
            status = self._c("\x1b[32m", "OK")
        w(
            f"{status}: {s.inputs} input(s), {s.files} file(s), {s.lines} line(s), {s.messages} message(s): "
            f"{s.errors} error(s), {s.warnings} warning(s)\n"
        )


# ------------------------------------------------------------------ json


class JsonReporter(Reporter):
    """One JSON document: `{"version": 1, "findings": [...], "summary": {...}}`, written as it goes."""

    def begin(self) -> None:
        self.out.write('{"version":1,"tool":"omnimessage-validate","findings":[')
        self.first = True

    def finding(self, f: Finding) -> None:
        self.out.write(("\n" if self.first else ",\n") + json.dumps(finding_dict(f), ensure_ascii=False))
        self.first = False

    def end(self, s: Summary) -> None:
        self.out.write('\n],"summary":' + json.dumps(s.summary_dict(), ensure_ascii=False) + "}\n")


# ------------------------------------------------------------------ github


class GithubReporter(Reporter):
    """GitHub Actions workflow commands: `::error file=...,line=...,title=...::message`. With
    `max_annotations` N (GitHub shows 10 of each severity per step), findings past the Nth of their
    severity are plain log lines, and a closing `::notice` says how many were not annotated."""

    def __init__(self, out: TextIO, max_annotations: int = 0) -> None:
        super().__init__(out)
        self.max_annotations = max_annotations
        self.annotated: dict[str, int] = {}
        self.plain = 0

    def finding(self, f: Finding) -> None:
        cmd = "error" if f.severity == "error" else "warning"
        n = self.annotated[cmd] = self.annotated.get(cmd, 0) + 1
        if self.max_annotations and n > self.max_annotations:
            self.plain += 1
            loc = f"{sanitize(f.path)}:{f.line}" if f.line else sanitize(f.path)
            self.out.write(f"omnimessage validate: {loc}: {f.rule} {f.severity} (not annotated): "
                           f"{sanitize(f.message)}\n")
            return
        props = [f"file={workflow_property(f.path)}"]
        if f.line:
            props.append(f"line={f.line}")
        props.append(f"title={workflow_property(f'{f.rule} {f.name}')}")
        self.out.write(f"::{cmd} {','.join(props)}::{workflow_data(f.message + ' (hint: ' + f.hint + ')')}\n")

    def end(self, s: Summary) -> None:
        for fail in s.failures:
            self.out.write(f"::error title=unreadable input::{workflow_data(fail)}\n")
        if s.unlisted_failures:
            self.out.write(f"::error title=unreadable input::{s.unlisted_failures} more input(s), not listed\n")
        if self.plain:
            self.out.write(f"::notice title=omnimessage: annotations capped::{self.plain} more finding(s) not "
                           f"annotated (GitHub shows {self.max_annotations} error and {self.max_annotations} warning "
                           f"annotations per step): each is a log line above, and in the step summary's counts\n")
        self.out.write(
            f"omnimessage validate: {s.inputs} input(s), {s.messages} message(s): {s.errors} error(s), "
            f"{s.warnings} warning(s)\n"
        )


# ------------------------------------------------------------------ sarif


class SarifReporter(Reporter):
    """SARIF 2.1.0: one run, the whole rule catalogue as `tool.driver.rules`, one result per finding.
    `helpUri` and `informationUri` are absolute (`rules_url`, `--rules-url`), or absent without one:
    a relative link goes nowhere in code scanning."""

    def __init__(self, out: TextIO, rules_url: str = "") -> None:
        super().__init__(out)
        self.rules_url = rules_url

    def begin(self) -> None:
        url = self.rules_url
        self.index = {rid: i for i, rid in enumerate(RULES)}
        rules = [
            {
                "id": r.id,
                "name": r.name,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": r.explanation},
                "help": {"text": r.hint},
                **({"helpUri": f"{url}#{r.id.lower()}"} if url else {}),
                "defaultConfiguration": {"level": r.severity},
                "properties": {"profiles": sorted(r.profiles)},
            }
            for r in RULES.values()
        ]
        head = {
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": TOOL_NAME, **({"informationUri": url} if url else {}),
                                          "rules": rules}}}],
        }
        text = json.dumps(head, ensure_ascii=False)
        # open the run object again to stream its results
        self.out.write(text[: -len("}]}")] + ',"results":[')
        self.first = True

    def finding(self, f: Finding) -> None:
        loc: dict[str, object] = {"artifactLocation": {"uri": quote(f.path.encode("utf-8", "surrogateescape"))}}
        if f.line:
            loc["region"] = {"startLine": f.line}
        result = {
            "ruleId": f.rule,
            "ruleIndex": self.index[f.rule],
            "level": f.severity,
            "message": {"text": sanitize(f.message)},
            "locations": [{"physicalLocation": loc}],
        }
        if f.pointer:
            result["properties"] = {"pointer": sanitize(f.pointer)}
        self.out.write(("\n" if self.first else ",\n") + json.dumps(result, ensure_ascii=False))
        self.first = False

    def end(self, s: Summary) -> None:
        notes = [{"message": {"text": f"unreadable: {sanitize(x)}"}, "level": "error"} for x in s.failures]
        inv = {"executionSuccessful": not s.failed, "toolExecutionNotifications": notes}
        self.out.write('\n],"invocations":[' + json.dumps(inv) + "]}]}\n")


# ------------------------------------------------------------------ junit


class JunitReporter(Reporter):
    """JUnit XML: a `<testsuite>` per input, a `<testcase>` per finding (errors are failures, warnings
    pass with their text in `<system-out>`); an input with no finding is one passing test case."""

    def begin(self) -> None:
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="omnimessage validate">\n')
        self.current: list[Finding] = []

    def finding(self, f: Finding) -> None:
        self.current.append(f)

    def unit_end(self, name: str, ok_lines: int) -> None:
        found = self.current
        self.current = []
        name = sanitize(name)
        errors = sum(1 for f in found if f.severity == "error")
        w = self.out.write
        w(f"  <testsuite name={quoteattr(name)} tests=\"{max(1, len(found))}\" failures=\"{errors}\" errors=\"0\">\n")
        if not found:
            w(f"    <testcase classname={quoteattr(name)} name=\"valid\"/>\n")
        for f in found:
            case = f"{f.rule} {f.name} line {f.line}"
            path, message = sanitize(f.path), sanitize(f.message)
            w(f"    <testcase classname={quoteattr(path)} name={quoteattr(case)}>\n")
            text = xml_escape(_xml_text(f"{path}:{f.line}: {message}\nhint: {f.hint}"))
            if f.severity == "error":
                msg = quoteattr(_xml_text(message))
                w(f"      <failure type={quoteattr(f.rule)} message={msg}>{text}</failure>\n")
            else:
                w(f"      <system-out>warning {f.rule}: {text}</system-out>\n")
            w("    </testcase>\n")
        w("  </testsuite>\n")

    def end(self, s: Summary) -> None:
        for fail in map(sanitize, s.failures):
            self.out.write(
                f"  <testsuite name=\"unreadable\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
                f"    <testcase name={quoteattr(fail)}><error message={quoteattr(_xml_text(fail))}/></testcase>\n"
                f"  </testsuite>\n"
            )
        self.out.write("</testsuites>\n")


def _xml_text(s: str) -> str:
    """Drop what XML 1.0 cannot carry (control characters, lone surrogates)."""
    return "".join(
        c if (c in "\t\n\r" or " " <= c <= "\ud7ff" or "\ue000" <= c <= "\ufffd" or c > "\uffff") else "\ufffd"
        for c in s
    )


def make_reporter(fmt: str, out: TextIO, *, color: bool, rules_url: str = "", max_annotations: int = 0) -> Reporter:
    """The reporter of a format in :data:`FORMATS` writing to `out` (`color`: the text format's ANSI colours;
    `rules_url`: the absolute URL of docs/rules.md that SARIF and HTML link to)."""
    if fmt == "html":
        return HtmlReporter(out, rules_url)
    if fmt == "text":
        return TextReporter(out, color)
    if fmt == "json":
        return JsonReporter(out)
    if fmt == "junit":
        return JunitReporter(out)
    if fmt == "github":
        return GithubReporter(out, max_annotations)
    if fmt == "sarif":
        return SarifReporter(out, rules_url)
    raise ValueError(fmt)


# ------------------------------------------------------------------ progress


class Progress:
    """A one-line progress bar on a terminal (stderr); silent unless `enabled`.

    Appears only after `delay` seconds, so small inputs never show it; redrawn at most 10 times a
    second; erased at the end.
    """

    def __init__(self, out: TextIO, total: int, *, enabled: bool, delay: float = 0.5, clock: object = None) -> None:
        self.out = out
        self.total = total
        self.enabled = enabled
        self.delay = delay
        self.clock = clock if callable(clock) else time.monotonic
        self.start = self.clock()
        self.last = 0.0
        self.base = 0
        self.shown = False
        self.units_done = 0
        self.units = 0
        self.name = ""

    def unit(self, name: str) -> None:
        """The input now read."""
        self.name = name

    def done_unit(self, size: int) -> None:
        """An input of `size` bytes is done."""
        self.units_done += 1
        self.base += size
        self.update(0)

    def update(self, current: int) -> None:
        """`current` bytes of the input being read are done: redraw (at most 10 times a second)."""
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.delay or now - self.last < 0.1:
            return
        self.last = now
        done = self.base + current
        mb = done / 1e6
        rate = mb / max(now - self.start, 1e-9)
        if self.total > 0:
            frac = min(done / self.total, 1.0)
            bar = "#" * int(frac * 24)
            text = f"[{bar:<24}] {frac * 100:5.1f}% {mb:,.1f}/{self.total / 1e6:,.1f} MB {rate:,.1f} MB/s"
            if 0 < done < self.total:
                text += f" ETA {format_duration((self.total - done) / (done / max(now - self.start, 1e-9)))}"
        else:
            text = f"{mb:,.1f} MB {rate:,.1f} MB/s"
        if self.units > 1:
            text = f"{self.units_done}/{self.units} inputs {text}"
        name = sanitize(self.name if len(self.name) <= 40 else "..." + self.name[-37:])
        self.out.write(f"\r\x1b[2K{name} {text}")
        self.out.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the line (when shown)."""
        if self.shown:
            self.out.write("\r\x1b[2K")
            self.out.flush()
            self.shown = False
