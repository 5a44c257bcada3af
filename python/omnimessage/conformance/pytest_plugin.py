"""pytest plugin (entry point `pytest11`): the conformance suite as pytest items.

    pytest --omnimessage-impl "node dist/testee.js" [--omnimessage-expected-failures FILE]

turns every case into an item whose id is the case id (`-k`, `--junitxml`, `-x` and the rest
work as usual), the shipped cases and fresh ones generated for the session (:mod:`.fresh`; the
seed is printed in the header and recorded as a property of every fresh item, and
`--omnimessage-seed N` replays it); listed expected failures are reported as xfail, and a listed
case that passes fails, as does an entry that matches no case. A testee that cannot start is
reported in full once; the other cases fail with a one-line "not run". Without `--omnimessage-impl` the plugin does
nothing at all. Every message shown passes through the one sanitiser (:func:`omnimessage.text.sanitize.sanitize_lines`):
what a testee supplied never reaches the terminal or the JUnit file raw.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from omnimessage.text.sanitize import printable, sanitize_lines

if TYPE_CHECKING:  # the runner's modules load only when --omnimessage-impl is given (pytest_configure)
    from .suite import Case, Suite
    from .testee_process import Testee

__all__ = ["pytest_addoption", "pytest_configure"]

NODE = "omnimessage-conformance"
TIMEOUT_HELP = "time limit per case, in seconds (default 10, as `omnimessage conformance`)"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("omnimessage", "OmniMessage conformance suite")
    group.addoption(
        "--omnimessage-impl",
        metavar="CMD",
        help="run the OmniMessage conformance suite against CMD (a testee, conformance/TESTEE-PROTOCOL.md); "
        "`python` and `typescript` name ours",
    )
    group.addoption("--omnimessage-expected-failures", metavar="FILE", help="case ids expected to fail, with reasons")
    group.addoption("--omnimessage-suite", metavar="DIR", help="the conformance folder (default: the bundled one)")
    group.addoption(
        "--omnimessage-category",
        action="append",
        default=[],
        metavar="NAME",
        help="only cases of this group, rejection category or tag (repeatable)",
    )
    group.addoption(
        "--omnimessage-seed",
        default=None,
        metavar="N|random",
        help="the seed of the fresh cases (default: derived from the suite version and schema id; `random`: a new "
        "one; shown in the header)",
    )
    group.addoption(
        "--omnimessage-fresh",
        type=int,
        default=None,
        metavar="N",
        help="how many fresh cases to generate (default 200; 0: none)",
    )
    group.addoption(
        "--omnimessage-timeout",
        type=float,
        default=None,
        metavar="SEC",
        help=TIMEOUT_HELP,
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "omnimessage_conformance: a case of the OmniMessage conformance suite")
    if config.getoption("omnimessage_impl", None):
        config.pluginmanager.register(_Conformance(config), "omnimessage-conformance-session")


class ConformanceFailure(Exception):
    pass


class _Runtime:
    """One testee for the whole pytest session, restarted after a crash or a hang."""

    def __init__(self, suite: Suite, argv: list[str], cwd: Path | None, timeout: float) -> None:
        self.suite, self.argv, self.cwd, self.timeout = suite, argv, cwd, timeout
        self.testee: Testee | None = None
        self.start_error: str | None = None

    def run(self, case: Case) -> tuple[str, str]:
        from .judge import judge
        from .outcomes import FAILED
        from .testee_process import Testee, TesteeError

        if self.start_error is not None:  # said in full once, by the case that tried to start it
            return FAILED, "not run: the testee did not start (see the first conformance case's failure)"
        if self.testee is None:
            testee = Testee(self.argv, cwd=self.cwd)
            try:
                testee.start(self.suite)
            except TesteeError as exc:
                testee.kill()
                tail = testee.stderr_tail()
                self.start_error = f"the testee did not start: {exc.message}" + (
                    f"; its stderr ends:\n{tail}" if tail and "stderr" not in exc.message else ""
                )
                return FAILED, f"not run: {self.start_error}"
            self.testee = testee
        try:
            return judge(case, self.testee.request(case.request(), self.timeout))
        except TesteeError as exc:
            self.close()
            return FAILED, f"{exc.kind}: {exc.message}"

    def close(self) -> None:
        if self.testee is not None:
            self.testee.close()
            self.testee = None


class _Conformance:
    def __init__(self, config: pytest.Config) -> None:
        from .command import ConformanceUsageError, resolve_impl
        from .expected_failures import ExpectedFailures, load_expected_failures
        from .run import DEFAULT_REQUEST_TIMEOUT, select_cases
        from .suite import SuiteError, load_suite

        spec = config.getoption("omnimessage_impl")
        try:
            suite_opt = config.getoption("omnimessage_suite")
            self.suite = load_suite(Path(suite_opt) if suite_opt else None)
        except SuiteError as exc:
            raise pytest.UsageError(f"--omnimessage-suite: {exc}") from None
        try:
            impl = resolve_impl(spec, self.suite)
        except ConformanceUsageError as exc:
            raise pytest.UsageError(f"--omnimessage-impl: {exc}") from None
        ef_path = config.getoption("omnimessage_expected_failures")
        self.expected = ExpectedFailures()
        if ef_path:
            try:
                self.expected = load_expected_failures(ef_path)
            except (OSError, ValueError) as exc:
                raise pytest.UsageError(f"--omnimessage-expected-failures: {exc}") from None
        from .fresh import DEFAULT_FRESH_CASES, fresh_cases, new_seed, stable_seed

        n_fresh = config.getoption("omnimessage_fresh")
        n_fresh = DEFAULT_FRESH_CASES if n_fresh is None else n_fresh
        seed = config.getoption("omnimessage_seed")
        try:
            chosen = stable_seed(self.suite) if seed is None else new_seed() if seed == "random" else int(seed)
        except ValueError:
            why = f"not an integer or `random`: {printable(seed, 40)!r}"
            raise pytest.UsageError(f"--omnimessage-seed: {why}") from None
        self.seed: int | None = chosen if n_fresh else None
        try:
            fresh = fresh_cases(self.suite, self.seed, n_fresh) if self.seed is not None else []
        except ValueError as exc:
            raise pytest.UsageError(f"--omnimessage-seed / --omnimessage-fresh: {exc}") from None
        self.cases = select_cases(self.suite, config.getoption("omnimessage_category"), fresh=fresh)
        timeout = config.getoption("omnimessage_timeout")
        timeout = DEFAULT_REQUEST_TIMEOUT if timeout is None else timeout
        self.runtime = _Runtime(self.suite, impl.argv, impl.cwd, timeout)
        self.impl = spec

    @pytest.hookimpl(tryfirst=True)  # before -k / -m deselection, so they apply to the cases too
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config, items: list[Any]) -> None:
        from _pytest.runner import collect_one_node

        # A pseudo path: reports name the cases `omnimessage-conformance::<case id>`.
        col = ConformanceCollector.from_parent(
            session, name=NODE, nodeid=NODE, path=config.invocation_params.dir / NODE
        )
        col.plugin = self
        rep = collect_one_node(col)
        session.ihook.pytest_collectreport(report=rep)  # counted as collected, like any other collector
        items.extend(x for x in rep.result if isinstance(x, pytest.Item))

    def pytest_report_header(self) -> str:
        from .suite import FRESH_GROUP

        n = sum(1 for c in self.cases if c.group == FRESH_GROUP)
        seed = f", seed {self.seed} (replay: --omnimessage-seed {self.seed})" if self.seed is not None else ""
        return printable(f"omnimessage conformance: {len(self.cases) - n} shipped cases, {n} fresh{seed}", 400)

    def pytest_sessionfinish(self) -> None:
        self.runtime.close()


class ConformanceCollector(pytest.Collector):
    plugin: _Conformance

    def collect(self) -> list[Any]:
        items: list[Any] = [
            ConformanceItem.from_parent(self, name=c.id, nodeid=f"{NODE}::{c.id}", case=c, plugin=self.plugin)
            for c in self.plugin.cases
        ]
        if self.plugin.expected.entries:
            items.append(
                ExpectedFailuresItem.from_parent(
                    self, name="expected-failures-list", nodeid=f"{NODE}::expected-failures-list", plugin=self.plugin
                )
            )
        return items


class ConformanceItem(pytest.Item):
    def __init__(self, *, case: Case, plugin: _Conformance, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.plugin = plugin
        self.add_marker(pytest.mark.omnimessage_conformance)
        if case.group == "fresh" and plugin.seed is not None:  # in --junitxml: how to replay it
            self.user_properties.append(("seed", plugin.seed))

    def runtest(self) -> None:
        from .outcomes import FAILED, SKIPPED

        status, message = self.plugin.runtime.run(self.case)
        reason = self.plugin.expected.reason(self.case)
        if status == SKIPPED:
            pytest.skip(printable(message) or "skipped by the testee")
        if reason is not None:
            if status == FAILED:
                pytest.xfail(printable(reason))
            if self.case.group != "fresh":  # a fresh entry lists a category, some of whose cases may pass
                raise ConformanceFailure(
                    f"listed as an expected failure ({reason}) but passed: remove it from the list"
                )
        if status == FAILED:
            raise ConformanceFailure(message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ConformanceFailure):
            from .judge import describe_expectation

            c = self.case
            replay = f" (seed {self.plugin.seed}: --omnimessage-seed {self.plugin.seed})" if c.group == "fresh" else ""
            return sanitize_lines(
                f"{c.description}\n"
                f"group {c.group}{replay}, spec section {c.spec}, input {c.source}\n"
                f"expected: {describe_expectation(c)}\n{excinfo.value}"
            )
        if isinstance(excinfo.value, pytest.xfail.Exception):  # cheap: no traceback of pytest's internals
            return sanitize_lines(str(excinfo.value))
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"{NODE}::{self.case.id}"


class ExpectedFailuresItem(pytest.Item):
    def __init__(self, *, plugin: _Conformance, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plugin = plugin

    def runtest(self) -> None:
        stale = self.plugin.expected.stale(c.id for c in self.plugin.suite.cases)
        if stale:
            raise ConformanceFailure("stale expected-failure entries:\n" + "\n".join(stale))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        return sanitize_lines(str(excinfo.value))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"{NODE}::expected-failures-list"
