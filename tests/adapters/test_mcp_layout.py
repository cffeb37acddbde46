"""Layout features MCP turns on (shown through its adapter): a turn's one block written bare,
the system prompt as one string, tool results sharing one user turn without alternation, a
result that may leave its stop reason out, and parts nothing can carry leaving no empty turn."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.adapters.turns import merge_turn
from interlingua.conversion.converter import convert


def text(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


def conversation(*messages: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "messages": list(messages),
        "parameters": {"max_output_tokens": 10},
    }


def write(document: dict[str, Any], kind: str = "request") -> tuple[Any, list[tuple[str, str]]]:
    result = convert(document, "canonical", "mcp", kind)
    return result.output, [(loss.pointer, loss.code) for loss in result.losses]


def read(body: Any, kind: str = "request", **options: Any) -> tuple[Any, list[tuple[str, str]]]:
    result = convert(body, "mcp", "canonical", kind, **options)
    return without_raw(result.output), [(loss.pointer, loss.code) for loss in result.losses]


# --- one block, bare ---------------------------------------------------------------------------


def test_a_turn_of_one_block_is_written_bare_and_of_several_as_a_list() -> None:
    body, losses = write(
        conversation(
            {"role": "user", "content": [text("a")]},
            {"role": "assistant", "content": [text("b"), text("c")]},
        )
    )
    assert body["messages"] == [
        {"role": "user", "content": text("a")},
        {"role": "assistant", "content": [text("b"), text("c")]},
    ]
    assert losses == []


def test_a_bare_block_reads_as_a_list_of_one() -> None:
    document, losses = read({"messages": [{"role": "user", "content": text("a")}], "maxTokens": 5})
    assert document["messages"] == [{"role": "user", "content": [text("a")]}]
    assert losses == []


def test_an_error_in_a_bare_block_points_at_the_content_field() -> None:
    bad = {"type": "image", "data": "iVBO"}  # no mimeType
    with pytest.raises(ConversionError) as caught:
        read({"messages": [{"role": "user", "content": bad}], "maxTokens": 5}, validate_input=False)
    assert caught.value.pointer.startswith("/messages/0/content")
    assert not caught.value.pointer.startswith("/messages/0/content/0")


def test_merged_turns_join_bare_blocks_into_a_list() -> None:
    # No format both alternates and writes lone blocks today; merging still joins them.
    into: dict[str, Any] = {"role": "user", "content": text("a")}
    merge_turn(into, {"role": "user", "content": text("b")}, set(), "role", "content")
    assert into == {"role": "user", "content": [text("a"), text("b")]}


# --- the system prompt as one string -------------------------------------------------------------


def test_one_system_text_is_the_system_prompt_and_reads_back() -> None:
    body, losses = write(
        conversation(
            {"role": "system", "content": [text("S")]}, {"role": "user", "content": [text("q")]}
        )
    )
    assert body["systemPrompt"] == "S"
    assert losses == []
    document, _ = read(body)
    assert document["messages"][0] == {"role": "system", "content": [text("S")]}


def test_several_system_texts_join_by_a_blank_line_reported_as_merged() -> None:
    body, losses = write(
        conversation(
            {"role": "system", "content": [text("A"), text("B")]},
            {"role": "user", "content": [text("q")]},
            {"role": "system", "content": [text("C")]},
        )
    )
    assert body["systemPrompt"] == "A\n\nB\n\nC"
    assert sorted(losses) == [
        ("/messages/0/content/1", "turns_merged"),
        ("/messages/2", "moved"),
        ("/messages/2/content/0", "turns_merged"),
    ]


def test_what_a_string_cannot_hold_is_reported() -> None:
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"},
    }
    hinted = {**text("A"), "cache_hint": {"type": "ephemeral"}}
    body, losses = write(
        conversation(
            {"role": "system", "content": [hinted, image]},
            {"role": "developer", "content": [image]},
            {"role": "user", "content": [text("q")]},
        )
    )
    assert body["systemPrompt"] == "A"
    assert sorted(losses) == [
        ("/messages/0/content/0/cache_hint", "field_dropped"),
        ("/messages/0/content/1", "part_dropped"),
        ("/messages/1", "message_dropped"),
        ("/messages/1", "role_changed"),
        ("/messages/1/content/0", "part_dropped"),
    ]


def test_a_system_prompt_that_is_not_a_string_is_refused_with_its_path() -> None:
    body = {"systemPrompt": [text("S")], "messages": [], "maxTokens": 5}
    with pytest.raises(ConversionError) as caught:
        read(body, validate_input=False)
    assert (caught.value.code, caught.value.pointer) == ("wrong_type", "/systemPrompt")


# --- tool results share one user turn ------------------------------------------------------------


def _call(call_id: str) -> dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": "f", "arguments": {}}


def _result(call_id: str) -> dict[str, Any]:
    return {
        "role": "tool",
        "content": [{"type": "tool_result", "tool_call_id": call_id, "content": []}],
    }


def test_consecutive_results_share_a_user_turn_and_a_user_message_after_them_does_not() -> None:
    body, losses = write(
        conversation(
            {"role": "user", "content": [text("q")]},
            {"role": "assistant", "content": [_call("a"), _call("b")]},
            _result("a"),
            _result("b"),
            {"role": "user", "content": [text("thanks")]},
        )
    )
    assert body["messages"][2:] == [
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "toolUseId": "a", "content": []},
                {"type": "tool_result", "toolUseId": "b", "content": []},
            ],
        },
        {"role": "user", "content": text("thanks")},
    ]
    assert losses == []


def test_parts_nothing_can_carry_leave_no_empty_turn_after_the_results() -> None:
    document = {
        "type": "document",
        "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBE"},
    }
    result = {"type": "tool_result", "tool_call_id": "a", "content": [document]}
    body, losses = write(
        conversation(
            {"role": "user", "content": [text("q")]},
            {"role": "assistant", "content": [_call("a")]},
            {"role": "tool", "content": [result]},
        )
    )
    assert body["messages"][-1] == {
        "role": "user",
        "content": {"type": "tool_result", "toolUseId": "a", "content": []},
    }
    assert sorted(losses) == [
        ("/messages/2/content/0/content/0", "moved"),
        ("/messages/2/content/0/content/0", "part_dropped"),
    ]


# --- the stop reason may be left out -------------------------------------------------------------


def test_a_result_without_a_stop_reason_reads_as_other_reported() -> None:
    body = {"role": "assistant", "content": text("hi"), "model": "m"}
    document, losses = read(body, "response")
    assert document["stop_reason"] == "other"
    assert losses == [("", "placeholder_inserted")]
    # Written back with its round-trip data: exactly as it came.
    assert (
        convert(
            convert(body, "mcp", "canonical", "response").output, "canonical", "mcp", "response"
        ).output
        == body
    )


def test_a_stop_reason_mcp_does_not_define_goes_out_as_end_turn() -> None:
    response = {
        "schema_version": 1,
        "model": "m",
        "stop_reason": "content_filter",
        "message": {"role": "assistant", "content": [text("no")]},
    }
    body, losses = write(response, "response")
    assert body["stopReason"] == "endTurn"
    assert losses == [("/stop_reason", "stop_reason_approximated")]


# --- a block MCP does not define ---------------------------------------------------------------


def test_an_unknown_block_is_kept_and_reported_where_it_cannot_go() -> None:
    sticker = {"type": "sticker", "id": "s1"}
    body = {"messages": [{"role": "user", "content": [text("hi"), sticker]}], "maxTokens": 5}
    document, losses = read(body, validate_input=False)
    assert document["messages"][0]["content"] == [text("hi"), sticker]
    assert losses == []
    written, losses = write(document)
    assert written["messages"] == [{"role": "user", "content": text("hi")}]
    assert losses == [("/messages/0/content/1", "part_dropped")]


# --- where a bad block is wrong ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "code", "pointer"),
    [
        # The tag says image: its data is what is wrong, not its tag (the union's discriminator
        # picks the member even when the bad field is a pattern at the tag's depth).
        (
            {"type": "image", "data": "data:image/png;base64,AA", "mimeType": "image/png"},
            "pattern_mismatch",
            "/messages/0/content/data",
        ),
        (
            [text("a"), {"type": "image", "data": "data:x", "mimeType": "image/png"}],
            "pattern_mismatch",
            "/messages/0/content/1/data",
        ),
        ({"type": "audio", "data": "AA"}, "missing_field", "/messages/0/content/mimeType"),
        # A tag the format does not use anywhere would be a block of a new kind: read as it
        # came; a tag it uses elsewhere is misplaced here.
        ({"type": "tool_use"}, "missing_field", "/messages/0/content/id"),
    ],
)
def test_a_bad_block_is_reported_where_it_is_wrong(content: Any, code: str, pointer: str) -> None:
    with pytest.raises(ConversionError) as caught:
        read({"messages": [{"role": "user", "content": content}], "maxTokens": 5})
    assert (caught.value.code, caught.value.pointer) == (code, pointer)


# --- losses point at the part they are about -----------------------------------------------------


def test_a_part_after_dropped_reasoning_is_reported_at_its_own_place() -> None:
    thinking = {"type": "thinking", "text": "hmm", "signature": "S", "origin": {"format": "gemini"}}
    _, losses = write(
        conversation(
            {"role": "user", "content": [text("q")]},
            {"role": "assistant", "content": [thinking, {"type": "refusal", "text": "no"}]},
        )
    )
    assert sorted(losses) == [
        ("/messages/1/content/0", "thinking_not_replayable"),
        ("/messages/1/content/1", "converted_to_text"),  # not content/0, where the thinking was
    ]
