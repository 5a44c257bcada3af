"""`omnimessage validate --format html`: one self-contained page (inline CSS and JavaScript, no
network: a Content-Security-Policy forbids every fetch) that works opened from disk.

At the top, the run's counts by rule and severity with filters (severity, rule, only the lines
with findings); then each input as a session timeline (:mod:`.timeline`): turns, requests with
their retries, streaming segments folded into the message they became, tool calls with their
approvals and outputs, subagents as nested cards along the `origin` chain, token usage over the
session; each finding on the line it concerns, with its rule's text and a link to it.

Bounded on huge inputs (the caps below): the first :data:`MAX_FINDINGS_SHOWN` findings are shown
in full, the rest counted; at most :data:`MAX_LINES_PER_INPUT` lines of an input and
:data:`MAX_LINES_TOTAL` in all are laid out, and at most :data:`MAX_TIMELINES` inputs get a
timeline (the rest list their findings alone); at most :data:`MAX_KEPT_BYTES` of input are kept
for the timelines (each line as a bounded summary, :func:`.timeline.summary`), and each input's
drawn section is spooled to a temporary file, not held. Standard input, URLs and SSE captures are
not read twice: their findings are listed without a timeline.
"""

from __future__ import annotations

import html
import tempfile
from collections import Counter
from importlib import resources
from typing import Final, TextIO

from omnimessage.files.safe_open import open_regular
from omnimessage.validate.engine.rules import RULES
from omnimessage.validate.engine.validator import Finding
from omnimessage.validate.reporting.html.render import (
    FindingsAt,
    esc,
    finding_html,
    rule_anchor,
    session_anchor,
    timeline_html,
)
from omnimessage.validate.reporting.html.timeline import Entry, build, read_entries
from omnimessage.validate.reporting.report import Report
from omnimessage.validate.reporting.reporter import Reporter

__all__ = ["MAX_FINDINGS_SHOWN", "MAX_LINES_PER_INPUT", "MAX_LINES_TOTAL", "MAX_TIMELINES", "HtmlReporter"]

MAX_FINDINGS_SHOWN: Final = 2000
"""Findings shown in full in one report; the rest are counted (by rule, in the summary)."""
MAX_LINES_PER_INPUT: Final = 5000
"""Lines of one input laid out as its timeline."""
MAX_LINES_TOTAL: Final = 50_000
"""Lines laid out in one report, over all inputs."""
MAX_TIMELINES: Final = 500
"""Inputs given a timeline in one report."""

MAX_KEPT_BYTES: Final = 8 * 1024 * 1024
"""Bytes of input kept for the timelines of one report (`timeline.kept_bytes`: each kept line's
strings, UTF-8, and a fixed overhead per line); lines beyond it are not laid out (the page says so).
The HTML drawn from them is spooled to a temporary file as each input ends, not held."""
SPOOL_BYTES: Final = 1024 * 1024
"""Drawn sections held in memory before the spool moves to a temporary file."""


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text("utf-8")


def _files_of(unit: object) -> list[str]:
    """The local files of an input, in order (none for standard input, URLs and SSE)."""
    files = getattr(unit, "files", None)
    if isinstance(files, tuple):
        paths = [p for _, p in files]
    elif type(unit).__name__ == "FileUnit":
        paths = [str(getattr(unit, "path", ""))]
    else:
        return []
    return [p for p in paths if "://" not in p]


