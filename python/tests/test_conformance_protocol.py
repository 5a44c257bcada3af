"""The testee protocol: as a JSON Schema (conformance/testee-protocol.schema.json) that the runner and
every bundled testee speak, and that refuses what the protocol forbids; the Python testee's answers
to inputs that hold no line or several."""

from __future__ import annotations

import json

import pytest
from conformance_harness import BY_ID, SUITE
from conftest import ROOT, tool_path

from omnimessage.conformance.runner import run_cases


def test_python_testee_answers_empty_and_multi_line_inputs_without_crashing() -> None:
    import base64

    from omnimessage.conformance.testee import Binding, handle

    empty = handle(Binding(), {"id": 1, "input": ""})
    assert empty["result"] == "skipped" and "0 lines" in empty["reason"]  # zero bytes hold no line
    two = base64.b64encode(b'{"a":1}\n{"b":2}\n').decode()
    assert handle(Binding(), {"id": 2, "input": two})["result"] == "skipped"


# --- the testee protocol as a JSON Schema (conformance/testee-protocol.schema.json) -----------

PROTOCOL_SCHEMA = ROOT / "conformance" / "testee-protocol.schema.json"


def _protocol_validator(part: str):  # type: ignore[no-untyped-def]
    import jsonschema

    doc = json.loads(PROTOCOL_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{part}", **{k: v for k, v in doc.items() if k != "oneOf"}})


def _exchanges(argv: list[str], cases: list, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def,type-arg]
    """Every (what the runner sent, what the testee answered) of a run."""
    from omnimessage.conformance.testee_process import Testee

    seen: list[tuple[dict, dict]] = []  # type: ignore[type-arg]
    real = Testee._roundtrip

    def recording(self, msg, deadline, what):  # type: ignore[no-untyped-def]
        reply = real(self, msg, deadline, what)
        seen.append((msg, reply))
        return reply

    monkeypatch.setattr(Testee, "_roundtrip", recording)
    result = run_cases(SUITE, cases, argv)
    monkeypatch.undo()
    return result, seen


@pytest.mark.parametrize("impl", ["python", "typescript", "rust", "go", "naive-json", "pydantic"])
def test_the_runner_and_every_bundled_testee_speak_the_protocol_schema(
    impl: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from omnimessage.conformance.command import resolve_impl
    from omnimessage.conformance.fresh import fresh_cases

    if impl == "typescript" and tool_path("node") is None:
        pytest.skip("node is not on PATH")
    if impl == "rust" and tool_path("cargo") is None:
        pytest.skip("cargo is not on PATH")
    if impl == "go" and tool_path("go") is None:
        pytest.skip("go is not on PATH")
    argv = resolve_impl(impl, SUITE).argv
    cases = [*SUITE.cases, *fresh_cases(SUITE, 4242, 60)]
    result, seen = _exchanges(argv, cases, monkeypatch)
    hellos = sum(1 for sent, _ in seen if "hello" in sent)  # one per (re)start
    assert hellos >= 1 and len(seen) >= len(cases) - 5 and not result.errors  # (an exchange that broke: none)
    validators = {p: _protocol_validator(p) for p in ("runner_hello", "testee_hello", "request", "answer")}
    problems = []
    for sent, got in seen:
        hello = "hello" in sent
        pairs = (("runner_hello", sent), ("testee_hello", got)) if hello else (("request", sent), ("answer", got))
        for part, msg in pairs:
            for err in validators[part].iter_errors(_shortened(msg)):
                problems.append(f"{part} {str(msg)[:160]}: {err.message[:200]} at {list(err.absolute_path)}")
    assert problems == [], problems[:5]
    if impl in ("rust", "go"):  # the bindings that are one binary pass the whole suite (issues 21, 36): this run is it
        assert [o.case.id for o in result.outcomes if o.failed and o.case.group != "fresh"] == []


def _shortened(msg: dict) -> dict:  # type: ignore[type-arg]
    """`msg` with base64 members cut to 64 KiB (whole quads): the same shape, without regex time on megabytes."""
    return {k: v[: 1 << 16] if k in ("input", "output") and isinstance(v, str) else v for k, v in msg.items()}


def test_the_protocol_schema_refuses_what_the_protocol_forbids() -> None:
    answer, request = _protocol_validator("answer"), _protocol_validator("request")
    ok = {"id": "roundtrip.x", "result": "refused", "category": "duplicate_key", "pointer": "/a~1b", "offset": 3}
    assert answer.is_valid(ok) and answer.is_valid({"id": "a", "result": "encoded", "output": "e30="})
    for bad in (
        {**ok, "category": "nope"},
        {**ok, "pointer": 1},
        {**ok, "offset": -1},
        {"id": "a", "result": "encoded", "output": "not base64!"},
        {"id": "a", "result": "encoded"},
        {"id": "a", "result": "maybe"},
        {"id": "a", "result": "skipped", "reason": "x", "output": "e30="},
    ):
        assert not answer.is_valid(bad), bad
    assert request.is_valid(BY_ID["roundtrip.request_begin.minimal"].request())
    assert not request.is_valid({"id": "a", "mode": "relaxed", "input": ""})
    assert not request.is_valid({"id": "a", "mode": "strict", "input": "", "max_line_bytes": 0})
