"""A union whose branches all require one key and pin it to a string asks only the branches
its tag names: which branches admit a value is the same as when every branch is asked."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from generator.paths import ROOT
from interlingua.conversion.detector import (
    _Compiler,
    _Node,
    _schema,
    _scope,
    _Union,
)

BODIES = sorted(
    [
        *(ROOT / "schemas" / "formats").glob("*/*/*.json"),
        *(ROOT / "conformance" / "real").glob("*/*/*.json"),
    ]
)


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from _objects(item)


def _unions(root: _Node) -> Iterator[_Union]:
    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield from node.unions
        todo += [*node.all_of, *node.properties.values(), *node.prefix]
        todo += [b for union in node.unions for b in union.branches]
        todo += [n for n in (node.items, node.extra, node.if_, node.then, node.else_) if n]


def _objects_of_every_body() -> list[dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for path in BODIES:
        for value in _objects(json.loads(path.read_text(encoding="utf-8"))):
            found.setdefault(json.dumps(value, sort_keys=True), value)
    return list(found.values())


OBJECTS = _objects_of_every_body()


@pytest.mark.parametrize("pair", list(_scope(None, None)), ids="-".join)
def test_a_tagged_union_asks_only_the_branches_its_tag_names_and_admits_the_same(
    pair: tuple[str, str],
) -> None:
    tagged = [union for union in _unions(_schema(*pair).root) if union.asked({}) == ()]
    for union in tagged:
        assert union.key is not None
        for value in OBJECTS:
            every = [b for b in union.branches if b.admits(value)]
            assert [b for b in union.asked(value) if b.admits(value)] == every, (union.key, value)


def test_the_tags_of_a_union() -> None:
    schema = {
        "anyOf": [
            {"type": "object", "required": ["role"], "properties": {"role": {"const": "user"}}},
            {"required": ["role", "type"], "properties": {"role": {"const": "tool"}}},
            {"required": ["role"], "properties": {"role": {"const": "user"}, "n": {}}},
        ]
    }
    (union,) = _Compiler(schema).node(schema).unions
    first, second, third = union.branches
    assert union.asked({"role": "user"}) == (first, third)
    assert union.asked({"role": "tool", "type": 1}) == (second,)
    assert union.asked({"role": "system"}) == ()
    assert union.asked({"role": 5}) == ()  # a pinned string is never a number
    assert union.asked({}) == ()  # every branch requires it
    assert union.asked("user") == union.branches  # not an object: the types decide
    assert union.key == "role"
    # A branch that does not pin the key (or does not require it): every branch is asked.
    schema["anyOf"].append({"required": ["role"], "properties": {"role": {"type": "string"}}})
    (union,) = _Compiler(schema).node(schema).unions
    assert union.asked({"role": "user"}) == union.branches
    assert union.key is None


def _keys(pair: tuple[str, str]) -> set[str | None]:
    """The tag keys of a schema's unions. A union reads its tags on first use, so each is
    asked once first: a test that reads them before any detection ran on its worker (under
    xdist's distribution, this one) would otherwise see none."""
    keys: set[str | None] = set()
    for union in _unions(_schema(*pair).root):
        union.asked({})
        keys.add(union.key)
    return keys


def test_messages_are_told_by_role_and_blocks_by_type() -> None:
    keys = {pair: _keys(pair) for pair in _scope(None, None)}
    assert "role" in keys["openai-chat", "request"]
    assert {"role", "type"} <= keys["anthropic", "request"]
    assert "type" in keys["openai-responses", "request"]
