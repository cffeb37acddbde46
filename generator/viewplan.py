"""Turn the view and tier annotations of the bundle into the tables `view_tables.py` holds.

Sources: `x-view` on each part type (how a part becomes a view), `x-kinds` and
`x-role-direction` on ViewKind (action and direction per kind and role), `x-capability`,
`x-accessor`, `x-sensitive-keys` and `x-sensitive-nested` under Extensions (what a consumer may
read), and
`x-mutability` / `x-write-capability` under Message (what a processing step may change).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from generator.bundle import def_name_of

Json = Any
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def _steps(path: str) -> tuple[str, ...]:
    return tuple(path.split("/")) if path else ()


def _template(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`tool://{namespace}/{name}` -> (("tool://", ()), ("", ("namespace",)), ("/", ()), ...)."""
    segments: list[tuple[str, tuple[str, ...]]] = []
    position = 0
    for match in _PLACEHOLDER.finditer(text):
        if match.start() > position:
            segments.append((text[position : match.start()], ()))
        segments.append(("", _steps(match.group(1))))
        position = match.end()
    if position < len(text):
        segments.append((text[position:], ()))
    return tuple(segments)


def part_views(bundle: dict[str, Json]) -> list[dict[str, Json]]:
    """One row per part type: its tag (None for the open-union fallback) and its view rules."""
    defs = bundle["$defs"]
    union = next(s for s in defs.values() if "x-open-union" in s)
    tags = {def_name_of(ref): tag for tag, ref in union["discriminator"]["mapping"].items()}
    rows = []
    for ref in union["oneOf"]:
        name = def_name_of(ref["$ref"])
        view = defs[name]["x-view"]
        rows.append(
            {
                "model": name,
                "tag": tags.get(name),
                "kind": view["kind"],
                "name": _steps(view.get("name", "")),
                "entity": _steps(view.get("entity", "")),
                "uri": tuple(_template(t) for t in view.get("uri", [])),
                "args": _steps(view.get("args", "")),
                "mime_type": _steps(view.get("mime_type", "")),
                "content": tuple(
                    (rule, _steps(path))
                    for r in view.get("content", [])
                    for rule, path in r.items()
                ),
                "size": tuple(
                    (rule, _steps(path)) for r in view.get("size", []) for rule, path in r.items()
                ),
                "properties": tuple(
                    (
                        prop,
                        next(iter(spec)),
                        _steps(spec[next(iter(spec))])
                        if isinstance(spec[next(iter(spec))], str)
                        else spec[next(iter(spec))],
                        spec.get("default"),
                    )
                    for prop, spec in view.get("properties", {}).items()
                ),
            }
        )
    return rows


def kind_tables(
    bundle: dict[str, Json],
) -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], bool]]:
    """(kind, role) -> action, and (kind, role) -> is_pre, expanded over every role."""
    defs = bundle["$defs"]
    roles = defs["Role"]["enum"]
    kinds = defs["ViewKind"]
    by_role = kinds["x-role-direction"]
    actions: dict[tuple[str, str], str] = {}
    is_pre: dict[tuple[str, str], bool] = {}
    for kind in kinds["enum"]:
        spec = kinds["x-kinds"][kind]
        for role in roles:
            actions[(kind, role)] = spec["action"].get(role, spec["action"]["*"])
            direction = by_role[role] if spec["direction"] == "by_role" else spec["direction"]
            is_pre[(kind, role)] = direction == "pre"
    return actions, is_pre


def _walk(
    defs: dict[str, Json], schema: Json, path: tuple[str, ...], capability: str | None
) -> Iterator[tuple[tuple[str, ...], Json, str | None]]:
    """Every property under ``schema`` with its path and the capability that gates it."""
    while "$ref" in schema:
        target = defs[def_name_of(schema["$ref"])]
        capability = schema.get("x-capability", target.get("x-capability", capability))
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    for name, sub in schema.get("properties", {}).items():
        sub_capability = sub.get("x-capability", capability)
        if "$ref" in sub:
            sub_capability = sub.get(
                "x-capability", defs[def_name_of(sub["$ref"])].get("x-capability", sub_capability)
            )
        yield (*path, name), sub, sub_capability
        yield from _walk(defs, sub, (*path, name), sub_capability)


def _python_type(defs: dict[str, Json], schema: Json) -> str:
    """The frozen Python type an accessor returns for ``schema``."""
    while "$ref" in schema:
        schema = defs[def_name_of(schema["$ref"])]
    kind = schema.get("type")
    if kind == "array":
        item = _python_type(defs, schema.get("items", {}))
        return f"frozenset[{item}]" if schema.get("uniqueItems") else f"tuple[{item}, ...]"
    if kind == "object":
        return "Mapping[str, Any]"
    return {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}.get(
        kind, "Any"
    )


