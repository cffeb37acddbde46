"""The fused pair openai-responses → openai-chat (generator/pairs_from_items.py): the shapes it
takes, with the two-step path's answer; those it sends back, with the reason; bad input, with
the two-step path's coded error. Equality over the corpora is `test_differential.py`'s.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from interlingua.conversion import LossyConversionError
from interlingua.conversion.converter import check_wire, convert
from interlingua.generated.pairs import PAIRS
from tests.adapters.differential import outcome, real_bodies
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

SOURCE, TARGET = "openai-responses", "openai-chat"
PAIR = PAIRS[SOURCE, TARGET]

# The common shape of a Responses client's request: instructions, a developer message, the
# user's text and images (by URL and as a data URL), the model's text and parallel calls
# replayed with their item ids (reported: no canonical home), their outputs, the model's answer
# replayed as a message item, a function tool (strict left to the schema), a hosted tool
# (reported), the sampling parameters and the reasoning effort, and fields the reader does not
# read (stream, include: reported).
RESPONSES_BODY: dict[str, Any] = {
    "model": "gpt-4.1",
    "instructions": "Be brief.",
    "max_output_tokens": 256,
    "temperature": 0.2,
    "top_p": 0.9,
    "parallel_tool_calls": True,
    "reasoning": {"effort": "low"},
    "stream": True,
    "include": ["reasoning.encrypted_content"],
    "tools": [
        {
            "type": "function",
            "name": "weather",
            "description": "The weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": False,
            },
        },
        # A built-in tool with no canonical form (web search has one: the two-step path's).
        {"type": "file_search", "vector_store_ids": ["vs_1"]},
    ],
    "tool_choice": "auto",
    "input": [
        {"role": "developer", "content": "Answer in English."},
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "Weather in Zürich and Bern?"},
                {"type": "input_image", "image_url": "https://example.com/m.png", "detail": "low"},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0K"},
            ],
        },
        {
            "type": "message",
            "role": "assistant",
            "id": "msg_1",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Looking.", "annotations": []}],
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "weather",
            "arguments": '{"city": "Zürich"}',
            "status": "completed",
        },
        {"type": "function_call", "call_id": "call_2", "name": "weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        {
            "type": "function_call_output",
            "call_id": "call_2",
            "output": [
                {"type": "input_text", "text": "rain"},
                {"type": "input_text", "text": "5°C"},
            ],
        },
        {"role": "assistant", "content": "Sunny in Zürich, rain in Bern."},
        {"role": "user", "content": [{"type": "input_text", "text": "Thanks."}]},
    ],
}

_DELETE = DELETE


def _responses(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """RESPONSES_BODY with the value at ``path`` replaced (``_DELETE``: removed)."""
    return changed(RESPONSES_BODY, path, value)


_same = same


_USER = {"role": "user", "content": "Hi"}
_CALL = {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": "{}"}
_OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "r"}
_SAID = {"role": "assistant", "content": "x"}
_TOOL = RESPONSES_BODY["tools"][0]
_REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "e"}

SHAPES: dict[str, dict[str, Any]] = {
    "the common shape": RESPONSES_BODY,
    "input as a string": _responses(("input",), "Hello."),
    "no instructions": _responses(("instructions",), _DELETE),
    "empty instructions (written as they are)": _responses(("instructions",), ""),
    "a system message in the list: a developer message": _responses(("input", 0, "role"), "system"),
    "a call alone: content null, then its output alone": _responses(
        ("input",), [_USER, _CALL, _OUTPUT]
    ),
    "calls and outputs taking turns: a message each": _responses(
        ("input",),
        [_USER, _CALL, _OUTPUT, {**_CALL, "call_id": "c2"}, {**_OUTPUT, "call_id": "c2"}],
    ),
    "two messages of the model in a row: two messages": _responses(
        ("input",), [_USER, _SAID, {**_SAID, "content": "y"}, _CALL]
    ),
    "the model's texts: text parts, input_text read as text too": _responses(
        ("input",),
        [
            _USER,
            {
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": "a", "annotations": None},
                    {"type": "input_text", "text": "b"},
                ],
            },
        ],
    ),
    "outputs before their calls, an output without a call": _responses(
        ("input",), [_USER, _OUTPUT, _CALL, {**_OUTPUT, "call_id": "c9"}]
    ),
    "an empty message of the model: as it is, or nothing beside its calls": _responses(
        ("input",),
        [_USER, {**_SAID, "content": ""}, _CALL, _OUTPUT, {**_SAID, "content": ""}],
    ),
    "a named tool_choice": _responses(("tool_choice",), {"type": "function", "name": "weather"}),
    "strict said, a description left out": _responses(
        ("tools", 0),
        {"type": "function", "name": "w", "parameters": {"type": "object"}, "strict": True},
    ),
    "strict left out, a loose schema: not strict": _responses(
        ("tools", 0), {"type": "function", "name": "w", "parameters": {"type": "object"}}
    ),
    "a tool field the reader does not read (deferred loading)": _responses(
        ("tools", 0, "defer_loading"), True
    ),
    "only hosted tools beside a choice: the writer drops the choice": _responses(
        ("tools",),
        [
            {"type": "file_search", "vector_store_ids": ["vs_1"]},
            {"type": "image_generation"},
        ],
    ),
    "reasoning settings the reader does not read": _responses(
        ("reasoning",), {"effort": None, "generate_summary": "concise"}
    ),
    "parameters left null": _responses(("temperature",), None)
    | {"top_p": None, "max_output_tokens": None, "parallel_tool_calls": None, "reasoning": None},
    "item fields the reader does not read, a status other than completed": _responses(
        ("input", 2, "status"), "incomplete"
    )
    | {"input": [{**_USER, "id": "m0", "phase": "final"}, {**_CALL, "status": None}, _OUTPUT]},
    "a data URL of an image, with its detail": _responses(
        ("input", 1, "content", 2, "detail"), "high"
    ),
    "structured output: a schema, with the fields beside it reported": _responses(
        ("text",),
        {
            "format": {
                "type": "json_schema",
                "name": "Answer",
                "description": "The answer.",
                "schema": {"type": "object"},
                "strict": False,
                "zz": 1,
            },
            "verbosity": "low",
        },
    ),
    "structured output: JSON, or text": _responses(("text",), {"format": {"type": "json_object"}})
    | {"instructions": "x", "text": {"format": {"type": "text"}}},
    "fields the reader leaves behind": _responses(("stream",), False)
    | {"store": False, "metadata": {"k": "v"}, "include": []},
    # Reasoning (a reasoning model's replayed turns): Chat cannot replay it, so each item is
    # reported where the model's message holds it, and a message of reasoning alone is dropped.
    "reasoning before the model's text and calls: one message": _responses(
        ("input",), [_USER, _REASONING, _SAID, _CALL, _OUTPUT]
    ),
    "reasoning before calls, then between them": _responses(
        ("input",), [_USER, _REASONING, _CALL, {**_REASONING, "id": "rs_2"}, _CALL]
    ),
    "reasoning after the model's text: its message; the next text, another": _responses(
        ("input",), [_USER, _SAID, _REASONING, {**_SAID, "content": "y"}]
    ),
    "reasoning alone before a user message, and at the end: messages dropped": _responses(
        ("input",), [_USER, _REASONING, _USER, _SAID, _USER, _REASONING]
    ),
    "reasoning alone after an output, then a call: one message": _responses(
        ("input",), [_USER, _CALL, _OUTPUT, _REASONING, {**_CALL, "call_id": "c2"}]
    ),
    "a summary of several paragraphs (joined, reported), raw text (schema-checked)": _responses(
        ("input",),
        [
            _USER,
            {
                **_REASONING,
                "summary": [
                    {"type": "summary_text", "text": "a"},
                    {"type": "summary_text", "text": ""},
                ],
                "content": [{"type": "reasoning_text", "text": "raw"}],
                "status": "completed",
            },
            _SAID,
        ],
    ),
    "reasoning without an id or encrypted content, beside instructions": _responses(
        ("input",), [_USER, {"type": "reasoning", "summary": []}, _SAID]
    ),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_responses_bodies_of_the_shape_take_one_pass_with_the_two_step_answer(name: str) -> None:
    body = SHAPES[name]
    fused = convert(copy.deepcopy(body), SOURCE, TARGET)
    two_step = convert(copy.deepcopy(body), SOURCE, TARGET, fused=False)
    assert fused.fused and not two_step.fused
    _same(fused, two_step)
    check_wire(fused.output, TARGET, "request", strict=True)


def test_the_responses_pass_groups_items_into_chat_messages_in_order() -> None:
    """What the pair does, spelled out once: instructions first as the system message, the
    model's text and the calls after it in one message (arguments as compact JSON text), each
    output a tool message, the reader's losses in its order (tools, the fields it does not
    read, then the items')."""
    result = convert(copy.deepcopy(RESPONSES_BODY), SOURCE, TARGET)
    assert result.fused
    out = result.output
    assert list(out) == [
        "model",
        "stream",
        "store",  # left out, Responses keeps the answer: Chat is asked to
        "tools",
        "tool_choice",
        "max_completion_tokens",
        "temperature",
        "top_p",
        "parallel_tool_calls",
        "reasoning_effort",
        "messages",
    ]
    assert out["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "The weather in a city.",
                "parameters": _TOOL["parameters"],
                "strict": True,  # left out, and the schema is one strict mode takes
            },
        }
    ]
    roles = [m["role"] for m in out["messages"]]
    assert roles == [
        "system",
        "developer",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
    ]
    assert out["messages"][2]["content"][1:] == [
        {"type": "image_url", "image_url": {"url": "https://example.com/m.png", "detail": "low"}},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}},
    ]
    model = out["messages"][3]
    assert model["content"] == "Looking."
    assert [c["function"]["arguments"] for c in model["tool_calls"]] == ['{"city":"Zürich"}', "{}"]
    assert out["messages"][5]["content"] == [
        {"type": "text", "text": "rain"},
        {"type": "text", "text": "5°C"},
    ]
    assert out["messages"][-1] == {"role": "user", "content": "Thanks."}
    assert [(x.pointer, x.code, x.part_type) for x in result.losses] == [
        ("/tools/1", "field_dropped", None),
        ("/include", "field_dropped", None),
        ("/input/2/id", "field_dropped", None),
        ("/input/3/id", "field_dropped", "tool_call"),
        # its `status: completed` tells nothing (the mapping's block `defaults`)
    ]


