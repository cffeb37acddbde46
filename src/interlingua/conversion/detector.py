"""Which format and kind a JSON body is, read off the format schemas.

>>> from interlingua import detect
>>> body = {"model": "m", "max_tokens": 9, "system": "Be brief.",
...         "messages": [{"role": "user", "content": "hi"}]}
>>> found = detect(body)
>>> found.format, found.kind
('anthropic', 'request')
>>> found.reason
'valid anthropic request: top-level `system` (openai-chat request validates too, without it)'

Nothing here names a provider field. A body is a *candidate* for (format, kind) when it
validates against that format's wire schema (``canonical``: the Conversation or Response its
keys announce, checked by :func:`interlingua.documents.validation.validate`). A candidate also needs
*evidence*: at least one field its schema declares must be present, so a schema that
requires nothing cannot claim every object.

Evidence is what the body uses of a schema, collected by walking body and schema together:
a declared key that is present (rank 1, or 2 when the schema requires it) and a value the
schema pins with ``const`` (rank 3, such as a block's ``type``). When several candidates
validate, a feature *distinguishes* a candidate when no other candidate's walk has it; the
candidate with the highest-ranked distinguishing feature wins, and a tie is ``ambiguous``.
Stored messages (turns kept outside a request) are the reading of last resort: a payload that
some format takes as a request or response body is not also taken for stored messages.

Before any full validation, each schema's root is checked cheaply (type, required keys,
closed key sets, pinned values, at least one declared key present), so most formats are
ruled out without walking the body. When one schema takes the body, the others are walked
only for the winner's features they could claim (`_Claims`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import (
    CANONICAL,
    DOCUMENT_TYPES,
    KINDS,
    _wire_validator,
    adapter,
    canonical_messages,
    check_canonical,
    check_data,
    check_wire,
    formats,
    from_text,
    kinds,
    reading_schema,
    text_format,
)
from interlingua.conversion.detection import Candidate, Detection, Rejection
from interlingua.conversion.locating import with_definitions
from interlingua.documents.validation import DOCUMENT_MODELS, detect_document, is_error, validate

# Ranks of evidence: a present key the schema declares, one it requires, a value it pins.
DECLARED, REQUIRED, PINNED = 1, 2, 3
_MAX_DEPTH = 64  # schema/body nesting walked for evidence (deeper levels add no evidence)
_MAX_SHOWN = 3  # evidence items a reason names


# --- schemas -----------------------------------------------------------------------------------


_ABSENT: Any = object()

# Keywords the walk and the cheap checks read; a `$ref` with none of them beside it is an alias.
_KEYWORDS = frozenset(
    "type const enum pattern required properties additionalProperties patternProperties items "
    "prefixItems allOf anyOf oneOf if then else".split()
)

_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": lambda x: isinstance(x, int | float) and not isinstance(x, bool),
    "integer": lambda x: (
        (isinstance(x, int) and not isinstance(x, bool))
        or (isinstance(x, float) and x.is_integer())
    ),
}


def _same(a: Any, b: Any) -> bool:
    """JSON equality (``true`` is not ``1``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


class _Node:
    """One schema node, compiled once: references resolved, keywords read into fields."""

    __slots__ = (
        "all_of",
        "always",
        "closed",
        "const",
        "else_",
        "enum",
        "extra",
        "if_",
        "items",
        "pattern",
        "prefix",
        "properties",
        "raw",
        "required",
        "then",
        "types",
        "unions",
    )

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.always: bool | None = raw if isinstance(raw, bool) else None
        self.types: tuple[Callable[[Any], bool], ...] = ()
        self.const: Any = _ABSENT
        self.enum: tuple[Any, ...] | None = None
        self.pattern: re.Pattern[str] | None = None
        self.required: tuple[str, ...] = ()
        self.properties: dict[str, _Node] = {}
        self.closed = False
        self.extra: _Node | None = None
        self.items: _Node | None = None
        self.prefix: tuple[_Node, ...] = ()
        self.all_of: tuple[_Node, ...] = ()
        self.unions: tuple[_Union, ...] = ()
        self.if_: _Node | None = None
        self.then: _Node | None = None
        self.else_: _Node | None = None

    def shallow(self, value: Any, depth: int = 0) -> bool:
        """Type and pinned values only (through ``allOf``), for a property's value."""
        if self.always is not None:
            return self.always
        if self.types and not any(check(value) for check in self.types):
            return False
        if self.const is not _ABSENT and not _same(value, self.const):
            return False
        if self.enum is not None and not any(_same(value, option) for option in self.enum):
            return False
        if self.pattern is not None and isinstance(value, str) and not self.pattern.search(value):
            return False
        return depth > _MAX_DEPTH or all(sub.shallow(value, depth + 1) for sub in self.all_of)

    def admits(self, value: Any, depth: int = 0) -> bool:
        """A cheap necessary condition for ``value`` matching this node: its type, pinned
        values, required keys, closed key set, and its properties' types and pinned values."""
        if depth > _MAX_DEPTH:
            return self.always is not False
        if not self.shallow(value):
            return False
        if isinstance(value, dict):
            if any(key not in value for key in self.required):
                return False
            properties = self.properties
            for key, item in value.items():
                sub = properties.get(key)
                if sub is None:
                    if self.closed:
                        return False
                elif not sub.shallow(item):
                    return False
        if not all(sub.admits(value, depth + 1) for sub in self.all_of):
            return False
        return all(
            any(b.admits(value, depth + 1) for b in union.asked(value)) for union in self.unions
        )

    def declared(self, depth: int = 0) -> set[str]:
        """Every key this node declares, through ``allOf`` and union branches."""
        keys = set(self.properties)
        if depth < 8:
            for sub in (*self.all_of, *(b for union in self.unions for b in union.branches)):
                keys |= sub.declared(depth + 1)
        return keys


class _Union:
    """The branches of one ``anyOf`` or ``oneOf``. When every branch requires one key and pins
    it to a string (a message's ``role``, a part's ``type``), an object can be admitted only by
    the branches pinning its value of that key, so only those are asked."""

    __slots__ = ("branches", "key", "tagged")

    def __init__(self, branches: tuple[_Node, ...]) -> None:
        self.branches = branches
        self.key: str | None = None
        # Read on first use: when the union is built, a branch may still be compiling.
        self.tagged: dict[str, tuple[_Node, ...]] | None = None

    def asked(self, value: Any) -> tuple[_Node, ...]:
        """The branches that may admit ``value``: all of them, or those its tag names."""
        if self.tagged is None:
            self.key, self.tagged = _tags(self.branches)
        if self.key is None or not isinstance(value, dict):
            return self.branches
        tag = value.get(self.key)
        return self.tagged.get(tag, ()) if isinstance(tag, str) else ()


def _tags(branches: tuple[_Node, ...]) -> tuple[str | None, dict[str, tuple[_Node, ...]]]:
    """A key every branch requires and pins to a string, and the branches for each string."""
    common: set[str] | None = None
    for branch in branches:
        pinned = {
            key
            for key in branch.required
            if (sub := branch.properties.get(key)) is not None and isinstance(sub.const, str)
        }
        common = pinned if common is None else common & pinned
    if not common:
        return None, {}
    key = min(common)
    tagged: dict[str, tuple[_Node, ...]] = {}
    for branch in branches:
        tag = branch.properties[key].const
        tagged[tag] = (*tagged.get(tag, ()), branch)
    return key, tagged


def _regex(pattern: Any) -> re.Pattern[str] | None:
    if not isinstance(pattern, str):
        return None
    try:
        return re.compile(pattern)
    except re.error:
        return None  # an ECMA-only construct: leave the check to the validator


class _Compiler:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.done: dict[int, _Node] = {}

    def lookup(self, ref: Any) -> Any:
        if not isinstance(ref, str) or not ref.startswith("#"):
            return True  # a remote reference: nothing to check or walk
        target: Any = self.root
        for token in ref[1:].split("/")[1:]:
            key = token.replace("~1", "/").replace("~0", "~")
            target = target.get(key) if isinstance(target, dict) else None
        return target if isinstance(target, dict | bool) else True

    def node(self, raw: Any, depth: int = 0) -> _Node:
        if not isinstance(raw, dict):
            return _Node(raw if isinstance(raw, bool) else True)
        known = self.done.get(id(raw))
        if known is not None:
            return known
        if "$ref" in raw and _KEYWORDS.isdisjoint(raw) and depth < _MAX_DEPTH:
            node = self.node(self.lookup(raw["$ref"]), depth + 1)  # an alias
            self.done[id(raw)] = node
            return node
        node = self.done[id(raw)] = _Node(raw)
        types = raw.get("type")
        names = [types] if isinstance(types, str) else list(types or ())
        node.types = tuple(_TYPES[name] for name in names if name in _TYPES)
        node.const = raw.get("const", _ABSENT)
        node.enum = tuple(raw["enum"]) if isinstance(raw.get("enum"), list) else None
        node.pattern = _regex(raw.get("pattern"))
        node.required = tuple(raw.get("required", ()))
        node.properties = {k: self.node(v) for k, v in raw.get("properties", {}).items()}
        extra = raw.get("additionalProperties")
        node.closed = extra is False and "patternProperties" not in raw
        node.extra = self.node(extra) if isinstance(extra, dict) else None
        node.items = self.node(raw["items"]) if isinstance(raw.get("items"), dict) else None
        node.prefix = tuple(self.node(sub) for sub in raw.get("prefixItems", ()))
        all_of = [self.node(sub) for sub in raw.get("allOf", ())]
        if "$ref" in raw:
            all_of.append(self.node(self.lookup(raw["$ref"])))
        node.all_of = tuple(all_of)
        node.unions = tuple(
            _Union(tuple(self.node(sub) for sub in raw[union]))
            for union in ("anyOf", "oneOf")
            if isinstance(raw.get(union), list)
        )
        if "if" in raw:
            node.if_ = self.node(raw["if"])
            node.then = self.node(raw["then"]) if "then" in raw else None
            node.else_ = self.node(raw["else"]) if "else" in raw else None
        return node


@dataclass(frozen=True)
class _Schema:
    format: str
    kind: str
    root: _Node
    validator: Draft202012Validator  # the schema, for its raw form and its errors
    keys: frozenset[str]  # the keys the root declares
    fast: Any = None  # jsonschema-rs over the whole schema: the yes/no answer
    nodes: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)
    paths: dict[Feature, bool] = field(default_factory=dict, compare=False, repr=False)

    def is_valid(self, value: Any) -> bool:
        return bool(self.fast.is_valid(value))

    def valid(self, node: _Node, value: Any) -> bool:
        """Whether ``value`` matches one node of the schema (jsonschema-rs: no pure-Python
        validation runs, whatever the size of the body)."""
        if node.always is not None:
            return node.always
        checker = self.nodes.get(id(node.raw))
        if checker is None:
            checker = _fast(with_definitions(node.raw, self.validator.schema))
            self.nodes[id(node.raw)] = checker
        return bool(checker.is_valid(value))

    def reaches(self, feature: Feature) -> bool:
        """Whether a walk of this schema may find ``feature``: its path followed through the
        schema's properties, ``*`` (a key it does not declare), ``[]`` (an item) and every
        branch at once, to a declared key (a key present) or a node that pins the value. It
        says yes where a walk may or may not; no only where none can."""
        known = self.paths.get(feature)
        if known is None:
            known = self.paths[feature] = _reaches(self.root, *feature)
        return known


