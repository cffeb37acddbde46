"""The reading schema of a wire document, derived from its strict (writing) schema.

Liberal in what we read, exact in what we write. A wire schema is the contract of what
interlingua writes; real traffic carries more (new fields, block types, enum values, ids),
and a body is not refused for it. The reading schema keeps the *shape* the mapping reads and
drops the rest:

- objects are open (unknown keys are kept for the exact round trip, and reported as
  `field_dropped` when crossing to another format);
- a tagged union (a ``discriminator``) gains a member for every tag it does not list (an
  unknown block reads as an UnknownPart, kept verbatim);
- an ``enum`` becomes the type of its values, and value rules a provider enforces on
  requests (lengths, ranges, counts, patterns, formats) are dropped: they are the provider's
  admission policy, they change over time and per model, and reading a body breaking one
  puts nothing malformed in the canonical form;
- an untagged ``oneOf`` becomes an ``anyOf`` (with open members, two may now match);
- an optional property may be ``null``: servers and SDKs write an absent field as null
  (pydantic models dumped without ``exclude_none``, Go pointers, Jackson defaults, OpenAI's
  own `refusal: null`); it says no more than the absence, so the decoder reads it as absent
  and round-trip data gives it back. A required property is never null on read unless the
  strict schema says so (a `text: null` is malformed, not absent);
- types, ``const`` tags, ``required`` keys, ``not`` and ``if`` conditions stay.

What must stay strict on read is said in the wire schema with ``x-read`` (see
schemas/meta/keywords.json): ``keep`` lists the keywords of that node that hold on read too
(the base64 alphabet of inline bytes, whose meaning the mapping depends on); ``optional``
names required properties that servers are known to leave out.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.lint import Finding

# Keywords dropped on read (unless the node keeps them with `x-read.keep`).
RELAXED = frozenset(
    {
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
    }
)
# What `x-read.keep` may name: the relaxed keywords, and the ones relaxed by rewriting.
KEEPABLE = RELAXED | {"additionalProperties", "enum", "oneOf", "discriminator"}
_SINGLE = ("items", "additionalProperties", "then", "else", "contains")
_MAPS = ("$defs", "properties", "patternProperties", "dependentSchemas")
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
# Keywords that would still refuse a null once the type takes it.
_COMBINATORS = frozenset({"$ref", "allOf", "anyOf", "oneOf", "not", "if", "enum", "const"})
_JSON_TYPES = {bool: "boolean", str: "string", int: "integer", float: "number", type(None): "null"}


def reading_schema(strict: dict[str, Any]) -> dict[str, Any]:
    """The reading schema of a strict wire schema (a new document; ``strict`` is untouched)."""
    document = copy.deepcopy(strict)
    known = _Known(document)
    out: dict[str, Any] = _relax(document, known)
    if isinstance(out.get("$id"), str):
        out["$id"] = out["$id"].removesuffix(".json") + ".reading.json"
    if isinstance(out.get("title"), str):
        out["title"] = out["title"] + " (reading)"
    return out


class _Known:
    """What the whole document knows: every tag of every tagged union (by tag name), and
    every key of every keyed union. A block of a kind the document knows elsewhere is
    misplaced, not unknown: the member for unknown kinds does not take it."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.tags: dict[str, set[str]] = {}
        self.keys: set[str] = set()
        defs = document.get("$defs", {})
        for _, node, _ in _nodes(document, ""):
            discriminator = node.get("discriminator")
            if isinstance(discriminator, dict):
                tags = self.tags.setdefault(discriminator["propertyName"], set())
                tags.update(discriminator.get("mapping", {}))
            if isinstance(node.get("x-read"), dict) and node["x-read"].get("keyed"):
                for member in node.get("oneOf", ()):
                    self.keys.update(_resolve(defs, member).get("required", ()))
        self.defs = defs

    def member_keys(self, member: Any) -> list[str]:
        """The keys a keyed union's member requires (its own key)."""
        return list(_resolve(self.defs, member).get("required", ()))


def _resolve(defs: dict[str, Any], node: Any) -> dict[str, Any]:
    ref = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _resolve(defs, defs.get(ref.removeprefix("#/$defs/"), {}))
    return node if isinstance(node, dict) else {}


