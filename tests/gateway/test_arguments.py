"""Argument handling (seed 002 §4.4-§4.6): trust limits, tolerant repairs, compiled validators."""

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.gateway.arguments import MAX_REPORTED_ERRORS, ArgumentValidator
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.normalize import normalize_arguments
from interlingua.gateway.schema_trust import (
    DEFAULT_LIMITS,
    SchemaLimits,
    check_schema_trust,
    json_depth,
    property_count,
)
from interlingua.generated.models import GatewayTool

SCHEMA = {
    "type": "object",
    "properties": {
        "n": {"type": "integer"},
        "flag": {"type": "boolean"},
        "name": {"type": "string"},
    },
    "required": ["n"],
    "additionalProperties": False,
}


def nested(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        node["properties"] = {"a": {}}
        node = node["properties"]["a"]
    return root


def reason(schema: object, limits: SchemaLimits = DEFAULT_LIMITS) -> str | None:
    try:
        check_schema_trust(schema, limits)
    except GatewayError as error:
        assert error.code == "SCHEMA_INVALID"
        return str((error.details or {})["reason"])
    return None


def test_trust_checks() -> None:
    assert reason(SCHEMA) is None
    assert reason(nested(1000)) == "too_deep"
    assert reason([SCHEMA]) == reason("x") == reason(None) == reason(True) == "not_an_object"
    assert reason({"type": "strng"}) == "meta_invalid"
    assert reason({"description": "x" * 300_000}) == "too_large"
    assert reason({"properties": {str(i): {} for i in range(1025)}}) == "too_many_properties"
    assert reason({"const": float("nan")}) == "meta_invalid"
    assert reason({"const": {1, 2}}) == "meta_invalid"


def test_a_depth_limit_beyond_python_is_still_coded() -> None:
    assert reason(nested(3000), SchemaLimits(max_depth=1_000_000)) == "too_deep"


def test_depth_and_property_count() -> None:
    assert json_depth(5) == 0
    assert json_depth({}) == 1
    assert json_depth({"a": [[{}]]}) == 4
    assert json_depth(nested(5000)) == 10_001  # iterative: no recursion limit
    schema = {
        "properties": {
            "a": {"items": [{"properties": {"b": {}}}]},
            "c": {"not": {"properties": {"d": {}}}},
        }
    }
    assert property_count(schema) == 4


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=20,
    )
)
def test_any_json_value_is_trusted_or_schema_invalid(value: Any) -> None:
    try:
        check_schema_trust(value)
    except GatewayError as error:
        assert error.code == "SCHEMA_INVALID"


def test_validators_are_compiled_once_per_tool_id() -> None:
    validator = ArgumentValidator()
    validator.register("t:a@1", "a", SCHEMA)
    for _ in range(5):
        validator.validate("t:a@1", {"n": 1})
    with pytest.raises(GatewayError):
        validator.validate("t:a@1", {"n": "1"})
    assert validator.compilations == 1
    validator.register("t:b@1", "b", SCHEMA)
    validator.validate("t:b@1", {"n": 1})
    validator.register(
        "t:a@1", "a", {"type": "object"}
    )  # a refresh replaces the compiled validator
    assert validator.validate("t:a@1", {"n": "1"}).args == {"n": "1"}
    assert validator.compilations == 3


def test_unknown_and_removed_tools_fail_closed() -> None:
    validator = ArgumentValidator()
    validator.register("t:a@1", "a", SCHEMA)
    validator.clear()
    with pytest.raises(GatewayError) as raised:
        validator.validate("t:a@1", {"n": 1})
    assert raised.value.code == "HYDRATE_FAILED"


