"""The generator: the model mirrors the schema, output is deterministic, and bad schemas fail loudly."""

from __future__ import annotations

import copy
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from omnimessage_codegen import load_schema, load_testee_protocol, schema_path
from omnimessage_codegen.loader import SchemaShapeError, build_model
from omnimessage_codegen.model import Verbatim
from omnimessage_codegen.targets import render
from omnimessage_codegen.version import generator_version

ROOT = Path(__file__).resolve().parents[2]

DOC = json.loads(schema_path().read_text())


def test_schema_is_valid_2020_12_with_versioned_id() -> None:
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(DOC)
    assert DOC["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert DOC["$id"].startswith("urn:omnimessage:schema:") and DOC["$id"].count(".") == 2


def test_every_definition_and_property_has_a_description_and_objects_are_closed() -> None:
    for name, d in DOC["$defs"].items():
        assert d.get("description"), name
        if d.get("type") == "object" and "properties" in d:
            assert d["additionalProperties"] is False, name
            for prop, pd in d["properties"].items():
                assert pd.get("description"), f"{name}.{prop}"


def test_payload_counts_match_the_protocol() -> None:
    m = load_schema()
    assert len(m.unions["CompleteModelPayload"].members) == 7
    assert len(m.unions["PartialModelPayload"].members) == 4
    assert len(m.unions["EventPayload"].members) == 12
    assert [e.struct.tag for e in m.envelopes] == ["session_meta", "model_msg", "event_msg"]


def test_model_fields_keep_schema_property_order() -> None:
    m = load_schema()
    for s in m.structs.values():
        props = [p for p in DOC["$defs"][s.name]["properties"] if not (p == "type" and s.tag)]
        assert [f.name for f in s.fields] == props, s.name


def test_verbatim_locations() -> None:
    locs = load_schema().verbatim_locations()
    assert locs[("model_msg", "text")] == [(("fidelity",), "object")]
    assert locs[("event_msg", "tool_list_ready")] == [(("tools", "*", "parameters"), "object")]
    assert locs[("event_msg", "hook")] == [(("output",), "scalar_map")]
    assert ("model_msg", "tool_call_output") not in locs
    assert isinstance(load_schema().aliases["Fidelity"].type, Verbatim)


@pytest.mark.parametrize("target", ["python", "markdown"])
def test_rendering_is_deterministic(target: str) -> None:
    assert render(target, load_schema()) == render(target, load_schema())


def test_generated_python_is_what_is_committed() -> None:
    committed = Path(__file__).resolve().parents[2] / "python" / "omnimessage" / "_generated"
    for rel, text in render("python", load_schema()).items():
        assert (committed / rel).read_text() == text, f"{rel} is stale: run `make generate`"


def _broken(mutate: object) -> dict[str, object]:
    doc = copy.deepcopy(DOC)
    mutate(doc)  # type: ignore[operator]
    return doc


def _complete_needs_more(d: dict[str, Any]) -> None:
    """A complete payload with a required field no fragment has: nothing could assemble it."""
    thinking = d["$defs"]["ThinkingPayload"]
    thinking.pop("x-omnimessage-builders", None)
    thinking["properties"]["extra"] = {"description": "More.", "type": "string"}
    thinking["required"].append("extra")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["$defs"]["TextPayload"].pop("description"), "needs a description"),
        (lambda d: d["$defs"]["TextPayload"]["properties"]["text"].pop("description"), "every property needs"),
        (lambda d: d["$defs"]["TextPayload"].__setitem__("additionalProperties", True), "additionalProperties"),
        (lambda d: d["$defs"]["TextPayload"]["properties"]["text"].__setitem__("type", "date"), "unsupported"),
        (lambda d: d["$defs"]["TextPayload"]["properties"]["text"].__setitem__("$ref", "other.json#/x"), "only local"),
        (lambda d: d["$defs"]["TextPayload"]["required"].append("nope"), "unknown properties"),
        (lambda d: d["$defs"]["ToolDefinition"]["properties"]["parameters"].__setitem__("type", "array"), "verbatim"),
        (lambda d: d["$defs"]["PartialTextPayload"]["x-omnimessage-fragment-of"].__setitem__("field", "nope"), "string field"),
        (lambda d: d["$defs"]["PartialTextPayload"]["x-omnimessage-fragment-of"].__setitem__("payload", "X"), "unknown payload"),
        (lambda d: d["$defs"]["TextPayload"]["x-omnimessage-builders"]["user_text"]["positional"].remove("text"), "neither parameters nor fixed"),
        (lambda d: d["$defs"]["TextPayload"]["x-omnimessage-builders"]["user_text"]["keyword"].append("nope"), "names no field"),
        (lambda d: d["$defs"]["TextPayload"]["x-omnimessage-builders"]["user_text"]["keyword"].append("text"), "given twice"),
        (lambda d: d["$defs"]["TextPayload"]["x-omnimessage-builders"]["user_text"].__setitem__("defaults", {"role": "user"}), "defaults only"),
        (lambda d: d["$defs"]["TextPayload"]["x-omnimessage-builders"]["user_text"].__setitem__("color", 1), "unknown keys"),
        (lambda d: d["$defs"]["Role"].__setitem__("x-omnimessage-guard", {"python": "a", "typescript": "b"}), "envelope or a payload union"),
        (lambda d: d["x-omnimessage-rejections"]["invalid_json"]["rule"].pop("hint"), "exactly the strings"),
        (lambda d: d["$defs"]["PartialToolCallPayload"]["required"].remove("event_type"), "required enum field 'event_type'"),
        (_complete_needs_more, "ThinkingPayload.extra is required but PartialThinkingPayload has no such field"),
        (lambda d: d["$defs"]["PartialToolCallPayload"]["required"].remove("name"), "no rule assembles ToolCallPayload.name"),
    ],
)
def test_unknown_constructs_fail_loudly(mutate: object, message: str) -> None:
    with pytest.raises(SchemaShapeError, match=message):
        build_model(_broken(mutate))


