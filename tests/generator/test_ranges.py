"""generator/ranges.py: where a format's wire schema bounds a request parameter more narrowly
than the canonical schema, read from the schema itself."""

from __future__ import annotations

import json

from generator.paths import SCHEMAS
from generator.ranges import Below, Range, below_rules, narrower_ranges, ranges_by_parameter
from tests.generator.mappings import mapping_data


def test_each_formats_narrower_ranges_are_its_schemas() -> None:
    assert ranges_by_parameter(mapping_data("anthropic")) == {
        "temperature": Range("temperature", "temperature", maximum=1),
        "thinking_budget_tokens": Range("thinking_budget_tokens", "budget", minimum=1024),
    }
    assert ranges_by_parameter(mapping_data("openai-chat")) == {
        "stop_sequences": Range("stop_sequences", "stop", max_items=4, nonempty=True)
    }
    assert ranges_by_parameter(mapping_data("bedrock"))["stop_sequences"].max_items == 4
    assert ranges_by_parameter(mapping_data("gemini"))["stop_sequences"].max_items == 5
    # The same range as the canonical one is no narrower: Gemini's temperature (0 to 2).
    assert "temperature" not in ranges_by_parameter(mapping_data("gemini"))
    assert ranges_by_parameter(mapping_data("openai-responses")) == {}


def test_a_bound_the_canonical_schema_already_has_is_not_repeated() -> None:
    envelope = json.loads((SCHEMAS / "v1" / "envelope.json").read_text(encoding="utf-8"))
    canonical = envelope["$defs"]["GenerationParameters"]["properties"]
    canonical["temperature"] = {"type": "number", "minimum": 0, "maximum": 1}
    assert narrower_ranges(mapping_data("anthropic"), canonical) == [
        Range("thinking_budget_tokens", "budget", minimum=1024)
    ]


def test_below_rules_know_the_limits_placeholder_and_the_minimum() -> None:
    anthropic = mapping_data("anthropic")
    assert below_rules(anthropic, ranges_by_parameter(anthropic)) == [
        Below("thinking_budget_tokens", "budget", "max_output_tokens", "max_tokens", 4096, 1024)
    ]
    chat = mapping_data("openai-chat")
    assert below_rules(chat, ranges_by_parameter(chat)) == []