def test_lenient_mode_flags_and_reports_at_execute_time() -> None:
    validator = ArgumentValidator()
    finding = validator.register("t:deep@1", "deep", nested(1000))
    assert finding is not None
    assert (finding.tool_id, finding.reason) == ("t:deep@1", "too_deep")
    assert validator.findings == [finding]
    with pytest.raises(GatewayError) as raised:
        validator.validate("t:deep@1", {})
    assert raised.value.code == "SCHEMA_INVALID"
    assert raised.value.details == {"tool_id": "t:deep@1", "reason": "too_deep"}
    validator.register("t:deep@1", "deep", {"type": "object"})  # fixed upstream, refreshed
    assert validator.findings == []
    assert validator.validate("t:deep@1", {}).args == {}


def test_raise_mode_rejects_at_ingest() -> None:
    validator = ArgumentValidator(on_invalid="raise")
    with pytest.raises(GatewayError) as raised:
        validator.register("t:x@1", "x", "not a schema")
    assert raised.value.code == "SCHEMA_INVALID"
    assert validator.findings == []


def test_args_invalid_details() -> None:
    validator = ArgumentValidator()
    validator.register(
        "t:a@1",
        "a",
        {"type": "object", "properties": {str(i): {"type": "integer"} for i in range(30)}},
    )
    with pytest.raises(GatewayError) as raised:
        validator.validate("t:a@1", {str(i): "x" * 1000 for i in range(30)}, tolerant=True)
    details = raised.value.details
    assert details is not None
    assert len(details["errors"]) == MAX_REPORTED_ERRORS
    assert all(len(e["message"]) <= 200 for e in details["errors"])
    assert details["arg_repairs"] == []
    assert len(raised.value.envelope().message) <= 256


def test_arguments_too_deep_to_validate_are_args_invalid() -> None:
    validator = ArgumentValidator()
    validator.register(
        "t:r@1",
        "r",
        {
            "type": "object",
            "properties": {"x": {"$ref": "#/$defs/list"}},
            "$defs": {"list": {"type": "array", "items": {"$ref": "#/$defs/list"}}},
        },
    )
    deep: list[Any] = []
    for _ in range(3000):
        deep = [deep]
    with pytest.raises(GatewayError) as raised:
        validator.validate("t:r@1", {"x": deep})
    assert raised.value.code == "ARGS_INVALID"


def test_tolerant_mode_repairs_and_records() -> None:
    validator = ArgumentValidator()
    validator.register("t:a@1", "a", SCHEMA)
    result = validator.validate("t:a@1", '{"n": "3", "flag": "true", "name": "5"}', tolerant=True)
    assert result.args == {"n": 3, "flag": True, "name": "5"}
    assert [r.rule for r in result.arg_repairs] == [
        "parse_stringified_object",
        "str_to_boolean",
        "str_to_integer",
    ]
    with pytest.raises(GatewayError):
        validator.validate("t:a@1", '{"n": "3"}')  # strict by default: byte-identical behaviour


def test_normalization_never_mutates_its_input() -> None:
    args = {"n": "1"}
    normalized, repairs = normalize_arguments(args, SCHEMA)
    assert args == {"n": "1"}
    assert normalized == {"n": 1}
    assert len(repairs) == 1
    assert normalize_arguments({"n": "1"}, {"properties": "x"}) == ({"n": "1"}, [])
    assert normalize_arguments(7, SCHEMA) == (7, [])
    huge = "9" * 5000  # more digits than Python converts: left alone, not a crash
    assert normalize_arguments({"n": huge}, SCHEMA) == ({"n": huge}, [])


@given(
    st.dictionaries(
        st.sampled_from(["n", "flag", "name", "other"]), st.text(max_size=6) | st.integers()
    )
)
def test_tolerant_validation_is_coded(args: dict[str, Any]) -> None:
    validator = ArgumentValidator()
    validator.register("t:a@1", "a", SCHEMA)
    try:
        result = validator.validate("t:a@1", args, tolerant=True)
    except GatewayError as error:
        assert error.code == "ARGS_INVALID"
    else:
        assert json.dumps(result.model_dump(mode="json"))
        assert set(result.args) <= set(args)


