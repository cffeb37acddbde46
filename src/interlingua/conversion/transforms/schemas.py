"""Schemas written in the OpenAPI 3.0 subset some formats take, read as JSON Schema.

The canonical form holds JSON Schema (tool input and output schemas, structured output). A
format may also accept the schema object of OpenAPI 3.0, which differs in two ways that matter:
its `type` names may be in capitals (`OBJECT`, `STRING`), and a value that may be null says
`nullable: true` instead of listing `null` among its types. Reading lowers the type names and
turns `nullable` into a `null` type, at every level (properties, items, anyOf members); any
other keyword is kept as it is. Writing never needs this form (JSON Schema is written where the
format takes it), so it writes the schema unchanged. `schema_member` reads a schema from
whichever of the two fields an object has.

Three transforms write a tool's schema where a format asks more of it than the canonical form
does. `arguments_schema`: a canonical tool without an input schema takes no arguments, and a
format that requires a schema gets the closed empty object schema (the same meaning, not
reported).
`object_schema`: a format that takes only a schema of an object (MCP, Gemini's
`parametersJsonSchema`, and Anthropic and Bedrock through `flat_object_schema`) gets one. A
schema without `type` gets `"type": "object"` (what an arguments schema or a structured result
describes anyway: not reported); one whose type lists `object` among others (`["object",
"null"]`) is narrowed to `object`, and one of another type (`string`: OpenAI Chat reads it,
OpenAI itself refuses it) is written as the open object schema, keeping only its annotations;
both are reported as `schema_rewritten`, the target refusing what was there.
`flat_object_schema` also folds `anyOf` / `oneOf` / `allOf` at the top, which Anthropic
refuses ("input_schema does not support oneOf, allOf, or anyOf at the top level"), into the
object's own `properties` and `required` (reported). All three read the wire value as it is.
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
    if json_key in wire and openapi_key in wire:
        # Two schemas of one thing, which may disagree: reading one would drop the other
        # unseen. The API refuses the pair, and so does the wire schema (a `not`).
        raise ConversionError(
            "unknown_variant",
            at,
            f"`{json_key}` and `{openapi_key}` are one schema in two forms; give one",
        )
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
    "schema (a function without parameters takes none); with both, the object is refused "
    "(`unknown_variant`: two forms of one schema, which may disagree).",
    literals=True,
    member_keys=True,
)


def no_arguments() -> dict[str, Any]:
    """The schema of a tool that takes no arguments, where a format requires one (a new
    object each call: outputs never share objects). Closed: an object with no properties
    that takes any would let the model send arguments, and the strict modes (Anthropic's,
    Bedrock's) refuse an object schema that does not say `additionalProperties: false`."""
    return {"type": "object", "properties": {}, "additionalProperties": False}


def or_no_arguments(schema: Any) -> Any:
    """``schema``, or the schema of no arguments when there is none (None): what the fused
    pairs write for `arguments_schema`, the schema they are given computed once."""
    return no_arguments() if schema is None else schema


def object_schema(schema: Any) -> Any:
    """``schema`` with `"type": "object"` first when it has no `type` (anything else, and a
    schema that names its type, as it is)."""
    if type(schema) is dict and "type" not in schema:
        return {"type": "object", **schema}
    return schema


_COMBINATORS = ("anyOf", "oneOf", "allOf")
_ANNOTATIONS = ("$schema", "$id", "title", "description")


def flat_object_schema(schema: Any) -> Any:
    """What the fused pairs write for `flat_object_schema`, having sent every schema it would
    rewrite the two-step way (`plain_object`): `object_schema`. A function of its own, not
    another name for it: compiled, a call of a name bound to a function object goes through
    the interpreter's calling convention, a call of a function the compiler knows does not."""
    return object_schema(schema)


def plain_object(schema: Any, *, flat: bool) -> bool:
    """Whether ``schema`` goes to a format that takes only an object schema (with ``flat``,
    one without combinators at the top, Anthropic's) with at most `"type": "object"` added:
    nothing `object_schema` (`flat_object_schema`) would report."""
    if type(schema) is not dict:
        return True
    fields: dict[str, Any] = schema
    kind = fields.get("type", "object")
    if type(kind) is not str:
        return False
    named: str = kind  # compared as a str, not as any object (compiled)
    if named != "object":
        return False
    # Each combinator asked by name: compiled, `any()` over a generator made a generator
    # object a call, and a loop over the schema's keys cost more than the three lookups (a
    # fused pass asks this of every tool; callgrind).
    return not (flat and ("anyOf" in fields or "oneOf" in fields or "allOf" in fields))


def as_object(schema: Any, *, flat: bool) -> tuple[Any, str | None]:
    """``schema`` as a schema of an object, and what was changed that changes its meaning
    (None: nothing, or only `"type": "object"` added to a schema without a type). With
    ``flat``, `anyOf` / `oneOf` / `allOf` at the top are folded into the object."""
    if type(schema) is not dict:
        return schema, None
    kind = schema.get("type", "object")
    if kind != "object" and not (type(kind) is list and "object" in kind):
        kept = {k: schema[k] for k in _ANNOTATIONS if k in schema}
        return {"type": "object", **kept}, (
            f"a schema of type {kind!r}, where only an object schema is taken: sent as the "
            "open object schema (a tool's arguments are an object), its constraints left out"
        )
    changed = None
    if kind != "object":
        schema = {**schema, "type": "object"}
        changed = f"type {kind!r} narrowed to 'object' (a tool's arguments are an object)"
    if flat and any(k in schema for k in _COMBINATORS):
        schema, folded = _fold(schema)
        note = (
            f"{' and '.join(folded)} at the top, which the format refuses, folded into the "
            "object's properties"
        )
        changed = f"{changed}; {note}" if changed else note
    return object_schema(schema), changed


def _fold(schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``schema`` without its top-level combinators: their members' properties join the
    object's (a property it names itself keeps its own schema), and its required properties
    gain those every member of an `anyOf` / `oneOf` requires, or any member of an `allOf`."""
    out = {k: v for k, v in schema.items() if k not in _COMBINATORS}
    own = out.get("properties")
    properties = dict(own) if type(own) is dict else {}
    given = out.get("required")
    required = list(given) if type(given) is list else []
    folded = []
    for key in _COMBINATORS:
        if key not in schema:
            continue
        folded.append(key)
        raw = schema[key]
        members = [m for m in raw if type(m) is dict] if type(raw) is list else []
        for member in members:
            props = member.get("properties")
            if type(props) is dict:
                for name, sub in props.items():
                    properties.setdefault(name, sub)
        needs: list[list[Any]] = [_names(m.get("required")) for m in members]
        if key == "allOf":
            wanted = [n for names in needs for n in names]
        else:
            wanted = [n for n in needs[0] if all(n in names for names in needs)] if needs else []
        required += [n for n in wanted if n not in required]
    if properties:
        out["properties"] = properties
    if required:
        out["required"] = list(dict.fromkeys(required))
    return out, folded


def _names(required: Any) -> list[Any]:
    return required if type(required) is list else []


def _arguments_encode(ctx: Context, at: str, schema: Any) -> Any:
    return no_arguments() if schema is ABSENT else schema


ARGUMENTS_SCHEMA = Transform(
    "arguments_schema",
    1,
    _arguments_encode,
    read_as_is,
    "A tool's arguments schema where the format requires one (Anthropic `input_schema`, "
    "Bedrock `inputSchema.json`, MCP `inputSchema`, UMF `parameters`): a tool without one takes "
    'no arguments and is written `{"type": "object", "properties": {}, "additionalProperties": '
    "false}` (closed, as strict modes require), the same meaning, so nothing is reported. "
    "Read as it is (a wire value without it is not this variant's).",
    fills=True,
)


def _rewritten(ctx: Context, at: str, schema: Any, *, flat: bool) -> Any:
    written, changed = as_object(schema, flat=flat)
    if changed is not None:
        ctx.loss(at, "schema_rewritten", f"{ctx.adapter}: {changed}")
    return written


def _object_encode(ctx: Context, at: str, schema: Any) -> Any:
    return _rewritten(ctx, at, schema, flat=False)


def _flat_encode(ctx: Context, at: str, schema: Any) -> Any:
    return _rewritten(ctx, at, schema, flat=True)


OBJECT_SCHEMA = Transform(
    "object_schema",
    1,
    _object_encode,
    read_as_is,
    "A schema where the format takes only a schema of an object (MCP `inputSchema` and "
    "`outputSchema`, Gemini `parametersJsonSchema`): one without `type` gets "
    '`"type": "object"` first (the arguments and a structured result are objects anyway, so '
    "nothing is reported); a type that lists "
    "`object` among others is narrowed to it, and a schema of another type is written as the "
    "open object schema with its annotations (both reported as `schema_rewritten`); no schema "
    "stays none. Read as it is.",
)

FLAT_OBJECT_SCHEMA = Transform(
    "flat_object_schema",
    1,
    _flat_encode,
    read_as_is,
    "A tool's arguments schema where the format takes only a flat schema of an object "
    "(Anthropic `input_schema`, Bedrock `inputSchema.json`): as `object_schema`, and `anyOf`, "
    "`oneOf` or `allOf` at the top (which Anthropic refuses) folded into the object's "
    "`properties` and `required` (reported as `schema_rewritten`). Read as it is.",
)

SCHEMA_TRANSFORMS: Mapping[str, Transform] = {
    t.name: t
    for t in (OPENAPI_SCHEMA, SCHEMA_MEMBER, ARGUMENTS_SCHEMA, OBJECT_SCHEMA, FLAT_OBJECT_SCHEMA)
}
