"""What a provider's usage object holds beyond the counts the mapping reads. Gemini's
`toolUsePromptTokenCount` (the prompts of its code execution and search) used to vanish, so
the input count of a crossed response fell short of its total; its breakdowns by modality and
its `serviceTier`, Anthropic's `server_tool_use` and OpenAI's other detail counts vanished with
nothing reported. The tool prompts now have a canonical count, and the rest is reported when
the conversion crosses formats (once per field in a stream), unless it is a zero count."""

from __future__ import annotations

import copy
from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert
from interlingua.streams.engine import StreamTranslator, read_stream
from tests.streams.helpers import framed

# Recorded by openinference's google-adk instrumentation tests (code execution), trimmed.
GEMINI: dict[str, Any] = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "42"}]}, "finishReason": "STOP"}
    ],
    "usageMetadata": {
        "promptTokenCount": 75,
        "candidatesTokenCount": 414,
        "totalTokenCount": 1179,
        # a prompt with an image: the split says what the count does not (the tool prompt's,
        # all text, does not)
        "promptTokensDetails": [
            {"modality": "TEXT", "tokenCount": 60},
            {"modality": "IMAGE", "tokenCount": 15},
        ],
        "toolUsePromptTokenCount": 573,
        "toolUsePromptTokensDetails": [{"modality": "TEXT", "tokenCount": 573}],
        "thoughtsTokenCount": 117,
        # the default tier says nothing (`usage_defaults`); another is reported
        "serviceTier": "flex",
    },
    "modelVersion": "gemini-2.5-flash",
}


def _pointers(result: Any) -> set[tuple[str, str]]:
    return {(loss.pointer, loss.code) for loss in result.losses}


def test_tool_prompt_tokens_are_input_tokens_counted_apart() -> None:
    canonical = convert(copy.deepcopy(GEMINI), "gemini", "canonical", kind="response").output
    assert canonical["usage"] == {
        "input_tokens": 75 + 573,
        "output_tokens": 414 + 117,
        "total_tokens": 1179,
        "reasoning_tokens": 117,
        "tool_input_tokens": 573,
    }
    # Written back from the canonical document alone (no round-trip data), the split returns.
    again = convert(without_raw(canonical), "canonical", "gemini", kind="response")
    assert not again.losses
    written = again.output["usageMetadata"]
    assert written["promptTokenCount"] == 75
    assert written["toolUsePromptTokenCount"] == 573


def test_a_crossed_gemini_usage_adds_up_and_reports_what_it_leaves() -> None:
    result = convert(copy.deepcopy(GEMINI), "gemini", "openai-chat", kind="response")
    usage = result.output["usage"]
    assert usage["prompt_tokens"] + usage["completion_tokens"] == usage["total_tokens"] == 1179
    assert {
        ("/usageMetadata/promptTokensDetails", "field_dropped"),
        ("/usageMetadata/serviceTier", "field_dropped"),
        ("/usage/tool_input_tokens", "field_dropped"),
    } <= _pointers(result)
    assert ("/usageMetadata/toolUsePromptTokensDetails", "field_dropped") not in _pointers(result)


def test_the_default_service_tier_is_no_loss() -> None:
    standard = copy.deepcopy(GEMINI)
    standard["usageMetadata"]["serviceTier"] = "standard"
    result = convert(standard, "gemini", "openai-chat", kind="response")
    assert ("/usageMetadata/serviceTier", "field_dropped") not in _pointers(result)


def test_the_same_format_keeps_everything_and_reports_nothing() -> None:
    result = convert(copy.deepcopy(GEMINI), "gemini", "gemini", kind="response")
    assert result.output == GEMINI
    assert not result.losses


def _chat(usage: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "hi"},
                "finish_reason": "stop",
            }
        ],
        "usage": usage,
    }


def test_a_zero_count_says_nothing_and_a_count_is_reported() -> None:
    usage = {
        "prompt_tokens": 9,
        "completion_tokens": 2,
        "total_tokens": 11,
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 4},
    }
    result = convert(_chat(usage), "openai-chat", "anthropic", kind="response")
    details = {p for p, _ in _pointers(result) if p.startswith("/usage/") and "_details" in p}
    assert details == {"/usage/completion_tokens_details/audio_tokens"}


def test_anthropic_server_tool_use_is_reported() -> None:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 10,
            "output_tokens": 3,
            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
            "server_tool_use": {"web_search_requests": 1},
        },
    }
    result = convert(body, "anthropic", "openai-chat", kind="response")
    dropped = {p for p, code in _pointers(result) if p.startswith("/usage")}
    assert dropped == {"/usage/server_tool_use"}


