"""Fresh cases: messages and hostile edits of them, generated anew for every run from a seed.

The shipped cases are files; an implementation could look its answers up in them. Every run of
the runner therefore adds cases that no file holds: random messages of every kind, built from
the generated models (:mod:`omnimessage._generated.models`: every envelope, payload, field,
vocabulary and verbatim value, in schema order), written canonically or with odd whitespace,
key order and escapes, then given hostile edits (a byte flipped, a key duplicated, a field
dropped, added or given another type or value, a number re-spelled, a string with escapes or a
lone surrogate, a torn line, trailing data, invalid UTF-8, deep nesting, a line limit just
around the line). The expected answer of each is computed at run time by the reference binding
(the Python codec, read as a reader reads a one-line file: :class:`.testee.Binding`), never
written by hand. The same seed gives the same cases (for this version of the package), so
`--seed N` replays a failure; the default seed (:func:`stable_seed`) is derived from the suite,
so a run is repeatable unless `--seed random` asks otherwise.

Edits are combined so that the expected answer is unique: a case holds at most one defect the
contract lets implementations report in another order (a schema defect, schema/README.md
section 4), plus at most one lexical defect, whose precedence the contract fixes. A case whose
input happens to be one the shipped suite holds is drawn again. Caps: :data:`MAX_FRESH_CASES`
cases a run; a generated line stays below 64 KiB.
"""

from __future__ import annotations

import base64
import hashlib
import random
import secrets
from typing import Any

from omnimessage.codec.errors import DecodeError

from ..._generated import models
from ..levels import RECOMMENDED, REQUIRED
from ..suite import FRESH_GROUP, Case, Suite
from . import after_numbers, cr_limit, number_ties, whitespace
from .byte_edits import BYTE_EDITS as _BYTE_EDITS
from .draft import _Draft
from .edits import TREE_EDITS as _TREE_EDITS
from .tree import _J, _Writer
from .values import _Gen

__all__ = [
    "DEFAULT_FRESH_CASES",
    "EDITS",
    "FRESH_GROUP",
    "MAX_FRESH_CASES",
    "POINTED_CATEGORIES",
    "fresh_cases",
    "new_seed",
    "stable_seed",
]

DEFAULT_FRESH_CASES = 200
"""Fresh cases per run unless `--fresh N` says otherwise."""
MAX_FRESH_CASES = 100_000
"""The most fresh cases one run may ask for (each is generated and decoded by the reference)."""
MAX_SEED = 2**63 - 1

POINTED_CATEGORIES = frozenset(
    {"duplicate_key", "lone_surrogate", "invalid_number", "wrong_type", "missing_field", "unexpected_field",
     "unknown_type", "invalid_value"}
)
"""Refusals whose JSON pointer the contract fixes: fresh cases compare it (grammar refusals do not)."""

_LIMIT_BYTES = 64 * 1024


def new_seed() -> int:
    """A random seed (`--seed random`, for a nightly job; printed, so the run can be replayed)."""
    return secrets.randbelow(2**32)


def stable_seed(suite: Suite) -> int:
    """The default seed: derived from the suite version and the schema `$id` alone, so the same suite
    gives every run, every machine and every implementation the same fresh cases (and the same
    implementation the same verdict). Not from the implementation's command line, which differs
    between machines (paths) and between the matrix and a single run."""
    text = f"omnimessage-conformance\0{suite.suite_version}\0{suite.schema_id}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big")


# the open-ended families of suite 2.1 (issue 20), each its own module
TREE_EDITS = {**_TREE_EDITS, **number_ties.EDITS}
BYTE_EDITS = {**_BYTE_EDITS, **after_numbers.EDITS, **whitespace.EDITS, **cr_limit.EDITS}
EDITS: tuple[str, ...] = (*TREE_EDITS, *BYTE_EDITS)
_LAST = ("truncate", "line-limit", "cr-limit")  # byte edits applied last, to the line as finally sent
"""Every hostile edit, by the name a fresh case's id and tags carry."""


# ---------------------------------------------------------------------------
# the cases
# ---------------------------------------------------------------------------


def _reference(data: bytes, mode: str, limit: int | None) -> tuple[str, bytes | str, str] | None:
    """What the reference binding answers: ("encoded", bytes, "") or ("refused", category, pointer);
    None when it would not answer (an input it does not read as one line)."""
    from ..testee import Binding

    binding = Binding()
    try:
        msg = binding.read_line(
            data, lenient=mode == "lenient", max_line_bytes=limit or models.DEFAULT_MAX_LINE_BYTES
        )
        return "encoded", binding.encode(msg), ""
    except DecodeError as exc:
        return "refused", exc.category, exc.pointer
    except ValueError:
        return None


