"""`omnimessage schema diff` for CI: `--format github` (workflow annotations) and `--format junit`
(one test case per change), and `--against-ref REF` (the schema file as committed at a git ref,
read with `git show`, against the working copy), as users of `buf breaking --against` expect.

Every string from a schema or from git (a field name, a label, git's error) passes through the one
sanitiser before it is written: no control character, no second workflow command. What `git show`
prints is capped at :data:`MAX_REF_BYTES`.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Collection
from typing import Any, Final

from omnimessage.schema.diff import COMPATIBLE, Change, load, summary
from omnimessage.text.ci import workflow_data, workflow_property
from omnimessage.text.sanitize import printable, sanitize

__all__ = ["MAX_REF_BYTES", "load_at_ref", "render_github", "render_junit", "renderer"]

MAX_REF_BYTES: Final = 16 << 20
"""The most bytes of a schema file read from git (the canonical schema is about 100 KiB)."""
GIT_TIMEOUT: Final = 60.0
_REF: Final = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./@{}~^+-]*$")
"""A ref as `git show` takes it (a branch, tag, commit, `HEAD~1`, `origin/main`): never an option."""


def _breaking(change: Change, allowed: Collection[str]) -> list[str]:
    return [k for k in change.classes if k != COMPATIBLE and k not in allowed]


def render_github(old: str, new: str, changes: list[Change], allowed: Collection[str] = ()) -> str:
    """An `::error` per change that breaks (and is not `--allow`ed), a `::notice` per other change,
    then a `::notice` with the counts."""
    lines = []
    for ch in changes:
        broken = _breaking(ch, allowed)
        cmd = "error" if broken else "notice"
        title = f"schema diff: {'+'.join(ch.classes)}" + ("" if broken or ch.classes == (COMPATIBLE,) else " (allowed)")
        lines.append(f"::{cmd} title={workflow_property(title)}::{workflow_data(ch.message)}")
    counts = ", ".join(f"{n} {c}" for c, n in summary(changes).items())
    lines.append(f"::notice title=schema diff::{workflow_data(f'{old} -> {new}: {len(changes)} change(s): {counts}')}")
    return "\n".join(lines) + "\n"


def render_junit(old: str, new: str, changes: list[Change], allowed: Collection[str] = ()) -> str:
    """A JUnit XML report: one test case per change (a failure when it breaks and is not allowed), or
    one passing `no changes` case."""
    import xml.etree.ElementTree as ET

    failing = [ch for ch in changes if _breaking(ch, allowed)]
    root = ET.Element("testsuites", name=sanitize(f"omnimessage schema diff {old} -> {new}"),
                      tests=str(max(1, len(changes))), failures=str(len(failing)))
    suite = ET.SubElement(root, "testsuite", name="schema-diff", tests=str(max(1, len(changes))),
                          failures=str(len(failing)))
    for ch in changes:
        tc = ET.SubElement(suite, "testcase", classname=f"omnimessage.schema.diff.{ch.kind}",
                           name=sanitize(ch.message))
        broken = _breaking(ch, allowed)
        if broken:
            fail = ET.SubElement(tc, "failure", type="+".join(broken), message=sanitize(ch.message))
            fail.text = sanitize(f"{ch.kind} in {ch.where}: {'+'.join(ch.classes)}")
    if not changes:
        ET.SubElement(suite, "testcase", classname="omnimessage.schema.diff", name="no changes")
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


Renderer = Callable[[str, str, list[Change]], str]


def renderer(fmt: str, allowed: Collection[str]) -> Renderer | None:
    """The renderer of a CI format (None: not one of them)."""
    if fmt == "github":
        return lambda old, new, changes: render_github(old, new, changes, allowed)
    if fmt == "junit":
        return lambda old, new, changes: render_junit(old, new, changes, allowed)
    return None


def load_at_ref(ref: str, path: str) -> tuple[str, dict[str, Any]]:
    """The schema file `path` (relative to the working directory) as committed at `ref`: (its label
    `REF:PATH`, the schema), read with `git show` and checked as `load` checks a file. ValueError,
    with git's one-line reason, when the ref or the file cannot be read."""
    label = f"{printable(ref, 100)}:{printable(path, 300)}"
    if not _REF.match(ref) or ".." in ref:
        raise ValueError(f"--against-ref {printable(ref, 100)!r} is not a git ref (a branch, tag or commit)")
    if os.path.isabs(path) or "\n" in path:
        raise ValueError(f"{printable(path, 300)!r}: give the schema file relative to the working directory")
    try:
        proc = subprocess.run(["git", "show", f"{ref}:./{path}"], capture_output=True, timeout=GIT_TIMEOUT,
                              stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise ValueError("--against-ref needs git, which is not on PATH") from None
    except subprocess.TimeoutExpired:
        raise ValueError(f"git show {label}: no answer within {GIT_TIMEOUT:g}s") from None
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip().split("\n", 1)[0]
        raise ValueError(f"git show {label}: {printable(why, 300) or f'exit {proc.returncode}'}")
    if len(proc.stdout) > MAX_REF_BYTES:
        raise ValueError(f"{label}: more than {MAX_REF_BYTES} bytes; not a schema")
    fd, tmp = tempfile.mkstemp(prefix="omnimessage-schema-", suffix=".json")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(proc.stdout)
        _, doc = load(tmp)  # the same checks as a file named on the command line
    except ValueError as exc:
        raise ValueError(str(exc).replace(tmp, label)) from None
    finally:
        os.unlink(tmp)
    return label, doc
