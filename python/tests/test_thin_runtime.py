"""`import omnimessage` and `omnimessage canonicalize` load the codec only: the validator, the
conformance runner, the generator and their dependencies are imported when their subcommand is
chosen, never before. Each check runs in a fresh interpreter and inspects `sys.modules`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT

HEAVY = ("omnimessage.validate", "omnimessage.conformance", "omnimessage_codegen", "jinja2", "jsonschema")

_PROBE = """
import io, json, sys
argv = json.loads(sys.argv[1])
import omnimessage
if argv is not None:
    from omnimessage.cli.main import main
    sys.stdout = io.TextIOWrapper(io.BytesIO())  # the command's output is not the point
    try:
        main(argv)
    except SystemExit:  # --help exits
        pass
    sys.stdout = sys.__stdout__
print(json.dumps(sorted(sys.modules)))
"""


def loaded_modules(argv: list[str] | None) -> set[str]:
    r = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv)], capture_output=True, text=True,
                       cwd=ROOT, timeout=120, check=True)
    return set(json.loads(r.stdout.splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_import_omnimessage_loads_the_codec_only() -> None:
    modules = loaded_modules(None)
    assert "omnimessage.codec.api" in modules
    assert heavy(modules) == []


def test_canonicalize_loads_the_codec_only() -> None:
    modules = loaded_modules(["canonicalize", str(ROOT / "examples" / "trace.jsonl")])
    assert "omnimessage.reader" in modules  # the command did run
    assert heavy(modules) == []


def test_schema_loads_neither_the_generator_nor_the_validator() -> None:
    assert heavy(loaded_modules(["schema"])) == []


@pytest.mark.parametrize(
    ("command", "expected", "absent"),
    [
        ("validate", "omnimessage.cli.validate", ("omnimessage.conformance", "omnimessage_codegen")),
        ("conformance", "omnimessage.conformance.command", ("omnimessage.validate", "omnimessage_codegen")),
        ("canonicalize", "omnimessage.cli.canonicalize", HEAVY),
    ],
)
def test_help_of_one_subcommand_imports_no_other(command: str, expected: str, absent: tuple[str, ...]) -> None:
    modules = loaded_modules([command, "--help"])
    assert expected in modules
    assert [m for m in modules if any(m == a or m.startswith(a + ".") for a in absent)] == []


def test_top_level_help_lists_every_subcommand_with_its_description() -> None:
    r = subprocess.run([sys.executable, "-m", "omnimessage", "--help"], capture_output=True, text=True, check=True)
    for name, description in [
        ("canonicalize", "re-encode JSON Lines canonically"),
        ("schema", "print the canonical JSON Schema"),
        ("generate", "generate bindings or docs from the schema"),
        ("conformance", "run the conformance suite against an implementation"),
        ("validate", "check traces and streams against the protocol rules"),
    ]:
        assert name in r.stdout and description in r.stdout, name
