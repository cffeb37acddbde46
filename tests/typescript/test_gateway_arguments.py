"""The Node harness judges untrusted tool schemas and arguments as the Python gateway does,
beyond the conformance vectors: ingest checks (schema trust), validation with RE2 patterns in
every keyword that matches one, `$ref`s, dialects, and refused patterns reached late.

One harness process answers every case; for each, the outcome (output, or error code with
``details.reason``) must equal Python's. Messages are for people and are not compared.
"""

from __future__ import annotations

from typing import Any

from tests.typescript.differential import outcomes

CATASTROPHIC = "^(a+)+$"
SLOW_TEXT = "a" * 40 + "b"

TRUST: list[dict[str, Any]] = [
    {"schema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}},
    {"schema": {"patternProperties": {"(?<=x)y": {}}}},
    {"schema": {"patternProperties": {"[": {}}}},
    {"schema": {"$defs": {"a": {"pattern": "(a)\\1"}}}},
    {"schema": {"const": {"pattern": "(unclosed"}}},
    {"schema": {"type": "object", "minProperties": -1}},
    {"schema": {"items": [{"type": "string"}]}},
    {"schema": {"pattern": "é" * 5}, "limits": {"max_pattern_length": 5}},
    {"schema": {"pattern": "é" * 6}, "limits": {"max_pattern_length": 5}},
    {"schema": {"enum": [[[[1]]]]}, "limits": {"max_depth": 4}},
    {"schema": {"enum": [[[[1]]]]}, "limits": {"max_depth": 5}},
    {"schema": {"properties": {"a": {"type": "string", "pattern": "a{1001}"}}}},
    {"schema": {"type": ["string", "null"], "format": "made-up"}},
]

OBJECT = {"type": "object"}
VALIDATE: list[dict[str, Any]] = [
    {
        "input_schema": {"patternProperties": {CATASTROPHIC: {"type": "integer"}}},
        "args": {SLOW_TEXT: "x"},
    },
    {
        "input_schema": {"patternProperties": {"^x": {}}, "additionalProperties": False},
        "args": {"xa": 1, SLOW_TEXT: 2},
    },
    {"input_schema": {"properties": {"s": {"pattern": CATASTROPHIC}}}, "args": {"s": "a" * 40}},
    {"input_schema": {"properties": {"s": {"pattern": "^\\p{Lu}"}}}, "args": {"s": "Élan"}},
    {"input_schema": {"properties": {"s": {"pattern": "^.$"}}}, "args": {"s": "😀"}},
    {
        "input_schema": {
            "$defs": {"n": {"type": "integer"}},
            "properties": {"n": {"$ref": "#/$defs/n"}},
        },
        "args": {"n": "1"},
    },
    {
        "input_schema": {"$schema": "http://json-schema.org/draft-07/schema#", **OBJECT},
        "args": {"a": 1},
    },
    {
        "input_schema": {"properties": {"a": {}}, "unevaluatedProperties": False},
        "args": {"a": 1, "b": 2},
    },
    {
        "input_schema": {"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False},
        "args": {"a": 1},
    },
    {"input_schema": {**OBJECT, "required": ["a", "b"]}, "args": {}},
    {"input_schema": {"properties": {"a": {"type": "integer"}}}, "args": {"a": 1.0}},
    {"input_schema": {"properties": {"n": {"multipleOf": 0.1}}}, "args": {"n": 0.3}},
    {"input_schema": {"properties": {"e": {"format": "email"}}}, "args": {"e": "not an email"}},
    {"input_schema": OBJECT, "args": "not json", "tolerant": True},
    {"input_schema": OBJECT, "args": None},
    {"input_schema": ["not a schema"], "args": {}},
    {"input_schema": {"$ref": "#/$defs/missing"}, "args": {}},
]


def test_node_judges_schemas_and_arguments_as_python_does() -> None:
    rows = [("check_schema_trust", i) for i in TRUST] + [
        ("validate_arguments", i) for i in VALIDATE
    ]
    ours, differences = outcomes(rows)
    assert differences == []
    # The cases mean something: both outcomes occur, and each refusal reason at least once.
    reasons = {v[1] for v in ours if v[0] == "SCHEMA_INVALID"}
    assert {"meta_invalid", "pattern_unsupported", "pattern_too_long", "too_deep"} <= reasons
    assert sum(v[0] == "ARGS_INVALID" for v in ours) >= 5
    assert sum(v[0] == "ok" for v in ours) >= 5
