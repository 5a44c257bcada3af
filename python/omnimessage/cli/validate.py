"""`omnimessage validate`: the command line of the protocol validator."""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TextIO

from omnimessage.cli.validate_options import DESCRIPTION, EPILOG, configure
from omnimessage.files.write_errors import STDOUT, named
from omnimessage.text.sanitize import sanitize
from omnimessage.validate.api import protocol_option
from omnimessage.validate.engine.rules import GROUPS, RULES, select_rules
from omnimessage.validate.engine.validator import Finding
from omnimessage.validate.reporting.ci_summary import with_extra_reports
from omnimessage.validate.reporting.limit import FindingLimit
from omnimessage.validate.reporting.output import Progress, make_reporter
from omnimessage.validate.reporting.progress_log import ArchiveProgress
from omnimessage.validate.reporting.report import Report
from omnimessage.validate.reporting.summary import GroupedReport, GroupSummary, parse_dimensions
from omnimessage.validate.sources.hints import profile_hint
from omnimessage.validate.sources.inputs import (
    FileUnit,
    Options,
    Root,
    SessionUnit,
    SseUnit,
    SseUrlUnit,
    Unit,
    UnitResult,
    resolve_subagents,
    run_unit,
)
from omnimessage.validate.sources.objects import StorageError, parse_storage_options
from omnimessage.validate.sources.secrets import has_secrets
from omnimessage.validate.sources.sse import check_sse_url, parse_header
from omnimessage.validate.sources.storage import discover_any

__all__ = ["add_parser", "main", "run"]

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2

