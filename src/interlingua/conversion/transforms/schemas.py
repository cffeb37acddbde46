"""Schemas written in the OpenAPI 3.0 subset some formats take, read as JSON Schema.

The canonical form holds JSON Schema (tool input and output schemas, structured output). A
format may also accept the schema object of OpenAPI 3.0, which differs in two ways that matter:
its `type` names may be in capitals (`OBJECT`, `STRING`), and a value that may be null says
`nullable: true` instead of listing `null` among its types. Reading lowers the type names and
turns `nullable` into a `null` type, at every level (properties, items, anyOf members); any
other keyword is kept as it is. Writing never needs this form (JSON Schema is written where the
format takes it), so it writes the schema unchanged. `schema_member` reads a schema from
whichever of the two fields an object has.

Two transforms write a tool's schema where a format asks more of it than the canonical form
does, without changing what it means. `arguments_schema`: a canonical tool without an input
schema takes no arguments, and a format that requires a schema gets the empty object schema.
`object_schema`: a schema without `type` gets `"type": "object"`, for a format that takes only
a schema of an object (what an arguments schema or a structured result describes anyway).
Neither is a loss, so neither is reported; both read the wire value as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms.base import ABSENT, Transform, read_as_is

_SCHEMA_MAPS = ("properties", "$defs", "definitions")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_VALUES = ("items", "additionalProperties", "not")


def json_schema(schema: Any) -> Any:
    """``schema`` (an OpenAPI 3.0 schema object) as JSON Schema."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            out[key] = value.lower()
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {k: json_schema(v) for k, v in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [json_schema(v) for v in value]
        elif key in _SCHEMA_VALUES:
            out[key] = json_schema(value)
        elif key != "nullable":
            out[key] = value
    if schema.get("nullable") is True:
        kind = out.get("type")
        if isinstance(kind, str) and kind != "null":
            out["type"] = [kind, "null"]
        elif kind is None:
            out["nullable"] = True  # nothing to add null to: kept as it came
    elif "nullable" in schema:
        out["nullable"] = schema["nullable"]
    return out


def _encode(ctx: Context, at: str, schema: Any) -> Any:
    return schema


def _decode(ctx: Context, wire: Any, at: str) -> Any:
    if not isinstance(wire, dict):
        raise ConversionError("wrong_type", at, "a schema is an object")
    return json_schema(wire)


OPENAPI_SCHEMA = Transform(
    "openapi_schema",
    1,
    _encode,
    _decode,
    "A schema in the OpenAPI 3.0 subset (type names in capitals, `nullable`), read as JSON "
    "Schema: type names lowered, `nullable: true` as a `null` type.",
)


def _member_encode(ctx: Context, at: str, json_key: Any, openapi_key: Any, schema: Any) -> Any:
    return ABSENT if schema is ABSENT else {json_key: schema}


def _member_decode(
    ctx: Context, wire: Any, at: str, json_key: Any, openapi_key: Any
) -> tuple[Any, ...]:
    if type(wire) is not dict:
        raise ConversionError("wrong_type", at, "expected an object")
    if json_key in wire:
        value = wire[json_key]
        if not isinstance(value, dict):
            raise ConversionError("wrong_type", f"{at}/{json_key}", "a schema is an object")
        return (None, None, value)
    if openapi_key in wire:
        return (None, None, _decode(ctx, wire[openapi_key], f"{at}/{openapi_key}"))
    return (None, None, ABSENT)


SCHEMA_MEMBER = Transform(
    "schema_member",
    3,
    _member_encode,
    _member_decode,
    'A schema as a member of the object around it (`{"@schema_member": [<JSON Schema key>, '
    "<OpenAPI key>, $schema]}`): written as JSON Schema under the first key; read from either "
    "key (the OpenAPI subset as JSON Schema, see `openapi_schema`). With neither, there is no "
    "schema (a function without parameters takes none).",
    literals=True,
)


def no_arguments() -> dict[str, Any]:
    """The schema of a tool that takes no arguments, where a format requires one (a new
    object each call: outputs never share objects)."""
    return {"type": "object", "properties": {}}


def object_schema(schema: Any) -> Any:
    """``schema`` with `"type": "object"` first when it has no `type` (anything else, and a
    schema that names its type, as it is)."""
    if type(schema) is dict and "type" not in schema:
        return {"type": "object", **schema}
    return schema


def _arguments_encode(ctx: Context, at: str, schema: Any) -> Any:
    return no_arguments() if schema is ABSENT else schema


ARGUMENTS_SCHEMA = Transform(
    "arguments_schema",
    1,
    _arguments_encode,
    read_as_is,
    "A tool's arguments schema where the format requires one (Anthropic `input_schema`, "
    "Bedrock `inputSchema.json`, MCP `inputSchema`, UMF `parameters`): a tool without one takes "
    'no arguments and is written `{"type": "object", "properties": {}}`, the same meaning, so '
    "nothing is reported. Read as it is (a wire value without it is not this variant's).",
    fills=True,
)


def _object_encode(ctx: Context, at: str, schema: Any) -> Any:
    return object_schema(schema)


OBJECT_SCHEMA = Transform(
    "object_schema",
    1,
    _object_encode,
    read_as_is,
    "A schema where the format takes only a schema of an object (Anthropic `input_schema`, "
    "Bedrock `inputSchema.json`, MCP `inputSchema` and `outputSchema`): one without `type` gets "
    '`"type": "object"` first (the arguments and a structured result are objects anyway, so '
    "nothing is reported); no schema stays none. Read as it is.",
)

SCHEMA_TRANSFORMS: Mapping[str, Transform] = {
    t.name: t for t in (OPENAPI_SCHEMA, SCHEMA_MEMBER, ARGUMENTS_SCHEMA, OBJECT_SCHEMA)
}
