"""The fused pair converters as `convert` uses them: taken by default, visibly left for the
two-step path outside their shape, and as strict on bad input as the two-step path.

Equality of what they give over the corpora is `test_differential.py`'s (the `fused`
candidate); here are the hook's promises and the input checks the pass does on its own.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from interlingua.conversion import ConversionError, ConversionResult, LossyConversionError
from interlingua.conversion.converter import FUSED_ENV, check_wire, convert
from interlingua.generated.pairs import PAIRS
from tests.adapters.differential import real_bodies
from tests.adapters.fused import (
    DELETE,
    changed,
    logged_alike,
    mutants_taken,
    refused_alike,
    same,
    takes_two_steps,
)
from tests.benchmarks.test_convert_bench import bench_module

BODY: dict[str, Any] = {
    "model": "gpt-4o",
    "max_tokens": 100,
    "temperature": 0.2,
    "stop": "END",
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "The weather in a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ],
    "tool_choice": "auto",
    "messages": [
        {"role": "developer", "content": "Be brief."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather in Zürich?"},
                {
                    "type": "image_url",
                    "image_url": {"url": "https://example.com/map.png", "detail": "low"},
                },
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city": "Zürich"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        {"role": "user", "content": "Thanks."},
    ],
}


# The pairs read from OpenAI Chat (BODY and the bodies below are that format's); the pairs read
# from another format have their own section at the end.
FROM_CHAT = sorted(pair for pair in PAIRS if pair[0] == "openai-chat")


_same = same


# What bodies recorded from SDKs carry beside the shape (`model_dump()` of a reply, participant
# names, nulls for the parameters left unset): read in one pass, reported as the reader does.
AS_RECORDED: dict[str, Any] = {
    "model": "gpt-4o",
    "user": "u-1",
    "tools": [
        {
            "type": "function",
            "function": {"name": "w", "description": "", "parameters": {}, "strict": True},
        }
    ],
    "temperature": None,
    "top_p": None,
    "stop": None,
    "seed": None,
    "max_tokens": None,
    "frequency_penalty": None,
    "messages": [
        {"role": "system", "content": "Be brief.", "name": "ops"},
        {"role": "user", "content": "Weather in Paris?", "name": "ana", "x-trace": {"id": 7}},
        {
            "role": "assistant",
            "content": None,
            "refusal": None,
            "audio": None,
            "function_call": None,
            "annotations": [],
            "reasoning": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "w", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "sunny", "name": "w"},
        {
            "role": "assistant",
            "content": "Sunny.",
            "name": "bot",
            "refusal": None,
            "tool_calls": [],
        },
        {"role": "user", "content": "Thanks", "name": None},
    ],
}


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_a_recorded_body_with_fields_beside_the_shape_takes_one_pass(
    source: str, target: str
) -> None:
    fused = convert(copy.deepcopy(AS_RECORDED), source, target)
    two_step = convert(copy.deepcopy(AS_RECORDED), source, target, fused=False)
    assert fused.fused
    assert [loss.pointer for loss in fused.losses][:5] == [
        "/user",
        "/messages/0/name",
        "/messages/1/name",
        "/messages/1/x-trace",
        "/messages/3/name",
    ]
    _same(fused, two_step)


# How many of the real-traffic corpus's OpenAI Chat requests each pair takes in one pass, as
# docs/spec/conversion.md says (a floor: a pass that covers more raises it).
# Responses: GLM's `reasoning_effort: "max"` goes the two-step way (Responses has no `max`:
# left out, reported), which the pass had written as it was.
# llm's recorded tool chain sends an assistant turn with neither text nor calls; Mistral, a
# tool_choice without tools (Bedrock); Azure, a reasoning effort Gemini lacks (two-step).
RECORDED_IN_ONE_PASS = {"anthropic": 33, "bedrock": 32, "gemini": 30, "openai-responses": 32}


@pytest.mark.parametrize("target", sorted(RECORDED_IN_ONE_PASS))
def test_most_recorded_requests_take_the_fused_path(target: str) -> None:
    requests = [
        body for _, body, fmt, kind in real_bodies() if fmt == "openai-chat" and kind == "request"
    ]
    taken = [type(PAIRS["openai-chat", target](copy.deepcopy(b))) is tuple for b in requests]
    assert len(requests) == 49
    assert sum(taken) >= RECORDED_IN_ONE_PASS[target]


@pytest.mark.parametrize(
    "change",
    [
        {"refusal": "I can't."},  # a field the reader reads: another shape
        {"name": 7},  # a type the reading schema refuses
        {"reasoning_content": ["x"]},
    ],
)
@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_a_message_field_the_reader_reads_or_the_schema_refuses_takes_two_steps(
    source: str, target: str, change: dict[str, Any]
) -> None:
    body = copy.deepcopy(AS_RECORDED)
    body["messages"][4].update(change)
    try:
        two_step: ConversionResult | str = convert(copy.deepcopy(body), source, target, fused=False)
    except ConversionError as exc:
        two_step = exc.code
    result: ConversionResult | str
    try:
        result = convert(copy.deepcopy(body), source, target)
    except ConversionError as exc:
        result = exc.code
    if isinstance(two_step, str):
        assert result == two_step
    else:
        assert isinstance(result, ConversionResult) and not result.fused
        _same(result, two_step)


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_a_body_of_the_shape_is_converted_in_one_pass_with_the_two_step_answer(
    source: str, target: str
) -> None:
    fused = convert(copy.deepcopy(BODY), source, target)
    two_step = convert(copy.deepcopy(BODY), source, target, fused=False)
    assert fused.fused and not two_step.fused
    assert fused.losses  # the developer role, the image's detail: reported the same
    _same(fused, two_step)


# The model's reasoning as OpenAI-compatible servers replay it (DeepSeek's `reasoning_content`,
# OpenRouter's `reasoning`): no target can replay reasoning issued there, so each is reported
# where the canonical message holds it, first of what the writer says of the message.
REASONING_TURNS: dict[str, list[dict[str, Any]]] = {
    "reasoning_content beside calls": [
        {**BODY["messages"][2], "reasoning_content": "Look it up."},
    ],
    "reasoning beside a text, then a merged turn with both fields": [
        {"role": "assistant", "content": "Checking.", "reasoning": "Hm."},
        {"role": "assistant", "content": "Sunny.", "reasoning_content": "a", "reasoning": "b"},
    ],
    "blank reasoning (read), empty or null reasoning (none)": [
        {"role": "assistant", "content": "x", "reasoning_content": " ", "reasoning": ""},
        {"role": "user", "content": "y"},
        {"role": "assistant", "content": "z", "reasoning_content": None},
    ],
}


@pytest.mark.parametrize("name", sorted(REASONING_TURNS))
@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_the_models_reasoning_is_reported_in_one_pass_as_the_two_step_path_reports_it(
    source: str, target: str, name: str
) -> None:
    body = copy.deepcopy(BODY)
    body["messages"] = [*body["messages"][:2], *REASONING_TURNS[name], *body["messages"][3:]]
    if "tool_calls" not in REASONING_TURNS[name][0]:
        body["messages"] = [m for m in body["messages"] if m["role"] != "tool"]
    fused = convert(copy.deepcopy(body), source, target)
    two_step = convert(copy.deepcopy(body), source, target, fused=False)
    assert fused.fused and not two_step.fused
    assert any(loss.code == "thinking_not_replayable" for loss in fused.losses)
    _same(fused, two_step)


# A system or developer message after the conversation started: every target takes system
# prompts only at the top, so it is hoisted after the prompt before it, reported `moved`, and
# the turn it stood in keeps going (the message after it may merge with the one before).
LATE_SYSTEM: dict[str, list[dict[str, Any]]] = {
    "between two texts of the model, images around it": [
        {"role": "user", "content": BODY["messages"][1]["content"]},
        {"role": "assistant", "content": "a"},
        {"role": "system", "content": "late"},
        {"role": "assistant", "content": "b"},
        {"role": "user", "content": "c"},
    ],
    "developer messages, early and late": [
        {"role": "developer", "content": "d"},
        {"role": "user", "content": "hi"},
        {"role": "developer", "content": "late"},
        {"role": "user", "content": "more"},
    ],
    "between a call and its result": [
        {"role": "user", "content": "hi"},
        BODY["messages"][2],
        {"role": "system", "content": "late"},
        BODY["messages"][3],
    ],
    "after a prompt, of two texts, then one with a name, then the model": [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "hi"},
        {
            "role": "system",
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
        },
        {"role": "system", "content": "late", "name": "ops"},
        {"role": "assistant", "content": "x"},
    ],
    "last": [{"role": "user", "content": "hi"}, {"role": "system", "content": "end"}],
}


@pytest.mark.parametrize("name", sorted(LATE_SYSTEM))
@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_a_late_system_message_is_hoisted_in_one_pass_as_the_two_step_path_hoists_it(
    source: str, target: str, name: str
) -> None:
    body = {"model": "m", "messages": LATE_SYSTEM[name]}
    fused = convert(copy.deepcopy(body), source, target)
    two_step = convert(copy.deepcopy(body), source, target, fused=False)
    assert fused.fused and not two_step.fused
    # (Responses keeps a developer message in its list, where it stood.)
    kept_in_place = target == "openai-responses" and name.startswith("developer")
    assert kept_in_place or any(loss.code == "moved" for loss in fused.losses)
    _same(fused, two_step)


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_reasoning_alone_takes_two_steps_and_reasoning_of_another_type_is_refused_alike(
    source: str, target: str, caplog: pytest.LogCaptureFixture
) -> None:
    body = copy.deepcopy(BODY)
    alone = {"role": "assistant", "content": None, "reasoning_content": "x"}
    body["messages"] = [*body["messages"][:2], alone, body["messages"][4]]
    takes_two_steps(body, "an empty assistant turn", source, target, caplog)
    body["messages"][2] = {"role": "assistant", "content": "x", "reasoning": 5}
    assert (
        PAIRS[source, target](copy.deepcopy(body)) == "assistant reasoning outside the fused shape"
    )
    for validate in (True, False):
        refused_alike(body, source, target, validate=validate)


@pytest.mark.parametrize(
    "extra",
    [
        # Both land in Anthropic's output_config: one must not overwrite the other.
        {
            "reasoning_effort": "low",
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "n", "schema": {"type": "object"}, "strict": True},
            },
        },
        {"response_format": {"type": "json_object"}, "parallel_tool_calls": False},
        {"response_format": {"type": "text"}, "parallel_tool_calls": True, "tool_choice": "none"},
        {"stream": True, "n": 1, "seed": 7, "presence_penalty": 0.5, "user": None},
        {"stream": True, "stream_options": {"include_usage": True}},
        {"stream": True, "stream_options": {"include_usage": False}},
    ],
)
@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_fields_the_targets_write_together_or_not_at_all(
    source: str, target: str, extra: dict[str, Any]
) -> None:
    body = {**copy.deepcopy(BODY), **extra}
    _same(convert(body, source, target), convert(body, source, target, fused=False))


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_an_empty_model_is_no_model_on_both_paths(
    source: str, target: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression (found by fuzzing once "" read as absent where the canonical form needs a
    character): the passes wrote `model: ""` through, or reported it dropped, where the
    two-step path writes the target's placeholder or nothing."""
    takes_two_steps(_with(("model",), ""), "no model", source, target, caplog)


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_a_body_outside_the_shape_takes_the_two_step_path_and_says_why(
    source: str, target: str, caplog: pytest.LogCaptureFixture
) -> None:
    body = copy.deepcopy(BODY)
    body["messages"][1]["content"].append(
        {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}
    )
    with caplog.at_level(logging.DEBUG, logger="interlingua.conversion.converter"):
        result = convert(body, source, target)
    assert not result.fused
    assert any(
        "two-step path: user content outside the fused shape" in r.message for r in caplog.records
    )
    _same(result, convert(body, source, target, fused=False))


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_each_loss_is_logged_once_by_the_adapter_that_lost_it_as_the_two_step_path_logs_it(
    source: str, target: str, caplog: pytest.LogCaptureFixture
) -> None:
    body = {**copy.deepcopy(BODY), "user": "u-1"}  # the reader's loss comes first
    lines = [logged_alike(body, source, target, caplog)]
    assert lines[0][0].startswith(f"{source}: field_dropped at /user")


