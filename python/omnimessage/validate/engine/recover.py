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

from omnimessage._generated.models import Message
from omnimessage.codec.api import decode
from omnimessage.codec.errors import DecodeError
from omnimessage.validate.engine.rules import CATEGORY_RULES

__all__ = ["HARD_CATEGORIES", "MAX_NEWER_FIELDS", "LegacySpot", "generic", "legacy_spots", "newer_spots", "refine",
           "repair_decode"]

HARD_CATEGORIES: Final = frozenset(
    {"invalid_utf8", "line_break", "invalid_json", "trailing_data", "too_deep", "too_large", "truncated"}
)
"""Refusals after which the line's structure is unknown: nothing to recover."""
MAX_NEWER_FIELDS: Final = 32
"""How many refusals of one line `--lenient` looks past while it searches for unknown fields (each
costs a decode); past it, one more finding says the line is checked no further."""

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
            # releases 0.1.5 to 0.2.4 retried `failed` (the engine's retry list): then it reads as retryable
            now = "retryable" if v == "failed" and "retry_in_ms" in container else RETIRED_STOP_REASONS[v]
            spots.append(LegacySpot("OM751", ptr, f"retired stop reason {v!r} (reads as {now!r})"))
            if apply:
                container[key] = now

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
    elif env == "event_msg" and ptype == "goal_finished":
        spots.append(LegacySpot("OM757", "/payload/type", "retired event 'goal_finished' (goal mode, releases "
                                                          "0.1.3 to 0.2.4)"))
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


def newer_spots(obj: Any, *, keep: frozenset[str] = frozenset()) -> list[LegacySpot]:
    """What a newer producer added (`--lenient`): unknown fields (OM115), found by decoding and
    dropped from `obj` one by one, or an unknown message type (OM116, last: nothing more is known).

    Other refusals, and fields whose pointer is in `keep`, stay in `obj` for the caller to report;
    a scratch copy has them repaired so that the search goes on past them.
    """
    spots: list[LegacySpot] = []
    probe = msgspec.json.decode(msgspec.json.encode(obj))
    subst_done: set[str] = set()
    for _ in range(MAX_NEWER_FIELDS):
        try:
            decode(msgspec.json.encode(probe))
        except DecodeError as err:
            ptr = err.pointer
            if err.category == "unknown_type":
                what = "message" if ptr == "/type" else "payload"
                spots.append(LegacySpot("OM116", ptr, f"unknown {what} type: {err.detail}; not checked further"))
                return spots
            if err.category == "unexpected_field" and ptr not in keep:
                if not _fix(probe, ptr, substitute=False):
                    return spots
                _fix(obj, ptr, substitute=False)
                spots.append(LegacySpot("OM115", ptr, f"unknown field {_tokens(ptr)[-1]!r}; ignored"))
            elif not _repair_step(probe, err, subst_done):
                return spots
        except (msgspec.EncodeError, UnicodeEncodeError, OverflowError, TypeError):
            return spots
        else:
            return spots
    spots.append(LegacySpot("OM116", "", f"more than {MAX_NEWER_FIELDS} refusals; not checked further"))
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


def _repair_step(obj: Any, err: DecodeError, subst_done: set[str]) -> bool:
    """Drop (or neutralise) the value `err` refused, so that the next decode goes past it."""
    cat, ptr = err.category, err.pointer
    if cat == "missing_field":
        if ptr in subst_done or not _fix(obj, ptr, substitute=True):
            return False
    elif cat in ("unexpected_field", "invalid_value", "wrong_type", "invalid_number"):
        neutral = cat != "unexpected_field" and ptr.rsplit("/", 1)[-1] in _NEUTRAL and ptr not in subst_done
        if not _fix(obj, ptr, substitute=neutral):
            return False
    else:
        return False
    subst_done.add(ptr)
    return True


def repair_decode(obj: Any) -> tuple[Message | None, DecodeError | None]:
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
            return decode(data), first  # strict: a Message (decode's overloads), never an OpaqueMessage
        except DecodeError as err:
            if first is None:
                first = err
            if not _repair_step(obj, err, subst_done):
                return None, first
    return None, first
