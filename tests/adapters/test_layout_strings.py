"""Layout features for formats whose content is one string (shown through the Ollama adapter):
`text_shorthand: always` (text parts joined, reported), parts in fields of their own read back
in a fixed order (`slots_first`, a list slot written by a transform), tool messages paired with
their calls by name, and the OpenAI-style slot order now reported when it changes."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def image() -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}


def conversation(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"schema_version": 1, "model": "m", "messages": list(messages)}


def losses(result: Any) -> list[tuple[str, str]]:
    return sorted((x.pointer, x.code) for x in result.losses)


def test_text_parts_join_into_one_string_and_the_join_is_reported() -> None:
    document = conversation({"role": "user", "content": [text("a"), text("b"), text("c")]})
    result = convert(document, "canonical", "ollama")
    assert result.output["messages"] == [{"role": "user", "content": "a\nb\nc"}]
    assert losses(result) == [("/messages/0/content", "parts_merged")]
    back = convert(result.output, "ollama", "canonical").output
    assert back["messages"][0]["content"] == [text("a\nb\nc")]


def test_the_separator_is_the_formats_own() -> None:
    """ChatML concatenates (`text_separator: ""`); Ollama joins by a newline (the default)."""
    document = conversation({"role": "user", "content": [text("a"), text("b")]})
    result = convert(document, "canonical", "chatml")
    assert result.output == "<|im_start|>user\nab<|im_end|>\n"
    assert ("/messages/0/content", "parts_merged") in losses(result)


def test_a_turn_without_text_has_empty_content() -> None:
    document = conversation({"role": "user", "content": [image()]})
    result = convert(document, "canonical", "ollama")
    assert result.output["messages"] == [{"role": "user", "content": "", "images": [PNG]}]
    assert losses(result) == []
    assert without_raw(convert(result.output, "ollama", "canonical").output) == document


def test_content_blocks_are_refused_when_content_is_one_string() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": [{"type": "text"}]}]}
    with pytest.raises(ConversionError) as err:
        convert(body, "ollama", "canonical", validate_input=False)
    assert (err.value.code, err.value.pointer) == ("wrong_type", "/messages/0/content")


def test_reasoning_reads_first_and_list_slots_keep_every_item() -> None:
    body = {
        "model": "m",
        "stream": False,  # (left out, it reads as streamed and is written back spelled out)
        "messages": [
            {"role": "user", "content": "two", "images": [PNG, PNG]},
            {
                "role": "assistant",
                "content": "done",
                "thinking": "t",
                "tool_calls": [{"function": {"name": "f", "arguments": {}}}],
            },
        ],
    }
    document = convert(body, "ollama", "canonical").output
    user, assistant = document["messages"]
    assert [p["type"] for p in user["content"]] == ["text", "image", "image"]
    assert [p["type"] for p in assistant["content"]] == ["thinking", "text", "tool_call"]
    assert assistant["content"][0]["origin"] == {"format": "ollama", "model": "m"}
    result = convert(without_raw(document), "canonical", "ollama")
    assert result.output == body  # the rule, not round-trip data, writes it back
    assert losses(result) == []


def test_a_part_that_reads_back_in_another_order_is_reported_moved() -> None:
    document = conversation(
        {"role": "user", "content": [image(), text("caption")]},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_call", "id": "c1", "name": "f", "arguments": {}},
                {"type": "thinking", "text": "t", "origin": {"format": "ollama"}},
                text("after"),
            ],
        },
        {"role": "tool", "content": [{"type": "tool_result", "tool_call_id": "c1", "content": []}]},
    )
    result = convert(document, "canonical", "ollama")
    assert losses(result) == [
        ("/messages/0/content/1", "moved"),
        ("/messages/1/content/1", "moved"),
        ("/messages/1/content/2", "moved"),
    ]


def test_openai_text_after_a_call_is_reported_moved() -> None:
    document = conversation(
        {"role": "user", "content": [text("go")]},
        {
            "role": "assistant",
            "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}, text("x")],
        },
    )
    result = convert(document, "canonical", "openai-chat")
    assert losses(result) == [("/messages/1/content/1", "moved")]


def test_a_second_value_for_a_single_slot_is_dropped() -> None:
    thought = {"type": "thinking", "text": "t", "origin": {"format": "ollama"}}
    document = conversation(
        {"role": "user", "content": [text("q")]},
        {"role": "assistant", "content": [thought, {**thought, "text": "u"}, text("a")]},
    )
    result = convert(document, "canonical", "ollama")
    assert result.output["messages"][1] == {"role": "assistant", "content": "a", "thinking": "t"}
    assert losses(result) == [("/messages/1/content/1", "part_dropped")]


def test_tool_messages_pair_by_name_then_by_order() -> None:
    calls: list[dict[str, Any]] = [
        {"function": {"name": n, "arguments": {}}} for n in ("a", "b", "a")
    ]
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": "", "tool_calls": calls},
            {"role": "tool", "tool_name": "b", "content": "B"},
            {"role": "tool", "content": "first open"},
            {"role": "tool", "tool_call_id": "nope", "tool_name": "a", "content": "A"},
        ],
    }
    document = convert(body, "ollama", "canonical").output
    answered = [m["content"][0]["tool_call_id"] for m in document["messages"][2:]]
    assert answered == ["ollama_call_1_1", "ollama_call_1_0", "ollama_call_1_2"]
    assert convert(document, "canonical", "ollama").output == body
    # written without round-trip data, every result names its call's tool and no id goes out
    plain = convert(without_raw(document), "canonical", "ollama").output
    assert [m.get("tool_name") for m in plain["messages"][2:]] == ["b", "a", "a"]
    assert all("tool_call_id" not in m for m in plain["messages"][2:])


def test_a_tool_message_with_nothing_to_answer_is_an_orphan() -> None:
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "go"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"function": {"name": "a", "arguments": {}}}],
            },
            {"role": "tool", "tool_name": "a", "content": "1"},
            {"role": "tool", "content": "2"},
        ],
    }
    with pytest.raises(ConversionError) as err:
        convert(body, "ollama", "canonical")
    assert (err.value.code, err.value.pointer) == ("orphan_result", "/messages/3")


def test_calls_of_successive_responses_get_distinct_ids() -> None:
    def response(created_at: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": "m",
            "message": {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"function": {"name": "f", "arguments": {}}}],
            },
            "done": True,
            "done_reason": "stop",
        }
        if created_at is not None:
            body["created_at"] = created_at
        return body

    def call_id(body: dict[str, Any]) -> str:
        document = convert(body, "ollama", "canonical", "response", validate_input=False).output
        value: str = document["message"]["content"][0]["id"]
        return value

    first, second = (
        call_id(response("2025-01-01T00:00:00Z")),
        call_id(response("2025-01-01T00:00:05Z")),
    )
    assert first.startswith("ollama_call_") and first.endswith("_0")
    assert first != second  # seeded by created_at, as the body has no id
    assert call_id(response(None)) == "ollama_call_r_0"


def response(*parts: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "model": "m",
        "stop_reason": "end",
        "message": {"role": "assistant", "content": list(parts)},
    }


def test_a_response_holds_its_text_as_one_string_where_the_first_text_stood() -> None:
    """`response_text: string` (OpenAI Chat): texts concatenated, the join reported once and
    each field the join leaves behind reported where it was."""
    call = {"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}
    hinted = {**text(" world"), "cache_hint": {"type": "ephemeral"}}
    result = convert(response(call, text("hello"), hinted), "canonical", "openai-chat", "response")
    message = result.output["choices"][0]["message"]
    assert message["content"] == "hello world"
    assert [c["id"] for c in message["tool_calls"]] == ["c1"]
    assert ("/message/content", "parts_merged") in losses(result)
    assert ("/message/content/2/cache_hint", "field_dropped") in losses(result)


def test_requests_and_a_lone_response_text_are_not_joined() -> None:
    one = convert(response(text("hello")), "canonical", "openai-chat", "response")
    assert one.output["choices"][0]["message"]["content"] == "hello"
    assert all(loss.code != "parts_merged" for loss in one.losses)
    request = convert(
        conversation({"role": "user", "content": [text("a"), text("b")]}),
        "canonical",
        "openai-chat",
    )
    assert request.output["messages"][0]["content"] == [text("a"), text("b")]
