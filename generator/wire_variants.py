"""Which keys each variant of a tagged wire object takes, read from the format's wire schema
(`schemas/formats/<format>/request.json`) at generation time.

A `@merge` writes members from separate templates into one wire object: the codec's variant
(Anthropic's `tool_choice`: `{type: none}`) and keys beside it (`disable_parallel_tool_use`).
Some variants take no such key (the wire schema closes `ToolChoiceNone` with
`additionalProperties: false`), so the generated writer drops a merged key the variant it wrote
does not take, and reports it, instead of writing a body the provider refuses.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from generator.paths import SCHEMAS

Json = Any


@functools.cache
def _request_schema(fmt: str) -> Json:
    path = SCHEMAS / "formats" / fmt / "request.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _walk(root: Json, ref: str) -> Json:
    node = root
    for step in ref[2:].split("/"):
        if not isinstance(node, dict):
            return None
        node = node.get(step)
    return node


def closed_variants(fmt: str, wire_key: str) -> tuple[str, dict[str, frozenset[str]]] | None:
    """The tag key and, by tag, the keys of each closed variant (`additionalProperties:
    false`) of the request's top-level ``wire_key``; None when the schema does not say."""
    root = _request_schema(fmt)
    if not isinstance(root, dict):
        return None
    body = _resolve_ref(root, root)
    properties = body.get("properties") if isinstance(body, dict) else None
    prop = _resolve_ref(root, properties.get(wire_key)) if isinstance(properties, dict) else None
    variants = prop.get("oneOf") if isinstance(prop, dict) else None
    if not isinstance(variants, list):
        return None
    tag_key: str | None = None
    closed: dict[str, frozenset[str]] = {}
    for each in variants:
        variant = _resolve_ref(root, each)
        properties = variant.get("properties", {}) if isinstance(variant, dict) else {}
        tags = [k for k, v in properties.items() if isinstance(v, dict) and "const" in v]
        if len(tags) != 1 or (tag_key is not None and tags[0] != tag_key):
            return None
        tag_key = tags[0]
        if variant.get("additionalProperties") is False:
            closed[properties[tag_key]["const"]] = frozenset(properties)
    return (tag_key, closed) if tag_key is not None else None


def _resolve_ref(root: Json, node: Json) -> Json:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        ref = node["$ref"]
        if not ref.startswith("#/"):
            return None
        node = _walk(root, ref)
    return node


def refused(fmt: str, wire_key: str, member_key: str) -> tuple[str, list[str]]:
    """The tag key of the request's ``wire_key`` and the tags of its variants that do not take
    ``member_key`` (in the schema's order); no tags when every variant does."""
    found = closed_variants(fmt, wire_key)
    if found is None:
        return "type", []
    tag_key, closed = found
    return tag_key, [tag for tag, keys in closed.items() if member_key not in keys]


def merge_refused(fmt: str, wire: Json) -> dict[str, tuple[str, dict[str, list[str]]]]:
    """For each top-level `@merge` of a request wire template whose first member is a codec:
    the codec's name, and the tag key and, by each later member's key, the tags of the
    variants that do not take it (only keys some variant refuses)."""
    found: dict[str, tuple[str, dict[str, list[str]]]] = {}
    for wire_key, node in wire.items() if isinstance(wire, dict) else ():
        members = node.get("@merge") if isinstance(node, dict) else None
        if not isinstance(members, list) or not members:
            continue
        codec = members[0].get("@codec") if isinstance(members[0], dict) else None
        if not isinstance(codec, list):
            continue
        by_key: dict[str, list[str]] = {}
        tag_key = "type"
        for member in members[1:]:
            for key in member if isinstance(member, dict) else ():
                tag_key, tags = refused(fmt, wire_key, key)
                if tags:
                    by_key[key] = tags
        if by_key:
            found[codec[0]] = (tag_key, by_key)
    return found