def test_the_environment_and_known_maps_turn_the_fused_pass_off() -> None:
    assert not convert(BODY, "openai-chat", "anthropic", id_map={"a": "b"}).fused
    # The environment is read once, when interlingua is imported: a fresh process each.
    code = (
        "import json, sys; from interlingua import convert; "
        "print(convert(json.loads(sys.argv[1]), 'openai-chat', 'anthropic').fused)"
    )
    for value, fused in (("0", "False"), ("1", "True")):
        done = subprocess.run(
            [sys.executable, "-c", code, json.dumps(BODY)],
            env={**os.environ, FUSED_ENV: value},
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.strip() == fused


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    body = copy.deepcopy(BODY)
    node: Any = body
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return body


def _deep(levels: int) -> Any:
    node: Any = {"type": "object"}
    for _ in range(levels):
        node = {"items": node}
    return node


def _empty_lists(levels: int) -> Any:
    """A list of a list … of an empty list, ``levels`` deep: it carries nothing."""
    node: Any = []
    for _ in range(levels - 1):
        node = [node]
    return node


BAD: dict[str, Any] = {
    "lone surrogate in a text": _with(("messages", 4, "content"), "hi \ud800"),
    "lone surrogate in a system text": _with(("messages", 0, "content"), "\udfff"),
    "lone surrogate in an image URL": _with(
        ("messages", 1, "content", 1, "image_url", "url"), "https://e.com/\ud800.png"
    ),
    "lone surrogate in a model": _with(("model",), "gpt\ud800"),
    "lone surrogate in arguments": _with(
        ("messages", 2, "tool_calls", 0, "function", "arguments"), '{"a": "\ud800"}'
    ),
    "NaN temperature": _with(("temperature",), float("nan")),
    "infinite top_p": _with(("top_p",), float("inf")),
    "an integer of too many digits": _with(("max_tokens",), 10**5000),
    "a stop list holding NaN": _with(("stop",), ["a", float("nan")]),
    "a tool schema nested past the limit": _with(
        ("tools", 0, "function", "parameters"), _deep(300)
    ),
    "a non-string key in a message": _with(("messages", 4, 7), "x"),
    "a non-JSON value in an unread field": _with(("metadata",), {"a": object()}),
    # Keys that do not even sort together: the pass stops on an exception, the two-step
    # path reports the key.
    "a non-string key beside an unread field": _with((5,), "x") | {"metadata": {}},
    "a lone surrogate in an unread field": _with(("user",), "\ud800"),
    "arguments that are not JSON": _with(
        ("messages", 2, "tool_calls", 0, "function", "arguments"), "{nope"
    ),
    "a temperature of the wrong type": _with(("temperature",), "hot"),
    "a result of the wrong type": _with(("messages", 3, "content"), 5),
    "a role that is no role": _with(("messages", 4, "role"), "narrator"),
    # Found by fuzzing: a null or [] carries nothing, but a field whose schema is more than a
    # type may refuse it (the legacy function_call is an object).
    "an empty list for a message's function_call": _with(("messages", 2, "function_call"), []),
    # Found by fuzzing (seeds 17010220, 17018357): a message field the pass does not read was
    # asked whether it carries anything before the input check, which let a field that
    # carries nothing skip the check the two-step path makes (a conversion where it gives a
    # coded error) and recursed past Python's limit on a deeper one (the test below).
    "a message field holding nothing, nested past the limit": _with(
        ("messages", 4, "extra"), _empty_lists(300)
    ),
    "a message field holding nothing under a lone surrogate key": _with(
        ("messages", 4, "\ud800"), None
    ),
}


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("name", sorted(BAD))
@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_bad_input_gets_the_two_step_paths_coded_error(
    source: str, target: str, name: str, validate: bool
) -> None:
    refused_alike(BAD[name], source, target, validate=validate)


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_a_message_field_nested_past_the_recursion_limit_gets_the_coded_error(
    source: str, target: str
) -> None:
    """Regression (fuzzing, seeds 17010220 and 17018357): an uncoded RecursionError from the
    pass. Each path gets a body of its own (3,000 levels: no copy of it recurses either)."""
    refusals = []
    for fused in (True, False):
        body = _with(("messages", 4, "extra"), _empty_lists(3_000))
        with pytest.raises(ConversionError) as refused:
            convert(body, source, target, fused=fused)
        refusals.append((refused.value.code, refused.value.pointer, refused.value.message))
    assert refusals[0] == refusals[1]
    assert refusals[0][:2] == ("nesting_too_deep", "/messages/4/extra" + "/0" * 253)


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_strict_mode_refuses_what_the_fused_pass_would_lose_as_the_two_step_path_does(
    source: str, target: str
) -> None:
    with pytest.raises(LossyConversionError) as fused:
        convert(BODY, source, target, strict=True)
    with pytest.raises(LossyConversionError) as two_step:
        convert(BODY, source, target, strict=True, fused=False)
    assert fused.value.losses == two_step.value.losses
    assert str(fused.value) == str(two_step.value)


@pytest.mark.parametrize(("levels", "fine"), [(251, True), (252, False)])
def test_a_schema_nested_to_the_limit_passes_and_one_past_it_fails_as_in_the_two_step_path(
    levels: int, fine: bool
) -> None:
    body = _with(("tools", 0, "function", "parameters"), _deep(levels))
    if fine:
        result = convert(body, "openai-chat", "anthropic")
        assert result.fused
        _same(result, convert(body, "openai-chat", "anthropic", fused=False))
        return
    with pytest.raises(ConversionError) as fused:
        convert(body, "openai-chat", "anthropic")
    with pytest.raises(ConversionError) as two_step:
        convert(body, "openai-chat", "anthropic", fused=False)
    assert fused.value.code == two_step.value.code == "nesting_too_deep"
    assert fused.value.pointer == two_step.value.pointer


# --- the loss order of a merged turn (regression) ---------------------------------------------


# The pairs whose target needs alternating turns (Responses' items do not: nothing merges).
ALTERNATING = [pair for pair in FROM_CHAT if pair[1] != "openai-responses"]


@pytest.mark.parametrize(("source", "target"), ALTERNATING)
def test_a_merged_user_turn_reports_its_parts_losses_before_the_merge(
    source: str, target: str
) -> None:
    """Regression: the fused pass reported `turns_merged` before the losses of the merged
    message's parts (an image's `detail`), the two-step writer after them."""
    image = {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "high"}
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "a"},
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": image},
                    {"type": "text", "text": "b"},
                ],
            },
        ],
    }
    fused = convert(copy.deepcopy(body), source, target)
    assert fused.fused
    _same(fused, convert(copy.deepcopy(body), source, target, fused=False))
    at = [(x.pointer, x.code) for x in fused.losses if x.pointer.startswith("/messages")]
    assert at == [
        ("/messages/1/content/0/detail", "field_dropped"),
        ("/messages/1", "turns_merged"),
    ]


