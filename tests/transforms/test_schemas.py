"""`openapi_schema` and `schema_member`: OpenAPI-subset schemas read as JSON Schema."""

from __future__ import annotations

import pytest

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import ABSENT, TRANSFORMS
from interlingua.conversion.transforms.schemas import json_schema


@pytest.fixture
def ctx() -> Context:
    return Context("test")


def test_type_names_are_lowered_at_every_level() -> None:
    schema = {
        "type": "OBJECT",
        "properties": {
            "city": {"type": "STRING", "description": "Name"},
            "days": {"type": "ARRAY", "items": {"type": "INTEGER", "format": "int32"}},
            "unit": {"anyOf": [{"type": "STRING", "enum": ["C", "F"]}, {"type": "NULL"}]},
        },
        "required": ["city"],
        "propertyOrdering": ["city", "days"],
    }
    assert json_schema(schema) == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "Name"},
            "days": {"type": "array", "items": {"type": "integer", "format": "int32"}},
            "unit": {"anyOf": [{"type": "string", "enum": ["C", "F"]}, {"type": "null"}]},
        },
        "required": ["city"],
        "propertyOrdering": ["city", "days"],
    }


def test_schema_values_that_are_not_objects_stay_as_they_are() -> None:
    assert json_schema({"type": "ARRAY", "items": True}) == {"type": "array", "items": True}
    assert json_schema(True) is True


def test_nullable_becomes_a_null_type() -> None:
    assert json_schema({"type": "STRING", "nullable": True}) == {"type": ["string", "null"]}
    assert json_schema({"type": "STRING", "nullable": False}) == {
        "type": "string",
        "nullable": False,
    }
    assert json_schema({"nullable": True, "description": "x"}) == {
        "description": "x",
        "nullable": True,
    }
    # a property literally named "type" is a property, not a keyword
    assert json_schema({"properties": {"type": {"type": "STRING"}}}) == {
        "properties": {"type": {"type": "string"}}
    }


def test_openapi_schema_each_way(ctx: Context) -> None:
    t = TRANSFORMS["openapi_schema"]
    assert t.decode(ctx, {"type": "OBJECT"}, "/p") == {"type": "object"}
    assert t.encode(ctx, "/s", {"type": "object"}) == {"type": "object"}
    with pytest.raises(ConversionError) as err:
        t.decode(ctx, "OBJECT", "/p")
    assert (err.value.code, err.value.pointer) == ("wrong_type", "/p")


def test_schema_member_reads_either_key(ctx: Context) -> None:
    t = TRANSFORMS["schema_member"]
    assert t.literals
    keys = ("parametersJsonSchema", "parameters", "object")
    assert t.encode(ctx, "/t", *keys, {"type": "object"}) == {
        "parametersJsonSchema": {"type": "object"}
    }
    assert t.encode(ctx, "/t", *keys, ABSENT) is ABSENT
    json_form = {"name": "f", "parametersJsonSchema": {"type": "object", "properties": {}}}
    assert t.decode(ctx, json_form, "/t", *keys)[3] == {"type": "object", "properties": {}}
    openapi = {"name": "f", "parameters": {"type": "OBJECT"}}
    assert t.decode(ctx, openapi, "/t", *keys)[3] == {"type": "object"}
    assert t.decode(ctx, {"name": "f"}, "/t", *keys) == (None, None, None, {"type": "object"})
    assert t.decode(ctx, {"name": "f"}, "/t", "responseJsonSchema", "response", "none")[3] is ABSENT


def test_schema_member_refuses_what_is_not_a_schema(ctx: Context) -> None:
    t = TRANSFORMS["schema_member"]
    for wire, at in (([], "/t"), ({"parametersJsonSchema": 1}, "/t/parametersJsonSchema")):
        with pytest.raises(ConversionError) as err:
            t.decode(ctx, wire, "/t", "parametersJsonSchema", "parameters", "object")
        assert (err.value.code, err.value.pointer) == ("wrong_type", at)
