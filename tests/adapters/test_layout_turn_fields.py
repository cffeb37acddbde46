"""Language features the CMF mapping brought (shown through the CMF adapter, which uses them
all): a block tag other than `type` with payloads nested under a field, message fields a turn
carries (`turn`), turns nested in a part or an extension (`@messages`), unknown blocks of a
non-`type` tag written back as they came, and results named after their calls
(`result_pairing: call_name`)."""

from __future__ import annotations

from typing import Any

import pytest

import interlingua
from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.adapters.turns import fields_dropped
from interlingua.conversion.converter import convert
from interlingua.generated.adapters import mcp as mcp_adapter


def text(value: str) -> dict[str, Any]:
    return {"content_type": "text", "text": value}


def turn(role: str, *parts: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"schema_version": "2.0", "role": role, "content": list(parts), **fields}


def read(body: Any, kind: str = "request") -> Any:
    return without_raw(convert(body, "cmf", "canonical", kind).output)


def write(document: Any, kind: str = "request") -> Any:
    return convert(document, "canonical", "cmf", kind).output


def losses(document: Any, target: str = "cmf", kind: str = "request") -> list[tuple[str, str]]:
    result = convert(document, "canonical", target, kind)
    return sorted((loss.pointer, loss.code) for loss in result.losses)


def test_a_part_is_tagged_by_content_type_with_its_payload_under_content() -> None:
    call = {"tool_call_id": "c1", "name": "f", "arguments": {"a": 1}, "namespace": "ns"}
    body = {"messages": [turn("assistant", {"content_type": "tool_call", "content": call})]}
    (message,) = read(body)["messages"]
    assert message["content"] == [
        {"type": "tool_call", "id": "c1", "name": "f", "arguments": {"a": 1}, "namespace": "ns"}
    ]
    assert write(read(body)) == body  # rebuilt by the rules, not by round-trip data


def test_turn_fields_go_both_ways_and_the_schema_version_is_written_on_every_turn() -> None:
    body = {"messages": [turn("user", text("hi"), channel="final", extensions={"custom": {}})]}
    (message,) = read(body)["messages"]
    assert message["channel"] == "final"
    assert message["extensions"] == {"custom": {}}
    plain = {
        "schema_version": 1,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}],
    }
    assert write(plain)["messages"][0]["schema_version"] == "2.0"


def test_message_fields_a_turn_cannot_carry_are_reported() -> None:
    message = {
        "role": "user",
        "content": [{"type": "text", "text": "x"}],
        "id": "01J00000000000000000000000",
        "channel": "final",
    }
    document = {"schema_version": 1, "messages": [message]}
    # CMF's turn template takes the channel, not the id
    assert losses(document) == [("/messages/0/id", "field_dropped")]
    # a format without a `turn` reports both
    assert ("/messages/0/channel", "field_dropped") in losses(document, "openai-chat")
    assert ("/messages/0/id", "field_dropped") in losses(document, "openai-chat")


def test_fields_of_hoisted_system_prompts_and_own_tool_messages_are_reported() -> None:
    document = {
        "schema_version": 1,
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": "s"}], "channel": "final"},
            {"role": "user", "content": [{"type": "text", "text": "u"}]},
            {
                "role": "assistant",
                "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}],
            },
            {
                "role": "tool",
                "channel": "commentary",
                "content": [{"type": "tool_result", "tool_call_id": "c1", "content": []}],
            },
        ],
    }
    assert ("/messages/0/channel", "field_dropped") in losses(document, "anthropic")
    assert ("/messages/3/channel", "field_dropped") in losses(document, "openai-chat")


def test_turn_fields_without_a_turn_template_report_and_give_nothing() -> None:
    ctx = Context(adapter="openai-chat")
    message = {"role": "user", "content": [], "session_id": "s"}
    fields_dropped(ctx, message, "/m")
    assert [(loss.pointer, loss.code) for loss in ctx.losses] == [
        ("/m/session_id", "field_dropped")
    ]


def test_nested_messages_are_read_and_written_with_the_same_layout() -> None:
    nested = [turn("user", text("inner"), channel="final")]
    result = {"prompt_request_id": "p", "prompt_name": "n", "messages": nested}
    body = {
        "messages": [
            turn(
                "assistant",
                {
                    "content_type": "prompt_request",
                    "content": {"prompt_request_id": "p", "name": "n", "arguments": {}},
                },
            ),
            turn("user", {"content_type": "prompt_result", "content": result}),
        ]
    }
    part = read(body)["messages"][1]["content"][0]
    assert part["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "inner"}], "channel": "final"}
    ]
    assert write(read(body)) == body


