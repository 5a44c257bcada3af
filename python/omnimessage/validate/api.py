"""The validator as functions: what `omnimessage validate` does, for programs that embed it.

    >>> from omnimessage.validate import validate_path
    >>> report = validate_path("examples/trace.jsonl")          # doctest: +SKIP
    >>> report.ok, report.errors, report.by_rule                 # doctest: +SKIP
    (True, 0, {})

Inputs are found and validated exactly as on the command line (the same discovery of trace roots,
the same units, the same end-of-input rules, the same subagent lookup), so a report equals the
`--format json` summary of the same run. Nothing here prints: unreadable inputs are listed in
`Report.failures` (and make `Report.ok` false), never raised.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Literal

from omnimessage.schema.versions import AUTO, names
from omnimessage.validate.engine.rules import RULES, select_rules
from omnimessage.validate.reporting.limit import DEFAULT_MAX_FINDINGS
from omnimessage.validate.reporting.report import Report
from omnimessage.validate.sources.hints import profile_hint
from omnimessage.validate.sources.inputs import (
    Options,
    Root,
    SseUnit,
    SseUrlUnit,
    Unit,
    discover,
    resolve_subagents,
    run_unit,
)
from omnimessage.validate.sources.protocol_choice import choose
from omnimessage.validate.sources.sse import check_header, check_sse_url

from .._generated.models import DEFAULT_MAX_LINE_BYTES

__all__ = ["Report", "validate_path", "validate_url"]

Profile = Literal["trace", "stream"]
PathLike = str | os.PathLike[str]


def validate_path(
    path: PathLike | Iterable[PathLike],
    *,
    profile: Profile | None = None,
    legacy: bool = False,
    lenient: bool = False,
    truncated: bool = False,
    sse: bool = False,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    max_findings: int = DEFAULT_MAX_FINDINGS,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    protocol: str | None = None,
) -> Report:
    """Validate files, trace roots or standard input; returns their :class:`Report`.

    Args:
        path: a JSON Lines file; a trace root directory (`<yyyy-mm-dd>/<session_id>_<NNN>.jsonl`:
            the files of a session are validated as one input in rotation order, rotation and
            subagent pointers checked); `-` for standard input; or a list of these.
        profile: `trace` (stored traces) or `stream` (the SDK / SSE channel). `None` (the default)
            is `trace`, with a note in `Report.notes` when the findings say the input is a stream.
        legacy: accept the retired spellings of older traces as warnings.
        lenient: read a newer producer: unknown fields and message types are warnings.
        truncated: the inputs were cut on purpose: unclosed fragments at their end are warnings.
        sse: the files are captured `text/event-stream`s (`--sse`; always the stream profile).
        select: report only these rules (ids, id prefixes such as `OM7`, or names).
        ignore: skip these rules (same forms).
        max_findings: findings the report holds (per input and in all); the rest are counted.
        max_line_bytes: longest line accepted (OM105 beyond).
        protocol: the protocol version to validate against (`omnimessage.schema.versions.names()`): a
            version (`0.2.4`, ... the newest is the default), `legacy` (as `legacy=True`), `newer`
            (as `lenient=True`), or `auto`: read from the inputs, the choice and its reason in
            `Report.notes`.

    The end-of-input rules (an unterminated last line, unclosed streams and calls) always run.
    Raises ValueError for a bad argument (an unknown rule, a profile, a limit < 1); an input that
    cannot be read is a failure in the report, never an exception.
    """
    paths = [os.fspath(path)] if isinstance(path, (str, os.PathLike)) else [os.fspath(p) for p in path]
    if sse:
        if profile == "trace":
            raise ValueError("SSE captures carry streams: they are validated with the stream profile")
        profile = "stream"
    opts = _options(profile or "trace", legacy=legacy, lenient=lenient, truncated=truncated, select=select,
                    ignore=ignore, max_findings=max_findings, max_line_bytes=max_line_bytes)
    chosen = protocol_option(protocol, paths)
    opts = replace(opts, protocol=chosen[0])
    if paths.count("-") > 1:
        raise ValueError("standard input can be read only once")
    report = Report(max_findings=max_findings)
    if sse:
        units: list[Unit] = []
        for p in paths:
            if p != "-" and not os.path.isfile(p):
                report.add_failure(f"{p}: no such file")
            else:
                units.append(SseUnit(p))
        roots: list[Root] = []
    else:
        units, roots, problems = discover(paths, opts.profile)
        for problem in problems:
            report.add_failure(problem)
    _run(units, roots, opts, report)
    for note in profile_hint(profile, report.by_rule):
        report.add_note(note)
    if chosen[1]:
        report.add_note(chosen[1])
    return report


def protocol_option(protocol: str | None, paths: list[str]) -> tuple[str | None, str]:
    """(the protocol for `Options`, a note for the report): `auto` read from `paths`; ValueError for
    a name `omnimessage.schema.versions.names()` does not hold."""
    if protocol is None:
        return None, ""
    if protocol not in names():
        raise ValueError(f"unknown protocol {protocol!r}: expected one of {', '.join(names())}")
    if protocol == AUTO:
        return choose(paths)
    return protocol, ""


def validate_url(
    url: str,
    *,
    duration: float = 30.0,
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    legacy: bool = False,
    lenient: bool = False,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    max_findings: int = DEFAULT_MAX_FINDINGS,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Report:
    """Read a live `text/event-stream` producer for `duration` seconds and validate what it sent.

    The stream profile applies, and the capture counts as cut on purpose (unclosed fragments at
    the end are not errors). `headers` are sent with the request (for example
    `{"Authorization": "Bearer ..."}`); their values are never shown in the report or an error.
    A connection refused, an HTTP status other than 200 or another Content-Type is a failure in
    the report. Raises ValueError for a bad argument (a URL that is not http(s), a bad header).
    """
    if not math.isfinite(duration) or duration <= 0:
        raise ValueError("duration must be a finite number of seconds > 0")
    check_sse_url(url)  # user information is refused (credentials go in headers), before any request
    items = list(headers.items()) if isinstance(headers, Mapping) else list(headers or ())
    checked = tuple(check_header(str(n), str(v)) for n, v in items)
    opts = _options("stream", legacy=legacy, lenient=lenient, truncated=False, select=select, ignore=ignore,
                    max_findings=max_findings, max_line_bytes=max_line_bytes)
    report = Report(max_findings=max_findings)
    _run([SseUrlUnit(url, duration, headers=checked)], [], opts, report)
    return report


def _options(
    profile: str,
    *,
    legacy: bool,
    lenient: bool,
    truncated: bool,
    select: Iterable[str] | None,
    ignore: Iterable[str] | None,
    max_findings: int,
    max_line_bytes: int,
) -> Options:
    if profile not in ("trace", "stream"):
        raise ValueError(f"profile must be 'trace' or 'stream', not {profile!r}")
    if max_findings < 0:
        raise ValueError("max_findings must be >= 0")
    if max_line_bytes < 1:
        raise ValueError("max_line_bytes must be >= 1")
    ignored = _rules(ignore, "ignore")
    if select is not None:
        ignored |= set(RULES) - _rules(select, "select")
    return Options(profile=profile, legacy=legacy, lenient=lenient, truncated=truncated,
                   canonical="OM114" not in ignored, max_line_bytes=max_line_bytes,
                   max_findings=max_findings, ignored=frozenset(ignored))


def _rules(patterns: Iterable[str] | None, what: str) -> set[str]:
    if patterns is None:
        return set()
    if isinstance(patterns, str):
        patterns = [patterns]
    try:
        return select_rules([x for p in patterns for x in p.split(",")])
    except KeyError as exc:
        raise ValueError(f"{what}: unknown rule {exc.args[0]!r}") from None


def _run(units: list[Unit], roots: list[Root], opts: Options, report: Report) -> None:
    """Validate each unit into `report`: its findings held up to the cap, subagent pointers resolved."""
    root_of = {r.path: r for r in roots}
    for unit in units:
        res = run_unit(unit, opts)
        root = root_of.get(getattr(unit, "root", ""))
        if root is not None and res.subagents:
            res.findings.extend(f for f in resolve_subagents(root, res.subagents) if f.rule not in opts.ignored)
        report.merge(res)