def test_every_partial_streams_a_complete_payload() -> None:
    m = load_schema()
    partials = m.unions["PartialModelPayload"].members
    assert {p: m.structs[p].fragment_of for p in partials} == {
        "PartialTextPayload": ("TextPayload", "text"),
        "PartialThinkingPayload": ("ThinkingPayload", "thinking"),
        "PartialToolCallPayload": ("ToolCallPayload", "arguments"),
        "PartialToolCallOutputPayload": ("ToolCallOutputPayload", "output"),
    }


def test_every_partial_says_how_its_segment_is_assembled() -> None:
    """The aggregators' table (every binding's is generated from this): each field of the complete
    payload with where it comes from, as the Python aggregator assembles it."""
    m = load_schema()
    how = {a.partial: (a.complete, a.key, {f.name: (f.how, f.value) for f in a.fields}) for a in m.assemblies}
    stop, absent = ("stop", None), ("absent", None)
    assert how == {
        "PartialTextPayload": ("TextPayload", None, {
            "role": ("fixed", "assistant"), "text": ("text", None), "stop_reason": stop, "fidelity": absent,
            "sender": absent}),
        "PartialThinkingPayload": ("ThinkingPayload", None, {
            "role": ("fixed", "assistant"), "thinking": ("text", None), "stop_reason": stop, "fidelity": absent}),
        "PartialToolCallPayload": ("ToolCallPayload", "tool_call_id", {
            "role": ("fixed", "assistant"), "name": ("copy", None), "arguments": ("text", None),
            "tool_call_id": ("copy", None), "stop_reason": stop, "fidelity": absent}),
        "PartialToolCallOutputPayload": ("ToolCallOutputPayload", "tool_call_id", {
            "role": ("fixed", "user"), "output": ("text", None), "images": ("carry", None),
            "tool_call_id": ("copy", None), "stop_reason": stop}),
    }
    assert all(a.envelope == "ModelMessage" for a in m.assemblies)


