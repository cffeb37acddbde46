"""A Responses request that goes on from a stored response (`previous_response_id`): the
canonical `continues`. Its first results answer calls only the stored turns hold; the canonical
document is valid, goes back to Responses as it came, and elsewhere the continuation is
reported. Before, the canonical document it read was one the writers refused
(`orphan_result`), and crossing reported `previous_response_id` as an unknown field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert

BODY: dict[str, Any] = {
    "model": "gpt-4o-mini",
    "previous_response_id": "resp_0b7f",
    "input": [{"type": "function_call_output", "call_id": "call_1", "output": "Sunny, 72°F"}],
    "tools": [
        {
            "type": "function",
            "name": "get_weather",
            "description": "The weather.",
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        }
    ],
}


def test_it_reads_as_a_continuation_and_goes_back_as_it_came() -> None:
    document = convert(copy.deepcopy(BODY), "openai-responses", "canonical").output
    assert document["continues"] == {"format": "openai-responses", "id": "resp_0b7f"}
    back = convert(document, "canonical", "openai-responses")
    assert back.output == BODY
    assert not back.losses


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "bedrock"])
def test_elsewhere_the_continuation_is_reported(target: str) -> None:
    result = convert(copy.deepcopy(BODY), "openai-responses", target)
    codes = [(loss.pointer, loss.code) for loss in result.losses]
    assert ("/continues", "parameter_dropped") in codes
    assert not [c for c in codes if c[0] == "/previous_response_id"]


def test_a_target_that_names_a_results_tool_cannot_write_it() -> None:
    with pytest.raises(ConversionError) as caught:
        convert(copy.deepcopy(BODY), "openai-responses", "gemini")
    assert caught.value.code == "orphan_result"


def test_a_stored_response_of_no_calls_still_continues() -> None:
    body = {"model": "m", "previous_response_id": "resp_2", "input": "And tomorrow?"}
    out = convert(copy.deepcopy(body), "openai-responses", "openai-responses").output
    assert out == body


def test_a_stored_prompts_reference_alone_reads_and_comes_back() -> None:
    """A Responses request of a stored prompt's reference alone (no `input`, no `model`: the
    prompt holds them; OpenAI documents `input` as optional) used to be refused
    (`missing_field` at /input). It reads as no messages and comes back as it came."""
    body = {"prompt": {"id": "pmpt_6911a8b8", "version": "1", "variables": {"word": "hat"}}}
    document = convert(copy.deepcopy(body), "openai-responses", "canonical").output
    assert document["messages"] == []
    assert convert(copy.deepcopy(body), "openai-responses", "openai-responses").output == body
    with pytest.raises(ConversionError):
        convert({"model": "m"}, "openai-responses", "openai-chat")  # neither: not a request


def test_a_converse_request_of_a_system_prompt_alone_reads_and_comes_back() -> None:
    """Converse takes a request without `messages` (a prompt Bedrock manages): it reads, and
    comes back without them; a format that needs a turn refuses it with its code."""
    body = {"system": [{"text": "Be brief."}]}
    assert convert(copy.deepcopy(body), "bedrock", "bedrock").output == body
    with pytest.raises(ConversionError) as caught:
        convert(copy.deepcopy(body), "bedrock", "anthropic")
    assert caught.value.code == "too_few_items"
