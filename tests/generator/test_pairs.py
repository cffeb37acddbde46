"""The pair composer (generator/pairs.py): mapping files' wire templates compiled into the
straight-line expressions a fused converter builds its output with, and a loud refusal of
what it cannot compile (never code that might differ)."""

from __future__ import annotations

import ast
import copy
from typing import Any

import pytest

from generator import pairs, pairs_from_blocks
from generator.manifest import MANIFEST
from interlingua.conversion.converter import convert
from interlingua.conversion.transforms import schemas
from interlingua.conversion.transforms.media import IMAGE_FORMAT_WORD
from interlingua.conversion.transforms.values import json_text
from interlingua.generated.pairs import PAIRS
from tests.generator.mappings import data_by_format


def mappings_by_format() -> dict[str, Any]:
    """The mappings as the passes see them (without free-form tools: the two-step path's)."""
    return {fmt: pairs.without_free_form(data) for fmt, data in data_by_format().items()}


def _value(expr: str | None, **env: Any) -> Any:
    assert expr is not None
    return eval(compile(ast.parse(expr, mode="eval"), "<wire>", "eval"), {}, env)


def test_a_wire_template_compiles_to_the_dict_it_describes() -> None:
    template = {
        "type": "image",
        "source": {"type": "base64", "media_type": {"@one_of": ["$media_type", "image/png"]}},
        "data": "$data",
        "cache_control": {"@codec": ["cache_hint", "$cache"]},  # absent in the shape: left out
        "title": "$title",
    }
    expr = pairs.wire_expr(template, {"media_type": "m", "data": "d"})
    assert _value(expr, m="image/png", d="QUJD") == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png"},
        "data": "QUJD",
    }


@pytest.mark.parametrize(
    ("template", "env", "expected"),
    [
        ({"@only_item": {"@tool_name": "$name"}}, {"name": "n"}, ["f"]),
        (
            {"@file_ref": ["mimeType", "fileUri", "image", "$media_type", "$url"]},
            {"url": "n"},
            {"fileUri": "f"},
        ),
        (
            {"@result_object": ["$content", "$structured", "$is_error", "output", "error"]},
            {"content": "n"},
            {"output": "f"},
        ),
        ({"@parts": "$content"}, {"content": "n"}, "f"),
        # Bedrock's result: the structured value is not in the shape, so only the content.
        ({"@parts": ["$content", {"json": "$structured"}]}, {"content": "n"}, "f"),
        ({"@non_empty": "$name"}, {"name": "n"}, "f"),
        ({"@or_null": "$name"}, {"name": "n"}, "f"),  # null only for a None (no value)
        ({"@default": ["$name", "response"]}, {"name": "n"}, "f"),  # given in the shape
        ({"@explicit_default": ["$name", True, False]}, {"name": "n"}, "f"),
        ({"@data_url": ["$name", "$name"]}, {"name": "n"}, "data:f;base64,f"),
        # The declaration inside, as it is (the flag and schema keys are literals).
        (
            {"@strict_by_schema": ["strict", "parameters", {"name": "$name"}]},
            {"name": "n"},
            {"name": "f"},
        ),
        ([{"a": "$name"}, {"b": "$other"}], {"name": "n"}, [{"a": "f"}, {}]),
    ],
)
def test_each_operation_the_shape_meets_compiles(
    template: Any, env: dict[str, str], expected: Any
) -> None:
    assert _value(pairs.wire_expr(template, env), n="f") == expected


@pytest.mark.parametrize(
    ("template", "env"),
    [
        # One default for both sides: written only when given, which an expression cannot say.
        ({"@explicit_default": ["$strict", True, True]}, {"strict": "s"}),
        ({"@paragraphs": ["summary_text", "$text"]}, {"text": "t"}),
        (
            {"@file_ref": ["t", "u", "image", "$media_type", "$url"]},
            {"media_type": "m", "url": "u"},
        ),
        (
            {"@result_object": ["$content", "$structured", "$e", "output"]},
            {"content": "c", "e": "e"},
        ),
    ],
)
def test_an_operation_it_cannot_compile_stops_generation(
    template: Any, env: dict[str, str]
) -> None:
    with pytest.raises(pairs.PairError):
        pairs.wire_expr(template, env)


@pytest.mark.parametrize("target", [t for s, t in pairs.PAIRS if s == "openai-chat"])
@pytest.mark.parametrize(
    "schema",
    [None, {}, {"properties": {"q": {"type": "string"}}}, {"type": "object"}],
    ids=["absent", "empty", "typeless", "typed"],
)
def test_a_tool_declaration_compiles_to_what_the_writer_gives(
    target: str, schema: dict[str, Any] | None
) -> None:
    """The fused declaration of a tool (absent schema: None) equals the two-step writer's, for
    every schema the shape takes: no schema, any object, one without `type`, one with."""
    expr, _group = pairs._tool_expr(mappings_by_format()[target], described=False)
    helpers = {f"_{name}": getattr(schemas, name) for name in pairs.schema_helpers(expr)}
    fused = eval(expr, helpers, {"name": "f", "schema": schema, "strict": None})
    tool: dict[str, Any] = {"name": "f"}
    if schema is not None:
        tool["input_schema"] = schema
    hello = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    document = {"schema_version": 1, "messages": [hello], "tools": [tool]}
    written: Any = convert(document, "canonical", target, "request").output
    for key in pairs._tools_path(mappings_by_format()[target]):  # Bedrock's sit in `toolConfig`
        written = written[key]
    assert [fused] == (written[0]["functionDeclarations"] if target == "gemini" else written)


