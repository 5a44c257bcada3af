"""A base for the mutants that change what a refusal says, or refuse what the reference keeps."""

from __future__ import annotations

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

__all__ = ["Rerefused", "Stricter", "last_key"]


def last_key(pointer: str) -> str:
    """The unescaped last segment of a JSON pointer."""
    return pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")


class Rerefused(Binding):
    """Passes every refusal through `change` (which returns the refusal to report)."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        return err

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            new = self.change(err, data, lenient, max_line_bytes)
            if new is err:
                raise
            raise new from None


class Stricter(Binding):
    """Refuses a decoded message when `refuse` names a (category, pointer)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        return None

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if not isinstance(msg, OpaqueMessage) and (why := self.refuse(msg)) is not None:
            raise DecodeError(why[0], "refused by the mutant", pointer=why[1])
        return msg
