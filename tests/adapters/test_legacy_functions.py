"""OpenAI Chat's deprecated function calling (`functions`, `function_call`, `role: "function"`),
which the API still takes and older recorded traffic and datasets hold: read as tools, a tool
choice, a call and its result, so it crosses to every format. Before, a `function` message was
refused (`unknown role`), `functions` crossed as a dropped field, and a response's or a stream's
`function_call` vanished without a report."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert, from_canonical, to_canonical
from interlingua.streams.engine import read_stream

WEATHER = {
    "name": "get_weather",
    "description": "The weather in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
}
CALL = {"name": "get_weather", "arguments": '{"city": "Boston"}'}

REQUEST: dict[str, Any] = {
    "model": "gpt-3.5-turbo-0613",
    "messages": [
        {"role": "user", "content": "Weather in Boston? And in Paris?"},
        {"role": "assistant", "content": None, "function_call": CALL},
        {"role": "function", "name": "get_weather", "content": '{"temp": 22}'},
        {"role": "assistant", "function_call": {**CALL, "arguments": '{"city": "Paris"}'}},
        {"role": "function", "name": "get_weather", "content": '{"temp": 18}'},
    ],
    "functions": [WEATHER],
    "function_call": "auto",
}


def _codes(result: Any) -> list[tuple[str, str]]:
    return [(loss.pointer, loss.code) for loss in result.losses]


def test_a_function_calling_request_crosses_as_tools_calls_and_results() -> None:
    result = convert(copy.deepcopy(REQUEST), "openai-chat", "anthropic")
    out = result.output
    assert out["tools"] == [
        {
            "name": "get_weather",
            "description": "The weather in a city",
            "input_schema": WEATHER["parameters"],
        }
    ]
    assert out["tool_choice"] == {"type": "auto"}
    calls = [m["content"][0] for m in out["messages"] if m["role"] == "assistant"]
    results = [m["content"][0] for m in out["messages"][2::2]]
    # Each call gets the id reading gives a call without one; each result answers the
    # earliest unanswered call of its function's name.
    assert [c["id"] for c in calls] == ["openai-chat_call_1_0", "openai-chat_call_3_0"]
    assert [c["input"] for c in calls] == [{"city": "Boston"}, {"city": "Paris"}]
    assert [r["tool_use_id"] for r in results] == [c["id"] for c in calls]
    assert [r["content"] for r in results] == ['{"temp": 22}', '{"temp": 18}']
    assert _codes(result) == [("/parameters/max_output_tokens", "placeholder_inserted")]
    assert not result.fused  # outside the fused pass: the two-step reader reads it


@pytest.mark.parametrize("target", ["gemini", "openai-responses", "bedrock"])
def test_nothing_of_the_exchange_is_lost_elsewhere(target: str) -> None:
    result = convert(copy.deepcopy(REQUEST), "openai-chat", target)
    assert not [c for c in _codes(result) if c[1] not in ("parameter_dropped",)]
    text = json.dumps(result.output)
    assert text.count("get_weather") >= 3  # the declaration and both calls at least
    assert '{\\"temp\\": 18}' in text or "18" in text


def test_the_round_trip_gives_the_old_form_back() -> None:
    result = convert(copy.deepcopy(REQUEST), "openai-chat", "openai-chat")
    assert result.output == REQUEST
    assert not result.losses


def test_canonical_is_written_with_tool_calls() -> None:
    """Without round-trip data the canonical form goes out in today's spelling."""
    canonical = without_raw(to_canonical(copy.deepcopy(REQUEST), "openai-chat").output)
    result = from_canonical(canonical, "openai-chat")
    messages = result.output["messages"]
    assert messages[1]["tool_calls"][0]["id"] == "openai-chat_call_1_0"
    assert messages[2] == {
        "role": "tool",
        "tool_call_id": "openai-chat_call_1_0",
        "content": '{"temp": 22}',
    }
    assert result.output["tools"][0]["function"]["name"] == "get_weather"
    assert "functions" not in result.output


