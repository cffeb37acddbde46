"""A parameter the target takes only within a narrower range than the canonical one (its wire
schema's bound: generator/ranges.py). A temperature of 1.5 went to Anthropic as it was, a
Gemini thinking budget of 100 to Anthropic's minimum of 1024, five stop sequences to OpenAI
Chat's four, an empty stop list to a Chat `stop` that must hold one: each a body the provider
refuses. The writer now sends the nearest value the target takes, reported
(`parameter_clamped`), and an empty list not at all; a fused pass leaves such a body to the
two-step path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion.converter import check_wire, convert
from tests.adapters.fused import takes_two_steps

CHAT: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


def _clamped(result: Any) -> list[tuple[str, str]]:
    return [(x.pointer, x.reason) for x in result.losses if x.code == "parameter_clamped"]


@pytest.mark.parametrize("target", ["anthropic", "bedrock"])
def test_a_temperature_past_the_targets_maximum_is_its_maximum(
    target: str, caplog: pytest.LogCaptureFixture
) -> None:
    body = {**CHAT, "temperature": 1.5}
    result = convert(copy.deepcopy(body), "openai-chat", target)
    check_wire(result.output, target, "request", strict=True)
    assert _clamped(result) == [
        ("/parameters/temperature", f"{target} takes `temperature` up to 1; sent 1")
    ]
    takes_two_steps(
        body,
        f"temperature: outside the range {target} takes",
        "openai-chat",
        target,
        caplog,
    )


def test_a_temperature_within_the_range_is_untouched() -> None:
    result = convert({**CHAT, "temperature": 1}, "openai-chat", "anthropic")
    assert result.fused and result.output["temperature"] == 1 and not _clamped(result)


def test_a_thinking_budget_below_anthropics_minimum_is_the_minimum() -> None:
    gemini = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"thinkingConfig": {"thinkingBudget": 100}},
    }
    result = convert(gemini, "gemini", "anthropic")
    check_wire(result.output, "anthropic", "request", strict=True)
    assert result.output["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert _clamped(result) == [
        (
            "/parameters/thinking_budget_tokens",
            "anthropic takes `thinking_budget_tokens` from 1024; sent 1024",
        )
    ]


def test_more_stop_sequences_than_chat_takes_are_the_first_four(
    caplog: pytest.LogCaptureFixture,
) -> None:
    body = {
        "model": "m",
        "max_tokens": 16,
        "stop_sequences": ["1", "2", "3", "4", "5"],
        "messages": [{"role": "user", "content": "hi"}],
    }
    result = convert(copy.deepcopy(body), "anthropic", "openai-chat")
    check_wire(result.output, "openai-chat", "request", strict=True)
    assert result.output["stop"] == ["1", "2", "3", "4"]
    assert _clamped(result) == [
        (
            "/parameters/stop_sequences",
            "openai-chat takes at most 4 `stop_sequences`; the first 4 went out",
        )
    ]
    takes_two_steps(
        body, "stop_sequences: more than openai-chat takes", "anthropic", "openai-chat", caplog
    )


def test_an_empty_stop_list_goes_out_as_none() -> None:
    # Recorded by dd-trace-py (botocore): Converse takes `stopSequences: []`; Chat refuses `stop: []`.
    bedrock = {
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "inferenceConfig": {"stopSequences": []},
    }
    result = convert(bedrock, "bedrock", "openai-chat")
    check_wire(result.output, "openai-chat", "request", strict=True)
    assert "stop" not in result.output
    assert not _clamped(result)


def _gemini_thinking(budget: int, max_tokens: int | None) -> dict[str, Any]:
    config: dict[str, Any] = {"thinkingConfig": {"thinkingBudget": budget}}
    if max_tokens is not None:
        config["maxOutputTokens"] = max_tokens
    return {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": config}


@pytest.mark.parametrize(
    ("max_tokens", "budget", "sent", "code"),
    [
        (5000, 2000, 2000, None),  # below it: as it is
        (None, 8000, 4095, "parameter_clamped"),  # below the placeholder of 4096 written
        (3000, 3000, 2999, "parameter_clamped"),
        (800, 2000, None, "parameter_dropped"),  # no budget from 1024 fits below 800
    ],
)
def test_a_thinking_budget_goes_below_anthropics_max_tokens(
    max_tokens: int | None, budget: int, sent: int | None, code: str | None
) -> None:
    # Gemini takes a budget past maxOutputTokens; Messages refuses one not below max_tokens.
    result = convert(_gemini_thinking(budget, max_tokens), "gemini", "anthropic")
    check_wire(result.output, "anthropic", "request", strict=True)
    thinking = result.output.get("thinking")
    assert (thinking["budget_tokens"] if thinking else None) == sent
    codes = [x.code for x in result.losses if x.pointer == "/parameters/thinking_budget_tokens"]
    assert codes == ([code] if code else [])
