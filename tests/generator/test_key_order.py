"""The writers keep each wire template's key order (regression: a template's required keys
were written first, its optional ones after them, so the two-step path and the fused pairs,
which follow the template, wrote the same body with its keys in another order, and a
provider's prompt cache, which matches bytes, missed when a conversation changed path)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from interlingua import convert

MAPPINGS = Path(__file__).resolve().parents[2] / "schemas" / "mappings"

BODY: dict[str, Any] = {
    "model": "m",
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city": "Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "The weather in a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ],
}


def _template(fmt: str, *path: str) -> list[str]:
    node: Any = yaml.safe_load((MAPPINGS / f"{fmt}.yaml").read_text(encoding="utf-8"))
    for step in path:
        node = node[int(step)] if isinstance(node, list) else node[step]
    return list(node)


def _in_template_order(written: dict[str, Any], template: list[str]) -> list[str]:
    return [key for key in template if key in written]


def test_a_tool_is_written_to_anthropic_in_its_templates_order() -> None:
    template = _template("anthropic", "codecs", "tool", "0", "wire")
    for fused in (True, False):
        (tool,) = convert(BODY, "openai-chat", "anthropic", fused=fused).output["tools"]
        assert list(tool) == _in_template_order(tool, template)
        assert list(tool) == ["name", "description", "input_schema"]


def test_gemini_calls_and_results_are_written_in_their_templates_order() -> None:
    call = _template("gemini", "parts", "tool_call", "0", "wire", "functionCall")
    result = _template("gemini", "parts", "tool_result", "0", "wire", "functionResponse")
    for fused in (True, False):
        contents = convert(BODY, "openai-chat", "gemini", fused=fused).output["contents"]
        written_call = contents[1]["parts"][0]["functionCall"]
        written_result = contents[2]["parts"][0]["functionResponse"]
        assert list(written_call) == _in_template_order(written_call, call) == call
        assert list(written_result) == _in_template_order(written_result, result) == result
