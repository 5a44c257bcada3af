"""Mutants that spell a refusal's JSON pointer wrongly (RFC 6901 escaping, parents, indexes)."""

from __future__ import annotations

import re
from urllib.parse import quote

from omnimessage.codec.errors import DecodeError

from .refusal_tools import Rerefused

__all__ = [
    "PointerEscapeOrderSwapped",
    "PointerIndexOneBased",
    "PointerParentForKeys",
    "PointerPercentEncoded",
    "PointerSlashUnescaped",
    "PointerTildeUnescaped",
    "PointerUriFragment",
]


class _Respelled(Rerefused):
    def spell(self, err: DecodeError) -> str:
        return err.pointer

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        new = self.spell(err)
        if new == err.pointer:
            return err
        return DecodeError(err.category, err.detail, pointer=new, offset=err.offset)


class PointerTildeUnescaped(_Respelled):
    """`~` in a key not escaped as `~0` in the pointer."""

    def spell(self, err: DecodeError) -> str:
        return err.pointer.replace("~0", "~")


class PointerSlashUnescaped(_Respelled):
    """`/` in a key not escaped as `~1` in the pointer (the key reads as two segments)."""

    def spell(self, err: DecodeError) -> str:
        return err.pointer.replace("~1", "/")


class PointerEscapeOrderSwapped(_Respelled):
    """`/` escaped before `~` (`/` becomes `~1`, then `~01`): RFC 6901 section 4's trap."""

    def spell(self, err: DecodeError) -> str:
        return err.pointer.replace("~1", "~01")


class PointerPercentEncoded(_Respelled):
    """Keys percent-encoded in the pointer (URI style: a space as `%20`, `é` as `%C3%A9`)."""

    def spell(self, err: DecodeError) -> str:
        return quote(err.pointer, safe="/~")


class PointerUriFragment(_Respelled):
    """The pointer written as a URI fragment (`#/payload/x`)."""

    def spell(self, err: DecodeError) -> str:
        return "#" + err.pointer


class PointerIndexOneBased(_Respelled):
    """Array indexes counted from 1 in the pointer."""

    def spell(self, err: DecodeError) -> str:
        return re.sub(r"(?<=/)(\d+)(?=/|$)", lambda m: str(int(m.group(1)) + 1), err.pointer)


class PointerParentForKeys(_Respelled):
    """missing_field and unexpected_field point at the object, not the key (jsonschema's instance path)."""

    def spell(self, err: DecodeError) -> str:
        if err.category not in ("missing_field", "unexpected_field"):
            return err.pointer
        return err.pointer.rsplit("/", 1)[0]
