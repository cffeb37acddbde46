"""The structured selection contract (seed 002 §2.6): constrain before, validate after.

:func:`selection_schema` renders the candidate ids as a JSON Schema whose ``selection``
property is an enum of them, in three provider forms. :func:`validate_selection` checks the
id a model returned and repairs it deterministically, never guessing.

Choices where the seed is silent:

- The enum keeps the candidates' order (the routed order), without repeats.
- The OpenAI form is ``{"type": "json_schema", "json_schema": {"name": "tool_selection",
  "strict": true, "schema": …}}``; the Anthropic form is a tool named ``tool_selection`` with
  the schema as ``input_schema``.
- A value equal to a candidate only after stripping whitespace is ``repaired``
  (``strip_whitespace``): stripping is a repair. Case folding is Python's ``str.casefold``.
  A value that is empty after stripping is rejected (as a prefix it would match everything).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from interlingua.gateway._text import shown
from interlingua.gateway.errors import GatewayError
from interlingua.generated.models import SelectionSchemaVariant, SelectionValidation

SELECTION_NAME: Final = "tool_selection"
_DESCRIPTION: Final = "Select exactly one of the offered tool ids."


def _candidates(candidates: Sequence[object]) -> list[str]:
    unique: list[str] = []
    for candidate in candidates:
        if not isinstance(candidate, str) or not candidate:
            raise GatewayError(
                "ARGS_INVALID", f"a candidate is a non-empty string, not {shown(candidate)}"
            )
        if candidate not in unique:
            unique.append(candidate)
    return unique


def selection_schema(
    candidates: Sequence[object], variant: SelectionSchemaVariant = "json_schema"
) -> dict[str, Any]:
    """A schema that lets a model return only one of ``candidates`` (NO_CANDIDATES if none)."""
    ids = _candidates(candidates)
    if not ids:
        raise GatewayError("NO_CANDIDATES", "there are no candidates to select from")
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"selection": {"type": "string", "enum": ids}},
        "required": ["selection"],
        "additionalProperties": False,
    }
    if variant == "json_schema":
        return schema
    if variant == "openai":
        return {
            "type": "json_schema",
            "json_schema": {"name": SELECTION_NAME, "strict": True, "schema": schema},
        }
    if variant == "anthropic":
        return {"name": SELECTION_NAME, "description": _DESCRIPTION, "input_schema": schema}
    raise GatewayError("ARGS_INVALID", f"unknown selection schema variant {shown(variant)}")


def validate_selection(value: object, candidates: Sequence[object]) -> SelectionValidation:
    """``accepted`` / ``repaired`` / ``rejected``: the candidate ``value`` resolves to.

    Tried in order on the whitespace-stripped value: exact, then the unique candidate equal
    ignoring case, then the unique candidate it is a case-insensitive prefix of. Several
    matches at a step are rejected, never guessed.
    """
    ids = _candidates(candidates)
    if not isinstance(value, str):
        return SelectionValidation(status="rejected", input=value, reason="not_a_string")
    if value in ids:
        return SelectionValidation(status="accepted", input=value, selected_id=value)
    stripped = value.strip()
    if not stripped:
        return SelectionValidation(status="rejected", input=value, reason="empty")
    if stripped in ids:
        return SelectionValidation(
            status="repaired", input=value, selected_id=stripped, repair="strip_whitespace"
        )
    folded = stripped.casefold()
    same = [c for c in ids if c.casefold() == folded]
    if len(same) > 1:
        return SelectionValidation(status="rejected", input=value, reason="ambiguous_case_fold")
    if same:
        return SelectionValidation(
            status="repaired", input=value, selected_id=same[0], repair="case_insensitive"
        )
    extended = [c for c in ids if c.casefold().startswith(folded)]
    if len(extended) > 1:
        return SelectionValidation(status="rejected", input=value, reason="ambiguous_prefix")
    if extended:
        return SelectionValidation(
            status="repaired", input=value, selected_id=extended[0], repair="prefix"
        )
    return SelectionValidation(status="rejected", input=value, reason="no_match")