def _reaches(root: _Node, path: str, pinned: str | None) -> bool:
    value = _ABSENT if pinned is None else json.loads(pinned)
    seen: set[tuple[int, int]] = set()
    todo = [(root, 0)]
    while todo:
        node, at = todo.pop()
        if node.always is not None or (id(node), at) in seen:
            continue
        seen.add((id(node), at))
        # What `_Walk.walk` walks at the same path.
        todo.extend((sub, at) for sub in node.all_of)
        todo.extend((sub, at) for union in node.unions for sub in union.branches)
        todo.extend((sub, at) for sub in (node.then, node.else_) if sub is not None)
        if at == len(path):  # a value pinned here (what `_Walk.walk` adds)
            if value is not _ABSENT and (
                (node.const is not _ABSENT and _same(value, node.const))
                or (node.enum is not None and any(_same(value, o) for o in node.enum))
            ):
                return True
            continue
        # A step down: an item, or a key (after a dot, but at the start of the path).
        if path.startswith("[]", at):
            todo.extend((sub, at + 2) for sub in node.prefix)
            todo.extend((sub, at + 2) for sub in (node.items,) if sub is not None)
        start = at + 1 if at else 0
        if at and not path.startswith(".", at):
            continue
        for key, sub in node.properties.items():
            if path.startswith(key, start):
                if start + len(key) == len(path) and value is _ABSENT:
                    return True  # a declared key present (what `_Walk.walk_object` adds)
                todo.append((sub, start + len(key)))
        if node.extra is not None and path.startswith("*", start):
            todo.append((node.extra, start + 1))
    return False


