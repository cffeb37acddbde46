"""Gemini's tools come in groups (`tools: [{functionDeclarations: […]}, {googleSearch: {}}, …]`),
read group by group (`@grouped`, generator/templating.py): every pointer names its group, every
group's member nothing reads is reported at it, and the declarations of all groups are joined in
order, with the tools Gemini runs itself (search, code execution, URL context) as canonical hosted
tools where their groups stand. The groups used to be merged first: pointers lost the group
(`/tools/functionDeclarations/3`), and a later group's member of a name an earlier group had (a
second `googleSearchRetrieval`) was dropped unreported."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert
from tests.adapters.fused import same


def _declaration(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "parametersJsonSchema": {"type": "object"}, **extra}


def _body(*groups: dict[str, Any]) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": list(groups)}


BODY = _body(
    {"functionDeclarations": [_declaration("a"), _declaration("b")]},
    {"googleSearchRetrieval": {}},
    {"functionDeclarations": [_declaration("c", x_note=1)], "x_group": True},
    {"googleSearchRetrieval": {"x": 1}},
)


@pytest.mark.parametrize("fused", [True, False])
def test_each_groups_unread_members_are_reported_where_they_stand(fused: bool) -> None:
    result = convert(copy.deepcopy(BODY), "gemini", "openai-chat", fused=fused)
    assert [t["function"]["name"] for t in result.output["tools"]] == ["a", "b", "c"]
    dropped = [loss.pointer for loss in result.losses if loss.code == "field_dropped"]
    assert dropped == [
        "/tools/1/googleSearchRetrieval",
        "/tools/2/functionDeclarations/0/x_note",
        "/tools/2/x_group",
        "/tools/3/googleSearchRetrieval",  # was dropped unreported: the merge kept the first
    ]
    same(result, convert(copy.deepcopy(BODY), "gemini", "openai-chat", fused=not fused))


def test_the_groups_come_back_to_gemini_as_they_were() -> None:
    canonical = convert(copy.deepcopy(BODY), "gemini", "canonical").output
    assert [tool["name"] for tool in canonical["tools"]] == ["a", "b", "c"]
    assert convert(canonical, "canonical", "gemini").output == BODY
    assert convert(copy.deepcopy(BODY), "gemini", "gemini").output == BODY


HOSTED = _body(
    {"googleSearch": {}},
    {"functionDeclarations": [_declaration("a")], "codeExecution": {}},
    {"urlContext": {}},
    {"googleSearch": {"timeRangeFilter": {"startTime": "2026-01-01T00:00:00Z"}}},
)


def test_the_tools_gemini_runs_are_hosted_tools_where_their_groups_stand() -> None:
    result = convert(copy.deepcopy(HOSTED), "gemini", "canonical")
    assert result.output["tools"][:1] == [{"name": "web_search", "hosted": "web_search"}]
    assert [(t["name"], t.get("hosted")) for t in result.output["tools"]] == [
        ("web_search", "web_search"),
        ("a", None),
        ("code_execution", "code_execution"),
        ("web_fetch", "web_fetch"),
    ]
    assert convert(result.output, "canonical", "gemini").output == HOSTED
    # Without round-trip data: the declarations' group first, then each hosted tool's.
    bare = {k: v for k, v in result.output.items() if k != "provider_raw"}
    assert convert(bare, "canonical", "gemini").output["tools"] == [
        {"functionDeclarations": [_declaration("a")]},
        {"googleSearch": {}},
        {"codeExecution": {}},
        {"urlContext": {}},
    ]


def test_a_hosted_tools_options_and_a_second_offer_are_reported_when_crossing() -> None:
    result = convert(copy.deepcopy(HOSTED), "gemini", "anthropic")
    assert [tool.get("type") for tool in result.output["tools"]] == [
        "web_search_20250305",
        None,
        "code_execution_20250825",
        "web_fetch_20250910",
    ]
    assert [(loss.pointer, loss.code) for loss in result.losses if "tools" in loss.pointer] == [
        ("/tools/3/googleSearch", "field_dropped")  # a second search: one canonical web_search
    ]
    once = _body({"googleSearch": {"timeRangeFilter": {"startTime": "2026-01-01T00:00:00Z"}}})
    result = convert(once, "gemini", "anthropic")
    assert [(loss.pointer, loss.code) for loss in result.losses if "tools" in loss.pointer] == [
        ("/tools/0/googleSearch/timeRangeFilter", "field_dropped")
    ]


def test_a_hosted_tool_from_another_format_is_offered_as_its_group() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "news?"}],
        "tools": [
            {"type": "web_search_20250305", "name": "web_search"},
            {"name": "f", "input_schema": {"type": "object"}},
        ],
    }
    result = convert(body, "anthropic", "gemini")
    assert result.output["tools"] == [
        {"functionDeclarations": [{"name": "f", "parametersJsonSchema": {"type": "object"}}]},
        {"googleSearch": {}},
    ]
    assert [loss.pointer for loss in result.losses if "tools" in loss.pointer] == []


def test_a_hosted_tool_gemini_lacks_is_reported_at_its_own_index() -> None:
    conversation = {
        "schema_version": 1,
        "tools": [
            {"name": "web_search", "hosted": "web_search"},
            {"name": "image_generation", "hosted": "image_generation"},
            {"name": "f", "input_schema": {"type": "object"}},
        ],
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    }
    result = convert(conversation, "canonical", "gemini")
    assert result.output["tools"] == [
        {"functionDeclarations": [{"name": "f", "parametersJsonSchema": {"type": "object"}}]},
        {"googleSearch": {}},
    ]
    assert [(loss.pointer, loss.code) for loss in result.losses] == [
        ("/tools/1", "parameter_dropped")  # the search passed over, not counted out
    ]


def test_a_hosted_group_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(ConversionError) as error:
        convert(_body({"googleSearch": True}), "gemini", "canonical", validate_input=False)
    assert (error.value.code, error.value.pointer) == ("wrong_type", "/tools/0/googleSearch")


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize(
    ("group", "pointer"),
    [
        ({"functionDeclarations": [7]}, "/tools/1/functionDeclarations/0"),
        ({"functionDeclarations": {"name": "d"}}, "/tools/1/functionDeclarations"),
        ([], "/tools/1"),
    ],
)
def test_an_error_in_a_later_group_points_into_it(group: Any, pointer: str, validate: bool) -> None:
    body = _body({"functionDeclarations": [_declaration("a")]}, group)
    for fused in (True, False):
        with pytest.raises(ConversionError) as error:
            convert(
                copy.deepcopy(body), "gemini", "canonical", validate_input=validate, fused=fused
            )
        assert (error.value.code, error.value.pointer) == ("wrong_type", pointer)


# pydantic-ai's recorded Gemini traffic (tests/models/cassettes/test_openai/
# test_multiple_agent_tool_calls.yaml), which the API answered with a call: one group alone,
# not in a list, under the proto name. It was refused (`wrong_type` at /tools).
ALONE = {
    "contents": [{"parts": [{"text": "What is the capital of France?"}], "role": "user"}],
    "tools": {
        "function_declarations": [
            {
                "description": "Get the capital of a country.",
                "name": "get_capital",
                "parameters": {
                    "properties": {"country": {"type": "string"}},
                    "required": ["country"],
                    "type": "object",
                },
            }
        ]
    },
}


@pytest.mark.parametrize("fused", [True, False])
def test_one_group_alone_is_read_as_a_list_of_it(fused: bool) -> None:
    result = convert(copy.deepcopy(ALONE), "gemini", "openai-chat", fused=fused)
    assert [t["function"]["name"] for t in result.output["tools"]] == ["get_capital"]
    assert not result.fused  # outside the fused shape: the two-step way, visibly
    assert [loss.pointer for loss in result.losses] == ["/model"]  # its placeholder only


def test_one_group_alone_comes_back_alone() -> None:
    canonical = convert(copy.deepcopy(ALONE), "gemini", "canonical").output
    assert [tool["name"] for tool in canonical["tools"]] == ["get_capital"]
    assert convert(canonical, "canonical", "gemini").output == ALONE
    assert convert(copy.deepcopy(ALONE), "gemini", "gemini").output == ALONE


@pytest.mark.parametrize("validate", [True, False])
def test_an_error_in_a_group_alone_points_into_it(validate: bool) -> None:
    body = {**ALONE, "tools": {"functionDeclarations": [{"name": 5}]}}
    with pytest.raises(ConversionError) as error:
        convert(body, "gemini", "canonical", validate_input=validate)
    assert error.value.code == "wrong_type"
    assert error.value.pointer.startswith("/tools/functionDeclarations/0")
    with pytest.raises(ConversionError) as error:
        convert({**ALONE, "tools": "x"}, "gemini", "canonical", validate_input=validate)
    assert (error.value.code, error.value.pointer) == ("wrong_type", "/tools")
