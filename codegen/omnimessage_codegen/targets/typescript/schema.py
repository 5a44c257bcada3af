"""Emitter `schema.ts` of target `typescript`: the schema `$id`, the limits, the rejection categories, the canonical
field order of every object, where verbatim values and `number` values sit."""

from __future__ import annotations

from ...model import Model
from .common import FULL, Flavour, render_template


def render(model: Model, flavour: Flavour = FULL) -> dict[str, str]:
    return render_template(model, "schema.ts", flavour)
