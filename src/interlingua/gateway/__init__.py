"""The gateway contract of seed 002: tool ids, choice cards, paths, errors, argument handling.

Every failure is a :class:`GatewayError` with a code from the schema's ``GatewayErrorCode``;
its :meth:`~GatewayError.envelope` is the redacted wire form.

>>> from interlingua.gateway import derive_tool_id, parse_tool_id
>>> derive_tool_id("github.create_issue", {"type": "object"}, version="1.4.0")
'github:create_issue@1.4.0'
>>> parse_tool_id("slack:slack_send_message#2fae1fd2").namespace
'slack'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua._lazy import lazy_exports

# Each name is imported from its module on first use: `interlingua --help` and commands
# that touch no gateway code do not load its models.
if TYPE_CHECKING:
    from interlingua.gateway.arguments import ArgumentValidator
    from interlingua.gateway.cache_stable import CACHE_BREAKPOINT_ID, CacheStableSession
    from interlingua.gateway.cards import (
        browse_budget,
        build_card,
        card_tokens,
        normalize_tags,
        order_cards,
        render_card,
        safety_of,
    )
    from interlingua.gateway.errors import RETRYABLE, GatewayError, redact
    from interlingua.gateway.normalize import normalize_arguments
    from interlingua.gateway.paths import parse_browse_request, parse_path, resolve_path
    from interlingua.gateway.primitive_id import (
        derive_prompt_id,
        derive_resource_id,
        format_primitive_id,
        parse_primitive_id,
        resolve_collisions,
    )
    from interlingua.gateway.schema_trust import SchemaLimits, check_schema_trust
    from interlingua.gateway.selection import selection_schema, validate_selection
    from interlingua.gateway.tokens import count_tokens, truncate_description
    from interlingua.gateway.tool_id import (
        derive_catalog_ids,
        derive_tool_id,
        format_tool_id,
        hash8,
        infer_namespace,
        parse_tool_id,
        tool_id_of,
    )

_WHERE = {
    "ArgumentValidator": "interlingua.gateway.arguments",
    "CACHE_BREAKPOINT_ID": "interlingua.gateway.cache_stable",
    "CacheStableSession": "interlingua.gateway.cache_stable",
    "browse_budget": "interlingua.gateway.cards",
    "build_card": "interlingua.gateway.cards",
    "card_tokens": "interlingua.gateway.cards",
    "normalize_tags": "interlingua.gateway.cards",
    "order_cards": "interlingua.gateway.cards",
    "render_card": "interlingua.gateway.cards",
    "safety_of": "interlingua.gateway.cards",
    "RETRYABLE": "interlingua.gateway.errors",
    "GatewayError": "interlingua.gateway.errors",
    "redact": "interlingua.gateway.errors",
    "normalize_arguments": "interlingua.gateway.normalize",
    "parse_browse_request": "interlingua.gateway.paths",
    "parse_path": "interlingua.gateway.paths",
    "resolve_path": "interlingua.gateway.paths",
    "derive_prompt_id": "interlingua.gateway.primitive_id",
    "derive_resource_id": "interlingua.gateway.primitive_id",
    "format_primitive_id": "interlingua.gateway.primitive_id",
    "parse_primitive_id": "interlingua.gateway.primitive_id",
    "resolve_collisions": "interlingua.gateway.primitive_id",
    "SchemaLimits": "interlingua.gateway.schema_trust",
    "check_schema_trust": "interlingua.gateway.schema_trust",
    "selection_schema": "interlingua.gateway.selection",
    "validate_selection": "interlingua.gateway.selection",
    "count_tokens": "interlingua.gateway.tokens",
    "truncate_description": "interlingua.gateway.tokens",
    "derive_catalog_ids": "interlingua.gateway.tool_id",
    "derive_tool_id": "interlingua.gateway.tool_id",
    "format_tool_id": "interlingua.gateway.tool_id",
    "hash8": "interlingua.gateway.tool_id",
    "infer_namespace": "interlingua.gateway.tool_id",
    "parse_tool_id": "interlingua.gateway.tool_id",
    "tool_id_of": "interlingua.gateway.tool_id",
}

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "CACHE_BREAKPOINT_ID",
    "RETRYABLE",
    "ArgumentValidator",
    "CacheStableSession",
    "GatewayError",
    "SchemaLimits",
    "browse_budget",
    "build_card",
    "card_tokens",
    "check_schema_trust",
    "count_tokens",
    "derive_catalog_ids",
    "derive_prompt_id",
    "derive_resource_id",
    "derive_tool_id",
    "format_primitive_id",
    "format_tool_id",
    "hash8",
    "infer_namespace",
    "normalize_arguments",
    "normalize_tags",
    "order_cards",
    "parse_browse_request",
    "parse_path",
    "parse_primitive_id",
    "parse_tool_id",
    "redact",
    "render_card",
    "resolve_collisions",
    "resolve_path",
    "safety_of",
    "selection_schema",
    "tool_id_of",
    "truncate_description",
    "validate_selection",
]
