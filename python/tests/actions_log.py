"""What the GitHub Actions runner would execute in a step's log: its two workflow-command syntaxes.

The runner (actions/runner, `ActionCommand.TryParseV2` and `TryParse`) reads every line a step
writes to stdout or stderr and runs it as a command when

- the line, leading white space trimmed, starts with `::` (`::add-mask::x`, `::error ...::msg`);
- the line holds the legacy prefix `##[` *anywhere* (`##[add-mask]x`, `text ##[stop-commands]t`):
  the runner looks the prefix up with `IndexOf`, not at the line's start.

:func:`commands` lists the lines of a log the runner would treat as commands; it errs on the strict
side (a `##[` without its closing `]` is counted too). A test that puts hostile strings into every
output asserts that only our own annotations (`::error ` / `::warning ` in `--format github`) are
among them.
"""

from __future__ import annotations

import re

LEGACY_PREFIX = "##["


def commands(text: str) -> list[str]:
    """The lines of `text` the Actions runner would run as workflow commands."""
    out = []
    for line in re.split("\r\n|\n|\r", text):
        if line.lstrip().startswith("::") or LEGACY_PREFIX in line:
            out.append(line)
    return out


def foreign_commands(text: str, *, ours: str | None = None) -> list[str]:
    """`commands(text)` without the lines matching the regular expression `ours` (our annotations)."""
    return [c for c in commands(text) if ours is None or not re.match(ours, c)]