def test_a_layout_it_does_not_compose_stops_generation() -> None:
    mappings = mappings_by_format()
    with pytest.raises(pairs.PairError, match="inline system"):
        pairs.pair_values(mappings["anthropic"], mappings["gemini"])
    target = copy.deepcopy(mappings["anthropic"])
    target["layout"]["alternate"] = False
    with pytest.raises(pairs.PairError, match="hoisted system"):
        pairs.pair_values(mappings["openai-chat"], target)
    target = copy.deepcopy(mappings["anthropic"])
    target["layout"]["system_form"] = "blocks_only"
    with pytest.raises(pairs.PairError, match="system form"):
        pairs.pair_values(mappings["openai-chat"], target)


def test_a_model_written_through_a_transform_stops_generation() -> None:
    mappings = mappings_by_format()
    target = copy.deepcopy(mappings["anthropic"])
    target["request"]["wire"]["model"] = {"@tool_name": "$model"}
    with pytest.raises(pairs.PairError, match="model"):
        pairs.pair_values(mappings["openai-chat"], target)


def test_the_values_come_from_the_two_mapping_files() -> None:
    """What the target's mapping says lands in the pair's values: renaming a wire field there
    renames it in the pair."""
    mappings = mappings_by_format()
    target = copy.deepcopy(mappings["anthropic"])
    target["request"]["wire"]["top_p"] = "$top_p"
    target["request"]["wire"]["nucleus"] = target["request"]["wire"].pop("top_p")
    values = pairs.pair_values(mappings["openai-chat"], target)
    where = {p.name: p.target for p in values["params"]}
    assert where["temperature"] == ("temperature",)
    assert where["top_p"] == ("nucleus",)
    assert where["seed"] is None  # no place in Anthropic: reported as dropped
    assert values["defaults"] == {"max_output_tokens": 4096}
    # Merged into Anthropic's tool_choice, negated.
    assert values["t_choice_merge"] == [("disable_parallel_tool_use", "parallel_tool_calls", True)]
    assert values["rf"].path == ("output_config", "format") and not values["rf"].merged
    gemini = pairs.pair_values(mappings["openai-chat"], mappings["gemini"])
    assert {p.name: p.target for p in gemini["params"]}["max_output_tokens"] == (
        "generationConfig",
        "maxOutputTokens",
    )
    assert gemini["model"] == "none" and gemini["t_tool_group"] == "functionDeclarations"
    assert "reasoning_effort" in gemini["complex_params"]  # an effort level: not composed
    assert gemini["rf"].path == ("generationConfig",) and gemini["rf"].merged
    assert set(gemini["rf"].written) == {"json_schema", "json_object", "text"}


def test_every_pair_is_generated_and_listed() -> None:
    assert sorted(PAIRS) == sorted(pairs.PAIRS)
    paths = {output.path for output in MANIFEST}
    assert "generated/python/pairs/{module}.py" in paths
    assert "generated/python/pairs/__init__.py" in paths
    assert pairs.module_name("openai-chat", "gemini") == "openai_chat_to_gemini"


def test_a_result_with_a_structured_value_stops_generation() -> None:
    with pytest.raises(pairs.PairError, match="structured"):
        pairs.wire_expr(
            {"@parts": ["$content", {"json": "$structured"}]}, {"content": "c", "structured": "s"}
        )


def test_bedrock_values_come_from_its_mapping_and_its_transforms() -> None:
    """Bedrock's layout reaches the pass as values derived from bedrock.yaml: tools and the
    choice nested in one object, no web image URL, the format words of its image transform,
    a result's text as a list of one block, a json_schema written as JSON text."""
    mappings = mappings_by_format()
    values = pairs.pair_values(mappings["openai-chat"], mappings["bedrock"])
    assert values["t_tools_path"] == ("toolConfig", "tools")
    assert values["t_tool_choice_path"] == ("toolConfig", "toolChoice")
    assert values["t_tools_for_history"] and values["t_system_form"] == "blocks"
    assert values["t_image_url"] is None  # Converse takes s3:// locations, not web URLs
    ((constant, table),) = values["t_words"].items()
    assert set(table) == set(values["t_image_kinds"]) and table["image/png"] == "png"
    for media_type, word in table.items():
        assert IMAGE_FORMAT_WORD.decode(None, word, "") == media_type
    image = _value(values["t_image_data"], media_type="image/PNG", data="QUJD", **{constant: table})
    assert image == {"image": {"format": "png", "source": {"bytes": "QUJD"}}}
    assert values["t_image_sliced"]  # Converse takes the bytes alone
    result = _value(values["t_result"], call_id="c", result_text="ok")
    assert result == {"toolResult": {"toolUseId": "c", "content": [{"text": "ok"}]}}
    rf = values["rf"]
    assert rf.path == ("outputConfig", "textFormat") and not rf.unwritten
    (expr, carried) = rf.written["json_schema"]
    assert carried == {"name", "description", "schema"}
    written = eval(expr, {"_json_text": json_text, "box": {"name": "n"}, "rf_schema": {"a": 1}})
    assert written["structure"]["jsonSchema"] == {
        "schema": '{"a":1}',
        "name": "n",
        "description": None,
    }
    assert rf.optional == {
        "json_schema": (
            ("structure", "jsonSchema", "name"),
            ("structure", "jsonSchema", "description"),
        )
    }
    # Anthropic and Gemini keep their own: the tools at the top, web URLs taken.
    for target in ("anthropic", "gemini"):
        other = pairs.pair_values(mappings["openai-chat"], mappings[target])
        assert other["t_tools_path"] == ("tools",) and other["t_image_url"] is not None
        assert not other["t_words"] and other["rf"].optional is None


