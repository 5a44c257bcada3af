"""The byte-exact codec: strict decoding, canonical encoding, and what they share.

The public functions are :mod:`.api`'s (`omnimessage.decode` and friends re-export them). The rest
is the machinery behind them, one concept a module:

* decoding: :mod:`.native` (the optional C accelerator, chosen once), :mod:`.fast_path` (msgspec's
  typed decode, then a re-encode to prove the line canonical), :mod:`.slow_path` (the strict
  scanner :mod:`.scan` and the walks of :mod:`.text_walk`, then the schema with its errors named
  by :mod:`.schema_errors`), :mod:`.tables` (what the fast paths read from a generated module,
  and the error for a value `encode` cannot take);
* encoding: :mod:`.encoder` (a message in schema order) over :mod:`.write` (JSON values as
  `JSON.stringify` writes them);
* values: :mod:`.verbatim` (verbatim JSON objects and timestamps for the builders), :mod:`.utf16`
  (streamed fragments joined as JavaScript joins them, in UTF-16 code units);
* :mod:`.errors`: `DecodeError` and the categories it names.
"""

from omnimessage.codec.api import OpaqueMessage, canonicalize, decode, decode_canonical, encode

__all__ = ["OpaqueMessage", "canonicalize", "decode", "decode_canonical", "encode"]
