"""Hosted tool parts and tool approvals: bound to the format that ran them by the mapping (its
variants name their origin), not by the reasoning replay rule."""

from __future__ import annotations

from typing import Any

from interlingua.conversion.converter import convert
from interlingua.generated.parts import BOUND_PART_TYPES, PART_TYPES

HOSTED = ("hosted_tool_call", "hosted_tool_result", "tool_approval_request")


def conversation(*parts: dict[str, Any], model: str = "claude-sonnet-4-5") -> dict[str, Any]:
    return {
        "schema_version": 1,
        "model": model,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "q"}]},
            {"role": "assistant", "content": [*parts, {"type": "text", "text": "a"}]},
        ],
    }


SEARCH = {
    "type": "hosted_tool_call",
    "id": "srvtoolu_1",
    "tool": "web_search",
    "input": {"query": "x"},
    "origin": {"format": "anthropic"},
}


def test_hosted_parts_are_part_types_outside_the_reasoning_rule() -> None:
    assert set(HOSTED) <= PART_TYPES
    assert "tool_approval_response" in PART_TYPES
    assert not set(HOSTED) & BOUND_PART_TYPES
    assert {"thinking", "redacted_thinking"} <= BOUND_PART_TYPES


def test_a_hosted_call_goes_to_its_format_whatever_the_model() -> None:
    # Reasoning is bound to its model; a hosted call only to its format.
    result = convert(conversation(SEARCH, model="claude-opus-4-1"), "canonical", "anthropic")
    assert result.output["messages"][1]["content"][0] == {
        "type": "server_tool_use",
        "id": "srvtoolu_1",
        "name": "web_search",
        "input": {"query": "x"},
    }
    assert [loss.code for loss in result.losses if loss.part_type == "hosted_tool_call"] == []


def test_elsewhere_it_is_dropped_and_reported_never_text() -> None:
    for target in ("openai-responses", "gemini", "openai-chat", "bedrock"):
        result = convert(conversation(SEARCH), "canonical", target, thinking="text")
        assert "srvtoolu_1" not in str(result.output), target
        losses = [(loss.pointer, loss.code) for loss in result.losses]
        assert ("/messages/1/content/0", "part_dropped") in losses, target


def test_a_call_another_format_ran_is_not_written_by_one_with_hosted_tools() -> None:
    foreign = {**SEARCH, "origin": {"format": "openai-responses"}}
    result = convert(conversation(foreign), "canonical", "anthropic")
    assert "srvtoolu_1" not in str(result.output)
    assert [(loss.pointer, loss.code) for loss in result.losses if loss.part_type] == [
        ("/messages/1/content/0", "part_dropped")
    ]


def test_the_program_that_called_a_tool_reads_as_its_caller() -> None:
    fetch = {
        "type": "server_tool_use",
        "id": "srvtoolu_2",
        "name": "web_fetch",
        "input": {"url": "https://example.com"},
        "caller": {"type": "code_execution_20260120", "tool_id": "srvtoolu_1"},
    }
    body: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [fetch]},
        ],
    }
    part = convert(body, "anthropic", "canonical").output["messages"][1]["content"][0]
    assert part["caller"] == {
        "type": "program",
        "call_id": "srvtoolu_1",
        "tool": "code_execution_20260120",
    }
    back = convert(
        {**conversation(part), "parameters": {"max_output_tokens": 10}}, "canonical", "anthropic"
    )
    assert back.output["messages"][1]["content"][0] == fetch


def test_an_approval_response_is_a_user_item_of_its_own() -> None:
    document: dict[str, Any] = {
        "schema_version": 1,
        "model": "gpt-5.1",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "go"},
                    {"type": "tool_approval_response", "request_id": "mcpr_1", "approve": True},
                ],
            }
        ],
    }
    wire = convert(document, "canonical", "openai-responses").output
    assert wire["input"] == [
        {"role": "user", "content": [{"type": "input_text", "text": "go"}]},
        {"type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": True},
    ]
    again = convert(wire, "openai-responses", "canonical").output
    assert again["messages"][0]["content"] == document["messages"][0]["content"]


# pydantic-ai's recorded Bedrock request (tests/models/cassettes/test_bedrock/
# test_bedrock_model_with_code_execution_tool.yaml, interaction 1): the history gives back the
# model's turn as Nova answered it, its code interpreter's call and result included. The result
# in the assistant turn was refused (`missing_field` at its `text`).
NOVA_TURN = {
    "role": "assistant",
    "content": [
        {
            "toolUse": {
                "toolUseId": "tooluse_1",
                "name": "nova_code_interpreter",
                "input": {"snippet": "1234 * 5678"},
                "type": "server_tool_use",
            }
        },
        {
            "toolResult": {
                "toolUseId": "tooluse_1",
                "content": [{"json": {"stdOut": "7006652", "exitCode": 0, "isError": False}}],
                "type": "nova_code_interpreter_result",
                "status": "success",
            }
        },
        {"text": "7006652"},
    ],
}
NOVA_BODY = {
    "messages": [
        {"role": "user", "content": [{"text": "What is 1234 * 5678?"}]},
        NOVA_TURN,
        {"role": "user", "content": [{"text": "Now multiply that by 2"}]},
    ]
}


def test_a_nova_system_tool_in_a_request_history_reads_as_hosted_parts() -> None:
    canonical = convert(NOVA_BODY, "bedrock", "canonical").output
    parts = canonical["messages"][1]["content"]
    assert [part["type"] for part in parts] == ["hosted_tool_call", "hosted_tool_result", "text"]
    assert parts[1]["tool"] == "nova_code_interpreter"
    assert convert(canonical, "canonical", "bedrock").output == NOVA_BODY
    crossed = convert(NOVA_BODY, "bedrock", "anthropic")
    dropped = {loss.part_type for loss in crossed.losses if loss.code == "part_dropped"}
    assert dropped == {"hosted_tool_call", "hosted_tool_result"}
