"""Text for a CI run page, shared by `validate` and `conformance`: strings from input made inert as
Markdown (a step summary) and as GitHub workflow-command data (an annotation), and the cap on
what a summary lists.

Every string passes through the one sanitiser (:mod:`.sanitize`) first: no control character,
so no line break and no second workflow command.
"""

from __future__ import annotations

import html
import re
from typing import Final

from omnimessage.text.sanitize import sanitize

__all__ = ["MAX_SUMMARY_FINDINGS", "md", "workflow_data", "workflow_property"]

MAX_SUMMARY_FINDINGS: Final = 30
"""Findings (validate) or failing cases (conformance) listed in a summary; the rest are counted."""

_MD_SPECIAL: Final = re.compile(r"([\\`*_\[\]|~])")


def md(s: str) -> str:
    """A string from input as inert Markdown text (one line; no markup, no HTML, no link)."""
    return html.escape(_MD_SPECIAL.sub(r"\\\1", sanitize(s)), quote=False)


def workflow_data(s: str) -> str:
    """Sanitised (no control character, so no line break), then `%` escaped as workflow commands want."""
    return sanitize(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(s: str) -> str:
    """A workflow command property value (`title=...`): data, with `:` and `,` escaped too."""
    return workflow_data(s).replace(":", "%3A").replace(",", "%2C")
