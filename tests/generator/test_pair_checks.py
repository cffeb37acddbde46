"""generator/pair_checks.py: what a fused pass checks in place of its source's reading schema,
and the loud failure when the schema asks more of the pass's shape than it checks."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from generator.pair_checks import (
    UNTAGGED,
    BlockPaths,
    CheckError,
    Step,
    block_checks,
    schema_at,
    schema_checks,
    tool_extras,
)
from generator.paths import SCHEMAS
from generator.reading import reading_schema

READ = ["model", "messages", "tools", "tool_choice", "response_format", "temperature", "stop"]
PARAMS = {"temperature": False, "stop": True}
TAKEN = {"role": {"user", "assistant", "tool", "system"}, "type": {"text", "image_url", "function"}}


def _schema() -> Any:
    strict = json.loads((SCHEMAS / "formats/openai-chat/request.json").read_text("utf-8"))
    return reading_schema(strict)


def test_the_openai_chat_schema_asks_nothing_the_pass_does_not_check() -> None:
    checks = schema_checks("openai-chat", _schema(), READ, PARAMS, TAKEN)
    assert checks.param_types == {"temperature": ("int", "float", "None"), "stop": ("None", "str")}
    assert checks.listed_item_types == {"stop": ("str",)}
    assert checks.unread_types["stream"] == ("bool", "None")
    assert "metadata" in checks.unread_checked  # an object: the full check runs
    assert checks.image_url_pattern.startswith("^(https?://")
    assert checks.rf_required == {"name"}


@pytest.mark.parametrize(
    ("definition", "field", "keyword", "value"),
    [
        ("TextPart", "text", "minLength", 1),
        ("FunctionCallArguments", "name", "pattern", "^[a-z]+$"),
        ("ToolMessage", "tool_call_id", "maxLength", 40),
    ],
)
def test_a_constraint_on_a_branch_the_pass_takes_fails_generation(
    definition: str, field: str, keyword: str, value: Any
) -> None:
    schema = copy.deepcopy(_schema())
    schema["$defs"][definition]["properties"][field][keyword] = value
    with pytest.raises(CheckError, match=f"`{keyword}` at {definition}.{field}"):
        schema_checks("openai-chat", schema, READ, PARAMS, TAKEN)


def test_a_constraint_on_a_branch_the_pass_leaves_to_the_two_step_path_is_no_concern() -> None:
    schema = copy.deepcopy(_schema())
    schema["$defs"]["InputAudio"]["properties"]["format"]["enum"] = ["wav", "mp3"]
    schema["$defs"]["RefusalPart"]["properties"]["refusal"]["minLength"] = 1
    schema_checks("openai-chat", schema, READ, PARAMS, TAKEN)


def test_a_parameter_bounded_or_more_than_a_type_fails_generation() -> None:
    schema = copy.deepcopy(_schema())
    request = schema["$defs"]["ChatCompletionRequest"]["properties"]
    request["temperature"] = {"type": ["number", "null"], "maximum": 2}
    with pytest.raises(CheckError, match="`maximum` at temperature"):
        schema_checks("openai-chat", schema, READ, PARAMS, TAKEN)
    request["temperature"] = {"type": "object", "properties": {"low": {"type": "number"}}}
    with pytest.raises(CheckError, match="temperature is more than a type"):
        schema_checks("openai-chat", schema, READ, PARAMS, TAKEN)


def _anthropic_schema() -> Any:
    strict = json.loads((SCHEMAS / "formats/anthropic/request.json").read_text("utf-8"))
    return reading_schema(strict)


BLOCK_READ = ["model", "messages", "system", "tools", "tool_choice", "max_tokens", "top_k"]
BLOCK_TAKEN = {"role": {"user", "assistant"}, "type": {"text", "image", "base64", "tool_use"}}
_USER: list[Step] = ["messages", "[]", ("role", "user"), "content", "[]"]
BLOCK_PATHS = BlockPaths(
    image_data=[*_USER, ("type", "image"), "source", ("type", "base64"), "data"],
    tool_schema=["tools", "[]", "input_schema"],
    result=[*_USER, ("type", "tool_result")],
)


def test_the_anthropic_schema_asks_nothing_the_block_pass_does_not_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("generator.pair_checks.reading_schema", lambda _strict: _anthropic_schema())
    checks = block_checks(
        {"format": "anthropic", "documents": {"request": "formats/anthropic/request.json"}},
        BLOCK_READ,
        [("max_tokens",), ("top_k",), ("stop_sequences",)],
        BLOCK_TAKEN,
        BLOCK_PATHS,
    )
    assert checks.param_types["max_tokens"] == ("int",)
    assert checks.param_types["stop_sequences"] == ("list", "None")
    assert checks.item_types == {"stop_sequences": ("str",)}
    assert checks.fields.unread_types["stream"] == ("bool", "None")
    assert "metadata" in checks.fields.unread_checked  # an object: the full check runs
    assert checks.tool_schema["type"] == (("str",), (), "object")
    assert checks.tool_schema["required"] == (("list", "None"), ("str",), None)


@pytest.mark.parametrize(
    ("definition", "field", "keyword", "value"),
    [
        ("TextBlock", "text", "minLength", 1),
        ("ToolUseBlock", "id", "pattern", "^[a-z]+$"),
        ("UrlSource", "url", "pattern", "^https://"),
    ],
)
def test_a_constraint_the_block_pass_does_not_check_stops_generation(
    monkeypatch: pytest.MonkeyPatch, definition: str, field: str, keyword: str, value: Any
) -> None:
    schema = copy.deepcopy(_anthropic_schema())
    schema["$defs"][definition]["properties"][field][keyword] = value
    monkeypatch.setattr("generator.pair_checks.reading_schema", lambda _strict: schema)
    with pytest.raises(CheckError, match=keyword):
        block_checks(
            {"format": "anthropic", "documents": {"request": "formats/anthropic/request.json"}},
            BLOCK_READ,
            [],
            BLOCK_TAKEN | {"type": BLOCK_TAKEN["type"] | {"url"}},
            BLOCK_PATHS,
        )


# --- Bedrock: untagged blocks (a block is its one key), parameters in a group ----------------


def _bedrock_schema() -> Any:
    strict = json.loads((SCHEMAS / "formats/bedrock/request.json").read_text("utf-8"))
    return reading_schema(strict)


_BEDROCK = {"format": "bedrock", "documents": {"request": "formats/bedrock/request.json"}}
_BEDROCK_USER: list[Step] = ["messages", "[]", ("role", "user"), "content", "[]"]
BEDROCK_READ = ["messages", "system", "toolConfig", "inferenceConfig"]
BEDROCK_TAKEN = {
    "role": {"user", "assistant"},
    UNTAGGED: {"text", "image", "bytes", "source", "toolUse", "toolResult", "json", "toolSpec"},
}
BEDROCK_PATHS = BlockPaths(
    image_data=[*_BEDROCK_USER, "image", "source", "bytes"],
    tool_schema=["toolConfig", "tools", "[]", "toolSpec", "inputSchema", "json"],
    result=[*_BEDROCK_USER, "toolResult"],
)


def test_the_bedrock_schema_asks_nothing_the_block_pass_does_not_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("generator.pair_checks.reading_schema", lambda _strict: _bedrock_schema())
    params = [("inferenceConfig", "maxTokens"), ("inferenceConfig", "stopSequences")]
    checks = block_checks(_BEDROCK, BEDROCK_READ, params, BEDROCK_TAKEN, BEDROCK_PATHS)
    assert checks.param_types == {"maxTokens": ("int", "None"), "stopSequences": ("list", "None")}
    assert checks.item_types == {"stopSequences": ("str",)}
    assert checks.required == frozenset()  # the model is in the URL: nothing is required
    assert checks.group_required == {"inferenceConfig": frozenset(), "toolConfig": {"tools"}}
    assert checks.base64_pattern == "^[A-Za-z0-9+/]*={0,2}$"
    assert checks.tool_schema["type"] == (("str",), (), "object")
    assert checks.result_fields["status"] == (("str", "None"), (), None)
    assert "guardrailConfig" in checks.fields.unread_checked


def test_a_constraint_on_an_untagged_block_the_pass_takes_stops_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    schema = copy.deepcopy(_bedrock_schema())
    schema["$defs"]["ToolUse"]["properties"]["name"]["pattern"] = "^[a-z]+$"
    monkeypatch.setattr("generator.pair_checks.reading_schema", lambda _strict: schema)
    with pytest.raises(CheckError, match=r"`pattern` at ToolUse\.name"):
        block_checks(_BEDROCK, BEDROCK_READ, [], BEDROCK_TAKEN, BEDROCK_PATHS)


def test_a_constraint_on_an_untagged_block_the_pass_leaves_is_no_concern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    schema = copy.deepcopy(_bedrock_schema())
    schema["$defs"]["S3Location"]["properties"]["uri"]["pattern"] = "^s3://"  # images by S3
    schema["$defs"]["CachePoint"]["properties"]["ttl"]["pattern"] = "^[0-9]+[mh]$"
    monkeypatch.setattr("generator.pair_checks.reading_schema", lambda _strict: schema)
    block_checks(_BEDROCK, BEDROCK_READ, [], BEDROCK_TAKEN, BEDROCK_PATHS)


def test_a_walk_through_the_schema_finds_one_member_of_each_union_or_fails() -> None:
    schema = _bedrock_schema()
    defs = schema["$defs"]
    assert schema_at(defs, schema, BEDROCK_PATHS.image_data)[0] == "BytesSource.bytes"
    assert schema_at(defs, schema, BEDROCK_PATHS.result)[0] == "ToolResultBlock.toolResult"
    with pytest.raises(CheckError, match="no single schema"):
        schema_at(defs, schema, ["messages", "[]", "content"])  # a user's or the model's
    with pytest.raises(CheckError, match="no single schema"):
        schema_at(defs, schema, ["messages", "[]", ("role", "system")])


_ASSISTANT: list[Step] = ["messages", "[]", ("role", "assistant"), "content", "[]", ("type", "")]
DROPPING_PATHS = BlockPaths(
    image_data=BLOCK_PATHS.image_data,
    tool_schema=BLOCK_PATHS.tool_schema,
    result=BLOCK_PATHS.result,
    assistant_block=_ASSISTANT,
    dropped_checked={"thinking": frozenset({"type", "thinking", "signature"})},
    dropped_open=("server_tool_use", "web_search_tool_result"),
    tool_keys=frozenset({"type", "name", "description", "input_schema", "strict", "cache_control"}),
)


def _dropping_checks(monkeypatch: pytest.MonkeyPatch, schema: Any, paths: BlockPaths) -> Any:
    monkeypatch.setattr("generator.pair_checks.reading_schema", lambda _strict: schema)
    return block_checks(
        {"format": "anthropic", "documents": {"request": "formats/anthropic/request.json"}},
        BLOCK_READ,
        [],
        BLOCK_TAKEN,
        paths,
    )


def test_the_blocks_a_pass_drops_are_checked_as_the_schema_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checks = _dropping_checks(monkeypatch, _anthropic_schema(), DROPPING_PATHS)
    assert checks.dropped["thinking"] == (
        {"thinking", "signature"},
        {"signature": ("str",), "thinking": ("str",)},
    )
    assert checks.dropped["server_tool_use"] == (frozenset(), {})  # any object of its tag
    assert checks.tool_extra is not None
    assert checks.tool_extra.unread_types["defer_loading"] == ("bool", "None")
    assert "input_examples" in checks.tool_extra.unread_checked


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["ThinkingBlock"]["properties"]["signature"].update(minLength=1), "more than"),
        (lambda d: d["ThinkingBlock"]["required"].append("extra"), "keys the pass"),
        (lambda d: d["ThinkingBlock"].update(additionalProperties=False), "additionalProperties"),
        (
            lambda d: d["ServerToolBlock"]["properties"]["type"].update(pattern="^server_.*$"),
            "no open block schema takes 'web_search_tool_result'",
        ),
    ],
)
def test_a_dropped_block_the_schema_asks_more_of_stops_generation(
    monkeypatch: pytest.MonkeyPatch, change: Any, message: str
) -> None:
    schema = copy.deepcopy(_anthropic_schema())
    change(schema["$defs"])
    with pytest.raises(CheckError, match=message):
        _dropping_checks(monkeypatch, schema, DROPPING_PATHS)


def test_a_tool_schema_refusing_other_keys_takes_no_key_reading_leaves() -> None:
    schema = copy.deepcopy(_anthropic_schema())
    defs = schema["$defs"]
    assert tool_extras("anthropic", defs, schema, DROPPING_PATHS) is not None
    assert tool_extras("anthropic", defs, schema, BLOCK_PATHS) is None  # (none asked)
    defs["CustomTool"]["additionalProperties"] = False
    assert tool_extras("anthropic", defs, schema, DROPPING_PATHS) is None
    defs["ServerTool"]["properties"]["input_schema"] = {"type": "object"}
    with pytest.raises(CheckError, match="no single schema of a tool"):
        tool_extras("anthropic", defs, schema, DROPPING_PATHS)
