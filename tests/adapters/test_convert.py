"""The conversion API: results, strict mode, logging, untouched inputs, round-trip data."""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest

from interlingua.conversion import ConversionError, LossyConversionError
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert, formats, from_canonical, to_canonical

CHAT = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "developer", "content": "Answer in French."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather?"},
                {
                    "type": "image_url",
                    "image_url": {"url": "data:image/png;base64,AAA", "detail": "high"},
                },
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call.1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                },
                {
                    "id": "call.2",
                    "type": "function",
                    "function": {"name": "get_time", "arguments": "{}"},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call.1", "content": "18C"},
        {"role": "tool", "tool_call_id": "call.2", "content": "12:00"},
    ],
    "logprobs": True,
}


def test_formats_list_canonical_first() -> None:
    names = formats()
    assert names[0] == "canonical"
    assert {"openai-chat", "anthropic"} <= set(names)


def test_the_input_is_never_mutated() -> None:
    body = copy.deepcopy(CHAT)
    canonical = to_canonical(body, "openai-chat").output
    assert body == CHAT
    frozen = copy.deepcopy(canonical)
    for target in formats()[1:]:
        from_canonical(canonical, target)
        assert canonical == frozen


def test_openai_to_anthropic_reports_every_loss_and_logs_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.DEBUG, logger="interlingua.conversion.converter"):
        result = convert(CHAT, source="openai-chat", target="anthropic")
    # One DEBUG line a loss (beside the line saying why a body took the two-step path).
    records = [r for r in caplog.records if "two-step path" not in r.getMessage()]
    assert {r.levelno for r in records} == {logging.DEBUG}
    out = result.output
    assert out["system"] == [
        {"type": "text", "text": "Be brief."},
        {"type": "text", "text": "Answer in French."},
    ]
    results_turn = out["messages"][-1]
    assert [b["type"] for b in results_turn["content"]] == ["tool_result", "tool_result"]
    assert out["messages"][0]["content"][1]["source"] == {
        "type": "base64",
        "media_type": "image/png",
        "data": "AAA",
    }
    codes = sorted((loss.pointer, loss.code) for loss in result.losses)
    assert codes == [
        ("/logprobs", "field_dropped"),  # read from the input: OpenAI only
        ("/messages/1", "role_changed"),
        ("/messages/2/content/1/detail", "field_dropped"),
        ("/messages/3/content/0/id", "id_rewritten"),
        ("/messages/3/content/1/id", "id_rewritten"),
        ("/parameters/max_output_tokens", "placeholder_inserted"),
    ]  # argument spacing is no loss: the same JSON
    assert len(records) == len(result.losses)
    # Each line names the adapter that lost it: the reader for what it left behind.
    assert [r.getMessage().split(":")[0] for r in records].count("openai-chat") == 1
    assert all(r.getMessage().split(":")[0] in ("openai-chat", "anthropic") for r in records)


@pytest.mark.parametrize("fused", [True, False])
def test_losses_are_returned_not_warned(caplog: pytest.LogCaptureFixture, fused: bool) -> None:
    """A loss is an outcome the result reports, not a warning: at the default levels a lossy
    conversion logs nothing (the DEBUG lines are for who turns them on)."""
    with caplog.at_level(logging.INFO, logger="interlingua"):
        result = convert(CHAT, source="openai-chat", target="anthropic", fused=fused)
        stored = convert(CHAT, source="openai-chat", target="gemini", fused=fused)
    assert result.losses and stored.losses
    assert caplog.records == []
    assert result.id_map == {"call_1": "call.1", "call_2": "call.2"}
    report = result.report()
    assert report["source"] == "openai-chat" and report["id_map"] == result.id_map


def test_strict_mode_fails_with_every_loss() -> None:
    with pytest.raises(LossyConversionError) as err:
        convert(CHAT, "openai-chat", "anthropic", strict=True)
    assert err.value.code == "lossy_conversion"
    assert len(err.value.losses) >= 5
    assert convert(CHAT, "openai-chat", "openai-chat", strict=True).output == CHAT


def test_ids_rewritten_for_a_target_map_back() -> None:
    out = convert(CHAT, "openai-chat", "anthropic")
    back = convert(out.output, "anthropic", "canonical", id_map=out.id_map).output
    calls = [p for m in back["messages"] for p in m["content"] if p["type"] == "tool_call"]
    assert [c["id"] for c in calls] == ["call.1", "call.2"]


