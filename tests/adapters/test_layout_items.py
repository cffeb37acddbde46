"""Item layouts (`layout.items`), shown through the OpenAI Responses adapter, which turns them
on: turns spread into flat item lists and grouped back, a bare string as the list, tool results
as items of their own, unknown items kept in place, the response's item list, part variants
bound to roles, and the stop reason refined by a second field (`stop_reasons.detail`)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from generator.adapters import Mapping, plan_adapter
from generator.load import SchemaLoadError
from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters import items
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import adapter, convert
from tests.generator.mappings import mapping_data

F = "openai-responses"
ROOT = Path(__file__).resolve().parents[2]


def read(body: Any, kind: str = "request", **options: Any) -> Any:
    return convert(body, F, "canonical", kind, **options).output


def write(document: Any, kind: str = "request") -> tuple[Any, list[tuple[str, str]]]:
    result = convert(document, "canonical", F, kind)
    return result.output, [(loss.pointer, loss.code) for loss in result.losses]


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def call(cid: str, name: str = "f") -> dict[str, Any]:
    return {"type": "tool_call", "id": cid, "name": name, "arguments": {}}


def result(cid: str, value: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_call_id": cid, "content": [text(value)]}


def conversation(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"schema_version": 1, "model": "gpt-4.1", "messages": list(messages)}


# --- writing -------------------------------------------------------------------------------


def test_a_turn_spreads_into_message_items_and_items_of_their_own_in_place() -> None:
    document = conversation(
        {"role": "user", "content": [text("go")]},
        {"role": "assistant", "content": [text("a"), call("c1"), text("b"), call("c2")]},
        {"role": "tool", "content": [result("c1", "1")]},
        {"role": "tool", "content": [result("c2", "2")]},
    )
    body, losses = write(document)
    assert losses == []
    assert body["input"] == [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "a"}]},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "b"}]},
        {"type": "function_call", "call_id": "c2", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "1"},
        {"type": "function_call_output", "call_id": "c2", "output": "2"},
    ]


def test_text_is_output_text_for_the_model_only() -> None:
    document = conversation(
        {"role": "developer", "content": [text("d"), text("e")]},
        {"role": "assistant", "content": [text("x"), text("y")]},
    )
    body, _ = write(document)
    assert body["input"][0]["content"][0] == {"type": "input_text", "text": "d"}
    assert body["input"][1]["content"][0] == {"type": "output_text", "text": "x"}


def test_only_the_system_prompt_is_hoisted() -> None:
    document = conversation(
        {"role": "system", "content": [text("S")]},
        {"role": "developer", "content": [text("D")]},
        {"role": "user", "content": [text("U")]},
    )
    body, losses = write(document)
    assert losses == []
    assert body["instructions"] == "S"
    assert body["input"][0] == {"role": "developer", "content": "D"}


def test_a_response_message_item_carries_the_constant_fields() -> None:
    response = {
        "schema_version": 1,
        "id": "resp_1",
        "model": "gpt-4.1",
        "stop_reason": "content_filter",
        "message": {"role": "assistant", "content": [text("x")]},
    }
    body, losses = write(response, "response")
    assert body["output"] == [
        {
            "type": "message",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "x"}],
        }
    ]
    assert body["status"] == "incomplete"
    assert body["incomplete_details"] == {"reason": "content_filter"}
    assert ("/created", "placeholder_inserted") in losses  # created_at


def test_a_refusal_stop_is_approximated_as_content_filter() -> None:
    response = {
        "schema_version": 1,
        "id": "r",
        "model": "m",
        "stop_reason": "refusal",
        "message": {"role": "assistant", "content": [{"type": "refusal", "text": "no"}]},
    }
    body, losses = write(response, "response")
    assert body["incomplete_details"] == {"reason": "content_filter"}
    assert ("/stop_reason", "stop_reason_approximated") in losses


def test_spread_keeps_a_string_and_drops_nothing_of_an_empty_turn() -> None:
    layout = adapter(F).turns.items
    assert layout is not None
    ctx = Context(F)
    assert items.spread(ctx, layout, {"role": "user", "content": ""}) == [
        {"role": "user", "content": ""}
    ]
    assert items.spread(ctx, layout, {"role": "assistant", "content": None}) == []
    turn = {"role": "assistant", "content": [{"type": "output_text", "text": "t"}], "name": "n"}
    assert items.spread(ctx, layout, turn) == [turn]


# --- reading ---------------------------------------------------------------------------------


def test_a_string_input_is_one_user_message_and_comes_back_a_string() -> None:
    conversation_read = read({"model": "m", "input": "hi"})
    assert without_raw(conversation_read["messages"]) == [{"role": "user", "content": [text("hi")]}]
    body, _ = write(conversation_read)
    assert body["input"] == "hi"
    changed = copy.deepcopy(conversation_read)
    changed["messages"][0]["content"][0]["text"] = "bye"
    body, _ = write(changed)
    assert body["input"] == [{"role": "user", "content": "bye"}]


def test_a_string_input_without_fidelity_keeps_no_round_trip_data() -> None:
    ctx = Context(F, fidelity=False)
    assert items.decode(ctx, adapter(F), "hi", "/input") == [
        {"role": "user", "content": [text("hi")]}
    ]


def test_items_group_into_messages_by_role() -> None:
    body = {
        "model": "m",
        "input": [
            {"type": "reasoning", "summary": []},
            {"role": "assistant", "content": "a"},
            {"role": "assistant", "content": "b"},
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c", "output": "x"},
            {"type": "item_reference", "id": "m1"},
            {"role": "user", "content": "u"},
        ],
    }
    messages = without_raw(read(body)["messages"])
    assert [m["role"] for m in messages] == ["assistant", "assistant", "tool", "assistant", "user"]
    assert [p["type"] for p in messages[0]["content"]] == ["thinking", "text"]
    assert [p["type"] for p in messages[1]["content"]] == ["text", "tool_call"]
    assert messages[3]["content"] == [{"type": "item_reference", "id": "m1"}]
    again = convert(read(body), "canonical", F).output
    assert again == body


def test_an_empty_text_beside_other_parts_is_left_out_and_restored() -> None:
    body = {
        "model": "m",
        "input": [
            {"role": "assistant", "content": ""},
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
        ],
    }
    conversation_read = read(body)
    assert [p["type"] for p in conversation_read["messages"][0]["content"]] == ["tool_call"]
    assert convert(conversation_read, "canonical", F).output == body


def test_fields_of_message_items_are_reported_when_converting_elsewhere() -> None:
    body = {
        "model": "m",
        "input": [
            {
                "type": "message",
                "id": "msg_1",
                "status": "incomplete",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "t"}],
            },
            {"type": "message", "status": "completed", "role": "assistant", "content": "u"},
        ],
    }
    result = convert(body, F, "openai-chat")
    assert sorted(loss.pointer for loss in result.losses) == ["/input/0/id", "/input/0/status"]


def test_a_response_is_its_item_list() -> None:
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "m",
        "output": [
            {
                "type": "message",
                "id": "msg",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "t", "annotations": []}],
            },
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
        ],
    }
    response = read(body, "response")
    assert response["stop_reason"] == "call"
    assert [p["type"] for p in response["message"]["content"]] == ["text", "tool_call"]
    assert convert(response, "canonical", F, "response").output == body


def test_message_items_of_a_response_merge_reported_when_crossing() -> None:
    body = {
        "object": "response",
        "status": "completed",
        "model": "m",
        "output": [
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "a"}],
            },
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "b"}],
            },
        ],
    }
    response = read(body, "response")
    assert [p["text"] for p in response["message"]["content"]] == ["a", "b"]
    assert convert(response, "canonical", F, "response").output["output"] == body["output"]
    crossed = convert(body, F, "openai-chat", "response")
    assert ("/output/1", "turns_merged") in [(x.pointer, x.code) for x in crossed.losses]


@pytest.mark.parametrize(
    ("output", "code", "pointer"),
    [
        ({"role": "assistant"}, "wrong_type", "/output"),
        (["x"], "wrong_type", "/output/0"),
        ([{"role": "user", "content": "u"}], "wrong_role", "/output/0/role"),
        (
            [{"type": "function_call_output", "call_id": "c", "output": "x"}],
            "wrong_role",
            "/output/0",
        ),
    ],
)
def test_a_response_holds_the_model_s_items(output: Any, code: str, pointer: str) -> None:
    body = {"object": "response", "status": "completed", "model": "m", "output": output}
    with pytest.raises(ConversionError) as error:
        read(body, "response", validate_input=False)
    assert (error.value.code, error.value.pointer) == (code, pointer)


@pytest.mark.parametrize(
    ("value", "code", "pointer"),
    [
        ({"role": "user"}, "wrong_type", "/input"),
        ([1], "wrong_type", "/input/0"),
        ([{"type": "message", "content": "x"}], "missing_field", "/input/0/role"),
        ([{"role": "tool", "content": "x"}], "unknown_variant", "/input/0"),
        ([{"role": "critic", "content": "x"}], "not_in_enum", "/input/0/role"),
        ([{"content": "x"}], "unknown_variant", "/input/0"),
        ([{"type": "function_call_output", "output": "x"}], "missing_field", "/input/0/call_id"),
    ],
)
def test_bad_items_are_coded_errors(value: Any, code: str, pointer: str) -> None:
    with pytest.raises(ConversionError) as error:
        read({"model": "m", "input": value}, validate_input=False)
    assert (error.value.code, error.value.pointer) == (code, pointer)


def test_several_summary_paragraphs_are_reported_as_merged_when_crossing() -> None:
    body = {
        "model": "m",
        "input": [
            {
                "type": "reasoning",
                "id": "rs",
                "summary": [
                    {"type": "summary_text", "text": "a"},
                    {"type": "summary_text", "text": "b"},
                ],
            },
        ],
    }
    ctx = Context(F, fidelity=False)
    (message,) = items.decode(ctx, adapter(F), body["input"], "/input")
    assert message["content"][0]["text"] == "a\n\nb"
    assert sorted((loss.pointer, loss.code) for loss in ctx.losses) == [
        ("/input/0/id", "field_dropped"),
        ("/input/0/summary", "parts_merged"),
    ]
    with pytest.raises(ConversionError):
        items.decode(ctx, adapter(F), [{"type": "reasoning", "summary": "x"}], "/input")
    with pytest.raises(ConversionError):
        items.decode(ctx, adapter(F), [{"type": "reasoning", "summary": [{"type": "x"}]}], "/i")


# --- the mapping language ------------------------------------------------------------------------


def _responses() -> dict[str, Any]:
    return mapping_data(F)


def _plan(data: dict[str, Any]) -> Any:
    bundle = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())
    return plan_adapter(Mapping(Path("mappings/openai-responses.yaml"), data), bundle)


def test_a_role_bound_variant_is_guarded_by_the_role() -> None:
    source = next(f.source for f in _plan(_responses()).functions if f.name == "encode_text")
    assert "if ctx.role in ('assistant',):" in source


@pytest.mark.parametrize("side", ["to_canonical", "from_canonical"])
def test_the_stop_detail_names_canonical_reasons(side: str) -> None:
    data = _responses()
    table = data["stop_reasons"]["detail"][side]
    if side == "to_canonical":
        table["x"] = "nonsense"
    else:
        table["nonsense"] = "x"
    with pytest.raises(SchemaLoadError, match="detail"):
        _plan(data)


def test_one_stored_item_is_the_message_it_belongs_to() -> None:
    item = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
    message = convert(item, F, "canonical", "messages").output
    assert without_raw(message) == {"role": "assistant", "content": [call("c1")]}
    assert convert(message, "canonical", F, "messages").output == item
    with pytest.raises(ConversionError) as error:
        convert(
            {"type": "function_call_output", "output": "x"},
            F,
            "canonical",
            "messages",
            validate_input=False,
        )
    assert (error.value.code, error.value.pointer) == ("missing_field", "/call_id")


@pytest.mark.parametrize(
    "output_type",
    [
        "apply_patch_call_output",
        "shell_call_output",
        "local_shell_call_output",
        "computer_call_output",
    ],
)
def test_the_output_of_a_tool_the_client_runs_is_the_users(output_type: str) -> None:
    # Recorded by openai-dotnet's apply_patch test: the client's result of the model's patch.
    # It read as an unknown part of the model's turn; the client sent it, so it is the user's.
    body = {
        "model": "gpt-5.1",
        "input": [
            {"type": "message", "role": "user", "content": "Patch it."},
            {"type": output_type, "call_id": "call_1", "status": "completed"},
        ],
    }
    messages = read(copy.deepcopy(body))["messages"]
    assert [m["role"] for m in messages] == ["user"]
    assert messages[0]["content"][-1]["type"] == output_type
    assert convert(copy.deepcopy(body), F, F).output == body