def _fast(schema: Any) -> Any:
    return jsonschema_rs.validator_for(schema)


@cache
def _schema(fmt: str, kind: str) -> _Schema:
    if fmt == CANONICAL:
        # The canonical documents are validated by the generated validators; their pydantic
        # models give the same shape as a JSON Schema to walk for evidence.
        raw: Any = DOCUMENT_MODELS[DOCUMENT_TYPES[kind]].model_json_schema()
        if kind == "messages":  # one Message, or a list of them
            defs = raw.pop("$defs", {})
            defs.setdefault("Message", raw)  # (a root that is only a reference to it: kept)
            one = {"$ref": "#/$defs/Message"}
            raw = {"$defs": defs, "oneOf": [one, {"type": "array", "items": one}]}
        validator = Draft202012Validator(raw)
    else:
        validator = _wire_validator(adapter(fmt).schemas[kind])
        raw = validator.schema
    return _build(fmt, kind, raw, validator)


def _build(fmt: str, kind: str, raw: Any, validator: Draft202012Validator) -> _Schema:
    root = _Compiler(raw).node(raw)
    return _Schema(fmt, kind, root, validator, frozenset(root.declared()), _fast(raw))


@cache
def _reading(fmt: str, kind: str) -> _Schema:
    """The reading schema of a wire format's document (generator/reading.py)."""
    validator = _wire_validator(reading_schema(adapter(fmt).schemas[kind]))
    return _build(fmt, kind, validator.schema, validator)


