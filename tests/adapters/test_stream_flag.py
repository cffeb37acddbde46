"""A request's `stream` flag. It was read by no format, so a streamed OpenAI Chat request
crossed to Anthropic (or any format with the flag) as a non-streamed one, with `stream`
reported as having no canonical home: the commonest needless loss of the recorded corpus
(147 request bodies). It is now the canonical `parameters.stream`; Gemini and Bedrock choose
streaming by the endpoint, so there it is reported."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion.converter import convert


def _chat(stream: bool) -> dict[str, Any]:
    return {"model": "gpt-4o", "stream": stream, "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize("target", ["anthropic", "openai-responses", "ollama"])
@pytest.mark.parametrize("stream", [True, False])
def test_the_flag_crosses_to_a_format_that_has_it(target: str, stream: bool) -> None:
    result = convert(_chat(stream), "openai-chat", target)
    assert result.output["stream"] is stream
    assert not [loss for loss in result.losses if "stream" in loss.pointer]
    back = convert(result.output, target, "openai-chat").output
    assert back.get("stream", False) is stream  # (read back from Ollama, `false` is no stream)


@pytest.mark.parametrize("target", ["gemini", "bedrock"])
def test_a_format_that_streams_by_endpoint_reports_it(target: str) -> None:
    result = convert(_chat(True), "openai-chat", target)
    assert "stream" not in result.output
    assert ("/parameters/stream", "parameter_dropped") in {
        (loss.pointer, loss.code) for loss in result.losses
    }


def test_the_flag_is_canonical() -> None:
    canonical = convert(_chat(True), "openai-chat", "canonical").output
    assert canonical["parameters"] == {"stream": True}


def test_absent_stays_absent() -> None:
    body = _chat(True)
    del body["stream"]
    assert "stream" not in convert(body, "openai-chat", "anthropic").output


def test_ollama_is_told_not_to_stream_and_its_silence_streams() -> None:
    # Ollama streams unless told not to: a request that says nothing goes out with
    # `stream: false`, and an Ollama body that says nothing reads as streamed.
    body = _chat(True)
    del body["stream"]
    assert convert(body, "openai-chat", "ollama").output["stream"] is False
    ollama = {"model": "llama3", "messages": [{"role": "user", "content": "hi"}]}
    assert convert(ollama, "ollama", "anthropic").output["stream"] is True
    assert convert(ollama, "ollama", "ollama").output == ollama
