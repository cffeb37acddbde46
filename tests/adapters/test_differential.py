"""The differential check: another conversion path gives exactly what `convert` gives.

`convert` is the reference; each entry of ``CANDIDATES`` is a path that must agree with it on
every body of the corpora (conformance cases, real traffic, generated and property-generated
conversations): output, losses (pointer, code, reason, part type, in order), ``id_map`` and
``name_map``, or the same coded error. The fused pair converters of issue 16 plug in here as a
candidate. Today's candidate is the wire path (the CLI and the service): the body as parsed
from JSON text, the output as written back to it, so a conversion that depends on how its
input shares objects, or gives something JSON cannot hold, differs.

The generated turn readers and writers replaced the layout interpreter with this harness
run across two trees (see `differential.py`): 42,558 conversions, no difference.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from interlingua.conversion import ConversionError, ConversionResult, Loss
from interlingua.conversion.converter import check_wire, convert, formats
from interlingua.generated.pairs import PAIRS
from tests.adapters import differential
from tests.adapters.test_properties import conversations


def over_json(payload: Any, source: str, target: str, kind: str) -> Any:
    """`convert` of the body as read from its JSON text, the output as written to it."""
    result = convert(json.loads(json.dumps(payload)), source, target, kind)
    output = json.loads(json.dumps(result.output))
    return ConversionResult(
        output, result.losses, source, target, kind, result.id_map, result.name_map
    )


def fused(payload: Any, source: str, target: str, kind: str) -> Any:
    """`convert` as users get it: a fused pair converter where there is one for the pair
    (interlingua.generated.pairs), the two-step path for a body outside its shape."""
    return convert(payload, source, target, kind)


CANDIDATES: dict[str, differential.ConvertPath] = {"over_json": over_json, "fused": fused}
SOURCES = [f for f in formats() if f != "canonical"] + ["canonical"]


def _reference(payload: Any, source: str, target: str, kind: str) -> Any:
    return convert(payload, source, target, kind, fused=False)


def _bodies(source: str) -> list[differential.Body]:
    every = [
        *differential.conformance_bodies(),
        *differential.real_bodies(),
        *differential.synthetic_bodies(12),
    ]
    return [body for body in every if body[2] == source]


@pytest.mark.parametrize("candidate", sorted(CANDIDATES))
@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.untraced
def test_every_corpus_body_converts_the_same_both_ways(source: str, candidate: str) -> None:
    bodies = _bodies(source)
    assert bodies, f"no {source} body in the corpora"
    reference = differential.outcomes(_reference, bodies)
    other = differential.outcomes(CANDIDATES[candidate], bodies)
    assert differential.differences(reference, other) == []


@pytest.mark.parametrize("candidate", sorted(CANDIDATES))
@pytest.mark.parametrize("fmt", ["anthropic", "gemini", "openai-chat", "bedrock"])
@pytest.mark.untraced
def test_generated_conversations_convert_the_same_both_ways(fmt: str, candidate: str) -> None:
    @settings(
        max_examples=8,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(conversations(fmt))
    def check(document: dict[str, Any]) -> None:
        body = [("generated", document, "canonical", "request")]
        reference = differential.outcomes(_reference, body)
        assert differential.differences(reference, differential.outcomes(path, body)) == []

    path = CANDIDATES[candidate]
    check()


@pytest.mark.parametrize(("source", "target"), sorted(PAIRS))
@pytest.mark.untraced
def test_generated_conversations_in_a_pairs_source_format_convert_the_same_through_it(
    source: str, target: str
) -> None:
    """Property-generated conversations, written in the pair's source format (the bodies a
    fused pair reads: the tests above feed it canonical documents only), converted by the
    pair and by the two-step path: the same answer, whichever path each body takes."""
    taken = []

    @settings(
        max_examples=30,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(conversations(source))
    def check(document: dict[str, Any]) -> None:
        try:
            body = convert(document, "canonical", source, fused=False).output
        except ConversionError:
            return  # nothing this format can carry
        expected = differential.outcome(_reference, body, source, target, "request")
        assert differential.outcome(fused, body, source, target, "request") == expected
        taken.append(type(PAIRS[source, target](json.loads(json.dumps(body)))) is not str)

    check()
    assert taken


# --- the harness itself: what it compares ---------------------------------------------------

BODY = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call.1",  # a dot: Anthropic's ids take none, so it is rewritten
                    "type": "function",
                    "function": {"name": "weather", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call.1", "content": "sunny"},
    ],
}


def _altered(change: Callable[[Any], Any]) -> differential.ConvertPath:
    def path(payload: Any, source: str, target: str, kind: str) -> Any:
        return change(convert(payload, source, target, kind))

    return path


def _with(result: Any, **fields: Any) -> ConversionResult:
    values = {
        "output": result.output,
        "losses": result.losses,
        "id_map": result.id_map,
        "name_map": result.name_map,
        **fields,
    }
    return ConversionResult(
        values["output"],
        values["losses"],
        result.source,
        result.target,
        result.kind,
        values["id_map"],
        values["name_map"],
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda r: _with(r, losses=tuple(reversed(r.losses))),
        lambda r: _with(r, losses=tuple(Loss(x.pointer, x.code, x.reason + ".") for x in r.losses)),
        lambda r: _with(r, id_map={}),
        lambda r: _with(r, output=[r.output]),
    ],
    ids=["loss order", "loss reason", "id map", "output"],
)
def test_the_harness_tells_each_kind_of_difference(change: Callable[[Any], Any]) -> None:
    body = [("b", BODY, "openai-chat", "request")]
    reference = differential.outcomes(_reference, body)
    assert any(o[0] == "ok" and len(o[2]) > 1 and o[3] for o in reference.values())
    assert differential.differences(reference, differential.outcomes(_altered(change), body))


def test_the_harness_tells_an_error_from_an_answer_and_a_missing_conversion() -> None:
    body = [("b", BODY, "openai-chat", "request")]
    reference = differential.outcomes(_reference, body)
    broken = dict.fromkeys(reference, ("error", "wrong_type", "", "x"))
    assert len(differential.differences(reference, broken)) == len(reference)
    fewer = dict(list(reference.items())[1:])
    assert differential.differences(reference, fewer)[0].startswith("only in one run")


# --- a merged tool_choice key the variant written does not take ------------------------------


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("fused_path", [True, False], ids=["fused", "two-step"])
def test_tool_choice_none_goes_to_anthropic_without_disable_parallel_tool_use(
    parallel: bool, fused_path: bool
) -> None:
    """Regression: `tool_choice: "none"` with `parallel_tool_calls` wrote
    `{"type": "none", "disable_parallel_tool_use": ...}`, which Anthropic's schema refuses (its
    `none` variant takes no other key). The key is dropped and reported, on both paths alike."""
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Hi"}],
        "tools": [
            {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
        ],
        "tool_choice": "none",
        "parallel_tool_calls": parallel,
    }
    result = convert(body, "openai-chat", "anthropic", fused=fused_path)
    assert result.fused is fused_path
    assert result.output["tool_choice"] == {"type": "none"}
    check_wire(result.output, "anthropic", "request", strict=True)
    dropped = [x for x in result.losses if x.pointer == "/parameters/parallel_tool_calls"]
    assert [(x.code, x.reason) for x in dropped] == [
        (
            "parameter_dropped",
            "anthropic has no place for `parallel_tool_calls` beside a `none` tool_choice",
        )
    ]
    other = convert(body, "openai-chat", "anthropic", fused=not fused_path)
    assert (other.output, other.losses) == (result.output, result.losses)


@pytest.mark.parametrize("choice", ["auto", "required"])
def test_other_tool_choices_keep_disable_parallel_tool_use(choice: str) -> None:
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Hi"}],
        "tools": [
            {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
        ],
        "tool_choice": choice,
        "parallel_tool_calls": False,
    }
    for fused_path in (True, False):
        result = convert(body, "openai-chat", "anthropic", fused=fused_path)
        assert result.output["tool_choice"]["disable_parallel_tool_use"] is True
        assert not [x for x in result.losses if "parallel" in x.pointer]
        check_wire(result.output, "anthropic", "request", strict=True)


# --- a function declared without parameters, or with `parameters: {}` -------------------------

_NO_PARAMETERS = {"type": "function", "function": {"name": "now", "description": "The time."}}
_ANY_OBJECT = {"type": "function", "function": {"name": "run", "parameters": {}}}
_NULL_PARAMETERS = {"type": "function", "function": {"name": "ping", "parameters": None}}
# What each fused target writes for them, in order (the two-step path's answer, which the fused
# pass must equal): Anthropic requires an object schema; Gemini takes a declaration without one,
# and a JSON Schema that describes an object.
_KEY = {"anthropic": "input_schema", "gemini": "parametersJsonSchema"}
_EMPTY: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
_WRITTEN: dict[str, list[Any]] = {
    "anthropic": [_EMPTY, {"type": "object"}, _EMPTY],
    "gemini": [None, {"type": "object"}, None],
}


@pytest.mark.parametrize("target", sorted(_WRITTEN))
@pytest.mark.parametrize("fused_path", [True, False], ids=["fused", "two-step"])
def test_functions_without_a_schema_convert_the_same_both_ways(
    target: str, fused_path: bool
) -> None:
    """Regression: a function without `parameters` (OpenAI: it takes none) was refused with
    `missing_field at /tools/0/function/parameters`, and `parameters: {}` went to Anthropic as
    `input_schema: {}`, which Anthropic refuses. Both paths now give a valid body, the same,
    and the fused pass takes these bodies itself (no fallback)."""
    body = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Hi"}],
        "tools": [_NO_PARAMETERS, _ANY_OBJECT, _NULL_PARAMETERS],
    }
    result = convert(body, "openai-chat", target, fused=fused_path)
    assert result.fused is fused_path
    check_wire(result.output, target, "request", strict=True)
    tools = result.output["tools"]
    declared = tools if target == "anthropic" else tools[0]["functionDeclarations"]
    assert [tool.get(_KEY[target]) for tool in declared] == _WRITTEN[target]
    assert not [x for x in result.losses if x.pointer.startswith("/tools")]
    other = convert(body, "openai-chat", target, fused=not fused_path)
    assert (other.output, other.losses) == (result.output, result.losses)
