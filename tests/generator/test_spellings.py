"""generator/spellings.py: which objects of a wire schema are respelt, and how."""

from __future__ import annotations

from typing import Any

import pytest

from generator.spellings import snake_case, spelling_plan

SCHEMA: dict[str, Any] = {
    "$ref": "#/$defs/Body",
    "$defs": {
        "Free": {"type": "object", "x-open": "caller data", "properties": {}},
        "Leaf": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "args": {"$ref": "#/$defs/Free"}},
        },
        "Blob": {"type": "object", "properties": {"mimeType": {"type": "string"}}},
        "A": {
            "type": "object",
            "required": ["inlineData"],
            "properties": {"inlineData": {"$ref": "#/$defs/Blob"}},
        },
        "B": {
            "type": "object",
            "required": ["functionCall"],
            "properties": {"functionCall": {"$ref": "#/$defs/Leaf"}},
        },
        "Part": {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]},
        "Body": {
            "type": "object",
            "properties": {
                "contents": {"type": "array", "items": {"$ref": "#/$defs/Part"}},
                "systemInstruction": {"$ref": "#/$defs/Part"},
                "extra": {"$ref": "#/$defs/Free"},
            },
        },
    },
}


def test_snake_case_is_the_proto_name() -> None:
    assert [snake_case(k) for k in ("inlineData", "parametersJsonSchema", "topP", "text")] == [
        "inline_data",
        "parameters_json_schema",
        "top_p",
        "text",
    ]


def test_the_plan_walks_modelled_objects_that_hold_something_to_respell() -> None:
    plan = spelling_plan("snake_case", SCHEMA)
    objects = {obj.name: obj for obj in plan.objects}
    assert plan.root == "Body"
    # A free-form object is the caller's; a leaf with no field to respell is not walked.
    assert sorted(objects) == ["Blob", "Body", "Part"]
    assert objects["Body"].renames == {"system_instruction": "systemInstruction"}
    assert objects["Body"].children == {
        "contents": ("Part", True),
        "systemInstruction": ("Part", False),
    }
    # A union's members' fields are the union's.
    assert objects["Part"].renames == {"inline_data": "inlineData", "function_call": "functionCall"}
    assert objects["Part"].children == {"inlineData": ("Blob", False)}
    source = plan.source
    assert "def spell_Part(node: Any, at: str, given: dict[int, Any]) -> Any:" in source
    assert 'spell_each(spell_Part, x, at + "/contents", given)' in source
    compile(source, "<spellings>", "exec")


def test_a_union_whose_members_hold_two_kinds_under_one_key_fails_generation() -> None:
    schema: dict[str, Any] = {**SCHEMA, "$defs": dict(SCHEMA["$defs"])}
    schema["$defs"]["C"] = {
        "type": "object",
        "properties": {"inlineData": {"$ref": "#/$defs/Leaf"}},
    }
    schema["$defs"]["Leaf"] = {
        **schema["$defs"]["Leaf"],
        "properties": {"fileUri": {"type": "string"}},
    }
    schema["$defs"]["Part"] = {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/C"}]}
    with pytest.raises(ValueError, match="two kinds of object"):
        spelling_plan("snake_case", schema)
