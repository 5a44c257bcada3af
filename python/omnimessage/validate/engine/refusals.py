"""Lines the codec refuses: the OM1xx finding (with its refined category), OM001/OM002 for a last
line, OM005/OM006 for what a trace writer's crash heal leaves mid-file, the retired spellings of
`--legacy` and the newer fields of `--lenient`; and the repaired message the other rules then see."""

from __future__ import annotations

from omnimessage._generated.models import Message
from omnimessage.codec.errors import DecodeError
from omnimessage.reader import TORN_CATEGORIES
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.recover import (
    HARD_CATEGORIES,
    LegacySpot,
    generic,
    legacy_spots,
    newer_spots,
    refine,
    repair_decode,
)
from omnimessage.validate.engine.torn import is_record_prefix

__all__ = ["refused", "settle_heal"]


def refused(ctx: Context, raw: bytes, err: DecodeError, line: int, terminated: bool) -> Message | None:
    """Report a refused line; return a repaired message for the other rules, or None."""
    if ctx.trace and terminated and err.category in TORN_CATEGORIES and _healed(ctx, raw, line, err):
        return None
    value = None if err.category in HARD_CATEGORIES else generic(raw)
    if not terminated and err.category in TORN_CATEGORIES:
        # Torn as the readers see it: only a tail that does not even parse. A complete last line
        # with data after it, or nested too deep, keeps its category (and OM002).
        ctx.emit("OM001", line, f"the last line has no line feed and does not decode ({err.category}: {err.detail})")
        return None
    if not terminated:
        ctx.emit("OM002", line, "the last line has no line feed")
    if not isinstance(value, dict):
        report(ctx, err, value, line, [])
        return None
    spots = legacy_spots(value, apply=ctx.legacy)
    schema_refusal = not err.lexical or err.category == "invalid_number"
    applied = spots if ctx.legacy else []
    if applied:
        ctx.legacy_line = True  # an old record: it predates the error pair (no OM506 for it)
        for sp in applied:
            ctx.emit(sp.rule, line, sp.detail, sp.pointer)
    if any(sp.rule == "OM757" for sp in applied):
        return None  # a retired message type: nothing this version checks
    newer = []
    if ctx.lenient and schema_refusal:
        # what a newer producer added; a retired spelling (without --legacy) stays an error
        newer = newer_spots(value, keep=frozenset(sp.pointer for sp in spots if not applied))
        for sp in newer:
            ctx.emit(sp.rule, line, sp.detail, sp.pointer)
        if any(sp.rule == "OM116" for sp in newer):
            return None  # a message type this version does not define: nothing known to check
    if applied or newer:
        if not schema_refusal:
            report(ctx, err, value, line, [])
        msg, err2 = repair_decode(value)
        if err2 is not None and schema_refusal:
            err2.offset = None  # an offset into the rewritten line would mislead
            report(ctx, err2, value, line, [])
        if err2 is not None:
            ctx.repaired = True
        return msg
    report(ctx, err, value, line, spots)
    msg, _ = repair_decode(value)
    if msg is not None:
        ctx.repaired = True
    return msg


def _healed(ctx: Context, raw: bytes, line: int, err: DecodeError) -> bool:
    """A line a crash left mid-file and the writer's heal made a line of its own (facts 9): a torn
    record, or an empty line. The writer restarted there (state is reset).

    The heal writes its line feed and the next record in one write, so a healed line is always
    followed by another line, and an empty one is neither the file's first nor next to another
    empty line: the finding waits for the next line (`settle_heal`); the end of the file turns
    it back into the line's refusal.
    """
    if not raw:
        blank = ctx.blank_at == ctx.file_lines - 1 or ctx.file_lines == 1
        ctx.blank_at = ctx.file_lines
        if blank:
            return False  # not what a heal leaves
        ctx.heal = ("OM006", line, "an empty line: what the trace writer's crash heal leaves when the last "
                                   "line was not torn; readers skip it", err)
    elif is_record_prefix(raw):
        ctx.heal = ("OM005", line, f"a torn record ({len(raw)} bytes, cut short by a crash) that the trace "
                                   f"writer's heal left mid-file; readers skip it", err)
    else:
        return False
    ctx.restart()
    return True


def settle_heal(ctx: Context, next_blank: bool) -> None:
    """The line after a healed one arrived (or the file ended: `next_blank` True)."""
    assert ctx.heal is not None
    rule_id, line, message, err = ctx.heal
    ctx.heal = None
    if (next_blank and rule_id == "OM006") or not ctx.file_started:
        report(ctx, err, None, line, [])
    else:
        ctx.emit(rule_id, line, message)


def report(ctx: Context, err: DecodeError, value: object, line: int, spots: list[LegacySpot]) -> None:
    """The refusal's finding: its rule (`refine`d from the category), detail, pointer and byte offset."""
    text = f"{err.category}: {err.detail}"
    where = []
    if err.pointer:
        where.append(f"at {err.pointer}")
    if err.offset is not None:
        where.append(f"byte {err.offset}")
    if where:
        text += f" ({', '.join(where)})"
    for sp in spots:
        if sp.pointer == err.pointer:
            text += f"; a retired spelling ({sp.rule}): --legacy accepts it as a warning"
            break
    ctx.emit(refine(err, value), line, text, err.pointer)
