"""Fresh numbers whose shortest spelling is an exact tie (schema/README.md section 2.5).

A double x is a tie when its exact value lies exactly halfway between two k-digit decimals that
both parse back to x, and no shorter decimal does: Number::toString then writes the even one
(ECMA-262 Note 2). Such a value is (s + 1/2) x 10^-q for an integer s, hence t / 2^(q+1) for an
odd t (5^q divides 2s+1); it can only occur for q >= 1, where the double's spacing near x is
between 10^-q and 10^(1-q). The generator draws q and t, keeps what the exact test accepts, and
writes the value in a `number` field spelled exactly, or as either of the two tied decimals.
"""

from __future__ import annotations

import random
from fractions import Fraction

import msgspec.inspect as mi

from .draft import Edit, _Draft, _values
from .tree import _J

__all__ = ["EDITS", "exact_decimal", "tie"]

_QS = (1, 1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20)


def tie(rng: random.Random) -> tuple[Fraction, int, int] | None:
    """(exact value, s, q): the double t / 2^(q+1) lies halfway between s x 10^-q and (s+1) x 10^-q,
    both of which parse back to it, and no decimal of one digit less does; None if this draw is not one."""
    q = rng.choice(_QS)
    lo = max(1, int(54 - 2.3219 * q) + 1)  # the double's spacing must exceed 10^-q
    if lo > 53:
        return None
    bits = rng.randint(lo, 53)
    t = rng.randrange(2 ** (bits - 1), 2**bits) | 1
    exact = Fraction(t, 2 ** (q + 1))
    x = float(exact)
    if Fraction(x) != exact:
        return None
    s = (5**q * t - 1) // 2
    unit = Fraction(1, 10**q)
    if float(s * unit) != x or float((s + 1) * unit) != x:
        return None
    coarse = unit * 10
    below = (exact / coarse).__floor__()
    if float(below * coarse) == x or float((below + 1) * coarse) == x:
        return None
    return exact, s, q


def exact_decimal(value: Fraction, places: int) -> str:
    """`value` (a multiple of 10^-places) written as a plain decimal with `places` decimals."""
    digits = str(value.numerator * 10**places // value.denominator).rjust(places + 1, "0")
    return digits[:-places] + "." + digits[-places:]


def _request_end(d: _Draft) -> _J:
    """A `request_end` event with a `retry_in_ms` (a `number` field), at the draft's timestamp."""
    ts = next((v for k, v in d.tree.members if k == "timestamp"), None) or _J("str", text="2026-07-18T03:10:22.531Z")
    payload = _J("obj", members=[("type", _J("str", text="request_end")), ("status", _J("str", text="retryable")),
                                 ("retry_in_ms", _J("num", text="0", typ=mi.FloatType()))])
    return _J("obj", members=[("timestamp", ts), ("type", _J("str", text="event_msg")), ("payload", payload)])


def _number_tie(rng: random.Random, d: _Draft) -> bool:
    nums = [v for v in _values(d) if v.kind == "num" and isinstance(v.typ, mi.FloatType)]
    if not nums:  # most messages hold no `number` field: one that does
        d.tree = _request_end(d)
        nums = [v for v in _values(d) if v.kind == "num"]
    for _ in range(20):
        found = tie(rng)
        if found is None:
            continue
        exact, s, q = found
        r = rng.random()
        if r < 0.5:
            text = exact_decimal(exact, q + 1)
        else:
            text = exact_decimal(Fraction(s + (1 if r < 0.75 else 0), 10**q), q)
        rng.choice(nums).text = text
        return True
    return False


EDITS: dict[str, tuple[Edit, bool]] = {"number-tie": (_number_tie, False)}
"""Tree edits of this family: (edit, whether it makes a schema defect)."""
