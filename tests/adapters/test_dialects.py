"""Provider dialects read as what they mean: OpenAI-compatible servers' reasoning fields."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert

CHAT = "openai-chat"


def _response(**message: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "deepseek-reasoner",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "3", "refusal": None, **message},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
    }


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_a_reasoning_field_reads_as_thinking_bound_to_openai_chat(field: str) -> None:
    body = _response(**{field: "count the r's"})
    message = convert(body, CHAT, "canonical", "response").output["message"]
    assert message["content"][0] == {
        "type": "thinking",
        "text": "count the r's",
        "origin": {"format": CHAT, "model": "deepseek-reasoner"},
    }
    assert convert(body, CHAT, CHAT, "response").output == body


def test_a_null_reasoning_field_reads_as_no_part_and_comes_back() -> None:
    body = _response(reasoning=None)
    message = convert(body, CHAT, "canonical", "response").output["message"]
    assert [p["type"] for p in message["content"]] == ["text"]
    assert convert(body, CHAT, CHAT, "response").output == body


def test_reasoning_going_to_another_provider_is_reported_not_lost_silently() -> None:
    result = convert(_response(reasoning_content="why"), CHAT, "anthropic", "response")
    assert "why" not in str(result.output)
    assert ("/message/content/0", "thinking_not_replayable") in [
        (loss.pointer, loss.code) for loss in result.losses
    ]


def test_reasoning_of_no_known_issuer_is_not_written_but_can_go_as_text() -> None:
    document = {
        "schema_version": 1,
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
            {
                "role": "assistant",
                "content": [{"type": "thinking", "text": "greet"}, {"type": "text", "text": "Hi!"}],
            },
        ],
    }
    dropped = convert(document, "canonical", CHAT)
    assert "reasoning_content" not in str(dropped.output)
    assert [loss.code for loss in dropped.losses] == ["thinking_not_replayable"]
    as_text = convert(document, "canonical", CHAT, thinking="text")
    assert "greet" in str(as_text.output["messages"][1]["content"])
    assert "reasoning_content" not in str(as_text.output)


def test_another_providers_reasoning_never_becomes_a_reasoning_field() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "Hi"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "greet", "signature": "sig"},
                    {"type": "text", "text": "Hello"},
                ],
            },
        ],
    }
    result = convert(body, "anthropic", CHAT)
    assert "greet" not in str(result.output)
    assert "thinking_not_replayable" in [loss.code for loss in result.losses]


def test_both_spellings_with_one_value_read_as_one_part_and_come_back() -> None:
    # vLLM sent both while it moved from `reasoning_content` to `reasoning`.
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": "a", "reasoning_content": "r", "reasoning": "r"},
        ],
    }
    message = convert(body, CHAT, "canonical").output["messages"][1]
    assert [p["type"] for p in message["content"]] == ["thinking", "text"]
    back = convert(body, CHAT, CHAT)
    assert back.output == body
    assert back.losses == ()


def test_a_function_tool_without_its_type_reads_as_a_function() -> None:
    """Mistral's OpenAI-style API takes a tool without `type` (pydantic-ai sends it so: the
    recorded body in conformance/real): read as a function tool, written elsewhere with the
    tool, and given back without the `type` it did not have."""
    tool = {"function": {"name": "get_file", "parameters": {"type": "object", "properties": {}}}}
    user = {"role": "user", "content": "Read it."}
    body = {"model": "mistral-large-latest", "messages": [user], "tools": [tool]}
    anthropic = convert(body, CHAT, "anthropic")
    assert anthropic.output["tools"] == [
        {"name": "get_file", "input_schema": {"type": "object", "properties": {}}}
    ]
    assert not [loss for loss in anthropic.losses if loss.pointer.startswith("/tools")]
    canonical = convert(body, CHAT, "canonical").output
    assert convert(canonical, "canonical", CHAT).output == body
    typed = {**body, "tools": [{"type": "function", **tool}]}
    assert convert(convert(typed, CHAT, "canonical").output, "canonical", CHAT).output == typed
    # Written from another format, a tool has its `type`, as OpenAI requires.
    assert convert(anthropic.output, "anthropic", CHAT).output["tools"] == typed["tools"]


MISTRAL_THINKING: dict[str, Any] = {
    "type": "thinking",
    "thinking": [
        {"type": "text", "text": "Two and two make four."},
        {"type": "text", "text": "The answer is the number alone."},
    ],
}
MISTRAL: dict[str, Any] = {
    "model": "magistral-medium-latest",
    "messages": [
        {"role": "user", "content": "What is 2 + 2?"},
        {"role": "assistant", "content": [MISTRAL_THINKING, {"type": "text", "text": "4"}]},
        {"role": "user", "content": "And 3 + 3?"},
    ],
}


def test_mistrals_thinking_block_reads_as_reasoning_bound_to_the_format() -> None:
    """Mistral's reasoning models give their reasoning as a content block of text chunks
    (pydantic-ai's recorded bodies): a thinking part before the answer, bound to openai-chat
    and the model, its chunks joined by a blank line; the same body comes back exactly."""
    canonical = convert(copy.deepcopy(MISTRAL), CHAT, "canonical")
    thinking, answer = canonical.output["messages"][1]["content"]
    assert thinking == {
        "type": "thinking",
        "text": "Two and two make four.\n\nThe answer is the number alone.",
        "origin": {"format": CHAT, "model": "magistral-medium-latest"},
    }
    assert answer == {"type": "text", "text": "4"}
    assert canonical.losses == ()
    same = convert(copy.deepcopy(MISTRAL), CHAT, CHAT)
    assert same.output == MISTRAL and same.losses == ()


def test_mistrals_thinking_is_written_in_the_reasoning_field_and_reported_elsewhere() -> None:
    canonical = convert(copy.deepcopy(MISTRAL), CHAT, "canonical").output
    del canonical["messages"][1]["provider_raw"]  # no round-trip data: written as a reader would
    written = convert(canonical, "canonical", CHAT)
    assert written.output["messages"][1] == {
        "role": "assistant",
        "content": "4",
        "reasoning_content": "Two and two make four.\n\nThe answer is the number alone.",
    }
    anthropic = convert(copy.deepcopy(MISTRAL), CHAT, "anthropic")
    codes = {(loss.pointer, loss.code) for loss in anthropic.losses}
    assert ("/messages/1/content/0", "thinking_not_replayable") in codes
    assert ("/messages/1/content/0/thinking", "parts_merged") in codes
    assert anthropic.output["messages"][1] == {"role": "assistant", "content": "4"}


def test_a_thinking_block_of_other_chunks_is_refused_with_its_place() -> None:
    body = copy.deepcopy(MISTRAL)
    body["messages"][1]["content"][0]["thinking"] = [{"type": "image_url", "image_url": {}}]
    with pytest.raises(ConversionError) as err:
        convert(body, CHAT, "anthropic")
    assert err.value.code == "unknown_variant"
    assert err.value.pointer == "/messages/1/content/0/thinking/0"


def test_mistrals_response_content_blocks_read_as_reasoning_and_text() -> None:
    """A Mistral response answers with content blocks (OpenAI's is one string): the thinking
    block and the text read as the message's parts, and the same body comes back exactly."""
    body = _response(
        content=[
            {**MISTRAL_THINKING, "closed": True},
            {"type": "text", "text": "4"},
        ]
    )
    del body["choices"][0]["message"]["refusal"]
    canonical = convert(copy.deepcopy(body), CHAT, "canonical", "response")
    assert [part["type"] for part in canonical.output["message"]["content"]] == ["thinking", "text"]
    assert canonical.losses == ()
    same = convert(copy.deepcopy(body), CHAT, CHAT, "response")
    assert same.output == body and same.losses == ()
    anthropic = convert(copy.deepcopy(body), CHAT, "anthropic", "response")
    assert anthropic.output["content"] == [{"type": "text", "text": "4"}]
    assert ("/choices/0/message/content/0/closed", "field_dropped") in [
        (loss.pointer, loss.code) for loss in anthropic.losses
    ]