def test_every_builder_and_guard_of_the_reference_sdk_is_declared() -> None:
    m = load_schema()
    assert len(m.builders) == 27 and len({b.name for b in m.builders}) == 27
    assert {g.python for g in m.guards} == {"is_model", "is_partial", "is_complete_model", "is_event", "is_session_meta"}
    by_name = {b.name: b for b in m.builders}
    assert dict(by_name["assistant_text"].defaults) == {"stop_reason": "completed"}
    assert dict(by_name["user_text"].fixed) == {"role": "user", "stop_reason": "completed"}


def test_rejection_rules_come_from_the_schema() -> None:
    m = load_schema()
    rules = {r.name: r.rule for r in m.rejections}
    assert rules["truncated"] is None  # decided by the reader: OM001
    ids = [r.id for r in rules.values() if r is not None]
    assert rules["line_break"] is not None and rules["line_break"].id == "OM118"  # added after OM113 (issue 32)
    assert sorted(ids) == [*(f"OM{n}" for n in range(101, 114)), "OM118"]


def test_every_target_has_a_summary_and_emitters_may_not_collide() -> None:
    from omnimessage_codegen.targets import TARGETS, Target

    assert set(TARGETS) == {"python", "typescript", "typescript-types", "rust", "go", "markdown", "pydantic", "c",
                            "python-testee", "typescript-testee", "rust-testee", "go-testee"}
    for name, t in TARGETS.items():
        assert t.name == name and t.summary and t.emitters
    clash = Target("x", "two emitters, one file", (lambda m: {"a": "1"}, lambda m: {"a": "2"}))
    with pytest.raises(ValueError, match="two emitters write a"):
        clash.render(load_schema())


@pytest.mark.parametrize("target", ["python", "typescript", "typescript-types", "markdown"])
def test_generated_files_say_how_they_were_made_and_get_normal_modes(target: str, tmp_path: Path) -> None:
    from omnimessage_codegen.targets import generate

    old = os.umask(0o022)
    try:
        written = generate(target, load_schema(), tmp_path)
    finally:
        os.umask(old)
    assert written
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
        text = path.read_text(encoding="utf-8")
        head = "\n".join(text.splitlines()[:6])
        by = f" (omnimessage {generator_version()})"  # the generator's version, in every target
        made = f"from schema {load_schema().schema_id}, protocol {load_schema().protocol}; do not edit."
        assert f"Generated by `omnimessage generate --target {target}`{by} {made}" in head, path
        assert "make generate" not in text, path
        if target == "python":  # the runtime, imported by name, is the codec: the header says what to encode with
            assert "`omnimessage.runtime`" in head and "this package's `decode`/`encode`" in head, path
            assert "not byte-exact" in head, path
        if target == "typescript":  # not standalone codecs: the header says what to encode with
            assert "not a standalone codec" in head, path
            assert "npm package" in head, path
            assert "not byte-exact" in head, path
        if target == "typescript-types":  # types only: says so, and where the codec is
            assert "imports nothing outside this folder" in head and "Not a codec" in head, path
            assert "not byte-exact" in head and "`omnimessage` npm package" in head, path


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_the_cli_writes_generated_files_with_the_modes_of_a_normal_file_create(umask: int, tmp_path: Path) -> None:
    out = tmp_path / "gen"
    out.mkdir()
    (out / "models.py").write_text("stale\n")
    (out / "models.py").chmod(0o600)  # a file left by an older generator: replaced with the normal mode
    r = subprocess.run([sys.executable, "-m", "omnimessage", "generate", "--target", "python", "--out", str(out)],
                       capture_output=True, text=True, umask=umask, timeout=120)
    assert r.returncode == 0, r.stderr
    files = sorted(p for p in out.iterdir() if p.is_file())
    assert {p.name for p in files} == {"__init__.py", "models.py", "codec.py", "builders.py", "guards.py"}  # no temporary left
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~umask, (p, oct(p.stat().st_mode))