class HtmlReporter(Reporter):
    """The HTML report: findings are held (at most :data:`MAX_FINDINGS_SHOWN`) until their input
    ends, when its timeline is drawn; the page is written at the end."""

    def __init__(self, out: TextIO, rules_url: str = "") -> None:
        super().__init__(out)
        self.rules_url = rules_url
        self.current: FindingsAt = {}
        self.shown = 0
        self.hidden: Counter[tuple[str, str]] = Counter()
        # closed by end(); a reporter lives for one run
        self.sections = tempfile.SpooledTemporaryFile(SPOOL_BYTES, mode="w+", encoding="utf-8")  # noqa: SIM115
        self.n_sections = 0
        self.bytes_left = MAX_KEPT_BYTES
        self.unit: object = None
        self.lines_left = MAX_LINES_TOTAL
        self.timelines = 0
        self.fired: set[str] = set()

    def begin(self) -> None:
        pass

    def finding(self, f: Finding) -> None:
        self.fired.add(f.rule)
        if self.shown >= MAX_FINDINGS_SHOWN:
            self.hidden[(f.rule, f.severity)] += 1
            return
        self.shown += 1
        self.current.setdefault((f.path, f.line), []).append(f)

    def unit_input(self, unit: object) -> None:
        """The input whose findings were just given (called before :meth:`unit_end`)."""
        self.unit = unit

    def unit_end(self, name: str, ok_lines: int) -> None:
        at, self.current = self.current, {}
        sec = f"s{self.n_sections}"
        entries: list[Entry] = []
        notes: list[str] = []
        files = _files_of(self.unit) if self.timelines < MAX_TIMELINES else []
        self.unit = None
        for path in files:
            budget = min(MAX_LINES_PER_INPUT - len(entries), self.lines_left)
            if budget <= 0 or self.bytes_left <= 0:
                notes.append(f"{path}: not laid out (the report's cap of lines or bytes was reached)")
                continue
            try:
                with open_regular(path) as fh:
                    got, more, kept = read_entries(fh, path, budget, self.bytes_left)
            except OSError:
                continue  # the validator reported why
            entries += got
            self.lines_left -= len(got)
            self.bytes_left -= kept
            if more:
                notes.append(f"{path}: the first {len(got)} lines are laid out; later findings are listed above")
        body, placed = "", set[tuple[str, int]]()
        if entries:
            self.timelines += 1
            body, placed = timeline_html(build(entries), at, self.rules_url, sec)
        loose = [f for key, fs in sorted(at.items()) if key not in placed for f in fs]
        sid = next((str(e.payload.get("session_id")) for e in entries if e.kind == "session_meta"), "")
        anchor = f' id="{session_anchor(sid)}"' if sid else ""
        errors = sum(1 for fs in at.values() for f in fs if f.severity == "error")
        warnings = sum(len(fs) for fs in at.values()) - errors
        head = (f'<h2>{esc(name)}</h2><div class="dim">{ok_lines} line(s) read, {errors} error(s), '
                f'{warnings} warning(s) shown{", session " + esc(sid) if sid else ""}</div>')
        extra = "".join(f'<div class="note">{esc(n)}</div>' for n in notes)
        if loose:
            rows = "".join(f'<div class="row hl has-f loose" data-rules="{f.rule}"><span class="ln">'
                           f'{esc(f.path) + ":" if len(files) > 1 else ""}{f.line or "-"}</span>'
                           f"{finding_html(f, self.rules_url)}</div>" for f in loose)
            extra += f'<div class="card loose"><div class="hd">findings not on a line shown below</div>{rows}</div>'
        self.sections.write(f'<section class="input" id="{sec}"{anchor}>{head}{extra}'
                            f'<div class="timeline">{body}</div></section>\n')
        self.n_sections += 1

    def end(self, s: Report) -> None:
        css, js = _asset("page.css"), _asset("page.js")
        w = self.out.write
        w('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
          '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; '
          'script-src \'unsafe-inline\'; img-src data:">\n'
          '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
          f"<title>omnimessage validate: {s.errors} error(s), {s.warnings} warning(s)</title>\n"
          f"<style>\n{css}</style></head>\n<body>\n")
        w(self._summary(s))
        self.sections.seek(0)
        while chunk := self.sections.read(1 << 16):
            w(chunk)
        self.sections.close()
        w(self._rules())
        w(f"<script>\n{js}</script>\n</body></html>\n")

    def _summary(self, s: Report) -> str:
        status = "FAILED" if s.errors else ("ERROR" if s.failed else "OK")
        rows = []
        for (rule, sev), n in sorted(s.counts.items()):
            r = RULES[rule]
            box = f'<input type="checkbox" class="frule" value="{rule}" checked>'
            rows.append(f'<tr class="sev-{sev}"><td><label>{box} '
                        f'<a href="#{rule_anchor(rule)}">{rule}</a></label></td><td>{sev}</td><td class="n">{n}</td>'
                        f"<td>{html.escape(r.name)}</td><td>{html.escape(r.summary)}</td></tr>")
        table = ('<table class="counts"><thead><tr><th>rule</th><th>severity</th><th>count</th><th>name</th>'
                 f'<th>what it checks</th></tr></thead><tbody>{"".join(rows)}</tbody></table>' if rows else "")
        hidden = sum(self.hidden.values())
        cap = (f'<div class="note cap">{self.shown} finding(s) shown in full; {hidden} more counted in the table '
               f"(the report's cap: {MAX_FINDINGS_SHOWN})</div>" if hidden else "")
        notes = "".join(f'<div class="note">note: {esc(n)}</div>' for n in s.notes)
        fails = "".join(f'<div class="note fail">unreadable: {esc(x)}</div>' for x in s.failures)
        if s.unlisted_failures:
            fails += f'<div class="note fail">unreadable: {s.unlisted_failures} more input(s), not listed</div>'
        sev = "".join(f'<label><input type="checkbox" class="fsev" value="{v}" checked> {v}s '
                      f'({s.errors if v == "error" else s.warnings})</label> ' for v in ("error", "warning"))
        return (
            f'<header><h1>omnimessage validate <span class="st st-{status.lower()}">{status}</span></h1>'
            f'<div class="totals">{s.inputs} input(s), {s.files} file(s), {s.lines} line(s), {s.messages} '
            f"message(s): <b>{s.errors}</b> error(s), <b>{s.warnings}</b> warning(s)</div>{cap}{notes}{fails}"
            f'<div id="filters">{sev}<label><input type="checkbox" id="only"> only the lines with findings</label> '
            f'<button type="button" id="all">all rules</button> <button type="button" id="none">no rule</button> '
            f'<span id="visible" class="dim"></span></div>{table}</header>\n'
        )

    def _rules(self) -> str:
        items = "".join(
            f'<div class="rule" id="{rule_anchor(r.id)}"><b>{r.id} {html.escape(r.name)}</b> ({r.severity}): '
            f"{html.escape(r.summary)}.<p>{html.escape(r.explanation)}</p><p>Fix: {html.escape(r.hint)}</p>"
            + (f'<a href="{esc(self.rules_url)}#{r.id.lower()}">{esc(self.rules_url)}#{r.id.lower()}</a>'
               if self.rules_url else "") + "</div>"
            for r in RULES.values() if r.id in self.fired
        )
        return f'<section class="rules"><h2>The rules that fired</h2>{items}</section>\n' if items else ""

