"""The `TypeError` for a value an `encode` cannot take: what it is, and what to pass instead.

Its own module because both sides need it: the runtime's codec tables (`.tables`) and the codecs
that `bind` makes for generated packages.
"""

from __future__ import annotations

import msgspec

from omnimessage._generated import models as _runtime


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
