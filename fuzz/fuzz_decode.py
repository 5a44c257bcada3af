"""Coverage-guided fuzzing of the Python decoder (atheris / libFuzzer).

Properties checked on every input, strict and lenient:
- nothing but `DecodeError` escapes, and its category is one of the spec's;
- the fast path (msgspec, then the native verifier when it is built, else re-encoding) and the
  slow path (strict scanner) agree;
- an accepted line re-encodes to a canonical fixed point.

Run through `make fuzz` (FUZZ_SECONDS, default 600) or directly:
    python fuzz/fuzz_decode.py fuzz/corpus/decode -max_total_time=60
"""

from __future__ import annotations

import contextlib
import sys

try:
    import atheris
except ImportError:  # replaying fixtures (python/tests/test_fuzz_crashes.py) needs no fuzzer
    atheris = None

with atheris.instrument_imports() if atheris is not None else contextlib.nullcontext():
    import omnimessage as om
    from omnimessage.codec import api as codec


def outcome(fn: object, data: bytes) -> tuple[str, object]:
    try:
        return ("ok", om.encode(fn(data)))  # type: ignore[operator]
    except om.DecodeError as exc:
        if exc.category not in om.CATEGORIES:
            raise AssertionError(f"unknown category {exc.category!r}") from None
        return ("refused", exc.category)


def test_one_input(data: bytes) -> None:
    fast = outcome(om.decode, data)
    slow = outcome(lambda d: codec._decode_slow(d, lenient=False), data)
    if fast != slow:
        raise AssertionError(f"fast path {fast!r} != slow path {slow!r}")
    if fast[0] == "ok":
        out = fast[1]
        assert isinstance(out, bytes)
        if om.canonicalize(out) != out:
            raise AssertionError("canonical output is not a fixed point")
    lenient = outcome(lambda d: om.decode(d, lenient=True), data)
    if fast[0] == "ok" and lenient != fast:
        raise AssertionError("lenient decoding changed an accepted line")
    if lenient[0] == "ok" and isinstance(om.decode(data, lenient=True), om.OpaqueMessage):
        body = data[:-1] if data.endswith(b"\n") else data
        if lenient[1] != body.strip(b" \t\r\n"):  # its object, without the JSON whitespace around it
            raise AssertionError("an opaque message did not re-encode to the bytes of its object")


def main() -> None:
    if atheris is None:
        raise SystemExit("atheris is not installed (pip install atheris; Linux x86_64, Python < 3.14)")
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
