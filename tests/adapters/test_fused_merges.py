"""Turns the forward passes merge, where a target writes one text alone as a string (Anthropic's
shorthand): the pass builds that text's block only when another message joins it, a user's
or the model's, and gives the two-step path's answer either way."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion.converter import convert
from interlingua.generated.pairs import PAIRS
from tests.adapters import differential

FROM_CHAT = sorted(pair for pair in PAIRS if pair[0] == "openai-chat")
CALL = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}


def turns(*assistants: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}, *assistants],
    }


BODIES = {
    "one text alone": turns({"role": "assistant", "content": "a"}),
    "text then text": turns(
        {"role": "assistant", "content": "a"}, {"role": "assistant", "content": "b"}
    ),
    "text then parts": turns(
        {"role": "assistant", "content": "a"},
        {"role": "assistant", "content": [{"type": "text", "text": "b"}]},
    ),
    "text then a call": {
        **turns(
            {"role": "assistant", "content": "a"},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "r"},
        ),
        "tools": [{"type": "function", "function": {"name": "f"}}],
    },
    "a call then text": {
        **turns(
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "r"},
            {"role": "assistant", "content": "a"},
            {"role": "assistant", "content": "b"},
            {"role": "assistant", "content": "c"},
        ),
        "tools": [{"type": "function", "function": {"name": "f"}}],
    },
    "text then empty calls": turns(
        {"role": "assistant", "content": "a"},
        {"role": "assistant", "content": "b", "tool_calls": []},
    ),
    "user text then text": {
        "model": "m",
        "messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}],
    },
    "user parts then text": {
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "a"}]},
            {"role": "user", "content": "b"},
            {"role": "user", "content": [{"type": "text", "text": "c"}]},
        ],
    },
    "results then user text": {
        **turns(
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "r"},
            {"role": "user", "content": "b"},
            {"role": "user", "content": "c"},
        ),
        "tools": [{"type": "function", "function": {"name": "f"}}],
    },
}


def _fused(payload: Any, source: str, target: str, kind: str) -> Any:
    return convert(copy.deepcopy(payload), source, target, kind)


def _two_step(payload: Any, source: str, target: str, kind: str) -> Any:
    return convert(copy.deepcopy(payload), source, target, kind, fused=False)


@pytest.mark.parametrize("name", sorted(BODIES))
@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_assistant_turns_merge_as_in_two_steps(source: str, target: str, name: str) -> None:
    body = BODIES[name]
    assert type(PAIRS[source, target](copy.deepcopy(body))) is tuple  # the pass takes it
    got = differential.outcome(_fused, body, source, target, "request")
    assert got == differential.outcome(_two_step, body, source, target, "request")
