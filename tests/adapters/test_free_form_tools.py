"""Free-form (custom) tools: OpenAI's tools that take text, not a JSON object, optionally under
a grammar. They are canonical (`ToolDefinition.input_format`, `ToolCallPart.free_form`, the
text as the one argument `input`), carried whole between OpenAI Chat and Responses, and given
to a format without them as a function of that one string, its call and result beside it, so
the conversation goes on; only the input format and the call's free form are reported there."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from interlingua.conversion.converter import convert
from interlingua.documents.validation import is_error, validate
from interlingua.streams.engine import StreamTranslator
from tests.adapters.strict import problems
from tests.streams.helpers import framed

ROOT = Path(__file__).resolve().parents[2]
CHAT: dict[str, Any] = json.loads(
    (ROOT / "schemas/formats/openai-chat/examples/request/custom_tool_with_grammar.json").read_text(
        encoding="utf-8"
    )
)
ONE_STRING = {"type": "object", "properties": {"input": {"type": "string"}}, "required": ["input"]}
RESPONSES: dict[str, Any] = {
    "model": "gpt-5",
    "input": [
        {"role": "user", "content": "Say hello."},
        {"type": "custom_tool_call", "call_id": "call_1", "name": "shell", "input": "echo hi"},
        {"type": "custom_tool_call_output", "call_id": "call_1", "output": "hi"},
        {"type": "function_call", "call_id": "call_2", "name": "now", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_2", "output": "12:00"},
    ],
    "tools": [
        {"type": "custom", "name": "shell", "description": "Runs a command."},
        {"type": "function", "name": "now", "parameters": {"type": "object"}, "strict": False},
    ],
    "tool_choice": {"type": "function", "name": "now"},
}


def test_a_custom_tool_reads_as_a_free_form_tool_and_its_call_as_a_free_form_call() -> None:
    canonical = convert(copy.deepcopy(CHAT), "openai-chat", "canonical").output
    (tool,) = canonical["tools"]
    assert tool["input_schema"] == ONE_STRING
    assert tool["input_format"] == {
        "type": "grammar",
        "syntax": "lark",
        "definition": 'start: "SELECT" /[^;]+/',
    }
    call = canonical["messages"][1]["content"][0]
    assert call["free_form"] is True
    assert call["arguments"] == {"input": "SELECT count(*) FROM orders WHERE day = today()"}
    assert canonical["tool_choice"] == {"type": "tool", "name": "run_sql"}
    # The result answers the call: the document is valid (it was an orphan before).
    assert [f.code for f in validate(canonical, "Conversation") if is_error(f)] == []


@pytest.mark.parametrize(("body", "fmt"), [(CHAT, "openai-chat"), (RESPONSES, "openai-responses")])
def test_each_comes_back_as_it_came(body: dict[str, Any], fmt: str) -> None:
    result = convert(copy.deepcopy(body), fmt, fmt)
    assert result.output == body
    assert result.losses == ()


def test_openai_chat_and_responses_carry_each_other_s_free_form_tools() -> None:
    there = convert(copy.deepcopy(CHAT), "openai-chat", "openai-responses")
    assert there.losses == ()
    assert not there.fused  # outside the pass's shape: the two-step path, visibly
    assert there.output["tool_choice"] == {"type": "custom", "name": "run_sql"}
    assert [item.get("type") for item in there.output["input"]] == [
        None,
        "custom_tool_call",
        "custom_tool_call_output",
    ]
    assert problems(there.output, "openai-responses", "request") == []
    back = convert(there.output, "openai-responses", "openai-chat")
    assert {**back.output, "store": None} == {**CHAT, "store": None}


def test_each_result_is_written_as_its_call_asks() -> None:
    """Responses answers a free-form call and a function's call each its own way, and a
    choice of the function beside a free-form tool is a function's choice."""
    chat = convert(copy.deepcopy(RESPONSES), "openai-responses", "openai-chat").output
    assert chat["tool_choice"] == {"type": "function", "function": {"name": "now"}}
    back = convert(chat, "openai-chat", "openai-responses").output
    assert [item.get("type") for item in back["input"]] == [
        None,
        "custom_tool_call",
        "custom_tool_call_output",
        "function_call",
        "function_call_output",
    ]
    assert back["tool_choice"] == {"type": "function", "name": "now"}


