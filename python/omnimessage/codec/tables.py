"""What the codec's fast paths read from a generated types module, as one value.

The runtime's own (`RUNTIME`, from `omnimessage._generated`), or the same tables generated into a
user's project (`omnimessage.runtime.Codec` builds one from that package's `models`): the codec is one
implementation, whichever structs it reads and writes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple

import msgspec

from omnimessage._generated.models import ENVELOPE_TAGS, NUMBER_LOCATIONS, VERBATIM_LOCATIONS
from omnimessage.codec.native import DECODER, NATIVE
from omnimessage.codec.slow_path import RUNTIME_SHAPES, Shapes
from omnimessage.codec.unknown_struct import unknown_struct


class Tables(NamedTuple):
    decoder: msgspec.json.Decoder[Any]  # of the module's `Message`
    tags: Mapping[Any, str]  # ENVELOPE_TAGS: envelope class -> `type`
    verbatim: Mapping[Any, Any]  # VERBATIM_LOCATIONS
    numbers: Mapping[Any, Any]  # NUMBER_LOCATIONS
    unknown: Callable[[object], TypeError]  # the error for a value `encode` cannot take
    shapes: Shapes  # what the slow path decodes into: the same module's structs and tables
    # The native fast path for these structs (omnimessage._accel.decode: the typed decode and the
    # one-pass proof of canonical form), or None: decode, re-encode and compare (._fast_path).
    native: Callable[[bytes], Any] | None = None


RUNTIME: Final = Tables(DECODER, dict(ENVELOPE_TAGS), VERBATIM_LOCATIONS, NUMBER_LOCATIONS,
                        unknown_struct, RUNTIME_SHAPES, NATIVE)