class _Usage(Exception):
    pass


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register `validate` on the `omnimessage` command's subparsers."""
    v = sub.add_parser(
        "validate",
        help="check traces and streams against the protocol rules",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    configure(v)
    from omnimessage.cli.usage import add_pre_commit_option

    add_pre_commit_option(v)
    v.set_defaults(func=run)
    return v


def main(argv: list[str] | None = None) -> int:
    """`python -m omnimessage.cli.validate ...` (the same as `omnimessage validate ...`)."""
    p = argparse.ArgumentParser(prog="omnimessage validate", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    configure(p)
    return run(p.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """Run the command; never raises (but lets KeyboardInterrupt and a closed pipe through)."""
    try:
        return _run(args)
    except _Usage as exc:
        sys.stderr.write(f"omnimessage validate: error: {sanitize(str(exc))}\n")
        return EXIT_USAGE
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as exc:  # no traceback, whatever happens
        if isinstance(exc, OSError) and exc.filename:  # a report that cannot be written (`named`)
            sys.stderr.write(f"omnimessage validate: {sanitize(str(exc.filename))}: "
                             f"{sanitize(str(exc.strerror or exc))}\n")
            return EXIT_USAGE
        sys.stderr.write(f"omnimessage validate: internal error: {exc.__class__.__name__}: {sanitize(str(exc))}\n")
        return EXIT_USAGE


@contextlib.contextmanager
def _text_out(path: str | None) -> Iterator[tuple[TextIO, bool]]:
    """The report stream (UTF-8, undecodable characters escaped) and whether it is a terminal."""
    if path is not None:
        try:
            fh = open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n")  # noqa: SIM115
        except OSError as exc:
            raise _Usage(f"cannot write {path}: {exc.strerror or exc}") from None
        with named(path), fh:  # a full disk names the report file
            yield fh, False
        return
    stdout = sys.stdout
    tty = bool(getattr(stdout, "isatty", lambda: False)())
    buf = getattr(stdout, "buffer", None)
    if buf is None:
        yield stdout, tty
        return
    stdout.flush()
    wrapper = io.TextIOWrapper(buf, encoding="utf-8", errors="backslashreplace", newline="\n", line_buffering=tty)
    try:
        with named(STDOUT):
            yield wrapper, tty
            wrapper.flush()  # a report that cannot be written is an error, never a silent exit 0
    finally:
        with contextlib.suppress(ValueError, OSError):
            wrapper.detach()


def _list_rules(out: TextIO) -> None:
    for prefix, title, _ in GROUPS:
        rules = [r for r in RULES.values() if r.group == prefix]
        out.write(f"{title}\n")
        for r in rules:
            out.write(f"  {r.id}  {r.severity:<7}  {'/'.join(sorted(r.profiles)):<12}  {r.name}: {r.summary}\n")


def _explain(out: TextIO, key: str) -> None:
    r = RULES.get(key.upper()) or next((x for x in RULES.values() if x.name == key), None)
    if r is None:
        raise _Usage(f"unknown rule {key!r} (--list-rules lists them)")
    out.write(f"{r.id} {r.name} ({r.severity}; profiles: {', '.join(sorted(r.profiles))})\n\n")
    out.write(f"{r.summary}.\n\n{r.explanation}\n\nFix: {r.hint}\n")


def _patterns(values: list[str]) -> set[str]:
    items = [x for v in values for x in v.split(",") if x.strip()]
    try:
        return select_rules(items)
    except KeyError as exc:
        raise _Usage(f"unknown rule {exc.args[0]!r} (--list-rules lists them)") from None


def _run(args: argparse.Namespace) -> int:
    if args.list_rules or args.explain:
        with _text_out(args.output) as (out, _):
            if args.explain:
                _explain(out, args.explain)
            else:
                _list_rules(out)
        return EXIT_OK
    ignored = _patterns(args.ignore)
    if args.select:
        ignored |= set(RULES) - _patterns(args.select)
    if args.jobs < 0:
        raise _Usage("--jobs must be >= 0")
    if args.max_line_bytes < 1:
        raise _Usage("--max-line-bytes must be >= 1")
    if not math.isfinite(args.duration) or args.duration <= 0:
        raise _Usage("--duration must be a finite number of seconds > 0")
    if args.max_findings < 1:
        raise _Usage("--max-findings must be >= 1")
    if args.rules_url and not args.rules_url.startswith(("https://", "http://", "file://")):
        raise _Usage("--rules-url must be an absolute URL (https://...)")
    sse_only = not args.paths and (args.sse or args.sse_url)
    if (args.sse or args.sse_url) and args.profile == "trace":
        raise _Usage("--sse and --sse-url carry streams: they are validated with the stream profile")
    if not args.paths and not args.sse and not args.sse_url:
        raise _Usage("nothing to validate: give a PATH ('-' for stdin), --sse FILE or --sse-url URL")
    if args.paths.count("-") + args.sse.count("-") > 1:
        raise _Usage("standard input can be read only once")
    if args.header and not args.sse_url:
        raise _Usage("--header is sent with --sse-url; there is no --sse-url")
    headers = []
    for i, spec in enumerate(args.header, 1):
        try:
            headers.append(parse_header(spec))
        except ValueError as exc:
            raise _Usage(f"--header #{i}: {exc}") from None
    profile = args.profile or ("stream" if sse_only else "trace")
    try:
        protocol, protocol_note = protocol_option(args.protocol, list(args.paths))
    except ValueError as exc:
        raise _Usage(str(exc)) from None
    opts = Options(profile=profile, legacy=args.legacy, lenient=args.lenient, truncated=args.truncated,
                   protocol=protocol, canonical="OM114" not in ignored, max_line_bytes=args.max_line_bytes,
                   max_findings=args.max_findings, ignored=frozenset(ignored),
                   storage_options=_storage_options(args.storage_option))
    if args.dask and has_secrets(opts.storage_options):  # tasks carry the options to the scheduler and workers
        keys = ", ".join(sanitize(k[:40]) for k, v in opts.storage_options if has_secrets([(k, v)]))
        raise _Usage(f"--dask: the storage options {keys} hold credentials, which would travel in every task to "
                     "the scheduler and every worker: give the workers their credentials in their own environment "
                     "or configuration (AWS_ACCESS_KEY_ID, ~/.aws, a role) and leave them out here")
    if args.sse_url:
        try:
            check_sse_url(args.sse_url)
        except ValueError as exc:
            raise _Usage(f"--sse-url: {exc}") from None
    try:
        groups = GroupSummary(parse_dimensions(args.summary_by)) if args.summary_by else None
    except ValueError as exc:
        raise _Usage(str(exc)) from None
    if not math.isfinite(args.progress_every) or args.progress_every < 0:
        raise _Usage("--progress-every must be a finite number of seconds >= 0")

    # the cluster is reached while the inputs are listed (cluster.Connecting); a refused address is refused here
    connecting = _dask_connecting(args.dask, args.dask_insecure) if args.dask else None
    try:
        return _run_inputs(args, opts, profile, headers, groups, ignored, protocol_note, connecting)
    finally:
        if connecting is not None:  # closed once (Connecting.close), whatever stopped the run
            connecting.close()


def _run_inputs(args: argparse.Namespace, opts: Options, profile: str, headers: list[tuple[str, str]],
                groups: GroupSummary | None, ignored: set[str], protocol_note: str | None,
                connecting: Any) -> int:
    try:
        units, roots, problems = discover_any(list(args.paths), profile, opts.storage_options)
    except StorageError as exc:  # fsspec or s3fs/gcsfs missing (names the extra), an unknown protocol
        raise _Usage(str(exc)) from None
    for s in args.sse:
        if s != "-" and not os.path.isfile(s):
            problems.append(f"{s}: no such file")
        else:
            units.append(SseUnit(s))
    if args.sse_url:
        units.append(SseUrlUnit(args.sse_url, args.duration, headers=tuple(headers)))

    jobs = args.jobs or os.cpu_count() or 1
    stderr_tty = bool(getattr(sys.stderr, "isatty", lambda: False)())
    summary = Report(max_findings=0) if groups is None else GroupedReport(groups)  # counts; findings streamed
    unit_counts: Counter[tuple[str, str]] = Counter()  # the current input's findings (--summary-by)
    for problem in problems:
        summary.add_failure(problem)
    if protocol_note:
        summary.add_note(protocol_note)
    root_of: dict[str, Root] = {r.path: r for r in roots}
    started = time.monotonic()
    with _text_out(args.output) as (out, tty), contextlib.ExitStack() as stack:
        color = args.color == "always" or (args.color == "auto" and tty and not os.environ.get("NO_COLOR")
                                           and args.output is None)
        reporter = make_reporter(args.format, out, color=color, rules_url=args.rules_url,
                                 max_annotations=max(args.max_annotations, 0))
        try:  # --sarif FILE, --summary FILE: more reports of the same run
            reporter = with_extra_reports(reporter, stack, args.format, sarif=args.sarif, summary=args.summary,
                                          max_annotations=args.max_annotations, rules_url=args.rules_url)
        except ValueError as exc:
            raise _Usage(str(exc)) from None
        total = sum(u.size for u in units)
        progress = Progress(sys.stderr, total, enabled=stderr_tty and not args.no_progress)
        progress.units = len(units)
        logged = ArchiveProgress(len(units), total, sys.stderr, tty=False, every=args.progress_every,
                                 enabled=not stderr_tty and not args.no_progress and args.progress_every > 0)

        limit = FindingLimit(args.max_findings)  # of the input being reported

        def sink(f: Finding) -> None:
            if f.rule in ignored:
                return
            summary.add(f)
            unit_counts[(f.rule, f.severity)] += 1
            if not limit.admit(f):
                return
            if progress.shown:
                progress.close()
            reporter.finding(f)

        def collect(unit: Unit, res: UnitResult, streamed: bool) -> None:
            if not streamed:
                for f in res.findings:
                    sink(f)
                limit.beyond.update(res.beyond)  # counted by the worker (and by summary.merge below)
                unit_counts.update(res.beyond)
            root = root_of.get(getattr(unit, "root", ""))
            if root is not None and res.subagents:
                for f in resolve_subagents(root, res.subagents):
                    sink(f)
            if limit.beyond:
                summary.add_note(f"{res.name}: {limit.note()}")
            limit.reset()
            summary.merge(res, findings=False)  # totals, failure, note; the findings went through sink
            reporter.unit_input(unit)
            reporter.unit_end(res.name, res.lines)
            progress.done_unit(unit.size)
            logged.done(res)
            if groups is not None:
                groups.add(res, unit_counts)
            unit_counts.clear()

        # before the report starts: a usage error
        dask = _dask_connected(connecting) if connecting is not None else None
        reporter.begin()
        try:
            poolable = {i for i, u in enumerate(units) if isinstance(u, (FileUnit, SessionUnit, SseUnit))
                        and not (isinstance(u, SseUnit) and u.path == "-")}
            if dask is not None:
                _dask(dask[0], units, poolable, opts, sink, collect, progress)
            elif jobs > 1 and len(poolable) > 1:
                _parallel(units, poolable, opts, jobs, sink, collect, progress)
            else:
                for u in units:
                    progress.unit(u.name)
                    res = run_unit(u, opts, sink, progress.update)
                    collect(u, res, True)
        finally:
            progress.close()
            logged.close()
            if dask is not None:
                dask[1]()
        summary.seconds = time.monotonic() - started
        for note in profile_hint(args.profile, summary.by_rule):
            summary.add_note(note)
        reporter.end(summary)
        if groups is not None and args.format == "text":
            groups.write_text(out)
    if groups is not None and args.format not in ("text", "json"):
        groups.write_text(sys.stderr)
    # on a terminal, the text report has just listed them: once is enough
    in_report = args.format == "text" and args.output is None and tty and stderr_tty
    for fail in [] if in_report else summary.failures:
        sys.stderr.write(f"omnimessage validate: {sanitize(fail)}\n")
    if summary.unlisted_failures and not in_report:
        sys.stderr.write(f"omnimessage validate: {summary.unlisted_failures} more unreadable input(s)\n")
    return summary.exit_code  # EXIT_USAGE if an input was unreadable, else EXIT_ERRORS or EXIT_OK


def _storage_options(items: list[str]) -> tuple[tuple[str, str], ...]:
    try:
        return parse_storage_options(items)
    except ValueError as exc:
        raise _Usage(str(exc)) from None


def _parallel(
    units: list[Unit],
    poolable: set[int],
    opts: Options,
    jobs: int,
    sink: Callable[[Finding], None],
    collect: Callable[[Unit, UnitResult, bool], None],
    progress: Progress,
) -> None:
    """`--jobs N`: the poolable units in N processes, batched into tasks as `--dask` batches them (one
    task per small session would spend more on the pool than on validating); results are collected in
    input order, at most one task's results held at a time."""
    from omnimessage.validate.sources.distributed import chunk_units  # plain Python: imports nothing of Dask

    with ProcessPoolExecutor(max_workers=min(jobs, len(poolable))) as ex:
        future_of: dict[int, Future[list[tuple[int, UnitResult]]]] = {}
        for chunk in chunk_units([(i, units[i]) for i in sorted(poolable)], jobs):
            fut = ex.submit(_run_chunk, chunk, opts)
            for i, _ in chunk:
                future_of[i] = fut
        ready: dict[int, UnitResult] = {}
        for i, u in enumerate(units):
            progress.unit(u.name)
            pending = future_of.pop(i, None)
            if pending is None:
                collect(u, run_unit(u, opts, sink, progress.update), True)
                continue
            if i not in ready:
                ready.update(pending.result())
            collect(u, ready.pop(i), False)


def _run_chunk(chunk: list[tuple[int, Unit]], opts: Options) -> list[tuple[int, UnitResult]]:
    """One `--jobs` task: the units of a chunk, each validated on its own."""
    return [(i, run_unit(u, opts)) for i, u in chunk]


def _dask_connecting(spec: str, insecure: bool = False) -> Any:
    """`--dask SPEC`: its connection started in the background (`cluster.Connecting`); a missing extra or a
    refused address (`check_address`) is a usage error, raised here, before any connection."""
    from omnimessage.validate.sources.cluster import Connecting, DaskUnavailable

    try:
        return Connecting(spec, insecure=insecure)
    except DaskUnavailable as exc:
        raise _Usage(str(exc)) from None


def _dask_connected(connecting: Any) -> tuple[Any, Callable[[], None]]:
    """(client, close) once connected; a missing extra or an unreachable scheduler is a usage error."""
    from omnimessage.validate.sources.cluster import DaskUnavailable, announce

    try:
        client, close = connecting.result()
    except DaskUnavailable as exc:
        raise _Usage(str(exc)) from None
    announce(client)
    return client, close


def _dask(
    client: Any,
    units: list[Unit],
    poolable: set[int],
    opts: Options,
    sink: Callable[[Finding], None],
    collect: Callable[[Unit, UnitResult, bool], None],
    progress: Progress,
) -> None:
    """`--dask`: the poolable units on the cluster (results merged as their tasks complete, each unit
    once), standard input and --sse-url here. Ctrl-C cancels the cluster's pending tasks."""
    from omnimessage.validate.sources.distributed import run_indexed_dask

    for i, u in enumerate(units):
        if i not in poolable:
            progress.unit(u.name)
            collect(u, run_unit(u, opts, sink, progress.update), True)
    done = 0
    try:
        with contextlib.closing(run_indexed_dask(units, opts, client, indices=sorted(poolable))) as results:
            for i, res in results:
                collect(units[i], res, False)
                done += 1
    except KeyboardInterrupt:
        progress.close()
        sys.stderr.write(f"omnimessage validate: interrupted after {done} of {len(poolable)} inputs; the "
                         f"cluster's pending tasks were cancelled\n")
        raise


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

