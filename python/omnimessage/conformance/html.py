"""`omnimessage conformance --html FILE` and `--badge FILE`.

The HTML report is one self-contained page (inline CSS, no script, no fetch: a
Content-Security-Policy says so): the matrix by group (each implementation run, a row), failing
groups first, then each group's cases, failures first, each failure with its byte diff (the
expected and the received bytes around the first difference, from :mod:`.judge`). Every string a
testee supplied passes through the one sanitiser (:func:`omnimessage.text.sanitize.sanitize_lines`) and then
`html.escape`.

The badge is a shields.io endpoint document (`{"schemaVersion": 1, "label", "message", "color"}`):
publish it and point `https://img.shields.io/endpoint?url=...` at it.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from omnimessage.files.write_errors import named
from omnimessage.text.sanitize import sanitize, sanitize_lines

from .judge import describe_expectation
from .outcomes import FAILED, PASSED, SKIPPED, XFAIL, XPASS, RunResult
from .suite import Suite

__all__ = ["badge", "render_html", "write_badge", "write_html"]

_CSS = """
body { font: 14px/1.4 system-ui, sans-serif; max-width: 1200px; margin: 0 auto; padding: 0 16px 40px; }
table { border-collapse: collapse; } td, th { border: 1px solid #dde; padding: 2px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
td.bad { background: #ffe3e3; color: #b71c1c; font-weight: 600; } td.good { color: #2e7d32; }
.st { padding: 1px 8px; border-radius: 4px; color: #fff; } .st-ok { background: #2e7d32; }
.st-failing { background: #c62828; }
details.group { margin: 8px 0; border: 1px solid #ccd; border-radius: 6px; padding: 2px 8px; }
details.group > summary { font-weight: 600; cursor: pointer; }
.case { padding: 2px 4px; border-bottom: 1px solid #eef; font-family: monospace; font-size: 12px; }
.case.failed, .case.xpass { background: #fff0f0; }
.case pre { white-space: pre-wrap; word-break: break-all; background: #fff; border-left: 4px solid #c62828;
  padding: 4px 8px; margin: 2px 0 4px; }
.mark { display: inline-block; width: 48px; font-weight: 700; }
.failed .mark, .xpass .mark { color: #c62828; } .passed .mark { color: #2e7d32; } .dim { color: #667; }
.err { background: #fde8e8; border-left: 3px solid #c62828; padding: 2px 8px; margin: 3px 0; }
"""

_ORDER = {FAILED: 0, XPASS: 1, XFAIL: 2, SKIPPED: 3, PASSED: 4}
_MARK = {PASSED: "PASS", FAILED: "FAIL", SKIPPED: "SKIP", XFAIL: "XFAIL", XPASS: "XPASS"}


def _e(s: object) -> str:
    return html.escape(sanitize(str(s)), quote=True)


def _lines(s: str) -> str:
    return html.escape(sanitize_lines(s), quote=True)


def _matrix(runs: Mapping[str, RunResult | str], groups: list[str]) -> str:
    head = "".join(f"<th>{_e(g)}</th>" for g in groups)
    rows = []
    for name, r in runs.items():
        if isinstance(r, str):
            rows.append(f"<tr><td>{_e(name)}</td>" + "<td>-</td>" * (len(groups) + 2) + f"<td>{_e(r)}</td></tr>")
            continue
        bg = r.by_group()
        cells = []
        for g in groups:
            n = bg.get(g, {})
            bad = n.get(FAILED, 0) + n.get(XPASS, 0)
            cells.append(f'<td class="{"bad" if bad else "good"}">{n.get(PASSED, 0)}/{sum(n.values())}</td>')
        status = "ok" if r.ok else f"FAILING ({r.n_failed} unexpected)"
        rows.append(f"<tr><td>{_e(name)}</td>{''.join(cells)}<td>{r.count(PASSED)}/{len(r.outcomes)}</td>"
                    f"<td>{_e(r.level_reached)}</td>"
                    f'<td><span class="st st-{"ok" if r.ok else "failing"}">{_e(status)}</span></td></tr>')
    return (f"<table><thead><tr><th>implementation</th>{head}<th>total</th><th>level reached</th><th>status</th>"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _cases(name: str, r: RunResult, groups: list[str]) -> str:
    out = [f"<h2>{_e(name)}: {_e(r.summary())}</h2>"]
    out += [f'<div class="err">{_lines(x)}</div>' for x in [*r.errors, *(f"STALE {s}" for s in r.stale)]]
    by: dict[str, list[Any]] = {}
    for o in r.outcomes:
        by.setdefault(o.case.group, []).append(o)
    for g in groups:
        cases = sorted(by.get(g, []), key=lambda o: _ORDER.get(o.status, 9))
        if not cases:
            continue
        bad = sum(1 for o in cases if o.failed)
        items: list[str] = []
        quiet: list[str] = []
        for o in cases:
            c = o.case
            body = ""
            if o.failed:
                detail = "not run (see the run errors above)" if o.not_run else o.message
                body = (f"<pre>{_lines(c.description)}\ninput: {_lines(c.source)}\n"
                        f"expected: {_lines(describe_expectation(c))}\n{_lines(detail)}</pre>")
            reason = f' <span class="dim">({_e(o.reason)})</span>' if o.reason else ""
            (items if o.failed else quiet).append(
                f'<div class="case {o.status}"><span class="mark">{_MARK.get(o.status, o.status)}</span>'
                f'{_e(c.id)} <span class="dim">[{_e(c.level)}]</span>{reason}{body}</div>')
        if quiet:
            items.append(f'<details class="quiet"><summary>{len(quiet)} case(s) as expected</summary>'
                         f'{"".join(quiet)}</details>')
        out.append(f'<details class="group"{" open" if bad else ""}><summary>{_e(g)}: {len(cases) - bad}/'
                   f'{len(cases)} as expected{f", {bad} failing" if bad else ""}</summary>{"".join(items)}</details>')
    return "".join(out)


def render_html(runs: Mapping[str, RunResult | str], suite: Suite) -> str:
    """The page for one run (`{name: result}`) or a matrix (a row per implementation; a string says
    why an implementation was not run)."""
    seen = [o.case.group for r in runs.values() if isinstance(r, RunResult) for o in r.outcomes]
    counts = {g: 0 for g in dict.fromkeys(seen)}
    for r in runs.values():
        if isinstance(r, RunResult):
            for o in r.outcomes:
                counts[o.case.group] += o.failed
    groups = sorted(counts, key=lambda g: (counts[g] == 0, seen.index(g)))  # failing groups first
    ok = all(r.ok for r in runs.values() if isinstance(r, RunResult))
    sections = "".join(_cases(n, r, groups) for n, r in runs.items() if isinstance(r, RunResult))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        f"<title>omnimessage conformance: {'ok' if ok else 'FAILING'}</title><style>{_CSS}</style></head>\n<body>\n"
        f'<h1>omnimessage conformance <span class="st st-{"ok" if ok else "failing"}">{"ok" if ok else "FAILING"}'
        f'</span></h1><div class="dim">suite {_e(suite.suite_version)}; cells are passed/total, failing groups '
        f"first</div>\n{_matrix(runs, groups)}\n{sections}\n</body></html>\n"
    )


def write_html(path: str | os.PathLike[str], runs: Mapping[str, RunResult | str], suite: Suite) -> None:
    with named(path):  # a full disk names the report file
        Path(path).write_text(render_html(runs, suite), "utf-8")


def badge(r: RunResult) -> dict[str, Any]:
    """The shields.io endpoint document of a run: passed/total, green when all pass, yellow with
    expected failures only, red when anything fails unexpectedly."""
    xfail = r.count(XFAIL)
    message = f"{r.count(PASSED)}/{len(r.outcomes)} passed" + (f", {xfail} expected failures" if xfail else "")
    if not r.ok:
        message = f"{r.n_failed} failing, " + message
    color = "red" if not r.ok else ("yellow" if xfail else "brightgreen")
    return {"schemaVersion": 1, "label": "omnimessage conformance", "message": message, "color": color}


def write_badge(path: str | os.PathLike[str], r: RunResult) -> None:
    with named(path):
        Path(path).write_text(json.dumps(badge(r)) + "\n", "utf-8")
