"""What a fused pair converter checks of its source body in place of the reading schema
(issue 16, item 4: validation folded into the pass).

A fused pass reads every field of its shape and checks its JSON type as it goes, so a body it
converts is one the source's reading schema takes, provided the schema asks nothing more of
that shape than types, constants and required keys. This module reads the reading schema at
generation time and gives the pass what is left:

* the JSON types of each request field the pass reads as a parameter, and of each field it
  does not read (a field it drops may still be refused by the schema);
* the fields whose schema is more than a type list (an object, a union): when one is present
  the pass asks for the full schema check;
* the few constraints the pass checks itself (the image URL's pattern, the tool_choice modes,
  the keys a structured-output request requires).

Anything else the schema asks of a branch the pass takes (a new `pattern`, an `enum`, a bound)
fails generation (:class:`~generator.pairs.PairError`), so a schema change can never leave the
pass accepting what the schema refuses. The promise is proved by
tests/adapters/test_fused_validation.py, which mutates valid bodies field by field.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from generator.paths import SCHEMAS
from generator.reading import reading_schema

Json = Any

# Keywords that only describe, and keywords that give structure the pass walks itself
# (it checks the type of everything it reads, the constants of tags and roles, and the keys
# it needs).
_ANNOTATIONS = frozenset({"description", "title", "examples", "$comment", "default"})
_STRUCTURE = frozenset(
    {"type", "const", "required", "properties", "items", "anyOf", "$ref", "discriminator"}
)

# The constraints beyond structure the pass checks itself (see `SourceChecks`), by where.
_CHECKED_BY_THE_PASS = frozenset({("ImageUrl.url", "pattern"), ("ToolChoiceMode", "enum")})

# What a JSON type is in the pass: the Python types a value of it may have once read.
# (`integer` takes no float: a float such as 1.0 goes the two-step way, stricter is safe.)
PY_TYPES: dict[str, tuple[str, ...]] = {
    "string": ("str",),
    "number": ("int", "float"),
    "integer": ("int",),
    "boolean": ("bool",),
    "null": ("None",),
    "array": ("list",),
    "object": ("dict",),
}


class CheckError(Exception):
    """The source's reading schema asks something of the fused shape the pass does not check."""


@dataclass(frozen=True)
class SourceChecks:
    """What the pass of one source format checks in place of its reading schema."""

    param_types: dict[str, tuple[str, ...]]  # read parameter key -> Python types it may have
    listed_item_types: dict[str, tuple[str, ...]]  # a one-or-many parameter's item types
    unread_types: dict[str, tuple[str, ...]]  # a field the pass drops -> the types it may have
    unread_checked: frozenset[str]  # fields the pass drops whose schema is more than types
    image_url_pattern: str  # what an image URL must match
    tool_choice_modes: frozenset[str]  # the string tool_choice values the schema takes
    rf_required: frozenset[str]  # keys a json_schema response_format's box must have
    # By wire role the pass takes: the types of each message field whose schema is a type
    # alone, and the fields whose schema is more (the full check then runs).
    message_types: dict[str, dict[str, tuple[str, ...]]]
    message_checked: dict[str, frozenset[str]]


def source_checks(
    source: Json, read_keys: Collection[str], params: dict[str, bool], taken: dict[str, set[str]]
) -> SourceChecks:
    """The checks of ``source``'s pass. ``read_keys``: the request fields it reads;
    ``params``: its parameters (key -> read as one or many); ``taken``: by tag property
    (`role`, `type`), the tags of the branches it converts (others go the two-step way)."""
    schema = reading_schema(
        json.loads((SCHEMAS / source["documents"]["request"]).read_text(encoding="utf-8"))
    )
    return schema_checks(source["format"], schema, read_keys, params, taken)


def schema_checks(
    fmt: str,
    schema: Json,
    read_keys: Collection[str],
    params: dict[str, bool],
    taken: dict[str, set[str]],
) -> SourceChecks:
    """`source_checks` of a reading schema given."""
    defs: dict[str, Json] = schema["$defs"]
    fields = _field_checks(fmt, schema, read_keys, taken, _CHECKED_BY_THE_PASS)
    properties: dict[str, Json] = _resolve(defs, schema)["properties"]
    param_types, listed_items = {}, {}
    for key, listed in params.items():
        types = _types(defs, properties[key], listed=listed)
        if types is None:
            raise CheckError(f"{fmt}: parameter {key} is more than a type")
        if listed:
            listed_items[key] = _py(_types(defs, properties[key], items=True) or ())
            types = tuple(t for t in types if t != "array")
        param_types[key] = _py(types)
    message_types, message_checked = _message_fields(defs, properties, taken)
    return SourceChecks(
        param_types,
        listed_items,
        fields.unread_types,
        fields.unread_checked,
        _pattern_at(defs, "ImageUrl", "url"),
        frozenset(defs["ToolChoiceMode"]["enum"]),
        frozenset(_resolve(defs, defs["JsonSchemaFormat"])["required"]),
        message_types,
        message_checked,
    )


