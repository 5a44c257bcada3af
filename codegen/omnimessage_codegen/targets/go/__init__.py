"""Target `go`: types, schema tables, the typed decoder and canonical encoder of every object,
builders and guards, as the Go package `messages` on the Go module's runtime (`go/`).

One emitter module per file kind: `types.py` (`enums.go`, `types.go`), `tables.py` (`tables.go`,
`tables_test.go`), `codec.py` (`decode_<envelope>.go`, `encode_<envelope>.go`, `message.go`),
`builders.py`, `guards.py`, `fragments.py` (`fragments.go`, the aggregator's table). The files
are not a standalone codec: they import the runtime (`github.com/omnimessage/omnimessage/go`: the
strict scanner, the level-3 walk, the value writers), so they work in this module (`go/messages/`)
and in a user's module that requires it.
"""

from __future__ import annotations

from .. import Target
from .._shapes import UnsupportedShape
from . import builders, codec, fragments, guards, tables, types

__all__ = ["TARGET", "UnsupportedShape"]

TARGET = Target(
    "go",
    "Go package `messages`: types, schema tables, typed decoders, canonical encoders, builders and guards; "
    "the codec is the Go module's runtime (not standalone)",
    (types.render, tables.render, fragments.render, codec.render, builders.render, guards.render),
    writes=("enums.go", "types.go", "tables.go", "tables_test.go", "fragments.go", "decode_*.go", "encode_*.go",
            "message.go", "builders_*.go", "guards.go"),
)
