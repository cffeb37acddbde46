"""Canonical model ids `<provider>:<model>`; the provider key comes from the mapping files."""

from __future__ import annotations

from pathlib import Path

import yaml

from interlingua.documents.model_ids import message_model, model_id, provider_of
from interlingua.generated.providers import PROVIDER_KEYS

MAPPINGS = Path(__file__).resolve().parents[2] / "schemas" / "mappings"


def test_the_provider_keys_are_the_mapping_files() -> None:
    declared = {}
    for path in MAPPINGS.glob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        if "provider" in data:
            declared[data["format"]] = data["provider"]
    assert declared == PROVIDER_KEYS
    assert provider_of("gemini") == "google" and provider_of("umf") is None


def test_model_ids() -> None:
    assert model_id("gpt-5", "openai") == "openai:gpt-5"
    assert model_id("openai:gpt-5", "openai") == "openai:gpt-5"
    assert model_id("gpt-5", None) is None
    assert model_id("deepseek/deepseek-v3", "openrouter") == "openrouter:deepseek/deepseek-v3"


def test_the_model_of_a_message() -> None:
    canonical = {"extensions": {"completion": {"model": "anthropic:claude-haiku-4-5"}}}
    assert message_model(canonical, "openai-chat", "gpt-5") == "anthropic:claude-haiku-4-5"
    llm = {"extensions": {"llm": {"model_id": "gpt-4o", "provider": "openai"}}}
    assert message_model(llm, None) == "openai:gpt-4o"
    assert message_model({"extensions": {"llm": {"model_id": "gpt-4o"}}}, None) is None
    assert message_model({}, "anthropic", "claude-sonnet-4-6") == "anthropic:claude-sonnet-4-6"
    assert message_model({}, "anthropic", "unknown") is None  # a body that named no model
    assert message_model({}, "umf", "some-model") is None


def test_with_model_ids_is_an_explicit_step() -> None:
    from interlingua.conversion.converter import to_canonical
    from interlingua.documents.model_ids import with_model_ids
    from interlingua.documents.validation import validate

    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    read = to_canonical(body, "anthropic", "response").output
    assert "extensions" not in read["message"]  # convert leaves the document as read
    filled = with_model_ids(read, "anthropic")
    assert filled["message"]["extensions"]["completion"]["model"] == "anthropic:claude-sonnet-4-6"
    assert validate(filled) == []
    assert with_model_ids(filled, "openai-chat") is filled  # named already
    assert with_model_ids({**read, "model": "unknown"}, "anthropic")["message"] == read["message"]
    assert with_model_ids([read], "anthropic") == [read]
