"""Emitter `index.ts` of target `typescript`: re-exports the self-contained modules (not `builders.ts` and
`guards.ts`, which need the npm package's runtime)."""

from __future__ import annotations

from ...model import Model
from .common import render_template


def render(model: Model) -> dict[str, str]:
    return render_template(model, "index.ts")