@pytest.mark.parametrize("target", ["anthropic", "gemini", "bedrock"])
def test_a_format_without_free_form_tools_gets_a_function_of_one_string(target: str) -> None:
    result = convert(copy.deepcopy(CHAT), "openai-chat", target)
    text = json.dumps(result.output)
    assert '"input": "SELECT count(*) FROM orders WHERE day = today()"' in text
    assert json.dumps(ONE_STRING)[1:-1] in text  # the tool's schema
    assert text.count('"call_sql1"') == 2  # the call, and the result answering it
    lost = {(loss.pointer, loss.code) for loss in result.losses}
    assert ("/tools/0/input_format", "field_dropped") in lost
    assert ("/messages/1/content/0/free_form", "field_dropped") in lost
    assert problems(result.output, target, "request") == []


def test_the_call_and_its_result_stay_together_at_anthropic() -> None:
    """What went wrong before: the call was an unknown part, dropped, and its result was
    written alone, which Anthropic refuses."""
    output = convert(copy.deepcopy(CHAT), "openai-chat", "anthropic").output
    blocks = [block for message in output["messages"] for block in message["content"]]
    uses = [b["id"] for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]
    answers = [
        b["tool_use_id"] for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"
    ]
    assert uses == answers == ["call_sql1"]


def test_a_free_form_call_without_its_text_is_written_as_a_function_s() -> None:
    """A canonical free-form call must hold its text as `input`; one that does not is no
    free-form call the format can write, so it goes as a function's, its free form reported."""
    canonical = convert(copy.deepcopy(CHAT), "openai-chat", "canonical").output
    canonical["messages"][1]["content"][0]["arguments"] = {"query": "SELECT 1"}
    result = convert(canonical, "canonical", "openai-chat")
    (call,) = result.output["messages"][1]["tool_calls"]
    assert call["type"] == "function"
    assert json.loads(call["function"]["arguments"]) == {"query": "SELECT 1"}
    assert ("/messages/1/content/0/free_form", "field_dropped") in {
        (loss.pointer, loss.code) for loss in result.losses
    }


@pytest.mark.parametrize("source", ["openai-chat", "openai-responses"])
def test_an_answer_calling_a_free_form_tool_crosses_between_them(source: str) -> None:
    call = (
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-5",
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "custom",
                                "custom": {"name": "shell", "input": "echo hi"},
                            }
                        ],
                    },
                    "finish_reason": "tool_calls",
                }
            ],
        }
        if source == "openai-chat"
        else {
            "id": "resp_1",
            "object": "response",
            "created_at": 1,
            "status": "completed",
            "model": "gpt-5",
            "output": [
                {
                    "type": "custom_tool_call",
                    "call_id": "call_1",
                    "name": "shell",
                    "input": "echo hi",
                }
            ],
        }
    )
    target = "openai-responses" if source == "openai-chat" else "openai-chat"
    output = convert(call, source, target, "response").output
    text = json.dumps(output)
    assert '"custom_tool_call"' in text if target == "openai-responses" else '"custom"' in text
    assert "echo hi" in text
    assert problems(output, target, "response") == []


def test_a_streamed_free_form_call_goes_on_as_a_call_of_its_one_argument() -> None:
    """A Responses stream gives the call whole (`output_item.done`): it is streamed on as a
    call of the one argument `input`, and its free form is reported."""
    item = {
        "id": "ctc_1",
        "type": "custom_tool_call",
        "status": "completed",
        "call_id": "call_1",
        "input": "echo hi",
        "name": "shell",
    }
    response = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5"}
    chunks: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**response, "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": {**item, "input": ""}},
        {"type": "response.custom_tool_call_input.delta", "output_index": 0, "delta": "echo hi"},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {**response, "status": "completed"}},
    ]
    numbered = [{**chunk, "sequence_number": n} for n, chunk in enumerate(chunks)]
    translator = StreamTranslator("openai-responses", "anthropic")
    text = "".join(translator.feed(line) for line in framed("openai-responses", numbered))
    text += translator.close()
    assert '"type":"tool_use","id":"call_1","name":"shell"' in text
    assert '{\\"input\\": \\"echo hi\\"}' in text
    assert ("/3", "field_dropped") in {(loss.pointer, loss.code) for loss in translator.losses}
