"""The fused passes and data `reading.read_json` read (``convert(..., _data_checked=True)``,
what the command line and the service pass): the pass is told (``convert_request(body,
data_checked)``) and leaves out the checks `read_json` made already (a lone surrogate in a
string or key, a tool schema walked for values JSON has no type for), with the same answer.

The flag is an internal contract: a body declared checked that holds what `read_json`
refuses is the caller's error. The last tests break that contract on purpose, only to see
that the pass takes the flag rather than checking all the same.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert
from interlingua.conversion.reading import read_json
from interlingua.generated.pairs import PAIRS
from tests.adapters import differential
from tests.adapters.test_properties import conversations
from tests.benchmarks.test_convert_bench import bench_module

# Coverage paused (the `untraced` marker, tests/conftest.py): generated bodies through every fused
# pass twice, code the rest of the suite covers. Measured with per-test contexts (2026-11-30):
# without this module the suite covers one line and one branch fewer.
pytestmark = pytest.mark.untraced

LONE = "\ud800"


def as_read(body: Any) -> Any:
    """``body`` as `read_json` reads its JSON text (what the command line and service get)."""
    return read_json(json.dumps(body).encode("utf-8"))


def both_ways(source: str, target: str, body: Any) -> None:
    """The pass, told or not that `read_json` read ``body``, gives the same answer (output in
    the same key order, losses, whether it checked the schema; or the same reason); and so
    does `convert`."""
    pair = PAIRS[source, target]
    told = pair(copy.deepcopy(body), True)
    untold = pair(copy.deepcopy(body), False)
    assert differential.in_order(told) == differential.in_order(untold)
    expected = differential.outcome(_convert, body, source, target, "request")
    assert differential.outcome(_convert_read, body, source, target, "request") == expected


def _convert(payload: Any, source: str, target: str, kind: str) -> Any:
    return convert(copy.deepcopy(payload), source, target, kind)


def _convert_read(payload: Any, source: str, target: str, kind: str) -> Any:
    return convert(copy.deepcopy(payload), source, target, kind, _data_checked=True)


def corpus_bodies(source: str) -> list[Any]:
    """The benchmark's bodies (short and long) in ``source``'s format, and the conformance
    and real-traffic requests written in it, each as `read_json` reads it."""
    corpus = bench_module("openai_corpus")
    chat = [*corpus.corpus(60, seed=5), *corpus.long_corpus(6, seed=5)]
    if source == "openai-chat":
        written = chat
    else:
        written = []
        for body in chat:
            try:
                written.append(convert(body, "openai-chat", source).output)
            except ConversionError:
                continue
    found = [
        payload
        for _, payload, fmt, kind in [
            *differential.conformance_bodies(),
            *differential.real_bodies(),
        ]
        if fmt == source and kind in (None, "request") and isinstance(payload, dict)
    ]
    return [as_read(body) for body in [*written, *found]]


@pytest.mark.parametrize(("source", "target"), sorted(PAIRS))
def test_a_body_read_json_read_converts_the_same_told_or_not(source: str, target: str) -> None:
    bodies = corpus_bodies(source)
    taken = 0
    for body in bodies:
        both_ways(source, target, body)
        taken += type(PAIRS[source, target](copy.deepcopy(body), True)) is tuple
    assert taken > len(bodies) // 2  # the pass, not only its refusals, was compared


@pytest.mark.parametrize(("source", "target"), sorted(PAIRS))
def test_generated_conversations_read_by_read_json_convert_the_same_told_or_not(
    source: str, target: str
) -> None:
    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(conversations(source))
    def check(document: dict[str, Any]) -> None:
        try:
            body = convert(document, "canonical", source, fused=False).output
        except ConversionError:
            return  # nothing this format can carry
        both_ways(source, target, as_read(body))

    check()


# --- the flag is passed and taken (a contract broken on purpose) -----------------------------

CHAT = {
    "model": "m",
    "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "f",
                "description": "d",
                "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
            },
        }
    ],
}
RESPONSES = {
    "model": "m",
    "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    ],
    "tools": [
        {
            "type": "function",
            "name": "f",
            "description": "d",
            "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
        }
    ],
}
SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}}
ANTHROPIC = {
    "model": "m",
    "max_tokens": 16,
    "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    "tools": [{"name": "f", "description": "d", "input_schema": SCHEMA}],
}
BEDROCK = {
    "messages": [{"role": "user", "content": [{"text": "hi"}]}],
    "toolConfig": {
        "tools": [{"toolSpec": {"name": "f", "description": "d", "inputSchema": {"json": SCHEMA}}}]
    },
}
GEMINI = {
    "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    "tools": [
        {
            "functionDeclarations": [
                {"name": "f", "description": "d", "parametersJsonSchema": SCHEMA}
            ]
        }
    ],
}
# Where a string JSON cannot carry goes: a text the pass reads, a tool's description, and a
# value deep in a tool schema it carries as it is (walked by `fused_checks.opaque` unless told).
PLACES: dict[str, tuple[dict[str, Any], list[tuple[Any, ...]]]] = {
    "openai-chat": (
        CHAT,
        [
            ("messages", 0, "content", 0, "text"),
            ("tools", 0, "function", "description"),
            ("tools", 0, "function", "parameters", "properties", "a", "type"),
        ],
    ),
    "openai-responses": (
        RESPONSES,
        [
            ("input", 0, "content", 0, "text"),
            ("tools", 0, "description"),
            ("tools", 0, "parameters", "properties", "a", "type"),
        ],
    ),
    "anthropic": (
        ANTHROPIC,
        [
            ("messages", 0, "content", 0, "text"),
            ("tools", 0, "description"),
            ("tools", 0, "input_schema", "properties", "a", "type"),
        ],
    ),
    "bedrock": (
        BEDROCK,
        [
            ("messages", 0, "content", 0, "text"),
            ("toolConfig", "tools", 0, "toolSpec", "description"),
            (
                "toolConfig",
                "tools",
                0,
                "toolSpec",
                "inputSchema",
                "json",
                "properties",
                "a",
                "type",
            ),
        ],
    ),
    "gemini": (
        GEMINI,
        [
            ("contents", 0, "parts", 0, "text"),
            ("tools", 0, "functionDeclarations", 0, "description"),
            (
                "tools",
                0,
                "functionDeclarations",
                0,
                "parametersJsonSchema",
                "properties",
                "a",
                "type",
            ),
        ],
    ),
}


def test_every_pairs_source_has_its_broken_places() -> None:
    assert {source for source, _ in PAIRS} <= set(PLACES)


def with_lone_surrogate(body: dict[str, Any], place: tuple[Any, ...]) -> dict[str, Any]:
    found = copy.deepcopy(body)
    node: Any = found
    for step in place[:-1]:
        node = node[step]
    node[place[-1]] = node[place[-1]] + LONE
    return found


@pytest.mark.parametrize(("source", "target"), sorted(PAIRS))
@pytest.mark.parametrize("where", range(3))
def test_a_pass_told_the_data_was_read_does_not_check_it_again(
    source: str, target: str, where: int
) -> None:
    body, places = PLACES[source]
    pair = PAIRS[source, target]
    assert type(pair(copy.deepcopy(body), False)) is tuple
    broken = with_lone_surrogate(body, places[where])
    assert type(pair(copy.deepcopy(broken), False)) is str  # checked: the two-step way
    assert type(pair(copy.deepcopy(broken), True)) is tuple  # told: not checked again
    # `convert` passes what it is told on: the pass takes the body (no data error), and
    # untold, the body's lone surrogate is the coded error it always was.
    assert convert(copy.deepcopy(broken), source, target, _data_checked=True).fused
    with pytest.raises(ConversionError) as caught:
        convert(copy.deepcopy(broken), source, target)
    assert caught.value.code == "invalid_unicode"