def test_generate_help_lists_every_documented_target_and_the_paths_it_writes() -> None:
    from omnimessage_codegen.targets import DOCUMENTED, TARGETS

    r = subprocess.run([sys.executable, "-m", "omnimessage", "generate", "--help"], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    listing = r.stdout.split("\ntargets (each in a fresh project: docs/bindings.md):\n", 1)[1].splitlines()
    names, writes = listing[0::2], listing[1::2]
    own = {"c", "python-testee", "typescript-testee", "rust-testee", "go-testee"}  # the project's own targets
    assert [line.split()[0] for line in names] == list(DOCUMENTED) == [t for t in TARGETS if t not in own], r.stdout
    for line, paths, name in zip(names, writes, DOCUMENTED, strict=True):
        assert line.split(None, 1)[1] == TARGETS[name].summary, line
        assert paths.split() == ["writes", *(f"DIR/{p}," for p in TARGETS[name].writes[:-1]),
                                 f"DIR/{TARGETS[name].writes[-1]}"], paths
    assert "not byte-exact" in r.stdout and "codec is the" in r.stdout
    assert " c " not in r.stdout.replace("\n", " ") and "omv_table" not in r.stdout  # the project's own target


def test_every_documented_target_is_in_the_bindings_doc() -> None:
    from omnimessage_codegen.targets import DOCUMENTED

    doc = (ROOT / "docs" / "bindings.md").read_text(encoding="utf-8")
    for name in DOCUMENTED:
        assert f"omnimessage generate --target {name} --out" in doc, name
    assert "--target c " not in doc


def test_what_help_says_a_target_writes_is_what_it_writes() -> None:
    import fnmatch

    from omnimessage_codegen.targets import TARGETS

    model, testee = load_schema(), load_testee_protocol()
    for name, t in TARGETS.items():
        if t.missing():
            continue
        written = set(render(name, testee if t.schema == "testee-protocol" else model))
        assert t.writes, name
        for pattern in t.writes:
            assert fnmatch.filter(written, pattern), (name, pattern)
        assert {w for w in written if not any(fnmatch.fnmatchcase(w, p) for p in t.writes)} == set(), name


def test_what_the_python_header_says_msgspec_alone_does_is_true() -> None:
    """The header of the `python` target's files says msgspec.json alone is not byte-exact; if that
    ever stops being true the header must change (and so must README.md)."""
    import msgspec

    import omnimessage as om
    from omnimessage._generated.models import Message

    line = (b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg",'
            b'"payload":{"type":"text","role":"user","text":"hi","fidelity":{"sig" : 1.0}}}')
    alone = msgspec.json.encode(msgspec.json.decode(line, type=Message))
    assert alone.startswith(b'{"type":"model_msg","timestamp"') and alone != line  # the envelope tag first
    assert om.encode(om.decode(line)) == line
    dup = line.replace(b'"text":"hi"', b'"text":"hi","text":"ho"')
    payload = msgspec.json.decode(dup, type=Message).payload
    assert isinstance(payload, om.TextPayload) and payload.text == "ho"  # the duplicate key passes, the last wins
    with pytest.raises(om.DecodeError) as exc:
        om.decode(dup)
    assert exc.value.category == "duplicate_key"
    assert msgspec.json.encode(1e21) == b"1e21"  # ECMAScript (the canonical spelling): 1e+21
    header = generate_header_of("python")
    assert "type` first" in header and "duplicate keys" in header and "numbers" in header


def generate_header_of(target: str) -> str:
    files = render(target, load_schema())
    return "\n".join(next(iter(files.values())).splitlines()[:6])
