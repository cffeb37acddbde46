"""Locating an invalid body's error (`interlingua.conversion.locating`): the errors
python-jsonschema finds walking the whole body, a list or map located at its first entry at
fault, found walking only the parts jsonschema-rs refuses."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.validators import extend
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import (
    _wire_validator,
    adapter,
    check_wire,
    reading_schema,
    text_format,
)
from interlingua.conversion.locating import locating_validator
from tests.adapters import differential
from tests.adapters.test_fused_validation import _mutants


def _errors(found: Iterator[ValidationError]) -> list[Any]:
    """Every error, in the order found, with the errors of each failed union's members."""
    return [
        (list(e.absolute_path), list(e.absolute_schema_path), e.message, _errors(iter(e.context)))
        for e in found
    ]


Keyword = Callable[[Any, Any, Any, dict[str, Any]], Iterator[ValidationError]]


def _at_first_entry(keyword: str) -> Keyword:
    """python-jsonschema's ``keyword`` stopped after the first entry (item, extra member, key)
    with an error: the rule, applied by python-jsonschema alone."""
    own = Draft202012Validator.VALIDATORS[keyword]

    def first(validator: Any, value: Any, instance: Any, schema: dict[str, Any]) -> Any:
        entries: list[tuple[Any, Any, Any]]  # (the entry, its schema, its path)
        if keyword == "items" and type(instance) is list and value is not False:
            start = len(schema.get("prefixItems", ()))
            entries = [(item, value, index) for index, item in enumerate(instance)][start:]
        elif (
            keyword == "additionalProperties"
            and type(instance) is dict
            and type(value) is dict
            and "patternProperties" not in schema
        ):
            declared = schema.get("properties", {})
            entries = [(v, value, k) for k, v in instance.items() if k not in declared]
        elif keyword == "propertyNames" and type(instance) is dict:
            entries = [(k, value, None) for k in instance]
        else:
            yield from own(validator, value, instance, schema)
            return
        for item, subschema, path in entries:
            errors = list(validator.descend(item, subschema, path=path))
            if errors:
                yield from errors
                return

    return first


_REFERENCE = extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    {k: _at_first_entry(k) for k in ("items", "additionalProperties", "propertyNames")},
)


@cache
def _plain(schema_path: str) -> Any:
    """python-jsonschema over the whole body, each list and map to its first entry at fault:
    what the locating validator must agree with."""
    schema = _wire_validator(schema_path).schema
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], DRAFT202012.create_resource(schema)
    )
    return _REFERENCE(schema, registry=registry)


def _wire_bodies() -> list[tuple[str, Any, str, str]]:
    return [
        (label, payload, fmt, kind)
        for label, payload, fmt, kind in [
            *differential.conformance_bodies(),
            *differential.real_bodies(),
        ]
        if fmt != "canonical"
        and kind in ("request", "response")
        and isinstance(payload, dict)
        and not text_format(fmt)
        and kind in adapter(fmt).schemas
    ]


def test_the_errors_of_mutated_bodies_are_the_whole_walks() -> None:
    """Mutants of conformance and recorded bodies (each value swapped for every JSON type, each
    key deleted, a key added: `test_fused_validation`), a seeded sample, each asked of its own
    format's schema and of every other format's (as detection asks): every error and every
    union member's error, in order, as python-jsonschema finds them over the whole body (each
    list and map to its first entry at fault)."""
    bodies = _wire_bodies()
    schemas = sorted({reading_schema(adapter(fmt).schemas[kind]) for _, _, fmt, kind in bodies})
    compared = invalid = 0
    for label, payload, fmt, kind in random.Random(16).sample(bodies, 50):
        own = reading_schema(adapter(fmt).schemas[kind])
        asked = [(own, mutant) for _, mutant in itertools.islice(_mutants(payload), 0, 30)]
        asked += [(other, payload) for other in schemas if other != own]
        for path, body in asked:
            expected = _errors(_plain(path).iter_errors(body))
            assert _errors(_wire_validator(path).iter_errors(body)) == expected, (label, path)
            compared += 1
            invalid += bool(expected)
    assert compared > 2_000 and invalid > 1_000  # enough of both, or the test says nothing


