"""What the fused pass of a source that lays its conversation out as items (OpenAI Responses:
`generator/pairs_from_items.py`) checks of a body in place of the source's reading schema
(issue 16, item 4: validation folded into the pass).

As for the other sources (generator/pair_checks.py), the pass checks the JSON type of all it
reads; this module reads the reading schema at generation time and gives it what is left: the
types of the parameters it reads (a nested setting's too), of the fields it drops (a list of
plain values included, so a common dropped field such as `include` needs no schema check), and
of the fields of each item it takes that it does not read itself (an item id, a status).

The schema picks an item's branch by its tag (`if`/`then`/`else` on `type`), which the pass
does itself; it checks a message's role against the roles it converts, and an image URL's
prefix. Anything else the schema asks of the branches the pass takes fails generation
(:class:`CheckError`), so a schema change never leaves the pass taking what the schema refuses.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from generator.pair_checks import (
    ANNOTATIONS,
    CheckError,
    FieldChecks,
    extras,
    field_checks,
    python_type_names,
    resolve_ref,
    schema_types,
)
from generator.paths import SCHEMAS
from generator.reading import reading_schema

Json = Any

#: The image URL prefixes the schema asks for, which the pass checks itself: a web URL, or a
#: base64 data URL of one of the image types both formats take.
IMAGE_URL_PATTERN = "^(https?://|data:image/[A-Za-z0-9.+-]+;base64,)"


@dataclass(frozen=True)
class ItemChecks:
    """What the pass of an item source checks in place of its reading schema."""

    required: frozenset[str]  # the request fields the schema requires
    param_types: dict[str, tuple[str, ...]]  # a parameter read as a value -> its Python types
    # An object the pass reads one setting of (`reasoning.effort`), by its key: the types of
    # each of its fields whose schema is a type alone, and the fields whose schema says more.
    nested_types: dict[str, dict[str, tuple[str, ...]]]
    nested_checked: dict[str, frozenset[str]]
    fields: FieldChecks  # the fields the pass drops: their types, or those it cannot check
    unread_items: dict[str, tuple[str, ...]]  # a dropped list of plain values -> item types
    # By the schema definition of each item (and tool) the pass takes: the types of each field
    # whose schema is a type alone, and the fields whose schema says more.
    item_types: dict[str, dict[str, tuple[str, ...]]]
    item_checked: dict[str, frozenset[str]]
    # A structured-output request's variants (by their tag): the same of their fields.
    format_types: dict[str, dict[str, tuple[str, ...]]]
    format_checked: dict[str, frozenset[str]]


def item_checks(
    source: Json,
    *,
    read_keys: Collection[str],
    params: Collection[str],
    nested: dict[str, str],
    formats: tuple[str, str],
    kinds: dict[str, str | None],
    taken: dict[str, set[str]],
) -> ItemChecks:
    """The checks of an item source's pass. ``read_keys``: the request fields it reads;
    ``params``: those it reads as plain values; ``nested``: the objects it reads one setting
    of (key -> the setting's key); ``formats``: the object and its key holding a
    structured-output request (its variants by tag: the fields' types); ``kinds``: the items
    and tools it takes, each by the name the pass gives it (`message`, `tool` or an item's
    tag) with its tag (None: a message item, the one without); ``taken``: by tag property, the
    tags of the branches it converts."""
    fmt = source["format"]
    schema = reading_schema(
        json.loads((SCHEMAS / source["documents"]["request"]).read_text(encoding="utf-8"))
    )
    defs: dict[str, Json] = schema["$defs"]
    items = _definitions(defs, resolve_ref(defs, schema)["properties"], source, kinds)
    # The branch of an item is chosen by its tag (the pass dispatches on it), and walked below.
    branches = {
        (name, keyword)
        for name, node in defs.items()
        for keyword in ("if", "then", "else")
        if keyword in node
    }
    image = [
        (f"{name}.{key}", "pattern")
        for name, node in defs.items()
        for key, sub in node.get("properties", {}).items()
        if isinstance(sub, dict) and sub.get("pattern") == IMAGE_URL_PATTERN
    ]
    roles = [
        (f"{name}.role", "enum")
        for name, node in defs.items()
        if "enum" in node.get("properties", {}).get("role", {})
    ]
    # The members for tags the document does not name (`not` on the tag: a hosted tool, say)
    # are never the pass's: it takes the tags it converts only.
    others = [
        (f"{name}.{tag}", "not")
        for name, node in defs.items()
        for tag, sub in node.get("properties", {}).items()
        if isinstance(sub, dict) and "not" in sub
    ]
    allowed = branches | set(image) | set(roles) | set(others)
    fields = field_checks(fmt, schema, read_keys, taken, allowed)
    for name in items.values():
        for where, keyword in extras(defs, {"$ref": f"#/$defs/{name}"}, name, taken):
            if (where, keyword) not in allowed:
                raise CheckError(
                    f"{fmt}: the fused pass does not check `{keyword}` at {where}; teach it "
                    "(generator/item_checks.py, pair_from_items.py.j2) or leave that shape "
                    "to the two-step path"
                )
    properties: dict[str, Json] = resolve_ref(defs, schema)["properties"]
    param_types = {}
    for key in params:
        types = schema_types(defs, properties[key])
        if types is None:
            raise CheckError(f"{fmt}: parameter {key} is more than a type")
        param_types[key] = python_type_names(types)
    nested_types, nested_checked = {}, {}
    format_types, format_checked = {}, {}
    for key, setting in [*nested.items(), formats]:
        config = _object_of(defs, properties[key])
        found = {field: schema_types(defs, sub) for field, sub in config["properties"].items()}
        if (key, setting) == formats:
            union = _object_of(defs, config["properties"][setting], union=True)
            for tag, ref in union["discriminator"]["mapping"].items():
                variant = resolve_ref(defs, {"$ref": ref})["properties"]
                got = {field: schema_types(defs, sub) for field, sub in variant.items()}
                format_types[tag] = {
                    field: python_type_names(t) for field, t in got.items() if t is not None
                }
                format_checked[tag] = frozenset(field for field, t in got.items() if t is None)
        elif found.get(setting) is None:
            raise CheckError(f"{fmt}: {key}.{setting} is more than a type")
        nested_types[key] = {
            field: python_type_names(t) for field, t in found.items() if t is not None
        }
        nested_checked[key] = frozenset(field for field, t in found.items() if t is None)
    unread_items = {}
    for key in fields.unread_checked:
        listed = _plain_list(defs, properties[key])
        if listed is not None:
            unread_items[key] = python_type_names(listed)
    item_types, item_checked = {}, {}
    for kind, name in items.items():
        node = resolve_ref(defs, defs[name])
        found_types = {
            key: schema_types(defs, sub) for key, sub in node.get("properties", {}).items()
        }
        item_types[kind] = {
            key: python_type_names(t) for key, t in found_types.items() if t is not None
        }
        item_checked[kind] = frozenset(key for key, t in found_types.items() if t is None)
    return ItemChecks(
        frozenset(resolve_ref(defs, schema).get("required", [])),
        param_types,
        nested_types,
        nested_checked,
        FieldChecks(fields.unread_types, frozenset(fields.unread_checked - unread_items.keys())),
        unread_items,
        item_types,
        item_checked,
        format_types,
        format_checked,
    )


def _object_of(defs: dict[str, Json], node: Json, *, union: bool = False) -> Json:
    """The object schema (``union``: the discriminated union) a field's schema allows beside
    null."""
    node = resolve_ref(defs, node)
    members = [resolve_ref(defs, m) for m in node.get("anyOf", [node])]
    key = "discriminator" if union else "properties"
    found = [m for m in members if key in m]
    if len(found) != 1:
        raise CheckError(f"no single {key} in {node}")
    return found[0]


def _plain_list(defs: dict[str, Json], node: Json) -> tuple[str, ...] | None:
    """The item types of a field that is a list of plain values (or null): its schema is a
    type list holding `array`, and items that are a type list alone. None otherwise."""
    node = resolve_ref(defs, node)
    if not isinstance(node, dict) or set(node) - ANNOTATIONS != {"type", "items"}:
        return None
    declared = node["type"]
    types = declared if isinstance(declared, list) else [declared]
    if "array" not in types or not set(types) <= {"array", "null"}:
        return None
    return schema_types(defs, node["items"])


def _members(schema: Json) -> list[Json]:
    """The members of a union, those of a union inside it too (an optional field's reading
    schema takes null beside its own union: `{"anyOf": [{"anyOf": [...]}, null]}`)."""
    found: list[Json] = []
    for member in schema.get("anyOf", []):
        if isinstance(member, dict):
            found += _members(member) if "anyOf" in member else [member]
    return found


def _definitions(
    defs: dict[str, Json], properties: dict[str, Json], source: Json, kinds: dict[str, str | None]
) -> dict[str, str]:
    """The schema definition of each kind of ``kinds``: an item's is the branch its tag picks
    in the input list's items (`if` the tag, `then` the branch, `else` the next test; the last
    `else`, the item without a tag, a message); a tool's the member of the tools list's items
    whose tag is a constant."""
    layout = source["layout"]
    tag_key = layout["block_tag"]
    by_tag: dict[str | None, str] = {}
    node = next(m["items"] for m in _members(properties[layout["messages"]]) if "items" in m)
    while True:
        node = resolve_ref(defs, node)
        if "if" not in node:
            by_tag[None] = _name(node, defs)
            break
        test = resolve_ref(defs, node["if"])
        const = test["properties"][tag_key].get("const")
        if const is not None:  # (else the test of any other tag: items the pass leaves)
            by_tag[const] = _name(resolve_ref(defs, node["then"]), defs)
        node = node["else"]
    (tools_key,) = [
        key
        for key, value in source["request"]["wire"].items()
        if isinstance(value, dict) and value.get("@each", [""])[0] == "tool"
    ]
    tools = resolve_ref(defs, resolve_ref(defs, properties[tools_key])["items"])
    for member in tools.get("anyOf", [tools]):
        found = resolve_ref(defs, member)
        const = found.get("properties", {}).get(tag_key, {}).get("const")
        if const is not None:
            by_tag.setdefault(f"tool:{const}", _name(found, defs))
    out = {}
    for kind, tag in kinds.items():
        key = f"tool:{tag}" if kind == "tool" else tag
        if key not in by_tag:
            raise CheckError(f"{source['format']}: no schema for the {kind} item")
        out[kind] = by_tag[key]
    return out


def _name(node: Json, defs: dict[str, Json]) -> str:
    """The name of a resolved definition."""
    (name,) = [k for k, v in defs.items() if v is node]
    return name