def test_a_loss_inside_nested_messages_points_into_them() -> None:
    document = {
        "schema_version": 1,
        "messages": [
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "prompt_request",
                        "prompt_request_id": "p",
                        "name": "n",
                        "arguments": {},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "prompt_result",
                        "prompt_request_id": "p",
                        "name": "n",
                        "messages": [
                            {
                                "role": "assistant",
                                "content": [{"type": "refusal", "text": "no"}],
                                "id": "01J00000000000000000000000",
                            }
                        ],
                    }
                ],
            },
        ],
    }
    assert losses(document) == [
        ("/messages/1/content/0/messages/0/content/0", "converted_to_text"),
        ("/messages/1/content/0/messages/0/id", "field_dropped"),
    ]


def test_nested_messages_in_a_hoisting_format_report_the_system_prompt() -> None:
    ctx = Context(adapter="mcp")
    messages = [
        {"role": "system", "content": [{"type": "text", "text": "s"}]},
        {"role": "user", "content": [{"type": "text", "text": "u"}]},
    ]
    turns = mcp_adapter.encode_nested(ctx, messages, "/x")
    assert turns == [{"role": "user", "content": {"type": "text", "text": "u"}}]
    assert ("/x", "field_dropped") in [(loss.pointer, loss.code) for loss in ctx.losses]


def test_an_unknown_content_type_is_kept_and_written_back_as_it_came() -> None:
    block = {"content_type": "hologram", "content": {"frames": 3}}
    body = {"messages": [turn("user", text("a"), block)]}
    assert read(body)["messages"][0]["content"][1] == {"type": "hologram", **block}
    assert write(read(body)) == body
    # another format cannot carry it, and says so
    assert ("/messages/0/content/1", "part_dropped") in [
        (loss.pointer, loss.code) for loss in convert(body, "cmf", "openai-chat").losses
    ]


def test_a_lying_discriminator_is_refused() -> None:
    body = {"messages": [turn("user", {"content_type": "tool_call", "text": "hello"})]}
    with pytest.raises(ConversionError) as caught:
        convert(body, "cmf", "canonical")
    # the tag names a known kind: that kind's missing field is the error
    assert (caught.value.code, caught.value.pointer) == (
        "missing_field",
        "/messages/0/content/0/content",
    )
    # without the schema check the tool_call variant itself refuses it: never text
    with pytest.raises(ConversionError) as caught:
        convert(body, "cmf", "canonical", validate_input=False)
    assert (caught.value.code, caught.value.pointer) == (
        "missing_field",
        "/messages/0/content/0/content",
    )


def test_a_result_takes_the_name_of_its_call_and_reads_back_without_it() -> None:
    document = {
        "schema_version": 1,
        "messages": [
            {
                "role": "assistant",
                "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}],
            },
            {
                "role": "tool",
                "content": [{"type": "tool_result", "tool_call_id": "c1", "content": []}],
            },
        ],
    }
    wire = write(document)
    assert wire["messages"][1]["content"][0]["content"]["tool_name"] == "f"
    assert "name" not in read(wire)["messages"][1]["content"][0]  # it repeats its call's
    assert read(wire) == document


def test_a_result_whose_call_is_elsewhere_keeps_its_name_or_gets_a_placeholder() -> None:
    result = {"tool_call_id": "c9", "tool_name": "g", "content": "ok", "is_error": False}
    stored = turn("tool", {"content_type": "tool_result", "content": result})
    assert read(stored, "messages")["content"][0]["name"] == "g"
    nameless = {
        "role": "tool",
        "content": [{"type": "tool_result", "tool_call_id": "c9", "content": []}],
    }
    assert losses(nameless, kind="messages") == [("/content/0/name", "placeholder_inserted")]


def test_review_02_an_unknown_cmf_part_reaches_the_views() -> None:
    body = turn("assistant", text("a"), {"content_type": "poll", "q": "?"})
    found = list(interlingua.views(read(body, "messages")))
    assert [v.kind for v in found] == ["text", "unknown"]  # none skipped, none made text


def test_review_10_a_reversed_range_read_from_cmf_is_flagged() -> None:
    ref = {"resource_request_id": "r", "uri": "file:///a", "resource_type": "file"}
    body = turn(
        "user",
        {"content_type": "resource_ref", "content": {**ref, "range_start": 9, "range_end": 2}},
    )
    codes = [f.code for f in interlingua.validate(read(body, "messages"))]
    assert "range_reversed" in codes
