"""Trust limits on upstream input schemas, checked at catalog ingest (seed 002 §4.4).

Upstream schemas are untrusted. Before one is used, it must be a JSON object within
configurable bounds on nesting depth, serialized size and total property count, and must pass
JSON Schema meta-validation. Any failure is SCHEMA_INVALID with ``details.reason`` one of the
schema's ``SchemaTrustReason`` values. The checks run in that order and stop at the first
failure; depth comes first because measuring the others walks the whole value.

Definitions (choices; the seed names the bounds but not how they are measured):

- depth: nesting of JSON objects and arrays; a scalar is 0, ``{}`` is 1, and
  ``{"properties": {"a": {"type": "string"}}}`` is 3.
- size: UTF-8 bytes of ``json.dumps(schema, ensure_ascii=False, separators=(",", ":"))``.
- property count: the entries of every ``properties`` object of every subschema, reached
  through the schema keywords of draft 2020-12 (and draft-07's ``definitions`` and array
  ``items``), so a property that happens to be named ``properties`` is not miscounted.
- meta-validation: draft 2020-12, the default dialect of MCP tool schemas, whatever
  ``$schema`` says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from interlingua.gateway.errors import GatewayError
from interlingua.generated.models import SchemaTrustReason

_ONE_SCHEMA: Final = (
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
)
_SCHEMA_LISTS: Final = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_SCHEMA_MAPS: Final = (
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
)


@dataclass(frozen=True)
class SchemaLimits:
    """Bounds on one input schema; the defaults are generous for real tools."""

    max_depth: int = 64
    max_bytes: int = 256 * 1024
    max_properties: int = 1024


DEFAULT_LIMITS: Final = SchemaLimits()


def json_depth(value: Any) -> int:
    """Nesting depth of objects and arrays in ``value`` (iterative: any depth is safe)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Mapping):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, depth + 1)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def property_count(schema: Mapping[str, Any]) -> int:
    """Entries of every ``properties`` object of every subschema of ``schema``."""
    count = 0
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        if isinstance(node.get("properties"), Mapping):
            count += len(node["properties"])
        stack.extend(node[k] for k in _ONE_SCHEMA if k in node)
        for key in _SCHEMA_LISTS:
            if isinstance(node.get(key), list):
                stack.extend(node[key])
        for key in _SCHEMA_MAPS:
            if isinstance(node.get(key), Mapping):
                stack.extend(node[key].values())
    return count


def _fail(reason: SchemaTrustReason, message: str) -> GatewayError:
    return GatewayError("SCHEMA_INVALID", message, details={"reason": reason})


def check_schema_trust(schema: object, limits: SchemaLimits = DEFAULT_LIMITS) -> None:
    """Raise SCHEMA_INVALID unless ``schema`` is an object within ``limits`` and a valid
    JSON Schema."""
    if not isinstance(schema, Mapping):
        raise _fail(
            "not_an_object", f"an input schema is a JSON object, not {type(schema).__name__}"
        )
    depth = json_depth(schema)
    if depth > limits.max_depth:
        raise _fail("too_deep", f"the schema nests {depth} levels; the limit is {limits.max_depth}")
    try:
        text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        raise _fail("meta_invalid", "the schema holds a value JSON cannot carry") from None
    except RecursionError:  # only with a max_depth beyond what Python can walk
        raise _fail("too_deep", f"the schema nests {depth} levels, too deep to check") from None
    size = len(text.encode("utf-8"))
    if size > limits.max_bytes:
        raise _fail("too_large", f"the schema is {size} bytes; the limit is {limits.max_bytes}")
    count = property_count(schema)
    if count > limits.max_properties:
        raise _fail(
            "too_many_properties",
            f"the schema declares {count} properties; the limit is {limits.max_properties}",
        )
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        where = "/" + "/".join(str(p) for p in exc.absolute_path)
        raise _fail("meta_invalid", f"not a valid JSON Schema at {where}: {exc.message}") from None
