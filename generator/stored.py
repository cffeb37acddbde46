"""The wire schema of stored messages, derived from a format's request schema and layout.

Turns kept outside a request (an agent's memory, a transcript) are one turn, a list of turns,
or an object holding the list under the format's turn field, with the hoisted system prompt
where the format hoists it. The schema says exactly that, pointing at the request schema's
own definitions: nothing about a turn is written twice.
"""

from __future__ import annotations

import copy
from typing import Any


def stored_schema(request: dict[str, Any], layout: dict[str, Any], title: str) -> dict[str, Any]:
    turns_field = layout["messages"]
    defs = request.get("$defs", {})
    body = _resolve(defs, request)
    properties = body.get("properties", {})
    turns = copy.deepcopy(properties[turns_field])
    turn = copy.deepcopy(_list_of(defs, turns)["items"])
    holder: dict[str, Any] = {
        "type": "object",
        "description": f"The turns under `{turns_field}`, as in a request body without its "
        "other fields.",
        "required": [turns_field],
        "properties": {turns_field: turns},
    }
    system_field = layout.get("system_field")
    if layout.get("system") == "hoist" and system_field in properties:
        holder["properties"][system_field] = copy.deepcopy(properties[system_field])
    return {
        "$schema": request["$schema"],
        "$id": request["$id"].rsplit("/", 1)[0] + "/messages.json",
        "title": f"{title}: stored messages",
        "description": "Turns kept outside a request, such as an agent's memory or a "
        "transcript: one turn, a list of turns, or an object holding the list. Derived from "
        "the request schema by the generator.",
        "oneOf": [
            {"type": "array", "description": "A list of turns.", "items": turn},
            {**turn, "description": "One turn."} if "$ref" not in turn else turn,
            holder,
        ],
        "$defs": copy.deepcopy(request.get("$defs", {})),
    }


def _list_of(defs: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """The list schema of the turn field: the field itself, or its list member when it may
    also be something else (OpenAI Responses' `input`: a string or a list of items)."""
    resolved = _resolve(defs, schema)
    for member in resolved.get("anyOf", ()):
        if "items" in _resolve(defs, member):
            return _resolve(defs, member)
    return resolved


def _resolve(defs: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """A schema that is only a local reference, as the definition it names."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _resolve(defs, defs[ref.removeprefix("#/$defs/")])
    return schema
