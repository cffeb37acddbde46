"""`openapi_schema` and `schema_member`: OpenAPI-subset schemas read as JSON Schema."""

from __future__ import annotations

import pytest

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import ABSENT, TRANSFORMS
from interlingua.conversion.transforms.schemas import json_schema, plain_object


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
    keys = ("parametersJsonSchema", "parameters")
    assert t.encode(ctx, "/t", *keys, {"type": "object"}) == {
        "parametersJsonSchema": {"type": "object"}
    }
    assert t.encode(ctx, "/t", *keys, ABSENT) is ABSENT
    json_form = {"name": "f", "parametersJsonSchema": {"type": "object", "properties": {}}}
    assert t.decode(ctx, json_form, "/t", *keys)[2] == {"type": "object", "properties": {}}
    openapi = {"name": "f", "parameters": {"type": "OBJECT"}}
    assert t.decode(ctx, openapi, "/t", *keys)[2] == {"type": "object"}


def test_schema_member_reads_no_schema_as_none(ctx: Context) -> None:
    """Regression: a Gemini function declared without parameters read as `{"type": "object"}`,
    so it did not go back as it came; it now reads as no schema (a tool without arguments)."""
    t = TRANSFORMS["schema_member"]
    assert t.decode(ctx, {"name": "f"}, "/t", "parametersJsonSchema", "parameters") == (
        None,
        None,
        ABSENT,
    )


def test_schema_member_refuses_what_is_not_a_schema(ctx: Context) -> None:
    t = TRANSFORMS["schema_member"]
    for wire, at in (([], "/t"), ({"parametersJsonSchema": 1}, "/t/parametersJsonSchema")):
        with pytest.raises(ConversionError) as err:
            t.decode(ctx, wire, "/t", "parametersJsonSchema", "parameters")
        assert (err.value.code, err.value.pointer) == ("wrong_type", at)


def test_arguments_schema_writes_no_schema_as_the_closed_empty_object_schema(
    ctx: Context,
) -> None:
    """Closed: Anthropic's and Bedrock's strict modes refuse an object schema that does not
    say `additionalProperties: false` (regression: a strict function without parameters went
    to Anthropic with the open one)."""
    t = TRANSFORMS["arguments_schema"]
    written = t.encode(ctx, "/tools/0/input_schema", ABSENT)
    assert written == {"type": "object", "properties": {}, "additionalProperties": False}
    assert t.encode(ctx, "/tools/1/input_schema", ABSENT) is not written  # never shared
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    assert t.encode(ctx, "/t", schema) is schema
    assert t.encode(ctx, "/t", {}) == {}  # a schema is written as it is
    assert t.decode(ctx, {}, "/t") == {}  # read as it is
    assert ctx.losses == []  # the same meaning: nothing reported


def test_object_schema_gives_a_schema_without_type_the_object_type(ctx: Context) -> None:
    t = TRANSFORMS["object_schema"]
    assert t.encode(ctx, "/t", {}) == {"type": "object"}
    described = {"description": "any", "properties": {"q": {}}}
    assert t.encode(ctx, "/t", described) == {"type": "object", **described}
    assert list(t.encode(ctx, "/t", described)) == ["type", "description", "properties"]
    typed = {"type": "object", "required": []}
    assert t.encode(ctx, "/t", typed) is typed
    assert t.encode(ctx, "/t", ABSENT) is ABSENT  # no schema stays none
    assert t.decode(ctx, {"properties": {}}, "/t") == {"properties": {}}
    assert ctx.losses == []


@pytest.mark.parametrize("name", ["object_schema", "flat_object_schema"])
def test_a_schema_of_another_type_is_written_as_the_open_object_schema(
    ctx: Context, name: str
) -> None:
    # OpenAI Chat reads `parameters: {"type": "string"}`; Anthropic, Bedrock and MCP take
    # only a schema of an object: what is written is one, and the change is reported.
    t = TRANSFORMS[name]
    schema = {"type": "string", "description": "a city", "minLength": 1}
    assert t.encode(ctx, "/tools/0/input_schema", schema) == {
        "type": "object",
        "description": "a city",
    }
    assert t.encode(ctx, "/tools/1/input_schema", {"type": ["string", "null"]}) == {
        "type": "object"
    }
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/tools/0/input_schema", "schema_rewritten"),
        ("/tools/1/input_schema", "schema_rewritten"),
    ]
    assert "'string'" in ctx.losses[0].reason


@pytest.mark.parametrize("name", ["object_schema", "flat_object_schema"])
def test_a_type_listing_object_among_others_is_narrowed_to_it(ctx: Context, name: str) -> None:
    t = TRANSFORMS[name]
    schema = {"type": ["object", "null"], "properties": {"q": {"type": "string"}}}
    written = t.encode(ctx, "/t", schema)
    assert written == {"type": "object", "properties": {"q": {"type": "string"}}}
    assert schema["type"] == ["object", "null"]  # the input is never changed
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/t", "schema_rewritten")]


def test_only_the_flat_variant_folds_combinators_at_the_top(ctx: Context) -> None:
    schema = {
        "description": "find by one key",
        "properties": {"limit": {"type": "integer"}},
        "required": ["limit"],
        "anyOf": [
            {"properties": {"id": {"type": "string"}, "limit": {}}, "required": ["id", "x"]},
            {"properties": {"name": {"type": "string"}}, "required": ["x"]},
        ],
    }
    assert TRANSFORMS["object_schema"].encode(ctx, "/t", schema) == {"type": "object", **schema}
    assert ctx.losses == []  # MCP takes them
    written = TRANSFORMS["flat_object_schema"].encode(ctx, "/t", schema)
    assert written == {
        "type": "object",
        "description": "find by one key",
        # a property the object names keeps its own schema
        "properties": {
            "limit": {"type": "integer"},
            "id": {"type": "string"},
            "name": {"type": "string"},
        },
        "required": ["limit", "x"],  # what every member of an anyOf requires
    }
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/t", "schema_rewritten")]
    assert "anyOf" in ctx.losses[0].reason


def test_all_of_requires_what_any_member_requires(ctx: Context) -> None:
    t = TRANSFORMS["flat_object_schema"]
    schema = {
        "type": "object",
        "allOf": [
            {"properties": {"a": {}}, "required": ["a"]},
            {"properties": {"b": {}}, "required": ["b", "a"]},
            {"$ref": "#/$defs/c"},
        ],
        "oneOf": "not a list",
    }
    assert t.encode(ctx, "/t", schema) == {
        "type": "object",
        "properties": {"a": {}, "b": {}},
        "required": ["a", "b"],
    }
    assert "oneOf and allOf" in ctx.losses[0].reason
    assert t.encode(ctx, "/t", {"oneOf": []}) == {"type": "object"}  # nothing to fold


@pytest.mark.parametrize("flat", [False, True])
def test_plain_object_is_what_needs_no_rewriting(flat: bool) -> None:
    assert plain_object({}, flat=flat) and plain_object({"type": "object"}, flat=flat)
    assert plain_object(None, flat=flat)
    assert not plain_object({"type": ["object", "null"]}, flat=flat)
    assert not plain_object({"type": "string"}, flat=flat)
    assert plain_object({"type": "object", "allOf": []}, flat=flat) is not flat
