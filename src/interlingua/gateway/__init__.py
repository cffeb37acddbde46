"""The gateway contract of seed 002: tool ids, choice cards, paths, errors, argument handling.

Every failure is a :class:`GatewayError` with a code from the schema's ``GatewayErrorCode``;
its :meth:`~GatewayError.envelope` is the redacted wire form.

>>> from interlingua.gateway import derive_tool_id, parse_tool_id
>>> derive_tool_id("github.create_issue", {"type": "object"}, version="1.4.0")
'github:create_issue@1.4.0'
>>> parse_tool_id("slack:slack_send_message#2fae1fd2").namespace
'slack'
"""

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