def _billing() -> GatewayTool:
    return GatewayTool.model_validate(
        {
            "definition": {
                "name": "billing.refund",
                "input_schema": {"type": "object", "properties": {"amount": {"type": "number"}}},
            },
            "version": "1",
        }
    )


def test_dry_run_quota() -> None:
    validator = ArgumentValidator()
    tool_id = validator.register_tool(_billing())
    report = validator.dry_run(tool_id, {"amount": 1}, quota=lambda _: True)
    assert report.annotations.verified is False
    assert [(c.name, c.status) for c in report.checks] == [
        ("schema_validation", "pass"),
        ("rate_limit", "pass"),
    ]
    with pytest.raises(GatewayError) as raised:
        validator.dry_run(tool_id, {"amount": 1}, quota=lambda _: False)
    assert (raised.value.code, raised.value.retryable) == ("RATE_LIMITED", True)


def test_a_tool_without_an_input_schema_takes_an_empty_object() -> None:
    """A definition may leave its input schema out: the tool takes no arguments."""
    validator = ArgumentValidator()
    tool_id = validator.register_tool(
        GatewayTool.model_validate({"definition": {"name": "clock.now"}})
    )
    assert validator.findings == []
    assert validator.validate(tool_id, {}).args == {}
    with pytest.raises(GatewayError) as raised:
        validator.validate(tool_id, [])
    assert raised.value.code == "ARGS_INVALID"


def test_trust_checks_bound_and_vet_patterns() -> None:
    """Issue 22: patterns are bounded in length and must run on the linear-time engine."""
    assert reason({"pattern": "a" * 1000}) is None
    assert reason({"pattern": "a" * 1001}) == "pattern_too_long"
    assert reason({"patternProperties": {"k" * 1001: {}}}) == "pattern_too_long"
    assert reason({"pattern": "a" * 1001}, SchemaLimits(max_pattern_length=2000)) is None
    assert reason({"pattern": "(unclosed"}) == "meta_invalid"
    assert reason({"pattern": 5}) == reason({"patternProperties": []}) == "meta_invalid"
    assert reason({"properties": {"a": {"pattern": "(?=x)"}}}) == "pattern_unsupported"
    assert reason({"patternProperties": {"(a)\\1": {}}}) == "pattern_unsupported"
    assert reason({"pattern": "^\\p{L}+\\z"}) is None  # RE2 syntax is accepted
    # Regression: Python's parser raised RecursionError out of meta-validation on this.
    assert reason({"pattern": "(" * 600 + ")" * 600}) == "pattern_too_long"


def test_a_catastrophic_pattern_does_not_hang_validation() -> None:
    """Regression: `^(a+)+$` on 29+ characters hung python-jsonschema's `re` matching."""
    validator = ArgumentValidator()
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}
    validator.register("t:p@1", "p", schema)
    with pytest.raises(GatewayError) as raised:
        validator.validate("t:p@1", {"s": "a" * 29 + "b"})
    assert raised.value.code == "ARGS_INVALID"
    assert validator.validate("t:p@1", {"s": "a" * 10_000}).args == {"s": "a" * 10_000}


def test_a_pattern_met_only_at_validation_is_schema_invalid() -> None:
    validator = ArgumentValidator()
    ref = {"type": "object", "properties": {"a": {"$ref": "#/default"}}}
    validator.register("t:la@1", "la", {**ref, "default": {"pattern": "(?<=x)"}})
    with pytest.raises(GatewayError) as raised:
        validator.validate("t:la@1", {"a": "x"})
    assert raised.value.code == "SCHEMA_INVALID"
    assert raised.value.details == {"tool_id": "t:la@1", "reason": "pattern_unsupported"}
    validator.register("t:bad@1", "bad", {**ref, "default": {"required": 5}})
    with pytest.raises(GatewayError) as raised:
        validator.validate("t:bad@1", {"a": {}})
    assert raised.value.details == {"tool_id": "t:bad@1", "reason": "meta_invalid"}
