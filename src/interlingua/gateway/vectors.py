"""The gateway functions as golden vectors call them: a JSON ``input`` in, a JSON value out.

``conformance/vectors/gateway/*.json`` name a ``function`` and give its ``input``; this table is
the Python implementation's side of that contract, so any runner (the tests, a conformance
harness) can drive it. A function fails by raising :class:`GatewayError`, whose code the
vector's ``expected_error`` names. Optional inputs are absent keys, never ``null``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, TypeAlias

from pydantic import BaseModel

from interlingua.gateway.arguments import ArgumentValidator
from interlingua.gateway.cache_stable import CacheStableSession
from interlingua.gateway.cards import (
    browse_budget,
    build_card,
    card_tokens,
    normalize_tags,
    order_key,
    render_card,
    safety_of,
)
from interlingua.gateway.errors import GatewayError, redact
from interlingua.gateway.normalize import normalize_arguments
from interlingua.gateway.paths import parse_browse_request, parse_path, resolve_path
from interlingua.gateway.primitive_id import (
    derive_prompt_id,
    derive_resource_id,
    format_primitive_id,
    parse_primitive_id,
    prompt_hash8,
    resolve_collisions,
    resource_hash8,
)
from interlingua.gateway.schema_trust import SchemaLimits, check_schema_trust
from interlingua.gateway.selection import selection_schema, validate_selection
from interlingua.gateway.tokens import count_tokens, truncate_description
from interlingua.gateway.tool_id import (
    canonical_shape,
    derive_catalog_ids,
    derive_tool_id,
    format_tool_id,
    hash8,
    infer_namespace,
    make_parts,
    parse_tool_id,
)
from interlingua.generated.models import (
    ChoiceCard,
    GatewayTool,
    PrimitiveIdParts,
    ToolAnnotations,
)

Input: TypeAlias = Mapping[str, Any]
#: The tool id validate_arguments and dry_run register their schema under.
VECTOR_TOOL_ID: Final = "vector:tool@1"


def as_json(model: BaseModel) -> Any:
    """A generated model as its JSON value: fields that were given, by their schema names."""
    return model.model_dump(mode="json", exclude_unset=True)


def _annotations(value: Any) -> ToolAnnotations | None:
    return None if value is None else ToolAnnotations.model_validate(value)


def _format_tool_id(i: Input) -> Any:
    parts = i["parts"]
    return format_tool_id(
        make_parts(parts["namespace"], parts["name"], parts.get("version"), parts.get("hash8"))
    )


def _order_cards(i: Input) -> Any:
    cards = sorted(i["cards"], key=lambda c: order_key(c["id"], c.get("score")))
    return [c["id"] for c in cards]


def _card_summary(card: ChoiceCard) -> dict[str, Any]:
    return {"id": card.id} if card.score is None else {"id": card.id, "score": card.score}


def _cache_stable_session(i: Input) -> Any:
    """Steps: ``{"hydrate": id, "ok": bool}`` or ``{"browse": [{"id", "score"?}]}``; the
    output is each browse's response as ``{"id", "score"?}`` summaries."""
    session = CacheStableSession()
    responses: list[list[dict[str, Any]]] = []
    for step in i["steps"]:
        if "hydrate" in step:
            if step["ok"]:
                session.record_hydration(step["hydrate"])
            continue
        cards = [_minimal_card(c) for c in step["browse"]]
        responses.append([_card_summary(c) for c in session.order(cards)])
    return responses


def _minimal_card(summary: Mapping[str, Any]) -> ChoiceCard:
    namespace = summary["id"].partition(":")[0]
    fields: dict[str, Any] = {
        "id": summary["id"],
        "name": summary["id"],
        "description": "",
        "tags": [],
        "kind": "tool",
        "namespace": namespace,
        "has_schema": False,
        "cost_hint": 0,
        "side_effects": False,
        "safety": "",
    }
    if "score" in summary:
        fields["score"] = summary["score"]
    return ChoiceCard.model_validate(fields)


def _check_schema_trust(i: Input) -> Any:
    check_schema_trust(i["schema"], SchemaLimits(**i.get("limits", {})))
    return None


def _normalize_arguments(i: Input) -> Any:
    args, repairs = normalize_arguments(i["args"], i["input_schema"])
    return {"args": args, "arg_repairs": [as_json(r) for r in repairs]}


