"""Locating an invalid body's error (`interlingua.conversion.locating`): the same errors
python-jsonschema finds walking the whole body, found walking only the parts jsonschema-rs
refuses."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
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


@cache
def _plain(schema_path: str) -> Any:
    """python-jsonschema over the whole body: what the locating validator must agree with."""
    schema = _wire_validator(schema_path).schema
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], DRAFT202012.create_resource(schema)
    )
    return Draft202012Validator(schema, registry=registry)


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
    union member's error, in order, as python-jsonschema finds them over the whole body."""
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
    validator = _wire_validator(reading_schema(adapter(fmt).schemas["request"]))
    walked = type(validator).descend
    steps = 0

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal steps
        steps += 1
        return walked(*args, **kwargs)

    monkeypatch.setattr(type(validator), "descend", counted)
    found = {}
    for size in (10, 1_000):
        steps = 0
        with pytest.raises(ConversionError) as refused:
            check_wire(_conversation(fmt, size), fmt, "request")
        found[size] = (steps, refused.value.code, refused.value.pointer.replace(str(size), "N"))
    assert found[10] == found[1_000] == (found[10][0], "wrong_type", at)
    assert found[10][0] > 0  # the count is of the walk that located it


def test_a_schema_with_other_references_is_walked_whole() -> None:
    """A reference to anything but a definition would mean something else beside a part cut
    out of the schema: such a schema is walked whole, and its errors are the same."""
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/s.json",
        "type": "object",
        "properties": {
            "word": {"type": "string"},
            "items": {"type": "array", "items": {"$ref": "#/properties/word"}},
        },
    }
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], DRAFT202012.create_resource(schema)
    )
    locating = locating_validator(schema, registry)
    plain = Draft202012Validator(schema, registry=registry)
    for body in ({"items": ["a", 1, "b", 2]}, {"items": "x"}, {"items": [], "word": 3}):
        assert _errors(locating.iter_errors(body)) == _errors(plain.iter_errors(body))
    assert len(_errors(locating.iter_errors({"items": ["a", 1, "b", 2]}))) == 2