def _tolerant(
    scope: list[tuple[str, str]], shaped: Mapping[tuple[str, str], Any]
) -> dict[tuple[str, str], tuple[dict[Feature, int], list[str]]]:
    """The (format, kind) pairs whose reading schema takes the payload, with evidence and the
    keys each leaves unlisted: tried when no schema takes it as written."""
    found = {}
    for pair in scope:
        body = shaped[pair]
        if pair[0] == CANONICAL or body is _ABSENT:
            continue
        schema = _reading(*pair)
        if not schema.root.admits(body) or (
            isinstance(body, dict) and schema.keys and schema.keys.isdisjoint(body)
        ):
            continue
        if not schema.is_valid(body):
            continue
        walk = _Walk(schema)
        walk.walk(schema.root, body, "")
        listed = sum(1 for _, pinned in walk.features if pinned is None)
        # Mostly of the format: at least twice as many of its keys as keys it does not list
        # (otherwise an open reading would take any object with a role and a content for a
        # turn: another format's response, say).
        if walk.features and 2 * len(walk.unlisted) <= listed:
            found[pair] = (walk.features, sorted(walk.unlisted))
    return found


def _detect_tolerant(scope: list[tuple[str, str]], payload: Any) -> Detection | None:
    """Detection through the reading schemas: the format whose schema leaves the fewest keys
    unlisted wins (then the evidence rules); None when no reading schema takes it either."""
    shaped = {pair: _shaped(*pair, payload) for pair in scope}
    found = _tolerant(scope, shaped)
    if any(kind != "messages" for _, kind in found):
        found = {pair: v for pair, v in found.items() if pair[1] != "messages"}
    if not found:
        return None
    fewest = min(len(unlisted) for _, unlisted in found.values())
    tied = [pair for pair, (_, unlisted) in found.items() if len(unlisted) == fewest]
    evidence = {pair: found[pair][0] for pair in tied}
    distinct = {
        pair: _distinct(evidence[pair], (evidence[o] for o in tied if o != pair)) for pair in tied
    }
    best = {pair: max(distinct[pair].values(), default=0) for pair in tied}
    leaders = [pair for pair in tied if best[pair] == max(best.values())]
    others = ", ".join(
        f"{fmt} {kind} {len(found[(fmt, kind)][1])}"
        for fmt, kind in found
        if (fmt, kind) not in leaders
    )
    also = f"; keys unlisted by the others: {others}" if others else ""
    if len(leaders) > 1:
        candidates = tuple(
            Candidate(fmt, kind, _describe(distinct[(fmt, kind)] or evidence[(fmt, kind)]))
            for fmt, kind in leaders
        )
        summary = (
            "no schema takes it as written; read tolerantly, each takes it alike "
            f"({fewest} key(s) unlisted){also}"
        )
        return Detection(
            "ambiguous",
            f"ambiguous between {_names(leaders)}: {summary}",
            summary,
            candidates=candidates,
        )
    winner = leaders[0]
    unlisted = found[winner][1]
    named = ", ".join(f"`{key}`" for key in unlisted[:_MAX_SHOWN])
    more = f" and {len(unlisted) - _MAX_SHOWN} more" if len(unlisted) > _MAX_SHOWN else ""
    shown = _describe(distinct[winner] or evidence[winner])
    keys = (
        f"{len(unlisted)} key(s) its schema does not list ({named}{more})"
        if unlisted
        else "it breaks only value rules of the schema (lengths, ranges, enums)"
    )
    summary = f"{', '.join(shown)}; no schema takes it as written, read tolerantly: {keys}{also}"
    fmt, kind = winner
    return Detection(
        "detected",
        f"readable {fmt} {kind}: {summary}",
        summary,
        fmt,
        kind,
        candidates=(Candidate(fmt, kind, shown),),
    )


