"""A request's `store` flag: whether the provider keeps the answer, to be fetched or continued
from later. OpenAI Chat keeps nothing unless asked; OpenAI Responses keeps everything unless
told not to. The flag had no canonical home, so a Chat request crossed to Responses went out
without it, and OpenAI kept an answer the client never asked it to keep; a `store: true` was
reported as lost between the two formats that both take it. It is now the canonical
`parameters.store`, absent meaning nothing kept: Responses is told `store: false`, and a
Responses body that says nothing reads as `store: true`."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion.converter import convert

CHAT: dict[str, Any] = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]}
RESPONSES: dict[str, Any] = {"model": "gpt-4.1", "input": "hi"}


def _pointers(result: Any) -> list[tuple[str, str]]:
    return [(loss.pointer, loss.code) for loss in result.losses]


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize(("given", "written"), [(None, False), (True, True), (False, False)])
def test_chat_to_responses_keeps_what_chat_asked(
    fused: bool, given: bool | None, written: bool
) -> None:
    body = CHAT if given is None else {**CHAT, "store": given}
    result = convert(dict(body), "openai-chat", "openai-responses", fused=fused)
    assert result.fused is fused
    assert result.output["store"] is written
    assert not [p for p in _pointers(result) if "store" in p[0]]


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize(("given", "written"), [(None, True), (True, True), (False, None)])
def test_responses_to_chat_keeps_what_responses_would(
    fused: bool, given: bool | None, written: bool | None
) -> None:
    body = RESPONSES if given is None else {**RESPONSES, "store": given}
    result = convert(dict(body), "openai-responses", "openai-chat", fused=fused)
    assert result.fused is fused
    assert result.output.get("store") is written
    assert not [p for p in _pointers(result) if "store" in p[0]]


def test_the_canonical_absence_keeps_nothing_and_a_round_trip_gives_the_body_back() -> None:
    canonical = convert(dict(RESPONSES), "openai-responses", "canonical").output
    assert canonical["parameters"] == {"store": True}
    assert convert(canonical, "canonical", "openai-responses").output == RESPONSES
    bare = {"schema_version": 1, "messages": canonical["messages"]}
    bare["messages"] = [
        {k: v for k, v in m.items() if k != "provider_raw"} for m in bare["messages"]
    ]
    assert convert(bare, "canonical", "openai-responses").output["store"] is False


@pytest.mark.parametrize("target", ["anthropic", "gemini", "bedrock"])
def test_a_format_that_keeps_nothing_reports_a_request_to_keep(target: str) -> None:
    result = convert(dict(RESPONSES), "openai-responses", target)
    assert "store" not in result.output
    assert ("/parameters/store", "parameter_dropped") in _pointers(result)
    result = convert(dict(CHAT), "openai-chat", target)
    assert not [p for p in _pointers(result) if "store" in p[0]]
