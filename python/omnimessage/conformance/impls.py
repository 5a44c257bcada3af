"""The implementations `omnimessage conformance --impl` names: ours, the baselines, or a command line."""

from __future__ import annotations

import difflib
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from omnimessage.extras import install_hint

from .suite import Suite

__all__ = [
    "BASELINES",
    "BASELINE_EXTRAS",
    "ConformanceUsageError",
    "Impl",
    "NATIVE",
    "missing_extra",
    "native_testee",
    "resolve_impl",
    "rust_testee",
    "typescript_available",
    "typescript_testee",
]

BASELINES = ("naive-json", "pydantic")
BASELINE_EXTRAS = {"pydantic": ("pydantic", "pydantic")}
"""Baseline -> (the module it imports, the extra of this package that installs it)."""
TYPESCRIPT_BIN = "omnimessage-ts"
"""The bin of our TypeScript binding's npm package (`omnimessage-ts testee` is its testee)."""
TYPESCRIPT_BIN_ENV = "OMNIMESSAGE_TS_BIN"
"""Names that bin's script explicitly (a development build, say); else `omnimessage-ts` on PATH."""
RUST_BIN = "omnimessage-rs"
"""The binary of our Rust binding (`cargo install --path rust`; `omnimessage-rs testee` is its testee)."""
RUST_BIN_ENV = "OMNIMESSAGE_RS_BIN"
"""Names that binary explicitly (a checkout's `rust/target/release/omnimessage-rs`); else `omnimessage-rs` on PATH."""
GO_BIN = "omnimessage-go"
"""The binary of our Go binding (`go install ./cmd/omnimessage-go` in go/; `omnimessage-go testee` is its testee)."""
GO_BIN_ENV = "OMNIMESSAGE_GO_BIN"
"""Names that binary explicitly (a checkout's `go/bin/omnimessage-go`, built by `make go-test`); else PATH."""
NATIVE = {
    "rust": ("Rust", RUST_BIN, RUST_BIN_ENV, "cargo install --path rust"),
    "go": ("Go", GO_BIN, GO_BIN_ENV, "cd go && go install ./cmd/omnimessage-go"),
}
"""The bindings that are one binary: name -> (language, binary, the variable naming it, how to install it)."""


class ConformanceUsageError(Exception):
    pass


@dataclass
class Impl:
    name: str
    argv: list[str]
    expected_failures: Path | None = None  # the list that ships with a baseline
    cwd: Path | None = None


def resolve_impl(spec: str, suite: Suite) -> Impl:
    """`python`, `typescript`, a baseline name, or a command line (split like a shell, run without one)."""
    if spec == "python":
        return Impl("python", [sys.executable, "-m", "omnimessage.conformance.testee"])
    if spec in BASELINES:
        missing = missing_extra(spec)
        if missing is not None:
            raise ConformanceUsageError(missing)
        base = suite.root / "baselines" / spec
        return Impl(spec, [sys.executable, str(base / "testee.py")], base / "expected-failures.txt")
    if spec == "typescript":
        argv = typescript_testee()
        if argv is None:
            raise ConformanceUsageError(
                f"the TypeScript binding is not installed: no `{TYPESCRIPT_BIN}` on PATH (npm install omnimessage) "
                f"and {TYPESCRIPT_BIN_ENV} names no file; --impl typescript runs `{TYPESCRIPT_BIN} testee`. "
                'To test another build, pass its command: --impl "node path/to/testee.mjs"'
            )
        return Impl("typescript", argv)
    if spec in NATIVE:
        argv = native_testee(spec)
        if argv is None:
            lang, binary, env, install = NATIVE[spec]
            raise ConformanceUsageError(
                f"the {lang} binding is not installed: no `{binary}` on PATH ({install}) "
                f"and {env} names no file; --impl {spec} runs `{binary} testee`"
            )
        return Impl(spec, argv)
    try:
        argv = shlex.split(spec)
    except ValueError as exc:
        raise ConformanceUsageError(f"--impl {spec!r}: {exc}") from None
    if not argv:
        raise ConformanceUsageError("--impl needs a command")
    if len(argv) == 1 and shutil.which(argv[0]) is None and not os.path.exists(argv[0]):
        known = ["python", "typescript", *NATIVE, *BASELINES]
        close = difflib.get_close_matches(spec, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f" ({', '.join(known)}, or a command line)"
        raise ConformanceUsageError(f"--impl {spec!r}: no such implementation, and no such command{hint}")
    return Impl(spec, argv)


def missing_extra(baseline: str) -> str | None:
    """Why the baseline cannot run here (the extra it needs is not installed), or None."""
    import importlib.util

    if baseline not in BASELINE_EXTRAS:
        return None
    module, extra = BASELINE_EXTRAS[baseline]
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if found:
        return None
    return (
        f"the {baseline} baseline needs the `{extra}` extra, which is not installed: "
        f"{install_hint(extra)}"
    )


def typescript_testee() -> list[str] | None:
    """The command line of our TypeScript testee: the script $OMNIMESSAGE_TS_BIN names (run with
    `node`), else the npm package's `omnimessage-ts` bin on PATH; None when neither is there."""
    explicit = os.environ.get(TYPESCRIPT_BIN_ENV)
    if explicit:
        node = shutil.which("node")
        return [node, explicit, "testee"] if node is not None and Path(explicit).is_file() else None
    installed = shutil.which(TYPESCRIPT_BIN)
    return [installed, "testee"] if installed is not None else None


def native_testee(name: str) -> list[str] | None:
    """The command line of the testee of a binding that is one binary (NATIVE): the binary its
    variable names, else the binary on PATH; None when neither is there."""
    _, binary, env, _ = NATIVE[name]
    explicit = os.environ.get(env)
    if explicit:
        return [explicit, "testee"] if Path(explicit).is_file() and os.access(explicit, os.X_OK) else None
    installed = shutil.which(binary)
    return [installed, "testee"] if installed is not None else None


def rust_testee() -> list[str] | None:
    """Our Rust testee: $OMNIMESSAGE_RS_BIN, else `omnimessage-rs` on PATH; None when neither is there."""
    return native_testee("rust")


def typescript_available(suite: Suite) -> bool:
    return typescript_testee() is not None


