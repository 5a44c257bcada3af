"""Emitter `types.ts` of target `typescript`: one interface per payload with a literal `type`, the named payload
unions, the envelope types (`ModelMessage<P>`, ...), every enum as a string-literal union plus a
frozen array of its values; JSDoc from the schema descriptions."""

from __future__ import annotations

from ...model import Model
from .common import FULL, Flavour, render_template


def render(model: Model, flavour: Flavour = FULL) -> dict[str, str]:
    return render_template(model, "types.ts", flavour)
