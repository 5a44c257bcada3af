"""Deliberately broken variants of the Python binding: proof that the suite has teeth.

Each mutant is the real binding with one realistic mistake (the ones re-serialisers, ports to
other languages and hurried fixes make). `python -m omnimessage.conformance.mutants NAME` runs
one as a testee; :func:`run_mutation_check` runs them all through the runner and reports the
kill rate: the share of mutants that fail at least one case. Anything below 100% means the
suite misses a mistake a real implementation could make.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TextIO

import msgspec

from .. import codec
from .._generated.models import (
    DEFAULT_MAX_LINE_BYTES,
    FRAGMENT_OF,
    NUMBER_LOCATIONS,
    VERBATIM_LOCATIONS,
    AbortPayload,
    Message,
)
from ..codec import OpaqueMessage
from ..errors import DecodeError
from .runner import FAILED, PASSED, XPASS, run_cases
from .suite import Suite
from .testee import Binding
from .testee import main as testee_main

__all__ = ["MUTANTS", "MutationReport", "run_mutation_check"]

MAX_SAFE = 2**53 - 1
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\s+', re.S)


def _map_path(obj: Any, path: tuple[str, ...], fn: Callable[[Any], Any]) -> Any:
    """`obj` with `fn` applied to the values at `path` (`*`: every list item)."""
    if obj is msgspec.UNSET:
        return obj
    if not path:
        return fn(obj)
    head, rest = path[0], path[1:]
    if head == "*":
        return [_map_path(x, rest, fn) for x in obj]
    value = getattr(obj, head)
    if value is msgspec.UNSET:
        return obj
    return msgspec.structs.replace(obj, **{head: _map_path(value, rest, fn)})


def _with_payload(msg: Message, payload: Any) -> Message:
    return msgspec.structs.replace(msg, payload=payload)


def _map_verbatim(msg: Message | OpaqueMessage, fn: Callable[[bytes], bytes]) -> Message | OpaqueMessage:
    if isinstance(msg, OpaqueMessage):
        return msg
    payload = msg.payload
    for path, _shape in VERBATIM_LOCATIONS.get(type(payload), ()):
        payload = _map_path(payload, path, lambda raw: msgspec.Raw(fn(bytes(raw))))
    return _with_payload(msg, payload)


def _map_numbers(msg: Message | OpaqueMessage, fn: Callable[[Any], Any]) -> Message | OpaqueMessage:
    if isinstance(msg, OpaqueMessage):
        return msg
    payload = msg.payload
    for path in NUMBER_LOCATIONS.get(type(payload), ()):
        payload = _map_path(payload, path, fn)
    return _with_payload(msg, payload)


def _tokens_outside_strings(raw: bytes, fn: Callable[[bytes], bytes]) -> bytes:
    """Apply `fn` to every number and whitespace token of a JSON text (strings untouched)."""
    return _TOKEN.sub(lambda m: m.group(0) if m.group(0).startswith(b'"') else fn(m.group(0)), raw)


# ---------------------------------------------------------------------------
# the mutants
# ---------------------------------------------------------------------------


class KeysSorted(Binding):
    """Keys sorted alphabetically (json.dumps(sort_keys=True), many "canonical JSON" libraries)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if isinstance(msg, OpaqueMessage):
            return msg.raw
        return msgspec.json.Encoder(order="sorted").encode(codec.decode(super().encode(msg)))


class FidelityReserialised(Binding):
    """fidelity parsed and dumped again (compact), the usual fate of an opaque dict."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def redo(raw: bytes) -> bytes:
            text = json.dumps(json.loads(raw.decode("utf-8")), separators=(",", ":"), ensure_ascii=False)
            return text.encode("utf-8", "surrogatepass")

        if not isinstance(msg, OpaqueMessage) and getattr(msg.payload, "fidelity", msgspec.UNSET) is not msgspec.UNSET:
            msg = _with_payload(msg, _map_path(msg.payload, ("fidelity",), lambda r: msgspec.Raw(redo(bytes(r)))))
        return super().encode(msg)


class FidelityDropped(Binding):
    """fidelity not modelled, so silently lost."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage) and getattr(msg.payload, "fidelity", msgspec.UNSET) is not msgspec.UNSET:
            msg = _with_payload(msg, msgspec.structs.replace(msg.payload, fidelity=msgspec.UNSET))
        return super().encode(msg)


class EnsureAscii(Binding):
    """Every non-ASCII character written as a \\u escape (json.dumps' default)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        text = super().encode(msg).decode("utf-8", "surrogatepass")
        return "".join(c if ord(c) < 0x80 else json.dumps(c)[1:-1] for c in text).encode("ascii")


class OriginDropped(Binding):
    """The envelope's origin is not modelled."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage):
            msg = msgspec.structs.replace(msg, origin=msgspec.UNSET)
        return super().encode(msg)


