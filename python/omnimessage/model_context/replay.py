"""Turn-by-turn replay of one trace file: which model messages are the context a resume rebuilds.

A re-statement of the reference's replay (`resumeTrace` in PenguinHarness
`packages/core/src/trace/resume.ts`), not a copy of its code:

- A request's **input** is the user-side complete model messages gathered since the previous
  `request_end` (the first request's since `session_meta`); user-side messages that land between
  `request_begin` and `request_end` (parallel tools finishing) count toward the *next* request.
  Its **output** is the assistant complete messages between `request_begin` and `request_end`.
- A request whose `request_end` has status `completed` is committed: its eligible input, then its
  output, join the history. Any other end, a second `request_begin` before an end, or the file
  ending inside a request drops the turn: its input goes back to the pending input (inside a
  compaction span, only its tool outputs do: the compaction prompt is not conversation), its
  output is lost.
- A tool output is eligible only when it answers a committed, not yet answered `tool_call`
  (`stop_reason` `completed`); others would be orphans and are dropped. A committed call still
  unanswered when a later request commits gets a placeholder output before that request's input;
  one unanswered at the end gets a placeholder at the end of the carry-over. Placeholders are
  the only messages not read from the trace.
- The pending input left at the end is the carry-over, resent with the next run.
- Events never enter the context; assistant messages outside a request are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["PLACEHOLDER_OUTPUT", "Replay", "Turn"]

PLACEHOLDER_OUTPUT = "[interrupted: process exited before the tool finished]"
"""The output text of the reference's pairing placeholder (`PROCESS_EXIT_PLACEHOLDER` in resume.ts)."""

T = TypeVar("T")


@dataclass(slots=True)
class Turn(Generic[T]):
    """What a replay needs to know of one context message: its role and its tool-call pairing."""

    item: T
    role: str
    output_of: str | None = None  # the tool_call_id a tool_call_output answers
    completed_call: str | None = None  # the tool_call_id of a tool_call that stopped `completed`


@dataclass(slots=True)
class Replay(Generic[T]):
    """Feed the file's records in order (`model`, `request_begin`, `request_end`, `compaction`),
    then `finish`; `placeholder(call_id, at)` makes the synthesized output for a call id."""

    placeholder: Callable[[str, object], Turn[T]]
    history: list[Turn[T]] = field(default_factory=list)
    pending: list[Turn[T]] = field(default_factory=list)
    snapshot: list[Turn[T]] = field(default_factory=list)
    outputs: list[Turn[T]] = field(default_factory=list)
    in_request: bool = False
    in_compaction: bool = False
    committed: dict[str, None] = field(default_factory=dict)  # insertion-ordered set of call ids
    answered: set[str] = field(default_factory=set)

    def _eligible(self, turn: Turn[T]) -> bool:
        cid = turn.output_of
        return cid is None or (cid in self.committed and cid not in self.answered)

    def _drop_round(self) -> None:
        keep = [t for t in self.snapshot if t.output_of is not None] if self.in_compaction else self.snapshot
        self.pending = [*keep, *self.pending]
        self.snapshot, self.outputs, self.in_request = [], [], False

    def model(self, turn: Turn[T]) -> None:
        if turn.role == "user":
            self.pending.append(turn)
        elif self.in_request:
            self.outputs.append(turn)

    def request_begin(self) -> None:
        if self.in_request:
            self._drop_round()
        self.in_request = True
        self.snapshot, self.pending = self.pending, []

    def request_end(self, completed: bool, at: object) -> None:
        if not completed:
            self._drop_round()
            return
        eligible = [t for t in self.snapshot if self._eligible(t)]
        answered_now = {t.output_of for t in eligible if t.output_of is not None}
        for cid in self.committed:
            if cid not in self.answered and cid not in answered_now:
                self.history.append(self.placeholder(cid, at))
                self.answered.add(cid)
        self.history.extend(eligible)
        self.history.extend(self.outputs)
        self.answered |= answered_now
        for t in self.outputs:
            if t.completed_call is not None:
                self.committed[t.completed_call] = None
        self.snapshot, self.outputs, self.in_request = [], [], False

    def compaction(self, begin: bool) -> None:
        self.in_compaction = begin

    def finish(self, at: object) -> list[Turn[T]]:
        """The carry-over: the eligible pending input, then placeholders for committed calls
        answered nowhere."""
        if self.in_request:
            self._drop_round()
        carry = [t for t in self.pending if self._eligible(t)]
        paired = self.answered | {t.output_of for t in carry if t.output_of is not None}
        carry += [self.placeholder(cid, at) for cid in self.committed if cid not in paired]
        return carry
