"""Mutants that find every defect but rank two in one line in another order than section 4's
precedence: invalid UTF-8, then the grammar, then duplicate keys / lone surrogates / huge
numbers in document order, then the schema."""

from __future__ import annotations

import json
import re

from omnimessage.codec import api as codec
from omnimessage.codec.errors import DecodeError

from .refusal_tools import Rerefused

__all__ = [
    "DepthAfterGrammar",
    "LexicalAfterSchema",
    "LoneSurrogateBeforeGrammar",
    "SchemaBeforeTrailingData",
    "Utf8AfterGrammar",
]

_SCHEMA = frozenset({"wrong_type", "missing_field", "unexpected_field", "unknown_type", "invalid_value"})
_GRAMMAR = frozenset({"invalid_json", "trailing_data", "too_deep"})


def _refusal(data: bytes, lenient: bool) -> DecodeError | None:
    try:
        codec.decode(data, lenient=lenient)
    except DecodeError as err:
        return err
    return None


class LexicalAfterSchema(Rerefused):
    """Parsed with a lax parser (last duplicate wins, lone surrogates and huge numbers kept),
    validated against the schema, and only then checked for level-3 defects: a schema defect wins."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category not in ("duplicate_key", "lone_surrogate", "invalid_number") or lenient:
            return err
        try:
            value = json.loads(data.decode("utf-8", "surrogatepass"), parse_constant=lambda c: 0)
        except (ValueError, RecursionError):
            return err
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=str)
        try:
            again = _refusal(text.encode("utf-8", "surrogatepass"), False)
        except (ValueError, OverflowError):
            return err
        return again if again is not None and again.category in _SCHEMA else err


class Utf8AfterGrammar(Rerefused):
    """The text decoded with replacement characters and parsed first: a grammar error wins over invalid UTF-8."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "invalid_utf8":
            return err
        again = _refusal(data.decode("utf-8", "replace").encode("utf-8"), lenient)
        return again if again is not None and again.category in _GRAMMAR else err


class DepthAfterGrammar(Rerefused):
    """Nesting counted after a successful parse: a syntax error later in the line wins over depth."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "too_deep":
            return err
        try:
            json.loads(data.decode("utf-8", "surrogatepass"))
        except RecursionError:
            return err
        except ValueError as exc:
            return DecodeError("invalid_json", str(exc), offset=getattr(exc, "pos", None))
        return err


class LoneSurrogateBeforeGrammar(Rerefused):
    """A one-pass parser that refuses a lone surrogate escape as soon as it reads it, before a
    syntax error further on."""

    _LONE = re.compile(
        rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<![0-9a-fA-F]{4})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    )

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category not in ("invalid_json", "trailing_data") or err.offset is None:
            return err
        m = self._LONE.search(data, 0, err.offset)
        return err if m is None else DecodeError("lone_surrogate", "lone surrogate", offset=m.start())


class SchemaBeforeTrailingData(Rerefused):
    """The first JSON value decoded and validated before the rest of the line is looked at: a
    schema defect wins over trailing data."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "trailing_data" or err.offset is None:
            return err
        again = _refusal(data[: err.offset], lenient)
        return again if again is not None and again.category not in ("trailing_data",) else err
