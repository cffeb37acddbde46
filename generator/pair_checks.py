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
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.paths import SCHEMAS
from generator.reading import reading_schema

Json = Any

# Keywords that only describe, and keywords that give structure the pass walks itself
# (it checks the type of everything it reads, the constants of tags and roles, and the keys
# it needs).
# (`contentEncoding` too: in 2020-12 an annotation, which validators do not assert.)
ANNOTATIONS = frozenset(
    {"description", "title", "examples", "$comment", "default", "contentEncoding"}
)
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


def request_reading_schema(source: Json) -> Json:
    """The reading schema of ``source``'s request document (read from disk each call: callers
    may change what they get)."""
    return reading_schema(
        json.loads((SCHEMAS / source["documents"]["request"]).read_text(encoding="utf-8"))
    )


def source_checks(
    source: Json, read_keys: Collection[str], params: dict[str, bool], taken: dict[str, set[str]]
) -> SourceChecks:
    """The checks of ``source``'s pass. ``read_keys``: the request fields it reads;
    ``params``: its parameters (key -> read as one or many); ``taken``: by tag property
    (`role`, `type`), the tags of the branches it converts (others go the two-step way)."""
    schema = request_reading_schema(source)
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
    fields = field_checks(fmt, schema, read_keys, taken, _CHECKED_BY_THE_PASS)
    properties: dict[str, Json] = resolve_ref(defs, schema)["properties"]
    param_types, listed_items = {}, {}
    for key, listed in params.items():
        types = schema_types(defs, properties[key], listed=listed)
        if types is None:
            raise CheckError(f"{fmt}: parameter {key} is more than a type")
        if listed:
            listed_items[key] = python_type_names(
                schema_types(defs, properties[key], items=True) or ()
            )
            types = tuple(t for t in types if t != "array")
        param_types[key] = python_type_names(types)
    message_types, message_checked = _message_fields(defs, properties, taken)
    return SourceChecks(
        param_types,
        listed_items,
        fields.unread_types,
        fields.unread_checked,
        _pattern_at(defs, "ImageUrl", "url"),
        _words(defs["ToolChoiceMode"]),
        frozenset(resolve_ref(defs, defs["JsonSchemaFormat"])["required"]),
        message_types,
        message_checked,
    )


@dataclass(frozen=True)
class FieldChecks:
    """What a pass checks of the request fields it does not read (any source format)."""

    unread_types: dict[str, tuple[str, ...]]  # a field the pass drops -> the types it may have
    unread_checked: frozenset[str]  # fields the pass drops whose schema is more than types


def field_checks(
    fmt: str,
    schema: Json,
    read_keys: Collection[str],
    taken: dict[str, set[str]],
    checked_by_the_pass: Collection[tuple[str, str]],
) -> FieldChecks:
    """Fails when the schema asks of a field the pass reads (in the branches of ``taken``)
    more than structure and ``checked_by_the_pass``; the checks of the fields it drops."""
    defs: dict[str, Json] = schema["$defs"]
    properties: dict[str, Json] = resolve_ref(defs, schema)["properties"]
    for key in sorted(read_keys):
        if key in properties:
            for where, keyword in extras(defs, properties[key], key, taken):
                if (where, keyword) not in checked_by_the_pass:
                    raise CheckError(
                        f"{fmt}: the fused pass does not check `{keyword}` at "
                        f"{where}; teach it (generator/pair_checks.py, pair.py.j2) or leave "
                        "that shape to the two-step path"
                    )
    return _unread(defs, properties, set(read_keys))


