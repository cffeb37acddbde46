"""The range a format takes of each request parameter, where it is narrower than the canonical
one: a temperature up to 1 (Anthropic, Bedrock), a thinking budget of at least 1024
(Anthropic), at most four stop sequences (OpenAI Chat, Bedrock). Read from the format's wire
schema, so the fact stays where it is written. The writer sends the nearest value the format
takes and reports it (`parameter_clamped`); a fused pass leaves such a value to the two-step
path, which does that."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from generator.pair_checks import resolve_ref
from generator.paths import SCHEMAS

Json = Any


@dataclass(frozen=True)
class Range:
    """What the format takes of one canonical parameter, beyond what the canonical schema
    already bounds (None: no narrower bound)."""

    name: str  # the canonical parameter (`GenerationParameters`)
    var: str  # its variable in the mapping's templates
    minimum: float | None = None
    maximum: float | None = None
    max_items: int | None = None  # a list of values (stop sequences)
    # The list may not be empty there: an empty one, which carries nothing, is left out.
    nonempty: bool = False


def narrower_ranges(mapping: Json, canonical_params: dict[str, Json]) -> list[Range]:
    """The parameters the mapping's request writes into a place its wire schema bounds more
    narrowly than the canonical schema does, in the order the canonical template names them."""
    request = mapping["request"]
    schema = json.loads((SCHEMAS / mapping["documents"]["request"]).read_text(encoding="utf-8"))
    places = _places(request["wire"], ())
    found = []
    for name, value in request["canonical"].get("parameters", {}).items():
        var = value[1:] if isinstance(value, str) and value.startswith("$") else None
        if var is None or var not in places:
            continue
        place = places[var]
        node = _node(schema, place.path)
        if node is None:
            continue
        canonical = canonical_params.get(name, {})
        if place.listed or canonical.get("type") == "array":
            items = _array_of(schema, node) or {}
            limit = items.get("maxItems")
            limit = (
                limit
                if isinstance(limit, int) and limit < canonical.get("maxItems", limit + 1)
                else None
            )
            nonempty = items.get("minItems", 0) >= 1 > canonical.get("minItems", 0)
            if limit is not None or nonempty:
                found.append(Range(name, var, max_items=limit, nonempty=nonempty))
            continue
        low, high = node.get("minimum"), node.get("maximum")
        low = low if _narrower(low, canonical.get("minimum"), above=True) else None
        high = high if _narrower(high, canonical.get("maximum"), above=False) else None
        if low is not None or high is not None:
            found.append(Range(name, var, minimum=low, maximum=high))
    return found


def _narrower(bound: Any, canonical: Any, *, above: bool) -> bool:
    if not isinstance(bound, int | float) or isinstance(bound, bool):
        return False
    if canonical is None:
        return True
    return bool(bound > canonical) if above else bool(bound < canonical)


@dataclass(frozen=True)
class _Place:
    """Where the wire template writes a variable, as what, and what in its absence."""

    path: tuple[str, ...]
    listed: bool  # written as one value or a list (`@one_or_many`)
    default: Any = None  # the placeholder written when it is absent (`@default`)


def _places(node: Json, path: tuple[str, ...]) -> dict[str, _Place]:
    """Each plain variable the wire template writes, by name. A variable written through any
    other transform is the transform's to bound."""
    found: dict[str, _Place] = {}
    if isinstance(node, str) and node.startswith("$"):
        found[node[1:].rstrip("?!")] = _Place(path, False)
    elif isinstance(node, dict) and list(node) == ["@merge"]:
        for member in node["@merge"]:
            found.update(_places(member, path))
    elif isinstance(node, dict) and list(node) == ["@one_or_many"]:
        inner = node["@one_or_many"]
        if isinstance(inner, str) and inner.startswith("$"):
            found[inner[1:].rstrip("?!")] = _Place(path, True)
    elif isinstance(node, dict) and list(node) == ["@default"]:
        inner, default = node["@default"]
        if isinstance(inner, str) and inner.startswith("$"):
            found[inner[1:].rstrip("?!")] = _Place(path, False, default)
    elif isinstance(node, dict) and not any(key.startswith("@") for key in node):
        for key, value in node.items():
            found.update(_places(value, (*path, key)))
    return found


def _node(schema: Json, path: tuple[str, ...]) -> Json | None:
    """The schema of the value at ``path`` in a body: through references, and through the
    members of a union that have the property (a setting's `enabled` form)."""
    defs = schema.get("$defs", {})
    node = resolve_ref(defs, schema)
    for key in path:
        node = _property(defs, node, key)
        if node is None:
            return None
    return resolve_ref(defs, node)


def _property(defs: dict[str, Json], node: Json, key: str) -> Json | None:
    node = resolve_ref(defs, node)
    if key in node.get("properties", {}):
        return node["properties"][key]
    for member in (*node.get("oneOf", ()), *node.get("anyOf", ())):
        found = _property(defs, member, key)
        if found is not None:
            return found
    return None


def _array_of(schema: Json, node: Json) -> Json | None:
    """A value's array form: itself, or the array member of its union (one string or many)."""
    defs = schema.get("$defs", {})
    node = resolve_ref(defs, node)
    if node.get("type") == "array" or "maxItems" in node:
        return node
    for member in (*node.get("oneOf", ()), *node.get("anyOf", ())):
        form = resolve_ref(defs, member)
        if form.get("type") == "array" or "maxItems" in form:
            return form
    return None


def ranges_by_parameter(mapping: Json) -> dict[str, Range]:
    """`narrower_ranges` by canonical parameter, against the canonical schema's own bounds."""
    envelope = json.loads((SCHEMAS / "v1" / "envelope.json").read_text(encoding="utf-8"))
    canonical = envelope["$defs"]["GenerationParameters"]["properties"]
    return {r.name: r for r in narrower_ranges(mapping, canonical)}


@dataclass(frozen=True)
class Below:
    """A parameter the format takes only below another (the mapping's request `below`)."""

    name: str  # the canonical parameter bounded (`thinking_budget_tokens`)
    var: str  # its variable
    limit: str  # the canonical parameter it must stay below (`max_output_tokens`)
    limit_var: str
    default: Any  # what the format writes for the limit when it is absent (its placeholder)
    minimum: float | None  # the bounded parameter's own minimum there, if any


def below_rules(mapping: Json, ranges: dict[str, Range]) -> list[Below]:
    """The request's `below` rules, each with the limit's placeholder and the bounded
    parameter's minimum (``ranges``: the format's, by parameter)."""
    request = mapping["request"]
    variables = {
        name: value[1:]
        for name, value in request["canonical"].get("parameters", {}).items()
        if isinstance(value, str) and value.startswith("$")
    }
    places = _places(request["wire"], ())
    rules = []
    for name, limit in request.get("below", {}).items():
        if name not in variables or variables[limit] not in places:
            raise ValueError(f"below: {name} and {limit} must both be parameters the format writes")
        bounded = ranges.get(name)
        rules.append(
            Below(
                name,
                variables[name],
                limit,
                variables[limit],
                places[variables[limit]].default,
                bounded.minimum if bounded is not None else None,
            )
        )
    return rules
