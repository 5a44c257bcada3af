"""The generator: the model mirrors the schema, output is deterministic, and bad schemas fail loudly."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from omnimessage_codegen import load_schema, schema_path
from omnimessage_codegen.loader import SchemaShapeError, build_model
from omnimessage_codegen.model import Verbatim
from omnimessage_codegen.targets import render

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
    assert ids == [f"OM{n}" for n in range(101, 114)]


def test_every_target_has_a_summary_and_emitters_may_not_collide() -> None:
    from omnimessage_codegen.targets import TARGETS, Target

    assert set(TARGETS) == {"python", "typescript", "markdown", "pydantic"}
    for name, t in TARGETS.items():
        assert t.name == name and t.summary and t.emitters
    clash = Target("x", "two emitters, one file", (lambda m: {"a": "1"}, lambda m: {"a": "2"}))
    with pytest.raises(ValueError, match="two emitters write a"):
        clash.render(load_schema())


@pytest.mark.parametrize("target", ["python", "typescript", "markdown"])
def test_generated_files_say_how_they_were_made_and_get_normal_modes(target: str, tmp_path: Path) -> None:
    import os
    import stat

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
        assert f"`omnimessage generate --target {target}`" in text, path
        assert "make generate" not in text, path