@dataclass(frozen=True)
class BlockChecks:
    """What the pass of a source whose turns are content blocks (a hoisted system prompt, tool
    results inside user turns; Anthropic, Bedrock) checks in place of its reading schema: the
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
    # By group (a request field holding parameters or the tools: Bedrock's `inferenceConfig`,
    # `toolConfig`), the keys its schema requires.
    group_required: dict[str, frozenset[str]]
    # A tool's keys beyond those its template names, which reading reports dropped
    # (`tool_extras`; None: the tool's schema takes none, and such a tool goes two-step).
    tool_extra: FieldChecks | None = None
    # By tag, the blocks of the model's turns the pass drops as the target does (`dropped`):
    # the keys the reading schema requires, and by key the Python types it allows.
    dropped: dict[str, tuple[frozenset[str], dict[str, tuple[str, ...]]]] = field(
        default_factory=dict
    )


#: The key of ``taken`` whose tags are the single keys of the untagged blocks a pass takes
#: (Bedrock's `{"text": ...}`): a union of such blocks is walked by them, and its `oneOf` and
#: `not` (one key a block) are what the pass checks itself (it reads one key a block).
UNTAGGED = ""

#: A step of a walk through a schema (`schema_at`): a property, an array's items (`[]`), or a
#: union's member whose property holds a constant (a tag: ``(key, value)``).
Step = str | tuple[str, str]


@dataclass(frozen=True)
class BlockPaths:
    """Where the block pass's source keeps what the checks look at, as steps from the request
    (`schema_at`), worked out by the composer from the mapping's wire templates."""

    image_data: list[Step]  # a base64 image's data
    tool_schema: list[Step]  # a tool's input schema
    result: list[Step]  # a tool result's object (its id, content, flags)
    # A block of the model's turns (the tag step last is the block's), the tags of those
    # the pass drops whose schema it checks (`Checked`), and of those whose schema takes any
    # object of their tag (`Open`: a server tool's blocks, kept verbatim).
    assistant_block: list[Step] = field(default_factory=list)
    dropped_checked: dict[str, frozenset[str]] = field(default_factory=dict)  # tag -> keys taken
    dropped_open: tuple[str, ...] = ()
    # The keys of a tool's template (None: the pass takes no key beyond those it reads).
    tool_keys: frozenset[str] | None = None
    # A base64 document's data (None: the pass takes no document; its data's pattern is the
    # image's, checked alike).
    document_data: list[Step] | None = None


def block_checks(
    source: Json,
    read_keys: Collection[str],
    params: Collection[tuple[Step, ...]],
    taken: dict[str, set[str]],
    paths: BlockPaths,
) -> BlockChecks:
    """The checks of a block source's pass (`generator/pairs_from_blocks.py`): ``read_keys``
    and ``taken`` as for `source_checks`; ``params``: the paths of the request fields it reads
    as values (a key, or a group's key and the key in it); ``paths``: where its parts are."""
    fmt = source["format"]
    schema = request_reading_schema(source)
    defs: dict[str, Json] = schema["$defs"]
    data_at, data = schema_at(defs, schema, paths.image_data)
    checked = {(data_at, "pattern")}
    if paths.document_data is not None:
        document_at, document = schema_at(defs, schema, paths.document_data)
        if document.get("pattern") != data.get("pattern"):
            raise CheckError(f"{fmt}: a document's data checked otherwise than an image's")
        checked.add((document_at, "pattern"))
    fields = field_checks(fmt, schema, read_keys, taken, checked)
    top = resolve_ref(defs, schema)
    param_types, item_types = {}, {}
    groups: dict[str, frozenset[str]] = {}
    for path in params:
        key = str(path[-1])
        node = schema_at(defs, schema, list(path))[1]
        if len(path) > 2:  # a group's setting of a tag: its member of the group's union
            group = schema_at(defs, schema, list(path[:-1]))[1]
            groups[str(path[0])] = frozenset(group.get("required", ()))
        elif len(path) > 1:
            group = _single(defs, top["properties"][path[0]])
            groups[str(path[0])] = frozenset(group.get("required", ()))
        types = schema_types(defs, node)
        if (
            types is None
            and isinstance(node, dict)
            and set(node) - ANNOTATIONS == {"type", "items"}
        ):
            declared = node["type"]
            types = tuple(declared) if isinstance(declared, list) else (declared,)
            items = schema_types(defs, node["items"])
            if "array" not in types or items is None:
                raise CheckError(f"{fmt}: parameter {key} is more than a type")
            item_types[key] = python_type_names(items)
        if types is None:
            raise CheckError(f"{fmt}: parameter {key} is more than a type")
        param_types[key] = python_type_names(types)
    tools = paths.tool_schema[: paths.tool_schema.index("[]")]
    if len(tools) > 1:
        group = _single(defs, top["properties"][tools[0]])
        groups[str(tools[0])] = frozenset(group.get("required", ()))
    return BlockChecks(
        frozenset(top.get("required", ())),
        param_types,
        item_types,
        fields,
        str(data["pattern"]),
        _object_fields(defs, schema_at(defs, schema, paths.tool_schema)[1]),
        _object_fields(defs, schema_at(defs, schema, paths.result)[1]),
        groups,
        tool_extras(fmt, defs, schema, paths),
        _dropped_blocks(fmt, defs, schema, paths),
    )