class NullReasonDropped(Binding):
    """`abort.reason: null` treated as absent (None means unset in many bindings)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage) and isinstance(msg.payload, AbortPayload) and msg.payload.reason is None:
            msg = _with_payload(msg, msgspec.structs.replace(msg.payload, reason=msgspec.UNSET))
        return super().encode(msg)


class OptionalReordered(Binding):
    """stop_reason written last (optional fields grouped after the others)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        sr = getattr(getattr(msg, "payload", None), "stop_reason", msgspec.UNSET)
        if isinstance(msg, OpaqueMessage) or sr is msgspec.UNSET:
            return super().encode(msg)
        out = super().encode(_with_payload(msg, msgspec.structs.replace(msg.payload, stop_reason=msgspec.UNSET)))
        end = out.rindex(b',"origin":') if msg.origin is not msgspec.UNSET else len(out) - 1
        return out[: end - 1] + b',"stop_reason":' + json.dumps(sr).encode() + out[end - 1 :]


class _Accepts(Binding):
    """Accepts lines refused with `categories`, passing them through (as a lax parser would)."""

    categories: frozenset[str] = frozenset()

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            if err.category not in self.categories:
                raise
            return OpaqueMessage(raw=data[:-1] if data.endswith(b"\n") else data, error=err)


class DuplicateKeysAccepted(_Accepts):
    """Duplicate keys accepted (the last one wins in most JSON parsers)."""

    categories = frozenset({"duplicate_key"})


class LoneSurrogatesAccepted(_Accepts):
    """Lone surrogate escapes accepted (JavaScript's JSON.parse does)."""

    categories = frozenset({"lone_surrogate"})


_LONE = re.compile("[\ud800-\udfff]")


def _fragment(msg: Message | OpaqueMessage) -> tuple[str, str] | None:
    """(fragment field, its string) of a streaming partial, else None."""
    if isinstance(msg, OpaqueMessage):
        return None
    frag = FRAGMENT_OF.get(type(msg.payload))
    return None if frag is None else (frag[1], getattr(msg.payload, frag[1]))


class FragmentSurrogatesRefused(Binding):
    """Lone surrogate escapes refused in a partial's fragment field too (a pair split between two
    deltas, which JavaScript producers write, is lost with its line)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        frag = _fragment(msg)
        if frag is not None and _LONE.search(frag[1]):
            raise DecodeError("lone_surrogate", "string escapes a lone surrogate", pointer=f"/payload/{frag[0]}")
        return msg


class FragmentSurrogatesReplaced(Binding):
    """Lone surrogates in a partial's fragment field replaced by U+FFFD (a UTF-8 round trip with
    `errors="replace"`), so the joined fragments no longer equal the complete message."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        frag = _fragment(msg)
        if frag is not None and not isinstance(msg, OpaqueMessage) and _LONE.search(frag[1]):
            msg = _with_payload(msg, msgspec.structs.replace(msg.payload, **{frag[0]: _LONE.sub("\ufffd", frag[1])}))
        return super().encode(msg)


class UnknownFieldsAccepted(_Accepts):
    """Unknown fields accepted (forbid_unknown_fields forgotten)."""

    categories = frozenset({"unexpected_field"})


class UnknownTypesAccepted(_Accepts):
    """Unknown envelope or payload types accepted."""

    categories = frozenset({"unknown_type"})


class BadValuesAccepted(_Accepts):
    """Values outside enums and ranges accepted (retired values, attempt 0, empty origin)."""

    categories = frozenset({"invalid_value"})


class BadNumbersAccepted(_Accepts):
    """`1.0` in integer fields and `1e400` accepted."""

    categories = frozenset({"invalid_number"})


class DepthUnlimited(_Accepts):
    """No nesting limit."""

    categories = frozenset({"too_deep"})


class WrongTypesAccepted(_Accepts):
    """Verbatim values not checked at all (fidelity as a string, nested hook output)."""

    categories = frozenset({"wrong_type"})


