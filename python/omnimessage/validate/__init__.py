"""The OmniMessage protocol validator: rules over sequences of messages.

    >>> from omnimessage.validate import Validator
    >>> v = Validator("trace", source="t.jsonl")
    >>> line = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}'
    >>> findings = [*v.feed(line), *v.finish()]
    >>> [(f.rule, f.line) for f in findings]
    [('OM201', 1), ('OM420', 1)]

`omnimessage validate` is the command line (see `omnimessage validate --help`); the rules are
listed in docs/rules.md, generated from :data:`RULES`.
"""

from .engine import Finding, Validator
from .rules import RULES, Rule

__all__ = ["RULES", "Finding", "Rule", "Validator"]
