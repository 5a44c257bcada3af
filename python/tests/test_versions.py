"""Protocol versions: the schema of each version (derived from the version marks) holds the
producer corpus files written in it, auto detection reads their version, and `--protocol`
names resolve as documented (`legacy` is --legacy, `newer` is --lenient)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import jsonschema
import pytest
from conftest import ROOT

from omnimessage.schema.versions import LEGACY, NEWER, derive, detect, newest, outside, resolve, versions

CORPUS = ROOT / "conformance" / "producers"
ENTRIES: list[dict[str, Any]] = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))["entries"]
VERSIONED = [e for e in ENTRIES if e["protocol"] in versions() and e["input"] != "sse"]


def _messages(entry: dict[str, Any]) -> list[Any]:
    path = CORPUS / entry["path"]
    files = sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
    out = []
    for f in files:
        for raw in f.read_bytes().split(b"\n"):
            if raw.strip():
                with contextlib.suppress(ValueError):  # a crash's torn line is not a message
                    out.append(json.loads(raw))
    return out


@pytest.mark.parametrize("entry", VERSIONED, ids=lambda e: str(e["path"]))
def test_every_corpus_file_fits_the_schema_of_its_version(entry: dict[str, Any]) -> None:
    schema = derive(entry["protocol"])
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = [(m.get("payload", {}).get("type"), e.message) for m in _messages(entry) for e in validator.iter_errors(m)]
    assert not bad, bad[:3]


@pytest.mark.parametrize("entry", VERSIONED, ids=lambda e: str(e["path"]))
def test_auto_reads_a_version_that_holds_the_file(entry: dict[str, Any]) -> None:
    found = detect(_messages(entry))
    assert not found.mixed
    rank = versions().index
    assert rank(found.lowest) <= rank(entry["protocol"]) <= rank(found.version), found
    if entry["path"].startswith("legacy-"):
        assert found.version == entry["protocol"], found  # an old release's file says exactly which


def test_an_older_version_schema_refuses_what_came_later() -> None:
    """The derived schemas differ where the marks say: prefix fields only from next, `retryable`
    only from 0.2.6, meta `tools` only before 0.2.2."""
    msg = {"timestamp": "2026-10-12T02:04:31.207Z", "type": "event_msg",
           "payload": {"type": "request_begin", "prefix_hash": "5d41402abc4b2a76b9719d911017c592",
                       "prefix_head_hash": "7d793037a0760186574b0282f2f435e7", "prefix_records": 1, "prefix_chars": 2}}
    assert jsonschema.Draft202012Validator(derive(newest())).is_valid(msg)
    assert not jsonschema.Draft202012Validator(derive("0.2.6")).is_valid(msg)
    assert [s.pointer for s in outside(msg, "0.2.6")] == [f"/payload/{k}" for k in msg["payload"] if k != "type"]
    assert not outside(msg, newest())
    end = {"timestamp": "2026-10-12T02:04:31.207Z", "type": "event_msg",
           "payload": {"type": "request_end", "status": "retryable"}}
    assert jsonschema.Draft202012Validator(derive("0.2.6")).is_valid(end)
    assert not jsonschema.Draft202012Validator(derive("0.2.4")).is_valid(end)
    enums = {v: derive(v)["$defs"]["StopReason"]["enum"] for v in versions()}
    assert "failed" in enums["0.2.4"] and "failed" not in enums["0.2.6"] and "auth" not in enums["0.1.1"]


def test_derived_schema_files_are_fresh() -> None:
    for v in versions():
        data = (ROOT / "schema" / "versions" / f"{v}.schema.json").read_text(encoding="utf-8")
        assert json.loads(data) == derive(v)


def test_spellings_of_the_old_switches() -> None:
    assert resolve(LEGACY).legacy and not resolve(LEGACY).gated
    assert resolve(NEWER).lenient and resolve(NEWER).version == newest()
    assert resolve(None) == resolve(newest())
    assert resolve("0.2.4").gated and resolve("0.2.4").legacy  # its own spellings read by the legacy machinery
    assert "compaction-streams-thinking" in resolve(newest()).behaviours
    assert "compaction-streams-thinking" not in resolve("0.2.6").behaviours
    with pytest.raises(ValueError, match="unknown protocol"):
        resolve("9.9")


def test_every_version_mark_names_a_listed_version() -> None:
    doc = json.loads((ROOT / "schema" / "omnimessage.schema.json").read_text(encoding="utf-8"))
    listed = set(doc["x-omnimessage-versions"])

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "x-omnimessage-version":
                    assert v["since"] in listed
                elif k == "x-omnimessage-value-versions":
                    assert all(x["since"] in listed for x in v.values())
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(doc)
    for e in doc["x-omnimessage-retired"].values():
        assert e["since"] in listed and e["until"] in listed
    for name, d in doc["$defs"].items():
        if "properties" in d:
            assert "x-omnimessage-version" in d, name
            assert all("x-omnimessage-version" in p for p in d["properties"].values()), name


def test_generated_bindings_state_the_protocol_version() -> None:
    from omnimessage._generated.models import PROTOCOL_VERSION

    assert newest() == PROTOCOL_VERSION
    ts = (ROOT / "typescript" / "src" / "generated" / "schema.ts").read_text(encoding="utf-8")
    assert f'export const PROTOCOL_VERSION = "{newest()}";' in ts
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert f"speaks protocol **{newest()}**" in doc
    assert "| `prefix_hash` | string | optional | `next` |" in doc  # each field says when it appeared
