"""A model's answer of nothing (Anthropic documents an empty `end_turn` answer after tool
results; Gemini gives `OTHER` with no content) is a valid canonical Response, and crossing it
reports no message dropped: the target's response holds its empty turn."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion.converter import convert, formats, kinds
from interlingua.documents.validation import is_error, validate

ANTHROPIC_EMPTY: dict[str, Any] = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 812, "output_tokens": 3},
}
GEMINI_OTHER: dict[str, Any] = {
    "candidates": [{"content": {"role": "model"}, "finishReason": "OTHER", "index": 0}],
    "modelVersion": "gemini-2.5-flash",
}


@pytest.mark.parametrize(
    ("body", "source", "stop"),
    [(ANTHROPIC_EMPTY, "anthropic", "end"), (GEMINI_OTHER, "gemini", "other")],
)
def test_an_empty_answer_is_a_valid_response(body: dict[str, Any], source: str, stop: str) -> None:
    response = convert(body, source, "canonical", "response").output
    assert response["message"]["content"] == []
    assert response["stop_reason"] == stop
    assert [f.code for f in validate(response, "Response") if is_error(f)] == []


@pytest.mark.parametrize(
    "target", [f for f in formats() if "response" in kinds(f) and f != "canonical"]
)
def test_an_empty_answer_crosses_without_a_message_dropped(target: str) -> None:
    result = convert(ANTHROPIC_EMPTY, "anthropic", target, "response")
    assert "message_dropped" not in [loss.code for loss in result.losses]


def test_a_call_stop_still_needs_content() -> None:
    response = convert(ANTHROPIC_EMPTY, "anthropic", "canonical", "response").output
    response["stop_reason"] = "call"
    assert "empty_content" in [f.code for f in validate(response, "Response") if is_error(f)]