def _plausible(fmt: str, kind: str, payload: Any) -> bool:
    """The cheap root check: no full validation is run for a body that fails it."""
    schema = _schema(fmt, kind)
    if not schema.root.admits(payload):
        return False
    return not (isinstance(payload, dict) and schema.keys and schema.keys.isdisjoint(payload))


def _valid(fmt: str, kind: str, payload: Any) -> bool:
    if fmt == CANONICAL:
        documents = canonical_messages(payload) if kind == "messages" else [payload]
        return bool(documents) and all(
            detect_document(d) == DOCUMENT_TYPES[kind]
            and not any(is_error(f) for f in validate(d, DOCUMENT_TYPES[kind]))
            for d in documents
        )
    return _schema(fmt, kind).is_valid(payload)


def _rejection(fmt: str, kind: str, payload: Any) -> Rejection:
    try:
        if fmt == CANONICAL:
            document = detect_document(payload) if type(payload) is not list else None
            if document is not None and document != DOCUMENT_TYPES[kind]:
                return Rejection(
                    fmt,
                    kind,
                    "unknown_document",
                    "",
                    f"its keys make it a canonical {document}, not a {DOCUMENT_TYPES[kind]}",
                )
            check_canonical(payload, kind)
        else:
            check_wire(payload, fmt, kind)
    except ConversionError as exc:
        return Rejection(fmt, kind, exc.code, exc.pointer, exc.message)
    keys = ", ".join(sorted(_schema(fmt, kind).keys))
    return Rejection(
        fmt, kind, "unknown_format", "", f"valid only vacuously: it has none of {keys}"
    )


# --- evidence ----------------------------------------------------------------------------------

# A feature: (path template, pinned value as JSON text, or None for "this key is present").
Feature = tuple[str, str | None]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _parent(path: str) -> str:
    cut = max(path.rfind("."), path.rfind("[]"))
    return path[:cut] if cut > 0 else ""


class _Walk:
    """Walk a body and a schema together, collecting the features the body uses.

    Union branches are chosen by :meth:`_Node.admits`, then by validity when several admit;
    a walk of a schema the body does not validate against keeps the first admitted branch,
    so it claims as much as the schema could, and what it claims is not distinctive.
    """

    def __init__(self, schema: _Schema) -> None:
        self.schema = schema
        self.features: dict[Feature, int] = {}
        self.unlisted: set[str] = set()  # keys of objects closed on write that list them not

    def add(self, feature: Feature, rank: int) -> None:
        if self.features.get(feature, 0) < rank:
            self.features[feature] = rank

    def branch(self, union: _Union, value: Any) -> _Node | None:
        admitted = [b for b in union.asked(value) if b.admits(value)]
        if len(admitted) > 1:
            admitted = [b for b in admitted if self.schema.valid(b, value)] or admitted
        return admitted[0] if admitted else None

    def walk(self, node: _Node, value: Any, path: str, depth: int = 0) -> None:
        if node.always is not None or depth > _MAX_DEPTH:
            return
        if path and node.const is not _ABSENT and _same(value, node.const):
            self.add((path, _json(value)), PINNED)
        elif path and node.enum is not None and _scalar(value) and node.shallow(value):
            # One of a few allowed values: comparable with another schema pinning it.
            self.add((path, _json(value)), DECLARED)
        for sub in node.all_of:
            self.walk(sub, value, path, depth + 1)
        for union in node.unions:
            chosen = self.branch(union, value)
            if chosen is not None:
                self.walk(chosen, value, path, depth + 1)
        if node.if_ is not None:
            then = node.then if self.schema.valid(node.if_, value) else node.else_
            if then is not None:
                self.walk(then, value, path, depth + 1)
        if isinstance(value, dict):
            self.walk_object(node, value, path, depth)
        elif isinstance(value, list):
            prefix, items = node.prefix, node.items
            for i, item in enumerate(value):
                each = prefix[i] if i < len(prefix) else items
                if each is not None:
                    self.walk(each, item, f"{path}[]", depth + 1)

    def walk_object(self, node: _Node, value: dict[str, Any], path: str, depth: int) -> None:
        properties, required, extra = node.properties, node.required, node.extra
        for key, item in value.items():
            sub = properties.get(key)
            if sub is not None:
                if not sub.admits(item):
                    continue  # declared, but with another shape: no evidence
                child = _child(path, key)
                self.add((child, None), REQUIRED if key in required else DECLARED)
                self.walk(sub, item, child, depth + 1)
            elif extra is not None:
                self.walk(extra, item, _child(path, "*"), depth + 1)
            elif isinstance(node.raw, dict) and node.raw.get("x-closed-on-write"):
                self.unlisted.add(_child(path, key))


