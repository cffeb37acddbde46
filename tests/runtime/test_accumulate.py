"""Folding canonical stream events into a message: in order, or a coded error."""

from typing import Any

import pytest

import interlingua
from interlingua.generated.models import MessageCompleteEvent, TextDeltaEvent
from interlingua.streams.accumulate import Accumulator, StreamError, accumulate

START = {"type": "message_start", "id": "msg_1", "model": "claude-sonnet-4-6"}
EVENTS: list[dict[str, Any]] = [
    START,
    {"type": "thinking_delta", "index": 0, "text": "The user "},
    {"type": "thinking_delta", "index": 0, "text": "wants weather."},
    {"type": "signature", "index": 0, "signature": "EqQB"},
    {"type": "text_delta", "index": 1, "text": "Let me "},
    {"type": "text_delta", "index": 1, "text": "check."},
    {"type": "tool_call_start", "index": 2, "id": "toolu_1", "name": "get_weather"},
    {"type": "tool_call_start", "index": 3, "id": "toolu_2", "name": "get_time"},
    {"type": "tool_call_delta", "index": 2, "arguments_delta": '{"city": '},
    {"type": "tool_call_delta", "index": 2, "arguments_delta": '"Paris"}'},
    {"type": "tool_call_end", "index": 2},
    {"type": "tool_call_end", "index": 3},
    {"type": "usage", "usage": {"input_tokens": 12, "output_tokens": 3}},
    {
        "type": "message_complete",
        "stop_reason": "call",
        "usage": {"input_tokens": 12, "output_tokens": 40},
    },
]


def test_a_full_stream_folds_into_the_message() -> None:
    message = accumulate(EVENTS, provider="anthropic")
    assert interlingua.dump(message) == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "text": "The user wants weather.", "signature": "EqQB"},
            {"type": "text", "text": "Let me check."},
            {
                "type": "tool_call",
                "id": "toolu_1",
                "name": "get_weather",
                "arguments": {"city": "Paris"},
            },
            {"type": "tool_call", "id": "toolu_2", "name": "get_time", "arguments": {}},
        ],
        "extensions": {
            "completion": {
                "status": "complete",
                "model": "anthropic:claude-sonnet-4-6",
                "stop_reason": "call",
                "usage": {"input_tokens": 12, "output_tokens": 40},
                "response_id": "msg_1",
            },
            "llm": {"provider": "anthropic", "model_id": "claude-sonnet-4-6"},
        },
    }
    codes = [f.code for f in interlingua.validate(interlingua.dump(message))]
    assert codes == ["assistant_missing_routing"]  # a warning: routing is the router's to add


def test_snapshots_are_partial_and_valid_while_streaming() -> None:
    accumulator = Accumulator()
    for event in EVENTS[:8]:
        accumulator.feed(event)
        snapshot = interlingua.dump(accumulator.message())
        assert snapshot["extensions"]["completion"]["status"] == "partial"
        assert [f for f in interlingua.validate(snapshot) if f.severity == "error"] == []
    assert not accumulator.done


def test_models_are_accepted_as_events_and_errors_end_the_message() -> None:
    accumulator = Accumulator()
    accumulator.feed(TextDeltaEvent(type="text_delta", index=0, text="Hel"))
    accumulator.feed(
        {
            "type": "error",
            "error": {"code": "provider_error", "path": "", "message": "overloaded"},
            "provider_code": "overloaded_error",
        }
    )
    assert accumulator.done
    message = accumulator.message()
    assert message.extensions is not None and message.extensions.completion is not None
    assert message.extensions.completion.status == "error"
    with pytest.raises(StreamError) as caught:
        accumulator.feed(MessageCompleteEvent(type="message_complete", stop_reason="end"))
    assert (caught.value.error.code, caught.value.error.path) == ("stream_out_of_order", "/2")


@pytest.mark.parametrize(
    ("events", "code", "path"),
    [
        (
            [{"type": "tool_call_delta", "index": 0, "arguments_delta": "{"}],
            "stream_out_of_order",
            "/0",
        ),
        ([{"type": "tool_call_end", "index": 4}], "stream_out_of_order", "/0"),
        (
            [
                {"type": "text_delta", "index": 0, "text": "a"},
                {"type": "thinking_delta", "index": 0, "text": "b"},
            ],
            "stream_out_of_order",
            "/1",
        ),
        (
            [
                {"type": "text_delta", "index": 0, "text": "a"},
                {"type": "tool_call_start", "index": 0, "id": "c", "name": "f"},
            ],
            "stream_out_of_order",
            "/1",
        ),
        (
            [
                {"type": "tool_call_start", "index": 0, "id": "c", "name": "f"},
                {"type": "message_complete", "stop_reason": "call"},
            ],
            "stream_out_of_order",
            "/1",
        ),
        (
            [
                {"type": "tool_call_start", "index": 0, "id": "c", "name": "f"},
                {"type": "tool_call_delta", "index": 0, "arguments_delta": '{"a": '},
                {"type": "tool_call_end", "index": 0},
            ],
            "invalid_json",
            "/content/0/arguments",
        ),
        (
            [
                {"type": "tool_call_start", "index": 0, "id": "c", "name": "f"},
                {"type": "tool_call_delta", "index": 0, "arguments_delta": "[1]"},
                {"type": "tool_call_end", "index": 0},
            ],
            "wrong_type",
            "/content/0/arguments",
        ),
        ([{"type": "text_delta", "index": -1, "text": "a"}], "below_minimum", "/0/index"),
        ([{"type": "sparkle"}], "unknown_variant", "/0/type"),
    ],
)
def test_events_that_do_not_fit_are_coded_errors(
    events: list[dict[str, Any]], code: str, path: str
) -> None:
    with pytest.raises(StreamError) as caught:
        accumulate(events)
    assert (caught.value.error.code, caught.value.error.path) == (code, path)
