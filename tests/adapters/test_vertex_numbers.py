"""Vertex AI asked for `enum-encoding=int` (LangChain's client asks for it) gives an enum's
number instead of its name: `finishReason: 1`, `modality: 1`. Such a response used to be
refused (`wrong_type`); the finish reason now reads through the mapping's
`stop_reasons.numbers` (Vertex's proto numbering), so it is the same stop reason its name gives."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion.converter import convert
from interlingua.streams.engine import read_stream

RESPONSE: dict[str, Any] = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "Hello."}]}, "finishReason": 1}
    ],
    "usageMetadata": {
        "promptTokenCount": 3,
        "candidatesTokenCount": 2,
        "totalTokenCount": 5,
        "promptTokensDetails": [{"modality": 1, "tokenCount": 3}],
    },
    "modelVersion": "gemini-2.5-flash",
}


@pytest.mark.parametrize(
    ("number", "name", "stop"),
    [
        (1, "STOP", "end"),
        (2, "MAX_TOKENS", "max_tokens"),
        (3, "SAFETY", "content_filter"),
        (9, "MALFORMED_FUNCTION_CALL", "error"),
    ],
)
def test_a_numbered_finish_reason_reads_as_its_name(number: int, name: str, stop: str) -> None:
    numbered = copy.deepcopy(RESPONSE)
    numbered["candidates"][0]["finishReason"] = number
    named = copy.deepcopy(RESPONSE)
    named["candidates"][0]["finishReason"] = name
    by_number = convert(numbered, "gemini", "canonical", kind="response").output
    by_name = convert(named, "gemini", "canonical", kind="response").output
    assert by_number["stop_reason"] == by_name["stop_reason"] == stop


def test_a_number_outside_the_table_reads_as_other() -> None:
    body = copy.deepcopy(RESPONSE)
    body["candidates"][0]["finishReason"] = 99
    assert convert(body, "gemini", "canonical", kind="response").output["stop_reason"] == "other"


def test_the_numbered_response_round_trips_and_crosses() -> None:
    assert convert(copy.deepcopy(RESPONSE), "gemini", "gemini", kind="response").output == RESPONSE
    out = convert(copy.deepcopy(RESPONSE), "gemini", "openai-chat", kind="response").output
    assert out["choices"][0]["finish_reason"] == "stop"


def test_a_numbered_finish_reason_ends_a_stream_the_same_way() -> None:
    chunks = [copy.deepcopy(RESPONSE)]
    chunks[0]["candidates"][0]["finishReason"] = 2
    (complete,) = [e for e in read_stream(chunks, "gemini") if e["type"] == "message_complete"]
    assert complete["stop_reason"] == "max_tokens"
