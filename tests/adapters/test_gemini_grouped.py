"""Gemini's tools come in groups (`tools: [{functionDeclarations: […]}, {googleSearch: {}}, …]`),
read group by group (`@grouped`, generator/templating.py): every pointer names its group, every
group's member nothing reads is reported at it, and the declarations of all groups are joined in
order. The groups used to be merged first: pointers lost the group (`/tools/functionDeclarations/3`),
and a later group's member of a name an earlier group had (a second `googleSearch`) was dropped
unreported."""

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
    {"googleSearch": {}},
    {"functionDeclarations": [_declaration("c", x_note=1)], "x_group": True},
    {"googleSearch": {"x": 1}},
)


@pytest.mark.parametrize("fused", [True, False])
def test_each_groups_unread_members_are_reported_where_they_stand(fused: bool) -> None:
    result = convert(copy.deepcopy(BODY), "gemini", "openai-chat", fused=fused)
    assert [t["function"]["name"] for t in result.output["tools"]] == ["a", "b", "c"]
    dropped = [loss.pointer for loss in result.losses if loss.code == "field_dropped"]
    assert dropped == [
        "/tools/1/googleSearch",
        "/tools/2/functionDeclarations/0/x_note",
        "/tools/2/x_group",
        "/tools/3/googleSearch",  # was dropped unreported: the merge kept the first
    ]
    same(result, convert(copy.deepcopy(BODY), "gemini", "openai-chat", fused=not fused))


def test_the_groups_come_back_to_gemini_as_they_were() -> None:
    canonical = convert(copy.deepcopy(BODY), "gemini", "canonical").output
    assert [tool["name"] for tool in canonical["tools"]] == ["a", "b", "c"]
    assert convert(canonical, "canonical", "gemini").output == BODY
    assert convert(copy.deepcopy(BODY), "gemini", "gemini").output == BODY


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
