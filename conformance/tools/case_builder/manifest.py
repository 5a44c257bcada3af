# ruff: noqa: E501  (fixture lines are long literals)
"""`manifest.json` and the case files: every group generated in order, then serialised."""

from __future__ import annotations

import json
import re
from typing import Any

from omnimessage.conformance.levels import LEVELS, level_by_rule

from .canonicalization import generate_canonicalization
from .collector import CASES
from .contract_points import generate_contract_points
from .contract_rules import generate_contract_rules
from .escaped_type import generate_escaped_type
from .hostile import generate_hostile, tag_existing_hostile
from .lenient import generate_lenient
from .one_line import generate_one_line
from .rejection_lexical import generate_lexical_rejections
from .rejection_structure import generate_structure_rejections
from .rejection_syntax import generate_syntax_rejections
from .rejection_values import generate_value_rejections
from .roundtrip import generate_roundtrip
from .schema_facts import SCHEMA, SUITE_VERSION
from .third_party import generate_third_party
from .verbatim import generate_verbatim


def assign_levels(cases: list[dict[str, Any]]) -> None:
    """Give every case its level (`required` or `recommended`): one a case states itself must be a
    level; else the rule of omnimessage.conformance.levels decides (a case needing an optional
    feature is recommended; otherwise the level of the contract section it cites). A case no rule
    decides stops the build with an error naming it."""
    for c in cases:
        if "level" in c:
            if c["level"] not in LEVELS:
                raise BuildError(f"case {c['id']}: level {c['level']!r} is not one of {', '.join(LEVELS)}")
            continue
        level = level_by_rule(c["spec"], c.get("features", ()))
        if level is None:
            raise BuildError(
                f"case {c['id']}: no level: it cites section {c['spec']!r} of schema/README.md, which "
                "SECTION_LEVELS in python/omnimessage/conformance/levels.py does not list; add the section "
                "there (with the key word that decides it) or give the case a \"level\""
            )
        c["level"] = level


class BuildError(Exception):
    """The cases cannot be written as they are (generate.py prints it and exits 1)."""


def build() -> tuple[dict[str, bytes], bytes]:
    generate_roundtrip()
    generate_verbatim()
    generate_canonicalization()
    generate_syntax_rejections()
    generate_lexical_rejections()
    generate_structure_rejections()
    generate_value_rejections()
    generate_lenient()
    generate_hostile()
    tag_existing_hostile()
    generate_third_party()
    generate_contract_rules()
    generate_contract_points()
    generate_escaped_type()
    generate_one_line()
    assign_levels(CASES.cases)
    groups = {
        "roundtrip": {
            "spec": "2",
            "description": "Canonical lines of every payload kind, optional field, enum value, origin depth, unicode edge and large value: each must re-encode to itself byte for byte.",
        },
        "verbatim": {
            "spec": "3",
            "description": "fidelity, tool parameters and hook output written every way a re-serialiser would change them: each must survive byte for byte.",
        },
        "canonicalization": {
            "spec": "2",
            "description": "Valid but non-canonical lines (key order, whitespace, escapes, number spelling) and the exact canonical bytes they re-encode to.",
        },
        "rejection": {
            "spec": "4",
            "description": "One defect per line, each rejection category several times (precedence cases tagged `precedence`): each must be refused with that category.",
        },
        "lenient": {
            "spec": "5",
            "description": "The optional lenient mode (feature `lenient`; a testee without it answers `skipped`).",
        },
        "protocol": {
            "spec": "8",
            "home": "validator/",
            "description": "Whole streams and traces for validators (`omnimessage validate`), valid and invalid: see validator/README.md. Not sent to codec testees.",
        },
    }
    manifest = {
        "$schema": "./manifest.schema.json",
        "suite_version": SUITE_VERSION,
        "schema_id": SCHEMA["$id"],
        "protocol_version": 1,
        "groups": groups,
        "cases": CASES.cases,
    }
    head = {k: v for k, v in manifest.items() if k != "cases"}
    text = json.dumps(head, indent=2, ensure_ascii=False)[:-2] + ',\n  "cases": [\n'
    text += ",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in CASES.cases) + "\n  ]\n}\n"
    # A pointer may hold a lone surrogate (a key that escapes one), which UTF-8 cannot carry: it is
    # written as the escape JSON.stringify writes (it can only sit inside a JSON string).
    text = re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)
    assert json.loads(text) == manifest
    files = {name: b"".join(lines) for name, lines in CASES.files.items()}
    return files, text.encode("utf-8")