def test_tools_nested_apart_from_the_tool_choice_stop_generation() -> None:
    mappings = mappings_by_format()
    target = copy.deepcopy(mappings["bedrock"])
    wire = target["request"]["wire"]
    wire["choiceConfig"] = {"toolChoice": wire["toolConfig"].pop("toolChoice")}
    with pytest.raises(pairs.PairError, match="apart"):
        pairs.pair_values(mappings["openai-chat"], target)


def test_an_explicit_default_is_written_when_the_source_gives_none() -> None:
    expr = pairs.wire_expr({"@explicit_default": ["$strict", True, False]}, {"strict": "s"})
    assert [_value(expr, s=given) for given in (None, False, True)] == [False, False, True]


def test_responses_values_come_from_its_mapping() -> None:
    """OpenAI Responses reaches the pass as values derived from openai-responses.yaml: an item
    layout, text typed by the role that writes it, a call and a result each an item of its own,
    the image's detail carried, `strict` written in the declaration, the response format under
    `text`, the system prompt one string."""
    mappings = mappings_by_format()
    values = pairs.pair_values(mappings["openai-chat"], mappings["openai-responses"])
    values.update(pairs._tool_fields(mappings["openai-responses"]))
    assert values["t_items"] and values["t_system_form"] == "string"
    assert (values["t_system_field"], values["t_messages"]) == ("instructions", "input")
    assert _value(values["t_text"], text="a") == {"type": "input_text", "text": "a"}
    assert _value(values["t_text_assistant"], text="a") == {"type": "output_text", "text": "a"}
    call = eval(
        values["t_call"],
        {"_json_text": json_text},
        {"call_id": "c", "call_name": "f", "arguments": {"a": 1}},
    )
    assert call == {"type": "function_call", "call_id": "c", "name": "f", "arguments": '{"a":1}'}
    result = _value(values["t_result"], call_id="c", result_text="ok")
    assert result == {"type": "function_call_output", "call_id": "c", "output": "ok"}
    assert values["t_image_detail"] == "detail" and values["t_developer"] == "developer"
    # The data URL the pass read the media type and the data out of goes as it came.
    url = "data:image/png;base64,QUJD"
    image = _value(values["t_image_data"], url=url, media_type="image/png", data="QUJD")
    assert image == {"type": "input_image", "image_url": url} and not values["t_image_sliced"]
    assert values["t_strict_inline"] and values["t_strict_path"] is None
    tool = _value(values["t_tool"], name="f", description="d", schema=None, strict=None)
    assert tool == {
        "type": "function",
        "name": "f",
        "description": "d",
        "parameters": None,
        "strict": False,
    }
    rf = values["rf"]
    assert rf.path == ("text", "format") and not rf.merged and not rf.unwritten
    assert set(rf.written) == {"json_schema", "json_object", "text"}
    assert rf.optional == {"json_schema": (("description",), ("strict",))}
    assert {p.name: p.target for p in values["params"]}["reasoning_effort"] == (
        "reasoning",
        "effort",
    )
    for target in ("anthropic", "gemini", "bedrock"):  # the turn layouts keep theirs
        other = pairs.pair_values(mappings["openai-chat"], mappings[target])
        assert not other["t_items"] and other["t_image_detail"] is None
        assert other["t_text"] == other["t_text_assistant"]


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t["layout"].update(hoist_roles=["system", "developer"]),
        lambda t: t["layout"].update(alternate=True),
        lambda t: t["layout"].update(tools_for_history=True),
        lambda t: t["layout"]["items"]["owners"].pop("function_call_output"),
        lambda t: t["roles"].update(developer="system"),
        lambda t: t["parts"]["tool_result"][0]["wire"].update(name="$name"),
        lambda t: t["parts"]["tool_result"][0]["wire"].update(output="$content"),
    ],
    ids=[
        "developer hoisted",
        "alternation",
        "tools for history",
        "results in messages",
        "no developer",
        "results naming their tool",
        "results not parts",
    ],
)
def test_an_item_layout_it_does_not_know_stops_generation(change: Any) -> None:
    mappings = mappings_by_format()
    target = copy.deepcopy(mappings["openai-responses"])
    change(target)
    with pytest.raises(pairs.PairError, match="item layout"):
        pairs.pair_values(mappings["openai-chat"], target)


