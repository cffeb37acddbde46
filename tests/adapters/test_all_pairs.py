"""One rich conversation through every ordered pair of formats (issue 4's proof): each hop,
canonical → A → canonical → B → canonical → A → canonical, either changes nothing or changes
only what a loss it reported names (see `check_round_trip`)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert
from interlingua.documents.validation import validate
from interlingua.generated.adapters import ADAPTERS
from tests.adapters.strict import problems
from tests.adapters.test_properties import check_round_trip

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

# System and developer prompts, an image, reasoning with its signature, parallel tool calls and
# their results (one an error), a refusal, and a last user turn.
RICH: dict[str, Any] = {
    "schema_version": 1,
    "model": "m",
    "parameters": {"max_output_tokens": 512},
    "messages": [
        {"role": "system", "content": [{"type": "text", "text": "You plan trips."}]},
        {"role": "developer", "content": [{"type": "text", "text": "Answer in English."}]},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather where this was taken, and the local time?"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                {
                    "type": "thinking",
                    "text": "Two lookups, in parallel.",
                    "signature": "EqQBCgIYAhIM",
                    "origin": {"format": "anthropic", "model": "m"},
                },
                {"type": "text", "text": "Checking both."},
                {
                    "type": "tool_call",
                    "id": "call_1",
                    "name": "get_weather",
                    "arguments": {"city": "Paris"},
                },
                {
                    "type": "tool_call",
                    "id": "call_2",
                    "name": "get_time",
                    "arguments": {"tz": "Europe/Paris"},
                },
            ],
        },
        {
            "role": "tool",
            "content": [
                {
                    "type": "tool_result",
                    "tool_call_id": "call_1",
                    "content": [{"type": "text", "text": "18C"}],
                },
                {
                    "type": "tool_result",
                    "tool_call_id": "call_2",
                    "content": [{"type": "text", "text": "clock unavailable"}],
                    "is_error": True,
                },
            ],
        },
        {
            "role": "assistant",
            "content": [{"type": "refusal", "text": "I can't share your location."}],
        },
        {"role": "user", "content": [{"type": "text", "text": "Fine, just the weather."}]},
    ],
}

PAIRS = [(a, b) for a in sorted(ADAPTERS) for b in sorted(ADAPTERS) if a != b]


def test_the_rich_conversation_is_valid() -> None:
    assert [f for f in validate(RICH, "Conversation") if f.severity != "warning"] == []


def _read(document: dict[str, Any], fmt: str) -> dict[str, Any]:
    """``document`` written to ``fmt`` and read back: what ``fmt`` carries of it."""
    check_round_trip(fmt, document)  # every change under a loss it reported
    wire = convert(document, "canonical", fmt).output
    read: dict[str, Any] = convert(wire, fmt, "canonical").output
    return read


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_every_ordered_pair_loses_only_what_it_reports(a: str, b: str) -> None:
    in_a = _read(copy.deepcopy(RICH), a)
    in_b = _read(without_raw(in_a), b)
    back = _read(without_raw(in_b), a)
    forward = convert(convert(without_raw(in_a), "canonical", a).output, a, b)
    returned = convert(forward.output, b, a, id_map=forward.id_map, name_map=forward.name_map)
    assert problems(forward.output, b, "request") == []  # each body written, valid for its
    assert problems(returned.output, a, "request") == []  # target's strict wire schema
    if not forward.losses and not returned.losses:
        # Nothing reported on the way: the round trip back gives the same conversation.
        assert without_raw(convert(returned.output, a, "canonical").output) == without_raw(in_a)
    assert without_raw(back)["messages"]  # the conversation survives every pair