_IMAGE_FILE = {"type": "input_image", "file_id": "file_1"}

# name: (body, the reason the pass gives for sending it the two-step way)
OUTSIDE: dict[str, tuple[dict[str, Any], str]] = {
    # The summary setting is the canonical reasoning_summary, which Chat cannot say: the
    # two-step way reports it.
    "a reasoning summary setting": (
        _responses(("reasoning",), {"effort": "low", "summary": "auto"}),
        "reasoning.summary: outside the fused shape",
    ),
    "reasoning with a paragraph of another shape": (
        _responses(
            ("input", 3), {**_REASONING, "summary": [{"type": "summary_text", "text": "a", "x": 1}]}
        ),
        "a reasoning item outside the fused shape",
    ),
    "reasoning with its encrypted content null": (
        _responses(("input", 3), {**_REASONING, "encrypted_content": None}),
        "a reasoning item outside the fused shape",
    ),
    "reasoning beside an empty text of the model": (
        _responses(("input",), [_USER, {**_SAID, "content": ""}, _REASONING, _SAID]),
        "reasoning beside an empty text",
    ),
    "an empty text of the model after its reasoning": (
        _responses(("input",), [_USER, _REASONING, {**_SAID, "content": ""}]),
        "assistant content outside the fused shape",
    ),
    "a text of the model after reasoning and calls": (
        _responses(("input",), [_USER, _REASONING, _CALL, _SAID]),
        "a message after its calls",
    ),
    "a hosted tool's item": (
        _responses(("input", 3), {"type": "web_search_call", "id": "ws_1", "status": "completed"}),
        "an item outside the fused shape",
    ),
    "a structured-output schema left null": (
        _responses(("text",), {"format": {"type": "json_schema", "name": "n", "schema": None}}),
        "text: a schema request outside the fused shape",
    ),
    "a structured-output tag the reader does not know": (
        _responses(("text",), {"format": {"type": "xml"}}),
        "text: outside the fused shape",
    ),
    "a file": (
        _responses(("input", 1, "content", 1), {"type": "input_file", "file_id": "file_1"}),
        "content outside the fused shape",
    ),
    "an image by file id": (
        _responses(("input", 1, "content", 1), _IMAGE_FILE),
        "content outside the fused shape",
    ),
    "an image type Chat does not take": (
        _responses(("input", 1, "content", 2, "image_url"), "data:image/bmp;base64,Qk0="),
        "content outside the fused shape",
    ),
    "an image in a developer message": (
        _responses(("input", 0, "content"), [RESPONSES_BODY["input"][1]["content"][1]]),
        "content outside the fused shape",
    ),
    "a part field the reader does not read (a cache breakpoint)": (
        _responses(("input", 1, "content", 0, "prompt_cache_breakpoint"), True),
        "content outside the fused shape",
    ),
    "citations on the model's text": (
        _responses(
            ("input", 2, "content", 0, "annotations"),
            [
                {
                    "type": "url_citation",
                    "url": "https://e.com",
                    "title": "t",
                    "start_index": 0,
                    "end_index": 1,
                }
            ],
        ),
        "assistant content outside the fused shape",
    ),
    "a refusal": (
        _responses(("input", 2, "content", 0), {"type": "refusal", "refusal": "No."}),
        "assistant content outside the fused shape",
    ),
    "a text after the model's calls (Chat keeps them apart: moved, reported)": (
        _responses(("input",), [_USER, _CALL, _SAID]),
        "a message after its calls",
    ),
    "a call id Chat would rewrite": (
        _responses(("input", 3, "call_id"), "c" * 41),
        "a function call outside the fused shape",
    ),
    "a tool name Chat would rewrite": (
        _responses(("input", 3, "name"), "get.weather"),
        "a function call outside the fused shape",
    ),
    "an image in a call's output": (
        _responses(("input", 5, "output"), [RESPONSES_BODY["input"][1]["content"][1]]),
        "a function call output outside the fused shape",
    ),
    "a blank output": (
        _responses(("input", 5, "output"), ""),
        "a function call output outside the fused shape",
    ),
    "a blank text": (_responses(("input", 8, "content"), " "), "content outside the fused shape"),
    "no model (written as a placeholder)": (_responses(("model",), _DELETE), "no model"),
    "an empty input": (_responses(("input",), []), "no input"),
    "a tool without parameters (strict decided from none)": (
        _responses(("tools", 0, "parameters"), _DELETE),
        "a tool schema outside the fused shape",
    ),
    "a tool_choice beside an empty tools list (the writer drops it, reported)": (
        _responses(("tools",), []),
        "a tool_choice beside an empty tools list",
    ),
    "a hosted tool_choice": (
        _responses(("tool_choice",), {"type": "allowed_tools", "mode": "auto", "tools": []}),
        "tool_choice: outside the fused shape",
    ),
}


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_a_responses_body_outside_the_shape_takes_the_two_step_path_and_says_why(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    takes_two_steps(*OUTSIDE[name], SOURCE, TARGET, caplog)


def _deep(levels: int) -> Any:
    node: Any = {"type": "object"}
    for _ in range(levels):
        node = {"items": node}
    return node


BAD: dict[str, Any] = {
    "lone surrogate in a text": _responses(("input", 8, "content", 0, "text"), "hi \ud800"),
    "lone surrogate in the instructions": _responses(("instructions",), "\udfff"),
    "lone surrogate in an image URL": _responses(
        ("input", 1, "content", 1, "image_url"), "https://e.com/\ud800.png"
    ),
    "lone surrogate in a call's arguments": _responses(
        ("input", 3, "arguments"), '{"city": "\ud800"}'
    ),
    "lone surrogate in an item id": _responses(("input", 3, "id"), "\ud800"),
    "lone surrogate in an unread field": _responses(("include",), ["\ud800"]),
    "arguments that are not JSON": _responses(("input", 3, "arguments"), "{city"),
    "arguments holding a list": _responses(("input", 3, "arguments"), "[1]"),
    "arguments naming a key twice": _responses(("input", 3, "arguments"), '{"a": 1, "a": 2}'),
    "NaN temperature": _responses(("temperature",), float("nan")),
    "an integer of too many digits": _responses(("max_output_tokens",), 10**5000),
    "a float max_output_tokens": _responses(("max_output_tokens",), 1.5),
    "a reasoning effort of the wrong type": _responses(("reasoning", "effort"), 3),
    "a reasoning summary of the wrong type": _responses(("reasoning", "summary"), 3),
    "include holding a number": _responses(("include",), ["x", 3]),
    "a stream flag of the wrong type": _responses(("stream",), "yes"),
    "an item id of the wrong type": _responses(("input", 3, "id"), 7),
    "a message status of the wrong type": _responses(("input", 2, "status"), 7),
    "an image URL that is no URL": _responses(("input", 1, "content", 1, "image_url"), "m.png"),
    "a role that is no role": _responses(("input", 8, "role"), "tool"),
    "a message without content": _responses(("input", 8, "content"), _DELETE),
    "a call without arguments": _responses(("input", 3, "arguments"), _DELETE),
    "an output without a call id": _responses(("input", 5, "call_id"), _DELETE),
    "a message tagged null": _responses(("input", 8, "type"), None),
    "a tool schema that is not an object": _responses(("tools", 0, "parameters"), [1]),
    "a tool schema nested past the limit": _responses(
        ("tools", 0, "parameters", "properties"), {"a": _deep(300)}
    ),
    "a strict flag of the wrong type": _responses(("tools", 0, "strict"), "yes"),
    "a tool_choice that is no choice": _responses(("tool_choice",), "sometimes"),
    "instructions of the wrong type": _responses(("instructions",), ["Be brief."]),
    "metadata of the wrong type": _responses(("metadata",), "m"),
    "a non-string key in an item": _responses(("input", 3, 7), "x"),
    "text of the wrong type": _responses(("text",), "json"),
    "a format of the wrong type": _responses(("text",), {"format": "json"}),
    "a schema request without a name": _responses(
        ("text",), {"format": {"type": "json_schema", "schema": {}}}
    ),
    "a schema request's strict flag of the wrong type": _responses(
        ("text",), {"format": {"type": "json_schema", "name": "n", "schema": {}, "strict": 1}}
    ),
    "a schema request's description of the wrong type": _responses(
        ("text",), {"format": {"type": "json_schema", "name": "n", "schema": {}, "description": 1}}
    ),
    "a verbosity of the wrong type": _responses(("text",), {"verbosity": 1}),
    "a format field of the wrong type": _responses(
        ("text",), {"format": {"type": "json_object", "zz": "\ud800"}}
    ),
}


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_responses_input_gets_the_two_step_paths_coded_error(name: str, validate: bool) -> None:
    refused_alike(BAD[name], SOURCE, TARGET, validate=validate)


def test_a_dropped_field_whose_schema_is_more_than_a_type_gets_the_schema_check() -> None:
    """`conversation` is a union in the reading schema: the pass reports it dropped, as the
    reader does, and leaves its check to the full schema check."""
    body = {**copy.deepcopy(RESPONSES_BODY), "conversation": "conv_1"}
    got = PAIR(copy.deepcopy(body))
    assert type(got) is tuple and not got[2]
    fused = convert(copy.deepcopy(body), SOURCE, TARGET)
    assert fused.fused and "/conversation" in [x.pointer for x in fused.losses]
    _same(fused, convert(copy.deepcopy(body), SOURCE, TARGET, fused=False))


def test_the_responses_pairs_losses_are_logged_and_refused_in_strict_mode_as_in_two_steps(
    caplog: pytest.LogCaptureFixture,
) -> None:
    body = SHAPES["only hosted tools beside a choice: the writer drops the choice"]
    lines = [logged_alike(body, SOURCE, TARGET, caplog)]
    assert lines[0][0].startswith(f"{SOURCE}: field_dropped at /tools/0")
    assert lines[0][-1].startswith(f"{TARGET}: field_dropped at /tool_choice")
    with pytest.raises(LossyConversionError) as fused_error:
        convert(body, SOURCE, TARGET, strict=True)
    with pytest.raises(LossyConversionError) as two_step:
        convert(body, SOURCE, TARGET, strict=True, fused=False)
    assert fused_error.value.losses == two_step.value.losses


def test_recorded_responses_requests_of_the_shape_take_the_fused_path() -> None:
    """A floor: of the real-traffic corpus's 57 Responses requests, those of the pass's shape
    (the rest offer a hosted tool (web search, the code interpreter), carry hosted-tool or
    tool-search items, files or images in a call's output, a
    cache breakpoint, a hosted tool_choice, a reasoning summary setting, a
    `previous_response_id`, which reads as the canonical `continues`, an MCP approval or
    apply_patch output item, or no model: a stored prompt's reference alone)."""
    requests = [body for _, body, fmt, kind in real_bodies() if fmt == SOURCE and kind == "request"]
    taken = [type(PAIR(copy.deepcopy(b))) is tuple for b in requests]
    assert len(requests) == 57
    assert sum(taken) >= 28


def test_the_benchmark_corpora_in_responses_format_take_the_fused_path() -> None:
    """The benchmark's corpora, converted to Responses by the two-step path: every body takes
    the pass."""
    corpus = bench_module("openai_corpus")
    for bodies in (corpus.corpus(200), corpus.long_corpus(20)):
        written = [convert(b, "openai-chat", SOURCE, fused=False).output for b in bodies]
        assert [PAIR(copy.deepcopy(b)) for b in written if type(PAIR(b)) is str] == []


def test_every_mutant_of_the_common_responses_body_converts_the_same_both_ways() -> None:
    """Each value of the common body swapped for values of every JSON type, each key deleted,
    a key added to each object: the same outcome, whichever path it takes."""
    # The mutants the pass took: the test has teeth.
    assert mutants_taken(RESPONSES_BODY, SOURCE, TARGET) > 300


def test_every_mutant_of_a_reasoning_models_body_converts_the_same_both_ways() -> None:
    """The same of a reasoning model's replayed turns: reasoning (a summary of two paragraphs,
    an id, encrypted content) before the model's text and call, reasoning alone at the end."""
    reasoning = {
        **_REASONING,
        "summary": [{"type": "summary_text", "text": "a"}, {"type": "summary_text", "text": "b"}],
    }
    body = _responses(("input",), [_USER, reasoning, _SAID, _CALL, _OUTPUT, _REASONING])
    assert mutants_taken(body, SOURCE, TARGET) > 300


def _random_items(rnd: random.Random) -> list[Any]:
    """A run of items in any order: messages of every role (text, images, blank text),
    calls (ids and names Chat would rewrite among them), outputs and reasoning (summaries of
    no, one or two paragraphs, with or without an id or encrypted content)."""
    texts = ["hi", "", " ", "Zürich", "a\nb"]
    items: list[Any] = []
    for _ in range(rnd.randint(1, 7)):
        kind = rnd.random()
        if kind < 0.45:
            role = rnd.choice(["user", "assistant", "developer", "system"])
            parts = [
                rnd.choice(
                    [
                        {"type": "input_text", "text": rnd.choice(texts)},
                        {"type": "output_text", "text": rnd.choice(texts), "annotations": []},
                        {"type": "input_image", "image_url": "https://e.com/a.png"},
                    ]
                )
                for _ in range(rnd.randint(1, 3))
            ]
            item: dict[str, Any] = {"role": role, "content": rnd.choice([rnd.choice(texts), parts])}
            if rnd.random() < 0.3:
                item |= {"type": "message", "id": "msg_1", "status": "completed"}
            items.append(item)
        elif kind < 0.6:
            reasoning: dict[str, Any] = {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": rnd.choice(texts)}]
                * rnd.randint(0, 2),
            }
            if rnd.random() < 0.5:
                reasoning |= {"id": "rs_1", "encrypted_content": "e"}
            items.append(reasoning)
        elif kind < 0.8:
            call_id = rnd.choice(["c1", "c2", "c" * 41])
            name = rnd.choice(["f", "f", "a.b"])
            arguments = rnd.choice(["{}", ' {"a": [1, 2.5]} ', "", "[1]"])
            items.append({**_CALL, "call_id": call_id, "name": name, "arguments": arguments})
        else:
            output = rnd.choice(["ok", "", [{"type": "input_text", "text": "r"}] * 2])
            items.append({**_OUTPUT, "call_id": rnd.choice(["c1", "c2"]), "output": output})
    return items


def test_items_in_any_order_are_grouped_into_the_messages_the_two_step_path_writes() -> None:
    """Seeded runs of items in any order (a message after calls, outputs before calls, blank
    texts, ids to rewrite): the same outcome, whichever path each body takes."""

    def two_step(payload: Any, source: str, target: str, kind: str) -> Any:
        return convert(payload, source, target, kind, fused=False)

    def fused(payload: Any, source: str, target: str, kind: str) -> Any:
        return convert(payload, source, target, kind)

    rnd = random.Random(16)
    taken = 0
    for n in range(400):
        body = {"model": "m", "input": _random_items(rnd)}
        expected = outcome(two_step, copy.deepcopy(body), SOURCE, TARGET, "request")
        assert outcome(fused, copy.deepcopy(body), SOURCE, TARGET, "request") == expected, n
        taken += type(PAIR(copy.deepcopy(body))) is tuple
    assert taken > 40