def _validator(schema: Any) -> ArgumentValidator:
    validator = ArgumentValidator()
    validator.register(VECTOR_TOOL_ID, "tool", schema)
    return validator


def _validate_arguments(i: Input) -> Any:
    validator = _validator(i["input_schema"])
    return as_json(validator.validate(VECTOR_TOOL_ID, i["args"], tolerant=i.get("tolerant", False)))


def _dry_run(i: Input) -> Any:
    validator = ArgumentValidator()
    tool_id = validator.register_tool(GatewayTool.model_validate(i["tool"]))
    return as_json(validator.dry_run(tool_id, i["args"], tolerant=i.get("tolerant", False)))


def _error_envelope(i: Input) -> Any:
    error = GatewayError(i["code"], i["message"], path=i.get("path", ""), details=i.get("details"))
    return error.as_json()


FUNCTIONS: Final[Mapping[str, Callable[[Input], Any]]] = {
    # tool ids (§1)
    "canonical_shape": lambda i: canonical_shape(i["input_schema"]),
    "hash8": lambda i: hash8(i["upstream_name"], i["input_schema"]),
    "infer_namespace": lambda i: infer_namespace(i["upstream_name"]),
    "derive_tool_id": lambda i: derive_tool_id(
        i["upstream_name"], i["input_schema"], i.get("version"), i.get("server_name")
    ),
    "parse_tool_id": lambda i: as_json(parse_tool_id(i["tool_id"])),
    "format_tool_id": _format_tool_id,
    "derive_catalog_ids": lambda i: derive_catalog_ids(
        [GatewayTool.model_validate(t) for t in i["tools"]]
    ),
    # primitive ids (§9)
    "parse_primitive_id": lambda i: as_json(parse_primitive_id(i["id"])),
    "format_primitive_id": lambda i: format_primitive_id(
        PrimitiveIdParts.model_validate(i["parts"])
    ),
    "resource_hash8": lambda i: resource_hash8(i["uri"]),
    "prompt_hash8": lambda i: prompt_hash8(i["name"], i["argument_names"]),
    "derive_resource_id": lambda i: derive_resource_id(i["name"], i["uri"], i.get("server_name")),
    "derive_prompt_id": lambda i: derive_prompt_id(
        i["name"], i["argument_names"], i.get("server_name")
    ),
    "resolve_collisions": lambda i: resolve_collisions(i["ids"]),
    # cards (§2, §5)
    "count_tokens": lambda i: count_tokens(i["text"]),
    "truncate_description": lambda i: truncate_description(i["text"], i["budget"]),
    "normalize_tags": lambda i: normalize_tags(i["tags"], _annotations(i.get("annotations"))),
    "safety_of": lambda i: safety_of(i["tags"]),
    "build_card": lambda i: as_json(
        build_card(GatewayTool.model_validate(i["tool"]), i.get("score"))
    ),
    "render_card": lambda i: render_card(ChoiceCard.model_validate(i["card"])),
    "card_tokens": lambda i: card_tokens(ChoiceCard.model_validate(i["card"])),
    "order_cards": _order_cards,
    "browse_budget": lambda i: browse_budget(i["n"])._asdict(),
    "cache_stable_session": _cache_stable_session,
    # paths (§3)
    "parse_path": lambda i: parse_path(i["path"]),
    "resolve_path": lambda i: as_json(resolve_path(i["path"], i["graph"])),
    "parse_browse_request": lambda i: as_json(parse_browse_request(i["args"])),
    # errors (§3.4)
    "error_envelope": _error_envelope,
    "redact": lambda i: redact(i["text"]) if "limit" not in i else redact(i["text"], i["limit"]),
    # arguments (§4.4, §4.5)
    "check_schema_trust": _check_schema_trust,
    "normalize_arguments": _normalize_arguments,
    "validate_arguments": _validate_arguments,
    "dry_run": _dry_run,
    # selection (§2.6)
    "selection_schema": lambda i: selection_schema(
        i["candidates"], i.get("variant", "json_schema")
    ),
    "validate_selection": lambda i: as_json(validate_selection(i["value"], i["candidates"])),
}


def run(function: str, input: Input) -> Any:
    """The output of ``function`` on ``input``; raises GatewayError as the function does."""
    return FUNCTIONS[function](input)