def _describe(tree: _J) -> str:
    env = next((v.text for k, v in tree.members if k == "type" and v.kind == "str"), "?")
    payload = next((v for k, v in tree.members if k == "payload"), None)
    kind = ""
    if payload is not None and payload.kind == "obj":
        kind = next((v.text for k, v in payload.members if k == "type" and v.kind == "str"), "")
    return f"{env}/{kind}" if kind else env


def _draft(rng: random.Random) -> _Draft:
    d = _Draft(_Gen(rng).message())
    r = rng.random()
    n_edits = 0 if r < 0.15 else 1 if r < 0.75 else 2
    every = {**TREE_EDITS, **BYTE_EDITS}
    chosen: list[str] = []
    for _ in range(n_edits):  # at most one defect implementations may order freely
        free = any(every[e][1] for e in chosen)
        chosen.append(rng.choice([e for e in every if e not in chosen and not (free and every[e][1])]))
    for name in chosen:
        if name in TREE_EDITS and TREE_EDITS[name][0](rng, d):
            d.edits.append(name)
    d.odd = d.odd or rng.random() < 0.3
    d.data = _Writer(rng, d.odd).write(d.tree).encode("utf-8") + b"\n"
    # byte edits last; the line limit and the torn end apply to the line as finally sent
    for name in sorted((e for e in chosen if e in BYTE_EDITS), key=lambda e: e in _LAST):
        if BYTE_EDITS[name][0](rng, d):
            d.edits.append(name)
    return d


def fresh_cases(suite: Suite, seed: int, count: int = DEFAULT_FRESH_CASES) -> list[Case]:
    """`count` fresh cases drawn from `seed`, with the reference binding's answers; none has an input
    the shipped suite holds."""
    if not 0 <= count <= MAX_FRESH_CASES:
        raise ValueError(f"the number of fresh cases must be 0..{MAX_FRESH_CASES}, got {count}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is an integer 0..{MAX_SEED}, got {seed}")
    rng = random.Random(seed)
    shipped = {c.input.removesuffix(b"\n") for c in suite.cases}
    out: list[Case] = []
    seen: set[tuple[bytes, str, int | None]] = set()
    for _ in range(50 * count + 100):  # drafts are rarely drawn again; bounded all the same
        if len(out) == count:
            break
        d = _draft(rng)
        key = (d.data, d.mode, d.max_line_bytes)
        body = d.data.removesuffix(b"\n")
        if body in shipped or b"\n" in body or len(d.data) > _LIMIT_BYTES or key in seen:
            continue
        answer = _reference(d.data, d.mode, d.max_line_bytes)
        if answer is None or (
            # a flipped byte inside a key may make two schema defects (the key missing, another
            # unexpected), which implementations may report in either order: not one answer
            "flip-byte" in d.edits and answer[0] == "refused" and answer[1] in ("missing_field", "unexpected_field")
        ):
            continue
        seen.add(key)
        out.append(_case(seed, len(out), d, answer))
    if len(out) < count:
        raise RuntimeError(f"could not draw {count} fresh cases from seed {seed}")
    return out


def _case(seed: int, index: int, d: _Draft, answer: tuple[str, bytes | str, str]) -> Case:
    edits = d.edits or ["none"]
    what = _describe(d.tree)
    written = "written oddly" if d.odd else "written canonically"
    body = d.data.removesuffix(b"\n")
    common: dict[str, Any] = {
        "id": f"fresh.{seed}.{index:04d}.{'+'.join(edits)}",
        "group": FRESH_GROUP,
        "description": f"a generated {what} message, {written}; edits: {', '.join(edits)} (seed {seed})",
        "spec": "generated",
        "input": d.data,
        "mode": d.mode,
        "max_line_bytes": d.max_line_bytes,
        "tags": (FRESH_GROUP, *edits),
        "features": ("lenient",) if d.mode == "lenient" else (),
        "source": f"fresh case #{index} of seed {seed} (base64 {base64.b64encode(d.data[:48]).decode()}...)",
        "level": RECOMMENDED if d.mode == "lenient" else REQUIRED,  # the manifest's rule (levels.level_by_rule)
    }
    if answer[0] == "encoded":
        out = answer[1]
        assert isinstance(out, bytes)
        if out == body:
            return Case(expect="identical", output=body, **common)
        return Case(expect="canonical", output=out, **common)
    category = str(answer[1])
    pointer = answer[2] if category in POINTED_CATEGORIES else None
    return Case(expect="reject", category=category, pointer=pointer, **common)
