"""The result of validating one input or many: :class:`Report` (findings held, everything counted).

A report is what :func:`omnimessage.validate.validate_path` returns and what `omnimessage validate`
builds its summary and exit status on. It holds at most `max_findings` findings and counts every
finding per (rule, severity), so its size does not grow with the input. Reports merge: the results
of inputs validated apart (other processes, other machines) add up to the report of one run over
all of them, whatever the order (:meth:`Report.merge` is associative and commutative; equality
ignores the order findings, failures and notes were added in).

Caps (memory never grows with the input):

- findings: `max_findings` held; beyond that the smallest in :func:`finding_key` order are kept
  (so merging in any order keeps the same ones) and the rest only counted;
- failures and notes: :data:`MAX_LISTED` each, the rest counted (`unlisted_failures`,
  `unlisted_notes`; a failure is never silent: any failure makes `ok` false);
- server_event types: :data:`MAX_SERVER_EVENT_TYPES` names, the rest counted as `<other>`.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Final

from omnimessage.text.sanitize import printable, sanitize
from omnimessage.validate.engine.finding import Finding
from omnimessage.validate.engine.rules import RULES, Severity
from omnimessage.validate.engine.state import MAX_SERVER_EVENT_TYPES
from omnimessage.validate.reporting.limit import DEFAULT_MAX_FINDINGS

if TYPE_CHECKING:
    from omnimessage.validate.sources.inputs import UnitResult

__all__ = ["MAX_EVENT_TYPE_CHARS", "MAX_LISTED", "Report", "finding_key"]

MAX_LISTED: Final = 1000
"""Failures (unreadable inputs) and notes a report lists, each; the rest are counted."""
MAX_EVENT_TYPE_CHARS: Final = 60
"""A server_event type is shown (and written to JSON) cut to this many characters."""
OTHER_EVENTS: Final = "<other>"
JSON_VERSION: Final = 1
TOOL: Final = "omnimessage-validate"


def finding_key(f: Finding) -> tuple[str, int, str, str, str, str]:
    """The canonical order of findings: by source (path), line, rule, then the rest."""
    return (f.path, f.line, f.rule, f.severity, f.pointer, f.message)


def _event_type(kind: str) -> str:
    return sanitize(kind if len(kind) <= MAX_EVENT_TYPE_CHARS else kind[:MAX_EVENT_TYPE_CHARS] + "...")


def event_types(events: Counter[str]) -> dict[str, int]:
    """server_event counts by (sanitised, cut) type, sorted by type."""
    out: Counter[str] = Counter()
    for kind, n in events.items():
        out[_event_type(kind)] += n
    return dict(sorted(out.items()))


class Report:
    """Findings and counts of a validation run over one or more inputs.

    Attributes:
        counts: every finding counted per `(rule, severity)`, held or not.
        inputs: inputs validated (a file, a session of rotated files, stdin, a stream).
        sessions: trace-root sessions among them.
        files, lines, messages, bytes: what was read.
        server_events: `server_event` types of SSE inputs, counted.
        failures: inputs that could not be read (`path: why`); they make `ok` false.
        notes: remarks on inputs (gaps in a stream, a likely profile mix-up).
        max_findings: how many findings the report holds.
        seconds: wall time, when measured (not part of equality).

    >>> from omnimessage.validate import Finding, Report
    >>> r = Report()
    >>> r.add(Finding("OM201", "error", "no session_meta first", "t.jsonl", 1))
    >>> (r.ok, r.errors, r.warnings, r.by_rule)
    (False, 1, 0, {'OM201': 1})
    >>> Report.from_json(r.to_json()) == r
    True
    """

    __slots__ = ("_held", "bytes", "counts", "failures", "files", "inputs", "lines", "max_findings", "messages",
                 "notes", "seconds", "server_events", "sessions", "unlisted_failures", "unlisted_notes")

    def __init__(self, *, max_findings: int = DEFAULT_MAX_FINDINGS) -> None:
        if max_findings < 0:
            raise ValueError("max_findings must be >= 0")
        self.max_findings = max_findings
        self._held: list[Finding] = []
        self.counts: Counter[tuple[str, str]] = Counter()
        self.inputs = 0
        self.sessions = 0
        self.files = 0
        self.lines = 0
        self.messages = 0
        self.bytes = 0
        self.server_events: Counter[str] = Counter()
        self.failures: list[str] = []
        self.unlisted_failures = 0
        self.notes: list[str] = []
        self.unlisted_notes = 0
        self.seconds = 0.0

    # ------------------------------------------------------------------ reading

    @property
    def findings(self) -> list[Finding]:
        """The findings held (at most `max_findings`), in the order they were added while under the cap."""
        if len(self._held) > self.max_findings:
            self._compact()
        return list(self._held)

    def sorted_findings(self) -> list[Finding]:
        """The findings held, in canonical order (:func:`finding_key`)."""
        return sorted(self.findings, key=finding_key)

    @property
    def errors(self) -> int:
        """Findings of severity `error`, held or not."""
        return sum(n for (_, sev), n in self.counts.items() if sev == "error")

    @property
    def warnings(self) -> int:
        """Findings of severity `warning`, held or not."""
        return sum(n for (_, sev), n in self.counts.items() if sev != "error")

    @property
    def by_rule(self) -> dict[str, int]:
        """Findings per rule id, sorted by id."""
        out: Counter[str] = Counter()
        for (rule, _), n in self.counts.items():
            out[rule] += n
        return dict(sorted(out.items()))

    @property
    def by_severity(self) -> dict[str, int]:
        """Findings per severity (`error`, `warning`)."""
        return {"error": self.errors, "warning": self.warnings}

    @property
    def beyond(self) -> Counter[tuple[str, str]]:
        """Findings counted but not held, per `(rule, severity)`."""
        held: Counter[tuple[str, str]] = Counter((f.rule, f.severity) for f in self.findings)
        return self.counts - held

    @property
    def failed(self) -> int:
        """Inputs that could not be read (listed or not)."""
        return len(self.failures) + self.unlisted_failures

    @property
    def ok(self) -> bool:
        """No error found and every input read (warnings allowed): the CLI's exit status 0."""
        return not self.errors and not self.failed

    @property
    def exit_code(self) -> int:
        """`omnimessage validate`'s exit status: 0 ok, 1 errors, 2 an input could not be read."""
        if self.failed:
            return 2
        return 1 if self.errors else 0

    # ------------------------------------------------------------------ building

    def add(self, f: Finding) -> None:
        """Count a finding, and hold it while there is room (see the module's caps)."""
        self.counts[(f.rule, f.severity)] += 1
        if self.max_findings:
            self._held.append(f)
            if len(self._held) >= 2 * self.max_findings:
                self._compact()

    def add_failure(self, failure: str) -> None:
        """An input that could not be read (`path: why`)."""
        self.failures.append(failure)
        if len(self.failures) > 2 * MAX_LISTED:
            self._compact_lists()

    def add_note(self, note: str) -> None:
        """A remark on the run or an input."""
        self.notes.append(note)
        if len(self.notes) > 2 * MAX_LISTED:
            self._compact_lists()

    def merge(self, other: Report | UnitResult, *, findings: bool = True) -> None:
        """Add another report, or the result of one input (`inputs.run_unit`), to this one.

        Associative and commutative up to order: however results are grouped and ordered, the
        merged report equals (`==`) the one built in a single run. `findings=False` skips the
        findings `other` holds (not their counts of findings beyond its cap): the caller has already
        :meth:`add`-ed them one by one, as `omnimessage validate` does while streaming them.
        """
        if isinstance(other, Report):
            if findings:
                for f in other.findings:
                    self.add(f)
            self.counts.update(other.beyond)
            self.sessions += other.sessions
            self.inputs += other.inputs
            self.unlisted_failures += other.unlisted_failures
            self.unlisted_notes += other.unlisted_notes
            for fail in other.failures:
                self.add_failure(fail)
            for note in other.notes:
                self.add_note(note)
            self.seconds += other.seconds
        else:
            if findings:
                for f in other.findings:
                    self.add(f)
            self.counts.update(other.beyond)
            self.inputs += 1
            self.sessions += other.sessions
            if other.failure:
                self.add_failure(other.failure)
            if other.note:
                self.add_note(f"{other.name}: {other.note}")
        self.files += other.files
        self.lines += other.lines
        self.messages += other.messages
        self.bytes += other.bytes
        self._add_events(other.server_events)

    def _add_events(self, events: Counter[str]) -> None:
        self.server_events.update(events)
        names = [k for k in self.server_events if k != OTHER_EVENTS]
        if len(names) > MAX_SERVER_EVENT_TYPES:
            for k in sorted(names)[MAX_SERVER_EVENT_TYPES:]:
                self.server_events[OTHER_EVENTS] += self.server_events.pop(k)

    def _compact(self) -> None:
        """Keep the `max_findings` smallest findings (canonical order), whatever order they came in."""
        self._held.sort(key=finding_key)
        del self._held[self.max_findings:]

    def _compact_lists(self) -> None:
        for name, unlisted in (("failures", "unlisted_failures"), ("notes", "unlisted_notes")):
            items: list[str] = getattr(self, name)
            if len(items) > MAX_LISTED:
                items.sort()
                setattr(self, unlisted, getattr(self, unlisted) + len(items) - MAX_LISTED)
                del items[MAX_LISTED:]

    # ------------------------------------------------------------------ equality

    def canonical(self) -> tuple[object, ...]:
        """What equality compares: everything but `seconds` and the order things were added in."""
        self._compact_lists()
        return (
            tuple(self.sorted_findings()), sorted((+self.counts).items()),
            self.inputs, self.sessions, self.files, self.lines, self.messages, self.bytes,
            sorted((+self.server_events).items()), sorted(self.failures), self.unlisted_failures,
            sorted(self.notes), self.unlisted_notes,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Report):
            return NotImplemented
        return self.canonical() == other.canonical()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"<Report ok={self.ok} inputs={self.inputs} files={self.files} lines={self.lines} "
                f"errors={self.errors} warnings={self.warnings} failures={self.failed}>")

    # ------------------------------------------------------------------ JSON

    def summary_dict(self) -> dict[str, object]:
        """The summary as JSON data (the `summary` of `--format json`), every string from input sanitised."""
        self._compact_lists()
        return {
            "inputs": self.inputs,
            "sessions": self.sessions,
            "files": self.files,
            "lines": self.lines,
            "messages": self.messages,
            "bytes": self.bytes,
            "errors": self.errors,
            "warnings": self.warnings,
            "by_rule": [
                {"rule": r, "name": RULES[r].name, "severity": sev, "count": n}
                for (r, sev), n in sorted((+self.counts).items())
            ],
            "server_events": {
                "count": sum(self.server_events.values()),
                "types": event_types(self.server_events),
            },
            "unreadable": [sanitize(x) for x in self.failures],
            "unlisted_unreadable": self.unlisted_failures,
            "notes": [sanitize(x) for x in self.notes],
            "unlisted_notes": self.unlisted_notes,
            "ok": self.ok,
        }

    def to_dict(self) -> dict[str, object]:
        """`{"version": 1, "tool": ..., "findings": [...], "summary": {...}}`: the document
        `omnimessage validate --format json` writes, with the findings this report holds."""
        return {"version": JSON_VERSION, "tool": TOOL, "findings": [finding_dict(f) for f in self.findings],
                "summary": self.summary_dict()}

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON text (strings from input sanitised, so it is safe to show)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes, *, max_findings: int = DEFAULT_MAX_FINDINGS) -> Report:
        """Read a report back from :meth:`to_json` (or `omnimessage validate --format json` output).

        Lossless unless strings had to be sanitised (control characters in a path or a message are
        written escaped) or server_event types were cut. Raises ValueError on anything else.
        """
        try:
            doc = json.loads(text, parse_constant=_no_constant)
            if not isinstance(doc, dict) or doc.get("version") != JSON_VERSION:
                raise ValueError("not an omnimessage validate JSON report (version 1)")
            s = doc["summary"]
            r = cls(max_findings=max(max_findings, len(doc["findings"])))
            held: Counter[tuple[str, str]] = Counter()
            for d in doc["findings"]:
                rule, sev = _rule(d["rule"], d["severity"])
                r._held.append(Finding(rule, sev, _str(d["message"]), _str(d["path"]), _count(d["line"]),
                                       _str(d.get("pointer", ""))))
                held[(rule, sev)] += 1
            for row in s["by_rule"]:
                r.counts[_rule(row["rule"], row["severity"])] += _count(row["count"])
            for key in ("inputs", "sessions", "files", "lines", "messages", "bytes"):
                setattr(r, key, _count(s.get(key, 0)))
            r.server_events.update({_str(k): _count(v) for k, v in s["server_events"]["types"].items()})
            r.failures = [_str(x) for x in s["unreadable"]]
            r.unlisted_failures = _count(s.get("unlisted_unreadable", 0))
            r.notes = [_str(x) for x in s.get("notes", [])]
            r.unlisted_notes = _count(s.get("unlisted_notes", 0))
            short = [k for k, n in held.items() if r.counts[k] < n]
            if short:
                raise ValueError(f"not an omnimessage validate JSON report: by_rule counts fewer findings than "
                                 f"it lists: {short[:3]!r}")
        except (KeyError, TypeError, AttributeError, OverflowError) as exc:
            raise ValueError(f"not an omnimessage validate JSON report: {exc.__class__.__name__}: {exc}") from None
        except RecursionError:
            raise ValueError("not an omnimessage validate JSON report: nested too deeply") from None
        return r


def _no_constant(name: str) -> object:
    raise ValueError(f"not an omnimessage validate JSON report: {name} is not a count")


def _count(v: object) -> int:
    """A count or a line number: an integer >= 0 (not a bool, a float or a string)."""
    if type(v) is not int or v < 0:
        raise ValueError(f"not an omnimessage validate JSON report: {printable(repr(v), 60)} is not a count >= 0")
    return v


def _str(v: object) -> str:
    if not isinstance(v, str):
        raise ValueError(f"not an omnimessage validate JSON report: {printable(repr(v), 60)} is not a string")
    return v


def _rule(rule: object, sev: object) -> tuple[str, Severity]:
    if not isinstance(rule, str) or rule not in RULES or sev not in ("error", "warning"):
        raise ValueError(f"not an omnimessage validate JSON report: unknown rule or severity: "
                         f"{printable(repr(rule), 60)} {printable(repr(sev), 20)}")
    return rule, sev


def finding_dict(f: Finding) -> dict[str, str | int]:
    """`f.to_dict()` with every string from input sanitised."""
    return {k: sanitize(v) if isinstance(v, str) else v for k, v in f.to_dict().items()}
