"""`strict_by_schema`: a Responses function that leaves `strict` out reads as strict only when
strict mode takes its schema as written."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion import Context
from interlingua.conversion.converter import convert
from interlingua.conversion.transforms import TRANSFORMS
from interlingua.conversion.transforms.strict import strict_takes

CLOSED: dict[str, Any] = {
    "type": "object",
    "properties": {"q": {"type": "string"}},
    "required": ["q"],
    "additionalProperties": False,
}


def closed(**properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    "schema",
    [
        None,
        CLOSED,
        closed(),
        closed(where=closed(city={"type": "string"}), tags={"type": "array", "items": closed()}),
        closed(unit={"anyOf": [{"type": "string"}, {"type": "null"}]}),
        {**closed(at={"$ref": "#/$defs/place"}), "$defs": {"place": closed(x={"type": "number"})}},
        closed(maybe={"type": ["object", "null"], **closed(x={"type": "string"})}),
    ],
)
def test_schemas_strict_mode_takes(schema: Any) -> None:
    assert strict_takes(schema)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object"},  # open: additionalProperties not false
        {**CLOSED, "required": []},  # a property left optional
        {**CLOSED, "additionalProperties": True},
        {"type": "string"},  # not an object at the root
        {"anyOf": [CLOSED]},  # root without type object
        "object",  # not a schema object
        closed(where={"type": "object", "properties": {"x": {"type": "string"}}}),  # open inside
        closed(tags={"type": "array", "items": {"type": "object"}}),  # open in items
        closed(u={"anyOf": [{"type": "object"}, {"type": "null"}]}),  # open in anyOf
        {**closed(a={"$ref": "#/$defs/p"}), "$defs": {"p": {"type": "object"}}},  # open in $defs
        closed(x={"oneOf": [{"type": "string"}]}),  # a keyword strict mode refuses
        {**CLOSED, "patternProperties": {"^x": {"type": "string"}}},
        closed(x={"type": "array", "items": True}),  # a boolean schema
        {**CLOSED, "properties": []},  # properties not an object
        {**CLOSED, "required": "q"},  # required not a list
        {**CLOSED, "required": [[]]},  # a name that is not a string (was a TypeError)
        {"type": "object", "properties": {}, "required": [{}], "additionalProperties": False},
    ],
)
def test_schemas_strict_mode_refuses(schema: Any) -> None:
    assert not strict_takes(schema)


def test_a_required_list_of_other_than_names_crosses_as_a_loose_tool() -> None:
    """Regression: such a schema (the body's schema check takes any object for a tool's
    parameters) ended the conversion as `wrong_type ... TypeError`, on both paths."""
    parameters = {"type": "object", "properties": {}, "required": [[]]}
    tool = {
        "type": "function",
        "name": "f",
        "parameters": {**parameters, "additionalProperties": False},
    }
    body = {"model": "m", "input": "hi", "tools": [tool]}
    for fused in (True, False):
        (written,) = convert(body, "openai-responses", "openai-chat", fused=fused).output["tools"]
        assert written["function"] == {"name": "f", "parameters": tool["parameters"]}  # loose


def test_nesting_deeper_than_strict_mode_goes_is_refused() -> None:
    schema: dict[str, Any] = closed()
    for _ in range(70):
        schema = closed(inner=schema)
    assert not strict_takes(schema)


def test_decode_fills_a_missing_or_null_flag_and_keeps_a_given_one() -> None:
    t = TRANSFORMS["strict_by_schema"]
    ctx = Context("openai-responses")
    loose = {"parameters": {"type": "object"}}
    assert t.decode(ctx, loose, "", "strict", "parameters")[2]["strict"] is False
    assert t.decode(ctx, {"parameters": CLOSED}, "", "strict", "parameters")[2]["strict"] is True
    assert t.decode(ctx, {"strict": None}, "", "strict", "parameters")[2]["strict"] is True
    given = {"parameters": {"type": "object"}, "strict": True}
    assert t.decode(ctx, given, "", "strict", "parameters")[2] is given
    assert t.decode(ctx, "text", "", "strict", "parameters")[2] == "text"  # not a declaration
    declaration = {"name": "x"}
    assert t.encode(ctx, "", "strict", "parameters", declaration) is declaration


def _responses(*tools: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-4.1", "input": "Go.", "tools": list(tools)}


LOOSE_TOOL = {
    "type": "function",
    "name": "guess",
    "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
}


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "bedrock"])
def test_a_loose_responses_tool_never_crosses_as_strict(target: str) -> None:
    # Regression: it crossed as strict: true, which OpenAI Chat refuses for this schema.
    result = convert(_responses(LOOSE_TOOL), "openai-responses", target)
    assert "'strict'" not in repr(result.output["tools" if target != "bedrock" else "toolConfig"])


def test_a_closed_responses_tool_crosses_to_chat_as_strict() -> None:
    tool = {"type": "function", "name": "find", "parameters": CLOSED}
    result = convert(_responses(tool), "openai-responses", "openai-chat")
    assert result.output["tools"][0]["function"]["strict"] is True
    assert result.losses == ()


def test_responses_round_trip_gives_back_a_flag_left_out() -> None:
    body = _responses(LOOSE_TOOL, {"type": "function", "name": "find", "parameters": CLOSED})
    result = convert(body, "openai-responses", "openai-responses")
    assert result.output["tools"] == body["tools"]
