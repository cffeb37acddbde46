"""Who called a client tool: Anthropic's `tool_use` blocks say (`caller`), the model (`direct`)
or the program a code execution ran (programmatic tool calling). The canonical call keeps it;
the model's caller says what its absence says (`x-default`), so a format with no place for a
caller loses nothing there, and a program's caller is reported."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from interlingua.conversion.converter import convert
from interlingua.documents.validation import is_error, validate

ROOT = Path(__file__).resolve().parents[2]
# Recorded by the Vercel AI SDK's tests: code execution calling the client's `rollDie` tool.
PROGRAMMATIC: dict[str, Any] = json.loads(
    (
        ROOT / "conformance/real/anthropic/response/"
        "vercel-ai--anthropic-anthropic-programmatic-tool-calling-1.json"
    ).read_text(encoding="utf-8")
)


def _with_caller(caller: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "Roll."},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "roll",
                        "input": {},
                        "caller": caller,
                    }
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "4"}],
            },
        ],
    }


def test_a_program_s_calls_say_which_program_called() -> None:
    response = convert(copy.deepcopy(PROGRAMMATIC), "anthropic", "canonical", "response").output
    callers = [p["caller"] for p in response["message"]["content"] if p["type"] == "tool_call"]
    assert callers and all(c["type"] == "program" for c in callers)
    assert {c["tool"] for c in callers} == {"code_execution_20250825"}
    (hosted,) = [p["id"] for p in response["message"]["content"] if p["type"] == "hosted_tool_call"]
    assert {c["call_id"] for c in callers} == {hosted}
    assert [f.code for f in validate(response, "Response") if is_error(f)] == []
    back = convert(copy.deepcopy(PROGRAMMATIC), "anthropic", "anthropic", "response")
    assert back.output == PROGRAMMATIC


def test_the_models_caller_is_no_loss_and_a_programs_is() -> None:
    direct = convert(_with_caller({"type": "direct"}), "anthropic", "openai-chat")
    assert not [loss for loss in direct.losses if "caller" in loss.pointer]
    program = _with_caller({"type": "code_execution_20260120", "tool_id": "srvtoolu_1"})
    result = convert(program, "anthropic", "openai-chat")
    assert [(loss.pointer, loss.code) for loss in result.losses if "caller" in loss.pointer] == [
        ("/messages/1/content/0/caller", "field_dropped")
    ]


def test_a_call_read_from_another_format_says_no_caller_at_anthropic() -> None:
    chat = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "Roll."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "roll", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "4"},
        ],
    }
    output = convert(chat, "openai-chat", "anthropic").output
    assert "caller" not in json.dumps(output)