def test_a_merged_usage_leaves_its_object_to_the_envelope() -> None:
    # Ollama's counts sit beside the response's other fields: only the envelope reports those.
    body = {
        "model": "llama3",
        "created_at": "2024-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": "hi"},
        "done": True,
        "done_reason": "stop",
        "prompt_eval_count": 5,
        "eval_count": 2,
        "eval_duration": 1000,
    }
    result = convert(body, "ollama", "openai-chat", kind="response")
    assert [p for p, _ in _pointers(result) if p == "/eval_duration"] == ["/eval_duration"]


def test_a_stream_reports_each_usage_field_once() -> None:
    first = copy.deepcopy(GEMINI)
    first["candidates"][0].pop("finishReason")
    chunks = [first, copy.deepcopy(first), copy.deepcopy(GEMINI)]
    ctx = Context("gemini", kind="response", fidelity=False)
    events = list(read_stream(chunks, "gemini", ctx))
    usage_losses = [loss.pointer for loss in ctx.losses if "/usageMetadata/" in loss.pointer]
    assert sorted(usage_losses) == [
        "/0/usageMetadata/promptTokensDetails",
        "/0/usageMetadata/serviceTier",
    ]
    (last,) = [e for e in events if e["type"] == "message_complete"]
    assert last["usage"]["tool_input_tokens"] == 573


def test_a_total_that_is_the_sum_of_its_parts_is_no_loss() -> None:
    """A format with no total (Anthropic's usage) loses nothing of a total a reader can add
    up; one that is not the sum of the counts says something, and is reported."""
    chat: dict[str, Any] = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    result = convert(copy.deepcopy(chat), "openai-chat", "anthropic", "response")
    assert not [x for x in result.losses if x.pointer.startswith("/usage")]
    chat["usage"]["total_tokens"] = 99
    result = convert(chat, "openai-chat", "anthropic", "response")
    assert [(x.pointer, x.code) for x in result.losses if x.pointer.startswith("/usage")] == [
        ("/usage/total_tokens", "field_dropped")
    ]


def test_a_stream_writer_reports_each_usage_field_once() -> None:
    """Gemini gives its usage on every chunk: a count Anthropic has no place for (the tool
    prompts' tokens; reasoning tokens until Anthropic counted them apart) was reported once per
    chunk written."""
    first = copy.deepcopy(GEMINI)
    first["candidates"][0].pop("finishReason")
    chunks = [first, copy.deepcopy(first), copy.deepcopy(GEMINI)]
    translator = StreamTranslator("gemini", "anthropic")
    for line in framed("gemini", chunks):
        translator.feed(line)
    translator.close()
    tools = [x.pointer for x in translator.losses if x.pointer.endswith("tool_input_tokens")]
    assert len(tools) == 1


# Recorded from Converse by CrewAI's and botocore's cassettes: each cache count comes twice.
CONVERSE_USAGE: dict[str, Any] = {
    "cacheReadInputTokenCount": 2752,
    "cacheReadInputTokens": 2752,
    "cacheWriteInputTokenCount": 0,
    "cacheWriteInputTokens": 0,
    "inputTokens": 386,
    "outputTokens": 78,
    "totalTokens": 3216,
}


def _converse(usage: dict[str, Any]) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": "hi"}]}},
        "stopReason": "end_turn",
        "usage": usage,
        "metrics": {"latencyMs": 10},
    }


def test_a_count_that_repeats_another_under_another_name_is_no_loss() -> None:
    result = convert(_converse(dict(CONVERSE_USAGE)), "bedrock", "openai-chat", kind="response")
    assert not [p for p, _ in _pointers(result) if p.startswith("/usage/")], result.losses
    assert result.output["usage"]["prompt_tokens_details"] == {"cached_tokens": 2752}
    # another number than the count it repeats says something: reported
    odd = {**CONVERSE_USAGE, "cacheReadInputTokenCount": 2700}
    result = convert(_converse(odd), "bedrock", "openai-chat", kind="response")
    assert ("/usage/cacheReadInputTokenCount", "field_dropped") in _pointers(result)
    # and the round trip keeps both spellings
    canonical = convert(_converse(dict(CONVERSE_USAGE)), "bedrock", "canonical", kind="response")
    back = convert(canonical.output, "canonical", "bedrock", kind="response").output
    assert back["usage"] == CONVERSE_USAGE
