"""Stable tool ids (seed 002 §1): derivation, the shape hash, parsing and formatting.

A tool id is ``namespace:name[@version][#hash8]``; the grammar of each field and of the whole
id (at most 240 characters, ``hash8`` required when ``version`` is absent) lives in the schema
(``ToolIdParts``, ``ToolId`` in gateway.json) and is checked through the generated models, so
this module holds only what the schema cannot say: how fields are derived from upstream
metadata, and the hash.

Choices where the seed is silent or ambiguous (each is also listed in the vectors as
``recommended``):

- **Which separator.** §1.4 names dot and slash without an order; the prefix is the text before
  the *leftmost* ``.`` or ``/`` (so ``fs/read.me`` gives ``fs`` / ``read.me``), and only when
  that text is non-empty. Otherwise an underscore split with at least 3 segments and a
  non-empty first segment gives the namespace (the name keeps the whole upstream value);
  otherwise the namespace is ``mcp``.
- **Server name.** §1.2 allows the upstream ``server_name`` "if available": when given it is
  the namespace and wins over inference; no separator was matched, so the name is the upstream
  name verbatim (as for the ``mcp`` fallback).
- **Case.** Namespaces are lower-cased (ASCII letters only; §3.2 makes adapters responsible
  for it). Nothing else is rewritten: an upstream name whose derived fields fall outside the
  grammar (a space, a leading digit, a slash left in the name) is TOOL_ID_INVALID, never
  silently mangled.
- **Version.** A declared version replaces the hash (as in §1.4's examples); an empty or
  ungrammatical version is TOOL_ID_INVALID rather than quietly replaced by a hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticError

from interlingua.conversion.transforms.schemas import no_arguments
from interlingua.gateway._text import shown
from interlingua.gateway.errors import GatewayError
from interlingua.generated.models import GatewayTool, ToolDefinition, ToolId, ToolIdParts

FALLBACK_NAMESPACE: Final = "mcp"
_TOOL_ID: Final[TypeAdapter[str]] = TypeAdapter(ToolId)
_ASCII_LOWER: Final = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def canonical_shape(input_schema: object) -> str:
    """The canonical form of an input schema's shape (§1.3): its sorted top-level property
    names and sorted ``required`` list, as compact JSON with sorted keys.

    Types and descriptions are left out so that prose-only edits keep the id. A schema that is
    not an object, or whose ``properties`` is not an object or ``required`` not a list of
    strings, is SCHEMA_INVALID.
    """
    if not isinstance(input_schema, Mapping):
        raise GatewayError("SCHEMA_INVALID", "the input schema is not a JSON object")
    properties = input_schema.get("properties") or {}
    required = input_schema.get("required") or []
    if not isinstance(properties, Mapping):
        raise GatewayError("SCHEMA_INVALID", "the input schema's `properties` is not an object")
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise GatewayError(
            "SCHEMA_INVALID", "the input schema's `required` is not a list of strings"
        )
    return json.dumps(
        {"properties": sorted(properties), "required": sorted(required)},
        sort_keys=True,
        separators=(",", ":"),
    )


def utf8(text: str, what: str) -> bytes:
    """``text`` in UTF-8, or TOOL_ID_INVALID when it holds a lone surrogate.

    A name from a JSON document is always valid Unicode; a lone surrogate means the name was
    never text (undecodable bytes from a command line, which Python carries as surrogates, or
    a broken upstream). No encoding of it would be reproducible by a client that speaks JSON,
    so it gets a coded error rather than a hash.
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise GatewayError(
            "TOOL_ID_INVALID",
            f"{what} {shown(text)} is not valid Unicode text (it holds a lone surrogate)",
        ) from None


def hash8(upstream_name: str, input_schema: object) -> str:
    """First 8 hex digits of sha256 over ``upstream_name + "\\n" + canonical_shape`` (§1.3).

    ``upstream_name`` is the name as the upstream server reports it, before any prefix is
    stripped, so tools sharing a shape in different namespaces still hash apart. A name that
    is not a string, or not valid Unicode, is TOOL_ID_INVALID.
    """
    if not isinstance(upstream_name, str):
        raise GatewayError(
            "TOOL_ID_INVALID", f"an upstream tool name is a string, not {shown(upstream_name)}"
        )
    name = utf8(upstream_name, "the upstream tool name")
    return hashlib.sha256(name + b"\n" + canonical_shape(input_schema).encode()).hexdigest()[:8]


def _lower_namespace(prefix: str) -> str:
    return prefix.translate(_ASCII_LOWER)


def split_upstream_name(upstream_name: str, server_name: str | None = None) -> tuple[str, str]:
    """``(namespace, name)`` derived from an upstream tool name by the rules of §1.4.

    The results are not yet checked against the grammar; :func:`derive_tool_id` does that.
    """
    if server_name is not None:
        if not isinstance(server_name, str):
            raise GatewayError(
                "TOOL_ID_INVALID", f"a server name is a string, not {shown(server_name)}"
            )
        return _lower_namespace(server_name), upstream_name
    cut = min((i for i in (upstream_name.find("."), upstream_name.find("/")) if i >= 0), default=0)
    if cut > 0:
        return _lower_namespace(upstream_name[:cut]), upstream_name[cut + 1 :]
    segments = upstream_name.split("_")
    if len(segments) >= 3 and segments[0]:
        return _lower_namespace(segments[0]), upstream_name
    return FALLBACK_NAMESPACE, upstream_name