# --- Bedrock: the shapes its pass takes, and those it sends back ------------------------------


def _image(url: str, **more: Any) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url, **more}}


def _without(*keys: str) -> dict[str, Any]:
    return {k: v for k, v in copy.deepcopy(BODY).items() if k not in keys}


_CALLS = [
    {"role": "user", "content": "Weather here and there?"},
    {
        "role": "assistant",
        "content": "Looking.",
        "tool_calls": [
            {"id": "c.1", "type": "function", "function": {"name": "weather", "arguments": "{}"}},
            {"id": "c:2", "type": "function", "function": {"name": "weather", "arguments": ""}},
        ],
    },
    {"role": "tool", "tool_call_id": "c.1", "content": "sunny"},
    {"role": "tool", "tool_call_id": "c:2", "content": [{"type": "text", "text": "rain"}]},
    {
        "role": "user",
        "content": [{"type": "text", "text": "Thanks."}, _image("https://e.com/a.png")],
    },
]
_SCHEMA = {"type": "object", "properties": {"a": {"type": "string", "description": "é"}}}

# name: (body, why the fused pass sends it back; None: it takes it)
BEDROCK: dict[str, tuple[dict[str, Any], str | None]] = {
    "web image beside text: dropped, reported": (BODY, None),
    "the first turn left out whole: an assistant turn first": (
        _with(("messages", 1, "content"), [_image("https://e.com/a.png")]),
        "an assistant turn first",
    ),
    "data URL images, format words": (
        _with(
            ("messages", 1, "content"),
            [
                _image("data:image/png;base64,iVBORw0KGgo="),
                _image("data:image/JPEG;base64,/9j/", detail="low"),
            ],
        ),
        None,
    ),
    "a media type without a format word": (
        _with(("messages", 1, "content", 1, "image_url", "url"), "data:image/tiff;base64,AAAA"),
        "user content outside the fused shape",
    ),
    "parallel calls, ids with dots and colons": (_with(("messages",), _CALLS), None),
    "system and developer joined": (
        _with(
            ("messages",),
            [
                {"role": "system", "content": "a"},
                {"role": "developer", "content": [{"type": "text", "text": "b"}]},
                {"role": "user", "content": "hi"},
            ],
        ),
        None,
    ),
    "tool_choice required": (_with(("tool_choice",), "required"), None),
    "tool_choice by name": (
        _with(("tool_choice",), {"type": "function", "function": {"name": "weather"}}),
        None,
    ),
    "tool_choice none: left out, reported": (_with(("tool_choice",), "none"), None),
    "tool_choice with no tools": (_without("tools"), "tool_choice with no tools to choose among"),
    "a call history with no tools offered: each tool called declared": (
        _without("tools", "tool_choice"),
        None,
    ),
    "tool_choice none, calls, no tools": (_without("tools") | {"tool_choice": "none"}, None),
    "parameters, some with no place": (
        {
            **BODY,
            "top_p": 0.5,
            "seed": 3,
            "parallel_tool_calls": True,
            "presence_penalty": 0.1,
            "reasoning_effort": "low",
            "stop": ["a", "b"],
        },
        None,
    ),
    "json_schema with description and strict": (
        {
            **BODY,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "n", "description": "d", "schema": _SCHEMA, "strict": True},
            },
        },
        None,
    ),
    "json_schema without description": (
        {
            **BODY,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "n", "schema": _SCHEMA},
            },
        },
        None,
    ),
    "json_object: no place": ({**BODY, "response_format": {"type": "json_object"}}, None),
    "an empty tool description: left out, reported": (
        _with(("tools", 0, "function", "description"), ""),
        None,
    ),
    "a strict tool": (_with(("tools", 0, "function", "strict"), True), None),
    "blank text": (_with(("messages", 4, "content"), " "), "user content outside the fused shape"),
}
_LONG_ID = "x" * 70  # Converse takes 64 characters: the two-step path rewrites it
BEDROCK["an id too long for Converse"] = (
    _with(("messages", 2, "tool_calls", 0, "id"), _LONG_ID),
    "a tool call id the fused shape does not take",
)
BEDROCK["an id too long for Converse"][0]["messages"][3]["tool_call_id"] = _LONG_ID


@pytest.mark.parametrize("name", sorted(BEDROCK))
def test_bedrock_bodies_take_the_fused_path_where_it_covers_them_with_the_two_step_answer(
    name: str,
) -> None:
    body, why = BEDROCK[name]
    if why is not None:  # sent back for this reason, not another
        assert PAIRS["openai-chat", "bedrock"](copy.deepcopy(body)) == why
    fused = convert(copy.deepcopy(body), "openai-chat", "bedrock")
    assert fused.fused is (why is None)
    _same(fused, convert(copy.deepcopy(body), "openai-chat", "bedrock", fused=False))
    check_wire(fused.output, "bedrock", "request", strict=True)


def test_tools_a_history_calls_are_declared_to_bedrock_in_the_order_first_called() -> None:
    body: dict[str, Any] = {"model": "m", "messages": copy.deepcopy(_CALLS)}
    body["messages"][1]["tool_calls"][0]["function"]["name"] = "clock"  # then weather, twice
    body["messages"][1]["tool_calls"].append(
        {"id": "c3", "type": "function", "function": {"name": "weather", "arguments": "{}"}}
    )
    body["messages"].insert(4, {"role": "tool", "tool_call_id": "c3", "content": "fog"})
    result = convert(copy.deepcopy(body), "openai-chat", "bedrock")
    assert result.fused
    _same(result, convert(copy.deepcopy(body), "openai-chat", "bedrock", fused=False))
    declared = [t["toolSpec"]["name"] for t in result.output["toolConfig"]["tools"]]
    assert declared == ["clock", "weather"]
    assert result.losses[-1].pointer == "/tools"
    assert result.losses[-1].code == "placeholder_inserted"


_WEB = _image("https://e.com/a.png", detail="low")
_CALL = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
# Messages around one Bedrock leaves out whole (nothing in it can go): the turns stay as
# they were, no merge is reported for it; whether the pass takes them.
DROPPED_MESSAGES: list[tuple[list[dict[str, Any]], bool]] = [
    (
        [
            {"role": "user", "content": "a"},
            {"role": "assistant", "content": "b"},
            {"role": "user", "content": [_WEB]},
        ],
        True,
    ),
    (
        [
            {"role": "user", "content": "a"},
            {"role": "user", "content": [_WEB]},
            {"role": "assistant", "content": "b"},
        ],
        True,
    ),
    (
        [
            {"role": "system", "content": "s"},
            {"role": "user", "content": [_WEB, _WEB]},
            {"role": "user", "content": "c"},
        ],
        True,
    ),
    (
        [
            {"role": "user", "content": "a"},
            {"role": "assistant", "content": None, "tool_calls": [_CALL]},
            {"role": "tool", "tool_call_id": "c1", "content": "r"},
            {"role": "user", "content": [_WEB]},
            {"role": "user", "content": "x"},
        ],
        True,
    ),
    ([{"role": "user", "content": [_WEB]}, {"role": "assistant", "content": "b"}], False),
]


@pytest.mark.parametrize(("messages", "taken"), DROPPED_MESSAGES)
def test_a_bedrock_message_left_out_whole_is_reported_as_the_two_step_path_reports_it(
    messages: list[dict[str, Any]], taken: bool
) -> None:
    body = {"model": "m", "messages": messages}
    result = convert(copy.deepcopy(body), "openai-chat", "bedrock")
    assert result.fused is taken
    _same(result, convert(copy.deepcopy(body), "openai-chat", "bedrock", fused=False))
    assert "message_dropped" in [x.code for x in result.losses]


