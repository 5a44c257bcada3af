"""Targets `typescript` and `typescript-types`: one emitter module per file (see each module).

`typescript` (full) writes `types.ts`, `schema.ts`, `validate.ts`, `encode.ts`, `check.ts`,
`read.ts`, `runtime.ts`, `builders.ts`, `guards.ts` and `index.ts`: the generated half of the npm package
(`typescript/src/generated/` is this output), and in a user's project code that sits on the
package. `runtime.ts` is its only module that imports anything outside the folder, and imports it
by the package's name (`omnimessage/runtime`): loading it registers the code with the runtime,
which refuses code of an incompatible schema. `builders.ts` and `guards.ts` take the runtime's
helpers and its `OpaqueMessage` type from there.

`typescript-types` writes `types.ts`, `schema.ts`, `validate.ts`, `guards.ts` and `index.ts`:
types, schema facts, validators and guards for values as `JSON.parse` gives them (verbatim values
as plain objects), importing nothing outside the folder and needing no package.
"""

from __future__ import annotations

from functools import partial

from .. import Target
from . import builders, check, encode, guards, index, read, runtime, schema, types, validate
from .common import TYPES, UnsupportedShape

__all__ = ["TARGET", "TYPES_TARGET", "UnsupportedShape"]

TARGET = Target(
    "typescript",
    "types, validators, encoders, builders and guards on the omnimessage npm package (imported by name), its codec",
    (
        types.render, schema.render, validate.render, encode.render, check.render, read.render, runtime.render,
        index.render,
        builders.render, guards.render,
    ),
    writes=("index.ts", "types.ts", "schema.ts", "validate.ts", "encode.ts", "check.ts", "read.ts", "runtime.ts",
            "builders.ts", "guards.ts"),
)

TYPES_TARGET = Target(
    "typescript-types",
    "types, validators and guards only: no import outside the folder, no package, no codec",
    (
        partial(types.render, flavour=TYPES), partial(schema.render, flavour=TYPES),
        partial(validate.render, flavour=TYPES), partial(guards.render, flavour=TYPES),
        partial(index.render, flavour=TYPES),
    ),
    writes=("index.ts", "types.ts", "schema.ts", "validate.ts", "guards.ts"),
)