class _Claims(_Walk):
    """The walk of another schema, for which of the winner's features it claims too (all that
    `_distinct` asks of it): the same walk, which passes over a value when no feature it still
    looks for lies at or under the value's path. Once the first turns of a long body have
    claimed what they can, each other turn costs one lookup. What it finds of the wanted
    features is what the whole walk finds: a passed-over value only holds features found."""

    def __init__(self, schema: _Schema, wanted: Iterable[Feature]) -> None:
        super().__init__(schema)
        self.wanted = {feature for feature in wanted if schema.reaches(feature)}
        # For each path a walk may be at (a string prefix of a feature's path), how many
        # wanted features not found yet lie at or under it.
        self.open: dict[str, int] = {}
        for path, _ in self.wanted:
            for end in range(len(path) + 1):
                self.open[path[:end]] = self.open.get(path[:end], 0) + 1

    def add(self, feature: Feature, rank: int) -> None:
        if feature in self.wanted:
            self.wanted.remove(feature)
            path = feature[0]
            for end in range(len(path) + 1):
                self.open[path[:end]] -= 1
            super().add(feature, rank)

    def walk(self, node: _Node, value: Any, path: str, depth: int = 0) -> None:
        if self.open.get(path, 0):
            super().walk(node, value, path, depth)


def _evidence(
    fmt: str, kind: str, payload: Any, wanted: Iterable[Feature] | None = None
) -> dict[Feature, int]:
    """The features of ``payload`` that (fmt, kind)'s schema claims; with ``wanted``, only those
    of them (their ranks aside: what they are worth to another schema)."""
    schema = _schema(fmt, kind)
    walk = _Walk(schema) if wanted is None else _Claims(schema, wanted)
    walk.walk(schema.root, payload, "")
    return walk.features


def _under(path: str, other: str) -> bool:
    """``path`` lies inside the value at ``other``."""
    return path.startswith((f"{other}.", f"{other}[]"))


def _describe(features: Mapping[Feature, int]) -> tuple[str, ...]:
    """A few features, highest rank first, then shallowest, then in document order.

    Left out as repeats: a feature inside or around one already named, and a key of an
    object whose pinned value is named (``content[].id`` beside ``content[].type "tool_use"``).
    """

    def order(item: tuple[int, tuple[Feature, int]]) -> tuple[int, int, int]:
        position, ((path, _), rank) = item
        return -rank, path.count(".") + path.count("[]"), position

    chosen: list[Feature] = []
    for _, ((path, pinned), _rank) in sorted(enumerate(features.items()), key=order):
        if any(
            _under(path, other)
            or (pinned is None and _under(other, path))
            or (pinned is None and other_pinned is not None and _parent(other) == _parent(path))
            for other, other_pinned in chosen
        ):
            continue
        chosen.append((path, pinned))
    grouped: dict[str, list[str]] = {}  # one item per path: `content[].type "a", "b"`
    for path, pinned in chosen:
        grouped.setdefault(path, []).extend(() if pinned is None else (pinned,))
    items = []
    for path, values in list(grouped.items())[:_MAX_SHOWN]:
        if values:
            items.append(f"{path} {', '.join(values)}")
        elif "." in path or "[]" in path:
            items.append(f"`{path}`")
        else:
            items.append(f"top-level `{path}`")
    return tuple(items)