def infer_namespace(upstream_name: str) -> str:
    """The namespace §1.4 infers from an upstream tool name alone."""
    return split_upstream_name(upstream_name)[0]


def make_parts(
    namespace: str, name: str, version: str | None = None, hash8: str | None = None
) -> ToolIdParts:
    """Checked :class:`ToolIdParts`; a field outside the grammar is TOOL_ID_INVALID."""
    fields = {"namespace": namespace, "name": name, "version": version, "hash8": hash8}
    try:
        return ToolIdParts.model_validate({k: v for k, v in fields.items() if v is not None})
    except PydanticError as exc:
        bad = [str(e["loc"][0]) for e in exc.errors()]
        detail = ", ".join(f"{field} {shown(fields[field])}" for field in bad)
        raise GatewayError(
            "TOOL_ID_INVALID", f"outside the tool id grammar: {detail}", details={"fields": bad}
        ) from None


def format_tool_id(parts: ToolIdParts) -> str:
    """The id ``parts`` stand for (§1.6): ``namespace:name[@version][#hash8]``."""
    if parts.version is None and parts.hash8 is None:
        raise GatewayError("TOOL_ID_INVALID", "a tool id needs hash8 when it has no version")
    text = f"{parts.namespace}:{parts.name}"
    if parts.version is not None:
        text += f"@{parts.version}"
    if parts.hash8 is not None:
        text += f"#{parts.hash8}"
    try:
        return _TOOL_ID.validate_python(text)
    except PydanticError:
        raise GatewayError(
            "TOOL_ID_INVALID",
            f"tool id {shown(text)} is outside the grammar or longer than 240 characters",
        ) from None


def parse_tool_id(text: object) -> ToolIdParts:
    """Split a canonical tool id into its fields (§1.6); the inverse of format_tool_id."""
    if not isinstance(text, str):
        raise GatewayError("TOOL_ID_INVALID", f"a tool id is a string, not {shown(text)}")
    namespace, colon, rest = text.partition(":")
    if not colon:
        raise GatewayError("TOOL_ID_INVALID", f"tool id {shown(text)} has no ':'")
    body, hash_sign, hash_part = rest.partition("#")
    name, at, version = body.partition("@")
    parts = make_parts(namespace, name, version if at else None, hash_part if hash_sign else None)
    format_tool_id(parts)  # the whole-id rules: hash8 without a version, 240 characters
    return parts


def derive_tool_id(
    upstream_name: object,
    input_schema: object,
    version: str | None = None,
    server_name: str | None = None,
) -> str:
    """The canonical tool id of an upstream tool (§1.2-§1.4).

    The namespace comes from ``server_name`` when given, else from the upstream name; ``hash8``
    is emitted exactly when ``version`` is absent. The schema's shape is checked either way.
    """
    if not isinstance(upstream_name, str) or not upstream_name:
        raise GatewayError(
            "TOOL_ID_INVALID",
            f"an upstream tool name is a non-empty string, not {shown(upstream_name)}",
        )
    shape_hash = hash8(upstream_name, input_schema)  # checks the schema even with a version
    namespace, name = split_upstream_name(upstream_name, server_name)
    return format_tool_id(
        make_parts(namespace, name, version, None if version is not None else shape_hash)
    )


def input_schema_of(definition: ToolDefinition) -> dict[str, Any]:
    """A definition's input schema; a definition without one takes no arguments, which is
    the empty object schema (the same id, card and checks as a tool that says so)."""
    schema = definition.input_schema
    return no_arguments() if schema is None else schema


def tool_id_of(tool: GatewayTool) -> str:
    """The canonical id of a catalogued tool (its definition's ``namespace`` is the server)."""
    definition = tool.definition
    return derive_tool_id(
        definition.name, input_schema_of(definition), tool.version, definition.namespace
    )


def derive_catalog_ids(tools: Sequence[GatewayTool]) -> list[str]:
    """The id of every tool, in order; two tools with the same id are TOOL_ID_COLLISION (§1.5).

    A collision means a duplicate registration or a hashing bug, so it is an error, never
    silently disambiguated (that is §9.3's ``~N``, for resources and prompts).
    """
    ids: list[str] = []
    first: dict[str, int] = {}
    for index, tool in enumerate(tools):
        tool_id = tool_id_of(tool)
        if tool_id in first:
            raise GatewayError(
                "TOOL_ID_COLLISION",
                f"tools {first[tool_id]} and {index} both have the id {tool_id}",
                details={"tool_id": tool_id, "indexes": [first[tool_id], index]},
            )
        first[tool_id] = index
        ids.append(tool_id)
    return ids
