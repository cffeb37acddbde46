"""A hosted tool offered in a request: web search, web fetch, code execution. They were read as
having no canonical home, so a Responses request offering web search crossed to Anthropic,
which has web search, without it (reported). A canonical tool now names its kind in `hosted`;
Anthropic and Responses carry the kinds both have, and a format without the tool reports it,
never writing it as a function."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import check_wire, convert
from tests.adapters.fused import takes_two_steps

FUNCTION = {"type": "function", "name": "f", "parameters": {"type": "object"}}
RESPONSES: dict[str, Any] = {
    "model": "gpt-4.1",
    "input": "What happened today?",
    "tools": [{"type": "web_search"}, {"type": "code_interpreter", "container": {"type": "auto"}}],
}
ANTHROPIC: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [{"role": "user", "content": "What happened today?"}],
    "tools": [
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
        {"type": "web_fetch_20250910", "name": "web_fetch"},
        {"type": "code_execution_20260120", "name": "code_execution"},
    ],
}


def _pointers(result: Any) -> set[tuple[str, str]]:
    return {(loss.pointer, loss.code) for loss in result.losses}


def test_a_hosted_tool_is_a_tool_naming_its_kind() -> None:
    tools = convert(copy.deepcopy(RESPONSES), "openai-responses", "canonical").output["tools"]
    assert tools == [
        {"name": "web_search", "hosted": "web_search"},
        {"name": "code_execution", "hosted": "code_execution"},
    ]


def test_responses_web_search_and_code_interpreter_cross_to_anthropic_and_back() -> None:
    result = convert(copy.deepcopy(RESPONSES), "openai-responses", "anthropic")
    check_wire(result.output, "anthropic", "request", strict=True)
    assert result.output["tools"] == [
        {"type": "web_search_20250305", "name": "web_search"},
        {"type": "code_execution_20250825", "name": "code_execution"},
    ]
    assert not [x for x in result.losses if x.pointer.startswith("/tools")]
    back = convert(result.output, "anthropic", "openai-responses").output
    assert back["tools"] == RESPONSES["tools"]


def test_anthropic_options_are_round_trip_data_reported_elsewhere() -> None:
    assert convert(copy.deepcopy(ANTHROPIC), "anthropic", "anthropic").output == ANTHROPIC
    result = convert(copy.deepcopy(ANTHROPIC), "anthropic", "openai-responses")
    check_wire(result.output, "openai-responses", "request", strict=True)
    assert result.output["tools"] == [
        {"type": "web_search"},
        {"type": "code_interpreter", "container": {"type": "auto"}},
    ]
    assert {
        ("/tools/0/max_uses", "field_dropped"),  # read: an option of Anthropic's version
        ("/tools/1", "parameter_dropped"),  # written: Responses has no web fetch tool
    } <= _pointers(result)


@pytest.mark.parametrize("target", ["openai-chat", "bedrock", "ollama", "mcp"])
def test_a_format_without_the_tool_reports_it_and_never_writes_a_function(target: str) -> None:
    body = {**copy.deepcopy(RESPONSES), "tools": [{"type": "web_search"}, FUNCTION]}
    result = convert(body, "openai-responses", target)
    check_wire(result.output, target, "request", strict=True)
    assert ("/tools/0", "parameter_dropped") in _pointers(result)
    assert "web_search" not in str(result.output)
    assert "f" in str(result.output)  # the function still goes


def test_gemini_offers_search_and_code_execution_as_groups_of_their_own() -> None:
    result = convert(copy.deepcopy(RESPONSES), "openai-responses", "gemini")
    check_wire(result.output, "gemini", "request", strict=True)
    assert result.output["tools"] == [{"googleSearch": {}}, {"codeExecution": {}}]
    assert not [x for x in result.losses if x.pointer.startswith("/tools")]
    back = convert(result.output, "gemini", "openai-responses").output
    assert back["tools"] == RESPONSES["tools"]


def test_a_hosted_kind_no_format_has_goes_nowhere() -> None:
    document = without_raw(
        convert(copy.deepcopy(RESPONSES), "openai-responses", "canonical").output
    )
    document["tools"] = [{"name": "image_generation", "hosted": "image_generation"}]
    for target in ("anthropic", "openai-responses", "openai-chat"):
        result = convert(copy.deepcopy(document), "canonical", target)
        assert "tools" not in result.output
        assert ("/tools/0", "parameter_dropped") in _pointers(result)


def test_a_fused_pass_leaves_a_hosted_tool_to_the_two_step_path(
    caplog: pytest.LogCaptureFixture,
) -> None:
    why = "tools: a hosted tool (read by the two-step path)"
    takes_two_steps(copy.deepcopy(ANTHROPIC), why, "anthropic", "openai-chat", caplog)
    body = {**copy.deepcopy(RESPONSES), "tools": [{"type": "web_search"}, FUNCTION]}
    takes_two_steps(body, why, "openai-responses", "openai-chat", caplog)


def test_a_choice_of_a_hosted_tool_is_never_a_function_choice() -> None:
    """Anthropic forces its web search by name. Written as a function's name elsewhere, the
    choice named no function the body declares (Responses, Gemini's allowed names): it is left
    out and reported where the hosted tool goes out without a name."""
    body = {
        **copy.deepcopy(ANTHROPIC),
        "tools": [ANTHROPIC["tools"][0], {"name": "f", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "tool", "name": "web_search"},
    }
    for target in ("openai-responses", "gemini", "openai-chat", "bedrock"):
        result = convert(copy.deepcopy(body), "anthropic", target)
        check_wire(result.output, target, "request", strict=True)
        assert "web_search" not in str(result.output.get("tool_choice"))
        assert "allowedFunctionNames" not in str(result.output)
        assert ("/tool_choice", "parameter_dropped") in _pointers(result)
    # A function named so is still chosen.
    named = {**body, "tools": body["tools"][1:], "tool_choice": {"type": "tool", "name": "f"}}
    result = convert(named, "anthropic", "openai-responses")
    assert result.output["tool_choice"] == {"type": "function", "name": "f"}


def test_responses_web_search_choice_is_a_choice_of_the_hosted_search() -> None:
    for kind in ("web_search", "web_search_preview"):
        body = {
            **copy.deepcopy(RESPONSES),
            "tools": [{"type": kind}],
            "tool_choice": {"type": kind},
        }
        canonical = convert(copy.deepcopy(body), "openai-responses", "canonical").output
        assert canonical["tool_choice"] == {"type": "tool", "name": "web_search"}
        assert convert(canonical, "canonical", "openai-responses").output == body
        result = convert(copy.deepcopy(body), "openai-responses", "anthropic")
        assert result.output["tool_choice"] == {"type": "tool", "name": "web_search"}
        assert not [x for x in result.losses if "tool" in x.pointer]