def test_a_request_of_nothing_bedrock_can_carry_is_the_two_step_paths_error() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": [_WEB]}]}
    with pytest.raises(ConversionError) as fused:
        convert(copy.deepcopy(body), "openai-chat", "bedrock")
    with pytest.raises(ConversionError) as two_step:
        convert(copy.deepcopy(body), "openai-chat", "bedrock", fused=False)
    assert (fused.value.code, fused.value.pointer) == (two_step.value.code, two_step.value.pointer)


def test_a_web_image_goes_to_bedrock_as_a_reported_drop_and_a_data_url_as_bytes() -> None:
    result = convert(copy.deepcopy(BODY), "openai-chat", "bedrock")
    assert result.fused and result.output["messages"][0]["content"] == [
        {"text": "Weather in Zürich?"}
    ]
    assert ("/messages/1/content/1", "part_dropped", "image") in [
        (x.pointer, x.code, x.part_type) for x in result.losses
    ]
    body, _why = BEDROCK["data URL images, format words"]
    blocks = convert(copy.deepcopy(body), "openai-chat", "bedrock").output["messages"][0]["content"]
    assert [b["image"]["format"] for b in blocks] == ["png", "jpeg"]


@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_the_benchmark_corpora_take_the_fused_path(source: str, target: str) -> None:
    """The common shapes (text, data URL images, parallel calls with their results, system and
    developer prompts, tools and tool_choice, parameters, response formats) are the fused
    pass's own: every body of the benchmark's corpora takes it (none silently falls back)."""
    corpus = bench_module("openai_corpus")
    for bodies in (corpus.corpus(200), corpus.long_corpus(20)):
        reasons = [
            r for r in (PAIRS[source, target](copy.deepcopy(b)) for b in bodies) if type(r) is str
        ]
        assert reasons == []


# --- OpenAI Responses: items, the shapes its pass takes, and those it sends back ---------------


def _messages(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-4o", "messages": list(messages)}


_USER = {"role": "user", "content": "Hi"}
_ASKED = {"role": "assistant", "content": None, "tool_calls": [_CALL]}
_ANSWERED = {"role": "tool", "tool_call_id": "c1", "content": "r"}

# name: (body, why the fused pass sends it back; None: it takes it)
RESPONSES: dict[str, tuple[dict[str, Any], str | None]] = {
    "the common shape: detail carried, developer in the list": (BODY, None),
    "parallel calls and their results, each an item": (_with(("messages",), _CALLS), None),
    "text beside calls: a message item, then the calls": (
        _messages(_USER, {**_ASKED, "content": "Looking."}, _ANSWERED),
        None,
    ),
    "several texts of the model: one message item of output_text": (
        _messages(
            _USER,
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            },
        ),
        None,
    ),
    "one text in a list: the shorthand": (
        _messages({"role": "user", "content": [{"type": "text", "text": "a"}]}),
        None,
    ),
    "consecutive user messages: items apart, nothing merged": (
        _messages(_USER, _USER, {"role": "assistant", "content": "b"}, _USER),
        None,
    ),
    "an assistant message first": (_messages({"role": "assistant", "content": "a"}, _USER), None),
    "two system messages and a list of two texts: one string, each join reported": (
        _messages(
            {"role": "system", "content": "a"},
            {
                "role": "system",
                "content": [{"type": "text", "text": "b"}, {"type": "text", "text": "c"}],
            },
            _USER,
        ),
        None,
    ),
    "a system message after the conversation started: hoisted, reported": (
        _messages(
            _USER, {"role": "system", "content": "late"}, {"role": "assistant", "content": "b"}
        ),
        None,
    ),
    "a system message after a developer message: moved": (
        _messages({"role": "developer", "content": "d"}, {"role": "system", "content": "s"}, _USER),
        None,
    ),
    "developer messages of several texts": (
        _messages(
            {
                "role": "developer",
                "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            },
            _USER,
        ),
        None,
    ),
    "data URL images, detail kept": (
        _with(
            ("messages", 1, "content"),
            [
                _image("data:image/png;base64,iVBORw0KGgo="),
                _image("data:image/JPEG;base64,/9j/", detail="high"),
            ],
        ),
        None,
    ),
    "tools strict, not strict and unsaid; no parameters": (
        {
            **BODY,
            "tools": [
                {"type": "function", "function": {"name": "a", "parameters": {}, "strict": True}},
                {"type": "function", "function": {"name": "b", "strict": False}},
                {"type": "function", "function": {"name": "c", "description": ""}},
            ],
            "tool_choice": {"type": "function", "function": {"name": "a"}},
        },
        None,
    ),
    "tool_choice required and none": (_with(("tool_choice",), "required"), None),
    "parameters, some with no place, reasoning effort nested": (
        {**BODY, "top_p": 0.5, "seed": 3, "parallel_tool_calls": False, "reasoning_effort": "low"},
        None,
    ),
    "json_schema with description, under text.format": (
        {
            **BODY,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "n", "description": "d", "schema": _SCHEMA, "strict": True},
            },
        },
        None,
    ),
    "json_schema alone": (
        {
            **BODY,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "n", "schema": _SCHEMA},
            },
        },
        None,
    ),
    "json_object": ({**BODY, "response_format": {"type": "json_object"}}, None),
    "a call history with no tools offered": (_without("tools", "tool_choice"), None),
    # Calls and results wherever they stand: items written as they come, as the writer does.
    "a user turn before the results": (
        _messages(_USER, _ASKED, _USER),
        None,
    ),
    "a developer turn before the results": (
        _messages(_USER, _ASKED, {"role": "developer", "content": "d"}),
        None,
    ),
    "the calls unanswered at the end": (
        _messages(_USER, _ASKED),
        None,
    ),
    "a result without its call": (_messages(_USER, _ANSWERED), None),
    "blank and empty strings, carried as they are (Responses keeps blank text)": (
        _messages(
            {"role": "system", "content": "a"},
            {"role": "system", "content": ""},
            {"role": "developer", "content": " "},
            {"role": "user", "content": ""},
            _ASKED,
            {**_ANSWERED, "content": ""},
            {"role": "assistant", "content": " "},
        ),
        None,
    ),
    "a result of several texts: text blocks": (
        _messages(
            _USER,
            _ASKED,
            {
                **_ANSWERED,
                "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            },
        ),
        None,
    ),
    "results out of order": (
        _with(("messages",), [_CALLS[0], _CALLS[1], _CALLS[3], _CALLS[2]]),
        None,
    ),
    # Sent back, each for its reason.
    "no messages": (_messages(), "no messages"),
    "a message that is not an object": (_messages(_USER, "hi"), "a message that is not an object"),  # type: ignore[arg-type]
    "a role outside the shape": (
        _messages({"role": "function", "name": "f", "content": "x"}),
        "a role outside the fused shape",
    ),
    "only a system prompt": (
        _messages({"role": "system", "content": "s"}),
        "no turn",
    ),
    "a result of an empty id": (
        _messages(_USER, _ASKED, {**_ANSWERED, "tool_call_id": ""}),
        "a tool result id the fused shape does not take",
    ),
    "a result of an image": (
        _messages(_USER, _ASKED, {**_ANSWERED, "content": [_image("https://e.com/a.png")]}),
        "a tool result outside the fused shape",
    ),
    "an empty assistant turn": (
        _messages(_USER, {"role": "assistant", "content": ""}),
        "an empty assistant turn",
    ),
    "a refusal part": (
        _messages(_USER, {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]}),
        "assistant content outside the fused shape",
    ),
    "a refusal beside the calls": (
        _messages(_USER, {**_ASKED, "refusal": "no"}, _ANSWERED),
        "assistant fields outside the fused shape",
    ),
    "tool calls that are no list": (
        _messages(_USER, {**_ASKED, "tool_calls": {"id": "c1"}}),
        "tool calls: not a list",
    ),
    "a custom tool call": (
        _messages(_USER, {**_ASKED, "tool_calls": [{**_CALL, "type": "custom"}]}),
        "a tool call outside the fused shape",
    ),
    "one call id twice": (
        _messages(_USER, {**_ASKED, "tool_calls": [_CALL, _CALL]}),
        "a tool call id the fused shape does not take",
    ),
    "a tool name Responses refuses": (
        _messages(
            _USER,
            {**_ASKED, "tool_calls": [{**_CALL, "function": {"name": "a.b", "arguments": "{}"}}]},
            _ANSWERED,
        ),
        "a tool name the fused shape does not take",
    ),
    "arguments that are a list": (
        _messages(
            _USER,
            {**_ASKED, "tool_calls": [{**_CALL, "function": {"name": "f", "arguments": "[1]"}}]},
            _ANSWERED,
        ),
        "tool call arguments that do not read",
    ),
    "a result field holding what JSON cannot": (
        _messages(_USER, _ASKED, {**_ANSWERED, "x": {1: "y"}}),
        "tool result fields outside the fused shape",
    ),
    "a developer field of a type the schema refuses": (
        _messages({"role": "developer", "content": "d", "name": 5}, _USER),
        "developer message fields outside the fused shape",
    ),
    "a developer image": (
        _messages({"role": "developer", "content": [_image("https://e.com/a.png")]}, _USER),
        "developer content outside the fused shape",
    ),
    "a system field of a type the schema refuses": (
        _messages({"role": "system", "content": "s", "name": 5}, _USER),
        "system message fields outside the fused shape",
    ),
    "a blank system text in a list": (
        _messages({"role": "system", "content": [{"type": "text", "text": " "}]}, _USER),
        "system content outside the fused shape",
    ),
    "an audio part": (
        _messages(
            {
                "role": "user",
                "content": [
                    {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}
                ],
            }
        ),
        "user content outside the fused shape",
    ),
}


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_responses_bodies_take_the_fused_path_where_it_covers_them_with_the_two_step_answer(
    name: str,
) -> None:
    body, why = RESPONSES[name]
    if why is not None:  # sent back for this reason, not another
        assert PAIRS["openai-chat", "openai-responses"](copy.deepcopy(body)) == why
    try:
        two_step = convert(copy.deepcopy(body), "openai-chat", "openai-responses", fused=False)
    except ConversionError as exc:
        assert why is not None
        with pytest.raises(ConversionError) as fused_error:
            convert(copy.deepcopy(body), "openai-chat", "openai-responses")
        assert (fused_error.value.code, fused_error.value.pointer) == (exc.code, exc.pointer)
        return
    fused = convert(copy.deepcopy(body), "openai-chat", "openai-responses")
    assert fused.fused is (why is None)
    _same(fused, two_step)
    check_wire(fused.output, "openai-responses", "request")