def tool_extras(
    fmt: str, defs: dict[str, Json], schema: Json, paths: BlockPaths
) -> FieldChecks | None:
    """What the reading schema asks of a tool's keys beyond its template's (which reading
    reports dropped): by key, its types, or that the full check must run (a key the schema
    does not name: nothing). None when the tool's schema refuses other keys."""
    if paths.tool_keys is None:
        return None
    steps = paths.tool_schema[: paths.tool_schema.index("[]") + 1]
    inner = paths.tool_schema[len(steps)]
    members = [
        m
        for _, m in _branches(defs, schema_at(defs, schema, steps)[1], "")
        if inner in m.get("properties", {})
    ]
    if len(members) != 1:
        raise CheckError(f"{fmt}: no single schema of a tool")
    (tool,) = members
    if tool.get("additionalProperties", True) is not True:
        return None
    return _unread(defs, tool.get("properties", {}), set(paths.tool_keys))


def _dropped_blocks(
    fmt: str, defs: dict[str, Json], schema: Json, paths: BlockPaths
) -> dict[str, tuple[frozenset[str], dict[str, tuple[str, ...]]]]:
    """By tag, what the reading schema asks of each block of the model's turns the pass
    drops: its required keys and the types of each key it names (types alone: anything more
    fails generation). An open tag's block (a server tool's) must meet only its tag's
    pattern, which the tag meets (else generation fails): nothing."""
    found: dict[str, tuple[frozenset[str], dict[str, tuple[str, ...]]]] = {}
    tag_key = paths.assistant_block[-1][0] if paths.assistant_block else ""
    for tag, keys in paths.dropped_checked.items():
        where, node = schema_at(defs, schema, [*paths.assistant_block[:-1], (tag_key, tag)])
        named = node.get("properties", {})
        required = frozenset(node.get("required", ()))
        if not required <= keys or not keys <= named.keys() or tag_key not in required:
            raise CheckError(f"{fmt}: {where}: keys the pass does not take")
        types = {}
        for key in sorted(keys - {tag_key}):
            got = schema_types(defs, named[key])
            if got is None:
                raise CheckError(f"{fmt}: {where}.{key} is more than a type")
            types[key] = python_type_names(got)
        extra = sorted(
            set(extras(defs, {k: v for k, v in node.items() if k != "properties"}, where, {}))
        )
        if extra:
            raise CheckError(f"{fmt}: the fused pass does not check {extra}")
        found[tag] = (required - {tag_key}, types)
    if paths.dropped_open:
        block = schema_at(defs, schema, paths.assistant_block[:-1])[1]
        patterns = [
            str(m["properties"][tag_key]["pattern"])
            for _, m in _branches(defs, block, "")
            if m.get("additionalProperties") is True
            and set(m) - ANNOTATIONS - {"x-open"}
            == {"type", "additionalProperties", "required", "properties"}
            and list(m["properties"]) == [tag_key]
            and set(m["properties"][tag_key]) - ANNOTATIONS == {"type", "pattern"}
        ]
        for tag in paths.dropped_open:
            if len(patterns) != 1 or not re.fullmatch(patterns[0], tag):
                raise CheckError(f"{fmt}: no open block schema takes {tag!r}")
            found[tag] = (frozenset(), {})
    return found


def group_settings(
    source: Json, key: str, tag_key: str | None, read: Collection[str]
) -> list[tuple[str | None, tuple[str, ...], FieldChecks]]:
    """The settings a request field holding parameters may have (each member of its union:
    Anthropic's `thinking` enabled, adaptive or disabled; None, a field of one form), each
    with its tag's constant, the keys its schema requires and the checks of the keys it
    names that reading does not take (``read``: the template's; reading reports the others
    dropped). Fails when the schema asks more than structure of a setting itself."""
    schema = request_reading_schema(source)
    defs: dict[str, Json] = schema["$defs"]
    top = resolve_ref(defs, schema)
    members = [m for _, m in _branches(defs, top["properties"][key], "") if m.get("type") != "null"]
    found: list[tuple[str | None, tuple[str, ...], FieldChecks]] = []
    for member in members:
        bare = {k: v for k, v in member.items() if k != "properties"}
        if sorted(set(extras(defs, bare, key, {}))):
            raise CheckError(f"{source['format']}: the fused pass does not check {key}'s setting")
        tag = _const(defs, member.get("properties", {}).get(tag_key)) if tag_key else None
        if tag_key and not isinstance(tag, str):
            raise CheckError(f"{source['format']}: a setting of {key} without a tag")
        required = tuple(sorted(member.get("required", ())))
        found.append((tag, required, _unread(defs, member.get("properties", {}), set(read))))
    if not found or (tag_key is None and len(found) != 1):
        raise CheckError(f"{source['format']}: no single schema of {key}")
    return found


