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
