"""The composer of pairs whose source lays its conversation out as items
(generator/pairs_from_items.py) and the checks it folds in (generator/item_checks.py): every
key, tag and role comes from the two mapping files and the reading schema, and what it does not
know stops generation rather than generating a pass that might differ."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from generator import item_checks, pairs, pairs_from_items
from generator.manifest import MANIFEST
from generator.reading import reading_schema
from tests.generator.mappings import data_by_format


def mappings_by_format() -> dict[str, Any]:
    """The mappings as the passes see them (without free-form tools: the two-step path's)."""
    return {fmt: pairs.without_free_form(data) for fmt, data in data_by_format().items()}


def test_each_pair_is_composed_by_the_composer_of_its_sources_layout() -> None:
    mappings = mappings_by_format()
    by_items = [pair for pair in pairs.PAIRS if pairs.reads_items(mappings[pair[0]])]
    assert by_items == [("openai-responses", "openai-chat")]
    assert not pairs.reads_blocks(mappings["openai-responses"])
    with pytest.raises(pairs.PairError, match="not an item source"):
        pairs_from_items.pair_values(mappings["anthropic"], mappings["openai-chat"])
    assert "python/pair_from_items.py.j2" in [o.source for o in MANIFEST]


class _Inputs:
    """What a manifest producer reads: the adapter plans, each with its mapping's data."""

    def __init__(self, mappings: dict[str, Any]) -> None:
        self.adapter_plans = [_Plan(data) for data in mappings.values()]


class _Plan:
    def __init__(self, data: Any) -> None:
        self.mapping = _Mapping(data)


class _Mapping:
    def __init__(self, data: Any) -> None:
        self.data = data


def test_the_producer_yields_one_module_for_the_item_source() -> None:
    produced = list(pairs_from_items.pair_modules(_Inputs(mappings_by_format())))
    assert [keys for keys, _values in produced] == [{"module": "openai_responses_to_openai_chat"}]
    assert produced[0][1]["source"] == "openai-responses"


def test_an_item_pairs_values_come_from_the_two_mapping_files() -> None:
    """Renaming a key in either mapping renames it in the pass: the source's item tags and
    keys, its roles, its parameters; the target's parameter keys."""
    mappings = mappings_by_format()
    source = copy.deepcopy(mappings["openai-responses"])
    call = source["parts"]["tool_call"][0]["wire"]
    call["args"] = call.pop("arguments")
    source["parts"]["tool_result"][0]["wire"]["content"] = source["parts"]["tool_result"][0][
        "wire"
    ].pop("output")
    source["roles_in"] = {"system": "developer", "operator": "developer"}
    target = copy.deepcopy(mappings["openai-chat"])
    target["request"]["wire"]["max_output"] = target["request"]["wire"].pop("max_completion_tokens")
    values = pairs_from_items.pair_values(source, target)
    assert values["s_call_tag"] == "function_call"
    assert values["s_call"] == {"id": "call_id", "name": "name", "arguments": "args"}
    assert values["s_result"] == {"id": "call_id", "content": "content"}
    assert values["s_roles"]["operator"] == "developer"
    assert values["s_roles"]["system"] == "developer"
    assert ("max_output", "p_max_output_tokens") in values["envelope"]
    assert ("reasoning", "effort", "reasoning_effort") in values["s_nested"]
    assert values["s_rf"] == ("text", "format")
    assert values["s_message_tag"] == "message"
    assert values["s_message_constants"] == {"status": "completed"}


def test_the_checks_come_from_the_reading_schema() -> None:
    values = pairs_from_items.pair_values(*_pair())
    checks = values["checks"]
    # `input` or a stored prompt's reference (`anyOf`): the pass asks its `input` itself.
    assert checks.required == frozenset()
    assert checks.param_types["max_output_tokens"] == ("int", "None")
    assert checks.nested_types["reasoning"]["effort"] == ("str", "None")
    # A dropped list of plain values is checked by the pass, not the schema check.
    assert checks.unread_items == {"include": ("str",)}
    assert "include" not in checks.fields.unread_checked
    assert "conversation" in checks.fields.unread_checked
    assert checks.item_types["function_call"]["id"] == ("str", "None")
    assert checks.item_types["message"]["status"] == ("str", "None")
    assert checks.item_types["tool"]["strict"] == ("bool", "None")


def _pair() -> tuple[Any, Any]:
    mappings = mappings_by_format()
    return copy.deepcopy(mappings["openai-responses"]), copy.deepcopy(mappings["openai-chat"])


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["layout"].update(system_form="parts"),
        lambda m: m["layout"].update(system="inline"),
        lambda m: m["layout"]["items"]["owners"].update(function_call="user"),
        lambda m: m["codecs"]["tool"][0]["wire"]["@strict_by_schema"][2].update(
            strict={"@explicit_default": ["$strict", False, False]}
        ),
        lambda m: m["parts"]["image"][1]["wire"].update(image_url=None, url={"@web_url": "$url"}),
        lambda m: m["parts"]["tool_call"][0]["wire"].update(arguments="$arguments"),
        lambda m: m["parts"]["text"].append(
            {"canonical": {"type": "text", "text": "$text", "lang": "$lang"}, "wire": {}}
        ),
        lambda m: m["codecs"]["tool_choice"].append(
            {"canonical": {"type": "any"}, "wire": {"mode": "any", "x": "$y"}}
        ),
    ],
    ids=[
        "system as parts",
        "no hoisted system",
        "calls owned by the user",
        "strict's defaults",
        "images' URLs in two keys",
        "arguments not JSON text",
        "a text part with more",
        "a tool_choice it does not read",
    ],
)
def test_a_source_the_item_composer_does_not_read_stops_generation(change: Any) -> None:
    source, target = _pair()
    change(source)
    with pytest.raises((pairs.PairError, KeyError, ValueError)):
        pairs_from_items.pair_values(source, target)