def unknown_tags(source: Json, unions: list[list[Step]]) -> frozenset[str]:
    """The tags the member for blocks the document does not know refuses (reading keeps
    any other tag's block verbatim), the same in each union of blocks at ``unions`` (walks
    to a list's items). Fails generation unless that member asks nothing but its tag: an
    object whose tag is a string none of those."""
    schema = request_reading_schema(source)
    defs: dict[str, Json] = schema["$defs"]
    tag = source["layout"]["block_tag"]
    found: set[frozenset[str]] = set()
    for steps in unions:
        where, union = schema_at(defs, schema, steps)
        members = [
            resolve_ref(defs, m)
            for m in union.get("anyOf", ())
            if _unknown_member(resolve_ref(defs, m))
        ]
        if len(members) != 1:
            raise CheckError(f"{source['format']}: {where}: no single member for unknown blocks")
        (member,) = members
        prop = member["properties"].get(tag, {})
        if (
            set(member) - ANNOTATIONS != {"type", "required", "properties"}
            or member["type"] != "object"
            or member["required"] != [tag]
            or list(member["properties"]) != [tag]
            or set(prop) - ANNOTATIONS != {"type", "not"}
            or prop["type"] != "string"
            or set(prop["not"]) - ANNOTATIONS != {"enum"}
        ):
            raise CheckError(f"{source['format']}: {where}: unknown blocks the pass does not check")
        found.add(frozenset(prop["not"]["enum"]))
    if len(found) != 1:
        raise CheckError(f"{source['format']}: unknown blocks told apart otherwise by union")
    return found.pop()


def format_checks(
    source: Json, path: list[Step]
) -> tuple[frozenset[str], dict[str, tuple[tuple[str, ...], tuple[str, ...], Json]]]:
    """What the reading schema asks of the object at ``path`` (a structured-output format):
    the keys it requires and, by key, its types, items' types and constant (`_object_fields`).
    Fails when it asks more than structure of it."""
    schema = request_reading_schema(source)
    defs: dict[str, Json] = schema["$defs"]
    where, node = schema_at(defs, schema, path)
    extra = sorted(set(extras(defs, node, where, {})))
    if extra:
        raise CheckError(f"{source['format']}: the fused pass does not check {extra}")
    return frozenset(node.get("required", ())), _object_fields(defs, node)


def schema_at(defs: dict[str, Json], schema: Json, steps: list[Step]) -> tuple[str, Json]:
    """The schema a walk of ``steps`` from ``schema`` comes to, with where it is (the last
    definition's name and the property: `extras`'s spelling). Each step goes through the
    unions on the way to the one member that takes it; none or several fail generation."""
    node, name, where = schema, "", ""
    for step in steps:
        found: list[tuple[str, Json]] = []
        for member_name, member in _branches(defs, node, name):
            if step == "[]":
                if "items" in member:
                    found.append((member_name, member["items"]))
            elif isinstance(step, tuple):
                key, value = step
                if _const(defs, member.get("properties", {}).get(key)) == value:
                    found.append((member_name, member))
            elif step in member.get("properties", {}):
                found.append((member_name, member["properties"][step]))
        if len({json.dumps(f, sort_keys=True) for _, f in found}) != 1:
            raise CheckError(f"no single schema at {steps} (step {step!r})")
        name, node = found[0]
        where = name if step == "[]" or isinstance(step, tuple) else f"{name}.{step}"
    got = resolve_ref(defs, node)
    return where, got


def _branches(defs: dict[str, Json], node: Json, name: str) -> list[tuple[str, Json]]:
    """The object or array schemas a value of ``node`` may have (through `$ref`, `anyOf` and
    `oneOf`; a null or a member for blocks the document does not know never), each with the
    name of the definition it is in."""
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = defs[name]
    if not isinstance(node, dict) or _unknown_member(node):
        return []
    if "not" in node and not {"properties", "anyOf", "oneOf"} & node.keys():
        return []  # the member for blocks the document does not know
    members = node.get("anyOf", node.get("oneOf"))
    if members is not None:
        return [b for member in members for b in _branches(defs, member, name)]
    return [(name, node)]


