"""A Gemini function declaration gives each schema in one form: `parametersJsonSchema` or
`parameters`, `responseJsonSchema` or `response` (`@schema_member`). Both forms of one schema
were read as the JSON Schema one, the OpenAPI one ignored unreported (with the input check off,
and for the result's schema with it on); both are now refused, as the API refuses them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert
from tests.adapters.test_fused_pairs_gemini import GEMINI_BODY

_BOTH = {
    "parameters": {"parameters": {"type": "OBJECT"}},
    "response": {"responseJsonSchema": {"type": "object"}, "response": {"type": "STRING"}},
}


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "canonical", "gemini"])
@pytest.mark.parametrize("which", sorted(_BOTH))
def test_a_schema_in_both_forms_is_refused(
    which: str, target: str, validate: bool, fused: bool
) -> None:
    body: dict[str, Any] = copy.deepcopy(GEMINI_BODY)
    body["tools"][0]["functionDeclarations"][0].update(_BOTH[which])
    with pytest.raises(ConversionError) as error:
        convert(body, "gemini", target, validate_input=validate, fused=fused)
    assert (error.value.code, error.value.pointer) == (
        "unknown_variant",
        "/tools/0/functionDeclarations/0",
    )


def test_either_form_alone_is_read() -> None:
    body: dict[str, Any] = copy.deepcopy(GEMINI_BODY)
    declaration = body["tools"][0]["functionDeclarations"][0]
    declaration["response"] = {"type": "STRING"}
    del declaration["parametersJsonSchema"]
    declaration["parameters"] = {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}}
    tool = convert(body, "gemini", "canonical").output["tools"][0]
    assert tool["input_schema"] == {"type": "object", "properties": {"city": {"type": "string"}}}
    assert tool["output_schema"] == {"type": "string"}
