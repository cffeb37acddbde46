"""Compaction parts: bound to the format that issued them, like signed reasoning."""

from __future__ import annotations

from typing import Any

from interlingua.conversion.converter import convert


def _anthropic(block: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "Hello"},
            {"role": "assistant", "content": [block, {"type": "text", "text": "Hi."}]},
            {"role": "user", "content": "Again."},
        ],
    }


def test_a_compaction_with_no_summary_reads_as_a_part() -> None:
    """Regression: a part whose canonical fields are all optional read as nothing (a crash
    binding it); a failed compaction (null content) is still a compaction part."""
    body = _anthropic({"type": "compaction", "content": None})
    part = convert(body, "anthropic", "canonical").output["messages"][1]["content"][0]
    assert part == {
        "type": "compaction",
        "origin": {"format": "anthropic", "model": "claude-sonnet-4-5"},
    }
    assert convert(body, "anthropic", "anthropic").output == body


def test_compaction_is_replayed_only_where_it_was_issued() -> None:
    body = _anthropic({"type": "compaction", "content": "Summary.", "encrypted_content": "Eq"})
    assert convert(body, "anthropic", "anthropic").output == body
    other = convert(body, "anthropic", "openai-responses")
    assert [(x.pointer, x.code) for x in other.losses] == [
        ("/messages/1/content/0", "thinking_not_replayable")
    ]
    as_text = convert(body, "anthropic", "openai-chat", thinking="text")
    assert as_text.output["messages"][1]["content"][0] == {"type": "text", "text": "Summary."}


def test_a_responses_compaction_item_round_trips() -> None:
    body = {
        "model": "gpt-5.1",
        "input": [
            {"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAA"},
            {"role": "user", "content": "Go on."},
        ],
    }
    canonical = convert(body, "openai-responses", "canonical").output
    assert canonical["messages"][0]["content"][0]["data"] == "gAAA"
    assert convert(canonical, "canonical", "openai-responses").output == body
