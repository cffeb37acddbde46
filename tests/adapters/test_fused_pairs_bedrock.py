"""The fused pair bedrock → openai-chat (generator/pairs_from_blocks.py): a source whose blocks
are untagged (`{"text": ...}`, `{"toolUse": {...}}`), whose parameters and tools live in groups
(`inferenceConfig`, `toolConfig`), whose images name their type by a format word and whose body
names no model. The shapes it takes (with the two-step answer), those it sends back (with its
reason), and bad input (the two-step path's coded error).

Equality over the corpora is `test_differential.py`'s (parametrised over PAIRS).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion import LossyConversionError
from interlingua.conversion.converter import check_wire, convert
from interlingua.generated.pairs import PAIRS
from tests.adapters.differential import real_bodies
from tests.adapters.fused import (
    DELETE,
    changed,
    deep,
    logged_alike,
    mutants_taken,
    refused_alike,
    same,
    takes_two_steps,
)
from tests.benchmarks.test_convert_bench import bench_module

SOURCE, TARGET = "bedrock", "openai-chat"
PASS = PAIRS[SOURCE, TARGET]

# The common shape of a Converse client's request: a system prompt of blocks, an image by
# bytes, the model's text then parallel calls, their results (text, a structured value, a
# status) before the user's next words, tools with a choice, the inference parameters, and a
# field the reader does not read (requestMetadata, the reader's loss).
BEDROCK_BODY: dict[str, Any] = {
    "system": [{"text": "Be brief."}, {"text": "In English."}],
    "inferenceConfig": {
        "maxTokens": 512,
        "temperature": 0.2,
        "topP": 0.9,
        "stopSequences": ["END"],
    },
    "requestMetadata": {"team": "ops"},
    "toolConfig": {
        "tools": [
            {
                "toolSpec": {
                    "name": "weather",
                    "description": "The weather in a city.",
                    "inputSchema": {
                        "json": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        }
                    },
                }
            }
        ],
        "toolChoice": {"auto": {}},
    },
    "messages": [
        {
            "role": "user",
            "content": [
                {"text": "Weather in Zürich and Bern?"},
                {"image": {"format": "png", "source": {"bytes": "iVBORw0K"}}},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"text": "Looking."},
                {"toolUse": {"toolUseId": "t1", "name": "weather", "input": {"city": "Zürich"}}},
                {"toolUse": {"toolUseId": "t2", "name": "weather", "input": {"city": "Bern"}}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "toolResult": {
                        "toolUseId": "t1",
                        "content": [{"text": "sunny"}],
                        "status": "success",
                    }
                },
                {"toolResult": {"toolUseId": "t2", "content": [{"json": {"sky": "rain", "c": 5}}]}},
                {"text": "Thanks."},
            ],
        },
        {"role": "assistant", "content": [{"text": "You're welcome."}]},
        {"role": "user", "content": [{"text": "Bye."}]},
    ],
}

_DELETE = DELETE


def _bedrock(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """BEDROCK_BODY with the value at ``path`` replaced (``_DELETE``: removed)."""
    return changed(BEDROCK_BODY, path, value)


_same = same


_TEXT = {"text": "x"}
_USE = {"toolUse": {"toolUseId": "t1", "name": "weather", "input": {}}}
_RESULT = {"toolResult": {"toolUseId": "t1", "content": [{"text": "r"}]}}
_ASKS = [{"role": "user", "content": [_TEXT]}, {"role": "assistant", "content": [_USE]}]
_TOOLS = BEDROCK_BODY["toolConfig"]["tools"]


def _result(**fields: Any) -> dict[str, Any]:
    return {"toolResult": {**_RESULT["toolResult"], **fields}}


BEDROCK_SHAPES: dict[str, dict[str, Any]] = {
    "the common shape": BEDROCK_BODY,
    # read, then dropped: reported before the body's own keys, as reading reports it
    "an inference parameter the mapping does not read": _bedrock(("inferenceConfig", "seed"), 7),
    "one system block: the shorthand": _bedrock(("system",), [_TEXT]),
    # what most SDKs send when there is none: an empty prompt, the target's placeholder
    "an empty system prompt": _bedrock(("system",), []),
    "a null system prompt": _bedrock(("system",), None),
    "no system prompt": _bedrock(("system",), _DELETE),
    "no inference parameters": _bedrock(("inferenceConfig",), _DELETE),
    "inference parameters empty, or null": _bedrock(("inferenceConfig",), {}),
    "inference parameters null": _bedrock(("inferenceConfig",), None),
    "inference parameters left null": _bedrock(
        ("inferenceConfig",), {"maxTokens": None, "temperature": None}
    ),
    "no tools": _bedrock(("toolConfig",), _DELETE)
    | {"messages": [{"role": "user", "content": [_TEXT]}]},
    "tools without a choice": _bedrock(("toolConfig", "toolChoice"), _DELETE),
    "a null choice": _bedrock(("toolConfig", "toolChoice"), None),
    "a required tool": _bedrock(("toolConfig", "toolChoice"), {"any": {}}),
    "a named tool": _bedrock(("toolConfig", "toolChoice"), {"tool": {"name": "weather"}}),
    "an empty tools list": _bedrock(("toolConfig",), {"tools": []}),
    "a strict tool without description": _bedrock(
        ("toolConfig", "tools", 0),
        {"toolSpec": {"name": "w", "inputSchema": {"json": {"type": "object"}}, "strict": True}},
    ),
    "an empty description": _bedrock(("toolConfig", "tools", 0, "toolSpec", "description"), ""),
    "a call alone: content null, then its result alone": _bedrock(
        ("messages",), [*_ASKS, {"role": "user", "content": [_RESULT]}]
    ),
    "text before, between and after results, in order": _bedrock(
        ("messages",),
        [
            *_ASKS[:1],
            {
                "role": "assistant",
                "content": [_USE, {"toolUse": {**_USE["toolUse"], "toolUseId": "t2"}}],
            },
            {
                "role": "user",
                "content": [_TEXT, _RESULT, {"text": "y"}, _result(toolUseId="t2"), _TEXT],
            },
        ],
    ),
    "results' statuses: error, success, null": _bedrock(
        ("messages",),
        [
            *_ASKS,
            {"role": "user", "content": [_result(status="error")]},
            {"role": "assistant", "content": [_USE]},
            {"role": "user", "content": [_result(status="success")]},
            {"role": "assistant", "content": [_USE]},
            {"role": "user", "content": [_result(status=None)]},
        ],
    ),
    "a structured result with a status": _bedrock(
        ("messages",),
        [*_ASKS, {"role": "user", "content": [_result(content=[{"json": {}}], status="error")]}],
    ),
    "a result of several texts": _bedrock(
        ("messages",),
        [*_ASKS, {"role": "user", "content": [_result(content=[_TEXT, {"text": "y"}])]}],
    ),
    "every image word": _bedrock(
        ("messages", 0, "content"),
        [
            {"image": {"format": word, "source": {"bytes": "AAAA"}}}
            for word in ("png", "jpeg", "gif", "webp")
        ],
    ),
    "an image first, then text": _bedrock(
        ("messages", 0, "content"), list(reversed(BEDROCK_BODY["messages"][0]["content"]))
    ),
    "turns of one role in a row, an assistant turn first": _bedrock(
        ("messages",),
        [
            {"role": "assistant", "content": [{"text": "Hello."}]},
            {"role": "user", "content": [{"text": "a"}]},
            {"role": "user", "content": [{"text": "b"}]},
        ],
    ),
    "fields the reader leaves behind": _bedrock(("requestMetadata",), None)
    | {"serviceTier": {"type": "default"}, "performanceConfig": {"latency": "standard"}},
    "an id OpenAI takes as it is": _bedrock(("messages",), [*_ASKS[:1]])
    | {
        "messages": [
            *_ASKS[:1],
            {
                "role": "assistant",
                "content": [{"toolUse": {**_USE["toolUse"], "toolUseId": "a.b:c"}}],
            },
        ]
    },
}


@pytest.mark.parametrize("name", sorted(BEDROCK_SHAPES))
def test_bedrock_bodies_of_the_shape_take_one_pass_with_the_two_step_answer(name: str) -> None:
    body = BEDROCK_SHAPES[name]
    assert type(PASS(copy.deepcopy(body))) is tuple
    fused = convert(copy.deepcopy(body), SOURCE, TARGET)
    two_step = convert(copy.deepcopy(body), SOURCE, TARGET, fused=False)
    assert fused.fused and not two_step.fused
    _same(fused, two_step)
    check_wire(fused.output, TARGET, "request", strict=True)


def test_the_bedrock_pass_writes_what_openai_chat_keeps_apart_in_order() -> None:
    """What the pair does, spelled out once: the placeholder model, the system prompt first,
    the image's format word as a data URL's type, the model's text and calls in one message,
    each result a tool message before the user's next words (a structured value as its JSON
    text), losses read then written (the model, then each result's in order)."""
    result = convert(copy.deepcopy(BEDROCK_BODY), SOURCE, TARGET)
    assert result.fused
    out = result.output
    assert list(out) == [
        "model",
        "tools",
        "tool_choice",
        "max_completion_tokens",
        "temperature",
        "top_p",
        "stop",
        "messages",
    ]
    assert (out["model"], out["tool_choice"], out["max_completion_tokens"]) == (
        "unknown",
        "auto",
        512,
    )
    assert out["tools"][0]["function"]["parameters"]["required"] == ["city"]
    roles = [m["role"] for m in out["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool", "user", "assistant", "user"]
    assert out["messages"][1]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,iVBORw0K"},
    }
    calls = out["messages"][2]["tool_calls"]
    assert [c["function"]["arguments"] for c in calls] == ['{"city":"Zürich"}', '{"city":"Bern"}']
    assert out["messages"][4] == {
        "role": "tool",
        "tool_call_id": "t2",
        "content": '{"sky":"rain","c":5}',
    }
    assert [(x.pointer, x.code, x.part_type) for x in result.losses] == [
        ("/requestMetadata", "field_dropped", None),
        ("/model", "placeholder_inserted", None),
        # the first result's `status: success` says what no status says: nothing lost
        ("/messages/4/content/0/structured_content", "converted_to_text", "tool_result"),
    ]


# name: (body, the reason the pass gives for sending it the two-step way)
BEDROCK_OUTSIDE: dict[str, tuple[dict[str, Any], str]] = {
    "a cache point in the system prompt": (
        _bedrock(("system", 1), {"cachePoint": {"type": "default"}}),
        "a system prompt outside the fused shape",
    ),
    "a system prompt of blank text (Converse refuses it; read as it is)": (
        _bedrock(("system",), [{"text": " "}]),
        "a system prompt outside the fused shape",
    ),
    "a cache point after a user's text": (
        _bedrock(
            ("messages", 4, "content"), [{"text": "Bye."}, {"cachePoint": {"type": "default"}}]
        ),
        "user content outside the fused shape",
    ),
    "reasoning replayed": (
        _bedrock(
            ("messages", 1, "content", 0),
            {"reasoningContent": {"reasoningText": {"text": "Hm.", "signature": "sig"}}},
        ),
        "assistant content outside the fused shape",
    ),
    "text after a call (OpenAI keeps it apart: moved, reported)": (
        _bedrock(("messages", 1, "content"), [_USE, _TEXT]),
        "assistant content outside the fused shape",
    ),
    "an id OpenAI would rewrite": (
        _bedrock(("messages", 1, "content", 1, "toolUse", "toolUseId"), "t" * 41),
        "assistant content outside the fused shape",
    ),
    "a call's type (a server tool's, or the reader's loss)": (
        _bedrock(("messages", 1, "content", 1, "toolUse", "type"), "tool_use"),
        "assistant content outside the fused shape",
    ),
    "an image in S3": (
        _bedrock(
            ("messages", 0, "content", 1, "image", "source"), {"s3Location": {"uri": "s3://b/k"}}
        ),
        "user content outside the fused shape",
    ),
    "a document": (
        _bedrock(
            ("messages", 0, "content", 1),
            {"document": {"format": "txt", "name": "a", "source": {"bytes": "AAAA"}}},
        ),
        "user content outside the fused shape",
    ),
    "a result holding an image": (
        _bedrock(
            ("messages", 2, "content", 0, "toolResult", "content"),
            [BEDROCK_BODY["messages"][0]["content"][1]],
        ),
        "user content outside the fused shape",
    ),
    "a structured value beside text (a text may mirror it)": (
        _bedrock(("messages", 2, "content", 0, "toolResult", "content"), [_TEXT, {"json": {}}]),
        "user content outside the fused shape",
    ),
    "a result of nothing": (
        _bedrock(("messages", 2, "content", 0, "toolResult", "content"), []),
        "user content outside the fused shape",
    ),
    "a status the reader leaves behind": (
        _bedrock(("messages", 2, "content", 0, "toolResult", "status"), "partial"),
        "user content outside the fused shape",
    ),
    "top_k and thinking for Claude": (
        _bedrock(("additionalModelRequestFields",), {"top_k": 5}),
        "'additionalModelRequestFields': outside the fused shape",
    ),
    "structured output": (
        _bedrock(("outputConfig",), {"textFormat": None}),
        "'outputConfig': outside the fused shape",
    ),
    "a system tool": (
        _bedrock(("toolConfig", "tools", 0), {"systemTool": {"name": "nova_grounding"}}),
        "a tool outside the fused shape",
    ),
    "a cache point among the tools": (
        _bedrock(("toolConfig", "tools"), [*_TOOLS, {"cachePoint": {"type": "default"}}]),
        "a tool outside the fused shape",
    ),
    "a tool_choice beside an empty tools list (the writer drops it, reported)": (
        _bedrock(("toolConfig", "tools"), []),
        "a tool_choice beside an empty tools list",
    ),
    "a stop list of none": (
        _bedrock(("inferenceConfig", "stopSequences"), []),
        "stopSequences: outside the fused shape",
    ),
}


@pytest.mark.parametrize("name", sorted(BEDROCK_OUTSIDE))
def test_a_bedrock_body_outside_the_shape_takes_the_two_step_path_and_says_why(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    takes_two_steps(*BEDROCK_OUTSIDE[name], SOURCE, TARGET, caplog)


BEDROCK_BAD: dict[str, Any] = {
    "lone surrogate in a text": _bedrock(("messages", 4, "content", 0, "text"), "hi \ud800"),
    "lone surrogate in the system prompt": _bedrock(("system", 0, "text"), "\udfff"),
    "lone surrogate in a call's input": _bedrock(
        ("messages", 1, "content", 1, "toolUse", "input"), {"city": "\ud800"}
    ),
    "lone surrogate in a structured result": _bedrock(
        ("messages", 2, "content", 1, "toolResult", "content", 0, "json"), {"k": "\ud800"}
    ),
    "lone surrogate in an unread field": _bedrock(("requestMetadata",), {"k": "\ud800"}),
    "NaN temperature": _bedrock(("inferenceConfig", "temperature"), float("nan")),
    "an integer of too many digits": _bedrock(("inferenceConfig", "maxTokens"), 10**5000),
    "a float maxTokens": _bedrock(("inferenceConfig", "maxTokens"), 1.5),
    "stop sequences holding a number": _bedrock(("inferenceConfig", "stopSequences"), ["a", 3]),
    "inference parameters that are a list": _bedrock(("inferenceConfig",), [1]),
    "image bytes that are not base64": _bedrock(
        ("messages", 0, "content", 1, "image", "source", "bytes"), "not base64!"
    ),
    "an image word of another case": _bedrock(
        ("messages", 0, "content", 1, "image", "format"), "PNG"
    ),
    "an image word the reader does not know": _bedrock(
        ("messages", 0, "content", 1, "image", "format"), "bmp"
    ),
    "a call's input that is not an object": _bedrock(
        ("messages", 1, "content", 1, "toolUse", "input"), [1]
    ),
    "a structured result that is not an object": _bedrock(
        ("messages", 2, "content", 1, "toolResult", "content", 0, "json"), [1]
    ),
    "a status of the wrong type": _bedrock(
        ("messages", 2, "content", 0, "toolResult", "status"), True
    ),
    "a tool schema that is not an object schema": _bedrock(
        ("toolConfig", "tools", 0, "toolSpec", "inputSchema", "json", "type"), "string"
    ),
    "a tool schema nested past the limit": _bedrock(
        ("toolConfig", "tools", 0, "toolSpec", "inputSchema", "json", "properties"),
        {"a": deep(300)},
    ),
    "a tool config without its tools": _bedrock(("toolConfig",), {"toolChoice": {"auto": {}}}),
    "null tools": _bedrock(("toolConfig", "tools"), None),
    "a system prompt as a string": _bedrock(("system",), "Be brief."),
    "a user's content as a string": _bedrock(("messages", 4, "content"), "Bye."),
    "a role that is no role": _bedrock(("messages", 4, "role"), "system"),
    "a block of two kinds": _bedrock(("messages", 4, "content", 0), {"text": "a", "image": {}}),
    "a non-string key in a block": _bedrock(("messages", 4, "content", 0), {7: "x"}),
    "unread metadata of the wrong type (the full schema check)": _bedrock(
        ("requestMetadata",), {"team": 7}
    ),
}


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("name", sorted(BEDROCK_BAD))
def test_bad_bedrock_input_gets_the_two_step_paths_coded_error(name: str, validate: bool) -> None:
    refused_alike(BEDROCK_BAD[name], SOURCE, TARGET, validate=validate)


def test_the_bedrock_pairs_losses_are_logged_and_refused_in_strict_mode_as_in_two_steps(
    caplog: pytest.LogCaptureFixture,
) -> None:
    lines = [logged_alike(BEDROCK_BODY, SOURCE, TARGET, caplog)]
    assert lines[0][0].startswith(f"{SOURCE}: field_dropped at /requestMetadata")
    assert lines[0][1].startswith(f"{TARGET}: placeholder_inserted at /model")
    with pytest.raises(LossyConversionError) as fused_error:
        convert(BEDROCK_BODY, SOURCE, TARGET, strict=True)
    with pytest.raises(LossyConversionError) as two_step:
        convert(BEDROCK_BODY, SOURCE, TARGET, strict=True, fused=False)
    assert fused_error.value.losses == two_step.value.losses


def test_recorded_bedrock_requests_of_the_shape_take_the_fused_path() -> None:
    """A floor: of the real-traffic corpus's 48 Bedrock requests, those of the pass's shape
    (the rest carry Claude's fields, structured output, cache points, documents or media in
    results, video, a system tool, guarded text)."""
    requests = [body for _, body, fmt, kind in real_bodies() if fmt == SOURCE and kind == "request"]
    taken = [type(PASS(copy.deepcopy(b))) is tuple for b in requests]
    assert len(requests) == 48
    assert sum(taken) >= 23


def test_the_benchmark_corpora_in_bedrocks_format_take_the_fused_path() -> None:
    """The benchmark's corpora, converted to Bedrock by the two-step path: every body takes the
    pass, save those that ask for structured output (`outputConfig`)."""
    corpus = bench_module("openai_corpus")
    for bodies in (corpus.corpus(200), corpus.long_corpus(20)):
        written = [convert(b, "openai-chat", SOURCE, fused=False).output for b in bodies]
        reasons = [PASS(copy.deepcopy(b)) for b in written]
        assert {r for r in reasons if type(r) is str} <= {"'outputConfig': outside the fused shape"}
        assert sum(type(r) is tuple for r in reasons) >= 0.95 * len(bodies)


def test_every_mutant_of_the_common_bedrock_body_converts_the_same_both_ways() -> None:
    """Each value of the common body swapped for values of every JSON type, each key deleted,
    a key added to each object: the same outcome, whichever path it takes."""
    # The mutants the pass took: the test has teeth.
    assert mutants_taken(BEDROCK_BODY, SOURCE, TARGET) > 200
