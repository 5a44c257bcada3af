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
