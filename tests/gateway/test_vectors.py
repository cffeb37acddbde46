"""Every golden vector in conformance/vectors/gateway, run against the implementation, and the
vector files themselves checked: their schema, unique ids, known functions and codes."""

import hashlib
import json
from pathlib import Path
from typing import Any, get_args

import pytest
from jsonschema import Draft202012Validator

from conformance.compare import same
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.vectors import FUNCTIONS, run
from interlingua.generated.models import GatewayErrorCode

ROOT = Path(__file__).resolve().parents[2] / "conformance" / "vectors"
FILES = sorted((ROOT / "gateway").glob("*.json"))
DOCUMENTS = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in FILES}
VECTORS = [vector for doc in DOCUMENTS.values() for vector in doc["vectors"]]
CODES = set(get_args(get_args(GatewayErrorCode.__value__)[0]))


def test_equality_keeps_booleans_apart_from_numbers() -> None:
    assert same({"a": [1, "x", None]}, {"a": [1.0, "x", None]})
    assert not same(True, 1)
    assert not same([0], [False])
    assert not same({"a": 1}, {"b": 1})
    assert not same([1], [1, 1])
    assert not same("1", 1)


def test_files_match_the_vector_schema() -> None:
    schema = json.loads((ROOT / "vector.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    for name, document in DOCUMENTS.items():
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
        assert errors == [], name
        assert document["group"] == name


def test_the_vector_schema_refuses_a_vector_with_both_outcomes() -> None:
    schema = json.loads((ROOT / "vector.schema.json").read_text(encoding="utf-8"))
    vector = {
        "id": "g.x",
        "level": "required",
        "description": "d",
        "function": "f",
        "input": {},
        "expected": 1,
        "expected_error": {"code": "ARGS_INVALID"},
    }
    document = {"group": "g", "description": "d", "vectors": [vector]}
    assert not Draft202012Validator(schema).is_valid(document)
    del vector["expected"]
    assert Draft202012Validator(schema).is_valid(document)


def test_there_are_enough_unique_vectors_in_every_group() -> None:
    ids = [v["id"] for v in VECTORS]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 150
    for name, document in DOCUMENTS.items():
        assert all(v["id"].startswith(name + ".") for v in document["vectors"])
    assert set(DOCUMENTS) == {
        "tool_id",
        "primitive_id",
        "cards",
        "paths",
        "errors",
        "arguments",
        "selection",
    }


def test_functions_and_codes_are_known() -> None:
    assert {v["function"] for v in VECTORS} == set(FUNCTIONS)
    assert {v["expected_error"]["code"] for v in VECTORS if "expected_error" in v} <= CODES


def test_both_levels_and_both_outcomes_are_used() -> None:
    assert {v["level"] for v in VECTORS} == {"required", "recommended"}
    assert sum("expected_error" in v for v in VECTORS) >= 50


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(vector: dict[str, Any]) -> None:
    expected_error = vector.get("expected_error")
    if expected_error is None:
        assert same(run(vector["function"], vector["input"]), vector["expected"])
        return
    with pytest.raises(GatewayError) as raised:
        run(vector["function"], vector["input"])
    assert raised.value.code == expected_error["code"]
    for key, value in expected_error.get("details", {}).items():
        assert (raised.value.details or {})[key] == value
    envelope = raised.value.as_json()
    assert len(envelope["message"]) <= 256
    assert "\n" not in envelope["message"]


def _spec_hash8(upstream_name: str, input_schema: dict[str, Any]) -> str:
    """Seed 002 §1.3, verbatim: the independent reference every hash8 vector must match."""
    props = sorted((input_schema.get("properties") or {}).keys())
    required = sorted(input_schema.get("required") or [])
    shape = json.dumps(
        {"properties": props, "required": required}, sort_keys=True, separators=(",", ":")
    )
    canonical_text = upstream_name + "\n" + shape
    return hashlib.sha256(canonical_text.encode("utf-8")).hexdigest()[:8]


def _hash_of_vector(vector: dict[str, Any]) -> str | None:
    """The hash8 a vector's expected output carries, with what it should be, or None."""
    function, i, expected = vector["function"], vector["input"], vector.get("expected")
    if function == "hash8":
        assert expected == _spec_hash8(i["upstream_name"], i["input_schema"])
        return str(expected)
    if function == "derive_tool_id" and isinstance(expected, str) and "#" in expected:
        assert expected.rpartition("#")[2] == _spec_hash8(i["upstream_name"], i["input_schema"])
        return str(expected)
    if function == "derive_catalog_ids" and isinstance(expected, list):
        for tool, tool_id in zip(i["tools"], expected, strict=True):
            if "#" in tool_id:
                definition = tool["definition"]
                assert tool_id.rpartition("#")[2] == _spec_hash8(
                    definition["name"], definition["input_schema"]
                )
        return "catalog"
    return None


def test_every_hash8_vector_is_recomputed_independently() -> None:
    checked = [h for h in map(_hash_of_vector, VECTORS) if h is not None]
    assert len(checked) >= 20


def test_every_primitive_hash_vector_is_recomputed_independently() -> None:
    """§9.2 with the documented domain prefixes, with hashlib alone."""
    for vector in VECTORS:
        i = vector["input"]
        if vector["function"] == "resource_hash8":
            text = "resource\n" + i["uri"]
        elif vector["function"] == "prompt_hash8":
            names = json.dumps(sorted(i["argument_names"]), separators=(",", ":"))
            text = "prompt\n" + i["name"] + "\n" + names
        else:
            continue
        assert vector["expected"] == hashlib.sha256(text.encode()).hexdigest()[:8]
