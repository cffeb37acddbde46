"""Anthropic's Messages API takes a system message among the turns (instructions given at a
point in the conversation; pydantic-ai sends them so, with text blocks or a `tool_addition`
block): read where it stands, written by every format as it writes a late system prompt, and
given back in place by the round trip. interlingua writes Anthropic's system prompts to the
top-level field, reporting a later one as moved."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert

LATE = {"role": "system", "content": [{"type": "text", "text": "Annotate every type."}]}
BODY: dict[str, Any] = {
    "model": "claude-opus-4-8",
    "max_tokens": 1024,
    "system": "You review code.",
    "messages": [
        {"role": "user", "content": "Review it."},
        {"role": "assistant", "content": "Looks fine."},
        {"role": "user", "content": "Again."},
        LATE,
    ],
}


def test_a_system_message_among_the_turns_is_read_where_it_stands() -> None:
    canonical = convert(copy.deepcopy(BODY), "anthropic", "canonical").output
    roles = [m["role"] for m in canonical["messages"]]
    assert roles == ["system", "user", "assistant", "user", "system"]
    assert canonical["messages"][4]["content"] == [{"type": "text", "text": "Annotate every type."}]
    back = convert(canonical, "canonical", "anthropic")
    assert back.output == BODY and back.losses == ()


def test_it_stays_in_place_where_the_target_takes_it_and_is_hoisted_where_not() -> None:
    chat = convert(copy.deepcopy(BODY), "anthropic", "openai-chat")
    assert chat.output["messages"][-1] == {"role": "system", "content": "Annotate every type."}
    assert chat.losses == ()
    gemini = convert(copy.deepcopy(BODY), "anthropic", "gemini")
    assert gemini.output["systemInstruction"] == {
        "parts": [{"text": "You review code."}, {"text": "Annotate every type."}]
    }
    assert ("/messages/4", "moved") in [(loss.pointer, loss.code) for loss in gemini.losses]
    # Written to Anthropic from elsewhere, it goes to the top-level field, reported.
    written = convert(chat.output, "openai-chat", "anthropic")
    assert written.output["system"] == [
        {"type": "text", "text": "You review code."},
        {"type": "text", "text": "Annotate every type."},
    ]
    assert ("/messages/4", "moved") in [(loss.pointer, loss.code) for loss in written.losses]


def test_a_block_of_another_type_is_kept_for_the_round_trip_and_reported_when_crossing() -> None:
    addition = {"type": "tool_addition", "tool": {"type": "tool_reference", "name": "rates"}}
    body = {**BODY, "messages": [*BODY["messages"][:3], {"role": "system", "content": [addition]}]}
    assert convert(copy.deepcopy(body), "anthropic", "anthropic").output == body
    crossing = convert(copy.deepcopy(body), "anthropic", "openai-chat")
    # (the canonical messages start with the top-level prompt: the turn is the fifth)
    assert [(loss.pointer, loss.code) for loss in crossing.losses] == [
        ("/messages/4/content/0", "part_dropped"),
        ("/messages/4", "message_dropped"),
    ]


def test_a_developer_message_is_still_refused_at_its_role() -> None:
    body = {**BODY, "messages": [{"role": "developer", "content": "x"}, *BODY["messages"][:1]]}
    with pytest.raises(ConversionError) as refused:
        convert(body, "anthropic", "canonical")
    assert (refused.value.code, refused.value.pointer) == ("not_in_enum", "/messages/0/role")