@dataclass(frozen=True)
class FieldChecks:
    """What a pass checks of the request fields it does not read (any source format)."""

    unread_types: dict[str, tuple[str, ...]]  # a field the pass drops -> the types it may have
    unread_checked: frozenset[str]  # fields the pass drops whose schema is more than types


def _field_checks(
    fmt: str,
    schema: Json,
    read_keys: Collection[str],
    taken: dict[str, set[str]],
    checked_by_the_pass: Collection[tuple[str, str]],
) -> FieldChecks:
    """Fails when the schema asks of a field the pass reads (in the branches of ``taken``)
    more than structure and ``checked_by_the_pass``; the checks of the fields it drops."""
    defs: dict[str, Json] = schema["$defs"]
    properties: dict[str, Json] = _resolve(defs, schema)["properties"]
    for key in read_keys:
        if key in properties:
            for where, keyword in _extras(defs, properties[key], key, taken):
                if (where, keyword) not in checked_by_the_pass:
                    raise CheckError(
                        f"{fmt}: the fused pass does not check `{keyword}` at "
                        f"{where}; teach it (generator/pair_checks.py, pair.py.j2) or leave "
                        "that shape to the two-step path"
                    )
    unread_types, unread_checked = {}, set()
    for key, node in properties.items():
        if key in read_keys:
            continue
        types = _types(defs, node)
        if types is None:
            unread_checked.add(key)
        else:
            unread_types[key] = _py(types)
    return FieldChecks(unread_types, frozenset(unread_checked))


@dataclass(frozen=True)
class BlockChecks:
    """What the pass of a source whose turns are content blocks (Anthropic: a hoisted system
    prompt, tool results inside user turns) checks in place of its reading schema: the
    parameters' types (a list parameter's own and its items'), the fields it drops, and the
    one constraint beyond structure its shape meets: a base64 image's data pattern."""

    required: frozenset[str]  # the request fields the schema requires
    param_types: dict[str, tuple[str, ...]]  # parameter key -> Python types it may have
    item_types: dict[str, tuple[str, ...]]  # a list parameter's item types
    fields: FieldChecks
    base64_pattern: str
    # A tool's input schema: by the keys its schema names, the Python types each may have,
    # its items' types (a list), and its constant (None: any value of the types).
    tool_schema: dict[str, tuple[tuple[str, ...], tuple[str, ...], Json]]
    # The same of a tool result block's keys.
    result_fields: dict[str, tuple[tuple[str, ...], tuple[str, ...], Json]]


# What the block pass checks itself beyond structure, by where.
_CHECKED_BY_THE_BLOCK_PASS = frozenset({("Base64ImageSource.data", "pattern")})


def block_checks(
    source: Json, read_keys: Collection[str], params: Collection[str], taken: dict[str, set[str]]
) -> BlockChecks:
    """The checks of a block source's pass (`generator/pairs_from_blocks.py`): ``read_keys``
    and ``taken`` as for `source_checks`; ``params``: the request fields it reads as values."""
    fmt = source["format"]
    schema = reading_schema(
        json.loads((SCHEMAS / source["documents"]["request"]).read_text(encoding="utf-8"))
    )
    defs: dict[str, Json] = schema["$defs"]
    fields = _field_checks(fmt, schema, read_keys, taken, _CHECKED_BY_THE_BLOCK_PASS)
    properties: dict[str, Json] = _resolve(defs, schema)["properties"]
    param_types, item_types = {}, {}
    for key in params:
        if key not in properties:
            raise CheckError(f"{fmt}: parameter {key} is not in the reading schema")
        node = _resolve(defs, properties[key])
        types = _types(defs, node)
        if (
            types is None
            and isinstance(node, dict)
            and set(node) - _ANNOTATIONS == {"type", "items"}
        ):
            declared = node["type"]
            types = tuple(declared) if isinstance(declared, list) else (declared,)
            items = _types(defs, node["items"])
            if "array" not in types or items is None:
                raise CheckError(f"{fmt}: parameter {key} is more than a type")
            item_types[key] = _py(items)
        if types is None:
            raise CheckError(f"{fmt}: parameter {key} is more than a type")
        param_types[key] = _py(types)
    return BlockChecks(
        frozenset(_resolve(defs, schema)["required"]),
        param_types,
        item_types,
        fields,
        _pattern_at(defs, "Base64ImageSource", "data"),
        _object_fields(defs, _resolve(defs, {"$ref": "#/$defs/InputSchema"})),
        _object_fields(defs, _resolve(defs, {"$ref": "#/$defs/ToolResultBlock"})),
    )


def _object_fields(
    defs: dict[str, Json], node: Json
) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], Json]]:
    """What an object's schema asks of each key it names, one level deep: its types (a
    constant's type for a `const`), its items' types, its constant. The levels below ask
    structure only (`_extras` fails generation otherwise) and are checked as opaque JSON."""
    out = {}
    for key, sub in node.get("properties", {}).items():
        types: list[str] = []
        items: list[str] = []
        const = None
        for member in _members(defs, sub):
            if "const" in member:
                const = member["const"]
                types.append({str: "string", bool: "boolean"}.get(type(const), "null"))
                continue
            declared = member.get("type", [])
            found = declared if isinstance(declared, list) else [declared]
            types.extend(found)
            if "array" in found and "items" in member:
                items.extend(_types(defs, member["items"]) or ())
        out[key] = (_py(types), _py(items), const)
    return out


