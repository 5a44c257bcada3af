"""Each projection against its provider's official Python SDK request types, offline.

The bodies of every corpus context (and of a synthetic one with images, inline data, redacted
thinking, suffixed ids) are validated by the SDKs' own pydantic-checked types: Anthropic
`MessageCreateParamsNonStreaming`, OpenAI `CompletionCreateParamsNonStreaming` and
`ResponseCreateParamsNonStreaming`, Google GenAI `Content` and `GenerateContentConfig`. A key the
type does not declare is caught too: validation drops it, so the validated value must equal the
body. The only keys outside a type are the Chat reasoning fields the reference sends for
OpenAI-compatible servers (`reasoning_content`, `reasoning`; `EXTENSIONS`). The SDKs are the test
extra `provider-sdks` (`make setup` installs it); nothing calls a network.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from test_providers import synthetic
from test_providers_stream import contexts, corpus

from omnimessage.providers import PROVIDERS, project

pydantic = pytest.importorskip("pydantic")
anthropic_params = pytest.importorskip("anthropic.types.message_create_params")
chat_params = pytest.importorskip("openai.types.chat.completion_create_params")
responses_params = pytest.importorskip("openai.types.responses.response_create_params")
genai_types = pytest.importorskip("google.genai.types")

EXTENSIONS = {"openai-chat": ("reasoning_content", "reasoning")}
ADAPTERS: dict[str, Any] = {}


def materialize(value: Any) -> Any:
    """A validated value with its lazily validated iterables (the SDKs type lists as `Iterable`)
    consumed, which validates their items."""
    if isinstance(value, Mapping):
        return {k: materialize(v) for k, v in value.items()}
    if isinstance(value, list | tuple | Iterator) or type(value).__name__ == "ValidatorIterator":
        return [materialize(v) for v in value]
    return value


def without_extensions(body: dict[str, Any], provider: str) -> dict[str, Any]:
    drop = EXTENSIONS.get(provider, ())
    if not drop:
        return body
    return {**body, "messages": [{k: v for k, v in m.items() if k not in drop} for m in body["messages"]]}


def check(provider: str, body: dict[str, Any]) -> None:
    if provider == "gemini":
        for content in body["contents"]:
            parsed = genai_types.Content.model_validate(content)  # the SDK refuses unknown keys
            assert parsed.model_dump(mode="json", by_alias=True, exclude_none=True) == content
        if "systemInstruction" in body:
            config = genai_types.GenerateContentConfig.model_validate({"systemInstruction": body["systemInstruction"]})
            assert config.model_dump(mode="json", by_alias=True, exclude_none=True) == {
                "systemInstruction": body["systemInstruction"]}
        return
    adapter_type, extra = {
        "anthropic": (anthropic_params.MessageCreateParamsNonStreaming, {"model": "claude-opus-5", "max_tokens": 1024}),
        "openai-chat": (chat_params.CompletionCreateParamsNonStreaming, {"model": "gpt-5.5"}),
        "openai-responses": (responses_params.ResponseCreateParamsNonStreaming, {"model": "gpt-5.5"}),
    }[provider]
    request = {**body, **extra}
    # the adapter must outlive the lazy iterators it returns (pydantic-core panics otherwise)
    adapter = ADAPTERS.setdefault(provider, pydantic.TypeAdapter(adapter_type))
    validated = materialize(adapter.validate_python(request))
    assert validated == without_extensions(request, provider)


def corpus_bodies(tmp_path: Path, provider: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, ctx in corpus(tmp_path):
        yield name, project(ctx, provider).body
    yield "synthetic", project(synthetic(), provider, system="s").body


@pytest.mark.parametrize("provider", PROVIDERS)
def test_bodies_type_check_against_the_sdk(tmp_path: Path, provider: str) -> None:
    checked = 0
    for name, body in corpus_bodies(tmp_path, provider):
        try:
            check(provider, body)
        except Exception as exc:  # name the context the SDK refused
            raise AssertionError(f"{name}: {json.dumps(body)[:300]}") from exc
        checked += 1
    assert checked == len(contexts()) + 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_check_refuses_a_key_the_type_lacks(provider: str) -> None:
    body = project(synthetic(), provider).body
    key = {"anthropic": "messages", "openai-chat": "messages", "openai-responses": "input", "gemini": "contents"}[provider]
    bad = json.loads(json.dumps(body))
    bad[key][0]["bogus"] = 1
    with pytest.raises((AssertionError, pydantic.ValidationError)):
        check(provider, bad)