def context_tables(bundle: dict[str, Json]) -> dict[str, Json]:
    """Accessors, capability gates and sensitive keys under Message.extensions."""
    defs = bundle["$defs"]
    accessors: dict[str, tuple[str | None, tuple[str, ...]]] = {}
    accessor_docs: list[dict[str, str]] = []
    gates: list[tuple[tuple[str, ...], str]] = []
    sensitive: dict[tuple[str, ...], frozenset[str]] = {}
    # The extensions block itself is open (forward compatibility): a namespace a later version
    # adds may hold a header map, so the whole block is scrubbed when it says so.
    nested: list[tuple[str, ...]] = [()] if defs["Extensions"].get("x-sensitive-nested") else []
    for path, schema, capability in _walk(defs, {"$ref": "#/$defs/Extensions"}, (), None):
        if "x-accessor" in schema:
            accessors[schema["x-accessor"]] = (capability, path)
            accessor_docs.append(
                {
                    "name": schema["x-accessor"],
                    "type": _python_type(defs, schema),
                    "doc": schema.get("description", ""),
                    "capability": capability or "",
                    "path": "extensions." + ".".join(path),
                }
            )
        own = schema.get("x-capability")
        if own is None and "$ref" in schema:
            own = defs[def_name_of(schema["$ref"])].get("x-capability")
        # A container whose fields carry capabilities of their own is gated field by field.
        if own is not None and not _gates_below(defs, schema):
            gates.append((path, own))
        if "x-sensitive-keys" in schema:
            sensitive[path] = frozenset(k.lower() for k in schema["x-sensitive-keys"])
        target = defs[def_name_of(schema["$ref"])] if "$ref" in schema else {}
        if schema.get("x-sensitive-nested", target.get("x-sensitive-nested")):
            nested.append(path)
    # An open map may hold a header map of its own: it is scrubbed of every sensitive name.
    every_name = frozenset().union(*sensitive.values())
    return {
        "accessors": accessors,
        "accessor_docs": accessor_docs,
        "gates": tuple(gates),
        "sensitive": sensitive,
        "sensitive_nested": dict.fromkeys(nested, every_name),
    }


def _gates_below(defs: dict[str, Json], schema: Json) -> bool:
    body = defs[def_name_of(schema["$ref"])] if "$ref" in schema else schema
    return any("x-capability" in sub for sub in body.get("properties", {}).values())


def tier_rules(bundle: dict[str, Json]) -> tuple[tuple[tuple[str, ...], str, str | None], ...]:
    """(path from the message root, tier, write capability): the most specific tier declared wins.

    A node whose own tier is declared but which has children with tiers of their own is
    enforced through those children; everything else under it inherits its tier.
    """
    defs = bundle["$defs"]
    rules: list[tuple[tuple[str, ...], str, str | None]] = []

    def tier_of(schema: Json) -> tuple[str | None, str | None]:
        target = defs[def_name_of(schema["$ref"])] if "$ref" in schema else {}
        tier = schema.get("x-mutability", target.get("x-mutability"))
        write = schema.get("x-write-capability", target.get("x-write-capability"))
        return tier, write

    def visit(schema: Json, path: tuple[str, ...], inherited: str | None) -> None:
        body = defs[def_name_of(schema["$ref"])] if "$ref" in schema else schema
        children = body.get("properties", {})
        annotated = [
            name
            for name, sub in children.items()
            if tier_of(sub)[0] is not None or _declares_tiers(defs, sub)
        ]
        tier, write = tier_of(schema)
        tier = tier or inherited
        if not annotated:
            if tier is not None and tier != "mutable":
                rules.append((path, tier, write))
            return
        for name, sub in children.items():
            visit(sub, (*path, name), tier)

    visit({"$ref": "#/$defs/Message"}, (), None)
    return tuple(rules)


def _declares_tiers(
    defs: dict[str, Json], schema: Json, seen: frozenset[str] = frozenset()
) -> bool:
    """True when some property below ``schema`` declares its own tier."""
    if "$ref" in schema:
        name = def_name_of(schema["$ref"])
        if name in seen:
            return False
        schema, seen = defs[name], seen | {name}
    return any(
        "x-mutability" in sub or _declares_tiers(defs, sub, seen)
        for sub in schema.get("properties", {}).values()
    )