def test_responses_items_and_the_system_prompts_losses() -> None:
    """What the pass writes to Responses, checked for itself (beside equal to the two-step
    path): calls and results items of their own after the model's text, the model's text as
    output_text, system prompts joined into `instructions` with each join reported where it
    was read, a late one moved, `strict` spelled out."""
    body = {
        "model": "gpt-4o",
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
        "messages": [
            {"role": "system", "content": "a"},
            {
                "role": "system",
                "content": [{"type": "text", "text": "b"}, {"type": "text", "text": "c"}],
            },
            {"role": "user", "content": "Hi"},
            {**_ASKED, "content": [{"type": "text", "text": "x"}]},
            _ANSWERED,
            {"role": "system", "content": "late"},
        ],
    }
    result = convert(copy.deepcopy(body), "openai-chat", "openai-responses")
    assert result.fused
    _same(result, convert(copy.deepcopy(body), "openai-chat", "openai-responses", fused=False))
    assert result.output["instructions"] == "a\n\nb\n\nc\n\nlate"
    assert result.output["input"] == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "x"}]},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "r"},
    ]
    assert result.output["tools"] == [
        {"type": "function", "name": "f", "parameters": {}, "strict": False}
    ]
    assert [(x.pointer, x.code, x.part_type) for x in result.losses] == [
        ("/messages/1", "turns_merged", None),
        ("/messages/5", "moved", None),
        ("/messages/1/content/0", "turns_merged", "text"),
        ("/messages/1/content/1", "turns_merged", "text"),
        ("/messages/5/content/0", "turns_merged", "text"),
    ]


# --- Anthropic → OpenAI Chat: the first pair read from content blocks --------------------------

# The pairs read from Anthropic's blocks (Bedrock's untagged blocks have a file of their own,
# test_fused_pairs_bedrock.py).
FROM_BLOCKS = sorted(pair for pair in PAIRS if pair[0] == "anthropic")

# The common shape of an Anthropic client's request: a system prompt of blocks, images by URL
# and by bytes, parallel calls beside text, their results before the user's next words, a
# tool_choice carrying parallel tool use, a parameter OpenAI has no place for (top_k, the
# writer's loss) and a field the reader does not read (stream, the reader's).
ANTHROPIC_BODY: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "temperature": 0.2,
    "top_k": 5,
    "stop_sequences": ["END"],
    "stream": True,
    "system": [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "In English."}],
    "tools": [
        {
            "name": "weather",
            "description": "The weather in a city.",
            "input_schema": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        }
    ],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": False},
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather in Zürich and Bern?"},
                {"type": "image", "source": {"type": "url", "url": "https://example.com/m.png"}},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"},
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Looking."},
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "weather",
                    "input": {"city": "Zürich"},
                },
                {"type": "tool_use", "id": "toolu_2", "name": "weather", "input": {"city": "Bern"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_2",
                    "content": [{"type": "text", "text": "rain"}, {"type": "text", "text": "5°C"}],
                },
                {"type": "text", "text": "Thanks."},
            ],
        },
        {"role": "assistant", "content": "You're welcome."},
        {"role": "user", "content": [{"type": "text", "text": "Bye."}]},
    ],
}


def _anthropic(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """ANTHROPIC_BODY with the value at ``path`` replaced (``_DELETE``: removed)."""
    return changed(ANTHROPIC_BODY, path, value)


_DELETE = DELETE
_TEXT = {"type": "text", "text": "x"}
_TOOL_USE = {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}}
_RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "r"}
_ASKS = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": [_TOOL_USE]}]

_SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
# A server tool no canonical tool stands for (web search is a canonical hosted tool, which the
# passes leave to the two-step path: tests/adapters/test_hosted_tools.py).
_SERVER_TOOL = {"type": "bash_20250124", "name": "bash", "max_uses": 3}
_THINKING = {"type": "thinking", "thinking": "Hm.", "signature": "sig"}
_REDACTED = {"type": "redacted_thinking", "data": "ENC"}
_COMPACTION = {"type": "compaction", "content": "Earlier: weather.", "encrypted_content": "E"}
_HOSTED: list[dict[str, Any]] = [
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"q": "x"}},
    {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_1",
        "content": [{"type": "web_search_result", "url": "https://e.com", "title": "E"}],
    },
]
_MCP_CALL = {
    "type": "mcp_tool_use",
    "id": "mcptoolu_1",
    "name": "f",
    "server_name": "s",
    "input": {},
}
_FORMAT = {"type": "json_schema", "schema": _SCHEMA}

