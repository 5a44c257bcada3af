"""Emitter `runtime.ts` of target `typescript` (full): the one module that imports the npm package.

It registers the generated code with the runtime (`register` of `omnimessage/runtime`, which
refuses code generated from an incompatible schema or by a newer generator with an
`IncompatibleSchemaError`) and hands the runtime's helpers to `builders.ts` and `guards.ts`.
The `typescript-types` target has no such module: it imports nothing outside its folder.
"""

from __future__ import annotations

from ...model import Model
from .common import FULL, Flavour, render_template


def render(model: Model, flavour: Flavour = FULL) -> dict[str, str]:
    return render_template(model, "runtime.ts", flavour)
