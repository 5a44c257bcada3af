"""The testee protocol's schema as a model (testee_loader.py) and the files its targets write."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from omnimessage_codegen import load_schema, load_testee_protocol
from omnimessage_codegen.model import TESTEE_PROTOCOL, AnyOf, ArrayOf, Const, Prim, StructRef
from omnimessage_codegen.targets import TARGETS, render
from omnimessage_codegen.testee_loader import ProtocolShapeError, build_testee_model

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "conformance" / "testee-protocol.schema.json"
WRITTEN = {  # where `make generate` writes each target's file (the Makefile's GENERATED)
    "python-testee": ROOT / "python" / "omnimessage" / "conformance",
    "typescript-testee": ROOT / "typescript" / "src" / "cli",
    "rust-testee": ROOT / "rust" / "src" / "bin" / "omnimessage-rs",
    "go-testee": ROOT / "go" / "cmd" / "omnimessage-go",
}


def _doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return doc


def test_the_package_carries_the_schema_the_repository_has() -> None:
    assert load_testee_protocol() == load_schema(SCHEMA)


def test_the_schema_reads_into_the_model() -> None:
    m = load_testee_protocol()
    assert m.kind == TESTEE_PROTOCOL and m.unions["answer"].members == ("encoded", "refused", "skipped", "rendered",
                                                                        "error")
    fields = {f.name: f for f in m.structs["refused"].fields}
    assert fields["result"].type == Const("refused") and fields["id"].alias == "case_id"
    assert fields["offset"].type == AnyOf((Prim("integer", 0), Prim("null"))) and not fields["offset"].required
    assert m.aliases["protocol"].type == Prim("integer", 1, 1)
    cards = next(f for f in m.structs["rendered"].fields if f.name == "cards")
    assert cards.type == ArrayOf(StructRef("card"), 0, 1024)
    mode = next(f for f in m.structs["request"].fields if f.name == "mode")
    assert mode.type == AnyOf((Const("strict"), Const("lenient")))


def test_every_line_type_is_generated_in_every_language() -> None:
    flat = ("RunnerHello", "TesteeHello", "Request", "Encoded", "Refused", "Skipped", "ConsumerRequest", "Error")
    for target in WRITTEN:
        (text,) = render(target, load_testee_protocol()).values()
        nested = () if target == "rust-testee" else ("Card", "Rendered")  # Rust: the flat objects, with readers
        define = {"python-testee": "class {}(TypedDict):", "typescript-testee": "export interface {} {{",
                  "rust-testee": "pub struct {} {{", "go-testee": "type {} struct {{"}[target]
        for name in (*flat, *nested):
            assert define.format(name) in text, (target, name)


def test_what_make_generate_wrote_is_what_the_schema_says() -> None:
    """`make check-generated` is the gate (it diffs every generated file); this says the same for these
    three files alone, in the codegen tests."""
    for target, folder in WRITTEN.items():
        for rel, text in render(target, load_testee_protocol()).items():
            assert (folder / rel).read_text(encoding="utf-8") == text, f"{folder / rel} is stale: run `make generate`"


@pytest.mark.parametrize(("edit", "pointer"), [
    (lambda d: d["$defs"]["refused"]["properties"]["offset"].update(type="number"), "#/$defs/refused/properties/offset"),
    (lambda d: d["$defs"]["protocol"].update(const=True), "#/$defs/protocol"),
    (lambda d: d["$defs"]["request"]["properties"]["mode"].update(enum=["strict", 1]), "#/$defs/request/properties/mode"),
    (lambda d: d["$defs"]["answer"]["oneOf"].append({"$ref": "#/$defs/base64"}), "#/$defs/answer"),
    (lambda d: d["$defs"]["encoded"]["required"].append("nope"), "#/$defs/encoded"),
    (lambda d: d["$defs"]["skipped"]["properties"]["id"].update({"$ref": "https://example.com/x"}), "#/$defs/skipped"),
    (lambda d: d["$defs"]["card"].pop("description"), "#/$defs/card"),
])
def test_a_construct_the_targets_cannot_express_is_refused_with_its_pointer(edit: Any, pointer: str) -> None:
    doc = copy.deepcopy(_doc())
    edit(doc)
    with pytest.raises(ProtocolShapeError, match=pointer.replace("$", r"\$")):
        build_testee_model(doc)


def test_a_target_renders_only_its_kind_of_schema() -> None:
    with pytest.raises(ValueError, match="renders the testee-protocol schema"):
        TARGETS["python-testee"].render(load_schema())
    with pytest.raises(ValueError, match="renders the message schema"):
        TARGETS["python"].render(load_testee_protocol())


def test_generate_writes_a_testee_target_from_the_packaged_schema(tmp_path: Path) -> None:
    """`make generate`'s command for these targets; `--protocol` (a message schema version) does not apply."""
    r = subprocess.run([sys.executable, "-m", "omnimessage", "generate", "--target", "go-testee", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "testee_protocol.go").read_text(encoding="utf-8") == (WRITTEN["go-testee"] / "testee_protocol.go"
                                                                            ).read_text(encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "omnimessage", "generate", "--target", "go-testee", "--protocol", "1.0",
                        "--out", str(tmp_path / "x")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--protocol does not apply" in r.stderr and not (tmp_path / "x").exists(), r.stderr
