"""`validate_archive`: a whole trace archive (a local root or a storage URL), here or on a Dask cluster.

    >>> from omnimessage.validate import validate_archive
    >>> report = validate_archive("s3://traces/2026/", storage_options={"anon": False})  # doctest: +SKIP
    >>> report.ok, report.by_rule                                                         # doctest: +SKIP

    >>> from distributed import Client                                                    # doctest: +SKIP
    >>> report = validate_archive("s3://traces/", client=Client("tcp://scheduler:8786"))  # doctest: +SKIP

It returns the same :class:`Report` as `validate_path` (and the same report whether the sessions
ran here or on a cluster, order aside): for a notebook, an Airflow task, a nightly job.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from omnimessage.validate.reporting.limit import DEFAULT_MAX_FINDINGS
from omnimessage.validate.reporting.report import Report
from omnimessage.validate.reporting.summary import GroupedReport, GroupSummary, parse_dimensions
from omnimessage.validate.sources.hints import profile_hint
from omnimessage.validate.sources.inputs import Options, Root, Unit, UnitResult, resolve_subagents, run_unit
from omnimessage.validate.sources.objects import parse_storage_options
from omnimessage.validate.sources.secrets import has_secrets
from omnimessage.validate.sources.storage import discover_any

from .._generated.models import DEFAULT_MAX_LINE_BYTES
from .api import Profile, _options

__all__ = ["validate_archive"]


def validate_archive(
    url: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    client: Any = None,
    *,
    storage_options: Mapping[str, object] | Iterable[str] | None = None,
    profile: Profile | None = None,
    legacy: bool = False,
    lenient: bool = False,
    truncated: bool = False,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    max_findings: int = DEFAULT_MAX_FINDINGS,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    summary_by: Iterable[str] = (),
    on_result: Callable[[UnitResult], None] | None = None,
) -> Report:
    """Validate a trace archive; returns its :class:`Report` (as `validate_path` does).

    Args:
        url: a storage URL (`s3://bucket/traces/`, `gs://...`, `memory://...`, `file://...`), a
            local trace root, a file, or a list of these.
        client: a `distributed.Client`: the sessions are validated on its cluster (the `dask`
            extra); None: here, one after the other.
        storage_options: fsspec options for the URLs: a mapping (`{"endpoint_url": ..., "anon":
            True}`) or `KEY=VALUE` strings as `--storage-option` takes them. Credentials are best
            left to the environment (`AWS_*`, `GOOGLE_APPLICATION_CREDENTIALS`); values of keys that
            look like credentials are never shown.
        profile, legacy, lenient, truncated, select, ignore, max_findings, max_line_bytes: as for
            `validate_path`.
        summary_by: `producer`, `day`, `rule`: the report is then a
            :class:`~omnimessage.validate.reporting.summary.GroupedReport` whose `groups` hold the findings per
            group (its JSON summary carries them).
        on_result: called with each input's result as it completes (progress:
            :class:`~omnimessage.validate.reporting.progress_log.ArchiveProgress` `.done`).

    An object or file that cannot be read is a failure in the report (`Report.failures`, `ok`
    false), never an exception. Raises ValueError for a bad argument, and
    :class:`~omnimessage.validate.sources.objects.StorageError` when fsspec or the protocol's filesystem
    is not installed (its message names the extra and the pip command for its packages).
    """
    paths = ([os.fspath(url)] if isinstance(url, (str, os.PathLike))
             else [os.fspath(u) for u in url])
    base = _options(profile or "trace", legacy=legacy, lenient=lenient, truncated=truncated, select=select,
                    ignore=ignore, max_findings=max_findings, max_line_bytes=max_line_bytes)
    opts = Options(profile=base.profile, legacy=base.legacy, lenient=base.lenient, truncated=base.truncated,
                   canonical=base.canonical, max_line_bytes=base.max_line_bytes, max_findings=base.max_findings,
                   ignored=base.ignored, storage_options=_pairs(storage_options))
    if client is not None and has_secrets(opts.storage_options):
        raise ValueError("storage_options hold credentials, which would travel in every task to the scheduler and "
                         "every worker: give the workers their credentials in their own environment or "
                         "configuration (docs/scale.md)")
    dims = parse_dimensions(summary_by)
    groups = GroupSummary(dims) if dims else None
    report: Report = Report(max_findings=max_findings) if groups is None else GroupedReport(
        groups, max_findings=max_findings)
    units, roots, problems = discover_any(paths, opts.profile, opts.storage_options)
    for problem in problems:
        report.add_failure(problem)
    for res in _results(units, roots, opts, client):
        if groups is not None:
            counts: Counter[tuple[str, str]] = Counter((f.rule, f.severity) for f in res.findings)
            counts.update(res.beyond)
            groups.add(res, counts)
        report.merge(res)
        if on_result is not None:
            on_result(res)
    for note in profile_hint(profile, report.by_rule):
        report.add_note(note)
    return report


def _pairs(options: Mapping[str, object] | Iterable[str] | None) -> tuple[tuple[str, str], ...]:
    """Storage options as the pairs of strings `Options` carries (a value is read back as
    `objects.typed_options` reads `--storage-option` values: JSON for dicts and lists)."""
    if options is None:
        return ()
    if isinstance(options, Mapping):
        return tuple((str(k), v if isinstance(v, str) else json.dumps(v)) for k, v in options.items())
    if isinstance(options, str):
        options = [options]
    return parse_storage_options(options)


def _results(units: list[Unit], roots: list[Root], opts: Options, client: Any) -> Iterator[UnitResult]:
    """Each unit's result, subagent pointers resolved (OM805): on the cluster, or here."""
    if client is not None:
        from omnimessage.validate.sources.distributed import run_units_dask

        yield from run_units_dask(units, opts, client, roots=roots)
        return
    root_of = {r.path: r for r in roots}
    for unit in units:
        res = run_unit(unit, opts)
        root = root_of.get(getattr(unit, "root", ""))
        if root is not None and res.subagents:
            res.findings.extend(f for f in resolve_subagents(root, res.subagents) if f.rule not in opts.ignored)
            res.subagents = []
        yield res

