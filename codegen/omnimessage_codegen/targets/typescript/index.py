"""Emitter `index.ts` of the TypeScript targets: re-exports every public module of the folder.

`typescript` (full): types, schema facts, validators, canonical encoders, builders and guards (not
`check.ts`, the decoder's node checkers, nor `runtime.ts`, the link to the npm package).
`typescript-types`: types, schema facts, validators and guards, all of the folder.
"""

from __future__ import annotations

from ...model import Model
from .common import FULL, Flavour, render_template


def render(model: Model, flavour: Flavour = FULL) -> dict[str, str]:
    modules = ["types", "schema", "validate"]
    if flavour.runtime:
        modules.append("encode")
        if model.builders:
            modules.append("builders")
    if model.guards:
        modules.append("guards")
    return render_template(model, "index.ts", flavour, modules=modules)
