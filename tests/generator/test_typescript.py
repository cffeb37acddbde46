"""The TypeScript target's type mapping, and the plain bundle, on small schemas."""

from __future__ import annotations

import re

import pytest

from generator.bundle import plain_bundle
from generator.plan import python_regex
from generator.typescript import ts_type


def test_schema_shapes_become_typescript_types() -> None:
    assert ts_type(True) == "unknown"
    assert ts_type({"type": "null"}) == "unknown"
    assert ts_type({"$ref": "#/$defs/Part"}) == "Part"
    assert ts_type({"enum": ["a", "b"]}) == '"a" | "b"'
    assert ts_type({"type": "array", "items": {"type": "integer"}}) == "Array<number>"
    closed = {"type": "object", "additionalProperties": False}
    assert ts_type(closed) == "Record<string, never>"
    fields = {"properties": {"x-y": {"type": "string"}, "n": {"const": 1}}, "required": ["n"]}
    assert ts_type({**closed, **fields}) == '{ "x-y"?: string; n: 1 }'
    assert ts_type({"type": "object", "additionalProperties": {"type": "boolean"}}) == (
        "{ [key: string]: boolean }"
    )
    assert ts_type({"type": "object"}) == "{ [key: string]: unknown }"


def test_the_plain_bundle_drops_annotations_not_fields_named_like_them() -> None:
    bundle = {
        "$id": "https://interlingua.dev/schemas/v1/interlingua.json",
        "title": "t",
        "$defs": {
            "Thing": {
                "type": "object",
                "x-open": "why",
                "properties": {"x-api-key": {"type": "string", "x-seed": ["s"]}},
                "not": {"required": ["x-api-key"], "x-note": 1},
            }
        },
    }
    plain = plain_bundle(bundle)
    assert plain["$id"] == "https://interlingua.dev/schemas/v1/interlingua.plain.json"
    assert plain["$defs"]["Thing"] == {
        "type": "object",
        "properties": {"x-api-key": {"type": "string"}},
        "not": {"required": ["x-api-key"]},
    }


def test_patterns_become_python_with_ecma_262_classes() -> None:
    assert python_regex("^a$") == "^a\\Z"
    assert python_regex("[$.]") == "[$.]"
    assert python_regex("^.$") == "^[^\\n\\r\\u2028\\u2029]\\Z"
    assert python_regex("\\d\\D[\\w]") == "[0-9][^0-9][A-Za-z0-9_]"
    assert python_regex("\\.\\u0041") == "\\.\\u0041"
    assert re.fullmatch(python_regex("^[^\\s]+$"), "a\x85") is not None
    assert re.fullmatch(python_regex("^\\S+$"), "a\ufeff") is None
    with pytest.raises(ValueError, match="inside a class"):
        python_regex("[\\S]")
