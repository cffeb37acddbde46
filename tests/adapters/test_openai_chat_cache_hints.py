"""OpenRouter and LiteLLM's proxy take Anthropic's `cache_control` on an OpenAI Chat text part
and on a tool, and pydantic-ai sends it there (its recorded OpenRouter body carries both).
interlingua reads it as the part's or the tool's cache hint: carried to the formats that take
one (Anthropic's `cache_control`, Bedrock's `cachePoint`), reported by the others, and never
written into OpenAI Chat from elsewhere (OpenAI refuses the field); the same-format round
trip gives it back exactly, with nothing reported."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from interlingua.conversion.converter import convert

ROOT = Path(__file__).resolve().parents[2]
HOUR = {"type": "ephemeral", "ttl": "1h"}
BODY: dict[str, Any] = {
    "model": "anthropic/claude-sonnet-4.6",
    "messages": [
        {
            "role": "system",
            "content": [{"type": "text", "text": "You do sums.", "cache_control": HOUR}],
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is 12 * 3?", "cache_control": {"type": "ephemeral"}},
                {"type": "text", "text": "Show your work."},
            ],
        },
    ],
    "tools": [
        {
            "type": "function",
            "function": {"name": "calc", "parameters": {"type": "object"}},
            "cache_control": {"type": "ephemeral", "ttl": "5m"},
        }
    ],
}


def _losses(result: Any) -> list[tuple[str, str]]:
    return [(loss.pointer, loss.code) for loss in result.losses]


def _strict(fmt: str) -> Any:
    schema = json.loads((ROOT / "schemas" / "formats" / fmt / "request.json").read_text())
    return jsonschema_rs.validator_for(schema)


def test_the_hints_reach_anthropic_where_they_stood() -> None:
    result = convert(copy.deepcopy(BODY), "openai-chat", "anthropic")
    out = result.output
    assert out["system"] == [{"type": "text", "text": "You do sums.", "cache_control": HOUR}]
    assert out["messages"][0]["content"] == [
        {"type": "text", "text": "What is 12 * 3?", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "Show your work."},
    ]
    assert out["tools"][0]["cache_control"] == {"type": "ephemeral", "ttl": "5m"}
    assert not [loss for loss in result.losses if "cache" in loss.pointer]
    # The fused pass leaves them to the two-step path, visibly.
    assert result.fused is False
    assert _strict("anthropic").is_valid(out)


def test_bedrock_takes_them_as_cache_points_and_gemini_reports_them() -> None:
    bedrock = convert(copy.deepcopy(BODY), "openai-chat", "bedrock").output
    assert bedrock["system"] == [
        {"text": "You do sums."},
        {"cachePoint": {"type": "default", "ttl": "1h"}},
    ]
    assert bedrock["messages"][0]["content"][:2] == [
        {"text": "What is 12 * 3?"},
        {"cachePoint": {"type": "default"}},
    ]
    assert bedrock["toolConfig"]["tools"][1] == {"cachePoint": {"type": "default", "ttl": "5m"}}
    gemini = convert(copy.deepcopy(BODY), "openai-chat", "gemini")
    assert sorted(p for p, code in _losses(gemini) if "cache" in p) == [
        "/messages/0/content/0/cache_hint",
        "/messages/1/content/0/cache_hint",
        "/tools/0/cache_hint",
    ]
    assert all(code == "field_dropped" for p, code in _losses(gemini) if "cache" in p)


def test_the_round_trip_gives_them_back_with_nothing_reported() -> None:
    same = convert(copy.deepcopy(BODY), "openai-chat", "openai-chat")
    assert same.output == BODY and same.losses == ()
    canonical = convert(copy.deepcopy(BODY), "openai-chat", "canonical").output
    assert canonical["messages"][1]["content"][0]["cache_hint"] == {"type": "ephemeral"}
    back = convert(canonical, "canonical", "openai-chat")
    assert back.output == BODY and back.losses == ()


def test_openai_chat_never_writes_a_hint_from_elsewhere() -> None:
    anthropic = convert(copy.deepcopy(BODY), "openai-chat", "anthropic").output
    chat = convert(anthropic, "anthropic", "openai-chat")
    assert "cache_control" not in json.dumps(chat.output)
    assert sorted(p for p, _ in _losses(chat) if "cache" in p) == [
        "/messages/0/content/0/cache_hint",
        "/messages/1/content/0/cache_hint",
        "/tools/0/cache_hint",
    ]
    assert _strict("openai-chat").is_valid(chat.output)


def test_a_ttl_anthropic_does_not_take_is_reported_and_the_hint_kept() -> None:
    body = copy.deepcopy(BODY)
    body["messages"][1]["content"][1]["cache_control"] = {"type": "ephemeral", "ttl": "2h"}
    result = convert(body, "openai-chat", "anthropic")
    assert result.output["messages"][0]["content"][1]["cache_control"] == {"type": "ephemeral"}
    assert ("/messages/1/content/1/cache_control/ttl", "field_dropped") in _losses(result)


@pytest.mark.parametrize("hint", [{"type": "persistent"}, "ephemeral", ["ephemeral"], 5])
def test_a_hint_of_another_shape_stays_a_field_reported(hint: Any) -> None:
    body = copy.deepcopy(BODY)
    body["messages"][1]["content"][1]["cache_control"] = hint
    result = convert(body, "openai-chat", "anthropic")
    assert result.output["messages"][0]["content"][1] == {"type": "text", "text": "Show your work."}
    assert ("/messages/1/content/1/cache_control", "field_dropped") in _losses(result)
    assert convert(copy.deepcopy(body), "openai-chat", "openai-chat").output == body


def test_the_recorded_openrouter_body_keeps_its_hints() -> None:
    recorded = "pydantic-ai--test-cache-test-openrouter-cache-all-settings-real-api-0.json"
    body = json.loads((ROOT / "conformance/real/openai-chat/request" / recorded).read_text())
    out = convert(copy.deepcopy(body), "openai-chat", "anthropic").output
    assert out["system"][0]["cache_control"] == {"type": "ephemeral", "ttl": "5m"}
    assert out["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral", "ttl": "5m"}
    assert out["tools"][0]["cache_control"] == {"type": "ephemeral", "ttl": "5m"}