ANTHROPIC_SHAPES: dict[str, dict[str, Any]] = {
    "the common shape": ANTHROPIC_BODY,
    "structured output (the target's format, its name a placeholder, reported)": _anthropic(
        ("output_config",), {"format": _FORMAT}
    ),
    "structured output to an empty schema, with thinking": _anthropic(
        ("output_config",), {"format": {**_FORMAT, "schema": {}}}
    )
    | {"thinking": {"type": "enabled", "budget_tokens": 2048}},
    "a null format, an empty output_config": _anthropic(("output_config",), {"format": None}),
    "an empty output_config": _anthropic(("output_config",), {}),
    "extended thinking (its budget reported dropped, before top_k)": _anthropic(
        ("thinking",), {"type": "enabled", "budget_tokens": 1024}
    ),
    "a null thinking setting": _anthropic(("thinking",), None),
    "adaptive thinking": _anthropic(("thinking",), {"type": "adaptive"}),
    "disabled thinking": _anthropic(("thinking",), {"type": "disabled"}),
    "thinking's display (read, then dropped: reported)": _anthropic(
        ("thinking",), {"type": "enabled", "budget_tokens": 1024, "display": "omitted"}
    ),
    "an effort (OpenAI's reasoning_effort)": _anthropic(
        ("output_config",), {"format": _FORMAT, "effort": "high"}
    ),
    "a system prompt as a string": _anthropic(("system",), "Be brief."),
    "one system block: the shorthand": _anthropic(("system",), [_TEXT]),
    "no system prompt": _anthropic(("system",), _DELETE),
    "a call alone: content null, then its result alone": _anthropic(
        ("messages",), [*_ASKS, {"role": "user", "content": [_RESULT]}]
    ),
    "text before, between and after results, in order": _anthropic(
        ("messages",),
        [
            *_ASKS[:1],
            {"role": "assistant", "content": [_TOOL_USE, {**_TOOL_USE, "id": "toolu_2"}]},
            {
                "role": "user",
                "content": [
                    _TEXT,
                    _RESULT,
                    {**_TEXT, "text": "y"},
                    {**_RESULT, "tool_use_id": "toolu_2"},
                    _TEXT,
                    _TEXT,
                ],
            },
        ],
    ),
    "results in another order than the calls": _anthropic(
        ("messages", 2, "content"),
        list(reversed(ANTHROPIC_BODY["messages"][2]["content"][:2])),
    ),
    "several texts of the model: text parts": _anthropic(
        ("messages", 3, "content"), [_TEXT, {**_TEXT, "text": "y"}]
    ),
    "turns of one role in a row, an assistant turn first": _anthropic(
        ("messages",),
        [
            {"role": "assistant", "content": "Hello."},
            {"role": "user", "content": "a"},
            {"role": "user", "content": "b"},
        ],
    ),
    "a required tool_choice without parallel calls": _anthropic(
        ("tool_choice",), {"type": "any", "disable_parallel_tool_use": True}
    ),
    "a named tool": _anthropic(("tool_choice",), {"type": "tool", "name": "weather"}),
    "no tool at all": _anthropic(("tool_choice",), {"type": "none"}),
    "a tool_choice with parallel use left unsaid": _anthropic(
        ("tool_choice",), {"type": "auto", "disable_parallel_tool_use": None}
    ),
    "a strict tool without description, tagged custom": _anthropic(
        ("tools", 0),
        {"type": "custom", "name": "w", "input_schema": {"type": "object"}, "strict": True},
    ),
    "an empty tools list": _anthropic(("tools",), []) | {"tool_choice": None},
    "parameters left null": _anthropic(("temperature",), None)
    | {"top_p": None, "top_k": None, "stop_sequences": None, "stream": None},
    "fields the reader leaves behind": _anthropic(("stream",), False)
    | {"container": "c-1", "service_tier": "auto", "context_management": None},
    # OpenAI has no place for it: reported at the result's message (the canonical form's),
    # after the envelope's losses; a null says nothing.
    "results' error flags, with a system prompt and text between them": _anthropic(
        ("messages",),
        [
            *_ASKS[:1],
            {"role": "assistant", "content": [_TOOL_USE, {**_TOOL_USE, "id": "toolu_2"}]},
            {
                "role": "user",
                "content": [
                    {**_RESULT, "is_error": True},
                    _TEXT,
                    {**_RESULT, "tool_use_id": "toolu_2", "is_error": False},
                ],
            },
            {"role": "assistant", "content": "x"},
            {"role": "user", "content": [{**_RESULT, "is_error": None}]},
        ],
    ),
    "an id OpenAI takes as it is": _anthropic(("messages",), _ASKS)
    | {"messages": [*_ASKS[:1], {"role": "assistant", "content": [{**_TOOL_USE, "id": "a.b"}]}]},
    # Real traffic: what the two-step path drops whole, reported as it reports it.
    "a server tool beside a custom one (no home: reported, the full check runs)": _anthropic(
        ("tools",), [_SERVER_TOOL, ANTHROPIC_BODY["tools"][0]]
    ),
    "server tools only, with a tool_choice (the writer drops it, reported)": _anthropic(
        ("tools",), [_SERVER_TOOL, {"type": "tool_search_tool_bm25_20251119", "name": "s"}]
    ),
    "a tool_choice beside an empty tools list (the writer drops it, reported)": _anthropic(
        ("tools",), []
    ),
    "deferred tools (keys reading leaves, reported before the fields; null and [] silent)": {
        **copy.deepcopy(ANTHROPIC_BODY),
        "container": "c-1",
        "cache_control": {"type": "ephemeral"},
        "tools": [
            {**ANTHROPIC_BODY["tools"][0], "defer_loading": True, "eager_input_streaming": None},
            _SERVER_TOOL,
            {
                **ANTHROPIC_BODY["tools"][0],
                "name": "w2",
                "input_examples": [],
                "x~new/key": 1,
                "allowed_callers": ["direct"],
            },
        ],
    },
    "thinking, redacted thinking and compaction before the model's text and calls": _anthropic(
        ("messages", 1, "content"),
        [_THINKING, _REDACTED, _COMPACTION, *ANTHROPIC_BODY["messages"][1]["content"]],
    ),
    "thinking between calls, and a thinking text left empty": _anthropic(
        ("messages", 1, "content"),
        [
            {**_THINKING, "thinking": ""},
            *ANTHROPIC_BODY["messages"][1]["content"][1:],
            _THINKING,
        ],
    ),
    "a server tool's call and result, an MCP call, beside text and calls": _anthropic(
        ("messages", 1, "content"),
        [
            _THINKING,
            *_HOSTED,
            _TEXT,
            _MCP_CALL,
            *ANTHROPIC_BODY["messages"][1]["content"][1:],
            {**_HOSTED[0], "id": "t" * 300},
        ],
    ),
    "a compaction with no summary, and hosted blocks after the last text": _anthropic(
        ("messages", 3, "content"),
        [{**_COMPACTION, "content": None}, _TEXT, *_HOSTED],
    ),
    "the same thinking block twice (one object): each at its place": _anthropic(
        ("messages", 3, "content"), [_THINKING, _TEXT, _THINKING]
    ),
}


@pytest.mark.parametrize("name", sorted(ANTHROPIC_SHAPES))
@pytest.mark.parametrize(("source", "target"), FROM_BLOCKS)
def test_anthropic_bodies_of_the_shape_take_one_pass_with_the_two_step_answer(
    source: str, target: str, name: str
) -> None:
    body = ANTHROPIC_SHAPES[name]
    fused = convert(copy.deepcopy(body), source, target)
    two_step = convert(copy.deepcopy(body), source, target, fused=False)
    assert fused.fused and not two_step.fused
    _same(fused, two_step)
    check_wire(fused.output, target, "request", strict=True)


def test_a_results_error_flag_is_reported_at_its_message_after_the_envelopes_losses() -> None:
    body = ANTHROPIC_SHAPES["results' error flags, with a system prompt and text between them"]
    result = convert(copy.deepcopy(body), "anthropic", "openai-chat")
    assert result.fused
    assert [(x.pointer, x.code, x.part_type) for x in result.losses] == [
        ("/parameters/top_k", "parameter_dropped", None),
        # system, user, assistant, then the first result: the fourth message
        ("/messages/3/content/0/is_error", "field_dropped", "tool_result"),
        # the second result's `is_error: false` says what its absence says: nothing lost
    ]


def test_the_anthropic_pass_writes_what_openai_chat_keeps_apart_in_order() -> None:
    """What the pair does, spelled out once: the system prompt first, the user's images as
    data and web URLs, the model's text and calls in one message (arguments as JSON text),
    each result a tool message before the user's next words, losses read then written."""
    result = convert(copy.deepcopy(ANTHROPIC_BODY), "anthropic", "openai-chat")
    assert result.fused
    out = result.output
    assert list(out) == [
        "model",
        "stream",
        "tools",
        "tool_choice",
        "max_completion_tokens",
        "temperature",
        "stop",
        "parallel_tool_calls",
        "messages",
    ]
    assert (out["tool_choice"], out["parallel_tool_calls"]) == ("auto", True)
    assert out["tools"][0]["function"]["parameters"] == ANTHROPIC_BODY["tools"][0]["input_schema"]
    roles = [m["role"] for m in out["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool", "user", "assistant", "user"]
    assert out["messages"][0]["content"] == [
        {"type": "text", "text": "Be brief."},
        {"type": "text", "text": "In English."},
    ]
    assert out["messages"][1]["content"][2] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,iVBORw0K"},
    }
    calls = out["messages"][2]["tool_calls"]
    assert [c["function"]["arguments"] for c in calls] == ['{"city":"Zürich"}', '{"city":"Bern"}']
    assert out["messages"][3] == {"role": "tool", "tool_call_id": "toolu_1", "content": "sunny"}
    assert out["messages"][-1] == {"role": "user", "content": "Bye."}
    assert [(x.pointer, x.code) for x in result.losses] == [
        ("/parameters/top_k", "parameter_dropped"),
    ]