def test_a_system_form_an_item_layout_does_not_write_stops_generation() -> None:
    mappings = mappings_by_format()
    target = copy.deepcopy(mappings["openai-responses"])
    target["layout"]["system_form"] = "blocks"
    with pytest.raises(pairs.PairError, match="system form"):
        pairs.pair_values(mappings["openai-chat"], target)


def test_image_variants_holding_detail_apart_stop_generation() -> None:
    mappings = mappings_by_format()
    target = copy.deepcopy(mappings["openai-responses"])
    wire = pairs.part_variant(target, "image", source={"type": "url"})["wire"]
    wire["fidelity"] = wire.pop("detail")
    with pytest.raises(pairs.PairError, match="detail"):
        pairs.pair_values(mappings["openai-chat"], target)


def test_a_defaulted_field_the_source_may_leave_out_is_written_the_two_step_way() -> None:
    """Responses writes a json_schema's name through `@default` (a placeholder when absent):
    the pass compiles it only because OpenAI Chat requires the name; a source that did not
    would send such bodies the two-step way."""
    mappings = mappings_by_format()
    source, target = mappings["openai-chat"], mappings["openai-responses"]
    assert "json_schema" in pairs._response_format(source, target, frozenset()).unwritten
    taken = pairs._response_format(source, target, frozenset({"name"}))
    assert "json_schema" in taken.written and not taken.unwritten


# --- the composer of pairs read from content blocks (generator/pairs_from_blocks.py) ----------


def test_each_pair_is_composed_by_the_composer_of_its_sources_layout() -> None:
    mappings = mappings_by_format()
    by_blocks = [pair for pair in pairs.PAIRS if pairs.reads_blocks(mappings[pair[0]])]
    assert by_blocks == [
        ("anthropic", "openai-chat"),
        ("bedrock", "openai-chat"),
        ("gemini", "openai-chat"),
    ]
    # (of those, a source whose turns are content objects: generator/pairs_from_contents.py)
    by_contents = [p for p in by_blocks if pairs_from_blocks.reads_contents(mappings[p[0]])]
    assert by_contents == [("gemini", "openai-chat")]
    with pytest.raises(pairs.PairError, match="not a block source"):
        pairs_from_blocks.pair_values(mappings["openai-chat"], mappings["anthropic"])


def test_a_block_pairs_values_come_from_the_two_mapping_files() -> None:
    """Renaming a key in either mapping renames it in the pass: the source's part tags and
    keys, its parameters; the target's parameter keys and part shapes."""
    mappings = mappings_by_format()
    source = copy.deepcopy(mappings["anthropic"])
    source["parts"]["tool_call"][0]["wire"]["type"] = "call"
    source["parts"]["tool_call"][0]["wire"]["arguments"] = source["parts"]["tool_call"][0][
        "wire"
    ].pop("input")
    target = copy.deepcopy(mappings["openai-chat"])
    target["request"]["wire"]["max_output"] = target["request"]["wire"].pop("max_completion_tokens")
    values = pairs_from_blocks.pair_values(source, target)
    assert values["s_call_tag"] == "call"
    assert values["s_call"] == {"id": "id", "name": "name", "arguments": "arguments"}
    assert ("top_p", "top_p") in values["s_params"]
    source["request"]["wire"]["nucleus"] = source["request"]["wire"].pop("top_p")
    with pytest.raises(pairs.PairError, match=r"no single schema at \['nucleus'\]"):
        pairs_from_blocks.pair_values(source, target)  # the schema has the last word
    assert ("max_output", "p_max_tokens") in values["envelope"]
    assert values["dropped"] == [  # no place in OpenAI Chat: reported, by name
        ("thinking_budget_tokens", "p_budget_tokens"),
        ("top_k", "p_top_k"),
    ]
    assert values["s_merged_key"] == "disable_parallel_tool_use"
    assert values["t_result_message"] == (
        "{'role': 'tool', 'tool_call_id': result_id, 'content': result_content}"
    )
    assert _value(
        values["t_call"], call_id="c", call_name="f", arguments={"a": 1}, _json_text=json_text
    ) == {
        "id": "c",
        "type": "function",
        "function": {"name": "f", "arguments": '{"a":1}'},
    }
    assert values["checks"].base64_pattern == "^[A-Za-z0-9+/]*={0,2}$"
    assert values["checks"].required == {"model", "max_tokens", "messages"}