class TrailingDataAccepted(Binding):
    """Decodes the first JSON value of the line and ignores the rest (a streaming parser's habit)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            if err.category != "trailing_data" or err.offset is None:
                raise
            return super().read_line(data[: err.offset] + b"\n", lenient=lenient, max_line_bytes=max_line_bytes)


class BigIntsRounded(Binding):
    """Integers beyond 2^53 inside verbatim values rounded through a double (JavaScript's JSON.parse)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def rnd(tok: bytes) -> bytes:
            if tok[:1].isspace() or any(c in tok for c in b".eE") or abs(int(tok)) <= MAX_SAFE:
                return tok
            return str(int(float(int(tok)))).encode()

        return super().encode(_map_verbatim(msg, lambda raw: _tokens_outside_strings(raw, rnd)))


class FloatsRespelled(Binding):
    """`number` fields written the Python way (repr of a float: `2000.0`, `1e-07`)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def spell(v: Any) -> Any:
            return msgspec.Raw(repr(float(v)).encode()) if isinstance(v, (int, float)) else v

        return super().encode(_map_numbers(msg, spell))


class BigNumbersExact(Binding):
    """Integers beyond 2^53 in `number` fields written exactly instead of as the nearest double."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def spell(v: Any) -> Any:
            return msgspec.Raw(str(v).encode()) if type(v) is int and abs(v) > MAX_SAFE else v

        return super().encode(_map_numbers(msg, spell))


class MinusZeroKept(Binding):
    """`-0` written `-0` in `number` fields (JSON.stringify writes 0)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def spell(v: Any) -> Any:
            return msgspec.Raw(b"-0") if type(v) is float and v == 0 and str(v).startswith("-") else v

        return super().encode(_map_numbers(msg, spell))


class SolidusEscaped(Binding):
    """`/` written `\\/` (PHP's json_encode, some Java libraries)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(msg).replace(b"/", b"\\/")


class UpperHexEscapes(Binding):
    """Control characters escaped with upper-case hex (`\\u001F`)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return re.sub(rb"\\u([0-9a-f]{4})", lambda m: b"\\u" + m.group(1).upper(), super().encode(msg))


class LineSeparatorsEscaped(Binding):
    """U+2028 and U+2029 escaped ("JavaScript-safe" JSON encoders)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(msg).replace("\u2028".encode(), b"\\u2028").replace("\u2029".encode(), b"\\u2029")


class DefaultsInvented(Binding):
    """An absent stop_reason written as its default, `completed`."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage) and getattr(msg.payload, "stop_reason", None) is msgspec.UNSET:
            msg = _with_payload(msg, msgspec.structs.replace(msg.payload, stop_reason="completed"))
        return super().encode(msg)


class BomStripped(Binding):
    """A leading byte order mark skipped (utf-8-sig decoding)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(data.removeprefix(b"\xef\xbb\xbf"), lenient=lenient, max_line_bytes=max_line_bytes)


class Utf8Replaced(Binding):
    """Invalid UTF-8 replaced by U+FFFD instead of refused (errors="replace")."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        fixed = data.decode("utf-8", "replace").encode("utf-8")
        return super().read_line(fixed, lenient=lenient, max_line_bytes=max_line_bytes)


class LineLimitIgnored(Binding):
    """The reader's line limit not enforced."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(data, lenient=lenient, max_line_bytes=DEFAULT_MAX_LINE_BYTES)


class TornLinesMisreported(Binding):
    """A torn last line reported with its parse error instead of `truncated`."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        if data.endswith(b"\n"):
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        return codec.decode(data, lenient=lenient)


class CrlfRefused(Binding):
    """Only LF stripped: a CR before it is trailing data."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        if data.endswith(b"\r\n"):
            raise DecodeError("trailing_data", "CR after the message", offset=len(data) - 2)
        return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)


class VerbatimCompacted(Binding):
    """Whitespace inside verbatim values removed (a minifier run over the output)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(
            _map_verbatim(msg, lambda raw: _tokens_outside_strings(raw, lambda t: b"" if t.isspace() else t))
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

        return super().encode(_map_verbatim(msg, undo))


class EmptyFidelityDropped(Binding):
    """An empty fidelity object omitted ("omitted when it would be empty", applied to input)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        fid = getattr(getattr(msg, "payload", None), "fidelity", msgspec.UNSET)
        if (
            not isinstance(msg, OpaqueMessage)
            and isinstance(fid, msgspec.Raw)
            and bytes(fid).replace(b" ", b"") == b"{}"
        ):
            msg = _with_payload(msg, msgspec.structs.replace(msg.payload, fidelity=msgspec.UNSET))
        return super().encode(msg)


class AlwaysLenient(Binding):
    """Lenient decoding by default (strict forgotten)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(data, lenient=True, max_line_bytes=max_line_bytes)


class PointersOmitted(Binding):
    """Refusals without a JSON pointer (`""` for everything)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            raise DecodeError(err.category, err.detail, offset=err.offset) from None


class UnknownTypeAsInvalidValue(Binding):
    """An unknown type reported as `invalid_value` (it is a value outside the discriminator's enum)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            if err.category != "unknown_type":
                raise
            raise DecodeError("invalid_value", err.detail, pointer=err.pointer, offset=err.offset) from None


MUTANTS: dict[str, type[Binding]] = {
    "keys-sorted": KeysSorted,
    "fidelity-reserialised": FidelityReserialised,
    "fidelity-dropped": FidelityDropped,
    "ensure-ascii": EnsureAscii,
    "origin-dropped": OriginDropped,
    "null-reason-dropped": NullReasonDropped,
    "optional-reordered": OptionalReordered,
    "duplicate-keys-accepted": DuplicateKeysAccepted,
    "lone-surrogates-accepted": LoneSurrogatesAccepted,
    "fragment-surrogates-refused": FragmentSurrogatesRefused,
    "fragment-surrogates-replaced": FragmentSurrogatesReplaced,
    "unknown-fields-accepted": UnknownFieldsAccepted,
    "unknown-types-accepted": UnknownTypesAccepted,
    "bad-values-accepted": BadValuesAccepted,
    "bad-numbers-accepted": BadNumbersAccepted,
    "depth-unlimited": DepthUnlimited,
    "wrong-types-accepted": WrongTypesAccepted,
    "trailing-data-accepted": TrailingDataAccepted,
    "big-ints-rounded": BigIntsRounded,
    "floats-respelled": FloatsRespelled,
    "big-numbers-exact": BigNumbersExact,
    "minus-zero-kept": MinusZeroKept,
    "solidus-escaped": SolidusEscaped,
    "upper-hex-escapes": UpperHexEscapes,
    "line-separators-escaped": LineSeparatorsEscaped,
    "defaults-invented": DefaultsInvented,
    "bom-stripped": BomStripped,
    "utf8-replaced": Utf8Replaced,
    "line-limit-ignored": LineLimitIgnored,
    "torn-lines-misreported": TornLinesMisreported,
    "crlf-refused": CrlfRefused,
    "verbatim-compacted": VerbatimCompacted,
    "verbatim-escapes-decoded": VerbatimEscapesDecoded,
    "empty-fidelity-dropped": EmptyFidelityDropped,
    "always-lenient": AlwaysLenient,
    "pointers-omitted": PointersOmitted,
    "unknown-type-as-invalid-value": UnknownTypeAsInvalidValue,
}


@dataclass
class MutantResult:
    name: str
    description: str
    failed: int
    first: str  # the first case that killed it

    @property
    def killed(self) -> bool:
        return self.failed > 0


@dataclass
class MutationReport:
    results: list[MutantResult]
    reference_passed: int = 0

    @property
    def kill_rate(self) -> float:
        return sum(r.killed for r in self.results) / len(self.results) if self.results else 0.0

    def summary(self) -> str:
        killed = sum(r.killed for r in self.results)
        return f"mutation kill rate: {killed}/{len(self.results)} = {100 * self.kill_rate:.1f}%"


def run_mutation_check(
    suite: Suite, *, names: list[str] | None = None, timeout: float = 10.0, out: TextIO | None = None, workers: int = 2
) -> MutationReport:
    """Run every mutant through the runner; a mutant is killed when at least one case fails."""
    chosen = names or list(MUTANTS)
    # only cases the unmutated binding passes can kill a mutant (its own known failures cannot)
    reference = run_cases(
        suite, suite.cases, [sys.executable, "-m", "omnimessage.conformance.testee"], request_timeout=timeout
    )
    cases = [o.case for o in reference.outcomes if o.status == PASSED]

    def one(name: str) -> MutantResult:
        argv = [sys.executable, "-m", "omnimessage.conformance.mutants", name]
        res = run_cases(suite, cases, argv, request_timeout=timeout)
        bad = [o for o in res.outcomes if o.status in (FAILED, XPASS)]
        doc = (MUTANTS[name].__doc__ or "").strip().split("\n")[0]
        return MutantResult(name, doc, len(bad), bad[0].case.id if bad else "")

    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(one, chosen))
    report = MutationReport(results, len(cases))
    if out is not None:
        out.write(f"{len(cases)} of {len(suite.cases)} cases pass unmutated; each mutant runs those\n")
        width = max(len(r.name) for r in results)
        for r in results:
            status = f"killed by {r.failed:>3} cases, first {r.first}" if r.killed else "SURVIVED"
            out.write(f"  {r.name:<{width}}  {status}\n      {r.description}\n")
        out.write(report.summary() + "\n")
    return report


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in MUTANTS:
        sys.stderr.write(f"usage: python -m omnimessage.conformance.mutants NAME\nnames: {', '.join(MUTANTS)}\n")
        return 2
    binding = MUTANTS[args[0]]()
    binding.name = f"mutant:{args[0]}"
    return testee_main(binding)


if __name__ == "__main__":
    sys.exit(main())
