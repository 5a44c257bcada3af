"""The consumer role's run: each case's scripted stream served, its URL sent to the testee, the
cards it answers judged byte for byte against the case's expected messages per card.

The run loop is the codec role's (:class:`.run._Run`: restarts, time limits, expected failures);
only the exchange differs. The answer is hostile input: the line is capped before it is parsed
(4 times the bytes the script sends, at least 1 MiB), parsed into fixed types (no nesting beyond
cards of strings, :class:`.testee_protocol.Card` generated from the protocol's schema; at most
`MAX_CARDS` cards of `MAX_MESSAGES` messages, its caps), and everything it says
reaches a message only through the one sanitiser.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Annotated, Final, get_type_hints

import msgspec

from omnimessage.conformance import testee_protocol as wire
from omnimessage.text.bytes_diff import first_difference
from omnimessage.text.sanitize import clip, printable

from .consumer_cases import ConsumerCase
from .expected_failures import ExpectedFailures
from .outcomes import FAILED, PASSED, Outcome, RunResult
from .run import Limits, _Run
from .sse_script import ScriptLog, ScriptServer
from .suite import Case, Suite
from .testee_process import Testee, TesteeError

__all__ = ["MAX_CARDS", "MAX_MESSAGES", "judge_cards", "parse_cards_answer", "run_consumer_cases"]


def _max_length(answer: type, member: str) -> int:
    """The cap the testee protocol's schema puts on an array member (`maxItems`), as generated."""
    (meta,) = get_type_hints(answer, include_extras=True)[member].__metadata__
    if not isinstance(meta, msgspec.Meta) or meta.max_length is None:
        raise TypeError(f"{answer.__name__}.{member} has no maxItems in the testee protocol's schema")
    return meta.max_length


MAX_CARDS: Final = _max_length(wire.Rendered, "cards")
MAX_MESSAGES: Final = _max_length(wire.Card, "messages")
MIN_ANSWER_BYTES = 1 << 20


class _Answer(msgspec.Struct, forbid_unknown_fields=False):
    """The members of a consumer answer the runner reads. `cards` is the generated type (its caps
    those of the schema); `id` and `result` are read as any string, so that a wrong one is named by
    :func:`judge_cards` and :func:`parse_cards_answer`."""

    id: str | msgspec.UnsetType | None = msgspec.UNSET
    result: str | msgspec.UnsetType = msgspec.UNSET
    cards: Annotated[list[wire.Card], msgspec.Meta(max_length=MAX_CARDS)] | msgspec.UnsetType = msgspec.UNSET
    message: str | msgspec.UnsetType = msgspec.UNSET
    reason: str | msgspec.UnsetType = msgspec.UNSET


_DECODER = msgspec.json.Decoder(_Answer)
Cards = list[tuple[tuple[str, ...], list[bytes]]]


def parse_cards_answer(line: bytes, case_id: str) -> _Answer:
    """The answer line as typed members; TesteeError (a protocol error) when it is not one."""
    try:
        ans = _DECODER.decode(line)
    except msgspec.ValidationError as exc:
        raise TesteeError("protocol", f"answer to case {case_id} breaks the protocol: {printable(str(exc), 200)}: "
                                      f"{clip(line)}") from None
    except (msgspec.DecodeError, RecursionError):
        raise TesteeError("protocol", f"answer to case {case_id} is not a JSON line: {clip(line)}") from None
    if ans.id != case_id:
        raise TesteeError("protocol", f"answer carries id {printable(repr(ans.id), 120)}, expected {case_id!r}")
    return ans


