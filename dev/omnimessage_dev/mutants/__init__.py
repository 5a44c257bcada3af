"""Deliberately broken variants of the Python binding: proof that the suite has teeth.

Test tooling of the suite, so development tooling (dev/, on the path after `make setup`), never in
the wheel: a user's install carries the runtime and the suite's data, not 2,800 lines of bindings
broken on purpose (python/tests/test_packaging.py checks the wheel).

Each mutant is the real binding with one realistic mistake (the ones re-serialisers, ports to
other languages and hurried fixes make). `python -m omnimessage_dev.mutants NAME` runs
one as a testee; :func:`run_mutation_check` runs them all through the runner and reports the
kill rate: the share of mutants that fail at least one case. Anything below 100% means the
suite misses a mistake a real implementation could make.

The mutants are grouped by family: :mod:`.fields` (order, presence, invented defaults),
:mod:`.spelling` (escapes and numbers spelt another way), :mod:`.verbatim` (verbatim values not
kept byte for byte), :mod:`.lax` (refused lines accepted), :mod:`.refusals` (kept lines refused,
or refused with another category or pointer). The mistakes third parties make (issue 13):
:mod:`.timestamps` and :mod:`.typed_fields` (a string field typed and written back another way),
:mod:`.encoders` (other encoders' escapes, "omit empty"), :mod:`.keys` (names matched loosely),
:mod:`.nulls` (`null` against absent), :mod:`.pointers` (RFC 6901 escaping), :mod:`.precedence`
(two defects in one line), :mod:`.limits`, :mod:`.torn` (torn lines with other defects),
:mod:`.floats` (the double's edges), :mod:`.validator_rules` (section 8's rules in a decoder),
:mod:`.lenient_modes`. :mod:`.registry` names them all, :mod:`.check` runs them.
"""

from __future__ import annotations

import sys

from omnimessage.conformance.testee import main as testee_main

from .check import MutantResult, MutationReport, run_mutation_check
from .registry import MUTANTS

__all__ = ["MUTANTS", "MutantResult", "MutationReport", "main", "run_mutation_check"]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in MUTANTS:
        sys.stderr.write(f"usage: python -m omnimessage_dev.mutants NAME\nnames: {', '.join(MUTANTS)}\n")
        return 2
    binding = MUTANTS[args[0]]()
    binding.name = f"mutant:{args[0]}"
    return testee_main(binding)