def _relax(node: Any, known: _Known) -> Any:  # noqa: C901 - one branch per schema keyword
    if not isinstance(node, dict):
        return node
    rule = node.pop("x-read", {})
    keep = frozenset(rule.get("keep", ()))
    for key in _SINGLE:
        if isinstance(node.get(key), dict):
            node[key] = _relax(node[key], known)
    for key in _MAPS:
        if isinstance(node.get(key), dict):
            node[key] = {name: _relax(sub, known) for name, sub in node[key].items()}
    for key in _LISTS:
        if isinstance(node.get(key), list):
            node[key] = [_relax(sub, known) for sub in node[key]]
    # `not` and `if` are left as they are: relaxing a negated or tested schema makes the
    # node stricter, not looser.
    for key in RELAXED - keep:
        node.pop(key, None)
    if node.get("additionalProperties") is False and "additionalProperties" not in keep:
        del node["additionalProperties"]
        # Open on read, closed on write: detection counts the keys such an object does not
        # list, to prefer the format a body fits best.
        node["x-closed-on-write"] = True
    if "enum" in node and "enum" not in keep and isinstance(node["enum"], list):
        values = node.pop("enum")
        if "type" not in node and "const" not in node:
            types = sorted({_JSON_TYPES.get(type(v), "object") for v in values})
            if "integer" in types and "number" in types:
                types.remove("integer")
            node["type"] = types[0] if len(types) == 1 else types
    optional = set(rule.get("optional", ()))
    if optional and isinstance(node.get("required"), list):
        node["required"] = [name for name in node["required"] if name not in optional]
    properties = node.get("properties")
    if isinstance(properties, dict):
        needed = set(node.get("required", ()))
        for name, sub in properties.items():
            if name not in needed:
                properties[name] = _nullable(sub)
    discriminator = node.get("discriminator")
    union = node.get("oneOf")
    if isinstance(discriminator, dict) and isinstance(union, list) and "discriminator" not in keep:
        tag = discriminator["propertyName"]
        tags = sorted(known.tags.get(tag, set()))
        union.append(
            {
                "type": "object",
                "description": f"A `{tag}` this document does not know: read as it came.",
                "required": [tag],
                "properties": {tag: {"type": "string", "not": {"enum": tags}}},
            }
        )
    if rule.get("keyed") and isinstance(node.get("oneOf"), list):
        # Members told apart by their one key: exactly one known key, or none of the keys
        # the document knows (a block of a kind it does not list, read as it came).
        own = sorted({key for member in node["oneOf"] for key in known.member_keys(member)})
        node["not"] = {
            "description": "Two keys of two members: one block is one kind.",
            "anyOf": [{"required": [a, b]} for i, a in enumerate(own) for b in own[i + 1 :]],
        }
        node["oneOf"].append(
            {
                "type": "object",
                "description": "A block of a kind this document does not know: read as it came.",
                "not": {"anyOf": [{"required": [key]} for key in sorted(known.keys)]},
            }
        )
    elif isinstance(node.get("oneOf"), list) and "oneOf" not in keep:
        # Members told apart by tags stay apart; members told apart only by being closed
        # may now both match, and a member for unknown tags may overlap an open one.
        node["anyOf"] = node.pop("oneOf")
    if rule.get("also"):
        # Shapes other servers send where the provider's own sends this one.
        return {"anyOf": [node, *(_relax(copy.deepcopy(other), known) for other in rule["also"])]}
    return node


def _nullable(node: Any) -> Any:
    """``node``, taking ``null`` too (an optional property: null is read as absent)."""
    if not isinstance(node, dict):
        return node  # `true` takes null already; `false` takes nothing, not even null
    types = node.get("type")
    names = [types] if isinstance(types, str) else list(types) if isinstance(types, list) else []
    if "null" in names:
        return node
    if names and _COMBINATORS.isdisjoint(node):
        # Typed and nothing else that would refuse null: the type list grows.
        return {**node, "type": [*names, "null"]}
    return {"anyOf": [{"type": "null"}, node]}


def rules(strict: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """Every ``x-read`` annotation of a schema: (JSON pointer of its node, node, annotation)."""
    return ((p, node, rule) for p, node, rule in _nodes(strict, "") if rule is not None)


def _nodes(node: Any, pointer: str) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """Every subschema with its pointer and its ``x-read`` annotation (or None)."""
    if not isinstance(node, dict):
        return
    yield pointer, node, node.get("x-read")
    for key, value in node.items():
        if key in _MAPS and isinstance(value, dict):
            for name, sub in value.items():
                token = name.replace("~", "~0").replace("/", "~1")
                yield from _nodes(sub, f"{pointer}/{key}/{token}")
        elif key in (*_SINGLE, "not", "if", "propertyNames") and isinstance(value, dict):
            yield from _nodes(value, f"{pointer}/{key}")
        elif key in _LISTS and isinstance(value, list):
            for index, sub in enumerate(value):
                yield from _nodes(sub, f"{pointer}/{key}/{index}")


def check_rules(strict: dict[str, Any]) -> list[str]:
    """Problems with the ``x-read`` annotations of a schema: a kept keyword the node does not
    have, an optional property the node does not require."""
    problems = []
    for pointer, node, rule in rules(strict):
        where = pointer or "/"
        for keyword in rule.get("keep", ()):
            if keyword not in KEEPABLE:
                problems.append(f"{where}: x-read keeps {keyword!r}, which reading never relaxes")
            elif keyword not in node:
                problems.append(f"{where}: x-read keeps {keyword!r}, which this node does not have")
        if rule.get("keyed") and not isinstance(node.get("oneOf"), list):
            problems.append(f"{where}: x-read says keyed members, and this node is no oneOf")
        for name in rule.get("optional", ()):
            if name not in node.get("required", ()):
                problems.append(f"{where}: x-read makes {name!r} optional; it is not required here")
    return problems


def lint_formats(schemas_dir: Path) -> list[Finding]:
    """IL018: every ``x-read`` annotation of a wire schema keeps a keyword its node has and
    makes optional only what the node requires, and every example body of the format reads
    (is valid against the reading schema)."""
    findings = []
    for path in sorted(schemas_dir.glob("formats/*/*.json")):
        strict = json.loads(path.read_text(encoding="utf-8"))
        where = path.relative_to(schemas_dir.parent).as_posix()
        findings += [
            Finding(f"{where}#{problem.split(':', 1)[0]}", "IL018", "violation", problem)
            for problem in check_rules(strict)
        ]
    return findings