def test_a_block_pairs_settings_and_format_come_from_the_mappings_and_the_schema() -> None:
    """Anthropic's thinking setting is a group of a tag (`type: enabled`) and a parameter; its
    structured-output format is written by OpenAI Chat's variant of the same tag, its name a
    placeholder whose loss the transform reports. Renamed in a mapping, renamed in the pass;
    a format whose keys the reading schema does not ask as the pass checks them, or that the
    target does not write, fails generation."""
    mappings = mappings_by_format()
    source, target = mappings["anthropic"], mappings["openai-chat"]
    values = pairs_from_blocks.pair_values(source, target)
    (thinking,) = [g for g in values["s_groups"] if g[0] == "thinking"]
    assert thinking[2:5] == (
        ["budget_tokens", "type"],
        ["budget_tokens", "type"],
        [("type", "enabled")],
    )
    # the reading schema's settings of the tag, the mapping's first; another holds no budget
    assert [(tag, own) for tag, _required, _fields, own in thinking[5]] == [
        ("enabled", True),
        ("disabled", False),
        ("adaptive", False),
    ]
    assert thinking[5][2][2]["types"] == {"display": ("None", "str")}
    assert values["s_words_of"] == {"effort": ["high", "low", "max", "medium", "xhigh"]}
    form = values["s_format"]
    assert (form["key"], form["inner"], form["tags"]) == (
        "output_config",
        "format",
        [("type", "json_schema")],
    )
    assert form["fields"] == [("schema", "format_schema")]
    assert form["types"] == {"schema": ("dict",)}
    assert _value(form["expr"], format_schema={"a": 1}) == {
        "type": "json_schema",
        "json_schema": {"name": "response", "schema": {"a": 1}},
    }
    assert form["loss"][:2] == ("/response_format/name", "placeholder_inserted")
    assert ("response_format", "response_format") in values["envelope"]
    renamed = copy.deepcopy(target)
    variant = renamed["codecs"]["response_format"][2]["wire"]
    variant["spec"] = variant.pop("json_schema")
    got = pairs_from_blocks.pair_values(source, renamed)["s_format"]
    assert _value(got["expr"], format_schema={})["spec"] == {"name": "response", "schema": {}}
    variant["spec"]["name"] = {"@tool_name": "$name"}
    with pytest.raises(pairs.PairError, match="a response_format the block composer"):
        pairs_from_blocks.pair_values(source, renamed)
    del renamed["codecs"]["response_format"][2]
    with pytest.raises(pairs.PairError, match="no single response_format"):
        pairs_from_blocks.pair_values(source, renamed)
    extra = copy.deepcopy(source)
    for variant in extra["codecs"]["response_format"]:
        variant["wire"]["strict"] = variant["canonical"]["strict"] = "$strict"
    with pytest.raises(pairs.PairError, match="a format whose keys the pass does not check"):
        pairs_from_blocks.pair_values(extra, target)


def test_an_untagged_block_pairs_values_come_from_the_two_mapping_files() -> None:
    """Bedrock's blocks are their one key, its parameters a group's, its image types format
    words, its result flag a constant of the variants, its model in the URL: each read from
    the mapping, and a renamed key renamed in the pass."""
    mappings = mappings_by_format()
    source = copy.deepcopy(mappings["bedrock"])
    values = pairs_from_blocks.pair_values(source, mappings["openai-chat"])
    assert (values["s_tag"], values["s_text_tag"], values["s_text_key"]) == (None, "text", "text")
    assert (values["s_call_tag"], values["s_result_tag"]) == ("toolUse", "toolResult")
    assert values["s_call"] == {"id": "toolUseId", "name": "name", "arguments": "input"}
    assert [group[:5] for group in values["s_groups"]] == [
        (
            "inferenceConfig",
            "group_0",
            ["maxTokens", "stopSequences", "temperature", "topP"],
            [],
            [],
        )
    ]
    # one setting (no tag), the mapping's: a key beside its parameters is reported dropped
    ((setting,),) = [group[5] for group in values["s_groups"]]
    assert (setting[0], setting[3]) == (None, True)
    assert values["s_format"] is None  # its schema as JSON text: the two-step path's
    assert "outputConfig" in values["s_nested"]
    assert values["s_tools_group"] == ("toolConfig", "group_1", ["tools"])
    assert (values["s_tools"], values["s_tool_choice"]) == (
        ["toolConfig", "tools"],
        ["toolConfig", "toolChoice"],
    )
    assert values["s_words"] == {
        "jpeg": "image/jpeg",
        "png": "image/png",
        "gif": "image/gif",
        "webp": "image/webp",
    }
    assert values["s_result_dropped"] == [
        # the wire values saying `is_error`'s default (`x-default: false`) last: no loss there
        ("status", "is_error", ("str", "None"), {"error": True, "success": False}, ["success"])
    ]
    assert values["s_result_json"] == "json"
    assert values["t_structured"][0] == "/structured_content"
    assert (values["s_model"], values["t_model_default"]) == (None, "unknown")
    assert values["t_model_loss"][:2] == ("/model", "placeholder_inserted")
    assert values["depth"] == {"block": 4, "tool": 3, "arguments": 6, "schema": 6, "structured": 8}
    assert (values["s_choice_key"], values["s_choices"]) == (
        "",
        {"auto": "auto", "any": "required", "tool": "tool"},
    )
    call = source["parts"]["tool_call"][0]["wire"]
    call["toolCall"] = call.pop("toolUse")
    renamed = pairs_from_blocks.pair_values(source, mappings["openai-chat"])
    assert renamed["s_call_tag"] == "toolCall"  # (the schema has no such block: not checked)


def _image_format(m: Any, value: Any) -> None:
    m["parts"]["image"][0]["wire"]["image"]["format"] = value