# name: (body, the reason the pass gives for sending it the two-step way)
ANTHROPIC_OUTSIDE: dict[str, tuple[dict[str, Any], str]] = {
    "a cache hint on the system prompt": (
        _anthropic(("system", 0, "cache_control"), {"type": "ephemeral"}),
        "a system prompt outside the fused shape",
    ),
    "text after a call (OpenAI keeps it apart: moved, reported)": (
        _anthropic(("messages", 1, "content"), [_TOOL_USE, _TEXT]),
        "assistant content outside the fused shape",
    ),
    "an id OpenAI would rewrite": (
        _anthropic(("messages", 1, "content", 1, "id"), "t" * 41),
        "assistant content outside the fused shape",
    ),
    "a name OpenAI would rewrite": (
        _anthropic(("messages", 1, "content", 1, "name"), "get.weather"),
        "assistant content outside the fused shape",
    ),
    "a result's cache hint": (
        _anthropic(("messages", 2, "content", 0, "cache_control"), {"type": "ephemeral"}),
        "user content outside the fused shape",
    ),
    # (media and documents in or beside results: test_fused_pairs_media.py)
    "an image type OpenAI does not take": (
        _anthropic(("messages", 0, "content", 2, "source", "media_type"), "image/bmp"),
        "user content outside the fused shape",
    ),
    # (thinking's other settings, its display, an effort: test_fused_pairs_anthropic_settings.py)
    "a key beside the format's (read, then dropped: reported)": (
        _anthropic(("output_config",), {"format": {**_FORMAT, "name": "x"}}),
        "output_config: a format outside the fused shape",
    ),
    "a tool's cache hint": (
        _anthropic(("tools", 0, "cache_control"), {"type": "ephemeral"}),
        "a tool outside the fused shape",
    ),
    "a model turn of thinking alone (the writer drops the message, reported)": (
        _anthropic(("messages", 1, "content"), [_THINKING]),
        "assistant content outside the fused shape",
    ),
    "a model turn of a server tool's blocks alone": (
        _anthropic(("messages", 3, "content"), _HOSTED),
        "assistant content outside the fused shape",
    ),
    "a thinking block with a key reading reports": (
        _anthropic(("messages", 1, "content", 0), {**_THINKING, "cache_control": None}),
        "assistant content outside the fused shape",
    ),
    "a compaction's cache hint (read by a codec)": (
        _anthropic(
            ("messages", 1, "content", 0), {**_COMPACTION, "cache_control": {"type": "ephemeral"}}
        ),
        "assistant content outside the fused shape",
    ),
    "a server tool's call naming its caller (read by a codec)": (
        _anthropic(("messages", 1, "content", 0), {**_HOSTED[0], "caller": {"type": "direct"}}),
        "assistant content outside the fused shape",
    ),
    "a server tool's result without its call's id": (
        _anthropic(
            ("messages", 1, "content", 0), {"type": "web_search_tool_result", "content": []}
        ),
        "assistant content outside the fused shape",
    ),
    "a block of a server tool the mapping does not know": (
        _anthropic(("messages", 1, "content", 0), {**_HOSTED[1], "type": "new_tool_result"}),
        "assistant content outside the fused shape",
    ),
}


