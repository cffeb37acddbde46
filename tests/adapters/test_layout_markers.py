"""Layout features shown through the Bedrock Converse adapter, which turns them on: a field
written as a block of its own after its part (cache points), a structured value as one more
block of a result, blank text left out of requests, tools declared for a history of calls,
reasoning replayed from another wire format of the same models, and what a body without a
model or without any envelope field reads as."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.fidelity import without_raw as _without_raw
from interlingua.conversion.converter import convert

CP = {"cachePoint": {"type": "default"}}
EPH = {"type": "ephemeral"}
SPEC = {"toolSpec": {"name": "lookup", "inputSchema": {"json": {"type": "object"}}}}


def read(body: dict[str, Any], kind: str = "request") -> dict[str, Any]:
    out: dict[str, Any] = convert(body, "bedrock", "canonical", kind).output
    return out


def write(document: dict[str, Any], kind: str = "request") -> tuple[Any, list[tuple[str, str]]]:
    result = convert(document, "canonical", "bedrock", kind)
    return result.output, [(loss.pointer, loss.code) for loss in result.losses]


def conversation(*messages: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"schema_version": 1, **fields, "messages": list(messages)}


def user(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(parts)}


def text(value: str, **fields: Any) -> dict[str, Any]:
    return {"type": "text", "text": value, **fields}


# --- markers -----------------------------------------------------------------------------


def test_a_marker_follows_its_part_and_reads_back_onto_it() -> None:
    document = conversation(
        {"role": "system", "content": [text("S", cache_hint=EPH)]},
        user(text("big", cache_hint={"type": "ephemeral", "ttl": "1h"}), text("q")),
        tools=[{"name": "lookup", "input_schema": {"type": "object"}, "cache_hint": EPH}],
    )
    body, losses = write(document)
    assert body["system"] == [{"text": "S"}, CP]
    assert body["messages"][0]["content"] == [
        {"text": "big"},
        {"cachePoint": {"type": "default", "ttl": "1h"}},
        {"text": "q"},
    ]
    assert body["toolConfig"]["tools"] == [SPEC, CP]
    assert losses == []
    assert _without_raw(read(body)) == document


def test_a_marker_with_nothing_to_carry_it_stays_a_block() -> None:
    body = {"messages": [{"role": "user", "content": [CP, {"text": "Hi"}]}]}
    assert read(body)["messages"][0]["content"][0] == {"type": "cachePoint", **CP}
    assert write(read(body))[0] == body
    # In a list of tools, a leading marker has no item to go on: round-trip data keeps it.
    tools: dict[str, Any] = {
        "messages": body["messages"][1:] or [{"role": "user", "content": [{"text": "x"}]}]
    }
    tools["toolConfig"] = {"tools": [CP, SPEC]}
    assert read(tools)["tools"] == [{"name": "lookup", "input_schema": {"type": "object"}}]
    assert write(read(tools))[0] == tools


def test_a_marker_where_no_block_may_follow_is_reported() -> None:
    document = conversation(
        user(text("go")),
        {
            "role": "assistant",
            "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}],
        },
        {
            "role": "tool",
            "content": [
                {
                    "type": "tool_result",
                    "tool_call_id": "c1",
                    "content": [text("x", cache_hint=EPH)],
                }
            ],
        },
        tools=[{"name": "f", "input_schema": {"type": "object"}}],
    )
    body, losses = write(document)
    assert body["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": "c1", "content": [{"text": "x"}]}}
    ]
    assert losses == [("/messages/2/content/0/content/0/cache_hint", "field_dropped")]


def test_a_marker_value_with_no_wire_form_is_reported() -> None:
    body, losses = write(
        conversation(user(text("x", cache_hint={"type": "ephemeral", "ttl": "2h"})))
    )
    assert body["messages"][0]["content"] == [{"text": "x"}, CP]
    assert losses == [("/messages/0/content/0/cache_hint/ttl", "field_dropped")]


# --- a result's structured value as one more block ---------------------------------------


def _result_turn(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "content": [{"text": "go"}]},
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "t1", "name": "lookup", "input": {}}}],
            },
            {
                "role": "user",
                "content": [{"toolResult": {"toolUseId": "t1", "content": list(blocks)}}],
            },
        ],
        "toolConfig": {"tools": [SPEC]},
    }


def test_the_first_json_block_is_the_structured_value_wherever_it_is() -> None:
    body = _result_turn({"json": {"a": 1}}, {"text": "one"})
    result = read(body)["messages"][2]["content"][0]
    assert (result["content"], result["structured_content"]) == ([text("one")], {"a": 1})
    assert write(read(body))[0] == body  # the block order comes back from round-trip data


def test_a_second_json_block_is_kept_as_it_came() -> None:
    body = _result_turn({"json": {"a": 1}}, {"json": {"b": 2}})
    result = read(body)["messages"][2]["content"][0]
    assert result["structured_content"] == {"a": 1}
    assert result["content"] == [{"type": "json", "json": {"b": 2}}]
    assert write(read(body))[0] == body


# --- blank text ----------------------------------------------------------------------------


def test_blank_text_is_left_out_of_requests_only() -> None:
    body, losses = write(conversation(user(text(" \n"), text("hi"))))
    assert body["messages"] == [{"role": "user", "content": [{"text": "hi"}]}]
    assert losses == [("/messages/0/content/0", "part_dropped")]
    response = {
        "schema_version": 1,
        "model": "m",
        "stop_reason": "end",
        "usage": {"input_tokens": 1, "output_tokens": 0},
        "message": {"role": "assistant", "content": [text("")]},
    }
    body, _ = write(response, "response")
    assert body["output"]["message"]["content"] == [{"text": ""}]  # responses may hold it


def test_a_system_prompt_of_blank_text_goes_away() -> None:
    body, losses = write(conversation({"role": "system", "content": [text(" ")]}, user(text("hi"))))
    assert "system" not in body
    assert losses == [("/messages/0/content/0", "part_dropped"), ("/messages/0", "message_dropped")]


# --- tools for a history of calls ------------------------------------------------------------


def _history(*names: str) -> list[dict[str, Any]]:
    calls = [
        {"type": "tool_call", "id": f"c{i}", "name": n, "arguments": {}}
        for i, n in enumerate(names)
    ]
    results = [
        {
            "role": "tool",
            "content": [{"type": "tool_result", "tool_call_id": c["id"], "content": [text("ok")]}],
        }
        for c in calls
    ]
    return [user(text("go")), {"role": "assistant", "content": calls}, *results]


def test_each_tool_the_history_calls_is_declared_once() -> None:
    body, losses = write(conversation(*_history("fs.read", "get_time", "fs.read")))
    names = [tool["toolSpec"]["name"] for tool in body["toolConfig"]["tools"]]
    uses = [block["toolUse"]["name"] for block in body["messages"][1]["content"]]
    assert names == ["fs_read", "get_time"] and uses == ["fs_read", "get_time", "fs_read"]
    assert ("/tools", "placeholder_inserted") in losses


def test_offered_tools_are_not_added_to() -> None:
    tools = [{"name": "other", "input_schema": {"type": "object"}}]
    body, losses = write(conversation(*_history("get_time"), tools=tools))
    assert [t["toolSpec"]["name"] for t in body["toolConfig"]["tools"]] == ["other"]
    assert losses == []


def test_a_choice_without_tools_keeps_its_place_beside_the_declaration() -> None:
    body, _ = write(conversation(*_history("get_time"), tool_choice={"type": "auto"}))
    assert body["toolConfig"] == {
        "toolChoice": {"auto": {}},
        "tools": [{"toolSpec": {"name": "get_time", "inputSchema": {"json": {"type": "object"}}}}],
    }


def test_a_choice_with_no_tools_and_no_calls_is_left_out_and_reported() -> None:
    """Regression (openinference's recorded Mistral request: `tool_choice: "auto"` and no
    tools, which Mistral took): written to Converse, it gave a `toolConfig` without the
    `tools` Converse requires. A format whose choice goes beside its tools leaves it out;
    one whose choice stands alone (Gemini's `toolConfig`) keeps it."""
    document = conversation(user(text("q")), tool_choice={"type": "auto"})
    body, losses = write(document)
    assert "toolConfig" not in body
    assert ("/tool_choice", "field_dropped") in losses
    gemini = convert(document, "canonical", "gemini").output
    assert gemini["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}


# --- reasoning from another wire format of the same models ---------------------------------


@pytest.mark.parametrize(
    ("issuer", "kept"), [("anthropic", True), ("bedrock", True), ("gemini", False)]
)
def test_reasoning_replays_from_the_formats_the_mapping_names(issuer: str, kept: bool) -> None:
    thinking = {"type": "thinking", "text": "t", "signature": "c2ln", "origin": {"format": issuer}}
    document = conversation(
        user(text("q")), {"role": "assistant", "content": [thinking, text("a")]}
    )
    body, losses = write(document)
    blocks = body["messages"][1]["content"]
    assert (
        blocks[0] == {"reasoningContent": {"reasoningText": {"text": "t", "signature": "c2ln"}}}
    ) is kept
    if issuer == "bedrock":
        assert losses == []
    elif kept:  # replayed, but read back it is Bedrock's: the origin is reported
        assert losses == [("/messages/1/content/0/origin", "field_dropped")]
    else:
        assert losses and losses[0][1] == "thinking_not_replayable"


# --- bodies with little in them --------------------------------------------------------------


def test_a_request_of_turns_alone() -> None:
    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}
    assert _without_raw(read(body)) == conversation(user(text("hi")))
    assert write(read(body)) == (body, [])


def test_a_response_without_a_model_reads_as_unknown_and_says_so() -> None:
    body = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"reasoningContent": {"reasoningText": {"text": "t", "signature": "c2ln"}}},
                    {"text": "a"},
                ],
            }
        },
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
        "metrics": {"latencyMs": 5},
    }
    result = convert(body, "bedrock", "canonical", "response")
    assert result.output["model"] == "unknown"
    assert result.output["message"]["content"][0]["origin"] == {"format": "bedrock"}  # no model
    assert [(x.pointer, x.code) for x in result.losses] == [("", "placeholder_inserted")]
    assert convert(result.output, "canonical", "bedrock", "response").output == body


