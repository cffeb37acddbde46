"""Schemas written in the OpenAPI 3.0 subset some formats take, read as JSON Schema.

The canonical form holds JSON Schema (tool input and output schemas, structured output). A
format may also accept the schema object of OpenAPI 3.0, which differs in two ways that matter:
its `type` names may be in capitals (`OBJECT`, `STRING`), and a value that may be null says
`nullable: true` instead of listing `null` among its types. Reading lowers the type names and
turns `nullable` into a `null` type, at every level (properties, items, anyOf members); any
other keyword is kept as it is. Writing never needs this form (JSON Schema is written where the
format takes it), so it writes the schema unchanged. `schema_member` reads a schema from
whichever of the two fields an object has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms.base import ABSENT, Transform

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


def _member_encode(  # noqa: PLR0917 (a transform takes its arguments in order)
    ctx: Context, at: str, json_key: Any, openapi_key: Any, when_absent: Any, schema: Any
) -> Any:
    return ABSENT if schema is ABSENT else {json_key: schema}


def _member_decode(  # noqa: PLR0917 (a transform takes its arguments in order)
    ctx: Context, wire: Any, at: str, json_key: Any, openapi_key: Any, when_absent: Any
) -> tuple[Any, ...]:
    if type(wire) is not dict:
        raise ConversionError("wrong_type", at, "expected an object")
    keys = (None, None, None)
    if json_key in wire:
        value = wire[json_key]
        if not isinstance(value, dict):
            raise ConversionError("wrong_type", f"{at}/{json_key}", "a schema is an object")
        return (*keys, value)
    if openapi_key in wire:
        return (*keys, _decode(ctx, wire[openapi_key], f"{at}/{openapi_key}"))
    return (*keys, {"type": "object"} if when_absent == "object" else ABSENT)


SCHEMA_MEMBER = Transform(
    "schema_member",
    4,
    _member_encode,
    _member_decode,
    'A schema as a member of the object around it (`{"@schema_member": [<JSON Schema key>, '
    "<OpenAPI key>, object | none, $schema]}`): written as JSON Schema under the first key; "
    "read from either key (the OpenAPI subset as JSON Schema, see `openapi_schema`). With "
    "neither, `object` reads as a schema of an object with nothing in it (a function without "
    "parameters), `none` as no schema.",
    literals=True,
)

SCHEMA_TRANSFORMS: Mapping[str, Transform] = {t.name: t for t in (OPENAPI_SCHEMA, SCHEMA_MEMBER)}
