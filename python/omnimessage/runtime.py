"""Binding generated code to the runtime: the one module `omnimessage generate --target python` output imports.

The `python` target writes msgspec structs into a user's project (`omnimessage generate --target
python --out myapp/omtypes`). Like protobuf's generated `_pb2` modules, that code imports the runtime
by its package name, never by a relative path, and the package it writes performs the registration
itself: its `codec.py` makes a :class:`Codec` from its own `models` module, so

    from myapp import omtypes
    msg = omtypes.decode(line)          # an omtypes.ModelMessage, not the runtime's class
    assert omtypes.encode(msg) == line  # byte for byte

The codec is the runtime's own byte-exact codec (the same fast path, the same strict slow path,
the same `DecodeError`s), reading the generated module's tables instead of the runtime's, much as
`msgspec.json.Decoder(MyStruct)` is msgspec's decoder bound to a user's type. `Codec(omtypes)` may
also be called directly (annotate it: `Codec[omtypes.Message]`).

Compatibility: a generated module is accepted when its wire structure (its structs, their fields
and types, the verbatim, number and fragment tables) is exactly what this runtime's generator
writes for the protocol version the module states (`PROTOCOL_VERSION`; a module without one states
the newest): for the newest version, the runtime's own structs; for an older one (`omnimessage
generate --protocol V`), the digest of that version's structure recorded in `omnimessage.schema.binding_digests`
when this release was built. Anything else is refused at import time with
:class:`IncompatibleSchemaError`, naming the schema ids, the protocol versions, the releases and,
against the runtime's own structs, the first definition that differs. The codec bound to an older
version decodes that version's vocabulary strictly (its slow path too decodes into the module's
structs) and writes it byte for byte. A value `encode` does not know (a struct of
another package, a bare payload, anything else) is a `TypeError` saying what to pass.

Also here, for the generated builders: `now`, `verbatim`, `ABSENT`, `JsonObject`.
"""

from __future__ import annotations

import hashlib
import json
from types import ModuleType
from typing import Any, Final, Generic, Literal, TypeVar, overload

import msgspec

from omnimessage._generated import models as _runtime
from omnimessage._version import __version__
from omnimessage.codec import api as _codec
from omnimessage.codec import tables as _tables
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.slow_path import Shapes
from omnimessage.codec.tables import package_of, unknown_struct
from omnimessage.codec.verbatim import ABSENT, JsonObject, now, verbatim
from omnimessage.schema.binding_digests import BINDING_DIGESTS

# The namespace generated code imports (docs/bindings.md, "The runtime namespace"), and the digest the
# release's build records for each protocol version's bindings (schema/versions/build.py).
__all__ = ["ABSENT", "Codec", "IncompatibleSchemaError", "JsonObject", "now", "signature_digest", "verbatim"]

M = TypeVar("M")
_Data = bytes | bytearray | memoryview | str

# What a generated types module holds for the codec (models.py, re-exported by its package).
_TABLES: Final = ("ENVELOPE_TAGS", "PAYLOAD_CLASSES", "VERBATIM_LOCATIONS", "NUMBER_LOCATIONS", "FRAGMENT_OF")
_NEEDED: Final = ("SCHEMA_ID", "Message", *_TABLES)
_GENERATE: Final = "omnimessage generate --target python --out DIR"


class IncompatibleSchemaError(TypeError):
    """Generated code whose schema this runtime does not speak (raised when its package is imported)."""


def _signature(types: Any) -> dict[str, Any]:
    """The wire structure of a generated types module, comparable across modules: msgspec's JSON
    Schema of its `Message` without the prose, and its tables with classes named."""
    doc = msgspec.json.schema(types.Message)

    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in ("description", "title")}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    def named(v: Any) -> Any:
        if isinstance(v, type):
            return v.__name__
        if isinstance(v, dict):
            return sorted((repr(named(k)), repr(named(x))) for k, x in v.items())
        if isinstance(v, tuple):
            return tuple(named(x) for x in v)
        return v

    defs = {f"$defs/{k}": x for k, x in strip(doc.pop("$defs", {})).items()}
    return {"root": strip(doc), **defs, **{t: named(getattr(types, t)) for t in _TABLES}}


