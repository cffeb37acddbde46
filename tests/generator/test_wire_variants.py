"""generator/wire_variants.py: the keys each tagged variant takes, read from a wire schema."""

from __future__ import annotations

from generator.wire_variants import closed_variants, merge_refused, refused


def test_anthropic_tool_choice_none_takes_only_its_tag() -> None:
    found = closed_variants("anthropic", "tool_choice")
    assert found is not None
    tag_key, closed = found
    assert tag_key == "type"
    assert closed["none"] == frozenset({"type"})
    assert "disable_parallel_tool_use" in closed["auto"]
    assert refused("anthropic", "tool_choice", "disable_parallel_tool_use") == ("type", ["none"])
    assert refused("anthropic", "tool_choice", "type") == ("type", [])


def test_a_schema_that_does_not_say_refuses_nothing() -> None:
    assert closed_variants("no-such-format", "tool_choice") is None
    assert closed_variants("anthropic", "model") is None  # not a oneOf
    assert closed_variants("anthropic", "no_such_key") is None
    assert refused("no-such-format", "tool_choice", "x") == ("type", [])


def test_merge_refused_names_the_codec_and_the_merged_key() -> None:
    wire = {
        "model": "$model",
        "tool_choice": {
            "@merge": [
                {"@codec": ["tool_choice", "$tool_choice"]},
                {"disable_parallel_tool_use": {"@negate": "$parallel_tool_calls"}},
                {"type": "auto"},
            ]
        },
        "other": {"@merge": [{"a": "$a"}, {"b": "$b"}]},  # no codec first: nothing to check
    }
    assert merge_refused("anthropic", wire) == {
        "tool_choice": ("type", {"disable_parallel_tool_use": ["none"]})
    }
    assert merge_refused("gemini", wire) == {}
