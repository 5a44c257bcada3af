"""What the validator does with a line the strict decoder refused.

* Retired spellings (`--legacy`): found in the generic JSON value, reported, rewritten to their
  current reading, then the line is decoded strictly again.
* Specific rules for some schema refusals (an empty `origin` is OM601, `attempt: 0` is OM504, ...).
* Repair for the state machine: a well-formed line refused for one field is decoded again without
  that field (or with a neutral value for a required one) so that pairing and streaming state stay
  in step and one bad field does not cascade into findings on every later line. Findings about
  values of a repaired message are not reported (the refusal already was).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import msgspec

from ..codec import decode
from ..errors import DecodeError
from .rules import CATEGORY_RULES

__all__ = ["HARD_CATEGORIES", "LegacySpot", "generic", "legacy_spots", "refine", "repair_decode"]

HARD_CATEGORIES: Final = frozenset(
    {"invalid_utf8", "invalid_json", "trailing_data", "too_deep", "too_large", "truncated"}
)
"""Refusals after which the line's structure is unknown: nothing to recover."""

RETIRED_STOP_REASONS: Final[dict[str, str]] = {
    "failed": "fatal",
    "timeout": "retryable",
    "malformed": "retryable",
    "auth": "fatal",
}
_STATUS_EVENTS: Final = frozenset({"request_end", "compaction_end", "mcp_connect_end"})
_NEUTRAL: Final[dict[str, Any]] = {"status": "completed", "decision": "allow"}
_PROTECTED: Final = frozenset({"", "/timestamp", "/type", "/payload", "/payload/type"})


@dataclass(frozen=True, slots=True)
class LegacySpot:
    rule: str
    pointer: str
    detail: str


def generic(raw: bytes) -> Any:
    """The line as plain Python values, or None when it does not parse."""
    try:
        return msgspec.json.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, MemoryError):
        return None


def _payload(obj: Any) -> tuple[str | None, str | None, dict[str, Any] | None]:
    if not isinstance(obj, dict):
        return None, None, None
    env = obj.get("type")
    payload = obj.get("payload")
    if not isinstance(payload, dict):
        return env if isinstance(env, str) else None, None, None
    ptype = payload.get("type")
    return (env if isinstance(env, str) else None), (ptype if isinstance(ptype, str) else None), payload


def legacy_spots(obj: Any, *, apply: bool) -> list[LegacySpot]:
    """Retired spellings in a generic message; with `apply`, rewrite them to their current reading."""
    env, ptype, p = _payload(obj)
    if p is None:
        return []
    spots: list[LegacySpot] = []

    def stop(container: dict[str, Any], key: str, ptr: str) -> None:
        v = container.get(key)
        if isinstance(v, str) and v in RETIRED_STOP_REASONS:
            spots.append(LegacySpot("OM751", ptr, f"retired stop reason {v!r} (reads as {RETIRED_STOP_REASONS[v]!r})"))
            if apply:
                container[key] = RETIRED_STOP_REASONS[v]

    def moved(container: dict[str, Any], old: str, new: str, rule_id: str, ptr: str) -> None:
        if old in container:
            spots.append(LegacySpot(rule_id, ptr, f"retired field {old!r} (now {new!r})"))
            if apply:
                value = container.pop(old)
                if isinstance(value, str) and new not in container:
                    container[new] = value

    if env == "model_msg":
        stop(p, "stop_reason", "/payload/stop_reason")
    elif env == "event_msg" and ptype in _STATUS_EVENTS:
        stop(p, "status", "/payload/status")
        if ptype == "request_end":
            moved(p, "message", "error_message", "OM755", "/payload/message")
        elif ptype == "mcp_connect_end" and isinstance(p.get("results"), list):
            for i, res in enumerate(p["results"]):
                if isinstance(res, dict):
                    stop(res, "status", f"/payload/results/{i}/status")
                    moved(res, "error", "error_message", "OM754", f"/payload/results/{i}/error")
    elif env == "session_meta":
        for key in ("thinking_level", "tools"):
            if key in p:
                spots.append(LegacySpot("OM752", f"/payload/{key}", f"retired session_meta field {key!r}"))
                if apply:
                    del p[key]
        if p.get("source") == "benchmark":
            spots.append(LegacySpot("OM756", "/payload/source", "retired source 'benchmark' (reads as 'cli')"))
            if apply:
                p["source"] = "cli"
    return spots


def refine(err: DecodeError, obj: Any) -> str:
    """The rule a schema refusal is reported under: a specific one when there is one."""
    cat, ptr = err.category, err.pointer
    _, ptype, _ = _payload(obj)
    if cat == "invalid_value":
        if ptr == "/origin":
            return "OM601"
        if ptr == "/payload/attempt":
            return "OM504"
        if ptr == "/payload/error_code" and ptype == "abort":
            return "OM505"
    if cat == "unexpected_field" and ptr == "/payload/retry_in_ms" and ptype == "compaction_end":
        return "OM503"
    return CATEGORY_RULES.get(cat, "OM113")


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def _fix(obj: Any, pointer: str, *, substitute: bool) -> bool:
    """Delete (or neutralise) the value at `pointer`; False when that is impossible."""
    if pointer in _PROTECTED:
        return False
    toks = _tokens(pointer)
    parent = obj
    for tok in toks[:-1]:
        if isinstance(parent, dict) and tok in parent:
            parent = parent[tok]
        elif isinstance(parent, list) and tok.isdigit() and int(tok) < len(parent):
            parent = parent[int(tok)]
        else:
            return False
    last = toks[-1]
    if substitute:
        if isinstance(parent, dict) and last in _NEUTRAL:
            parent[last] = _NEUTRAL[last]
            return True
        return False
    if isinstance(parent, dict) and last in parent:
        del parent[last]
        return True
    if isinstance(parent, list) and last.isdigit() and int(last) < len(parent):
        del parent[int(last)]
        return True
    return False


def repair_decode(obj: Any) -> tuple[Any, DecodeError | None]:
    """Decode a generic value strictly, dropping refused fields until it decodes.

    Returns (message or None, the first refusal met, None if it decoded at once).
    """
    first: DecodeError | None = None
    subst_done: set[str] = set()
    for _ in range(12):
        try:
            data = msgspec.json.encode(obj)
        except (msgspec.EncodeError, UnicodeEncodeError, OverflowError, TypeError):
            return None, first
        try:
            return decode(data), first
        except DecodeError as err:
            if first is None:
                first = err
            cat, ptr = err.category, err.pointer
            if cat in ("missing_field",):
                if ptr in subst_done or not _fix(obj, ptr, substitute=True):
                    return None, first
                subst_done.add(ptr)
            elif cat in ("unexpected_field", "invalid_value", "wrong_type", "invalid_number"):
                neutral = cat != "unexpected_field" and ptr.rsplit("/", 1)[-1] in _NEUTRAL and ptr not in subst_done
                if not _fix(obj, ptr, substitute=neutral):
                    return None, first
                subst_done.add(ptr)
            else:
                return None, first
    return None, first
