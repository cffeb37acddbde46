"""generator/pairs_from_contents.py and pair_checks.content_checks: the content composer reads
its values from both mapping files and its checks from the source's reading schema, and stops
generation on a layout, template or constraint it does not know."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from generator import pairs_from_blocks, pairs_from_contents
from generator.pair_checks import CheckError
from generator.pairs import PairError
from generator.paths import SCHEMAS
from generator.reading import reading_schema
from tests.generator.mappings import data_by_format


def _mappings() -> dict[str, Any]:
    return data_by_format()


def _values(source: Any = None, target: Any = None) -> dict[str, Any]:
    mappings = _mappings()
    return pairs_from_contents.pair_values(
        source or mappings["gemini"], target or mappings["openai-chat"]
    )


def _gemini_schema() -> Any:
    strict = json.loads((SCHEMAS / "formats/gemini/request.json").read_text("utf-8"))
    return reading_schema(strict)


def test_the_composer_reads_each_key_from_the_mapping_files() -> None:
    values = _values()
    assert (values["s_messages"], values["s_role"], values["s_content"]) == (
        "contents",
        "role",
        "parts",
    )
    assert (values["s_system"], values["s_user"], values["s_assistant"]) == (
        "systemInstruction",
        "user",
        "model",
    )
    assert values["s_role_optional"] is True
    assert values["s_call"] == {"id": "id", "name": "name", "arguments": "args"}
    assert (values["s_answer"], values["s_failure"], values["s_also"]) == (
        "output",
        "error",
        "result",
    )
    assert values["s_error_field"] == "is_error"
    assert values["s_rewritten"] == "-_"  # what reading rewrites in base64 data
    assert values["s_tool"] == {
        "name": "name",
        "description": "description",
        "schema": "parametersJsonSchema",
        "openapi": "parameters",
    }
    assert values["s_modes"] == {"AUTO": "auto", "NONE": "none", "ANY": "required"}
    assert (values["s_named_mode"], values["s_names_key"]) == ("ANY", "allowedFunctionNames")
    assert ("topK", "top_k") in values["s_params"]
    assert "thinkingConfig" in values["s_param_others"]
    # the structured-output formats in the reader's order, the OpenAPI one left out
    assert [f["keys"] for f in values["s_formats"]] == [
        ["responseJsonSchema", "responseMimeType"],
        ["responseMimeType"],
        ["responseMimeType"],
    ]
    assert values["s_formats"][0]["loss"][:2] == ("/response_format/name", "placeholder_inserted")
    # written: what OpenAI Chat has no place for, the model it names when the body has none
    assert values["dropped"] == [("top_k", "p_topK")]
    assert values["t_model_default"] == "unknown"
    assert values["s_signature_loss"][0] == "thinking_not_replayable"


def test_the_gemini_schema_asks_nothing_the_content_pass_does_not_check() -> None:
    checks = _values()["checks"]
    assert checks.param_types["maxOutputTokens"] == ("int", "None")
    assert checks.item_types == {"stopSequences": ("str",)}
    assert checks.base64_pattern == checks.signature_pattern == "^[A-Za-z0-9+/_-]*={0,2}$"
    assert checks.fields.unread_types == {"cachedContent": ("str", "None")}
    assert "safetySettings" in checks.fields.unread_checked
    assert checks.group.unread_types["candidateCount"] == ("int", "None")
    # a list of type-only items: checked by the pass, no full schema check
    assert checks.group.unread_checked == frozenset()
    assert checks.group_items == {"responseModalities": ("str",)}
    assert checks.group.unread_types["responseModalities"] == ("list", "None")


def _with_schema(monkeypatch: pytest.MonkeyPatch, schema: Any) -> None:
    monkeypatch.setattr("generator.pair_checks.reading_schema", lambda _strict: schema)


@pytest.mark.parametrize(
    ("definition", "field", "keyword", "value"),
    [
        ("FunctionCall", "name", "pattern", "^[a-z]+$"),
        ("TextPart", "text", "maxLength", 10),
        ("FunctionResponse", "id", "minLength", 1),
        ("FunctionDeclaration", "description", "pattern", "^x"),
        ("FunctionCallingConfig", "mode", "enum", ["AUTO"]),
        ("SystemInstruction", "role", "pattern", "^user$"),
        ("Blob", "mimeType", "pattern", "^image/"),
    ],
)
def test_a_constraint_the_content_pass_does_not_check_stops_generation(
    monkeypatch: pytest.MonkeyPatch, definition: str, field: str, keyword: str, value: Any
) -> None:
    schema = copy.deepcopy(_gemini_schema())
    schema["$defs"][definition]["properties"][field][keyword] = value
    _with_schema(monkeypatch, schema)
    with pytest.raises(PairError, match=keyword):
        _values()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["Role"].update(enum=["user"]), "takes other values"),
        (lambda d: d["FunctionCall"]["properties"].update(args={"type": "array"}), "types"),
        (
            lambda d: d["FunctionCallPart"]["properties"]["thoughtSignature"].update(pattern="^a"),
            "two patterns",
        ),
        (lambda d: d["TextPart"]["properties"].pop("thoughtSignature"), "no signature"),
        (lambda d: d["GenerationConfig"]["properties"]["topK"].update(maximum=40), "more than"),
        (lambda d: d["GenerationConfig"]["properties"].pop("seed"), "more than a type"),
        (lambda d: d["Part"]["oneOf"].pop(0), "no part of one key 'text'"),
        (lambda d: d["Content"]["properties"].update(parts={"type": "array"}), "parts"),
        (lambda d: d["JsonSchema"].update(maxProperties=3), "maxProperties"),
        (
            lambda d: d["TextPart"]["properties"]["thoughtSignature"].update(maxLength=9),
            "a signature the pass does not check",
        ),
        (
            lambda d: d["GenerationConfig"]["properties"]["stopSequences"]["items"].update(
                maxLength=3
            ),
            "stopSequences is more than a type",
        ),
        (lambda d: d["FunctionCall"]["properties"].pop("id"), "no schema"),
        (
            lambda d: d["Content"]["properties"]["role"]["anyOf"].append({"type": "integer"}),
            "more than an enum",
        ),
        (
            lambda d: d["FunctionCall"]["properties"]["args"]["anyOf"].append(
                {"type": "object", "required": ["x"]}
            ),
            "more than a type",
        ),
        (lambda d: d["FunctionCall"].update(type="array"), "not of the types"),
    ],
)
def test_a_schema_the_content_pass_does_not_match_stops_generation(
    monkeypatch: pytest.MonkeyPatch, change: Any, message: str
) -> None:
    schema = copy.deepcopy(_gemini_schema())
    change(schema["$defs"])
    _with_schema(monkeypatch, schema)
    with pytest.raises((PairError, CheckError), match=message):
        _values()


def test_a_constraint_on_a_part_the_pass_leaves_is_no_concern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    schema = copy.deepcopy(_gemini_schema())
    schema["$defs"]["FileData"]["properties"]["fileUri"]["pattern"] = "^https://"
    schema["$defs"]["FunctionResponse"]["properties"]["willContinue"]["enum"] = [True]
    _with_schema(monkeypatch, schema)
    _values()


def test_a_member_of_a_type_the_pass_does_not_take_sends_it_two_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pass checks the type of all it reads and goes the two-step way on another: a union
    member of another type (Gemini's one tool group alone, an object where the pass takes the
    list) asks nothing of the pass."""
    schema = copy.deepcopy(_gemini_schema())
    schema["$defs"]["FunctionCall"]["properties"]["args"]["anyOf"].append({"type": "array"})
    _with_schema(monkeypatch, schema)
    _values()


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["layout"].update(result_pairing="id"),
        lambda m: m["parts"]["text"][0].update(wire={"text": "$text", "more": "$text"}),
        lambda m: m["parts"]["tool_call"][0]["wire"]["functionCall"].update(
            args={"@json_string": "$arguments"}
        ),
        lambda m: m["request"]["wire"].update(
            tools={"@grouped": [{"functionDeclarations": {"@each": ["other", "$tools"]}}, {}]}
        ),
        lambda m: m["request"]["wire"].update(
            tools={"@grouped": [{"a": {"@each": ["tool", "$tools"]}, "b": 1}, {}]}
        ),
        lambda m: m["request"]["wire"].update(tools={"@grouped": 1}),
        lambda m: m["codecs"]["tool"][0]["wire"]["@merge"].pop(1),
        lambda m: m["request"]["wire"].update(
            toolConfig={"functionCallingConfig": {"@codec": ["other", "$tool_choice"]}}
        ),
        lambda m: m["codecs"]["tool_choice"].insert(
            0,
            {
                "canonical": {"type": "auto"},
                "wire": {
                    "mode": "AUTO",
                    "allowedFunctionNames": {"@only_item": {"@tool_name": "$name"}},
                },
            },
        ),
        lambda m: m["codecs"].update(
            tool_choice=[v for v in m["codecs"]["tool_choice"] if v["canonical"]["type"] != "tool"]
        ),
        lambda m: m["layout"].update(block_tag="type"),
        lambda m: m["parts"]["text"][0].update(wire={"text": {"@trim": "$text"}}),
        lambda m: m["parts"]["tool_result"][0]["wire"]["functionResponse"].update(
            response="$content"
        ),
        lambda m: m["codecs"]["tool_choice"].append(
            {"canonical": {"type": "auto"}, "wire": {"mode": "AUTO", "other": "x"}}
        ),
        lambda m: m["codecs"]["tool_choice"].append(
            {"canonical": {"type": "auto"}, "wire": {"kind": "AUTO"}}
        ),
        lambda m: m["request"]["wire"].update(extra={"@merge": [{}]}),
        lambda m: m["codecs"]["response_format"].insert(
            0,
            {
                "canonical": {"type": "json_schema", "schema": "$schema", "name": "$name"},
                "wire": {"responseMimeType": "$name", "responseJsonSchema": "$schema"},
            },
        ),
    ],
)
def test_a_mapping_the_content_composer_does_not_read_stops_generation(change: Any) -> None:
    source = copy.deepcopy(_mappings()["gemini"])
    change(source)
    with pytest.raises(PairError):
        _values(source=source)


def test_a_block_source_is_not_a_content_source() -> None:
    mappings = _mappings()
    with pytest.raises(PairError, match="not a content source"):
        _values(source=mappings["bedrock"])
    with pytest.raises(PairError, match="no tool_choice"):
        target = copy.deepcopy(mappings["openai-chat"])
        target["codecs"]["tool_choice"] = [
            v for v in target["codecs"]["tool_choice"] if v["canonical"]["type"] != "none"
        ]
        _values(target=target)


def test_the_anthropic_pass_no_longer_lists_the_format_field_among_those_it_drops() -> None:
    """Regression: `output_config`, read by the pass since it takes structured output, stayed
    in UNREAD_CHECKED, where the pass never looks it up."""
    mappings = _mappings()
    checks = pairs_from_blocks.pair_values(mappings["anthropic"], mappings["openai-chat"])["checks"]
    assert "output_config" not in checks.fields.unread_checked
    assert "output_config" not in checks.fields.unread_types
