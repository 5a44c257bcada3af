"""`--summary-by producer|day|rule`: the findings of a big run per group, as a table and as JSON.

- `producer`: the input's first main-session `session_meta`: `source` (absent reads `user`),
  `provider` and `model_id` (`UnitResult.producer`); `(unknown)` without one (an unreadable
  input, a stream, a file that does not open with it).
- `day`: the date folder of a session under a trace root (`<yyyy-mm-dd>/...`), else the date of
  that `session_meta` (`UnitResult.day`); `(unknown)` without either.
- `rule`: each rule that has findings; an input counts once per rule it has.

Per group: inputs, inputs with errors, errors, warnings, unreadable inputs and bytes read. Every
finding counts, those beyond `--max-findings` too.

Group keys come from input: each is cut to :data:`MAX_KEY_CHARS` characters when grouped and
sanitised when printed or written, and a dimension holds at most :data:`MAX_GROUPS` groups; the
inputs of any further key are counted in one `(other)` group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TextIO

from omnimessage.text.sanitize import sanitize
from omnimessage.validate.engine.rules import RULES
from omnimessage.validate.reporting.report import Report
from omnimessage.validate.sources.inputs import UnitResult

__all__ = ["DIMENSIONS", "MAX_GROUPS", "MAX_KEY_CHARS", "GroupSummary", "GroupedReport", "parse_dimensions"]

DIMENSIONS: Final = ("producer", "day", "rule")
MAX_GROUPS: Final = 1000
"""Groups a dimension holds; the inputs of any further key go to :data:`OTHER`."""
MAX_KEY_CHARS: Final = 120
"""A group key is cut to this many characters."""
OTHER: Final = "(other)"
UNKNOWN: Final = "(unknown)"
_COLUMNS: Final = ("inputs", "with_errors", "errors", "warnings", "unreadable", "bytes")
_HEADS: Final = ("inputs", "with errors", "errors", "warnings", "unreadable", "MB")


def parse_dimensions(values: Iterable[str]) -> tuple[str, ...]:
    """`--summary-by` values (repeatable, or comma-separated) in order, each once; ValueError for
    an unknown one."""
    out: list[str] = []
    for v in values:
        for d in v.split(","):
            d = d.strip()
            if d not in DIMENSIONS:
                raise ValueError(f"--summary-by {sanitize(d[:40])!r}: expected one of {', '.join(DIMENSIONS)}")
            if d not in out:
                out.append(d)
    return tuple(out)


@dataclass(slots=True)
class _Row:
    inputs: int = 0
    with_errors: int = 0
    errors: int = 0
    warnings: int = 0
    unreadable: int = 0
    bytes: int = 0


def _cut(s: str) -> str:
    return s if len(s) <= MAX_KEY_CHARS else s[:MAX_KEY_CHARS] + "..."


def producer_key(producer: tuple[str, str, str]) -> str:
    """`source provider/model_id` (the group key of a producer)."""
    if producer == ("", "", ""):
        return UNKNOWN
    source, provider, model = producer
    return _cut(f"{source} {provider}/{model}")


class GroupSummary:
    """Findings per group of inputs for each dimension asked (see the module's documentation)."""

    def __init__(self, dimensions: Sequence[str], *, max_groups: int = MAX_GROUPS) -> None:
        for d in dimensions:
            if d not in DIMENSIONS:
                raise ValueError(f"unknown summary dimension {d!r}")
        self.dimensions = tuple(dimensions)
        self.max_groups = max_groups
        self.groups: dict[str, dict[str, _Row]] = {d: {} for d in self.dimensions}
        self.producers: dict[str, tuple[str, str, str]] = {}

    def _row(self, dimension: str, key: str) -> _Row:
        rows = self.groups[dimension]
        row = rows.get(key)
        if row is None:
            if len(rows) >= self.max_groups and key != OTHER:
                return self._row(dimension, OTHER)
            row = rows[key] = _Row()
        return row

    def add(self, res: UnitResult, counts: Mapping[tuple[str, str], int]) -> None:
        """One input's result and its findings counted per (rule, severity) (all of them, held or not)."""
        errors = sum(n for (_, sev), n in counts.items() if sev == "error")
        warnings = sum(n for (_, sev), n in counts.items() if sev != "error")
        for d in self.dimensions:
            if d == "rule":
                per: dict[str, Counter[str]] = {}
                for (rule, sev), n in counts.items():
                    if n:
                        per.setdefault(rule, Counter())[sev] += n
                for rule, sevs in per.items():
                    row = self._row(d, rule)
                    row.inputs += 1
                    row.with_errors += 1 if sevs["error"] else 0
                    row.errors += sevs["error"]
                    row.warnings += sum(n for s, n in sevs.items() if s != "error")
                    row.bytes += res.bytes
                continue
            if d == "producer":
                key = producer_key(res.producer)
                if key != UNKNOWN:
                    self.producers.setdefault(key, tuple(x[:MAX_KEY_CHARS] for x in res.producer))  # type: ignore[arg-type]
            else:
                key = _cut(res.day) if res.day else UNKNOWN
            row = self._row(d, key)
            row.inputs += 1
            row.with_errors += 1 if errors else 0
            row.errors += errors
            row.warnings += warnings
            row.unreadable += 1 if res.failure else 0
            row.bytes += res.bytes

    def _sorted(self, dimension: str) -> list[tuple[str, _Row]]:
        rows = self.groups[dimension]
        return sorted(rows.items(), key=lambda kv: (kv[0] in (OTHER, UNKNOWN), kv[0]))

    def to_dict(self) -> dict[str, list[dict[str, object]]]:
        """The JSON form: `{dimension: [{"group": key, "inputs": n, ...}, ...]}`, keys sanitised."""
        out: dict[str, list[dict[str, object]]] = {}
        for d in self.dimensions:
            rows: list[dict[str, object]] = []
            for key, row in self._sorted(d):
                item: dict[str, object] = {"group": sanitize(key)}
                if d == "rule" and key in RULES:
                    item["name"] = RULES[key].name
                elif d == "producer" and key in self.producers:
                    source, provider, model = self.producers[key]
                    item.update(source=sanitize(source), provider=sanitize(provider), model_id=sanitize(model))
                item.update((c, getattr(row, c)) for c in _COLUMNS)
                rows.append(item)
            out[d] = rows
        return out

    def write_text(self, out: TextIO) -> None:
        """One table per dimension: a group per line, keys sanitised."""
        for d in self.dimensions:
            rows = self._sorted(d)
            keys = [sanitize(k) + (f" {RULES[k].name}" if d == "rule" and k in RULES else "") for k, _ in rows]
            width = max([len(d), *map(len, keys)])
            out.write(f"\nfindings by {d}\n")
            out.write(f"{d:<{width}}  " + "  ".join(f"{h:>11}" for h in _HEADS) + "\n")
            for key, (_, row) in zip(keys, rows, strict=True):
                cells = [f"{getattr(row, c):>11}" for c in _COLUMNS[:-1]] + [f"{row.bytes / 1e6:>11.1f}"]
                out.write(f"{key:<{width}}  " + "  ".join(cells) + "\n")
            if not rows:
                out.write("(no input)\n" if d != "rule" else "(no finding)\n")


class GroupedReport(Report):
    """A :class:`Report` whose JSON summary (`--format json`) carries `groups`: the :class:`GroupSummary`."""

    __slots__ = ("groups",)

    def __init__(self, groups: GroupSummary, *, max_findings: int = 0) -> None:
        super().__init__(max_findings=max_findings)
        self.groups = groups

    def summary_dict(self) -> dict[str, object]:
        out = super().summary_dict()
        out["groups"] = self.groups.to_dict()
        return out