# --- errors in keyed unions are located in the member meant ---------------------------------


@pytest.mark.parametrize(
    ("block", "code", "where"),
    [
        (
            {"image": {"format": "png", "source": {"bytes": "data:x"}}},
            "pattern_mismatch",
            "/messages/0/content/0/image/source/bytes",
        ),
        ({"text": "a", "image": {}}, "unknown_variant", "/messages/0/content/0"),
        ({"text": "a", "toolResult": {}}, "unknown_variant", "/messages/0/content/0"),
    ],
)
def test_a_keyed_block_is_judged_by_its_key(block: dict[str, Any], code: str, where: str) -> None:
    with pytest.raises(ConversionError) as err:
        read({"messages": [{"role": "user", "content": [block]}]})
    assert (err.value.code, err.value.pointer) == (code, where)


@pytest.mark.parametrize(
    ("block", "part"),
    [
        # Blank text breaks a request rule of Bedrock's, not what reading needs.
        ({"text": "  "}, {"type": "text", "text": "  "}),
        # A key no keyed union of the format knows: a block of a new kind, kept as it came.
        ({"sticker": {"id": 1}}, {"type": "sticker", "sticker": {"id": 1}}),
    ],
)
def test_a_keyed_block_of_a_new_kind_or_breaking_a_request_rule_reads(
    block: dict[str, Any], part: dict[str, Any]
) -> None:
    body = {"messages": [{"role": "user", "content": [block]}]}
    assert read(body)["messages"][0]["content"] == [part]
