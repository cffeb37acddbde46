"""A wire field a reader drops is reported only when it carries something (`runtime.carries`):
servers fill fields they do not use with nulls, empty strings and objects of them (Snowflake's
OpenAI-compatible responses), and dropping those loses nothing. The fused pair converters
pass them over as the two-step path does."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.adapters.runtime import carries
from interlingua.conversion.converter import convert
from interlingua.generated.pairs import PAIRS
from tests.adapters.fused import same

REAL = Path(__file__).resolve().parents[2] / "conformance" / "real"
SNOWFLAKE = REAL / "openai-chat/response/pydantic-ai--test-snowflake-test-snowflake-thinking-0.json"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, False),
        ("", False),
        ([], False),
        ({}, True),  # an object's presence is its value (Gemini's `googleSearch: {}`)
        ({"a": {}}, True),
        ({"a": None}, False),
        ([None, ""], False),
        ({"name": "", "arguments": ""}, False),
        ({"content": None, "refusal": None, "more": [{"a": ""}]}, False),
        (0, True),  # a zero is a value (`expires_at: 0` says when)
        (False, True),
        (0.0, True),
        (" ", True),
        ("x", True),
        ({"a": "", "b": 0}, True),
        ([[], [[None, "y"]]], True),
    ],
)
def test_what_carries_something(value: Any, expected: bool) -> None:
    assert carries(value) is expected


# A Snowflake-like OpenAI Chat response: every field it does not use filled with a placeholder.
PLACEHOLDERS: dict[str, Any] = {
    "id": "r-1",
    "object": "chat.completion",
    "created": 1783468054,
    "model": "claude-sonnet-4-6",
    "service_tier": "",
    "system_fingerprint": "",
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "logprobs": {"content": None, "refusal": None},
            "message": {
                "role": "assistant",
                "content": "Sure! Let me check that for you!",
                "refusal": "",
                "annotations": None,
                "function_call": {"name": "", "arguments": ""},
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                        "custom": {"input": "", "name": ""},
                    }
                ],
            },
        }
    ],
}


@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "gemini", "bedrock"])
def test_a_response_of_empty_placeholders_loses_none_of_them(target: str) -> None:
    result = convert(copy.deepcopy(PLACEHOLDERS), "openai-chat", target, kind="response")
    dropped = [loss.pointer for loss in result.losses if loss.code == "field_dropped"]
    assert dropped == []
    # The creation time is a value: carried where the target has a place for it, else reported.
    created = [(loss.pointer, loss.code) for loss in result.losses if loss.pointer == "/created"]
    assert created == ([] if target == "openai-responses" else [("/created", "parameter_dropped")])


def test_the_recorded_snowflake_response_reports_only_what_carries_something() -> None:
    body = json.loads(SNOWFLAKE.read_text(encoding="utf-8"))
    result = convert(body, "openai-chat", "anthropic", kind="response")
    unread = {loss.pointer for loss in result.losses if "has no canonical home" in loss.reason}
    for placeholder in (
        "/service_tier",
        "/system_fingerprint",
        "/choices/0/message/function_call",
        "/choices/0/message/tool_calls/0/custom",
    ):
        assert placeholder not in unread
    # `audio`'s `expires_at: 0` is a value (the schema requires it, so it is all a placeholder
    # `audio` can be, but a 0 says something elsewhere); the reasoning details carry text.
    assert unread == {"/choices/0/message/audio", "/choices/0/message/reasoning_details"}


# One request of each source format with unread fields that carry nothing, where the fused
# pass reads them: the top level, a message (OpenAI Chat, Responses), a tool, a config group.
REQUESTS: dict[str, dict[str, Any]] = {
    "openai-chat": {
        "model": "m",
        "service_tier": "",
        "messages": [
            {"role": "user", "content": "hi", "x-trace": {"id": None}},
            {
                "role": "assistant",
                "content": "ok",
                "function_call": {"name": "", "arguments": ""},
                "audio": {"id": ""},
            },
        ],
        "tools": [{"type": "function", "function": {"name": "f"}, "x-pad": {"a": None}}],
    },
    "anthropic": {
        "model": "m",
        "max_tokens": 5,
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "f", "input_schema": {"type": "object"}, "x-pad": [None, ""]}],
        "x-pad": "",
    },
    "openai-responses": {
        "model": "m",
        "input": [{"role": "user", "content": "hi", "x-pad": {"a": ""}}],
        "tools": [{"type": "function", "name": "f", "parameters": {}, "x-pad": [None, ""]}],
        "x-pad": "",
    },
    "gemini": {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"x-pad": ""},
        "x-pad": {"a": [""]},
    },
    "bedrock": {"messages": [{"role": "user", "content": [{"text": "hi"}]}], "x-pad": ""},
}


@pytest.mark.parametrize(("source", "target"), sorted(PAIRS))
def test_a_request_of_empty_placeholders_loses_none_on_either_path(
    source: str, target: str
) -> None:
    body = REQUESTS[source]
    assert type(PAIRS[source, target](copy.deepcopy(body))) is tuple  # the fused pass takes it
    fused = convert(copy.deepcopy(body), source, target)
    two_step = convert(copy.deepcopy(body), source, target, fused=False)
    assert fused.fused and not two_step.fused
    same(fused, two_step)
    assert not [loss for loss in two_step.losses if "has no canonical home" in loss.reason]


@pytest.mark.parametrize(("source", "target"), sorted(PAIRS))
def test_a_placeholder_holding_a_value_is_still_reported_on_both_paths(
    source: str, target: str
) -> None:
    body = {**copy.deepcopy(REQUESTS[source]), "x-kept": {"a": "", "b": 0}}
    fused = convert(copy.deepcopy(body), source, target)
    two_step = convert(copy.deepcopy(body), source, target, fused=False)
    assert fused.fused
    same(fused, two_step)
    dropped = [loss.pointer for loss in two_step.losses if "has no canonical home" in loss.reason]
    assert dropped == ["/x-kept"]


def test_a_tool_choice_no_reading_takes_is_reported_only_when_it_carries_something() -> None:
    """`unmatched`: a value of a shape no variant reads."""
    body = {"model": "m", "input": "hi", "tool_choice": {"type": "", "name": ""}}
    result = convert(copy.deepcopy(body), "openai-responses", "openai-chat")
    assert not [loss for loss in result.losses if loss.pointer == "/tool_choice"]
    body["tool_choice"] = {"type": "x"}
    result = convert(body, "openai-responses", "openai-chat")
    assert [loss.code for loss in result.losses if loss.pointer == "/tool_choice"] == [
        "field_dropped"
    ]


OLLAMA_LEGACY = {
    "model": "llama3.1",
    "messages": [{"role": "user", "content": "hi"}],
    "stream": False,
    "format": "",
    "options": {},
}


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "gemini"])
def test_ollamas_empty_format_is_no_structured_output(target: str) -> None:
    """ollama-python before 0.4 sent `format: ""` by default, which the server takes as none:
    read as no response format (not a schema `""`, and not refused), it carries nothing."""
    result = convert(copy.deepcopy(OLLAMA_LEGACY), "ollama", target)
    assert "response_format" not in result.output
    assert "generationConfig" not in result.output or (
        "responseMimeType" not in result.output["generationConfig"]
    )
    assert not [loss for loss in result.losses if loss.pointer == "/format"]


def test_ollamas_empty_format_comes_back_from_the_round_trip() -> None:
    assert convert(copy.deepcopy(OLLAMA_LEGACY), "ollama", "ollama").output == OLLAMA_LEGACY


def test_ollamas_format_of_another_scalar_is_still_refused() -> None:
    with pytest.raises(ConversionError):
        convert({**copy.deepcopy(OLLAMA_LEGACY), "format": "xml"}, "ollama", "openai-chat")


# A value that asks for what every format does anyway (the mapping's request `defaults`): one
# answer, text only. Reported, it was the corpus's third commonest needless loss (Gemini's
# `responseModalities: ["TEXT"]` in 29 recorded requests, OpenAI Chat's `n: 1` in 7).
CHAT = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
GEMINI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {}}


@pytest.mark.parametrize(
    ("source", "body", "where", "value", "reported"),
    [
        ("openai-chat", CHAT, (), ("n", 1), False),
        ("openai-chat", CHAT, (), ("n", 2), True),
        ("gemini", GEMINI, ("generationConfig",), ("candidateCount", 1), False),
        ("gemini", GEMINI, ("generationConfig",), ("candidateCount", 2), True),
        ("gemini", GEMINI, ("generationConfig",), ("responseModalities", ["TEXT"]), False),
        ("gemini", GEMINI, ("generationConfig",), ("responseModalities", ["TEXT", "IMAGE"]), True),
    ],
)
@pytest.mark.parametrize("target", ["anthropic", "openai-chat", "gemini"])
def test_a_default_value_is_no_loss(
    source: str,
    body: dict[str, Any],
    where: tuple[str, ...],
    value: tuple[str, Any],
    reported: bool,
    target: str,
) -> None:
    body = copy.deepcopy(body)
    holder = body
    for key in where:
        holder = holder[key]
    holder[value[0]] = value[1]
    result = convert(copy.deepcopy(body), source, target)
    pointer = "".join(f"/{key}" for key in (*where, value[0]))
    if target == source:
        assert result.output == body
        assert not result.losses
        return
    assert ((pointer, "field_dropped") in {(x.pointer, x.code) for x in result.losses}) is reported
    same(result, convert(copy.deepcopy(body), source, target, fused=False))


def test_a_default_is_of_its_own_type() -> None:
    # `true` is not `1`: the schema refuses it, it is not passed over as a default.
    with pytest.raises(ConversionError) as caught:
        convert({**CHAT, "n": True}, "openai-chat", "anthropic")
    assert caught.value.pointer == "/n"


# OpenAI Responses echoes the request's settings in its response: at their defaults they tell
# nothing of the answer (about fifteen reports on every recorded response crossed elsewhere).
RESPONSES_ECHO: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1,
    "status": "completed",
    "model": "gpt-4.1",
    "output": [
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "hi", "annotations": []}],
        }
    ],
    "temperature": 1.0,
    "top_p": 1,
    "truncation": "disabled",
    "tool_choice": "auto",
    "parallel_tool_calls": True,
    "store": True,
    "background": False,
    "service_tier": "default",
    "top_logprobs": 0,
    "frequency_penalty": 0.0,
    "presence_penalty": 0,
    "metadata": {},
    "billing": {"payer": "developer"},
    "text": {"format": {"type": "text"}, "verbosity": "medium"},
    "tool_usage": {
        "image_gen": {
            "input_tokens": 0,
            "input_tokens_details": {"image_tokens": 0, "text_tokens": 0},
            "output_tokens": 0,
            "output_tokens_details": {"image_tokens": 0, "text_tokens": 0},
            "total_tokens": 0,
        },
        "web_search": {"num_requests": 0},
    },
    "usage": {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4},
}


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "gemini"])
def test_a_responses_echo_of_default_settings_is_no_loss(target: str) -> None:
    result = convert(copy.deepcopy(RESPONSES_ECHO), "openai-responses", target, "response")
    echoed = {key for key in RESPONSES_ECHO if key not in ("id", "model", "output", "usage")}
    assert not [x for x in result.losses if x.pointer.lstrip("/") in echoed - {"created_at"}]
    # A setting off its default says something of how the answer was made: reported.
    body = {**copy.deepcopy(RESPONSES_ECHO), "temperature": 0.2, "truncation": "auto"}
    body["tool_usage"]["web_search"]["num_requests"] = 2  # a tool ran: its usage tells of it
    result = convert(body, "openai-responses", target, "response")
    assert {"/temperature", "/truncation", "/tool_usage"} <= {x.pointer for x in result.losses}


def test_a_usage_fields_default_is_no_loss_and_another_value_is() -> None:
    answer: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 3,
            "output_tokens": 1,
            "service_tier": "standard",
            "inference_geo": "global",
        },
    }
    result = convert(copy.deepcopy(answer), "anthropic", "openai-chat", "response")
    assert not [x for x in result.losses if x.pointer.startswith("/usage/")]
    answer["usage"]["service_tier"] = "priority"
    result = convert(answer, "anthropic", "openai-chat", "response")
    assert [x.pointer for x in result.losses if x.pointer.startswith("/usage/")] == [
        "/usage/service_tier"
    ]


def test_a_usage_split_that_only_repeats_its_count_is_no_loss_and_another_is() -> None:
    """Gemini's `promptTokensDetails`, all text adding up to the prompt count, says nothing
    the count does not; a split with an image in it, or one that does not add up, does."""
    text = [{"modality": "TEXT", "tokenCount": 7}]
    usage = {"promptTokenCount": 7, "candidatesTokenCount": 2, "totalTokenCount": 9}
    body: dict[str, Any] = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}
        ],
        "modelVersion": "gemini-2.5-flash",
        "usageMetadata": {**usage, "promptTokensDetails": text},
    }

    def reported(details: Any) -> list[str]:
        given = copy.deepcopy(body)
        given["usageMetadata"]["promptTokensDetails"] = details
        result = convert(given, "gemini", "openai-chat", "response")
        return [x.pointer for x in result.losses if x.pointer.startswith("/usageMetadata")]

    assert reported(text) == []
    split = [{"modality": "TEXT", "tokenCount": 4}, {"modality": "TEXT", "tokenCount": 3}]
    assert reported(split) == []
    for details in (
        [{"modality": "TEXT", "tokenCount": 4}, {"modality": "IMAGE", "tokenCount": 3}],
        [{"modality": "TEXT", "tokenCount": 6}],
        [{"modality": "TEXT"}],
    ):
        assert reported(details) == ["/usageMetadata/promptTokensDetails"], details


def test_gemini_first_candidates_index_is_no_loss() -> None:
    body: dict[str, Any] = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "hi"}]},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "modelVersion": "gemini-2.5-flash",
    }
    result = convert(copy.deepcopy(body), "gemini", "openai-chat", "response")
    assert not [x for x in result.losses if "index" in x.pointer]
    body["candidates"][0]["index"] = 1
    result = convert(body, "gemini", "openai-chat", "response")
    assert ("/candidates/0/index", "parameter_dropped") in [
        (x.pointer, x.code) for x in result.losses
    ]


def test_bedrocks_tool_use_tag_is_read_and_left_out_when_written() -> None:
    """Converse responses recorded by crewai tag a client tool's call `type: tool_use`: it was
    reported on every call crossed elsewhere. A server tool's call (`server_tool_use`) is
    still a hosted call."""
    call = {"toolUseId": "t1", "name": "f", "input": {"q": 1}, "type": "tool_use"}
    answer: dict[str, Any] = {
        "output": {"message": {"role": "assistant", "content": [{"toolUse": call}]}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 3, "outputTokens": 1, "totalTokens": 4},
    }
    result = convert(copy.deepcopy(answer), "bedrock", "openai-chat", "response")
    assert not [x for x in result.losses if "toolUse" in x.pointer]
    assert result.output["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "f"
    assert convert(copy.deepcopy(answer), "bedrock", "bedrock", "response").output == answer
    canonical = without_raw(
        convert(copy.deepcopy(answer), "bedrock", "canonical", "response").output
    )
    written = convert(canonical, "canonical", "bedrock", "response").output
    assert written["output"]["message"]["content"][0]["toolUse"] == {
        k: v for k, v in call.items() if k != "type"
    }
    hosted = copy.deepcopy(answer)
    hosted["output"]["message"]["content"][0]["toolUse"]["type"] = "server_tool_use"
    parts = convert(hosted, "bedrock", "canonical", "response").output["message"]["content"]
    assert parts[0]["type"] == "hosted_tool_call"


def _gemini_answer(traffic: str) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}
        ],
        "modelVersion": "gemini-2.5-flash",
        "usageMetadata": {
            "promptTokenCount": 3,
            "candidatesTokenCount": 1,
            "totalTokenCount": 4,
            "trafficType": traffic,
        },
    }


def _chat_answer(tier: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "llama-3.3-70b-versatile",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "hi"},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
        "service_tier": tier,
    }


@pytest.mark.parametrize(
    ("source", "answer", "usual", "other", "pointer"),
    [
        # Vertex AI's pay-as-you-go traffic, against provisioned throughput
        (
            "gemini",
            _gemini_answer,
            "ON_DEMAND",
            "PROVISIONED_THROUGHPUT",
            "/usageMetadata/trafficType",
        ),
        # Groq's default tier, against its flex tier
        ("openai-chat", _chat_answer, "on_demand", "flex", "/service_tier"),
    ],
)
def test_a_providers_default_tier_is_no_loss_and_another_is(
    source: str, answer: Any, usual: str, other: str, pointer: str
) -> None:
    result = convert(answer(usual), source, "anthropic", "response")
    assert not [x for x in result.losses if x.pointer == pointer], result.losses
    result = convert(answer(other), source, "anthropic", "response")
    assert [x.pointer for x in result.losses if x.pointer == pointer] == [pointer]


EMPTY_SYSTEMS = [
    (
        "bedrock",
        {"modelId": "m", "system": [], "messages": [{"role": "user", "content": [{"text": "hi"}]}]},
    ),
    (
        "anthropic",
        {
            "model": "m",
            "max_tokens": 5,
            "system": [],
            "messages": [{"role": "user", "content": "hi"}],
        },
    ),
    (
        "anthropic",
        {
            "model": "m",
            "max_tokens": 5,
            "system": "",
            "messages": [{"role": "user", "content": "hi"}],
        },
    ),
    (
        "gemini",
        {
            "systemInstruction": {"parts": []},
            "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        },
    ),
    (
        "gemini",
        {
            "systemInstruction": {"role": "user", "parts": []},
            "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        },
    ),
    ("openai-responses", {"model": "m", "instructions": "", "input": "hi"}),
]


@pytest.mark.parametrize(("source", "body"), EMPTY_SYSTEMS)
@pytest.mark.parametrize(
    "target", ["openai-chat", "anthropic", "gemini", "bedrock", "openai-responses"]
)
def test_an_empty_system_field_is_no_prompt_written_or_reported_anywhere(
    source: str, body: dict[str, Any], target: str
) -> None:
    """No block, an empty string or a system instruction of no part says nothing: no system
    message is read, so none is written (an empty one in OpenAI Chat) or reported dropped
    (where the target refuses an empty prompt). Round-trip data gives the source its field back."""
    document = convert(copy.deepcopy(body), source, "canonical").output
    assert [m["role"] for m in document["messages"]] == ["user"]
    assert convert(document, "canonical", source).output == body
    if target == source:
        return
    outputs = [convert(copy.deepcopy(body), source, target, fused=fused) for fused in (True, False)]
    assert outputs[0].output == outputs[1].output
    assert outputs[0].losses == outputs[1].losses
    assert not [x for x in outputs[1].losses if x.pointer.startswith("/messages/")]
    assert "system" not in json.dumps(outputs[1].output)


@pytest.mark.parametrize(("include", "reported"), [(True, False), (False, True)])
@pytest.mark.parametrize("target", ["anthropic", "gemini", "bedrock", "openai-responses"])
@pytest.mark.parametrize("fused", [True, False])
def test_a_streams_usage_asked_for_is_no_loss(
    include: bool, reported: bool, target: str, fused: bool
) -> None:
    """`stream_options: {include_usage: true}` asks for what every other format's stream gives
    anyway; `false` asks for a stream without usage, which none of them can leave out."""
    body = {
        "model": "m",
        "stream": True,
        "stream_options": {"include_usage": include},
        "messages": [{"role": "user", "content": "hi"}],
    }
    result = convert(body, "openai-chat", target, fused=fused)
    assert result.fused is fused
    flagged = [x.pointer for x in result.losses if x.pointer.startswith("/stream_options")]
    assert flagged == (["/stream_options"] if reported else [])


def test_deepseeks_second_cache_count_is_no_loss_when_it_repeats_the_first() -> None:
    """DeepSeek gives its cache hits twice (recorded by pydantic-ai): as OpenAI's
    `prompt_tokens_details.cached_tokens` and as `prompt_cache_hit_tokens`."""
    answer = _chat_answer("default")
    answer["usage"] = {
        "prompt_tokens": 495,
        "completion_tokens": 1,
        "total_tokens": 496,
        "prompt_tokens_details": {"cached_tokens": 320},
        "prompt_cache_hit_tokens": 320,
    }
    result = convert(copy.deepcopy(answer), "openai-chat", "anthropic", "response")
    assert not [x for x in result.losses if "prompt_cache_hit_tokens" in x.pointer]
    answer["usage"]["prompt_cache_hit_tokens"] = 300
    result = convert(answer, "openai-chat", "anthropic", "response")
    assert [x.pointer for x in result.losses if "prompt_cache_hit_tokens" in x.pointer] == [
        "/usage/prompt_cache_hit_tokens"
    ]
