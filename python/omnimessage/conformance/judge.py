"""Judging one answer of a testee against one case, byte for byte.

Whatever the testee wrote (ids, categories, pointers, messages, reasons, results) enters a message
only through the one sanitiser (:mod:`omnimessage.text.sanitize`): one line, no control characters.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from omnimessage.text.bytes_diff import first_difference
from omnimessage.text.sanitize import clip, printable

from .outcomes import FAILED, PASSED, SKIPPED
from .suite import OPTIONAL_FEATURES, Case
from .testee_process import TesteeError

__all__ = ["describe_expectation", "first_difference", "judge"]


def describe_expectation(case: Case) -> str:
    if case.expect == "reject":
        return f"refusal `{case.category}`" + (f" at pointer {case.pointer!r}" if case.pointer is not None else "")
    if case.expect == "consumer":
        return "the case's complete messages per card, byte for byte, and the scripted Last-Event-ID on each reconnect"
    if case.expect == "consumer-error":
        return ("an error: a strict consumer refuses what the stream carries (and the scripted Last-Event-ID on "
                "each reconnect)")
    if case.expect == "identical":
        return "the input bytes back, unchanged"
    return "the canonical bytes"


def judge(case: Case, resp: dict[str, Any]) -> tuple[str, str]:
    """(status, message) of one answer. Raises TesteeError when the answer breaks the protocol."""
    if resp.get("id") != case.id:
        raise TesteeError("protocol", f"answer carries id {_said(resp.get('id'))}, expected {case.id!r}")
    result = resp.get("result")
    if result == "skipped":
        reason = printable(str(resp.get("reason", "")), 300)
        if case.optional:
            return SKIPPED, reason
        return (
            FAILED,
            f"skipped a required case ({reason}); only cases needing an optional feature "
            f"({', '.join(sorted(OPTIONAL_FEATURES))}) may be skipped",
        )
    if result == "encoded":
        out = resp.get("output")
        if not isinstance(out, str):
            raise TesteeError("protocol", "an `encoded` answer needs `output` (base64)")
        try:
            got = base64.b64decode(out, validate=True)
        except (binascii.Error, ValueError):
            raise TesteeError("protocol", "`output` is not valid base64") from None
        if case.expect == "reject":
            return FAILED, f"accepted a line it must refuse as `{case.category}`; it encoded it as: {clip(got)}"
        assert case.output is not None
        if got == case.output:
            return PASSED, ""
        return FAILED, f"wrong bytes: {first_difference(case.output, got)}"
    if result == "refused":
        raw_cat = resp.get("category")
        if not isinstance(raw_cat, str):
            raise TesteeError("protocol", "a `refused` answer needs `category` (a string)")
        cat = printable(raw_cat, 100)
        detail = printable(str(resp.get("message", "")), 300)
        where = f" at {_said(resp.get('pointer'))}" if isinstance(resp.get("pointer"), str) else ""
        said = f"`{cat}`{where}" + (f" ({detail})" if detail else "")
        if case.expect != "reject":
            return FAILED, f"refused a line it must {'keep' if case.expect == 'identical' else 'canonicalise'}: {said}"
        if raw_cat != case.category:
            return FAILED, f"refused as {said}, expected `{case.category}`"
        if case.pointer is not None:
            ptr = resp.get("pointer")
            if not isinstance(ptr, str):
                return FAILED, f"refused as `{cat}` without a pointer; expected pointer {case.pointer!r}"
            if ptr != case.pointer:
                return FAILED, f"refused as `{cat}` at pointer {_said(ptr)}, expected {case.pointer!r}"
        return PASSED, ""
    raise TesteeError("protocol", f"unknown result {_said(result)} (encoded | refused | skipped)")


def _said(value: object, limit: int = 300) -> str:
    """A value the testee sent, quoted (`repr`), cut and sanitised."""
    return printable(repr(value), limit)