def _const(defs: dict[str, Json], node: Json) -> Json:
    node = resolve_ref(defs, node)
    return node.get("const") if isinstance(node, dict) else None


def _single(defs: dict[str, Json], node: Json) -> Json:
    """The one object schema of a field that may also be null."""
    (only,) = [m for _, m in _branches(defs, node, "") if m.get("type") != "null"]
    return only


def _object_fields(
    defs: dict[str, Json], node: Json
) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], Json]]:
    """What an object's schema asks of each key it names, one level deep: its types (a
    constant's type for a `const`), its items' types, its constant. The levels below ask
    structure only (`extras` fails generation otherwise) and are checked as opaque JSON."""
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
                items.extend(schema_types(defs, member["items"]) or ())
        out[key] = (python_type_names(types), python_type_names(items), const)
    return out


def _members(defs: dict[str, Json], node: Json) -> list[Json]:
    node = resolve_ref(defs, node)
    if isinstance(node, dict) and "anyOf" in node:
        return [m for member in node["anyOf"] for m in _members(defs, member)]
    return [node]


def _message_fields(
    defs: dict[str, Json], properties: dict[str, Json], taken: dict[str, set[str]]
) -> tuple[dict[str, dict[str, tuple[str, ...]]], dict[str, frozenset[str]]]:
    """The fields of each message the pass takes (by the role tags it converts): the Python
    types of those whose schema is a type alone, and those whose schema says more."""
    messages = properties.get("messages")
    item = resolve_ref(defs, messages.get("items")) if isinstance(messages, dict) else None
    mapping = item.get("discriminator", {}).get("mapping", {}) if isinstance(item, dict) else {}
    types: dict[str, dict[str, tuple[str, ...]]] = {}
    checked: dict[str, frozenset[str]] = {}
    for role in sorted(taken.get("role", set()) & mapping.keys()):
        fields = resolve_ref(defs, {"$ref": mapping[role]}).get("properties", {})
        found = {key: schema_types(defs, node) for key, node in fields.items()}
        types[role] = {key: python_type_names(t) for key, t in found.items() if t is not None}
        checked[role] = frozenset(key for key, t in found.items() if t is None)
    return types, checked


def _pattern_at(defs: dict[str, Json], name: str, field: str) -> str:
    return str(defs[name]["properties"][field]["pattern"])


def resolve_ref(defs: dict[str, Json], node: Json) -> Json:
    while isinstance(node, dict) and "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def python_type_names(types: Collection[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(py for t in types for py in PY_TYPES[t]))


def schema_types(
    defs: dict[str, Json], node: Json, *, items: bool = False, listed: bool = False
) -> tuple[str, ...] | None:
    """The JSON types a schema allows, when a type list (through `$ref` and `anyOf`) is all it
    says; ``listed``: an array of such a type list as well (its items are checked apart);
    ``items``: the types of that array's items. None: it says more."""
    node = resolve_ref(defs, node)
    if not isinstance(node, dict):
        return None
    rest = {k for k in node if k not in ANNOTATIONS and not k.startswith("x-")}
    if "anyOf" in node and rest == {"anyOf"}:
        found: list[str] = []
        for member in node["anyOf"]:
            got = schema_types(defs, member, items=items, listed=listed)
            if got is None:
                return None
            found.extend(got)
        return tuple(dict.fromkeys(found))
    if items:
        if rest == {"type", "items"} and node["type"] == "array":
            return schema_types(defs, node["items"])
        return ()  # not the array branch
    if listed and rest == {"type", "items"} and node["type"] == "array":
        return ("array",) if schema_types(defs, node["items"]) is not None else None
    if rest != {"type"}:
        return None
    declared = node["type"]
    return tuple(declared) if isinstance(declared, list) else (declared,)


