"""Emitter `guards.ts` of target `typescript`: one type guard per `x-omnimessage-guard` (an envelope
kind, or a payload union within its envelope; for a union also a guard of the bare payload).

Full flavour: the message guards take what the npm package's `decode` returns (an `OmniMessage`
or, lenient, an `OpaqueMessage`, a type imported through `runtime.ts`); types only: an
`OmniMessage` (validate a parsed value with `isValidMessage` first)."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .._names import upper_snake
from .common import FULL, Flavour


def render(model: Model, flavour: Flavour = FULL) -> dict[str, str]:
    if not model.guards:
        return {}
    unions = [
        {"name": g.of, "const": upper_snake(g.of) + "_TYPES", "set": upper_snake(g.of.removesuffix("ModelPayload"))}
        for g in model.guards
        if g.of != g.envelope
    ]
    sets = {u["name"]: u["set"] for u in unions}
    type_imports = sorted({"OmniMessage", *(g.envelope for g in model.guards), *sets})
    tags = {e.struct.name: e.struct.tag for e in model.envelopes}
    text = environment().get_template("typescript/guards.ts.j2").render(
        m=model, unions=unions, sets=sets, type_imports=type_imports, tags=tags,
        target=flavour.target, full=flavour.runtime,
    )
    return {"guards.ts": text}