def _members(defs: dict[str, Json], node: Json) -> list[Json]:
    node = _resolve(defs, node)
    if isinstance(node, dict) and "anyOf" in node:
        return [m for member in node["anyOf"] for m in _members(defs, member)]
    return [node]


def _message_fields(
    defs: dict[str, Json], properties: dict[str, Json], taken: dict[str, set[str]]
) -> tuple[dict[str, dict[str, tuple[str, ...]]], dict[str, frozenset[str]]]:
    """The fields of each message the pass takes (by the role tags it converts): the Python
    types of those whose schema is a type alone, and those whose schema says more."""
    messages = properties.get("messages")
    item = _resolve(defs, messages.get("items")) if isinstance(messages, dict) else None
    mapping = item.get("discriminator", {}).get("mapping", {}) if isinstance(item, dict) else {}
    types: dict[str, dict[str, tuple[str, ...]]] = {}
    checked: dict[str, frozenset[str]] = {}
    for role in sorted(taken.get("role", set()) & mapping.keys()):
        fields = _resolve(defs, {"$ref": mapping[role]}).get("properties", {})
        found = {key: _types(defs, node) for key, node in fields.items()}
        types[role] = {key: _py(t) for key, t in found.items() if t is not None}
        checked[role] = frozenset(key for key, t in found.items() if t is None)
    return types, checked


def _pattern_at(defs: dict[str, Json], name: str, field: str) -> str:
    return str(defs[name]["properties"][field]["pattern"])


def _resolve(defs: dict[str, Json], node: Json) -> Json:
    while isinstance(node, dict) and "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _py(types: Collection[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(py for t in types for py in PY_TYPES[t]))


def _types(
    defs: dict[str, Json], node: Json, *, items: bool = False, listed: bool = False
) -> tuple[str, ...] | None:
    """The JSON types a schema allows, when a type list (through `$ref` and `anyOf`) is all it
    says; ``listed``: an array of such a type list as well (its items are checked apart);
    ``items``: the types of that array's items. None: it says more."""
    node = _resolve(defs, node)
    if not isinstance(node, dict):
        return None
    rest = {k for k in node if k not in _ANNOTATIONS and not k.startswith("x-")}
    if "anyOf" in node and rest == {"anyOf"}:
        found: list[str] = []
        for member in node["anyOf"]:
            got = _types(defs, member, items=items, listed=listed)
            if got is None:
                return None
            found.extend(got)
        return tuple(dict.fromkeys(found))
    if items:
        if rest == {"type", "items"} and node["type"] == "array":
            return _types(defs, node["items"])
        return ()  # not the array branch
    if listed and rest == {"type", "items"} and node["type"] == "array":
        return ("array",) if _types(defs, node["items"]) is not None else None
    if rest != {"type"}:
        return None
    declared = node["type"]
    return tuple(declared) if isinstance(declared, list) else (declared,)


def _extras(
    defs: dict[str, Json], node: Json, where: str, taken: dict[str, set[str]]
) -> Iterator[tuple[str, str]]:
    """Every keyword beyond structure in the branches of ``node`` the pass takes, with where it
    is (a definition's name and property path)."""
    seen: set[str] = set()

    def walk(node: Json, where: str) -> Iterator[tuple[str, str]]:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                yield from walk(defs[name], name)
        for keyword, value in node.items():
            if keyword in _ANNOTATIONS or keyword.startswith("x-"):
                continue
            if keyword == "additionalProperties":
                if value is not True:
                    yield where, keyword
            elif keyword not in _STRUCTURE:
                yield where, keyword
        for key, sub in node.get("properties", {}).items():
            yield from walk(sub, f"{where}.{key}")
        if "items" in node:
            yield from walk(node["items"], f"{where}[]")
        for member in _taken_members(defs, node, taken):
            yield from walk(member, where)

    yield from walk(node, where)


def _taken_members(defs: dict[str, Json], node: Json, taken: dict[str, set[str]]) -> list[Json]:
    """The members of a union the pass may take: by the discriminator, the tags it converts;
    the member for tags the document does not know (a `not` on the tag) never."""
    members = node.get("anyOf", [])
    discriminator = node.get("discriminator")
    if not isinstance(discriminator, dict):
        return [m for m in members if not _unknown_member(m)]
    tags = taken.get(discriminator["propertyName"], set())
    refs = {ref for tag, ref in discriminator.get("mapping", {}).items() if tag in tags}
    return [m for m in members if m.get("$ref") in refs]


def _unknown_member(member: Json) -> bool:
    properties = member.get("properties", {}) if isinstance(member, dict) else {}
    return any(isinstance(p, dict) and "not" in p for p in properties.values())
