"""The ecosystem peers of `make bench` (go/bench-peers, rust/bench-peers) decode into structs that mirror
the schema: every property of every object, every payload variant and every enum value is there, so a
peer never skips a field the strict decoder fills (a schema change that the mirrors miss goes red here).
And the built peers decode the example trace and refuse an unknown payload type: they parse, not skip."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REQUIRE_TOOLS, ROOT

if str(ROOT) not in sys.path:  # the bench harness is run from the checkout (`python -m bench.run`), not installed
    sys.path.insert(0, str(ROOT))
let_through = importlib.import_module("bench.let_through").let_through

SCHEMA = json.loads((ROOT / "schema" / "omnimessage.schema.json").read_text())["$defs"]
GO_TYPES = (ROOT / "go" / "bench-peers" / "types.go").read_text()
GO_DECODE = (ROOT / "go" / "bench-peers" / "decode.go").read_text()
RS_TYPES = (ROOT / "rust" / "bench-peers" / "src" / "types.rs").read_text()
ENVELOPES = ("SessionMetaMessage", "ModelMessage", "EventMessage")


def _fields(defn: dict[str, object]) -> set[str]:
    """The properties a mirror must hold: all but the constants (`type`, a fixed `role`), which the generated
    types leave out too."""
    props = defn.get("properties", {})
    assert isinstance(props, dict)
    return {k for k, v in props.items() if "const" not in v}


def _bodies(text: str, opener: str) -> dict[str, str]:
    return {m[1]: m[2] for m in re.finditer(opener + r" (\w+) (?:struct )?\{\n(.*?)\n\}", text, re.S)}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def _variants(union: str) -> set[str]:
    """The `type` constants of a payload union (its members, through nested unions)."""
    out: set[str] = set()
    for ref in SCHEMA[union]["oneOf"]:
        name = ref["$ref"].rsplit("/", 1)[1]
        out |= _variants(name) if "oneOf" in SCHEMA[name] else {SCHEMA[name]["properties"]["type"]["const"]}
    return out


OBJECTS = sorted(n for n, d in SCHEMA.items() if "properties" in d)


@pytest.mark.parametrize("name", OBJECTS)
def test_the_go_mirror_has_every_property(name: str) -> None:
    structs = _bodies(GO_TYPES + GO_DECODE, "type")
    body = structs["envelope" if name in ENVELOPES else name]
    assert set(re.findall(r'json:"(\w+)"', body)) >= _fields(SCHEMA[name])


@pytest.mark.parametrize("name", OBJECTS)
def test_the_rust_mirror_has_every_property(name: str) -> None:
    body = _bodies(RS_TYPES, "pub struct")[name]
    assert set(re.findall(r"pub (\w+):", body)) == _fields(SCHEMA[name])


def test_the_mirrors_have_every_payload_variant_and_enum_value() -> None:
    for union, go_map in (("ModelPayload", "modelPayloads"), ("EventPayload", "eventPayloads")):
        go_body = re.search(rf"var {go_map} = map\[string\]func\(\) any\{{\n(.*?)\n\}}", GO_DECODE, re.S)
        assert go_body is not None
        assert set(re.findall(r'^\s*"(\w+)":', go_body[1], re.M)) == _variants(union)
        rs_body = _bodies(RS_TYPES, "pub enum")[union]
        assert {_snake(v) for v in re.findall(r"^\s*(\w+)\(", rs_body, re.M)} == _variants(union)
    enums = {m[1]: {_snake(v.strip()) for v in m[2].split(",") if v.strip()}
             for m in re.finditer(r"snake_enum!\((\w+) \{(.*?)\}\);", RS_TYPES, re.S)}
    for name, defn in SCHEMA.items():
        if "enum" in defn and name != "AbortErrorCode":  # AbortErrorCode: a subset of ErrorCode, not a field type
            assert enums[name] == set(defn["enum"]), name


PEERS = [
    ("OMNIMESSAGE_GO_PEERS_BIN", ROOT / "go" / "bin" / "omnimessage-go-peers", "encoding-json-structs"),
    ("OMNIMESSAGE_GO_PEERS_BIN", ROOT / "go" / "bin" / "omnimessage-go-peers", "go-json-structs"),
    ("OMNIMESSAGE_RS_PEERS_BIN", ROOT / "rust" / "bench-peers" / "target" / "release" / "omnimessage-rs-peers",
     "serde-json-typed"),
    ("OMNIMESSAGE_RS_PEERS_BIN", ROOT / "rust" / "bench-peers" / "target" / "release" / "omnimessage-rs-peers",
     "sonic-rs-typed"),
]


@pytest.mark.parametrize(("env", "default", "mode"), PEERS, ids=[p[2] for p in PEERS])
def test_a_built_peer_decodes_the_trace_and_refuses_an_unknown_payload(
    env: str, default: Path, mode: str, tmp_path: Path
) -> None:
    binary = Path(os.environ.get(env) or default)
    if not binary.is_file() and not REQUIRE_TOOLS:
        pytest.skip(f"{binary} is not built (make peers-build)")
    trace = ROOT / "examples" / "trace.jsonl"

    def accepted(path: Path) -> int:
        out = subprocess.run([str(binary), "bench", mode, str(path)], capture_output=True, text=True, check=True)
        return int(json.loads(out.stdout)["accepted"])

    lines = trace.read_bytes().splitlines()
    assert accepted(trace) == len(lines) > 0
    payload = b'"payload":{"type":"'
    line = next(x for x in lines if payload in x)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(line.replace(payload, payload + b"no_such_") + b"\n" + line.replace(b'"type":"', b'"type":"x', 1))
    assert accepted(bad) == 0


def test_let_through_counts_what_each_row_accepts_of_the_rejection_cases() -> None:
    binaries = [Path(os.environ.get(env) or default) for env, default, _ in PEERS]
    if not all(b.is_file() for b in binaries) and not REQUIRE_TOOLS:
        pytest.skip("the peers are not built (make peers-build)")
    lt = let_through()
    assert lt["cases"]["duplicate_key"] > 0 and "too_large" not in lt["cases"]
    for peer in ("go-encoding-json-structs", "go-goccy-json-structs", "rust-serde-json-typed", "rust-sonic-rs-typed"):
        assert set(lt["accepted"][peer]) == set(lt["cases"])
    # encoding/json keeps the last of two keys; serde refuses a known one twice but never looks at unknown keys
    assert lt["accepted"]["go-encoding-json-structs"]["duplicate_key"] > 0
    assert lt["accepted"]["rust-serde-json-typed"]["unexpected_field"] == lt["cases"]["unexpected_field"]
    for ours in ("omnimessage-go", "omnimessage-rust"):
        if ours in lt["accepted"]:
            assert set(lt["accepted"][ours].values()) == {0}, ours
