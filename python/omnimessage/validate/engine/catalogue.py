"""Render the rule catalogue as Markdown: `python -m omnimessage.validate.engine.catalogue > docs/rules.md`.

docs/rules.md is generated from :data:`omnimessage.validate.engine.rules.RULES`; a test fails when it is
stale.
"""

from __future__ import annotations

import sys

from omnimessage.validate.engine.rules import GROUPS, RULES
from omnimessage.validate.engine.state import (
    MAX_CHILD_SESSIONS,
    MAX_OPEN_CALLS,
    MAX_OPEN_SEGMENTS,
    MAX_SERVER_EVENT_TYPES,
    SEGMENT_FRAGMENTS,
    SEGMENT_PREFIX,
    SEGMENT_TEXT,
)
from omnimessage.validate.engine.validator import CLOSED_WINDOW
from omnimessage.validate.reporting.limit import DEFAULT_MAX_FINDINGS

__all__ = ["render"]

HEADER = """\
<!-- Generated from python/omnimessage/validate/engine/rules.py. DO NOT EDIT: run
     `python -m omnimessage.validate.engine.catalogue > docs/rules.md` -->
# OmniMessage protocol rules

`omnimessage validate` checks JSON Lines traces and streams against these rules. Each finding
names a rule by its stable id (`path:line: OM201 error: message`); ids never change meaning and
are never reused. Errors fail validation (exit status 1), warnings do not.

Profiles: `trace` is a stored trace file (or a trace root of rotated files); `stream` is the SDK
boundary or the SSE stream (`--sse`, `--sse-url`), which also carries `partial_*` fragments and
messages forwarded from subagents (`origin`). Each rule has passing and failing fixtures under
[`conformance/validator/<id>/`](../conformance/validator/README.md).

Options that change findings: `--legacy` accepts the retired spellings of older traces as
warnings (OM75x instead of OM111/OM112/OM113 errors); `--lenient` reads a newer producer's
additive fields and types as warnings (OM115, OM116 instead of OM111/OM112 errors);
`--truncated` (implied by `--sse-url`) reports
fragments left open at the end of the input as warnings; `--ignore` / `--select` filter rules by
id, id prefix or name; `--explain RULE` prints a rule's entry.

Bounds: whatever the input, the validator's memory is bounded by caps on its open state, each
given once as an OM007 warning when reached, then counted only: {segments} open streaming segments
per session (their fragments kept as text up to {text:,} characters per input, all open segments
together, at most 4 bytes a character; a segment past that or past {fragments} fragments keeps its first
{prefix} characters and a digest: its length and a hash), {calls:,} tool calls awaiting their output
per session, {children} child sessions, {events} `server_event` types, {window:,} answered call ids
per session. A report lists at most `--max-findings` findings per input (default {findings:,}) and
counts the rest by rule; `--duration` bounds a `--sse-url` run, the wait for its headers included.

"""


def _profiles(p: frozenset[str]) -> str:
    return ", ".join(f"`{x}`" for x in sorted(p, key=("trace", "stream").index))


def render() -> str:
    out = [HEADER.format(
        segments=MAX_OPEN_SEGMENTS, prefix=SEGMENT_PREFIX, fragments=SEGMENT_FRAGMENTS, text=SEGMENT_TEXT,
        calls=MAX_OPEN_CALLS,
        children=MAX_CHILD_SESSIONS, events=MAX_SERVER_EVENT_TYPES, window=CLOSED_WINDOW,
        findings=DEFAULT_MAX_FINDINGS,
    )]
    out.append("| id | name | severity | profiles | checks |\n| --- | --- | --- | --- | --- |\n")
    for r in RULES.values():
        link = f"[{r.id}](#{r.id.lower()})"
        out.append(f"| {link} | `{r.name}` | {r.severity} | {_profiles(r.profiles)} | {r.summary} |\n")
    for prefix, title, about in GROUPS:
        rules = [r for r in RULES.values() if r.group == prefix]
        if not rules:
            continue
        out.append(f"\n## {title}\n\n{about}\n")
        for r in rules:
            out.append(
                f'\n<a id="{r.id.lower()}"></a>\n### {r.id} `{r.name}`\n\n'
                f"**{r.severity}** · profiles: {_profiles(r.profiles)} · "
                f"fixtures: [`conformance/validator/{r.id}/`](../conformance/validator/{r.id}/)\n\n"
                f"{r.explanation}\n\n**Fix:** {r.hint}\n"
            )
    return "".join(out)


def main() -> int:
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
