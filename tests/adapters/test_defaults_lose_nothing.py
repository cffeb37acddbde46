"""A canonical field at its default (`x-default`) says nothing a format without the field
loses, on the fused path and the two-step one alike: a tool result's `is_error: false`
(Anthropic) or `status: success` (Bedrock) crossed to OpenAI Chat, and `stream: false` crossed
to Gemini or Bedrock (which choose streaming by the endpoint). An error, or a stream asked
for, is still reported where the target cannot say it."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua import convert

CALL = {"id": "t1", "name": "f"}


def _anthropic(flag: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "m",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "tool_use", **CALL, "input": {}}]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok", **flag}],
            },
        ],
    }


def _bedrock(flag: dict[str, Any]) -> dict[str, Any]:
    result = {"toolUseId": "t1", "content": [{"text": "ok"}], **flag}
    return {
        "modelId": "m",
        "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}],
            },
            {"role": "user", "content": [{"toolResult": result}]},
        ],
    }


CASES = [
    ("anthropic", _anthropic({"is_error": False}), False),
    ("anthropic", _anthropic({}), False),
    ("anthropic", _anthropic({"is_error": True}), True),
    ("bedrock", _bedrock({"status": "success"}), False),
    ("bedrock", _bedrock({}), False),
    ("bedrock", _bedrock({"status": "error"}), True),
]


@pytest.mark.parametrize(("source", "body", "reported"), CASES)
@pytest.mark.parametrize("fused", [True, False])
def test_an_error_flag_is_reported_only_when_it_says_an_error(
    source: str, body: dict[str, Any], reported: bool, fused: bool
) -> None:
    result = convert(body, source=source, target="openai-chat", fused=fused)
    assert result.fused is fused
    flagged = [loss for loss in result.losses if loss.pointer.endswith("/is_error")]
    assert bool(flagged) is reported, result.losses
    assert result.output["messages"][-1] == {"role": "tool", "tool_call_id": "t1", "content": "ok"}


@pytest.mark.parametrize("target", ["gemini", "bedrock"])
@pytest.mark.parametrize(("stream", "reported"), [(False, False), (True, True), (None, False)])
@pytest.mark.parametrize("fused", [True, False])
def test_a_stream_flag_is_reported_only_when_a_stream_is_asked_for(
    target: str, stream: bool | None, reported: bool, fused: bool
) -> None:
    body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    if stream is not None:
        body["stream"] = stream
    result = convert(body, source="openai-chat", target=target, fused=fused)
    assert result.fused is fused
    flagged = [loss for loss in result.losses if loss.pointer == "/parameters/stream"]
    assert bool(flagged) is reported, result.losses