def signature_digest(types: Any) -> str:
    """The sha256 of a generated types module's wire structure (:func:`_signature` as canonical
    JSON): what `omnimessage.schema.binding_digests` records for each protocol version's bindings."""
    text = json.dumps(_signature(types), sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_RUNTIME_SIGNATURE: dict[str, Any] | None = None


def _fix(by: str, version: str) -> str:
    """What to do about refused bindings: regenerate them with this runtime, or, when this very
    release wrote them, say that they were changed since (two identical releases explain nothing)."""
    flag = "" if version == _runtime.PROTOCOL_VERSION else f" --protocol {version}"
    again = f"regenerate it with this runtime (`{_GENERATE}{flag}`)"
    if by == __version__:
        return f"{again}: this release did not write these structs as they are (edited, or made from another schema)"
    return f"{again}, or install omnimessage {by}, the release that generated it"


def _check(types: ModuleType) -> None:
    global _RUNTIME_SIGNATURE
    missing = [n for n in _NEEDED if not hasattr(types, n)]
    if missing:
        raise TypeError(
            f"{types.__name__} is not a module written by `{_GENERATE}` (it has no {', '.join(missing)}): pass the "
            "generated package (omnimessage.Codec(myapp.omtypes)) or its models module"
        )
    by = str(getattr(types, "GENERATOR_VERSION", "an unknown release"))
    version = str(getattr(types, "PROTOCOL_VERSION", _runtime.PROTOCOL_VERSION))
    pkg = package_of(types.__name__)
    said = f"{pkg} was generated from schema {types.SCHEMA_ID} (protocol {version}) by omnimessage {by}"
    if version != _runtime.PROTOCOL_VERSION:
        digest = BINDING_DIGESTS.get(version)
        if digest is None:
            fix = (f"this release wrote no such package (edited?): regenerate it (`{_GENERATE} --protocol V`, V one "
                   "of those)" if by == __version__ else f"install omnimessage {by}, the release that generated it")
            raise IncompatibleSchemaError(
                f"{said}, but this runtime (omnimessage {__version__}) knows no protocol {version} (it knows "
                f"{', '.join(BINDING_DIGESTS)}): {fix}")
        if signature_digest(types) != digest:
            raise IncompatibleSchemaError(
                f"{said}, but its structs are not this runtime's (omnimessage {__version__}) bindings of protocol "
                f"{version}: {_fix(by, version)}")
        return
    if _RUNTIME_SIGNATURE is None:
        _RUNTIME_SIGNATURE = _signature(_runtime)
    theirs = _signature(types)
    differ = sorted(k for k in _RUNTIME_SIGNATURE.keys() | theirs.keys() if _RUNTIME_SIGNATURE.get(k) != theirs.get(k))
    if differ:
        first = differ[0].removeprefix("$defs/")
        more = f" and {len(differ) - 1} more" if len(differ) > 1 else ""
        raise IncompatibleSchemaError(
            f"{said}, but this runtime (omnimessage {__version__}) speaks schema {_runtime.SCHEMA_ID} (protocol "
            f"{version}), and they differ ({first}{more}): {_fix(by, version)}"
        )


class Codec(Generic[M]):
    """The runtime's byte-exact codec bound to a generated types module (a package written by
    `omnimessage generate --target python`, or its `models`): `decode` gives that module's structs,
    `encode` takes them. Raises :class:`IncompatibleSchemaError` when the module's schema is not
    the runtime's, `TypeError` when `types` is not a generated module."""

    def __init__(self, types: ModuleType) -> None:
        self.types = types
        # The runtime's own structs: its generated package, or `omnimessage` itself (which exports them
        # without the codec's tables).
        ours = getattr(types, "ENVELOPE_TAGS", None) is _runtime.ENVELOPE_TAGS
        if ours or getattr(types, "Message", None) is _runtime.Message:
            self.package = "omnimessage"
            self._tables = _tables.RUNTIME
            return
        _check(types)
        self.package = package_of(types.__name__)
        package = self.package
        self._tables = _tables.Tables(
            msgspec.json.Decoder(types.Message),
            dict(types.ENVELOPE_TAGS),
            types.VERBATIM_LOCATIONS,
            types.NUMBER_LOCATIONS,
            lambda msg: unknown_struct(msg, package),
            Shapes(types.Message, types.PAYLOAD_CLASSES, types.VERBATIM_LOCATIONS, types.FRAGMENT_OF),
        )

    @property
    def schema_id(self) -> str:
        """The schema the bound structs were generated from."""
        return str(self.types.SCHEMA_ID)

    @overload
    def decode(self, data: _Data, *, lenient: Literal[False] = False) -> M: ...
    @overload
    def decode(self, data: _Data, *, lenient: Literal[True]) -> M | OpaqueMessage: ...
    @overload
    def decode(self, data: _Data, *, lenient: bool) -> M | OpaqueMessage: ...

    def decode(self, data: _Data, *, lenient: bool = False) -> M | OpaqueMessage:
        """Decode one line into the bound structs: `omnimessage.decode`, strict unless `lenient`."""
        result: M | OpaqueMessage = _codec._decode(data, lenient, self._tables)
        return result

    def encode(self, msg: M | OpaqueMessage) -> bytes:
        """The canonical bytes of a message of the bound structs (no trailing line feed)."""
        return _codec._encode(msg, self._tables)

    def canonicalize(self, line: _Data, *, lenient: bool = False) -> bytes:
        """The canonical bytes of one line (no trailing line feed); raises `DecodeError`."""
        return self.encode(self.decode(line, lenient=lenient))

    def __repr__(self) -> str:
        return f"omnimessage.Codec({self.package}, schema {self.schema_id})"
