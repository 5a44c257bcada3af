"""Shared by the Python tests: where the checkout is, and the checkout's development setup.

Test modules import `ROOT` from here (`from conftest import ROOT`) instead of recomputing it; pytest
puts this folder on `sys.path` itself (rootdir-relative `prepend` import mode: no `__init__.py`).
"""

import os
import shutil
from pathlib import Path

import pytest
from shared_builds import npm_tarball, omnimessage_wheel, release_dist, ts_toolchain  # noqa: F401  (session fixtures: one build per run)
from xdist_groups import check_grouping, make_scheduler

ROOT = Path(__file__).resolve().parents[2]
"""The repository checkout (tests read its fixtures, examples and TypeScript build)."""

# `--impl typescript` (and the conformance matrix) run the TypeScript binding's `omnimessage-ts` bin:
# in this checkout, the development build of it.
os.environ.setdefault("OMNIMESSAGE_TS_BIN", str(ROOT / "typescript" / "bin" / "omnimessage.mjs"))
# `--impl rust`: the release build of the Rust binding's `omnimessage-rs` (make rust-test builds it).
os.environ.setdefault("OMNIMESSAGE_RS_BIN", str(ROOT / "rust" / "target" / "release" / "omnimessage-rs"))
# `--impl go`: the Go binding's `omnimessage-go` (make go-test and make go-build build it).
os.environ.setdefault("OMNIMESSAGE_GO_BIN", str(ROOT / "go" / "bin" / "omnimessage-go"))

REQUIRE_TOOLS = os.environ.get("OMNIMESSAGE_REQUIRE_TOOLS") == "1"
"""Set by `make test` (and so CI): a test whose tool is missing runs anyway, and fails."""


def needs(tool: str) -> pytest.MarkDecorator:
    """Skip a test whose command-line tool (`node`) is not on PATH, except under
    OMNIMESSAGE_REQUIRE_TOOLS=1, where it runs and fails: a gate never passes for want of its tool."""
    return pytest.mark.skipif(shutil.which(tool) is None and not REQUIRE_TOOLS, reason=f"{tool} is not on PATH")


def tool_path(tool: str) -> str | None:
    """Where `tool` is, or None when a test may go on without it; under OMNIMESSAGE_REQUIRE_TOOLS=1 a
    missing tool is an error."""
    path = shutil.which(tool)
    if path is None and REQUIRE_TOOLS:
        raise RuntimeError(f"{tool} is not on PATH, and OMNIMESSAGE_REQUIRE_TOOLS=1 requires it")
    return path


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    check_grouping(items, config.rootpath)  # every run: a wide fixture outside its file is an error


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Under pytest-xdist (`make test`: -n auto), the tests of a file with a module-scoped fixture stay
    on one worker; every other test goes to whichever worker is free (xdist_groups.py)."""
    return make_scheduler(config, log)
