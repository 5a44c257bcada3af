"""msgspec's validation messages turned into the contract's categories, pointers and offsets."""

from __future__ import annotations

import re

from omnimessage.codec import scan as _scan
from omnimessage.codec.errors import DecodeError, clip_repr, escape_pointer_token
from omnimessage.codec.text_walk import _byte_offset, _members, _node_at, _value_end

_PATH = re.compile(r"(.*) - at `(\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)`", re.S)
_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def _pointer(path: str) -> str:
    return "".join("/" + (m.group(1) or m.group(2)) for m in _PATH_PART.finditer(path[1:]))


# msgspec.convert names Python types where msgspec.json names JSON ones: speak JSON.
_JSON_NAMES = (("`list`", "`array`"), ("`dict`", "`object`"), ("`NoneType`", "`null`"))


def schema_error(message: str, root_start: int, text: str) -> DecodeError:
    for py, js in _JSON_NAMES:
        message = message.replace(py, js)
    m = _PATH.fullmatch(message)
    what, pointer = (m.group(1), _pointer(m.group(2))) if m else (message, "")
    at = _node_at(text, root_start, pointer)
    offset = None if at is None else _byte_offset(text, at)
    first = "" if at is None else text[at]
    string: str | None = _scan.Scanner(text).string(at)[0] if at is not None and first == '"' else None
    numeric = at is not None and (first == "-" or "0" <= first <= "9")
    spelling: str | None = text[at : _value_end(text, at)] if at is not None and numeric else None
    if what.startswith("Object missing required field `"):
        field = what[len("Object missing required field `") : -1]
        return DecodeError(
            "missing_field", f"required key {field!r} is missing", pointer=f"{pointer}/{field}", offset=offset
        )
    if what.startswith("Object contains unknown field `"):
        field = what[len("Object contains unknown field `") : -1]
        ptr = f"{pointer}/{escape_pointer_token(field)}"
        off = offset
        if at is not None and first == "{":
            for k, k_start, _ in _members(text, at):
                if k == field:
                    off = _byte_offset(text, k_start)
                    break
        return DecodeError("unexpected_field", f"key {clip_repr(field)} is not defined here", pointer=ptr, offset=off)
    # msgspec quotes the whole value: quote it ourselves, cut (a 100 MB value makes a short detail)
    shown = clip_repr(string) if string is not None else None
    if what.startswith("Invalid value ") and pointer.endswith("/type"):
        return DecodeError(
            "unknown_type", f"unknown type {shown or what[len('Invalid value ') :]}", pointer=pointer, offset=offset
        )
    if what.startswith("Invalid enum value"):
        return DecodeError(
            "invalid_value",
            (shown or what[len("Invalid enum value ") :]) + " is not allowed here",
            pointer=pointer,
            offset=offset,
        )
    if what.startswith("Expected `int`, got `float`") and spelling is not None:
        if float(spelling).is_integer():
            return DecodeError(
                "invalid_number",
                f"integer written as {clip_repr(spelling)}: integers take no fraction or exponent",
                pointer=pointer,
                offset=offset,
            )
        return DecodeError(
            "wrong_type", f"expected an integer, got {clip_repr(spelling)}", pointer=pointer, offset=offset
        )
    if what.startswith("Expected `") and ", got `" in what:
        return DecodeError("wrong_type", what[0].lower() + what[1:], pointer=pointer, offset=offset)
    if what.startswith("Expected `") and (" of length " in what or " >= " in what or " <= " in what):
        return DecodeError("invalid_value", what[0].lower() + what[1:], pointer=pointer, offset=offset)
    if what.startswith("Expected `"):
        return DecodeError("wrong_type", what[0].lower() + what[1:], pointer=pointer, offset=offset)
    if "out of range" in what:
        return DecodeError("invalid_value", what, pointer=pointer, offset=offset)
    return DecodeError("invalid_value", what, pointer=pointer, offset=offset)  # pragma: no cover
