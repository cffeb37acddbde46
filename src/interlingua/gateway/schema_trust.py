"""Trust limits on upstream input schemas, checked at catalog ingest (seed 002 §4.4).

Upstream schemas are untrusted. Before one is used, it must be a JSON object within
configurable bounds on nesting depth, serialized size, total property count and pattern length,
must pass JSON Schema meta-validation, and every pattern in it must run on RE2, the linear-time
engine argument validation matches with (:mod:`interlingua.gateway.patterns`). Any failure
is SCHEMA_INVALID with ``details.reason`` one of the schema's ``SchemaTrustReason`` values. The
checks run in that order and stop at the first failure; depth comes first because measuring the
others walks the whole value.

Definitions (choices; the seed names the bounds but not how they are measured):

- depth: nesting of JSON objects and arrays; a scalar is 0, ``{}`` is 1, and
  ``{"properties": {"a": {"type": "string"}}}`` is 3.
- size: UTF-8 bytes of ``json.dumps(schema, ensure_ascii=False, separators=(",", ":"))``.
- property count: the entries of every ``properties`` object of every subschema, reached
  through the schema keywords of draft 2020-12 (and draft-07's ``definitions`` and array
  ``items``), so a property that happens to be named ``properties`` is not miscounted.
- pattern length: characters of each ``pattern`` value and ``patternProperties`` key found
  through the same keywords, checked before meta-validation so no long pattern is parsed.
- meta-validation: draft 2020-12, the default dialect of MCP tool schemas, whatever
  ``$schema`` says; the ``regex`` format accepts what RE2 or Python's parser accepts
  (``(unclosed`` is ``meta_invalid``).
- patterns: a regex RE2 cannot compile (lookaround, backreferences) is
  ``pattern_unsupported``: a valid regex, refused rather than run by a backtracking engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from interlingua.gateway.errors import GatewayError
from interlingua.gateway.linear_validator import META_FORMATS
from interlingua.gateway.patterns import PatternRefused, compile_linear, schema_patterns, subschemas
from interlingua.generated.models import SchemaTrustReason


@dataclass(frozen=True)
class SchemaLimits:
    """Bounds on one input schema; the defaults are generous for real tools."""

    max_depth: int = 64
    max_bytes: int = 256 * 1024
    max_properties: int = 1024
    #: Characters in one ``pattern`` or ``patternProperties`` key (RE2 compiles in time and
    #: memory that grow with the pattern; real tools use a few dozen characters).
    max_pattern_length: int = 1000


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
    return sum(
        len(node["properties"])
        for node in subschemas(schema)
        if isinstance(node.get("properties"), Mapping)
    )


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
    for pattern in schema_patterns(schema):
        if len(pattern) > limits.max_pattern_length:
            raise _fail(
                "pattern_too_long",
                f"a pattern has {len(pattern)} characters; the limit is "
                f"{limits.max_pattern_length}",
            )
    try:
        Draft202012Validator.check_schema(schema, format_checker=META_FORMATS)
    except SchemaError as exc:
        where = "/" + "/".join(str(p) for p in exc.absolute_path)
        raise _fail("meta_invalid", f"not a valid JSON Schema at {where}: {exc.message}") from None
    for pattern in schema_patterns(schema):
        try:
            compile_linear(pattern)
        except PatternRefused as refused:
            raise _fail(refused.reason, refused.message) from None