def test_a_target_without_an_images_detail_stops_generation() -> None:
    source, target = _pair()
    for variant in target["parts"]["image"]:
        variant["wire"]["image_url"].pop("detail", None)
    with pytest.raises(pairs.PairError, match="detail"):
        pairs_from_items.pair_values(source, target)


@pytest.mark.parametrize(
    ("where", "keyword", "value"),
    [
        ("FunctionCall", "call_id", {"type": "string", "maxLength": 64}),
        ("InputText", "text", {"type": "string", "minLength": 1}),
        ("Message", "id", {"type": ["string", "null"], "pattern": "^msg_"}),
    ],
)
def test_a_schema_constraint_the_pass_does_not_check_stops_generation(
    where: str, keyword: str, value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reading schema asking more of a branch the pass takes (a length, a pattern) fails
    generation, so the pass never takes what the schema refuses."""

    def changed(strict: Any) -> Any:
        schema = reading_schema(strict)
        schema["$defs"][where]["properties"][keyword] = value
        return schema

    monkeypatch.setattr(item_checks, "reading_schema", changed)
    with pytest.raises(pairs.PairError, match="does not check"):
        pairs_from_items.pair_values(*_pair())


def test_a_schema_constraint_of_a_branch_the_pass_leaves_does_not_stop_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A constraint on an item of a kind the pass leaves (a hosted tool's call: its branch is
    the two-step path's) is no concern."""

    def changed(strict: Any) -> Any:
        schema = reading_schema(strict)
        schema["$defs"]["OtherItem"]["properties"]["id"] = {"type": "string", "pattern": "^ws_"}
        return schema

    monkeypatch.setattr(item_checks, "reading_schema", changed)
    assert pairs_from_items.pair_values(*_pair())["checks"].required == frozenset()


def test_an_image_url_pattern_other_than_the_one_the_pass_checks_stops_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def changed(strict: Any) -> Any:
        schema = reading_schema(strict)
        schema["$defs"]["InputImage"]["properties"]["image_url"]["pattern"] = "^https://"
        return schema

    monkeypatch.setattr(item_checks, "reading_schema", changed)
    with pytest.raises(pairs.PairError, match="pattern"):
        pairs_from_items.pair_values(*_pair())


def test_an_item_kind_the_schema_has_no_branch_for_stops_generation() -> None:
    source, target = _pair()
    call = source["parts"]["tool_call"][0]["wire"]
    source["layout"]["items"]["owners"]["call"] = "assistant"
    call["type"] = "call"
    with pytest.raises(pairs.PairError, match="no schema for the call item"):
        pairs_from_items.pair_values(source, target)


def _without_named_choice(m: Any) -> None:
    m["codecs"]["tool_choice"] = [
        v
        for v in m["codecs"]["tool_choice"]
        if v["wire"] != {"type": "function", "name": {"@tool_name": "$name"}}
    ]


def _reasoning_first(m: Any) -> None:
    wire = m["request"]["wire"]
    m["request"]["wire"] = {"reasoning": wire.pop("reasoning"), **wire}


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["parts"]["image"][1]["wire"].update(image_url="$url"),
        lambda m: m["codecs"]["tool"][0]["wire"]["@strict_by_schema"].__setitem__(0, "flag"),
        _without_named_choice,
        lambda m: m["codecs"]["response_format"][1].update(wire={"type": "json_object", "x": "$x"}),
        lambda m: m["request"]["wire"].pop("tool_choice"),
        _reasoning_first,
        lambda m: m["codecs"]["response_format"].append(
            {"canonical": {"type": "grammar", "text": "$g"}, "wire": {"type": "grammar", "g": "$g"}}
        ),
        lambda m: m["codecs"]["response_format"].pop(),
    ],
    ids=[
        "a web image without @web_url",
        "strictness read from another key",
        "no named tool_choice",
        "a JSON response_format with a field",
        "no tool_choice in the request",
        "a setting read before the structured output",
        "a response_format the target does not have",
        "no json_schema response_format",
    ],
)
def test_more_sources_the_item_composer_does_not_read_stop_generation(change: Any) -> None:
    source, target = _pair()
    change(source)
    with pytest.raises(pairs.PairError):
        pairs_from_items.pair_values(source, target)