def extras(
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
        untagged = UNTAGGED in taken and _untagged_union(defs, node)
        for keyword, value in node.items():
            if keyword in ANNOTATIONS or keyword.startswith("x-"):
                continue
            if untagged and keyword in ("oneOf", "not"):
                continue  # one kind a block: the pass reads a block of one key only
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
    if UNTAGGED in taken and _untagged_union(defs, node):
        keys = taken[UNTAGGED]
        return [m for m in _block_members(defs, node) if _block_key(defs, m) in keys]
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


def _block_members(defs: dict[str, Json], node: Json) -> list[Json]:
    """The members of a union, save the one for blocks the document does not know (an object
    that is none of the others: a `not` of its own)."""
    members = node.get("anyOf", node.get("oneOf", []))
    return [m for m in members if not (isinstance(m, dict) and "not" in m and "$ref" not in m)]


def _block_key(defs: dict[str, Json], member: Json) -> str | None:
    """The one key of an untagged block's schema (an object that requires its one property)."""
    node = resolve_ref(defs, member)
    if not isinstance(node, dict):
        return None
    names = list(node.get("properties", {}))
    return names[0] if len(names) == 1 and node.get("required") == names else None


def _untagged_union(defs: dict[str, Json], node: Json) -> bool:
    """Whether ``node`` is a union of untagged blocks (each member an object of one key)."""
    members = _block_members(defs, node) if isinstance(node, dict) else []
    return bool(members) and all(_block_key(defs, m) is not None for m in members)


@dataclass(frozen=True)
class ContentChecks:
    """What the pass of a source whose turns are content objects (Gemini) checks in place of
    its reading schema: the parameters' types (a list parameter's items' too), the fields it
    drops (at the top and in the parameters' group: their types, or that the full check must
    run), and the base64 pattern of an image's data."""

    param_types: dict[str, tuple[str, ...]]
    item_types: dict[str, tuple[str, ...]]
    fields: FieldChecks  # the request's fields the pass drops
    group: FieldChecks  # the parameters' group's fields the pass drops
    # Of those, each a list whose items' schema is a type alone: the types of its items
    # (the pass checks them, as it checks a list parameter's).
    group_items: dict[str, tuple[str, ...]]
    base64_pattern: str
    signature_pattern: str  # a signature beside a model's text or call


def content_checks(source: Json, values: dict[str, Any]) -> ContentChecks:
    """The checks of a content source's pass (`generator/pairs_from_contents.py`), from the
    keys the composer found (``values``). Fails when the schema asks of what the pass reads
    more than structure, a type the pass does not take, or a constraint it does not check."""
    fmt = source["format"]
    schema = request_reading_schema(source)
    defs: dict[str, Json] = schema["$defs"]
    v = values
    # The one constraint beyond structure the pass checks itself: an image's data's pattern.
    checked = {(f"{v['s_image_box']}.{v['s_image']['data']}", "pattern")}
    part = schema_at(defs, schema, [v["s_messages"], "[]", v["s_content"]])[1]
    if "items" not in part:
        raise CheckError(f"{fmt}: turns whose parts the content pass does not read")
    members = {
        tuple(resolve_ref(defs, m).get("required", ())): m
        for m in _block_members(defs, resolve_ref(defs, part["items"]))
    }
    _part_checks(fmt, defs, members, v, checked)
    reads = _content_reads(v)
    for steps, keys in reads:
        where, node = schema_at(defs, schema, steps)
        node = _single(defs, node) if "anyOf" in node else node
        if not keys:
            extra = sorted(set(extras(defs, node, where, {})) - checked)
            if extra:
                raise CheckError(f"{fmt}: the fused pass does not check {extra}")
        for key, taken_types in keys.items():
            prop = node.get("properties", {}).get(key)
            _takes(fmt, defs, prop, taken_types, f"{where}.{key}", set(), shallow=True)
    params_node = _single(defs, resolve_ref(defs, schema)["properties"][v["s_params_key"]])
    read_params = {key for key, _ in v["s_params"]}
    param_types, item_types = _group_params(fmt, defs, params_node, read_params)
    group = _unread(defs, params_node["properties"], read_params | set(v["s_param_others"]))
    group_items = {}
    for key in sorted(group.unread_checked):
        node = params_node["properties"][key]
        if set(node) - ANNOTATIONS == {"type", "items"}:
            items = schema_types(defs, node["items"])
            declared = node["type"]
            if items is not None and isinstance(declared, list):
                group_items[key] = python_type_names(items)
                group.unread_types[key] = python_type_names(declared)
    group = FieldChecks(group.unread_types, group.unread_checked - group_items.keys())
    return ContentChecks(
        param_types,
        item_types,
        _unread(defs, resolve_ref(defs, schema)["properties"], set(reads[0][1])),
        group,
        group_items,
        str(_blob_data(defs, members, v)["pattern"]),
        _signature_pattern(fmt, defs, members, v),
    )


_STRING: tuple[str, ...] = ("string",)
_ARRAY: tuple[str, ...] = ("array",)
_OBJECT: tuple[str, ...] = ("object",)


def _content_reads(v: dict[str, Any]) -> list[tuple[list[Step], dict[str, tuple[str, ...]]]]:
    """What a content pass reads of each object outside the turns' parts (steps from the
    request), with the JSON types it takes (a role: the strings it converts); none: a value
    it carries as it is (checked whole)."""
    system, messages, content = v["s_system"], v["s_messages"], v["s_content"]
    tools, group = v["s_tools"], v["s_tools_group"]
    choice = [v["s_choice_key"], v["s_choice_inner"]]
    top = {messages: _ARRAY, system: _OBJECT, tools: _ARRAY, choice[0]: _OBJECT}
    return [
        ([], {**top, v["s_params_key"]: _OBJECT}),
        ([messages, "[]"], {v["s_role"]: (v["s_user"], v["s_assistant"])}),
        ([system], {v["s_role"]: _STRING}),
        ([system, content, "[]"], {v["s_text_key"]: _STRING}),
        ([tools, "[]"], {group: _ARRAY}),
        (
            [tools, "[]", group, "[]"],
            {v["s_tool"]["name"]: _STRING, v["s_tool"]["description"]: _STRING},
        ),
        ([tools, "[]", group, "[]", v["s_tool"]["schema"]], {}),
        ([choice[0]], {choice[1]: _OBJECT}),
        (choice, {v["s_mode_key"]: _STRING, v["s_names_key"]: _ARRAY}),
        ([*choice, v["s_names_key"], "[]"], {}),
    ]


def _part_checks(
    fmt: str,
    defs: dict[str, Json],
    members: dict[Any, Json],
    v: dict[str, Any],
    checked: set[tuple[str, str]],
) -> None:
    """Fails unless each part the pass reads is a member of the parts' union holding its one
    key, whose fields the pass reads ask only the types it takes."""
    boxes = {
        v["s_text_key"]: ({}, _STRING),
        v["s_image_box"]: (v["s_image"], _OBJECT),
        v["s_call_box"]: (v["s_call"], _OBJECT),
        v["s_result_box"]: (v["s_result"], _OBJECT),
    }
    carried = (v["s_call"]["arguments"], v["s_result"]["response"])  # objects, as they are
    for key, (inner, box_types) in boxes.items():
        member = resolve_ref(defs, members.get((key,), {}))
        node = member.get("properties", {}).get(key)
        if node is None:
            raise CheckError(f"{fmt}: no part of one key {key!r}")
        _takes(fmt, defs, node, box_types, key, checked, shallow=bool(inner))
        box = resolve_ref(defs, node)
        for name in inner.values():
            taken = _OBJECT if name in carried else _STRING
            prop = box.get("properties", {}).get(name)
            _takes(fmt, defs, prop, taken, f"{key}.{name}", checked)


def _signature_pattern(
    fmt: str, defs: dict[str, Json], members: dict[Any, Json], v: dict[str, Any]
) -> str:
    """The pattern of a signature beside a text or a call (one for both), which the pass
    checks; fails when the schema asks more of it."""
    patterns = set()
    for key in (v["s_text_key"], v["s_call_box"]):
        node = resolve_ref(defs, members[(key,)])["properties"].get(v["s_signature"])
        if node is None:
            raise CheckError(f"{fmt}: no signature beside {key}")
        rest = {k for k in node if k not in ANNOTATIONS and not k.startswith("x-")}
        if rest != {"type", "pattern"} or "string" not in node["type"]:
            raise CheckError(f"{fmt}: a signature the pass does not check")
        patterns.add(str(node["pattern"]))
    if len(patterns) != 1:
        raise CheckError(f"{fmt}: signatures of two patterns")
    return patterns.pop()


def _group_params(
    fmt: str, defs: dict[str, Json], group: Json, keys: set[str]
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """The Python types of each parameter of a group the pass reads, and of a list
    parameter's items; fails when one's schema is more than that."""
    param_types: dict[str, tuple[str, ...]] = {}
    item_types: dict[str, tuple[str, ...]] = {}
    for key in sorted(keys):
        node = group["properties"].get(key)
        types = schema_types(defs, node)
        if (
            types is None
            and isinstance(node, dict)
            and set(node) - ANNOTATIONS == {"type", "items"}
        ):
            items = schema_types(defs, node["items"])
            declared = node["type"]
            types = tuple(declared) if isinstance(declared, list) else (declared,)
            if items is None or "array" not in types:
                raise CheckError(f"{fmt}: parameter {key} is more than a type")
            item_types[key] = python_type_names(items)
        if types is None:
            raise CheckError(f"{fmt}: parameter {key} is more than a type")
        param_types[key] = python_type_names(types)
    return param_types, item_types


def _blob_data(defs: dict[str, Json], members: dict[Any, Json], v: dict[str, Any]) -> Json:
    """The schema of an image's data (its pattern is what the pass checks)."""
    member = resolve_ref(defs, members[(v["s_image_box"],)])
    box = resolve_ref(defs, member["properties"][v["s_image_box"]])
    return resolve_ref(defs, box["properties"][v["s_image"]["data"]])


def _unread(defs: dict[str, Json], properties: dict[str, Json], read: set[str]) -> FieldChecks:
    """The checks of the fields of an object the pass drops (`field_checks`'s second half)."""
    unread_types, unread_checked = {}, set()
    for key, node in properties.items():
        if key in read:
            continue
        types = schema_types(defs, node)
        if types is None:
            unread_checked.add(key)
        else:
            unread_types[key] = python_type_names(types)
    return FieldChecks(unread_types, frozenset(unread_checked))


def _takes(  # noqa: PLR0917 (one check, its six facts)
    fmt: str,
    defs: dict[str, Json],
    node: Json,
    types: tuple[str, ...],
    where: str,
    checked: set[tuple[str, str]],
    *,
    shallow: bool = False,
) -> None:
    """Fails unless every value the pass takes there (of ``types``, or the strings of a role
    it converts) is what ``node`` asks: by type alone, an enum holding those strings, or an
    object whose schema asks nothing beyond structure and ``checked`` (``shallow``: of the
    object itself, its properties the pass reads being checked apart)."""
    if node is None:
        raise CheckError(f"{fmt}: no schema for {where}")
    members = [resolve_ref(defs, m) for m in _members(defs, node)]
    enums = [m for m in members if "enum" in m]
    if types and not set(types) & set(PY_TYPES):  # the strings of a role
        if len(enums) != 1 or not set(types) <= set(enums[0]["enum"]):
            raise CheckError(f"{fmt}: {where} takes other values than {types}")
        if any(m.get("type") != "null" for m in members if "enum" not in m):
            raise CheckError(f"{fmt}: {where} is more than an enum")
        return
    found = schema_types(defs, node)
    if found is not None:
        if not set(types) <= set(found):
            raise CheckError(f"{fmt}: {where} is not of the types the pass takes {types}")
        return
    members = [m for m in _members(defs, node) if m.get("type") != "null"]
    # A member of a JSON type the pass does not take (Gemini's one tool group alone, an
    # object where the pass takes the list) sends the value the two-step way: the pass checks
    # the type of all it reads.
    taken = [m for m in members if _declared_type(defs, m) in (None, *types)]
    if taken:
        members = taken
    if len(members) != 1:
        raise CheckError(f"{fmt}: {where} is more than a type")
    (member,) = members
    declared = member.get("type")
    if declared not in types and not (isinstance(declared, list) and set(types) <= set(declared)):
        raise CheckError(f"{fmt}: {where} is not of the types the pass takes {types}")
    if shallow:
        member = {k: v for k, v in member.items() if k not in ("properties", "items")}
    extra = sorted(set(extras(defs, member, where, {})) - checked)
    if extra:
        raise CheckError(f"{fmt}: the fused pass does not check {extra}")


def _declared_type(defs: dict[str, Json], member: Json) -> str | None:
    """The one JSON type a union member declares (through a reference), else None."""
    declared = resolve_ref(defs, member).get("type")
    return declared if isinstance(declared, str) else None


def _words(node: Json) -> frozenset[str]:
    """The strings a schema of words takes: its `enum`, or its members' (the reading schema
    makes a node with other shapes on read, `x-read.also`, a union of them)."""
    members = node.get("anyOf", [node])
    return frozenset(
        word for m in members for word in m.get("enum", [m["const"]] if "const" in m else [])
    )
