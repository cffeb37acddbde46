"""Regression tests for losses the fuzz campaign found unreported (issue 22): each conversion
either carries the data back or names it in a loss."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert
from interlingua.generated.adapters import ADAPTERS


def _document(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "model": "m",
        "parameters": {"max_output_tokens": 16},
        "messages": messages,
    }


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


CALL = {
    "role": "assistant",
    "content": [{"type": "tool_call", "id": "call_1", "name": "f", "arguments": {}}],
}


def _result(*content: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "tool",
        "content": [{"type": "tool_result", "tool_call_id": "call_1", "content": list(content)}],
    }


def _losses(document: Any, fmt: str) -> set[tuple[str, str]]:
    return {(loss.pointer, loss.code) for loss in convert(document, "canonical", fmt).losses}


@pytest.mark.parametrize("fmt", ["cmf", "gemini", "otel"])
def test_a_cache_hint_inside_a_tool_result_is_reported(fmt: str) -> None:
    hinted = {"type": "text", "text": "r", "cache_hint": {"type": "ephemeral"}}
    document = _document([_user("a"), CALL, _result(hinted), _user("b")])
    assert ("/messages/2/content/0/content/0/cache_hint", "field_dropped") in _losses(document, fmt)


@pytest.mark.parametrize("fmt", ["anthropic", "bedrock", "gemini", "mcp"])
def test_text_in_a_tool_message_is_reported_as_the_users(fmt: str) -> None:
    tool_text = {"role": "tool", "content": [{"type": "text", "text": "note"}]}
    document = _document(
        [_user("a"), CALL, _result({"type": "text", "text": "r"}), tool_text, _user("b")]
    )
    assert ("/messages/3/content/0", "role_changed") in _losses(document, fmt)
    back = convert(convert(document, "canonical", fmt).output, fmt, "canonical").output
    assert all(
        m["role"] != "tool" or m["content"][0]["type"] == "tool_result" for m in back["messages"]
    )


def test_an_image_whose_media_type_tells_another_kind_is_reported() -> None:
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "application/octet-stream", "data": "AAAA"},
    }
    document = _document([{"role": "user", "content": [{"type": "text", "text": "see"}, image]}])
    out = convert(document, "canonical", "gemini")
    assert ("/messages/0/content/1", "field_dropped") in {(x.pointer, x.code) for x in out.losses}
    back = convert(out.output, "gemini", "canonical").output
    assert back["messages"][0]["content"][1]["type"] == "document"  # what the loss announced


EMPTY_SYSTEM = _document([{"role": "system", "content": []}, _user("b")])


@pytest.mark.parametrize(
    "fmt", ["anthropic", "bedrock", "gemini", "mcp", "openai-responses", "otel"]
)
def test_an_empty_system_prompt_that_goes_nowhere_is_reported(fmt: str) -> None:
    assert ("/messages/0", "message_dropped") in _losses(EMPTY_SYSTEM, fmt)
    assert len(convert(EMPTY_SYSTEM, "canonical", fmt).output.get("messages", [1])) <= 1


@pytest.mark.parametrize("fmt", ["chatml", "ollama", "umf", "openai-chat"])
def test_an_empty_system_prompt_written_as_an_empty_string_is_reported(fmt: str) -> None:
    assert ("/messages/0/content", "placeholder_inserted") in _losses(EMPTY_SYSTEM, fmt)


def test_an_empty_system_prompt_read_from_the_format_comes_back_without_a_loss() -> None:
    body = {
        "model": "m",
        "max_tokens": 5,
        "system": [],
        "messages": [{"role": "user", "content": "a"}],
    }
    canonical = convert(body, "anthropic", "canonical").output
    again = convert(canonical, "canonical", "anthropic")
    assert (again.output, again.losses) == (body, ())


@pytest.mark.parametrize("fmt", sorted(ADAPTERS))
def test_an_empty_system_prompt_changes_nothing_unreported(fmt: str) -> None:
    out = convert(EMPTY_SYSTEM, "canonical", fmt)
    back = without_raw(convert(out.output, fmt, "canonical").output)
    pointers = {loss.pointer for loss in out.losses}
    if back["messages"] != EMPTY_SYSTEM["messages"]:
        assert pointers & {"/messages/0", "/messages/0/content"}


@pytest.mark.parametrize("fmt", ["openai-chat", "ollama", "chatml", "umf"])
def test_a_tool_message_with_no_result_that_goes_nowhere_is_reported(fmt: str) -> None:
    tool_text = {"role": "tool", "content": [{"type": "text", "text": "note"}]}
    document = _document(
        [_user("a"), CALL, _result({"type": "text", "text": "r"}), tool_text, _user("b")]
    )
    losses = _losses(document, fmt)
    assert ("/messages/3", "message_dropped") in losses
    # The text itself is carried to the user turn after the results where the target has one
    # (the loss rule, issue 14), and reported dropped where it has none.
    assert {("/messages/3/content/0", "moved"), ("/messages/3/content/0", "part_dropped")} & losses


def test_merging_many_turns_into_one_leaves_the_input_alone() -> None:

    results = [
        {
            "role": "tool",
            "content": [
                {
                    "type": "tool_result",
                    "tool_call_id": f"call_{n}",
                    "content": [{"type": "text", "text": f"r{n}"}],
                }
            ],
        }
        for n in range(5)
    ]
    calls = {
        "role": "assistant",
        "content": [
            {"type": "tool_call", "id": f"call_{n}", "name": "f", "arguments": {}} for n in range(5)
        ],
    }
    document = _document([_user("a"), calls, *results, _user("b"), _user("c")])
    before = copy.deepcopy(document)
    out = convert(document, "canonical", "anthropic").output
    assert document == before
    merged = out["messages"][2]["content"]
    assert [b.get("tool_use_id") or b.get("text") for b in merged] == [
        *(f"call_{n}" for n in range(5)),
        "b",
        "c",
    ]


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "bedrock"])
def test_a_function_declarations_unread_members_are_reported(target: str, fused: bool) -> None:
    # A member of a `@merge` beside a schema member (`@schema_member`) was read as the whole
    # object, so none reported the declaration's other keys: an unknown key crossed as
    # nothing. (A snake_case `parameters_json_schema`, which recorded google-genai traffic
    # sends, is the schema's own field in its other spelling: read, tests/adapters/
    # test_gemini_spellings.py.)
    body = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [
            {
                "functionDeclarations": [
                    {"name": "f", "parametersJsonSchema": {"type": "object"}, "x_note": 1}
                ]
            }
        ],
    }
    result = convert(copy.deepcopy(body), "gemini", target, fused=fused)
    dropped = {(loss.pointer.rsplit("/", 1)[1], loss.code) for loss in result.losses}
    assert ("x_note", "field_dropped") in dropped
    # Back to its own format, round-trip data keeps them.
    again = convert(copy.deepcopy(body), "gemini", "gemini", fused=fused)
    assert again.output["tools"] == body["tools"]
    assert not again.losses


GEMINI_TURN = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
CHAT_TURN = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(
    ("source", "body", "target", "pointers"),
    [
        # No variant of the codec read these, so they went nowhere, unreported.
        (
            "gemini",
            {**GEMINI_TURN, "generationConfig": {"responseJsonSchema": {"type": "object"}}},
            "openai-chat",
            ["/generationConfig/responseJsonSchema"],
        ),
        (
            "gemini",
            {**GEMINI_TURN, "generationConfig": {"responseMimeType": "text/x.enum"}},
            "anthropic",
            ["/generationConfig/responseMimeType"],
        ),
        (
            "gemini",
            {**GEMINI_TURN, "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}}},
            "openai-chat",
            ["/toolConfig/functionCallingConfig"],
        ),
        (
            "openai-chat",
            {
                **CHAT_TURN,
                "tool_choice": {
                    "type": "allowed_tools",
                    "allowed_tools": {
                        "mode": "auto",
                        "tools": [{"type": "function", "function": {"name": "f"}}],
                    },
                },
            },
            "anthropic",
            ["/tool_choice"],
        ),
    ],
)
@pytest.mark.parametrize("fused", [True, False])
def test_a_value_no_codec_variant_reads_is_reported(
    source: str, body: dict[str, Any], target: str, pointers: list[str], fused: bool
) -> None:
    result = convert(copy.deepcopy(body), source, target, fused=fused)
    dropped = [loss.pointer for loss in result.losses if loss.code == "field_dropped"]
    assert dropped == pointers
    # Back to its own format, round-trip data keeps the value, and nothing is reported.
    again = convert(copy.deepcopy(body), source, source, fused=fused)
    assert not [loss for loss in again.losses if loss.code == "field_dropped"]
    assert all(again.output[key] == body[key] for key in body if key not in ("contents",))


def test_a_reasoning_summary_paragraphs_other_fields_are_reported() -> None:
    """A Responses reasoning summary paragraph with a field besides its tag and text, taken to
    a format that carries the reasoning (cmf) and to one that cannot replay it: each reports
    the field where it was, before joining the paragraphs (it was dropped unreported)."""
    body = {
        "model": "o3",
        "input": [
            {"role": "user", "content": "hi"},
            {
                "type": "reasoning",
                "summary": [
                    {"type": "summary_text", "text": "a", "annotation": {"source": "s"}},
                    {"type": "summary_text", "text": "b"},
                ],
            },
            {"role": "assistant", "content": "ok"},
        ],
    }
    for target in ("cmf", "openai-chat"):
        result = convert(copy.deepcopy(body), source="openai-responses", target=target)
        codes = [(loss.pointer, loss.code) for loss in result.losses]
        assert codes[:2] == [
            ("/input/1/summary/0/annotation", "field_dropped"),
            ("/input/1/summary", "parts_merged"),
        ], target
    kept = convert(copy.deepcopy(body), source="openai-responses", target="canonical").output
    back = convert(kept, source="canonical", target="openai-responses")
    assert back.output["input"][1] == body["input"][1]  # round-trip data keeps the field
    assert back.losses == ()


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("setting", ["adaptive", "disabled"])
def test_another_thinking_setting_than_a_budget_is_reported(fused: bool, setting: str) -> None:
    """Regression: Anthropic's `thinking: {type: adaptive}` (the Claude Agent SDK sends it)
    crossed to every format with no report: the envelope's constant `type: enabled` was never
    checked, so another value there read as nothing. Both paths now report it."""
    body = {
        "model": "claude-opus-4-6",
        "max_tokens": 100,
        "thinking": {"type": setting},
        "messages": [{"role": "user", "content": "hi"}],
    }
    result = convert(copy.deepcopy(body), "anthropic", "openai-chat", fused=fused)
    assert result.fused is fused
    assert [(loss.pointer, loss.code) for loss in result.losses] == [
        ("/thinking/type", "parameter_dropped")
    ]
    assert repr(setting) in result.losses[0].reason
    assert convert(copy.deepcopy(body), "anthropic", "anthropic").output == body


def test_a_responses_log_probabilities_are_reported_when_crossing() -> None:
    """Regression: OpenAI Chat's `choices[0].logprobs` was a constant (null) of the response
    template, never checked: token log probabilities crossed to other formats unreported."""
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hi."},
                "logprobs": {"content": [{"token": "Hi", "logprob": -0.1, "bytes": None}]},
                "finish_reason": "stop",
            }
        ],
    }
    result = convert(copy.deepcopy(response), "openai-chat", "anthropic", kind="response")
    assert ("/choices/0/logprobs", "parameter_dropped") in [
        (loss.pointer, loss.code) for loss in result.losses
    ]
    assert convert(
        copy.deepcopy(response), "openai-chat", "openai-chat", kind="response"
    ).output == (response)


def test_a_stop_reason_the_table_does_not_know_is_reported_when_read() -> None:
    """Regression: a whole response's unknown finish reason read as `other` with no report (a
    stream's was reported), so a target that has an `other` of its own (Gemini's `OTHER`)
    carried it on unreported. Its own format still gets it back."""
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "Hi."},
                "finish_reason": "weird",
            }
        ],
    }
    result = convert(copy.deepcopy(response), "openai-chat", "gemini", kind="response")
    assert result.output["candidates"][0]["finishReason"] == "OTHER"
    assert ("/choices/0/finish_reason", "stop_reason_approximated") in [
        (loss.pointer, loss.code) for loss in result.losses
    ]
    back = convert(copy.deepcopy(response), "openai-chat", "openai-chat", kind="response")
    assert back.output == response
    assert not back.losses
