"""`generator.reading`: the reading schema a wire schema's strict form derives, and the lint of
the `x-read` annotations that say what stays strict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from generator.reading import check_rules, lint_formats, reading_schema

BLOCK = {
    "$defs": {
        "Text": {
            "type": "object",
            "additionalProperties": False,
            "required": ["type", "text"],
            "properties": {
                "type": {"const": "text"},
                "text": {"type": "string", "minLength": 1},
                "mode": {"enum": ["a", "b"]},
                "data": {"type": "string", "pattern": "^[A-Z]+$", "x-read": {"keep": ["pattern"]}},
            },
        },
        "Call": {
            "type": "object",
            "additionalProperties": False,
            "required": ["type", "name", "logprobs"],
            "x-read": {"optional": ["logprobs"]},
            "properties": {
                "type": {"const": "call"},
                "name": {"type": "string"},
                "logprobs": {"type": "null"},
            },
        },
        "Result": {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"const": "result"}},
        },
        "Block": {
            "oneOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Call"}],
            "discriminator": {
                "propertyName": "type",
                "mapping": {"text": "#/$defs/Text", "call": "#/$defs/Call"},
            },
        },
        "Elsewhere": {
            "oneOf": [{"$ref": "#/$defs/Result"}],
            "discriminator": {"propertyName": "type", "mapping": {"result": "#/$defs/Result"}},
        },
    },
    "type": "object",
    "properties": {
        "blocks": {"type": "array", "items": {"$ref": "#/$defs/Block"}},
        "other": {"$ref": "#/$defs/Elsewhere"},
    },
}


def _reads(schema: dict[str, Any], body: Any) -> bool:
    return bool(jsonschema_rs.validator_for(reading_schema(schema)).is_valid(body))


def _writes(schema: dict[str, Any], body: Any) -> bool:
    return bool(jsonschema_rs.validator_for(schema).is_valid(body))


@pytest.mark.parametrize(
    "block",
    [
        {"type": "text", "text": "hi", "annotations": []},  # a key the schema does not list
        {"type": "text", "text": ""},  # a request rule (minLength)
        {"type": "text", "text": "hi", "mode": "c"},  # an enum value it does not list
        {"type": "call", "name": "f"},  # a field servers leave out (x-read optional)
        {"type": "sticker", "id": 1},  # a block of a kind the document does not know
        {"type": "text", "text": "hi", "mode": None},  # null for an absent optional field
    ],
)
def test_reading_takes_what_writing_refuses(block: dict[str, Any]) -> None:
    body = {"blocks": [block]}
    assert not _writes(BLOCK, body)
    assert _reads(BLOCK, body)


@pytest.mark.parametrize(
    "block",
    [
        {"type": "text"},  # the mapping reads the text: still required
        {"type": "text", "text": 3},  # a wrong type where a value is read
        {"type": "text", "text": "hi", "data": "abc"},  # a pattern kept with x-read
        {"type": "result"},  # a kind the document knows, misplaced here
        {"type": "text", "text": None},  # a required field is not absent when null
        {"type": None, "text": "hi"},  # nor is a tag
    ],
)
def test_reading_refuses_what_the_mapping_cannot_read(block: dict[str, Any]) -> None:
    assert not _reads(BLOCK, {"blocks": [block]})


def test_the_strict_schema_is_untouched_and_the_reading_one_is_named_so() -> None:
    strict = {"$id": "https://x/formats/f/request.json", "title": "F", **BLOCK}
    before = repr(strict)
    reading = reading_schema(strict)
    assert repr(strict) == before
    assert reading["$id"] == "https://x/formats/f/request.reading.json"
    assert reading["title"] == "F (reading)"
    assert "x-read" not in repr(reading)
    assert reading["$defs"]["Text"]["x-closed-on-write"] is True


KEYED = {
    "$defs": {
        "Text": {"type": "object", "additionalProperties": False, "required": ["text"],
                 "properties": {"text": {"type": "string"}}},
        "Image": {"type": "object", "additionalProperties": False, "required": ["image"],
                  "properties": {"image": {"type": "object"}}},
        "Part": {"x-read": {"keyed": True},
                 "oneOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Image"}]},
        "Untagged": {"oneOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Image"}]},
    },
    "type": "object",
    "properties": {
        "parts": {"type": "array", "items": {"$ref": "#/$defs/Part"}},
        "loose": {"$ref": "#/$defs/Untagged"},
    },
}  # fmt: skip


def test_a_keyed_union_reads_one_known_key_or_none_of_them() -> None:
    assert _reads(KEYED, {"parts": [{"text": "a", "thought": True}]})
    assert _reads(KEYED, {"parts": [{"executableCode": {"code": "1"}}]})
    assert not _reads(KEYED, {"parts": [{"text": "a", "image": {}}]})
    # An untagged union becomes an anyOf: open members may now both match.
    assert _reads(KEYED, {"loose": {"text": "a", "image": {}}})


def test_check_rules_finds_annotations_that_say_nothing() -> None:
    schema = {
        "$defs": {
            "A": {
                "type": "object",
                "required": ["a"],
                "x-read": {"keep": ["pattern"], "optional": ["b"]},
                "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            },
            "B": {"type": "string", "x-read": {"keyed": True}},
        }
    }
    assert check_rules(schema) == [
        "/$defs/A: x-read keeps 'pattern', which this node does not have",
        "/$defs/A: x-read makes 'b' optional; it is not required here",
        "/$defs/B: x-read says keyed members, and this node is no oneOf",
    ]
    assert check_rules({"x-read": {"keep": ["title"]}, "title": "t"}) == [
        "/: x-read keeps 'title', which reading never relaxes"
    ]


def test_the_shipped_wire_schemas_lint_clean_and_a_bad_annotation_is_a_violation(
    tmp_path: Path,
) -> None:
    root = Path(__file__).resolve().parents[2] / "schemas"
    assert lint_formats(root) == []
    bad = tmp_path / "schemas" / "formats" / "f"
    bad.mkdir(parents=True)
    (bad / "request.json").write_text('{"type": "string", "x-read": {"keep": ["enum"]}}')
    (finding,) = lint_formats(tmp_path / "schemas")
    assert (finding.id, finding.level, finding.location) == (
        "IL018",
        "violation",
        "schemas/formats/f/request.json#/",
    )


def test_an_optional_field_may_be_null_whatever_its_schema() -> None:
    """A typed node takes null in its type list; any other (a reference, a kept enum, a
    union) is offered null beside it, so its own errors stay as they were."""
    schema = {
        "$defs": {"Point": {"type": "object", "required": ["x"], "properties": {"x": {}}}},
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string"},
            "where": {"$ref": "#/$defs/Point"},
            "role": {"enum": ["a", "b"], "x-read": {"keep": ["enum"]}},
            "size": {"type": "integer", "minimum": 0},
        },
    }
    reading = reading_schema(schema)
    properties = reading["properties"]
    assert properties["size"] == {"type": ["integer", "null"]}
    assert properties["where"] == {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Point"}]}
    assert properties["id"] == {"type": "string"}  # required: never null
    for key in ("where", "role", "size"):
        assert _reads(schema, {"id": "1", key: None}), key
    assert not _reads(schema, {"id": None})
    assert not _reads(schema, {"id": "1", "role": "c"})  # the kept enum still holds
    assert not _reads(schema, {"id": "1", "where": {}})  # and the referenced shape


def test_another_shape_a_value_takes_on_read_is_read_and_relaxed_too() -> None:
    """`x-read.also`: a shape other servers send (Mistral's list content where OpenAI's
    response has a string) reads beside the node's own; the strict schema still refuses it,
    and the other shape is relaxed like the rest (its objects open)."""
    blocks = {
        "type": "array",
        "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["type"],
            "properties": {"type": {"type": "string"}},
        },
    }
    content: dict[str, Any] = {"type": ["string", "null"], "x-read": {"also": [blocks]}}
    schema = {"type": "object", "required": ["content"], "properties": {"content": content}}
    listed = {"content": [{"type": "text", "closed": True}]}
    assert _reads(schema, listed) and _reads(schema, {"content": "4"})
    assert not jsonschema_rs.validator_for(schema).is_valid(listed)
    assert not _reads(schema, {"content": 4})
    assert "x-read" in content  # the strict schema is left as it was