def _result_content(m: Any, value: Any) -> None:
    m["parts"]["tool_result"][0]["wire"]["toolResult"]["content"] = value


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["layout"].update(system_form="content"),  # a content object, not blocks
        lambda m: _image_format(m, "png"),  # no media type: a constant
        lambda m: _image_format(m, {"@image_format_word": "$media_type", "@other": 1}),
        lambda m: _result_content(m, {"@parts": ["$content", {"json": "$other"}]}),
        lambda m: m["codecs"]["tool_choice"].append({"canonical": {"type": "none"}, "wire": "x"}),
        lambda m: m["codecs"]["tool_choice"][0].update(wire={"auto": {}, "mode": "a"}),
        lambda m: m["request"]["wire"].update(tools={"@each": ["tool", "$tools"]}),
    ],
    ids=[
        "system content",
        "image type constant",
        "image type of two transforms",
        "result content",
        "string choice",
        "choice of two keys",
        "tools twice",
    ],
)
def test_an_untagged_source_the_block_composer_does_not_read_stops_generation(
    change: Any,
) -> None:
    mappings = mappings_by_format()
    source = copy.deepcopy(mappings["bedrock"])
    change(source)
    with pytest.raises(pairs.PairError):
        pairs_from_blocks.pair_values(source, mappings["openai-chat"])


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["request"]["wire"].update(model="$model"),  # no placeholder for none
        lambda m: m["parts"]["tool_result"][0]["canonical"].update(structured_content="$s"),
    ],
    ids=["model without placeholder", "structured results kept apart"],
)
def test_a_target_that_cannot_take_what_bedrock_leaves_out_stops_generation(change: Any) -> None:
    mappings = mappings_by_format()
    target = copy.deepcopy(mappings["openai-chat"])
    change(target)
    with pytest.raises(pairs.PairError):
        pairs_from_blocks.pair_values(mappings["bedrock"], target)


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["layout"].update(system="inline"),  # not a block layout
        lambda m: m["roles"].update(tool="tool"),  # results outside user turns
    ],
)
def test_a_block_source_layout_it_does_not_read_stops_generation(change: Any) -> None:
    mappings = mappings_by_format()
    source = copy.deepcopy(mappings["anthropic"])
    change(source)
    with pytest.raises(pairs.PairError):
        pairs_from_blocks.pair_values(source, mappings["openai-chat"])


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["layout"].update(alternate=True),
        lambda m: m["layout"].update(system="hoist"),
        lambda m: m["layout"].update(text_shorthand=False),
        lambda m: m["request"]["wire"].update(temperature={"generation": "$temperature"}),
        lambda m: m["codecs"].update(tool_choice=m["codecs"]["tool_choice"][:2]),
    ],
    ids=["alternating", "hoisted", "no shorthand", "nested parameter", "no required choice"],
)
def test_a_target_layout_the_block_composer_does_not_write_stops_generation(change: Any) -> None:
    mappings = mappings_by_format()
    target = copy.deepcopy(mappings["openai-chat"])
    change(target)
    with pytest.raises(pairs.PairError):
        pairs_from_blocks.pair_values(mappings["anthropic"], target)


def test_the_image_url_pattern_holds_of_each_opening_the_pass_takes_without_asking_it() -> None:
    kinds = ["image/png", "image/webp"]
    pattern = "^(https?://|data:image/[A-Za-z0-9.+-]+;base64,)"
    pairs.implied_url_pattern(pattern, kinds)  # the reading schema's: implied
    for other, why in [
        ("^(https://|data:image/[a-z]+;base64,)", "refuses 'http://'"),
        ("^(https?://|data:image/(png|gif);base64,)", "refuses 'data:image/webp;base64,'"),
        ("^(https?://.+|data:.+)$", r"looks past a match \(\$\)"),
        ("^(https?://|data:)(?!x)", r"looks past a match \(\(\?!\)"),
        (r"^(https?://|data:)\b", r"looks past a match \(\\b\)"),
    ]:
        with pytest.raises(pairs.PairError, match=why):
            pairs.implied_url_pattern(other, kinds)
    with pytest.raises(pairs.PairError, match="lower case"):
        pairs.implied_url_pattern(pattern, ["image/PNG"])


def test_a_rule_of_letters_digits_and_marks_is_checked_without_a_regex() -> None:
    assert pairs.word_rule(("a-zA-Z0-9_-", "a-zA-Z0-9_-", 64)) == ("_-", 64)
    assert pairs.word_rule(("a-zA-Z0-9_.:-", "a-zA-Z0-9_.:-", 40)) == ("_.:-", 40)
    assert pairs.word_rule(("a-zA-Z0-9_.:-", "a-zA-Z_", 64)) is None  # another first
    assert pairs.word_rule((r"\x21-\x7e", r"\x21-\x7e", 40)) is None
    assert pairs.word_rule(("a-zA-Z0-9-_", "a-zA-Z0-9-_", 8)) is None  # a range, not a mark
    assert pairs.word_rule(None) is None


# The canonical part types bound to the format that issued them (generated/python/parts.py).
BOUND = frozenset({"thinking", "redacted_thinking", "compaction"})