def test_a_named_function_choice_reads_as_a_tool_choice() -> None:
    body = {**copy.deepcopy(REQUEST), "function_call": {"name": "get_weather"}}
    out = convert(body, "openai-chat", "anthropic").output
    assert out["tool_choice"] == {"type": "tool", "name": "get_weather"}


def test_a_result_no_call_waits_for_is_an_orphan() -> None:
    body = copy.deepcopy(REQUEST)
    body["messages"][4]["name"] = "get_time"
    with pytest.raises(ConversionError) as caught:
        convert(body, "openai-chat", "anthropic")
    assert caught.value.code == "orphan_result"
    assert caught.value.pointer == "/messages/4"


def test_a_tool_message_whose_call_is_elsewhere_still_stands() -> None:
    """Pairing by name is for results without an id: a `tool` message keeps its id."""
    body = {
        "model": "m",
        "messages": [{"role": "tool", "tool_call_id": "call_9", "content": "x"}],
    }
    out = convert(body, "openai-chat", "openai-responses").output
    assert out["input"][0]["call_id"] == "call_9"


RESPONSE: dict[str, Any] = {
    "id": "chatcmpl-7QyqpwdfhqwajicIEznoc6Q47XAyW",
    "object": "chat.completion",
    "created": 1677652288,
    "model": "gpt-3.5-turbo-0613",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": None, "function_call": CALL},
            "finish_reason": "function_call",
        }
    ],
    "usage": {"prompt_tokens": 82, "completion_tokens": 18, "total_tokens": 100},
}


def test_a_response_calling_a_function_crosses_with_its_call() -> None:
    result = convert(copy.deepcopy(RESPONSE), "openai-chat", "anthropic", kind="response")
    (block,) = result.output["content"]
    assert block["type"] == "tool_use"
    assert block["input"] == {"city": "Boston"}
    assert block["id"].startswith("openai-chat_call_")
    assert result.output["stop_reason"] == "tool_use"
    again = convert(copy.deepcopy(RESPONSE), "openai-chat", "openai-chat", kind="response")
    assert again.output == RESPONSE


def test_a_placeholder_function_call_is_no_call() -> None:
    """Snowflake fills every field: `function_call: {"name": "", "arguments": ""}` beside the
    real `tool_calls` says nothing."""
    body = copy.deepcopy(RESPONSE)
    body["choices"][0]["message"] = {
        "role": "assistant",
        "content": "Sure.",
        "function_call": {"name": "", "arguments": ""},
    }
    body["choices"][0]["finish_reason"] = "stop"
    result = convert(body, "openai-chat", "anthropic", kind="response")
    assert result.output["content"] == [{"type": "text", "text": "Sure."}]
    assert not [loss for loss in result.losses if "function_call" in loss.pointer]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "gpt-3.5-turbo-0613",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def test_a_streamed_function_call_is_read_as_a_call() -> None:
    chunks = [
        _chunk({"role": "assistant", "content": None, "function_call": {**CALL, "arguments": ""}}),
        _chunk({"function_call": {"arguments": '{"city"'}}),
        _chunk({"function_call": {"arguments": ': "Boston"}'}}),
        _chunk({}, "function_call"),
    ]
    events = list(read_stream(chunks, "openai-chat"))
    kinds = [e["type"] for e in events]
    assert kinds == [
        "message_start",
        "tool_call_start",
        "tool_call_delta",
        "tool_call_delta",
        "tool_call_end",
        "message_complete",
    ]
    assert events[1]["name"] == "get_weather"
    assert events[1]["id"].startswith("openai-chat_call_")
    assert "".join(e["arguments_delta"] for e in events[2:4]) == '{"city": "Boston"}'


def test_a_streamed_placeholder_function_call_starts_nothing() -> None:
    chunks = [
        _chunk(
            {"role": "assistant", "content": "Hi", "function_call": {"name": "", "arguments": ""}}
        ),
        _chunk({}, "stop"),
    ]
    kinds = [e["type"] for e in read_stream(chunks, "openai-chat")]
    assert "tool_call_start" not in kinds
    assert "error" not in kinds
