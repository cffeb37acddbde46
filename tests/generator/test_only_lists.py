"""Word lists (IL021: `@only` and the level transforms' lists) and how the pair composers take
them: a list names exactly the words the canonical parameter and the format's wire schema both
take, and a fused pass carries only the words both of its formats' `@only` lists name."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from generator.only_lists import check_only_lists, lint_only_lists, wire_schema_at, word_lists
from generator.pairs import only_words, target_paths
from generator.paths import SCHEMAS
from tests.generator.mappings import data_by_format

MAPPINGS = data_by_format()
CANONICAL = json.loads((SCHEMAS / "v1" / "envelope.json").read_text(encoding="utf-8"))["$defs"][
    "GenerationParameters"
]


def _wire(fmt: str) -> Any:
    document = MAPPINGS[fmt]["documents"]["request"]
    return json.loads((SCHEMAS / document).read_text(encoding="utf-8"))


def _with_list(fmt: str, words: str) -> Any:
    mapping = copy.deepcopy(MAPPINGS[fmt])
    if fmt == "anthropic":
        mapping["request"]["wire"]["output_config"]["effort"] = {"@only": ["$effort", words]}
    else:
        mapping["request"]["wire"]["reasoning_effort"] = {"@only": ["$reasoning_effort", words]}
    return mapping


def _problems(fmt: str, words: str) -> list[str]:
    found = check_only_lists(fmt, _with_list(fmt, words), _wire(fmt), CANONICAL, "here")
    assert {f.id for f in found} <= {"IL021"}
    return [f.message for f in found]


def test_the_shipped_lists_are_exactly_what_both_sides_take() -> None:
    assert lint_only_lists(SCHEMAS, sorted(MAPPINGS.items())) == []


def test_the_canonical_ladder_runs_from_none_to_max() -> None:
    assert CANONICAL["properties"]["reasoning_effort"]["enum"] == [
        "none",
        "minimal",
        "low",
        "medium",
        "high",
        "xhigh",
        "max",
    ]


@pytest.mark.parametrize(
    ("fmt", "words", "problem"),
    [
        ("anthropic", "minimal low medium high xhigh max", "anthropic's wire schema refuses"),
        ("anthropic", "low medium high xhigh", "'max', which anthropic and the canonical"),
        ("anthropic", "low medium high xhigh max ultra", "'ultra' is not a canonical"),
        ("openai-chat", "none minimal low medium high xhigh max ultra", "'ultra' is not a"),
    ],
)
def test_a_list_naming_a_word_one_side_refuses_or_leaving_out_one_both_take_fails(
    fmt: str, words: str, problem: str
) -> None:
    assert any(problem in message for message in _problems(fmt, words))


def test_a_wire_schema_taking_any_word_leaves_the_list_to_the_providers_rungs() -> None:
    assert _problems("openai-chat", "low medium high") == []


def test_a_list_at_a_place_the_wire_schema_lacks_fails() -> None:
    mapping = copy.deepcopy(MAPPINGS["anthropic"])
    mapping["request"]["wire"]["nowhere"] = {"@only": ["$effort", "low"]}
    found = check_only_lists("anthropic", mapping, _wire("anthropic"), CANONICAL, "here")
    assert [f.message for f in found] == ["anthropic has no such request field"]
    assert wire_schema_at(_wire("anthropic"), ("output_config", "effort")) is not None
    # Under free-form JSON any field is one (Bedrock's model fields); under an object that
    # models some of its fields (Anthropic's top level takes others) an unmodelled one is not.
    bedrock = _wire("bedrock")
    assert wire_schema_at(bedrock, ("additionalModelRequestFields", "output_config", "x")) == {}
    assert wire_schema_at(_wire("anthropic"), ("nowhere", "x")) is None


def test_a_pass_carries_the_words_both_lists_name_and_writes_them_where_the_target_does() -> None:
    chat, anthropic = MAPPINGS["openai-chat"], MAPPINGS["anthropic"]
    assert only_words(chat, anthropic) == {
        "reasoning_effort": frozenset({"low", "medium", "high", "xhigh", "max"})
    }
    assert only_words(MAPPINGS["ollama"]) == {}  # a target with no list: the source's words
    assert only_words(chat, MAPPINGS["ollama"])["reasoning_effort"] == frozenset(
        CANONICAL["properties"]["reasoning_effort"]["enum"]
    )
    assert target_paths(anthropic)[0]["reasoning_effort"] == ("output_config", "effort")
    # Bedrock: Claude's own field, in the model's fields Converse passes through.
    assert only_words(chat, MAPPINGS["bedrock"]) == only_words(chat, anthropic)
    assert target_paths(MAPPINGS["bedrock"])[0]["reasoning_effort"] == (
        "additionalModelRequestFields",
        "output_config",
        "effort",
    )
    assert target_paths(MAPPINGS["openai-responses"])[0]["reasoning_effort"] == (
        "reasoning",
        "effort",
    )


def test_a_list_of_a_variable_that_is_no_parameter_fails() -> None:
    mapping = copy.deepcopy(MAPPINGS["anthropic"])
    mapping["request"]["wire"]["output_config"]["effort"] = {"@only": ["$nothing", "low"]}
    found = check_only_lists("anthropic", mapping, _wire("anthropic"), CANONICAL, "here")
    assert [f.message for f in found] == ["$nothing is not a parameter"]


def _with_levels(fmt: str, words: str) -> Any:
    """The mapping with its level transform's list replaced (Gemini's `@effort_level`, inside
    a `@merge`; Ollama's `@effort_or_switch`)."""
    mapping = copy.deepcopy(MAPPINGS[fmt])
    if fmt == "gemini":
        config = mapping["request"]["wire"]["generationConfig"]["@merge"][0]["thinkingConfig"]
        config["thinkingLevel"] = {"@effort_level": ["$effort", "$budget", words]}
    else:
        mapping["request"]["wire"]["think"] = {"@effort_or_switch": ["$effort", words]}
    return mapping