def test_the_blocks_a_block_pair_drops_whole_come_from_the_two_mapping_files() -> None:
    """The model's blocks the target drops whole: reasoning the source issued, which the target
    does not replay (reported `thinking_not_replayable`), and parts the target has no block
    for (a server tool's call and results: `part_dropped`); each with the keys of its template
    but those read by a codec, and what the reading schema asks of them."""
    mappings = mappings_by_format()
    source, target = copy.deepcopy(mappings["anthropic"]), mappings["openai-chat"]
    values = pairs_from_blocks.pair_values(source, target, BOUND)
    dropped = {tag: rest for tag, *rest in values["s_dropped"]}
    assert dropped["thinking"] == [
        "thinking",
        "bound",
        ["signature", "thinking", "type"],
        {"signature", "thinking"},
        {"signature": ("str",), "thinking": ("str",)},
    ]
    assert dropped["compaction"][2:4] == [["content", "encrypted_content", "type"], {"content"}]
    assert dropped["server_tool_use"] == [  # (`caller`: a codec's, the two-step path's)
        "hosted_tool_call",
        "open",
        ["id", "input", "name", "type"],
        set(),
        {},
    ]
    assert {t for t, (_p, kind, *_r) in dropped.items() if kind == "open"} >= {
        "mcp_tool_use",
        "web_search_tool_result",
        "tool_search_tool_result",
    }
    assert "text" not in dropped and "tool_use" not in dropped  # read, not dropped
    # A renamed block is dropped by its new tag; one the schema's open block does not take
    # stops generation.
    source["parts"]["hosted_tool_result"][1]["wire"]["type"] = "web_lookup_tool_result"
    renamed = pairs_from_blocks.pair_values(source, target, BOUND)
    assert "web_lookup_tool_result" in {tag for tag, *_ in renamed["s_dropped"]}
    source["parts"]["hosted_tool_call"][1]["wire"]["type"] = "server_tool_call"
    with pytest.raises(pairs.PairError, match="no open block schema takes 'server_tool_call'"):
        pairs_from_blocks.pair_values(source, target, BOUND)
    source["parts"]["hosted_tool_call"][1]["wire"]["type"] = "server_tool_use"
    # A target that replays the source's reasoning drops none of it; one with a block of
    # the part's kind writes it (neither is this pass's).
    replaying = copy.deepcopy(target)
    replaying["layout"]["replay_from"] = ["anthropic"]
    replaying["parts"]["hosted_tool_call"] = source["parts"]["hosted_tool_call"]
    kinds = {
        (t, k)
        for t, _p, k, *_ in pairs_from_blocks.pair_values(source, replaying, BOUND)["s_dropped"]
    }
    assert not {t for t, k in kinds if k == "bound"}
    assert "server_tool_call" not in {t for t, _k in kinds}


def test_a_block_pairs_reports_of_what_it_drops_are_asked_of_the_runtime() -> None:
    """The reasons of a tool reading has no home for and of a choice among no tools are what
    the two-step path's functions write (asked at generation time, not spelled twice)."""
    mappings = mappings_by_format()
    values = pairs_from_blocks.pair_values(mappings["anthropic"], mappings["openai-chat"], BOUND)
    assert values["s_no_home"] == ("anthropic: no canonical home for this ", " item; not carried")
    assert values["t_no_choice"] == (
        "/tool_choice",
        "field_dropped",
        "openai-chat: none of the tools offered goes out, so there is none to choose",
    )
    assert "defer_loading" in values["s_tool_extra"].unread_types
    assert "allowed_callers" in values["s_tool_extra"].unread_checked  # more than a type
    assert "cache_control" in values["s_tool_template"]  # a codec's: the two-step path's
    # Bedrock's tools are boxed and untagged: no tool of another kind, no key left.
    bedrock = pairs_from_blocks.pair_values(mappings["bedrock"], mappings["openai-chat"], BOUND)
    assert bedrock["s_tool_extra"] is None and bedrock["s_dropped"] == []


def test_a_block_pairs_media_in_results_come_from_the_mappings_and_the_two_step_path() -> None:
    """anthropic → openai-chat takes media and documents in or beside tool results: the
    document's keys are read from Anthropic's mapping, the file part from OpenAI Chat's, and
    the reasons of what the writer moves or drops are asked of the two-step path. A target
    whose results hold media, an untagged source (Bedrock's) or documents of another form:
    none (the two-step path's) or a failed generation."""
    mappings = mappings_by_format()
    source, target = mappings["anthropic"], mappings["openai-chat"]
    media = pairs_from_blocks.pair_values(source, target)["s_media"]
    assert (media["tag"], media["file_key"], media["pdf"], media["plain"]) == (
        "document",
        "file_id",
        "application/pdf",
        "text/plain",
    )
    assert media["not_portable"][:2] == ("/source/file_id", "file_not_portable")
    assert media["moved"].startswith("a tool result holds text only here")
    assert _value(media["t_file_data"], media_type="application/pdf", data="QQ==") == {
        "type": "file",
        "file": {"file_data": "data:application/pdf;base64,QQ=="},
    }
    assert pairs_from_blocks.pair_values(mappings["bedrock"], target)["s_media"] is None
    holding = copy.deepcopy(target)
    holding["layout"]["tool_result_parts"] = ["text", "image"]
    assert pairs_from_blocks.pair_values(source, holding)["s_media"] is None
    fewer = copy.deepcopy(source)
    fewer["parts"]["document"] = fewer["parts"]["document"][:3]  # no document by a file id
    with pytest.raises(pairs.PairError, match="documents the block composer does not read"):
        pairs_from_blocks.pair_values(fewer, target)


