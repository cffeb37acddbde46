"""generator/render.py: facts the adapter modules take from a mapping's templates."""

from __future__ import annotations

import pytest

from generator.render import choice_beside_tools, reading_pairing
from tests.generator.mappings import mapping_data

FORMATS = ["anthropic", "bedrock", "gemini", "ollama", "openai-chat", "openai-responses"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_only_converse_writes_its_tool_choice_beside_its_tools(fmt: str) -> None:
    """Converse's `toolConfig` holds the tools and the choice, and requires the tools; the
    others write the choice on its own (Gemini nests it too, but in an object of its own)."""
    assert choice_beside_tools(mapping_data(fmt)["request"]["wire"]) is (fmt == "bedrock")


@pytest.mark.parametrize(
    ("fmt", "pairing"),
    [("openai-chat", "call_name"), ("anthropic", "id"), ("gemini", "name"), ("cmf", "call_name")],
)
def test_a_format_reading_calls_without_ids_pairs_them_by_name(fmt: str, pairing: str) -> None:
    """OpenAI Chat pairs by id, but its deprecated `function_call` and `function` message have
    none: its reader gives such a call an id and pairs such a result by its function's name."""
    data = mapping_data(fmt)
    assert reading_pairing(data["layout"].get("result_pairing", "id"), data["parts"]) == pairing
