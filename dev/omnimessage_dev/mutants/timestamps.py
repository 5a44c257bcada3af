"""Mutants that hold the timestamp as a date-time value and write it back another way."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .respell import Respelled

__all__ = [
    "TimestampFractionDropped",
    "TimestampFractionTrimmed",
    "TimestampMicroseconds",
    "TimestampNanosCut",
    "TimestampOffsetWritten",
    "TimestampPythonStr",
    "TimestampRefused",
    "TimestampToUtc",
    "TimestampZeroFractionAdded",
]

_TS = frozenset({"timestamp"})


def _parse(value: str) -> datetime:
    # fromisoformat takes at most 6 fraction digits in older Pythons: cut to microseconds
    return datetime.fromisoformat(re.sub(r"(\.\d{6})\d+", r"\1", value).replace("z", "Z"))


class TimestampMicroseconds(Respelled):
    """timestamp parsed to a datetime and written with microseconds (`.531000Z`, Python isoformat)."""

    fields = _TS

    def respell(self, value: str) -> str:
        return _parse(value).astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


class TimestampOffsetWritten(Respelled):
    """A `Z` timestamp written with `+00:00` (datetime.isoformat)."""

    fields = _TS

    def respell(self, value: str) -> str:
        return value[:-1] + "+00:00" if value.endswith("Z") else value


class TimestampFractionDropped(Respelled):
    """timestamp written to the second (RFC 3339 without fraction, `time.Time` with seconds layout)."""

    fields = _TS

    def respell(self, value: str) -> str:
        return re.sub(r"\.\d+", "", value, count=1)


class TimestampFractionTrimmed(Respelled):
    """Trailing zeros of the fraction trimmed (`.500Z` written `.5Z`, Go's RFC3339Nano)."""

    fields = _TS

    def respell(self, value: str) -> str:
        return re.sub(r"\.(\d*?)0+(?=\D|$)", lambda m: "." + m.group(1) if m.group(1) else "", value, count=1)


class TimestampZeroFractionAdded(Respelled):
    """A timestamp without fraction written with `.000` (JavaScript's Date.toISOString)."""

    fields = _TS

    def respell(self, value: str) -> str:
        return re.sub(r"(T\d\d:\d\d:\d\d)(?=[Zz+-])", r"\1.000", value, count=1)


class TimestampNanosCut(Respelled):
    """Fractions beyond milliseconds cut (a Date holds milliseconds: `.531123456Z` -> `.531Z`)."""

    fields = _TS

    def respell(self, value: str) -> str:
        return re.sub(r"(\.\d{3})\d+", r"\1", value, count=1)


class TimestampToUtc(Respelled):
    """A timestamp with an offset converted to UTC (`05:10:22.531+02:00` -> `03:10:22.531Z`)."""

    fields = _TS

    def respell(self, value: str) -> str:
        m = re.search(r"[+-]\d\d:\d\d$", value)
        if not m or m.group(0) in ("+00:00",):
            return value
        frac = re.search(r"\.(\d+)", value)
        dt = _parse(value).astimezone(UTC).replace(tzinfo=None)
        out = dt.strftime("%Y-%m-%dT%H:%M:%S")
        return out + ("." + frac.group(1) if frac else "") + "Z"


class TimestampPythonStr(Respelled):
    """timestamp written with str(datetime) (`2026-07-18 03:10:22.531000+00:00`)."""

    fields = _TS

    def respell(self, value: str) -> str:
        return str(_parse(value))


class TimestampRefused(Binding):
    """A timestamp that is no RFC 3339 date-time refused (`invalid_value`): a validator rule in the decoder."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if not isinstance(msg, OpaqueMessage):
            try:
                _parse(msg.timestamp)
            except ValueError:
                raise DecodeError("invalid_value", "not a date-time", pointer="/timestamp") from None
        return msg
