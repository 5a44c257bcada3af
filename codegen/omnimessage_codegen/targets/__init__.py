"""Generation targets, all behind one small interface.

A :class:`Target` is a name, one line of help and its emitters; an emitter is a function from
the intermediate model to files (relative path -> text), one module per emitter
(`typescript/encode.py`, `python/builders.py`, ...). A target renders by running its emitters
in order; two emitters may not write the same file.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..model import Model

Emitter = Callable[[Model], dict[str, str]]


@dataclass(frozen=True)
class Target:
    """A generation target: `omnimessage generate --target <name>`."""

    name: str
    summary: str  # one line, for `omnimessage generate --help`
    emitters: tuple[Emitter, ...]
    needs: tuple[str, ...] = ()  # modules it imports beyond jinja2, which `extra` installs
    extra: str | None = None  # the extra of the omnimessage package that brings `needs`
    writes: tuple[str, ...] = ()
    """The paths it writes under DIR, as `generate --help` names them (a `*` stands for the several
    files of one job); codegen/tests/test_codegen.py checks them against what it really writes."""
    schema: str = "message"
    """Which schema it renders: `message` (the canonical schema, or one version of it) or
    `testee-protocol` (conformance/testee-protocol.schema.json; `omnimessage generate` loads it
    for such a target)."""
    documented: bool = True
    """Whether docs/bindings.md documents it (and so `generate --help` lists it); an undocumented target
    (the project's own, `c`) still runs, for the Makefile."""

    def missing(self) -> list[str]:
        """The modules of `needs` that are not installed (`omnimessage generate` refuses the target then)."""
        return [m for m in self.needs if importlib.util.find_spec(m) is None]

    def render(self, model: Model) -> dict[str, str]:
        if model.kind != self.schema:
            raise ValueError(f"target {self.name} renders the {self.schema} schema, not a {model.kind} schema")
        files: dict[str, str] = {}
        for emit in self.emitters:
            out = emit(model)
            clash = sorted(files.keys() & out.keys())
            if clash:
                raise ValueError(f"target {self.name}: two emitters write {', '.join(clash)}")
            files.update(out)
        return files


def _registry() -> dict[str, Target]:
    from . import c_table, go, markdown, pydantic_dmcg, python, rust, testee, typescript

    targets = (python.TARGET, typescript.TARGET, typescript.TYPES_TARGET, rust.TARGET, go.TARGET, markdown.TARGET,
               pydantic_dmcg.TARGET, c_table.TARGET, *testee.TARGETS)
    return {t.name: t for t in targets}


TARGETS: dict[str, Target] = _registry()
DOCUMENTED: tuple[str, ...] = tuple(name for name, t in TARGETS.items() if t.documented)
"""The targets `generate --help` and its errors name."""


def render(target: str, model: Model) -> dict[str, str]:
    try:
        t = TARGETS[target]
    except KeyError:
        raise ValueError(f"unknown target {target!r}; known: {', '.join(sorted(TARGETS))}") from None
    return t.render(model)


def _file_mode() -> int:
    """The mode a newly created file gets under the current umask (0644 under the usual 022)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def generate(target: str, model: Model, out_dir: Path) -> list[Path]:
    """Write a target's files under `out_dir`, each through a temporary file and an atomic rename."""
    written = []
    mode = _file_mode()
    for rel, text in render(target, model).items():
        dest = out_dir / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
            os.chmod(tmp, mode)  # mkstemp creates 0600
            os.replace(tmp, dest)
        except BaseException:
            os.unlink(tmp)
            raise
        written.append(dest)
    return written
