"""Strict mode left to the server: what a function tool that does not say means in OpenAI
Responses.

OpenAI Responses decides strict mode for a function tool that leaves `strict` out (or null)
from its schema: one strict mode takes is made strict, any other is called best-effort, as
`strict: false` would be. OpenAI Chat, and every other format with a strict flag, reads a flag
left out as not strict, and refuses (Chat) or rejects the schemas strict mode does not take
when the flag is on. So reading such a tool as `strict: true` whatever its schema would send a
loose schema to Chat as strict, which Chat refuses with a 400; and reading it as not strict
would drop the strictness the server gives a schema it takes.

`strict_by_schema` reads the flag the server would apply: on, when strict mode takes the
schema as it is written; off otherwise. "Takes" is the rule OpenAI documents for strict
schemas (Structured Outputs): the root is an object schema; every object schema says
`"additionalProperties": false` and lists each of its properties in `required`; and none of
the keywords strict mode does not support appears. Where the server might still normalize a
schema this rule refuses (its algorithm is not published), the tool reads as best-effort:
the reading that never sends another format a schema it refuses. Round-trip data gives back
a body that left the flag out.
"""

from __future__ import annotations

from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.transforms.base import Transform

# Keywords strict mode refuses, at any level.
_REFUSED = frozenset(
    {
        "allOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "patternProperties",
        "dependentRequired",
        "dependentSchemas",
        "unevaluatedProperties",
    }
)
_DEPTH = 64  # deeper than strict mode nests (input is depth-limited before this anyway)
_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions")
_SUBSCHEMA_LISTS = ("anyOf", "prefixItems")
_SUBSCHEMA_VALUES = ("items",)


def strict_takes(schema: Any) -> bool:
    """Whether OpenAI's strict mode takes ``schema`` (a function's parameters) as it is. A
    function without parameters takes none, which strict mode takes."""
    if schema is None:
        return True
    if type(schema) is not dict or schema.get("type") != "object":
        return False
    return _closed(schema, 0)


def _closed(node: Any, depth: int) -> bool:
    if type(node) is not dict or depth > _DEPTH:
        return False  # a boolean schema: nothing strict mode checks
    if not _REFUSED.isdisjoint(node):
        return False
    kind = node.get("type")
    if kind == "object" or (type(kind) is list and "object" in kind) or "properties" in node:
        properties = node.get("properties", {})
        required = node.get("required", [])
        if node.get("additionalProperties") is not False or type(properties) is not dict:
            return False
        if type(required) is not list or not all(type(name) is str for name in required):
            return False  # (a list of other than names is no schema strict mode checks)
        if set(required) != set(properties):
            return False
    for key in _SUBSCHEMA_MAPS:
        members = node.get(key)
        if type(members) is dict and not all(_closed(m, depth + 1) for m in members.values()):
            return False
    for key in _SUBSCHEMA_LISTS:
        members = node.get(key)
        if type(members) is list and not all(_closed(m, depth + 1) for m in members):
            return False
    return all(_closed(node[key], depth + 1) for key in _SUBSCHEMA_VALUES if key in node)


def _encode(ctx: Context, at: str, flag_key: Any, schema_key: Any, declaration: Any) -> Any:
    return declaration


def _decode(ctx: Context, wire: Any, at: str, flag_key: Any, schema_key: Any) -> Any:
    if type(wire) is dict and wire.get(flag_key) is None:
        wire = {**wire, flag_key: strict_takes(wire.get(schema_key))}
    return None, None, wire


STRICT_BY_SCHEMA = Transform(
    "strict_by_schema",
    3,
    _encode,
    _decode,
    "A function declaration whose strict flag, left out or null, the server decides from its "
    'schema (`{"@strict_by_schema": [strict, parameters, {...}]}`: OpenAI Responses): read '
    "as on when OpenAI's strict mode takes the schema as it is written (an object schema, "
    "every object closed with `additionalProperties: false` and all its properties required, "
    "no keyword strict mode refuses), else as off, which never sends another format a schema "
    "its strict mode refuses. Written as the declaration inside says.",
    literals=True,
)
