"""Target `typescript`: types, validators, canonical encoders, builders and guards.

Everything the TypeScript runtime (`typescript/src/`) knows about the schema comes from here,
one emitter module per file: `types.ts`, `schema.ts`, `validate.ts`, `encode.ts`, `check.ts`,
`index.ts`, `builders.ts`, `guards.ts` (see each module). The modules `index.ts` re-exports
import nothing from outside their folder, but they are not a standalone codec: `builders.ts` and
`guards.ts` sit on the npm package's hand-written runtime (`builder-support.ts`, `codec.ts`), as
do the scanner, `RawJson` and the codec itself (decoding, and verbatim values kept as their
bytes). Every file's header says so.
"""

from __future__ import annotations

from .. import Target
from . import builders, check, encode, guards, index, schema, types, validate
from .common import UnsupportedShape

__all__ = ["TARGET", "UnsupportedShape"]

TARGET = Target(
    "typescript",
    "types, validators, canonical encoders, builders and guards; the codec is the omnimessage npm package (not standalone)",
    (types.render, schema.render, validate.render, encode.render, check.render, index.render, builders.render, guards.render),
)
