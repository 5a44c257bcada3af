"""The implementations each benchmark task compares. Names are fixed so that results
compare across commits. Each `run(lines)` returns (accepted lines, byte-identical lines);
`identical` is None for tasks that do not re-encode."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

import omnimessage as om
from omnimessage_codegen import schema_path

Lines = Sequence[bytes]
Result = tuple[int, int | None]


@dataclass
class Impl:
    task: str
    name: str
    run: Callable[[Lines], Result]
    note: str = ""
    slice_bytes: int | None = None  # measured on a prefix of this many bytes, extrapolated
    corpora: tuple[str, ...] | None = None  # only these corpora (None: all)
    # Out-of-process implementations time themselves (excluding start-up and file reading):
    # run_external(path of the corpus) -> (accepted, identical, seconds).
    run_external: Callable[[Any], tuple[int, int | None, float]] | None = None


def _schema() -> dict[str, Any]:
    return json.loads(schema_path().read_text())


# --- decode_validate ---------------------------------------------------------------------


def _om_decode(lines: Lines) -> Result:
    ok = 0
    decode = om.decode
    for line in lines:
        try:
            decode(line)
            ok += 1
        except om.DecodeError:
            pass
    return ok, None


def _om_decode_pure(lines: Lines) -> Result:
    """`om.decode` with the pure-Python proof of canonical form (encode and compare), what
    OMNIMESSAGE_PURE=1 selects: the side-by-side row of the native accelerator (issue 26)."""
    from omnimessage.codec.api import _decode
    from omnimessage.codec.tables import RUNTIME

    pure = RUNTIME._replace(native=None)
    ok = 0
    for line in lines:
        try:
            _decode(line, False, pure)
            ok += 1
        except om.DecodeError:
            pass
    return ok, None


def _msgspec_untyped(lines: Lines) -> Result:
    dec = msgspec.json.Decoder().decode
    for line in lines:
        dec(line)
    return len(lines), None


def _orjson_jsonschema_rs() -> Callable[[Lines], Result]:
    import jsonschema_rs
    import orjson

    validator = jsonschema_rs.Draft202012Validator(_schema())

    def run(lines: Lines) -> Result:
        loads, valid = orjson.loads, validator.is_valid
        return sum(1 for line in lines if valid(loads(line))), None

    return run


def _fastjsonschema() -> Callable[[Lines], Result]:
    import fastjsonschema
    import orjson

    schema = _schema()
    schema["$schema"] = (
        "http://json-schema.org/draft-07/schema#"  # its newest draft; 2020-12 keywords used here are the same
    )
    validate = fastjsonschema.compile(schema)

    def run(lines: Lines) -> Result:
        ok = 0
        loads = orjson.loads
        for line in lines:
            try:
                validate(loads(line))
                ok += 1
            except fastjsonschema.JsonSchemaException:
                pass
        return ok, None

    return run


def _jsonschema() -> Callable[[Lines], Result]:
    import jsonschema

    validator = jsonschema.Draft202012Validator(_schema())

    def run(lines: Lines) -> Result:
        return sum(1 for line in lines if validator.is_valid(json.loads(line))), None

    return run


def _pydantic() -> tuple[Callable[[Lines], Result], Callable[[Lines], Result]]:
    from .pydantic_models import load

    adapter, dump = load()

    def decode(lines: Lines) -> Result:
        ok = 0
        validate = adapter.validate_json
        for line in lines:
            try:
                validate(line)
                ok += 1
            except ValueError:
                pass
        return ok, None

    def roundtrip(lines: Lines) -> Result:
        ok = same = 0
        validate = adapter.validate_json
        for line in lines:
            try:
                out = dump(validate(line))
            except ValueError:
                continue
            ok += 1
            same += out == line
        return ok, same

    return decode, roundtrip


# --- roundtrip -------------------------------------------------------------------------


def _om_roundtrip(lines: Lines) -> Result:
    ok = same = 0
    decode, encode = om.decode, om.encode
    for line in lines:
        try:
            out = encode(decode(line))
        except om.DecodeError:
            continue
        ok += 1
        same += out == line
    return ok, same


def _msgspec_roundtrip(lines: Lines) -> Result:
    dec, enc = msgspec.json.Decoder().decode, msgspec.json.Encoder().encode
    same = 0
    for line in lines:
        same += enc(dec(line)) == line
    return len(lines), same


# --- read: a JSON Lines file, line by line -------------------------------------------------
# Each times itself over the corpus file (in the page cache after the first round): reading the
# lines is part of the work.


def _om_read(path: Any) -> tuple[int, int | None, float]:
    t0 = time.perf_counter()
    ok = sum(1 for line in om.iter_messages(path) if line.message is not None)
    return ok, None, time.perf_counter() - t0


def _om_decode_lines(path: Any) -> tuple[int, int | None, float]:
    t0 = time.perf_counter()
    ok = 0
    decode = om.decode
    with open(path, "rb") as fh:
        for raw in fh:
            try:
                decode(raw)
                ok += 1
            except om.DecodeError:
                pass
    return ok, None, time.perf_counter() - t0


def _msgspec_read(path: Any) -> tuple[int, int | None, float]:
    t0 = time.perf_counter()
    dec = msgspec.json.Decoder().decode
    n = 0
    with open(path, "rb") as fh:
        for raw in fh:
            dec(raw)
            n += 1
    return n, None, time.perf_counter() - t0


def _unmeasured(lines: Lines) -> Result:  # (a task timed by run_external)
    return 0, None


def python_impls() -> list[Impl]:
    impls = [
        Impl("decode_validate", "omnimessage-python", _om_decode),
        Impl("decode_validate", "omnimessage-python-pure", _om_decode_pure,
             "the pure-Python fallback (OMNIMESSAGE_PURE=1)"),
        Impl("decode_validate", "msgspec-untyped", _msgspec_untyped, "parse only: the floor"),
        Impl("decode_validate", "orjson+jsonschema_rs", _orjson_jsonschema_rs()),
        Impl("decode_validate", "fastjsonschema", _fastjsonschema(), "orjson parse + fastjsonschema"),
        Impl("decode_validate", "jsonschema", _jsonschema(), "Draft202012Validator", slice_bytes=2 << 20),
        Impl("roundtrip", "omnimessage-python", _om_roundtrip),
        Impl("roundtrip", "msgspec-untyped", _msgspec_roundtrip, "parse + encode, no validation"),
        Impl("read", "omnimessage-python", _unmeasured, "iter_messages(path): a Line per line",
             run_external=_om_read),
        Impl("read", "omnimessage-decode-loop", _unmeasured, "for raw in file: om.decode(raw), no Line",
             run_external=_om_decode_lines),
        Impl("read", "msgspec-untyped", _unmeasured, "for raw in file: parse only: the floor",
             run_external=_msgspec_read),
    ]
    try:
        pd_decode, pd_roundtrip = _pydantic()
    except ImportError as exc:  # pragma: no cover - bench extra not installed
        print(f"pydantic-datamodel-codegen skipped: {exc}")
    else:
        impls.append(Impl("decode_validate", "pydantic-datamodel-codegen", pd_decode, "discriminated unions"))
        impls.append(Impl("roundtrip", "pydantic-datamodel-codegen", pd_roundtrip))
    return impls
