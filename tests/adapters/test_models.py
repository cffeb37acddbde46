"""Model names: reasoning is replayed only to the model that issued it."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion.adapters.models import same_model
from interlingua.conversion.converter import convert


@pytest.mark.parametrize(
    ("issued", "target", "same"),
    [
        ("claude-sonnet-4-5", "claude-sonnet-4-5", True),
        ("claude-sonnet-4-5", "anthropic:claude-sonnet-4-5", True),  # the canonical spelling
        ("gemini-2.5-pro", "models/gemini-2.5-pro", True),  # a resource path
        ("claude-opus-4-1", "claude-sonnet-4-5", False),
        ("gpt-4o", "gpt-4o-mini", False),
        ("qwen3:8b", "qwen3:14b", False),  # an Ollama tag is part of the name
        ("llama3:latest", "mistral:latest", False),
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5", True),  # a snapshot and its alias
        ("gpt-5-2025-08-07", "gpt-5", True),
        ("gemini-2.0-flash-001", "gemini-2.0-flash", True),
        ("claude-sonnet-4-5-20250929", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", True),
        ("claude-sonnet-4-5", "claude-opus-4-5", False),
        ("gpt-4.1", "gpt-4.1-mini", False),
        (None, "claude-sonnet-4-5", True),  # unknown: cannot be told apart
        ("claude-sonnet-4-5", None, True),
    ],
)
def test_same_model(issued: str | None, target: str | None, same: bool) -> None:
    assert same_model(issued, target) is same


def _history(fmt: str, issued: str, target: str) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "model": target,
        "parameters": {"max_output_tokens": 64},
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "text": "greet",
                        "signature": "sig",
                        "origin": {"format": fmt, "model": issued},
                    },
                    {"type": "text", "text": "hello"},
                ],
            },
            {"role": "user", "content": [{"type": "text", "text": "again"}]},
        ],
    }


@pytest.mark.parametrize("fmt", ["anthropic", "openai-responses", "bedrock", "gemini"])
def test_reasoning_from_another_model_of_the_provider_is_not_replayed(fmt: str) -> None:
    out = convert(_history(fmt, "model-a", "model-b"), "canonical", fmt)
    (loss,) = [x for x in out.losses if x.pointer == "/messages/1/content/0"]
    assert loss.code == "thinking_not_replayable"
    assert "'model-a', not 'model-b'" in loss.reason
    assert "sig" not in str(out.output)


@pytest.mark.parametrize("fmt", ["anthropic", "openai-responses"])
def test_reasoning_from_the_same_model_is_replayed(fmt: str) -> None:
    out = convert(_history(fmt, "model-a", "model-a"), "canonical", fmt)
    assert not [x for x in out.losses if x.pointer.startswith("/messages/1")]
    assert "sig" in str(out.output)


@pytest.mark.parametrize("fmt", ["gemini", "bedrock"])
def test_a_body_without_a_model_reports_the_reasoning_model_it_cannot_carry(fmt: str) -> None:
    out = convert(_history(fmt, "model-a", "model-a"), "canonical", fmt)
    codes = {(x.pointer, x.code) for x in out.losses}
    assert ("/messages/1/content/0/origin/model", "field_dropped") in codes
    assert "sig" in str(out.output)  # replayed: the same model
    back = convert(out.output, fmt, "canonical").output
    assert back["messages"][1]["content"][0]["origin"] == {"format": fmt}


def test_stored_turns_report_the_reasoning_model_they_cannot_carry() -> None:
    history = _history("anthropic", "model-a", "model-a")["messages"]
    out = convert(history, "canonical", "anthropic", "messages")
    assert ("/1/content/0/origin/model", "field_dropped") in {
        (x.pointer, x.code) for x in out.losses
    }


def test_an_endpoint_tells_reasoning_apart_only_when_both_sides_name_one() -> None:
    from interlingua.conversion.adapters.models import same_endpoint

    assert same_endpoint("vertex", "vertex")
    assert not same_endpoint("vertex", "gemini-api")
    assert same_endpoint(None, "vertex")
    assert same_endpoint("vertex", None)


def test_reasoning_is_bound_to_the_endpoint_it_was_read_from() -> None:
    from interlingua.conversion.converter import convert

    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {
                "role": "model",
                "parts": [
                    {"text": "plan", "thought": True, "thoughtSignature": "Cq"},
                    {"text": "ok"},
                ],
            },
            {"role": "user", "parts": [{"text": "go"}]},
        ]
    }
    read = convert(body, "gemini", "canonical", source_endpoint="vertex").output
    assert read["messages"][1]["content"][0]["origin"] == {"format": "gemini", "endpoint": "vertex"}
    same = convert(read, "canonical", "gemini", target_endpoint="vertex")
    assert same.output == body and not same.losses
    other = convert(read, "canonical", "gemini", target_endpoint="gemini-api")
    assert [(x.pointer, x.code) for x in other.losses] == [
        ("/messages/1/content/0", "thinking_not_replayable")
    ]
    assert "'vertex', not 'gemini-api'" in other.losses[0].reason
    # another model as well: the model is what the report names
    thinking = {**read["messages"][1]["content"][0]}
    thinking["origin"] = {"format": "gemini", "model": "gemini-2.5-flash", "endpoint": "vertex"}
    doc = {**read, "model": "gemini-2.5-pro"}
    doc["messages"] = [read["messages"][0], {"role": "assistant", "content": [thinking]}]
    other_model = convert(doc, "canonical", "gemini", target_endpoint="gemini-api")
    reasons = [x.reason for x in other_model.losses if x.code == "thinking_not_replayable"]
    assert len(reasons) == 1 and "model 'gemini-2.5-flash'" in reasons[0]