@pytest.mark.parametrize("name", sorted(ANTHROPIC_OUTSIDE))
def test_an_anthropic_body_outside_the_shape_takes_the_two_step_path_and_says_why(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    takes_two_steps(*ANTHROPIC_OUTSIDE[name], "anthropic", "openai-chat", caplog)


ANTHROPIC_BAD: dict[str, Any] = {
    "lone surrogate in a text": _anthropic(("messages", 4, "content", 0, "text"), "hi \ud800"),
    "lone surrogate in the system prompt": _anthropic(("system",), "\udfff"),
    "lone surrogate in an image URL": _anthropic(
        ("messages", 0, "content", 1, "source", "url"), "https://e.com/\ud800.png"
    ),
    "lone surrogate in a call's input": _anthropic(
        ("messages", 1, "content", 1, "input"), {"city": "\ud800"}
    ),
    "lone surrogate in an unread field": _anthropic(("service_tier",), "\ud800"),
    "NaN temperature": _anthropic(("temperature",), float("nan")),
    "an integer of too many digits": _anthropic(("max_tokens",), 10**5000),
    "no max_tokens (the schema requires it)": _anthropic(("max_tokens",), _DELETE),
    "a float max_tokens": _anthropic(("max_tokens",), 1.5),
    "a top_k of the wrong type": _anthropic(("top_k",), "many"),
    "stop sequences holding a number": _anthropic(("stop_sequences",), ["END", 3]),
    "image data that is not base64": _anthropic(
        ("messages", 0, "content", 2, "source", "data"), "not base64!"
    ),
    "a call's input that is not an object": _anthropic(("messages", 1, "content", 1, "input"), [1]),
    "a tool schema that is not an object schema": _anthropic(
        ("tools", 0, "input_schema", "type"), "string"
    ),
    "a tool schema's required that is not a list of names": _anthropic(
        ("tools", 0, "input_schema", "required"), [1]
    ),
    "a tool schema nested past the limit": _anthropic(
        ("tools", 0, "input_schema", "properties"), {"a": _deep(300)}
    ),
    "a role that is no role": _anthropic(("messages", 4, "role"), "developer"),
    "metadata of the wrong type (the full schema check)": _anthropic(("metadata",), {"user_id": 7}),
    "a stream flag of the wrong type": _anthropic(("stream",), "yes"),
    "a result's error flag of the wrong type": _anthropic(
        ("messages", 2, "content", 0, "is_error"), "yes"
    ),
    "a non-string key in a message": _anthropic(("messages", 4, 7), "x"),
    "thinking with no budget": _anthropic(("thinking",), {"type": "enabled"}),
    "thinking with a null budget": _anthropic(
        ("thinking",), {"type": "enabled", "budget_tokens": None}
    ),
    "thinking with a float budget": _anthropic(
        ("thinking",), {"type": "enabled", "budget_tokens": 1024.5}
    ),
    "thinking with no type": _anthropic(("thinking",), {"budget_tokens": 1024}),
    "thinking that is a string": _anthropic(("thinking",), "enabled"),
    "an output_config that is a list": _anthropic(("output_config",), [_FORMAT]),
    "a format that is a string": _anthropic(("output_config",), {"format": "json"}),
    "a format of another type": _anthropic(
        ("output_config",), {"format": {**_FORMAT, "type": "json_object"}}
    ),
    "a format with no schema": _anthropic(("output_config",), {"format": {"type": "json_schema"}}),
    "a format's schema that is a list": _anthropic(
        ("output_config",), {"format": {**_FORMAT, "schema": [1]}}
    ),
    "a format's schema holding a lone surrogate": _anthropic(
        ("output_config",), {"format": {**_FORMAT, "schema": {"title": "\ud800"}}}
    ),
    "a format's schema nested past the limit": _anthropic(
        ("output_config",), {"format": {**_FORMAT, "schema": {"a": _deep(300)}}}
    ),
    "lone surrogate in a thinking text": _anthropic(
        ("messages", 1, "content", 0), {**_THINKING, "thinking": "\ud800"}
    ),
    "lone surrogate in a redacted thinking": _anthropic(
        ("messages", 1, "content", 0), {**_REDACTED, "data": "\udc00"}
    ),
    "lone surrogate in a server tool's result": _anthropic(
        ("messages", 1, "content", 0), {**_HOSTED[1], "content": [{"title": "\ud800"}]}
    ),
    "a server tool's result nested past the limit": _anthropic(
        ("messages", 1, "content", 0), {**_HOSTED[1], "content": _deep(300)}
    ),
    "lone surrogate in a server tool's option": _anthropic(
        ("tools", 0), {**_SERVER_TOOL, "user_location": {"city": "\ud800"}}
    ),
    "lone surrogate in a key reading leaves on a tool": _anthropic(("tools", 0, "\ud800"), True),
    "lone surrogate in a value reading leaves on a tool": _anthropic(("tools", 0, "x"), ["\udfff"]),
    "a thinking block without its signature": _anthropic(
        ("messages", 1, "content", 0), {"type": "thinking", "thinking": "Hm."}
    ),
    "a thinking block with a signature of the wrong type": _anthropic(
        ("messages", 1, "content", 0), {**_THINKING, "signature": 7}
    ),
    "a redacted thinking block with null data": _anthropic(
        ("messages", 1, "content", 0), {**_REDACTED, "data": None}
    ),
    "a compaction without content": _anthropic(
        ("messages", 1, "content", 0), {"type": "compaction", "encrypted_content": "E"}
    ),
    "a compaction's content of the wrong type": _anthropic(
        ("messages", 1, "content", 0), {**_COMPACTION, "content": 1}
    ),
    "a server tool without a name": _anthropic(("tools", 0), {"type": "bash_20250124"}),
    "a server tool whose name is not a string": _anthropic(
        ("tools", 0), {**_SERVER_TOOL, "name": 3}
    ),
    "thinking in a user turn": _anthropic(("messages", 4, "content", 0), _THINKING),
    "a server tool whose type is not a string": _anthropic(
        ("tools", 0), {**_SERVER_TOOL, "type": 5}
    ),
    "a deferred tool's flag of the wrong type": _anthropic(("tools", 0, "defer_loading"), "yes"),
    "a tool's allowed callers of the wrong type (the full check)": _anthropic(
        ("tools", 0, "allowed_callers"), "direct"
    ),
    "a tool's input examples that are not objects (the full check)": _anthropic(
        ("tools", 0, "input_examples"), [1]
    ),
}


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("name", sorted(ANTHROPIC_BAD))
def test_bad_anthropic_input_gets_the_two_step_paths_coded_error(name: str, validate: bool) -> None:
    refused_alike(ANTHROPIC_BAD[name], "anthropic", "openai-chat", validate=validate)


def test_metadata_is_carried_past_in_one_pass_with_the_schema_check() -> None:
    """`metadata` is an object in Anthropic's schema (more than a type): the pass reports it
    dropped as the reader does and leaves its check to the full schema check."""
    body = {**copy.deepcopy(ANTHROPIC_BODY), "metadata": {"user_id": "u-1"}}
    got = PAIRS["anthropic", "openai-chat"](copy.deepcopy(body))
    assert type(got) is tuple and not got[2]
    fused = convert(copy.deepcopy(body), "anthropic", "openai-chat")
    assert fused.fused and fused.losses[0].pointer == "/metadata"
    _same(fused, convert(copy.deepcopy(body), "anthropic", "openai-chat", fused=False))


@pytest.mark.parametrize(("source", "target"), FROM_BLOCKS)
def test_a_block_pairs_losses_are_logged_and_refused_in_strict_mode_as_in_two_steps(
    source: str, target: str, caplog: pytest.LogCaptureFixture
) -> None:
    body = {**ANTHROPIC_BODY, "metadata": {"user_id": "u-1"}}  # the reader's loss comes first
    lines = [logged_alike(body, source, target, caplog)]
    assert lines[0][0].startswith(f"{source}: field_dropped at /metadata")
    assert lines[0][1].startswith(f"{target}: parameter_dropped at /parameters/top_k")
    with pytest.raises(LossyConversionError) as fused_error:
        convert(ANTHROPIC_BODY, source, target, strict=True)
    with pytest.raises(LossyConversionError) as two_step:
        convert(ANTHROPIC_BODY, source, target, strict=True, fused=False)
    assert fused_error.value.losses == two_step.value.losses


def test_recorded_anthropic_requests_of_the_shape_take_the_fused_path() -> None:
    """A floor, as docs/spec/conversion.md says: of the real-traffic corpus's 58 Anthropic
    requests, those of the pass's shape (server and deferred tools, thinking and server tool
    blocks, media and documents in or beside tool results included). The rest: a system turn
    amid the messages, which the two-step path reads where it stands (3), blank text before
    the model's calls (llm's `" "`, 1), a system prompt outside the pass's shape (2), a cache
    breakpoint on an image or document in a user turn (crewAI's, 2), a call's `caller` (1), a
    hosted tool offered (web search, web fetch, code execution: read by the two-step path, 4)."""
    requests = [
        body for _, body, fmt, kind in real_bodies() if fmt == "anthropic" and kind == "request"
    ]
    taken = [type(PAIRS["anthropic", "openai-chat"](copy.deepcopy(b))) is tuple for b in requests]
    assert len(requests) == 58
    assert sum(taken) >= 45


def test_the_thinking_option_text_takes_the_two_step_path() -> None:
    """The passes drop reasoning another provider issued (`thinking="drop"`, the default);
    asked to send it as text, `convert` takes the two-step path, which does."""
    body = ANTHROPIC_SHAPES[
        "thinking, redacted thinking and compaction before the model's text and calls"
    ]
    as_text = convert(copy.deepcopy(body), "anthropic", "openai-chat", thinking="text")
    assert not as_text.fused
    _same(as_text, convert(body, "anthropic", "openai-chat", thinking="text", fused=False))
    assert as_text.output["messages"][2]["content"][0] == {"type": "text", "text": "Hm."}
    assert convert(copy.deepcopy(body), "anthropic", "openai-chat").fused


def test_what_the_anthropic_pass_drops_is_reported_as_the_two_step_path_reports_it() -> None:
    """Spelled out once: the tools' losses (in tool order, a tool's keys in name order) come
    before the fields reading leaves behind; the writer's choice among no tools first of its
    own; a model turn's reasoning before the server tool blocks it cannot carry."""
    body = copy.deepcopy(
        ANTHROPIC_SHAPES[
            "deferred tools (keys reading leaves, reported before the fields; null and [] silent)"
        ]
    )
    body["tools"] = [t for t in body["tools"] if t.get("type") != "bash_20250124"]
    body["tools"].insert(0, _SERVER_TOOL)
    body["messages"][1]["content"][:0] = [*_HOSTED, _THINKING]
    result = convert(copy.deepcopy(body), "anthropic", "openai-chat")
    assert result.fused
    assert [(x.pointer, x.code, x.part_type) for x in result.losses] == [
        ("/tools/0", "field_dropped", None),
        ("/tools/1/defer_loading", "field_dropped", None),
        ("/tools/2/allowed_callers", "field_dropped", None),
        ("/tools/2/x~0new~1key", "field_dropped", None),
        ("/cache_control", "field_dropped", None),
        ("/container", "field_dropped", None),
        ("/parameters/top_k", "parameter_dropped", None),
        ("/messages/2/content/2", "thinking_not_replayable", "thinking"),
        ("/messages/2/content/0", "part_dropped", "hosted_tool_call"),
        ("/messages/2/content/1", "part_dropped", "hosted_tool_result"),
    ]
    assert result.losses[0].reason == (
        "anthropic: no canonical home for this 'bash_20250124' item; not carried"
    )
    _same(result, convert(body, "anthropic", "openai-chat", fused=False))
    only_server = _anthropic(("tools",), [_SERVER_TOOL])
    result = convert(copy.deepcopy(only_server), "anthropic", "openai-chat")
    assert result.fused and "tools" not in result.output and "tool_choice" not in result.output
    assert [(x.pointer, x.code) for x in result.losses][:2] == [
        ("/tools/0", "field_dropped"),
        ("/tool_choice", "field_dropped"),
    ]


@pytest.mark.parametrize(("source", "target"), FROM_BLOCKS)
def test_the_benchmark_corpora_in_anthropics_format_take_the_fused_path(
    source: str, target: str
) -> None:
    """The benchmark's corpora, converted to the pair's source format by the two-step path:
    every body takes the pass, structured output (`output_config`) included."""
    corpus = bench_module("openai_corpus")
    for bodies in (corpus.corpus(200), corpus.long_corpus(20)):
        written = [convert(b, "openai-chat", source, fused=False).output for b in bodies]
        reasons = [PAIRS[source, target](copy.deepcopy(b)) for b in written]
        assert [r for r in reasons if type(r) is str] == []


@pytest.mark.parametrize(("source", "target"), FROM_BLOCKS)
def test_every_mutant_of_the_common_anthropic_body_converts_the_same_both_ways(
    source: str, target: str
) -> None:
    """Regression: `tools: []` beside a tool_choice went out with the choice, which the two-step
    writer drops (reported). Each value of the common body swapped for values of every JSON type,
    each key deleted, a key added to each object: the same outcome, whichever path it takes."""
    # The mutants the pass took: the test has teeth.
    assert mutants_taken(ANTHROPIC_BODY, source, target) > 300


# Real traffic's shapes the pass drops whole: a server tool and keys reading leaves on a tool,
# reasoning and server tool blocks in the model's turns.
ANTHROPIC_DROPPING: dict[str, Any] = {
    **_anthropic(("tools",), [_SERVER_TOOL, {**ANTHROPIC_BODY["tools"][0], "defer_loading": True}]),
    "messages": [
        ANTHROPIC_BODY["messages"][0],
        {
            "role": "assistant",
            "content": [
                _THINKING,
                _REDACTED,
                *_HOSTED,
                _TEXT,
                _MCP_CALL,
                *ANTHROPIC_BODY["messages"][1]["content"][1:],
            ],
        },
        ANTHROPIC_BODY["messages"][2],
        {"role": "assistant", "content": [_COMPACTION, _TEXT]},
        ANTHROPIC_BODY["messages"][4],
    ],
}


@pytest.mark.parametrize(("source", "target"), FROM_BLOCKS)
def test_every_mutant_of_an_anthropic_body_the_pass_drops_from_converts_the_same_both_ways(
    source: str, target: str
) -> None:
    """The dropped shapes' mutants (a block's key removed or added, a value of every JSON
    type, a server tool's options changed): the same outcome whichever path converts them."""
    assert convert(copy.deepcopy(ANTHROPIC_DROPPING), source, target).fused
    assert mutants_taken(ANTHROPIC_DROPPING, source, target) > 400


@pytest.mark.parametrize("seed", range(4))
def test_random_model_turns_of_dropped_blocks_convert_the_same_both_ways(seed: int) -> None:
    """Model turns of the blocks the pass drops, text and calls, in random orders and
    numbers: the pass takes those of its shape, each with the two-step path's answer."""
    rng = random.Random(seed)
    pool = [_THINKING, _REDACTED, _COMPACTION, *_HOSTED, _MCP_CALL, _TEXT, _TOOL_USE]
    taken = 0
    for _ in range(150):
        turns = [
            [copy.deepcopy(rng.choice(pool)) for _ in range(rng.randint(1, 5))] for _ in range(2)
        ]
        body = _anthropic(("messages", 1, "content"), turns[0])
        body["messages"][3]["content"] = turns[1]
        fused = convert(copy.deepcopy(body), "anthropic", "openai-chat")
        _same(fused, convert(copy.deepcopy(body), "anthropic", "openai-chat", fused=False))
        taken += fused.fused
    assert taken > 20