def _names(pairs: Iterable[tuple[str, str]]) -> str:
    return ", ".join(f"{fmt} {kind}" for fmt, kind in pairs)


def _distinct(
    own: Mapping[Feature, int], others: Iterable[Mapping[Feature, int]]
) -> dict[Feature, int]:
    seen: set[Feature] = set()
    for other in others:
        seen.update(other)
    return {f: rank for f, rank in own.items() if f not in seen}


# --- detection ---------------------------------------------------------------------------------


def _scope(kind: str | None, names: Iterable[str] | None) -> Iterator[tuple[str, str]]:
    wanted = KINDS if kind is None else (kind,)
    for fmt in formats() if names is None else names:
        if fmt != CANONICAL:
            adapter(fmt)  # an unknown name is a coded error, not a silent miss
        for each in wanted:
            if each not in DOCUMENT_TYPES:
                raise ConversionError(
                    "unknown_document", "", f"kind is one of {', '.join(KINDS)}, not {each!r}"
                )
            if each in kinds(fmt):
                yield fmt, each  # a format without a response body has no response to be


def _live(
    scope: list[tuple[str, str]], payload: Any, *, bodies_first: bool = False
) -> dict[tuple[str, str], dict[Feature, int]]:
    """The (format, kind) pairs whose schema the payload validates against, with evidence.

    ``bodies_first``: the stored-messages pairs only when no request or response pair is
    live (what :func:`detect` needs: they are its reading of last resort), so a body is not
    also validated and walked as turns."""
    shaped = {pair: _shaped(*pair, payload) for pair in scope}

    def live(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], dict[Feature, int]]:
        valid = [
            pair
            for pair in pairs
            if shaped[pair] is not _ABSENT
            and _plausible(*pair, shaped[pair])
            and _valid(*pair, shaped[pair])
        ]
        evidence = {pair: _evidence(*pair, shaped[pair]) for pair in valid}
        return {pair: found for pair, found in evidence.items() if found}

    if not bodies_first:
        return live(scope)
    bodies = live([pair for pair in scope if pair[1] != "messages"])
    return bodies or live([pair for pair in scope if pair[1] == "messages"])


def _only_body(
    scope: list[tuple[str, str]], shaped: Mapping[tuple[str, str], Any]
) -> tuple[str, str] | None:
    """The one request or response pair the payload validates as, when there is exactly one
    and the payload is an object with a key the schema's root declares: its evidence is then
    not empty (the walk adds that key), so :func:`detect` names it; no walk is needed."""
    valid = [
        pair
        for pair in scope
        if pair[1] != "messages"
        and shaped[pair] is not _ABSENT
        and _plausible(*pair, shaped[pair])
        and _valid(*pair, shaped[pair])
    ]
    if len(valid) != 1:
        return None
    body, root = shaped[valid[0]], _schema(*valid[0]).root
    sure = isinstance(body, dict) and not root.properties.keys().isdisjoint(body)
    return valid[0] if sure else None


def readings(
    payload: Any, *, kind: str | None = None, among: Iterable[str] | None = None
) -> list[tuple[str, str]]:
    """Every (format, kind) the payload validates as, best first: the one `detect` names,
    then other bodies, then stored messages. What a caller that only needs *a* reading tries
    in turn (a memory may be a valid body of a format that cannot read all of it)."""
    found = detect(payload, kind=kind, among=among)
    every = list(_live(list(_scope(kind, among)), payload))
    first = [(found.format, found.kind)] if found.format and found.kind else []
    rest = sorted((p for p in every if p not in first), key=lambda p: p[1] == "messages")
    return first + rest


