"""The OmniMessage protocol validator: rules over sequences of messages.

    >>> from omnimessage.validate import Validator
    >>> v = Validator("trace", source="t.jsonl")
    >>> line = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}'
    >>> findings = [*v.feed(line), *v.finish()]
    >>> [(f.rule, f.line) for f in findings]
    [('OM201', 1), ('OM420', 1)]

`finish()` is mandatory: the end-of-input rules (OM002, a last line with no line feed; unclosed
streams and calls) run there. `Validator.validate_lines(lines)` feeds and finishes in one go:

    >>> [f.rule for f in Validator("trace").validate_lines([line])]
    ['OM201', 'OM420']

Whole files, trace roots (sessions of rotated files) and live SSE producers are validated as the
command line does by :func:`validate_path` and :func:`validate_url`, which return a :class:`Report`.
`omnimessage validate` is the command line (see `omnimessage validate --help`); the rules are
listed in docs/rules.md, generated from :data:`RULES`.
"""

from omnimessage.validate.engine.rules import RULES, Rule
from omnimessage.validate.engine.validator import Finding, Validator
from omnimessage.validate.reporting.report import Report

from .api import validate_path, validate_url
from .archive import validate_archive

__all__ = ["RULES", "Finding", "Report", "Rule", "Validator", "validate_archive", "validate_path", "validate_url"]