def _walked(
    fmt: str, kind: str, body: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    """How many times the locating walk descends to refuse ``body``; the code and pointer."""
    validator = _wire_validator(reading_schema(adapter(fmt).schemas[kind]))
    walked = type(validator).descend
    steps = 0

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal steps
        steps += 1
        return walked(*args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(type(validator), "descend", counted)
        with pytest.raises(ConversionError) as refused:
            check_wire(body, fmt, kind)
    return steps, refused.value.code, refused.value.pointer


def _conversation(fmt: str, valid_messages: int) -> dict[str, Any]:
    """A body of ``fmt`` whose last message (a content of the wrong type) is the bad one."""
    roles = ("user", "model") if fmt == "gemini" else ("user", "assistant")
    field = "parts" if fmt == "gemini" else "content"
    block = {} if fmt == "gemini" else {"type": "text"}
    turns: list[Any] = [
        {"role": roles[n % 2], field: [{**block, "text": f"turn {n}"}]}
        for n in range(valid_messages)
    ]
    if fmt == "openai-chat":
        turns = [{**turn, field: f"turn {n}"} for n, turn in enumerate(turns)]
    bad = {"role": "user", field: 5}
    if fmt == "gemini":
        return {"contents": [*turns, bad]}
    return {"model": "m", "max_tokens": 10, "messages": [*turns, bad]}


@pytest.mark.parametrize(
    ("fmt", "at"),
    [
        ("openai-chat", "/messages/N/content"),
        ("anthropic", "/messages/N/content"),
        ("gemini", "/contents/N/parts"),
    ],
)
def test_the_walk_does_not_grow_with_the_valid_messages(
    fmt: str, at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: an OpenAI Chat body of 10,001 messages with the last one bad took 6.9 s
    to refuse, python-jsonschema walking every message. The walk now descends as often
    beside 1,000 valid messages as beside 10, and the error is the same."""
    found = {}
    for size in (10, 1_000):
        steps, code, pointer = _walked(fmt, "request", _conversation(fmt, size), monkeypatch)
        found[size] = (steps, code, pointer.replace(str(size), "N"))
    assert found[10] == found[1_000] == (found[10][0], "wrong_type", at)
    assert found[10][0] > 0  # the count is of the walk that located it


def test_a_schema_with_other_references_is_walked_whole() -> None:
    """A reference to anything but a definition would mean something else beside a part cut
    out of the schema: such a schema is walked without jsonschema-rs, and its errors are the
    same."""
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/s.json",
        "type": "object",
        "properties": {
            "word": {"type": "string"},
            "items": {"type": "array", "items": {"$ref": "#/properties/word"}},
        },
        "additionalProperties": {"$ref": "#/properties/word"},
    }
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], DRAFT202012.create_resource(schema)
    )
    locating = locating_validator(schema, registry)
    reference = _REFERENCE(schema, registry=registry)
    bodies = ({"items": ["a", 1, "b", 2]}, {"items": "x"}, {"items": [], "word": 3, "x": 4})
    for body in bodies:
        assert _errors(locating.iter_errors(body)) == _errors(reference.iter_errors(body))
    assert [e.json_path for e in locating.iter_errors({"items": ["a", 1, "b", 2]})] == [
        "$.items[1]"
    ]


def _chat(contents: list[Any]) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": c} for c in contents]}


def test_a_list_is_located_at_its_first_bad_entry() -> None:
    """Regression: of two bad messages the one chosen was the least pointer as text, so
    message 10 was reported before message 2; the first in document order is."""
    with pytest.raises(ConversionError) as refused:
        check_wire(_chat(["a", "b", 2, *["c"] * 7, 10]), "openai-chat", "request")
    assert (refused.value.code, refused.value.pointer) == ("wrong_type", "/messages/2/content")
    # The first bad entry wins over a shallower error in a later one (a message of no role).
    later = _chat(["a", 1, "b"])
    del later["messages"][2]["role"]
    with pytest.raises(ConversionError) as refused:
        check_wire(later, "openai-chat", "request")
    assert refused.value.pointer == "/messages/1/content"


@pytest.mark.parametrize(
    ("fmt", "kind", "body", "at"),
    [
        # Another format's body, bad in every message: what detection asks of each schema
        # (MCP's stored messages: a union of one turn, a list, an object holding the list).
        ("bedrock", "request", _chat(["text"] * 1_000), "/messages/0/content"),
        ("mcp", "messages", _chat(["text"] * 1_000), "/messages/0/content"),
        # A map of like values bad in every value, and an object bad in every key.
        (
            "openai-chat",
            "request",
            {**_chat(["a"]), "metadata": {f"k{n}": n for n in range(1_000)}},
            "/metadata/k0",
        ),
        (
            "openai-chat",
            "request",
            {**_chat(["a"]), "logit_bias": {f"k{n}": 1 for n in range(1_000)}},
            "/logit_bias",
        ),
    ],
)
def test_the_walk_does_not_grow_with_the_bad_entries(
    fmt: str, kind: str, body: dict[str, Any], at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: detection of a 10,001-message body no format takes cost 19.5 s, most of it
    locating the error of schemas that refuse every message, each walked in Python. The walk
    stops at the first bad entry: as many steps for 1,000 bad entries as for 3."""

    def shortened(value: Any) -> Any:
        return value[:3] if type(value) is list else dict(list(value.items())[:3])

    short = {k: shortened(v) if len(v) == 1_000 else v for k, v in body.items()}
    found = [_walked(fmt, kind, each, monkeypatch) for each in (body, short)]
    assert found[0] == found[1]
    assert found[0][2] == at