def detect(
    payload: Any,
    *,
    kind: str | None = None,
    among: Iterable[str] | None = None,
    explain: bool = True,
    _data_checked: bool = False,
) -> Detection:
    """Tell which format and kind ``payload`` (a parsed JSON body, or the text of a text
    format such as ChatML) is.

    ``kind`` restricts the answer to requests or responses; ``among`` to some formats
    (default: every format :func:`interlingua.conversion.converter.formats` lists). A payload that
    is not
    JSON data at all (nested too deep, a lone surrogate, a number JSON cannot carry) raises
    :class:`ConversionError` with its code.

    ``explain=False`` (a batch that needs only the verdict): a body only one schema takes is
    reasoned with its own evidence, not with what no other schema would claim of it (which
    walks the body through every other schema of its kind). The verdict is the same.

    ``_data_checked`` is internal, as `convert`'s: the caller read ``payload`` with
    `reading.read_json` (or `read_text`), which refused all that the data check refuses.
    """
    if not _data_checked:
        check_data(payload)
    scope = list(_scope(kind, among))
    shaped = {pair: _shaped(*pair, payload) for pair in scope}
    only = None if explain else _only_body(scope, shaped)
    if only is not None:
        return _detected(only, ("the only body schema it validates",), "")
    evidence = _live(scope, payload, bodies_first=True)
    live = list(evidence)
    # A body holds turns too: stored messages are the reading of last resort, for a payload
    # no format takes as a request or response body.
    if any(each != "messages" for _, each in live):
        live = [(fmt, each) for fmt, each in live if each != "messages"]
    if not live or all(each == "messages" for _, each in live):
        # Nothing takes it as written (or only as stored turns, the last resort): what the
        # reading schemas take; a body of a format, before that format's turns alone.
        tolerant = _detect_tolerant(scope, payload)
        if tolerant is not None and (
            not live or (tolerant.kind != "messages" and (tolerant.format, "messages") in live)
        ):
            return tolerant
    if not live:
        rejections = tuple(_rejection(fmt, each, payload) for fmt, each in scope)
        first = "; ".join(str(r) for r in rejections)
        return Detection(
            "unknown",
            f"no format's schema accepts it: {first}",
            "no format's schema accepts it",
            rejections=rejections,
        )
    if len(live) == 1:
        winner = live[0]
        if not explain:
            return _detected(winner, _describe(evidence[winner]), "")
        # Name what no other schema would claim of this body, where there is such a thing.
        others = [
            _evidence(*p, shaped[p], wanted=evidence[winner])
            for p in scope
            if p != winner and p[1] == winner[1] and shaped[p] is not _ABSENT
        ]
        shown = _describe(_distinct(evidence[winner], others))
        if shown:
            return _detected(winner, shown, "")
        return _detected(winner, _describe(evidence[winner]), " (the only schema it validates)")
    distinct = {
        pair: _distinct(evidence[pair], (evidence[o] for o in live if o != pair)) for pair in live
    }
    best = {pair: max(distinct[pair].values(), default=0) for pair in live}
    top = max(best.values())
    leaders = [pair for pair in live if best[pair] == top]
    if len(leaders) == 1:
        winner = leaders[0]
        rest = [pair for pair in live if pair != winner]
        shown = _describe({f: r for f, r in distinct[winner].items() if r == top})
        also = f" ({_names(rest)} validates too, without {'it' if len(shown) == 1 else 'them'})"
        return _detected(winner, shown, also)
    candidates = tuple(
        Candidate(fmt, each, _describe(distinct[(fmt, each)] or evidence[(fmt, each)]))
        for fmt, each in leaders
    )
    if top == 0:
        summary = "it validates against each, and nothing in it is particular to one of them"
    else:
        summary = "each has something particular to it: " + "; ".join(
            f"{c.format} {c.kind}: {', '.join(c.evidence)}" for c in candidates
        )
    return Detection(
        "ambiguous",
        f"ambiguous between {_names(leaders)}: {summary}",
        summary,
        candidates=candidates,
    )


def _shaped(fmt: str, kind: str, payload: Any) -> Any:
    """What the (format, kind) schema is checked against: a text format's text read into its
    JSON shape (_ABSENT when it is not text, or not text of that format)."""
    if fmt == CANONICAL or not text_format(fmt):
        return payload
    if not isinstance(payload, str):
        return _ABSENT  # a text format is told by its text
    try:
        return from_text(payload, fmt, kind)
    except ConversionError:
        return _ABSENT


def _detected(pair: tuple[str, str], shown: tuple[str, ...], also: str) -> Detection:
    fmt, kind = pair
    summary = ", ".join(shown) + also
    return Detection(
        "detected",
        f"valid {fmt} {kind}: {summary}",
        summary,
        fmt,
        kind,
        candidates=(Candidate(fmt, kind, shown),),
    )
