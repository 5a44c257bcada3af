"""Mutants that do not keep verbatim values (fidelity and the like) byte for byte."""

from __future__ import annotations

import json
import re

import msgspec

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.conformance.testee import Binding

from .rewrite import MAX_SAFE, map_path, map_verbatim, tokens_outside_strings, with_payload

__all__ = ["BigIntsRounded", "FidelityReserialised", "VerbatimCompacted", "VerbatimEscapesDecoded"]


class FidelityReserialised(Binding):
    """fidelity parsed and dumped again (compact), the usual fate of an opaque dict."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def redo(raw: bytes) -> bytes:
            text = json.dumps(json.loads(raw.decode("utf-8")), separators=(",", ":"), ensure_ascii=False)
            return text.encode("utf-8", "surrogatepass")

        if not isinstance(msg, OpaqueMessage) and getattr(msg.payload, "fidelity", msgspec.UNSET) is not msgspec.UNSET:
            msg = with_payload(msg, map_path(msg.payload, ("fidelity",), lambda r: msgspec.Raw(redo(bytes(r)))))
        return super().encode(msg)


class BigIntsRounded(Binding):
    """Integers beyond 2^53 inside verbatim values rounded through a double (JavaScript's JSON.parse)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def rnd(tok: bytes) -> bytes:
            if tok[:1].isspace() or any(c in tok for c in b".eE") or abs(int(tok)) <= MAX_SAFE:
                return tok
            return str(int(float(int(tok)))).encode()

        return super().encode(map_verbatim(msg, lambda raw: tokens_outside_strings(raw, rnd)))


class VerbatimCompacted(Binding):
    """Whitespace inside verbatim values removed (a minifier run over the output)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(
            map_verbatim(msg, lambda raw: tokens_outside_strings(raw, lambda t: b"" if t.isspace() else t))
        )


class VerbatimEscapesDecoded(Binding):
    """Escapes inside verbatim values decoded (`\\u00e9` -> é, `\\/` -> /)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def undo(raw: bytes) -> bytes:
            def one(m: re.Match[bytes]) -> bytes:
                s = m.group(0)
                if s == b"\\/":
                    return b"/"
                cp = int(s[2:], 16)
                if cp < 0x20 or cp in (0x22, 0x5C) or 0xD800 <= cp <= 0xDFFF:
                    return s
                return chr(cp).encode()

            return re.sub(rb"\\u[0-9a-fA-F]{4}|\\/", one, raw)

        return super().encode(map_verbatim(msg, undo))
