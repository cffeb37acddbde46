"""A canonical field at its default (`x-default`) says nothing a format without the field
loses, on the fused path and the two-step one alike: a tool result's `is_error: false`
(Anthropic) or `status: success` (Bedrock) crossed to OpenAI Chat, `stream: false` crossed
to Gemini or Bedrock (which choose streaming by the endpoint), and `store: false` crossed to a
format that keeps nothing. An error, a stream asked for, or an answer asked to be kept, is
still reported where the target cannot say it. So is a count that is a part of a total at 0 (no
cache written, no reasoning spent): it counts and prices as its absence does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua import convert
from interlingua.conversion.converter import formats, kinds
from interlingua.generated.pairs import PAIRS

DOCS = Path(__file__).resolve().parents[2] / "docs"

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


# A request flag whose `true` a target cannot say: a stream Gemini and Bedrock choose by the
# endpoint, an answer kept where nothing is kept.
FLAGS = [("stream", "gemini"), ("stream", "bedrock")] + [
    ("store", target) for target in ("anthropic", "gemini", "bedrock")
]


@pytest.mark.parametrize(("flag", "target"), FLAGS)
@pytest.mark.parametrize(("value", "reported"), [(False, False), (True, True), (None, False)])
@pytest.mark.parametrize("fused", [True, False])
def test_a_request_flag_is_reported_only_when_it_asks_what_the_target_cannot_do(
    flag: str, target: str, value: bool | None, reported: bool, fused: bool
) -> None:
    body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    if value is not None:
        body[flag] = value
    result = convert(body, source="openai-chat", target=target, fused=fused)
    assert result.fused is fused
    flagged = [loss for loss in result.losses if loss.pointer == f"/parameters/{flag}"]
    assert bool(flagged) is reported, result.losses


@pytest.mark.parametrize("store", [False, True, None])
def test_openai_responses_is_told_what_it_would_otherwise_keep(store: bool | None) -> None:
    """Responses keeps an answer unless told not to: `store: false`, or no `store`, from Chat
    is written `false`; `true` is written `true`."""
    body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    if store is not None:
        body["store"] = store
    for fused in (True, False):
        result = convert(body, source="openai-chat", target="openai-responses", fused=fused)
        assert result.output["store"] is bool(store) and not result.losses, result


# Each count that is a part of a total the formats carry (`input_tokens`, `output_tokens`).
PART_COUNTS = [
    ("cached_input_tokens", "input_tokens"),
    ("cache_creation_input_tokens", "input_tokens"),
    ("reasoning_tokens", "output_tokens"),
    ("tool_input_tokens", "input_tokens"),
]


@pytest.mark.parametrize(("count", "whole"), PART_COUNTS)
def test_a_zero_part_of_a_count_is_reported_nowhere_and_any_other_where_it_has_no_place(
    count: str, whole: str
) -> None:
    reply = json.loads((DOCS / "examples" / "reply.json").read_text(encoding="utf-8"))
    document = convert(reply, source="anthropic", target="canonical", kind="response").output
    targets = [name for name in formats() if name != "canonical" and "response" in kinds(name)]

    def reporting(value: int) -> list[str]:
        usage = {**document["usage"], whole: 40, count: value}
        given = {**document, "usage": usage}
        return [
            target
            for target in targets
            if any(
                loss.pointer == f"/usage/{count}"
                for loss in convert(given, "canonical", target, kind="response").losses
            )
        ]

    assert reporting(0) == []
    assert reporting(5) != []  # some format has no place for it: the test means something


def _responses(status: str | None) -> dict[str, Any]:
    said = {} if status is None else {"status": status}
    return {
        "model": "m",
        "input": [
            {"role": "user", "content": "hi"},
            {"type": "reasoning", "summary": [], "encrypted_content": "x", **said},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", **said},
            {"type": "function_call_output", "call_id": "c1", "output": "ok", **said},
        ],
    }


def _mistral(prefix: bool | None) -> dict[str, Any]:
    said = {} if prefix is None else {"prefix": prefix}
    return {
        "model": "mistral-large-latest",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello", **said},
            {"role": "user", "content": "again"},
        ],
    }


# Wire fields a mapping names as telling nothing at one value (a block's `defaults`, the
# layout's `turn_defaults`): the source, its body with the field at a value (None: left out),
# the value that tells nothing, another, and the pointers that other value is reported at.
SAID_NOTHING = [
    (
        "openai-responses",
        _responses,
        "completed",
        "incomplete",
        ["/input/1/status", "/input/2/status", "/input/3/status"],
    ),
    ("openai-chat", _mistral, False, True, ["/messages/1/prefix"]),
]
TARGETS = ["openai-chat", "anthropic", "gemini", "bedrock", "openai-responses"]


@pytest.mark.parametrize(("source", "body", "nothing", "something", "pointers"), SAID_NOTHING)
@pytest.mark.parametrize("fused", [True, False])
def test_a_field_that_tells_nothing_at_its_value_is_reported_only_at_another(
    source: str, body: Any, nothing: Any, something: Any, pointers: list[str], fused: bool
) -> None:
    """Responses' item `status: completed` (every item of a finished history has it) and
    Mistral's `prefix: false` (its SDK writes it on every assistant message; `true` asks for a
    prefill, which has no canonical home), on the fused path where a pass takes the pair."""
    field = pointers[0].rsplit("/", 1)[-1]
    for target in TARGETS:
        if target == source or (fused and (source, target) not in PAIRS):
            continue
        for value, expected in [(nothing, []), (None, []), (something, pointers)]:
            result = convert(body(value), source=source, target=target, fused=fused)
            assert result.fused is fused, (target, value)
            flagged = [loss.pointer for loss in result.losses if loss.pointer.endswith(f"/{field}")]
            assert flagged == expected, (target, value)