def test_the_schema_helpers_a_declaration_calls_are_named_exactly() -> None:
    """`_object_schema(` inside `_flat_object_schema(` is not a call of `object_schema`."""
    assert pairs.schema_helpers("_or_no_arguments(_flat_object_schema(schema))") == [
        "flat_object_schema",
        "or_no_arguments",
    ]
    assert pairs.schema_helpers("{'json': _object_schema(schema)}") == ["object_schema"]
    assert pairs.schema_helpers("{'name': name}") == []


def test_unread_defaults_are_grouped_by_the_object_holding_them() -> None:
    gemini = mappings_by_format()["gemini"]
    assert pairs.unread_defaults(gemini, "generationConfig") == {
        "generationConfig": {"candidateCount": (1,), "responseModalities": (["TEXT"],)}
    }
    chat = mappings_by_format()["openai-chat"]
    assert pairs.unread_defaults(chat, of_turns=True) == {
        "": {"n": (1,), "stream_options": ({"include_usage": True},)}
    }


def test_a_default_a_pass_cannot_leave_unreported_is_an_error() -> None:
    chat = copy.deepcopy(mappings_by_format()["openai-chat"])
    chat["request"]["defaults"] = {"stream_options.include_usage": [False]}
    with pytest.raises(pairs.PairError, match="stream_options"):
        pairs.unread_defaults(chat, of_turns=True)


def test_a_block_default_only_the_item_composer_reads_is_an_error_elsewhere() -> None:
    chat = copy.deepcopy(mappings_by_format()["openai-chat"])
    chat["parts"]["tool_call"][-1]["defaults"] = {"index": [0]}
    with pytest.raises(pairs.PairError, match="tool_call block"):
        pairs.unread_defaults(chat)
    responses = mappings_by_format()["openai-responses"]
    assert pairs.unread_defaults(responses, of_parts=True) == {}


def test_turn_defaults_only_the_chat_composer_reads_are_an_error_elsewhere() -> None:
    anthropic = copy.deepcopy(mappings_by_format()["anthropic"])
    anthropic["layout"]["turn_defaults"] = {"prefix": [False]}
    with pytest.raises(pairs.PairError, match="turn_defaults"):
        pairs.unread_defaults(anthropic)


def test_the_passes_see_no_free_form_variant() -> None:
    """A free-form tool, call, choice or result is the two-step path's: the passes compose
    the mappings without those variants (named by their canonical fields or their wire
    transforms), and every function's variant stays."""
    raw = data_by_format()
    for fmt in ("openai-chat", "openai-responses"):
        seen = pairs.without_free_form(raw[fmt])
        for section in ("parts", "codecs"):
            for name, variants in raw[fmt][section].items():
                kept = [v for v in variants if v in seen[section][name]]
                dropped = [v for v in variants if v not in kept]
                assert all("free_form" in repr(v) or "input_format" in repr(v) for v in dropped)
                assert not any("free_form" in repr(v) or "input_format" in repr(v) for v in kept)
        assert len(seen["codecs"]["tool_choice"]) == len(raw[fmt]["codecs"]["tool_choice"]) - 1
    responses = pairs.without_free_form(raw["openai-responses"])
    assert [v["wire"]["type"] for v in responses["parts"]["tool_result"]] == [
        "function_call_output"
    ]


def test_a_result_flag_at_its_canonical_default_is_no_loss_to_report() -> None:
    assert pairs_from_blocks.part_defaults("tool_result") == {"is_error": False}
    assert pairs_from_blocks.part_defaults("text") == {}
    mappings = mappings_by_format()
    values = pairs_from_blocks.pair_values(mappings["anthropic"], mappings["openai-chat"])
    # Anthropic writes the flag as it is: its default, the value itself
    assert values["s_result_dropped"] == [("is_error", "is_error", ("bool", "None"), None, [False])]


def test_a_parameter_three_levels_down_is_written_in_an_object_of_its_own_or_refused() -> None:
    """Bedrock's effort goes to Claude's `additionalModelRequestFields.output_config.effort`:
    the pass writes `output_config` as an object holding it alone, so the composer refuses a
    place beside a constant or another member (which the pass would leave out) and one deeper
    still, rather than write a body the two-step writer would not."""
    mappings = mappings_by_format()
    values = pairs.pair_values(mappings["openai-chat"], mappings["bedrock"])
    (effort,) = [p for p in values["params"] if p.name == "reasoning_effort"]
    assert effort.target == ("additionalModelRequestFields", "output_config", "effort")
    beside = copy.deepcopy(mappings["bedrock"])
    extra = beside["request"]["wire"]["additionalModelRequestFields"]
    extra["output_config"]["mode"] = "fast"
    with pytest.raises(pairs.PairError, match="beside other members"):
        pairs.pair_values(mappings["openai-chat"], beside)
    deeper = copy.deepcopy(mappings["bedrock"])
    extra = deeper["request"]["wire"]["additionalModelRequestFields"]
    extra["output_config"] = {"effort": {"level": extra["output_config"]["effort"]}}
    with pytest.raises(pairs.PairError, match="four levels down"):
        pairs.pair_values(mappings["openai-chat"], deeper)
