"""The RE2-backed validator: the library's results for safe patterns, no backtracking."""

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from interlingua.gateway.linear_validator import META_FORMATS, LinearValidator
from interlingua.gateway.patterns import PatternRefused

#: Schemas using every keyword LinearValidator replaces, with instances that pass and fail.
CASES: list[tuple[dict[str, Any], list[Any]]] = [
    ({"pattern": "^[a-z]+$"}, ["abc", "aB", 5, ""]),
    (
        {"patternProperties": {"^x_": {"type": "integer"}, "y$": {"type": "string"}}},
        [{"x_a": 1}, {"x_a": "1"}, {"ay": 2, "x_y": 3}, {"z": None}, []],
    ),
    (
        {
            "properties": {"a": {}},
            "patternProperties": {"^p": {}},
            "additionalProperties": False,
        },
        [{"a": 1, "pq": 2}, {"b": 1}, {"b": 1, "c": 2}, "x"],
    ),
    (
        {"properties": {"a": {}}, "additionalProperties": False},
        [{"a": 1}, {"b": 1}, {"b": 1, "c": 2}],
    ),
    (
        {"properties": {"a": {}}, "additionalProperties": {"type": "integer"}},
        [{"a": "x", "b": 1}, {"b": "x"}],
    ),
    (
        {
            "allOf": [{"properties": {"a": {}}}, {"patternProperties": {"^p": {}}}],
            "anyOf": [{"properties": {"b": {"type": "integer"}}}],
            "oneOf": [{"properties": {"c": {"const": 1}}, "required": ["c"]}],
            "if": {"required": ["i"]},
            "then": {"properties": {"t": {}}},
            "else": {"properties": {"e": {}}},
            "dependentSchemas": {"d": {"properties": {"dd": {}}}},
            "$ref": "#/$defs/r",
            "$defs": {"r": {"properties": {"r": {}}}},
            "unevaluatedProperties": False,
        },
        [
            {"c": 1, "a": 0, "p1": 0, "b": 2, "r": 0},
            {"c": 1, "i": 0, "t": 0},
            {"c": 1, "t": 0},
            {"c": 1, "e": 0, "d": 0, "dd": 0},
            {"c": 1, "dd": 0},
            {"c": 1, "b": "x"},
            {"c": 1, "z": 0, "y": 0},
            {"c": 2},
            7,
        ],
    ),
    (
        {"properties": {"a": {}}, "unevaluatedProperties": {"type": "integer"}},
        [{"a": "x", "b": 1}, {"b": "x"}, {"b": "x", "c": "y"}],
    ),
    (
        {"additionalProperties": {"type": "integer"}, "unevaluatedProperties": False},
        [{"a": 1}, {"a": "x"}],
    ),
    (
        {
            "$dynamicRef": "#/$defs/s",
            "$defs": {"s": {"properties": {"s": {}}}},
            "unevaluatedProperties": False,
        },
        [{"s": 1}, {"s": 1, "t": 2}],
    ),
    ({"propertyNames": {"pattern": "^[a-z]+$"}}, [{"ab": 1}, {"A": 1}]),
    ({"if": True, "unevaluatedProperties": False}, [{}, {"a": 1}]),
]


@pytest.mark.parametrize(("schema", "instances"), CASES)
def test_same_errors_as_the_library(schema: dict[str, Any], instances: list[Any]) -> None:
    ours, theirs = LinearValidator(schema), Draft202012Validator(schema)
    for instance in instances:
        got = sorted((list(e.absolute_path), e.validator) for e in ours.iter_errors(instance))
        want = sorted((list(e.absolute_path), e.validator) for e in theirs.iter_errors(instance))
        assert got == want, instance
        assert [e.message for e in ours.iter_errors(instance)] == [
            e.message for e in theirs.iter_errors(instance)
        ]


def test_no_keyword_backtracks() -> None:
    """Regression: with the library's keywords each of these runs for minutes."""
    evil, text = "^(a+)+$", "a" * 40 + "b"
    cases: list[tuple[dict[str, Any], Any, bool]] = [
        ({"pattern": evil}, text, False),
        ({"propertyNames": {"pattern": evil}}, {text: 1}, False),
        ({"patternProperties": {evil: False}}, {text: 1}, True),  # no match: False not applied
        ({"patternProperties": {evil: {}}, "additionalProperties": False}, {text: 1}, False),
        ({"patternProperties": {evil: {}}, "unevaluatedProperties": False}, {text: 1}, False),
    ]
    for schema, instance, valid in cases:
        assert LinearValidator(schema).is_valid(instance) is valid


def test_a_pattern_reached_only_through_a_ref_is_refused_when_used() -> None:
    schema = {"$ref": "#/default", "default": {"pattern": "(?=x)"}}
    with pytest.raises(PatternRefused):
        LinearValidator(schema).is_valid("x")


def test_meta_validation_regex_format() -> None:
    def meta_ok(pattern: str) -> bool:
        schema = {"pattern": pattern}
        return not list(
            Draft202012Validator(
                Draft202012Validator.META_SCHEMA, format_checker=META_FORMATS
            ).iter_errors(schema)
        )

    assert meta_ok("\\p{L}+\\z")  # RE2 syntax Python's re lacks
    assert meta_ok("(?=lookahead)")  # a regex (refused later as pattern_unsupported)
    assert not meta_ok("(unclosed")
    assert META_FORMATS.conforms(5, "regex")  # a format asserts nothing about other types
    assert meta_ok("(" * 600 + ")" * 600)  # RE2 parses deep nesting
    # RE2 refuses, and Python's parser raises RecursionError: caught, not a regex
    assert not meta_ok("(" * 600 + "(?=a)" + ")" * 600)