def test_the_level_lists_are_found_where_the_wire_schema_has_their_field() -> None:
    found = {
        fmt: [
            (path, transform, words)
            for path, transform, _var, words in word_lists(m["request"]["wire"])
        ]
        for fmt, m in (("gemini", MAPPINGS["gemini"]), ("ollama", MAPPINGS["ollama"]))
    }
    assert found == {
        "gemini": [
            (
                ("generationConfig", "thinkingConfig", "thinkingLevel"),
                "effort_level",
                {"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH"},
            ),
            (
                ("generationConfig", "thinkingConfig", "includeThoughts"),
                "word_table",
                {"auto": True, "none": False},
            ),
        ],
        "ollama": [
            (("think",), "effort_or_switch", {"low": "low", "medium": "medium", "high": "high"})
        ],
    }


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ("auto=true none=false short=true", "'short' is not a canonical reasoning_summary"),
        ("auto=yes none=false", "gemini's wire schema refuses 'yes'"),
    ],
)
def test_a_word_table_is_held_to_the_canonical_words_and_the_wire_schema(
    table: str, problem: str
) -> None:
    mapping = copy.deepcopy(MAPPINGS["gemini"])
    config = mapping["request"]["wire"]["generationConfig"]["@merge"][0]["thinkingConfig"]
    config["includeThoughts"] = {"@word_table": ["$summary", table]}
    found = check_only_lists("gemini", mapping, _wire("gemini"), CANONICAL, "here")
    assert [f.message for f in found] == [problem]


@pytest.mark.parametrize(
    ("fmt", "words", "problem"),
    [
        ("gemini", "minimal low medium high ultra", "'ultra' is not a canonical reasoning_effort"),
        ("ollama", "low high", "'medium', which ollama and the canonical"),
        ("ollama", "minimal low medium high", "ollama's wire schema refuses 'minimal'"),
    ],
)
def test_a_level_list_is_held_to_the_same_rules(fmt: str, words: str, problem: str) -> None:
    found = check_only_lists(fmt, _with_levels(fmt, words), _wire(fmt), CANONICAL, "here")
    assert any(problem in f.message for f in found), [f.message for f in found]


def test_a_level_list_is_checked_as_the_transform_spells_it() -> None:
    # Gemini's level is any non-empty word: `none` in capitals is one, so only the ladder
    # decides; a pass composer takes no words of a level list (the passes send levels the two-step way).
    assert (
        check_only_lists(
            "gemini", _with_levels("gemini", "none high"), _wire("gemini"), CANONICAL, "here"
        )
        == []
    )
    assert only_words(MAPPINGS["gemini"]) == {}
