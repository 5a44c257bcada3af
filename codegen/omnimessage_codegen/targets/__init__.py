"""Generation targets: each turns the model into a set of files (relative path -> text)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..model import Model
from . import markdown, python_msgspec

Renderer = Callable[[Model], dict[str, str]]

TARGETS: dict[str, Renderer] = {
    "python": python_msgspec.render,
    "markdown": markdown.render,
    "pydantic": __import__(f"{__package__}.pydantic_dmcg", fromlist=["render"]).render,  # not byte-exact
    "typescript": __import__(f"{__package__}.typescript", fromlist=["render"]).render,
}


def render(target: str, model: Model) -> dict[str, str]:
    try:
        renderer = TARGETS[target]
    except KeyError:
        raise ValueError(f"unknown target {target!r}; known: {', '.join(sorted(TARGETS))}") from None
    return renderer(model)


def generate(target: str, model: Model, out_dir: Path) -> list[Path]:
    """Write a target's files under `out_dir`, each through a temporary file and an atomic rename."""
    written = []
    for rel, text in render(target, model).items():
        dest = out_dir / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
            os.replace(tmp, dest)
        except BaseException:
            os.unlink(tmp)
            raise
        written.append(dest)
    return written
