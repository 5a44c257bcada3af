"""Mutants that follow a reading of the docs that suite 1.4 settled the other way (issue 13): each
is a rule a third party could have taken from the earlier wording."""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError, escape_pointer_token
from omnimessage.conformance.testee import Binding

from .refusal_tools import Rerefused

__all__ = [
    "BenchmarkReadsAsCli",
    "FidelityVerbatimAnywhere",
    "GrammarPointerAtValue",
    "IntegersJudgedAsWritten",
    "LenientKeepsCr",
    "TopLevelNumberThenTrailing",
    "TornGrammarTruncated",
]

_GRAMMAR = frozenset({"invalid_json", "trailing_data", "too_deep", "invalid_utf8"})
_NUMBER = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


class TornGrammarTruncated(Rerefused):
    """A last line without LF refused by the grammar in any way (too deep, trailing data) reported
    `truncated`: brackets not balanced at the end taken for a tear."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if data.endswith(b"\n") or err.category not in ("too_deep", "trailing_data"):
            return err
        return DecodeError("truncated", "no line feed", offset=len(data))


class IntegersJudgedAsWritten(Rerefused):
    """An integer field judged by the decimal as written, not the parsed number: `1e-400` or
    `1.000000000000000000001` is not an integer, so `wrong_type` instead of `invalid_number`."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "invalid_number" or err.offset is None:
            return err
        m = _NUMBER.match(data, err.offset)
        if m is None:
            return err
        try:
            exact = Decimal(m.group().decode("ascii"))
        except InvalidOperation:
            return err
        if exact.is_finite() and exact != exact.to_integral_value():
            return DecodeError("wrong_type", "not an integer as written", pointer=err.pointer, offset=err.offset)
        return err


class FidelityVerbatimAnywhere(Rerefused):
    """Any member named `fidelity` taken as verbatim, whatever the envelope: a duplicate key, a lone
    surrogate or a huge number inside it goes unseen, and a payload that does not fit its envelope
    is refused as `unknown_type`."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category in ("duplicate_key", "lone_surrogate", "invalid_number") and err.pointer.startswith(
            "/payload/fidelity/"
        ):
            return DecodeError("unknown_type", "payload type not of this envelope", pointer="/payload/type")
        return err


def _path_at(data: bytes, offset: int) -> str:
    """The JSON pointer of the value a streaming parser is in at `offset` (keys as written)."""
    frames: list[list[str | int | None]] = []  # [current key or index] per open container
    expect_key = False
    i, end = 0, min(offset, len(data))
    while i < end:
        c = data[i]
        if c == 0x22:  # a string: a key when one is expected
            j = i + 1
            while j < len(data) and data[j] != 0x22:
                j += 2 if data[j] == 0x5C else 1
            if expect_key and frames:
                frames[-1][0] = data[i + 1 : j].decode("utf-8", "replace")
                expect_key = False
            i = j + 1
            continue
        if c == 0x7B:
            frames.append([None])
            expect_key = True
        elif c == 0x5B:
            frames.append([0])
        elif c in (0x7D, 0x5D) and frames:
            frames.pop()
        elif c == 0x2C and frames:
            token = frames[-1][0]
            if isinstance(token, int):
                frames[-1][0] = token + 1
            else:
                expect_key = True
        i += 1
    tokens: list[str] = []
    for (token,) in frames:
        if token is None:
            break
        tokens.append(escape_pointer_token(token) if isinstance(token, str) else str(token))
    return "".join("/" + t for t in tokens)


class GrammarPointerAtValue(Rerefused):
    """A syntax error, invalid UTF-8 or too deep nesting reported with the pointer of the value the
    parser was in (a streaming parser's path), where the contract says `""`: the line is refused."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category not in _GRAMMAR or err.offset is None or err.pointer:
            return err
        pointer = _path_at(data, err.offset)
        if not pointer:
            return err
        return DecodeError(err.category, err.detail, pointer=pointer, offset=err.offset)


class TopLevelNumberThenTrailing(Rerefused):
    """`01` or `1.` read as Python's `json` reads them: a number, then extra data (`trailing_data`)
    instead of one malformed number token (`invalid_json`)."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category not in ("invalid_json", "truncated"):
            return err
        try:
            json.loads(data)
        except json.JSONDecodeError as exc:
            if exc.msg == "Extra data":
                return DecodeError("trailing_data", "extra data", offset=exc.pos)
        except ValueError:
            pass
        return err


class BenchmarkReadsAsCli(Binding):
    """The retired session source `benchmark` read as `cli` (what `validate --legacy` does), where a
    decoder refuses it as `invalid_value`."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        mapped = data.replace(b'"source":"benchmark"', b'"source":"cli"')
        return super().read_line(mapped, lenient=lenient, max_line_bytes=max_line_bytes)


class LenientKeepsCr(Binding):
    """An opaque lenient message kept as the whole line, the whitespace around its object (a CR
    before the LF) included, so a relay writes the CR back."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if isinstance(msg, OpaqueMessage):
            return OpaqueMessage(raw=data[:-1] if data.endswith(b"\n") else data, error=msg.error)
        return msg

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        # its bytes as kept, CR and all (the real encoder refuses a CR: a message is one line)
        return msg.raw if isinstance(msg, OpaqueMessage) else super().encode(msg)