def judge_cards(cc: ConsumerCase, ans: _Answer, log: ScriptLog) -> tuple[str, str]:
    """(status, message): the server's findings (Last-Event-ID, connections made) and the cards."""
    problems = log.summary()
    if ans.result == "skipped":
        return FAILED, f"skipped a required case ({printable(str(ans.reason or ''), 300)})"
    if ans.result == "error":
        if cc.expect_error:
            return (FAILED, "\n".join(problems)) if problems else (PASSED, "")
        problems.insert(0, f"the consumer ended with an error: {printable(str(ans.message or ''), 300)}")
        return FAILED, "\n".join(problems)
    if ans.result != "rendered" or isinstance(ans.cards, msgspec.UnsetType):
        raise TesteeError("protocol", f"unknown result {printable(repr(ans.result), 80)} "
                                      "(rendered with `cards` | error | skipped)")
    if cc.expect_error:
        problems.insert(0, "the consumer rendered the stream; a strict consumer refuses what it carries and ends "
                           f"with an error ({len(ans.cards)} cards answered)")
        return FAILED, "\n".join(problems)
    got: Cards = [(tuple(c["origin"]), [m.encode("utf-8", "surrogatepass") for m in c["messages"]])
                  for c in ans.cards if c["messages"]]
    problems += _compare(cc, got)
    return (FAILED, "\n".join(problems)) if problems else (PASSED, "")


def _compare(cc: ConsumerCase, got: Cards) -> list[str]:
    want = {o: list(ms) for o, ms in cc.expect}
    seen: set[tuple[str, ...]] = set()
    out: list[str] = []
    for origin, messages in got:
        shown = printable(repr(list(origin)), 120)
        if origin in seen:
            out.append(f"card {shown} listed twice")
            continue
        seen.add(origin)
        if origin not in want:
            out.append(f"card {shown} holds {len(messages)} complete messages; expected no such card, "
                       f"the first: {clip(messages[0])}")
            continue
        exp = want[origin]
        for i in range(max(len(exp), len(messages))):
            if i >= len(messages):
                out.append(f"card {shown}: {len(messages)} complete messages, expected {len(exp)}; "
                           f"missing from #{i + 1}: {clip(exp[i])}")
                break
            if i >= len(exp):
                out.append(f"card {shown}: {len(messages)} complete messages, expected {len(exp)}; "
                           f"extra #{i + 1}: {clip(messages[i])}")
                break
            if messages[i] != exp[i]:
                out.append(f"card {shown}, message #{i + 1}: {first_difference(exp[i], messages[i])}")
                break
    for origin, _ in cc.expect:
        if origin not in seen:
            out.append(f"card {printable(repr(list(origin)), 120)} is missing")
    if not out and [o for o, _ in got] != [o for o, _ in cc.expect]:
        out.append("cards in another order than depth first in placement order: "
                   + printable(repr([list(o) for o, _ in got]), 300))
    return out


class _ConsumerRun(_Run):
    def __init__(self, server: ScriptServer, cases: Sequence[ConsumerCase], suite: Suite, argv: Sequence[str],
                 expected: ExpectedFailures, limits: Limits, cwd: str | os.PathLike[str] | None,
                 on_outcome: Callable[[Outcome], None] | None) -> None:
        super().__init__(suite, argv, expected, limits, cwd, on_outcome)
        self.server = server
        self.by_id = {c.id: c for c in cases}

    def _ask(self, testee: Testee, case: Case) -> tuple[str, str]:
        cc = self.by_id[case.id]
        testee.max_response_bytes = max(MIN_ANSWER_BYTES, 4 * cc.size)
        budget = self._budget()
        url, log = self.server.add(cc)
        try:
            line = testee.request_line({"id": case.id, "role": "consumer", "url": url}, budget)
            return judge_cards(cc, parse_cards_answer(line, case.id), log)
        except TesteeError as exc:
            status, message = self._lost(testee, exc, budget)
            return status, "\n".join([message, *log.summary()])
        finally:
            self.server.drop(url)


def run_consumer_cases(
    suite: Suite,
    cases: Sequence[ConsumerCase],
    argv: Sequence[str],
    *,
    expected: ExpectedFailures | None = None,
    limits: Limits | None = None,
    cwd: str | os.PathLike[str] | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
) -> RunResult:
    """Serve each case's script, ask the testee `argv` for its cards, judge them (`limits`: those of
    the codec role; an answer's cap is set per case)."""
    expected = expected or ExpectedFailures()
    with ScriptServer() as server:
        run = _ConsumerRun(server, cases, suite, argv, expected, limits or Limits(), cwd, on_outcome)
        try:
            for cc in cases:
                run.run(cc.case)
        finally:
            run.close()
        result = run.finish()
    result.stale = expected.stale(c.id for c in cases)
    return result
