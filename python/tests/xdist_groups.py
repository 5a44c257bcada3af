"""How `make test` spreads the tests over the cores (pytest-xdist, `-n auto`).

Each test goes to whichever worker is free, except the tests of a file that defines a module-,
class- or package-scoped fixture (a virtual environment, a cluster, an archive, a browser): those
stay together on one worker, so the fixture is built once, as in a serial run. Session fixtures are
shared across workers by shared_builds.py.

xdist's own `--dist loadgroup` cannot do this here: it renames `item._nodeid`, which pytest 9 no
longer reads (a node's id is `item._id`), so its groups silently fall apart. The scheduler below
decides from the file instead: the controller never collects, so it reads each test file's syntax
tree for a wider-scoped `@pytest.fixture`; every worker checks, at collection, that each test using
such a fixture is in a file the controller keeps together (`check_grouping`), so a fixture that
would be built twice is an error, not a slow run.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

WIDE_SCOPES = frozenset({"module", "class", "package"})


def _scope_of(decorator: ast.expr) -> str | None:
    """The scope a `@pytest.fixture(...)`/`@fixture(...)` decorator gives ("function" when none);
    None when the decorator is no fixture; "dynamic" when the scope is computed."""
    call = decorator if isinstance(decorator, ast.Call) else None
    target = call.func if call is not None else decorator
    name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else None
    if name != "fixture":
        return None
    for kw in call.keywords if call is not None else []:
        if kw.arg == "scope":
            return kw.value.value if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str) else "dynamic"
    return "function"


@functools.cache
def defines_wide_fixture(path: Path) -> bool:
    """Whether the file at `path` defines a fixture wider than one test (or one whose scope is computed)."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError):
        return True  # unreadable here: keep it together, the worker's collection reports the real error
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                scope = _scope_of(dec)
                if scope is not None and scope != "function":
                    return True
    return False


def check_grouping(items: list[pytest.Item], root: Path) -> None:
    """Fail the collection when a test uses a wider-scoped fixture that its file does not define
    (one imported from elsewhere): the scheduler would not keep its tests together."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        wide = sorted(name for name, defs in info.name2fixturedefs.items() if any(d.scope in WIDE_SCOPES for d in defs))
        path = item.nodeid.split("::", 1)[0]
        if wide and not defines_wide_fixture(root / path):
            raise pytest.UsageError(
                f"{item.nodeid} uses the fixture(s) {', '.join(wide)} (scope wider than a test) that {path} does "
                "not define: define them in that file (python/tests/xdist_groups.py keeps such a file on one worker)")


def make_scheduler(config: pytest.Config, log: object) -> object:
    """The `pytest_xdist_make_scheduler` result: xdist's load-by-scope scheduler, one scope per test
    except the files `defines_wide_fixture` keeps whole."""
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    root = config.rootpath

    class FixtureScopeScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if defines_wide_fixture(root / path) else nodeid

    return FixtureScopeScheduling(config, log)