def test_round_trip_data_is_applied_only_while_it_fits() -> None:
    canonical = to_canonical(CHAT, "openai-chat").output
    assert from_canonical(canonical, "openai-chat").output == CHAT
    edited = copy.deepcopy(canonical)
    edited["messages"][3]["content"][0]["arguments"] = {"city": "Rome"}
    result = from_canonical(edited, "openai-chat")
    call = result.output["messages"][3]["tool_calls"][0]
    assert call["function"]["arguments"] == '{"city":"Rome"}'  # the edit wins
    assert ("/messages/3", "provider_raw_stale") in {(x.pointer, x.code) for x in result.losses}


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: convert({}, "nope", "canonical"), "unknown_format"),
        (lambda: convert({}, "canonical", "nope"), "unknown_format"),
        (lambda: convert({}, "openai-chat", "canonical", "reply"), "unknown_document"),
        (lambda: convert([], "openai-chat", "canonical"), "wrong_type"),
        (
            lambda: convert({"messages": 5}, "openai-chat", "canonical", validate_input=False),
            "wrong_type",
        ),
        (
            lambda: convert(
                {"schema_version": 1, "messages": []}, "canonical", "anthropic", "response"
            ),
            "missing_field",
        ),
    ],
)
def test_bad_input_gets_a_code(call: Any, code: str) -> None:
    with pytest.raises(ConversionError) as err:
        call()
    assert err.value.code == code
    assert err.value.as_json()["code"] == code


def test_a_bedrock_tool_result_read_for_another_format_has_no_structured_value() -> None:
    # Regression: the unread-key check of a result's taken `json` block ran when there was
    # none (a TypeError reported as `malformed bedrock request`).
    body = {
        "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}],
            },
            {
                "role": "user",
                "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "ok"}]}}],
            },
        ],
        "toolConfig": {
            "tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}]
        },
    }
    out = convert(body, "bedrock", "anthropic").output
    assert out["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}
    ]


def test_a_creation_time_is_carried_or_reported() -> None:
    # Regression: OpenAI's `created` (once a placeholder field, with no canonical home) vanished
    # without a report when a response was read for another format. It is canonical now
    # (`Response.created`): Responses writes it as its `created_at`, a format without one
    # reports it, and for its own format it round-trips.
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1731000000,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hi", "refusal": None},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    elsewhere = convert(body, "openai-chat", "anthropic", "response")
    assert ("/created", "parameter_dropped") in [(x.pointer, x.code) for x in elsewhere.losses]
    responses = convert(body, "openai-chat", "openai-responses", "response")
    assert responses.output["created_at"] == 1731000000
    assert not [x for x in responses.losses if "created" in x.pointer]
    home = convert(
        convert(body, "openai-chat", "canonical", "response").output,
        "canonical",
        "openai-chat",
        "response",
    )
    assert home.output == body


def test_a_result_in_a_user_message_goes_out_as_a_tool_message_of_its_own() -> None:
    # Regression: a canonical tool_result inside a user message was written to OpenAI Chat as
    # a bogus `message` field of the user turn.
    document = {
        "schema_version": 1,
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "go"}]},
            {
                "role": "assistant",
                "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_call_id": "c1",
                        "content": [{"type": "text", "text": "ok"}],
                    },
                    {"type": "text", "text": "and now?"},
                ],
            },
        ],
    }
    result = convert(document, "canonical", "openai-chat")
    assert result.output["messages"][2:] == [
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "user", "content": "and now?"},
    ]
    assert [(x.pointer, x.code) for x in result.losses] == [("/messages/2/content/0", "moved")]


@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "umf"])
def test_a_request_none_of_whose_turns_the_target_carries_is_an_error(target: str) -> None:
    # Regression (issue 14): an audio-only conversation became `messages: []`, which every
    # provider refuses; now a coded error says nothing can be carried.
    body = {
        "model": "gpt-4o-audio-preview",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "input_audio", "input_audio": {"data": "SUQz", "format": "mp3"}}
                ],
            }
        ],
    }
    with pytest.raises(ConversionError) as caught:
        convert(body, "openai-chat", target)
    assert (caught.value.code, caught.value.pointer) == ("too_few_items", "/messages")


@pytest.mark.parametrize(
    ("source", "body"),
    [
        (
            "anthropic",
            {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]},
        ),
        ("bedrock", {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}),
        ("gemini", {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}),
    ],
)
@pytest.mark.parametrize("fused", [True, False])
def test_a_null_system_prompt_is_no_prompt(source: str, body: dict[str, Any], fused: bool) -> None:
    # It was an empty prompt written with a placeholder (Anthropic, Bedrock), or refused as
    # the wrong type (Gemini's `systemInstruction`), though the formats' schemas allow null.
    field = {"gemini": "systemInstruction"}.get(source, "system")
    given = {**copy.deepcopy(body), field: None}
    result = convert(given, source, "openai-chat", fused=fused)
    assert result.output["messages"] == [{"role": "user", "content": "hi"}]
    assert result.output == convert(copy.deepcopy(body), source, "openai-chat").output
    assert [loss.code for loss in result.losses] == [
        loss.code for loss in convert(copy.deepcopy(body), source, "openai-chat").losses
    ]
    # Its own format gets the null back (round-trip data).
    assert convert(copy.deepcopy(given), source, source).output == given


