"""Every mutant by the name `python -m omnimessage.conformance.mutants NAME` takes."""

from __future__ import annotations

from ..testee import Binding
from .fields import (
    DefaultsInvented,
    EmptyFidelityDropped,
    FidelityDropped,
    KeysSorted,
    NullReasonDropped,
    OptionalReordered,
    OriginDropped,
)
from .lax import (
    AlwaysLenient,
    BadNumbersAccepted,
    BadValuesAccepted,
    BomStripped,
    DepthUnlimited,
    DuplicateKeysAccepted,
    LineLimitIgnored,
    LoneSurrogatesAccepted,
    TrailingDataAccepted,
    UnknownFieldsAccepted,
    UnknownTypesAccepted,
    Utf8Replaced,
    WrongTypesAccepted,
)
from .refusals import (
    CrlfRefused,
    FragmentSurrogatesRefused,
    PointersOmitted,
    TornLinesMisreported,
    UnknownTypeAsInvalidValue,
)
from .spelling import (
    BigNumbersExact,
    EnsureAscii,
    FloatsRespelled,
    FragmentSurrogatesReplaced,
    LineSeparatorsEscaped,
    MinusZeroKept,
    SolidusEscaped,
    UpperHexEscapes,
)
from .verbatim import BigIntsRounded, FidelityReserialised, VerbatimCompacted, VerbatimEscapesDecoded

__all__ = ["MUTANTS"]

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
