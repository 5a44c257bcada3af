"""What the codec's fast paths read from a generated types module, as one value.

The runtime's own (`RUNTIME`, from `omnimessage._generated`), or the same tables generated into a
user's project (`omnimessage.runtime.Codec` builds one from that package's `models`): the codec is one
implementation, whichever structs it reads and writes. With them, the error every codec gives for a
value its `encode` cannot take (:func:`unknown_struct`): what the value is, and what to pass instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple

import msgspec

from omnimessage._generated import models as _runtime
from omnimessage._generated.models import ENVELOPE_TAGS, NUMBER_LOCATIONS, VERBATIM_LOCATIONS
from omnimessage.codec.native import DECODER, NATIVE
from omnimessage.codec.slow_path import RUNTIME_SHAPES, Shapes


def package_of(module_name: str) -> str:
    """`myapp.omtypes` for `myapp.omtypes.models` (what a user imports and passes)."""
    return module_name[: -len(".models")] if module_name.endswith(".models") else module_name


def _envelope_names() -> str:
    return ", ".join(cls.__name__ for cls in _runtime.ENVELOPE_TAGS)


def unknown_struct(msg: object, codec_of: str = "omnimessage") -> TypeError:
    """The `TypeError` for a value an `encode` cannot take: what it is, and what to pass instead.

    `codec_of` names the package whose structs the refusing codec encodes."""
    cls = type(msg)
    name = f"{cls.__module__}.{cls.__qualname__}"
    where = "omnimessage.encode()" if codec_of == "omnimessage" else f"the codec of {codec_of}"
    runtime_names = {c.__name__ for c in _runtime.ENVELOPE_TAGS}
    payload_names = {c.__name__ for c in _runtime.PAYLOAD_CLASSES.values()}
    if isinstance(msg, msgspec.Struct) and cls.__name__ in runtime_names:
        pkg = package_of(cls.__module__)
        if pkg in ("omnimessage", "omnimessage._generated"):
            fix = "encode it with omnimessage.encode(msg)"
        else:
            fix = f"encode it with the codec generated beside it: {pkg}.encode(msg) (or omnimessage.Codec({pkg}))"
        return TypeError(f"{where} got {name}, a struct of another package than {codec_of}: {fix}")
    if isinstance(msg, msgspec.Struct) and cls.__name__ in payload_names:
        return TypeError(
            f"{where} takes a whole message, not a payload: wrap {name} in its envelope "
            f"(ModelMessage/EventMessage(timestamp=..., payload=...), or omnimessage.model(payload) / event(payload))"
        )
    return TypeError(f"{where} takes a message of {codec_of} ({_envelope_names()}, or an OpaqueMessage); got {name}")


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