@pytest.mark.parametrize(
    ("source", "kind", "body", "pointer"),
    [
        # A file part with no file id (its modality may be left out, as OpenTelemetry's own
        # multimodal example leaves it: read as an unknown part).
        (
            "otel",
            "request",
            {
                "gen_ai.input.messages": [
                    {"role": "user", "parts": [{"type": "file", "modality": "image"}]}
                ]
            },
            "/gen_ai.input.messages/0/parts/0/file_id",
        ),
        # CMF's specification example: a tool call's fields beside its tag, not in `content`.
        (
            "cmf",
            "messages",
            {"role": "assistant", "content": [{"content_type": "tool_call", "name": "f"}]},
            "/content/0/content",
        ),
    ],
)
def test_a_known_part_missing_a_field_is_refused_where_the_field_is_missing(
    source: str, kind: str, body: dict[str, Any], pointer: str
) -> None:
    """Regression: the reading schema's member for unknown kinds refuses a known tag by a
    `not` on the tag; that member is not the one meant, so the error is the known member's
    missing field, not 'file should not be valid' at the tag."""
    with pytest.raises(ConversionError) as refused:
        convert(body, source, "openai-chat", kind)
    assert (refused.value.code, refused.value.pointer) == ("missing_field", pointer)


@pytest.mark.parametrize(
    ("source", "turn"),
    [
        ("openai-chat", {"role": "assistant", "content": "ok", "refusal": ""}),
        ("openai-chat", {"role": "assistant", "content": "ok", "reasoning_content": ""}),
        ("openai-chat", {"role": "assistant", "content": "ok", "reasoning": ""}),
        ("ollama", {"role": "assistant", "content": "ok", "thinking": ""}),
    ],
)
def test_an_empty_string_in_a_value_slot_is_no_part(source: str, turn: dict[str, Any]) -> None:
    """Regression (Snowflake's recorded response, `refusal: ""`): servers fill a turn's
    refusal or reasoning field with "" for nothing. It read as an empty refusal or thinking
    part, which crossed as an empty Anthropic text block or a needless
    `thinking_not_replayable`. Now it is no part; the round trip gives the "" back."""
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}, turn]}
    canonical = convert(body, source, "canonical").output
    assert canonical["messages"][1]["content"] == [{"type": "text", "text": "ok"}]
    assert convert(canonical, "canonical", source).output["messages"][1] == turn
    crossed = convert(body, source, "anthropic")
    assert crossed.output["messages"][1] == {"role": "assistant", "content": "ok"}
    assert [loss.code for loss in crossed.losses] == ["placeholder_inserted"]  # max_tokens


@pytest.mark.parametrize(
    ("source", "body", "field"),
    [
        (
            "openai-chat",
            {
                "id": "",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "ok"},
                        "finish_reason": "stop",
                    }
                ],
            },
            "id",
        ),
        (
            "anthropic",
            {
                "id": "",
                "type": "message",
                "role": "assistant",
                "model": "m",
                "content": [{"type": "text", "text": "ok"}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
            "id",
        ),
    ],
)
def test_an_empty_string_where_the_canonical_field_needs_a_character_is_absent(
    source: str, body: dict[str, Any], field: str
) -> None:
    """Regression (Snowflake's recorded response, `id: ""`): an optional wire string the
    canonical form needs non-empty read as "", a canonical response its own schema refuses
    (`too_short`). Now it is absent; the round trip gives the "" back."""
    canonical = convert(body, source, "canonical", "response").output
    assert field not in canonical
    assert convert(canonical, "canonical", source, "response").output[field] == ""


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "gemini", "cmf", "umf"])
def test_a_conversation_of_no_messages_is_refused_where_a_request_needs_a_turn(
    target: str,
) -> None:
    # It was written as `messages: []` (`contents: []`), which each of these providers refuses.
    with pytest.raises(ConversionError) as caught:
        convert({"schema_version": 1, "model": "m", "messages": []}, "canonical", target)
    assert (caught.value.code, caught.value.pointer) == ("too_few_items", "/messages")


@pytest.mark.parametrize("target", ["bedrock", "openai-responses", "ollama", "mcp"])
def test_a_conversation_of_no_messages_goes_where_a_request_may_have_none(target: str) -> None:
    convert({"schema_version": 1, "model": "m", "messages": []}, "canonical", target)


def test_a_tolerated_empty_body_comes_back_as_it_came() -> None:
    # UMF requires a message; reading takes a body of none all the same, and round-trip data
    # gives it back (the writer alone would refuse the canonical document).
    canonical = convert({"messages": []}, "umf", "canonical").output
    assert convert(canonical, "canonical", "umf").output == {"messages": []}
    with pytest.raises(ConversionError):
        convert(without_raw(canonical), "canonical", "umf")