def test_a_target_without_a_tool_choice_the_source_has_stops_generation() -> None:
    source, target = _pair()
    target["codecs"]["tool_choice"] = [
        v for v in target["codecs"]["tool_choice"] if v["canonical"]["type"] != "required"
    ]
    with pytest.raises(pairs.PairError, match="no tool_choice for"):
        pairs_from_items.pair_values(source, target)


@pytest.mark.parametrize("where", ["max_output_tokens", "reasoning"])
def test_a_parameter_whose_schema_is_more_than_a_type_stops_generation(
    where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def changed(strict: Any) -> Any:
        schema = reading_schema(strict)
        properties = schema["$defs"]["ResponsesRequest"]["properties"]
        # A union with a constant: structure the pass walks, yet more than a type.
        if where == "reasoning":
            schema["$defs"]["ReasoningConfig"]["properties"]["effort"] = {
                "anyOf": [{"type": "string"}, {"const": 1}]
            }
        else:
            properties[where] = {"anyOf": [{"type": "integer"}, {"const": "max"}]}
        return schema

    monkeypatch.setattr(item_checks, "reading_schema", changed)
    with pytest.raises(pairs.PairError, match="more than a type"):
        pairs_from_items.pair_values(*_pair())


def test_a_request_field_read_otherwise_is_left_to_the_two_step_path() -> None:
    source, target = _pair()
    source["request"]["wire"]["store"] = {"@codec": ["storage", "$store"]}
    assert "store" in pairs_from_items.pair_values(source, target)["s_other"]


def test_a_schema_constraint_on_the_reasoning_item_stops_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pass takes reasoning items: a constraint it does not check there fails generation."""

    def changed(strict: Any) -> Any:
        schema = reading_schema(strict)
        schema["$defs"]["Reasoning"]["properties"]["id"] = {"type": "string", "pattern": "^rs_"}
        return schema

    monkeypatch.setattr(item_checks, "reading_schema", changed)
    with pytest.raises(pairs.PairError, match="pattern"):
        pairs_from_items.pair_values(*_pair())
