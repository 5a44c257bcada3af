"""Target `rust`: types, schema tables, the typed decoder and canonical encoder of every object,
builders and guards, for the `omnimessage` crate (`rust/`).

One emitter module per file kind: `types.py` (`enums.rs`, `types.rs`), `tables.py`
(`tables.rs`), `codec.py` (`codec_<envelope>.rs`, `message.rs`), `builders.py`, `guards.py`,
`fragments.py` (`fragments.rs`, the aggregator's table), `modfile.py` (`mod.rs`). The files are not
a standalone codec: they sit on the crate's hand-written runtime (the strict scanner, the level-3
walk, the value writers), which they name `omnimessage::runtime`, so they work inside the crate and in a
user's crate that depends on it.
"""

from __future__ import annotations

from .. import Target
from .._shapes import UnsupportedShape
from . import builders, codec, fragments, guards, modfile, tables, types

__all__ = ["TARGET", "UnsupportedShape"]

TARGET = Target(
    "rust",
    "types, schema tables, typed decoders, canonical encoders, builders and guards; "
    "the codec is the omnimessage crate (not standalone)",
    (types.render, tables.render, fragments.render, codec.render, builders.render, guards.render, modfile.render),
    writes=("mod.rs", "types.rs", "enums.rs", "message.rs", "tables.rs", "fragments.rs", "decode_*.rs", "encode_*.rs",
            "builders_*.rs", "guards.rs"),
)
