"""Ids for all three MCP primitives, and the collision policy (seed 002 §9).

Tools keep their bare §1 id; resources and prompts prepend ``resource::`` / ``prompt::`` to a
body in the §1 grammar, so the three id spaces are disjoint by construction (``::`` cannot occur
in a tool id). The body is parsed and formatted by the tool id helpers, so both directions agree.

The seed says each kind hashes "with a domain prefix" but does not spell the prefix out. The
canonical inputs chosen here follow §1.3's style (fields joined by ``\\n``, lists as compact
JSON):

- resource: ``"resource\\n" + uri``
- prompt: ``"prompt\\n" + name + "\\n" + json.dumps(sorted(argument_names), separators=(",", ":"))``

(tools are unchanged: §1.3 has no prefix). Resource and prompt names go through the same §1.4
derivation as tool names.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Final

from interlingua.gateway._text import shown
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.tool_id import (
    format_tool_id,
    make_parts,
    parse_tool_id,
    split_upstream_name,
    utf8,
)
from interlingua.generated.models import PrimitiveIdParts

KIND_SEPARATOR: Final = "::"
COLLISION_MARKER: Final = "~"
_PREFIXED: Final = ("resource", "prompt")  # `tool` is implied and never written


def format_primitive_id(parts: PrimitiveIdParts) -> str:
    """The id ``parts`` stand for: the tool id form, prefixed by the kind unless it is a tool."""
    body = format_tool_id(make_parts(parts.namespace, parts.name, parts.version, parts.hash8))
    return body if parts.kind == "tool" else f"{parts.kind}{KIND_SEPARATOR}{body}"


def parse_primitive_id(text: object) -> PrimitiveIdParts:
    """Split a canonical primitive id into its kind and body fields.

    A ``~N`` collision key is not a canonical id and is refused like any other malformed id.
    """
    if not isinstance(text, str):
        raise GatewayError("TOOL_ID_INVALID", f"a primitive id is a string, not {shown(text)}")
    kind, separator, body = text.partition(KIND_SEPARATOR)
    if not separator:
        kind, body = "tool", text
    elif kind not in _PREFIXED:
        raise GatewayError(
            "TOOL_ID_INVALID",
            f"primitive id {shown(text)} has the kind prefix {shown(kind)}; "
            "only resource:: and prompt:: are written",
        )
    parts = parse_tool_id(body)
    return PrimitiveIdParts.model_validate({"kind": kind, **parts.model_dump(exclude_none=True)})


def _sha8(canonical: str) -> str:
    return hashlib.sha256(utf8(canonical, "the resource or prompt")).hexdigest()[:8]


def resource_hash8(uri: str) -> str:
    """Shape hash of a resource: its URI, the resource's stable MCP identity (§9.2)."""
    if not isinstance(uri, str):
        raise GatewayError("TOOL_ID_INVALID", f"a resource URI is a string, not {shown(uri)}")
    return _sha8("resource\n" + uri)


def prompt_hash8(name: str, argument_names: Sequence[str]) -> str:
    """Shape hash of a prompt: its name and sorted argument names (§9.2); descriptions and the
    rendered messages take no part."""
    if isinstance(argument_names, str) or not all(isinstance(a, str) for a in argument_names):
        raise GatewayError(
            "TOOL_ID_INVALID",
            f"prompt argument names are a list of strings, not {shown(argument_names)}",
        )
    arguments = json.dumps(sorted(argument_names), separators=(",", ":"))
    return _sha8("prompt\n" + name + "\n" + arguments)


def _checked_name(kind: str, name: object) -> str:
    if not isinstance(name, str) or not name:
        raise GatewayError(
            "TOOL_ID_INVALID", f"a {kind} name is a non-empty string, not {shown(name)}"
        )
    return name


def _derive(kind: str, name: str, shape_hash: str, server_name: str | None) -> str:
    namespace, derived = split_upstream_name(name, server_name)
    return (
        f"{kind}{KIND_SEPARATOR}{format_tool_id(make_parts(namespace, derived, hash8=shape_hash))}"
    )


def derive_resource_id(name: object, uri: str, server_name: str | None = None) -> str:
    """``resource::namespace:name#hash8`` for an MCP resource."""
    return _derive("resource", _checked_name("resource", name), resource_hash8(uri), server_name)


def derive_prompt_id(
    name: object, argument_names: Sequence[str], server_name: str | None = None
) -> str:
    """``prompt::namespace:name#hash8`` for an MCP prompt."""
    checked = _checked_name("prompt", name)
    return _derive("prompt", checked, prompt_hash8(checked, argument_names), server_name)


def resolve_collisions(ids: Sequence[str]) -> list[str]:
    """Catalog keys for ``ids`` (in catalog order), unique by a ``~N`` suffix (§9.3).

    The lowest index keeps the bare id; later occurrences, in ascending index order, become
    ``id~2``, ``id~3`` … The result depends only on the list order, never on dict iteration.
    Every input must be a canonical primitive id (so no input can already look like a key);
    callers de-duplicate entries that are the same primitive first.
    """
    seen: dict[str, int] = {}
    keys: list[str] = []
    for primitive_id in ids:
        parse_primitive_id(primitive_id)
        count = seen.get(primitive_id, 0) + 1
        seen[primitive_id] = count
        keys.append(primitive_id if count == 1 else f"{primitive_id}{COLLISION_MARKER}{count}")
    return keys
