"""The fused pair gemini → openai-chat (generator/pairs_from_contents.py): a source whose turns
are content objects (`{role, parts}`, the role optional), whose system prompt is a content too,
whose calls may come without ids (the pass gives each the id the two-step reader makes up, and
pairs each response with its call as that reader does: by id, else the earliest waiting call of
its name), whose results are one object, whose tools are grouped and whose parameters share
`generationConfig` with settings it has no canonical home for. The shapes it takes (with the
two-step answer), those it sends back (with its reason), and bad input (the two-step path's
coded error).

Equality over the corpora is `test_differential.py`'s (parametrised over the sources).
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
    deep,
    logged_alike,
    mutants_taken,
    refused_alike,
    same,
    takes_two_steps,
)
from tests.benchmarks.test_convert_bench import bench_module

SOURCE, TARGET = "gemini", "openai-chat"
PASS = PAIRS[SOURCE, TARGET]

# The common shape of a generateContent client's request: a system instruction, an image by
# bytes, the model's text then parallel calls without ids (a signature on the first), their
# responses (text, a structured value, a failure) before the user's next words, tools with a
# mode, the sampling parameters beside a setting the reader does not read (its loss), and a
# field it does not read either.
GEMINI_BODY: dict[str, Any] = {
    "systemInstruction": {"parts": [{"text": "Be brief."}, {"text": "In English."}]},
    "generationConfig": {
        "maxOutputTokens": 512,
        "temperature": 0.2,
        "topP": 0.9,
        "stopSequences": ["END"],
        # (Text alone, the default, would be no loss: the image is what reading leaves.)
        "responseModalities": ["TEXT", "IMAGE"],
    },
    "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}],
    "tools": [
        {
            "functionDeclarations": [
                {
                    "name": "weather",
                    "description": "The weather in a city.",
                    "parametersJsonSchema": {
                        "type": "object",
                        "properties": {"city": {"type": "string"}},
                        "required": ["city"],
                    },
                }
            ]
        }
    ],
    "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
    "contents": [
        {
            "role": "user",
            "parts": [
                {"text": "Weather in Zürich, Bern and Basel?"},
                {"inlineData": {"mimeType": "image/png", "data": "iVBORw0K"}},
            ],
        },
        {
            "role": "model",
            "parts": [
                {"text": "Looking."},
                {
                    "functionCall": {"name": "weather", "args": {"city": "Zürich"}},
                    "thoughtSignature": "c2ln",
                },
                {"functionCall": {"name": "weather", "args": {"city": "Bern"}}},
                {"functionCall": {"id": "b3", "name": "weather", "args": {"city": "Basel"}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "weather", "response": {"output": "sunny"}}},
                {"functionResponse": {"name": "weather", "response": {"sky": "rain", "c": 5}}},
                {
                    "functionResponse": {
                        "id": "b3",
                        "name": "weather",
                        "response": {"error": "down"},
                    }
                },
                {"text": "Thanks."},
            ],
        },
        {"role": "model", "parts": [{"text": "You're welcome."}]},
        {"parts": [{"text": "Bye."}]},
    ],
}


def _gemini(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """GEMINI_BODY with the value at ``path`` replaced (``DELETE``: removed)."""
    return changed(GEMINI_BODY, path, value)


_TEXT = {"text": "x"}
_CALL = {"functionCall": {"name": "weather", "args": {}}}
_RESPONSE = {"functionResponse": {"name": "weather", "response": {"output": "r"}}}
_ASKS = [{"role": "user", "parts": [_TEXT]}, {"role": "model", "parts": [_CALL]}]
_DECLARATIONS = GEMINI_BODY["tools"][0]["functionDeclarations"]


def _response(**fields: Any) -> dict[str, Any]:
    return {"functionResponse": {**_RESPONSE["functionResponse"], **fields}}


def _call(**fields: Any) -> dict[str, Any]:
    return {"functionCall": {**_CALL["functionCall"], **fields}}


def _turns(*turns: dict[str, Any]) -> dict[str, Any]:
    return _gemini(("contents",), list(turns))


GEMINI_SHAPES: dict[str, dict[str, Any]] = {
    "the common shape": GEMINI_BODY,
    "one system part: the shorthand": _gemini(("systemInstruction", "parts"), [_TEXT]),
    "a system instruction with a role (which the API ignores)": _gemini(
        ("systemInstruction", "role"), "system"
    ),
    "no system instruction": _gemini(("systemInstruction",), DELETE),
    "no generation config": _gemini(("generationConfig",), DELETE),
    "an empty generation config": _gemini(("generationConfig",), {}),
    "parameters left null, a setting left empty": _gemini(
        ("generationConfig",), {"temperature": None, "responseModalities": []}
    ),
    "every parameter (top_k reported dropped)": _gemini(
        ("generationConfig",),
        {
            "maxOutputTokens": 5,
            "temperature": 1,
            "topP": 0.5,
            "topK": 3,
            "stopSequences": ["a", "b"],
            "seed": 7,
            "presencePenalty": 0.1,
            "frequencyPenalty": -0.1,
        },
    ),
    "settings without a canonical home": _gemini(
        ("generationConfig",), {"candidateCount": 1, "responseLogprobs": True, "logprobs": 2}
    ),
    "a JSON schema for the answer": _gemini(
        ("generationConfig",),
        {"responseMimeType": "application/json", "responseJsonSchema": {"type": "object"}},
    ),
    "a JSON answer": _gemini(("generationConfig",), {"responseMimeType": "application/json"}),
    "a text answer": _gemini(("generationConfig",), {"responseMimeType": "text/plain"}),
    "no tools": _gemini(("tools",), DELETE)
    | {"toolConfig": {"functionCallingConfig": {"mode": "NONE"}}},
    "tools without a config": _gemini(("toolConfig",), DELETE),
    "a required call": _gemini(("toolConfig", "functionCallingConfig"), {"mode": "ANY"}),
    "a named tool": _gemini(
        ("toolConfig", "functionCallingConfig"),
        {"mode": "ANY", "allowedFunctionNames": ["weather"]},
    ),
    "several allowed functions: required, the list reported": _gemini(
        ("toolConfig", "functionCallingConfig"),
        {"mode": "ANY", "allowedFunctionNames": ["weather", "other"]},
    ),
    "a tool without description, one with an empty one": _gemini(
        ("tools", 0, "functionDeclarations"),
        [
            {"name": "a", "parametersJsonSchema": {"type": "object"}},
            {"name": "b", "description": "", "parametersJsonSchema": {"type": "object"}},
        ],
    ),
    "fields the reader leaves behind": _gemini(("safetySettings",), [])
    | {"cachedContent": "cachedContents/abc"},
    "turns without roles are the user's": _turns({"parts": [_TEXT]}, {"parts": [_TEXT]}),
    "a model turn first": _turns({"role": "model", "parts": [_TEXT]}, {"parts": [_TEXT]}),
    "a call alone, with an id; its response by id": _turns(
        _ASKS[0],
        {"role": "model", "parts": [_call(id="c1")]},
        {"role": "user", "parts": [_response(id="c1")]},
    ),
    "a response whose id answers no call: paired by name": _turns(
        *_ASKS, {"role": "user", "parts": [_response(id="zz")]}
    ),
    "responses in another order than their calls": _turns(
        _ASKS[0],
        {"role": "model", "parts": [_call(name="a"), _call(name="b")]},
        {"role": "user", "parts": [_response(name="b"), _response(name="a")]},
    ),
    "a call answered turns later": _turns(
        *_ASKS,
        {"role": "user", "parts": [_TEXT]},
        {"role": "model", "parts": [_TEXT]},
        {"role": "user", "parts": [_response()]},
    ),
    "a call never answered": _turns(*_ASKS),
    "calls of two turns: ids by the turn's place": _turns(
        *_ASKS,
        {"role": "user", "parts": [_response()]},
        {"role": "model", "parts": [_call(), _call()]},
        {"role": "user", "parts": [_response(), _response()]},
    ),
    "every response object": _turns(
        _ASKS[0],
        {"role": "model", "parts": [_call()] * 7},
        {
            "role": "user",
            "parts": [
                _response(response={}),
                _response(response={"output": ""}),
                _response(response={"result": "r"}),
                _response(response={"error": "e"}),
                _response(response={"error": ""}),
                _response(response={"error": {"why": 1}}),
                _response(response={"output": 1}),
            ],
        },
    ),
    "text before, between and after responses, in order": _turns(
        _ASKS[0],
        {"role": "model", "parts": [_call(), _call()]},
        {"role": "user", "parts": [_TEXT, _response(), {"text": "y"}, _response(), _TEXT]},
    ),
    "signatures on texts and calls": _turns(
        _ASKS[0],
        {
            "role": "model",
            "parts": [
                {"text": "a", "thoughtSignature": "c2ln"},
                {"text": "b", "thoughtSignature": ""},
                {**_call(), "thoughtSignature": "c2ln"},
                _call(),
            ],
        },
    ),
    "every image type": _gemini(
        ("contents", 0, "parts"),
        [
            {"inlineData": {"mimeType": kind, "data": "AAAA"}}
            for kind in ("image/png", "image/jpeg", "image/gif", "image/webp")
        ],
    ),
    "an image first, then text": _gemini(
        ("contents", 0, "parts"), list(reversed(GEMINI_BODY["contents"][0]["parts"]))
    ),
    "an id OpenAI takes as it is": _turns(
        _ASKS[0], {"role": "model", "parts": [_call(id="a.b:c")]}
    ),
    # Gemini's OpenAPI subset, read as JSON Schema (type names lowered, `nullable` a null type)
    # as the two-step reader reads it: the form most recorded declarations use.
    "an OpenAPI-subset schema": _gemini(
        ("tools", 0, "functionDeclarations", 0),
        {
            "name": "weather",
            "description": "The weather",
            "parameters": {
                "type": "OBJECT",
                "properties": {
                    "city": {"type": "STRING", "nullable": True},
                    "days": {"type": "ARRAY", "items": {"type": "INTEGER"}},
                },
                "required": ["city"],
            },
        },
    ),
}


@pytest.mark.parametrize("name", sorted(GEMINI_SHAPES))
def test_gemini_bodies_of_the_shape_take_one_pass_with_the_two_step_answer(name: str) -> None:
    body = GEMINI_SHAPES[name]
    assert type(PASS(copy.deepcopy(body))) is tuple
    fused = convert(copy.deepcopy(body), SOURCE, TARGET)
    two_step = convert(copy.deepcopy(body), SOURCE, TARGET, fused=False)
    assert fused.fused and not two_step.fused
    same(fused, two_step)
    check_wire(fused.output, TARGET, "request", strict=True)


def test_the_gemini_pass_writes_what_openai_chat_keeps_apart_in_order() -> None:
    """What the pair does, spelled out once: the placeholder model, the system instruction
    first, the image as a data URL, the model's text and calls in one message (the ids the
    two-step reader makes up for calls without one), each response a tool message answering
    its call before the user's next words (a structured value as its JSON text), losses read
    then written (the settings left behind, top_k, the model, each part's in order)."""
    result = convert(copy.deepcopy(GEMINI_BODY), SOURCE, TARGET)
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
    assert (out["model"], out["tool_choice"], out["stop"]) == ("unknown", "auto", ["END"])
    roles = [m["role"] for m in out["messages"]]
    assert roles == [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "tool",
        "user",
        "assistant",
        "user",
    ]
    assert out["messages"][1]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,iVBORw0K"},
    }
    calls = out["messages"][2]["tool_calls"]
    assert [c["id"] for c in calls] == ["gemini_call_1_0", "gemini_call_1_1", "b3"]
    assert [m.get("tool_call_id") for m in out["messages"][3:6]] == [c["id"] for c in calls]
    assert [m["content"] for m in out["messages"][3:6]] == ["sunny", '{"sky":"rain","c":5}', "down"]
    assert [(x.pointer, x.code, x.part_type) for x in result.losses] == [
        ("/generationConfig/responseModalities", "field_dropped", None),
        ("/safetySettings", "field_dropped", None),
        ("/model", "placeholder_inserted", None),
        ("/messages/2/content/1", "thinking_not_replayable", "thinking"),
        ("/messages/4/content/0/structured_content", "converted_to_text", "tool_result"),
        ("/messages/5/content/0/is_error", "field_dropped", "tool_result"),
    ]


# name: (body, the reason the pass gives for sending it the two-step way)
GEMINI_OUTSIDE: dict[str, tuple[dict[str, Any], str]] = {
    "a thought": (
        _gemini(("contents", 1, "parts", 0), {"text": "Hm.", "thought": True}),
        "model parts outside the fused shape",
    ),
    "a signature on a user's text": (
        _gemini(("contents", 4, "parts", 0), {"text": "Bye.", "thoughtSignature": "c2ln"}),
        "user parts outside the fused shape",
    ),
    "a signature alone, on an empty text (the message is dropped)": (
        _turns(_ASKS[0], {"role": "model", "parts": [{"text": "", "thoughtSignature": "c2ln"}]}),
        "model parts outside the fused shape",
    ),
    "text after a call (OpenAI keeps it apart: moved, reported)": (
        _turns(_ASKS[0], {"role": "model", "parts": [_CALL, _TEXT]}),
        "model parts outside the fused shape",
    ),
    "an image by URI": (
        _gemini(
            ("contents", 0, "parts", 1),
            {"fileData": {"mimeType": "image/png", "fileUri": "https://x/y.png"}},
        ),
        "user parts outside the fused shape",
    ),
    "a document": (
        _gemini(("contents", 0, "parts", 1, "inlineData", "mimeType"), "application/pdf"),
        "user parts outside the fused shape",
    ),
    "image data in the URL-safe alphabet (read in the standard one)": (
        _gemini(("contents", 0, "parts", 1, "inlineData", "data"), "ab-_"),
        "user parts outside the fused shape",
    ),
    "blank user text (read as it is)": (
        _gemini(("contents", 4, "parts", 0, "text"), ""),
        "user parts outside the fused shape",
    ),
    "a response by id under another name (kept on the result)": (
        _turns(
            _ASKS[0],
            {"role": "model", "parts": [_call(id="c1")]},
            {"role": "user", "parts": [_response(id="c1", name="other")]},
        ),
        "user parts outside the fused shape",
    ),
    "a response with media": (
        _turns(*_ASKS, {"role": "user", "parts": [_response(parts=[])]}),
        "user parts outside the fused shape",
    ),
    "an id OpenAI would rewrite": (
        _turns(_ASKS[0], {"role": "model", "parts": [_call(id="t" * 41)]}),
        "model parts outside the fused shape",
    ),
    "a call's null id": (
        _turns(_ASKS[0], {"role": "model", "parts": [_call(id=None)]}),
        "model parts outside the fused shape",
    ),
    "a name OpenAI would rewrite": (
        _turns(_ASKS[0], {"role": "model", "parts": [_call(name="a.b")]}),
        "model parts outside the fused shape",
    ),
    "code execution": (
        _gemini(("tools",), [{"codeExecution": {}}]),
        "tools: a group outside the fused shape",
    ),
    "a built-in tool beside the functions": (
        _gemini(("tools",), [*GEMINI_BODY["tools"], {"googleSearch": {}}]),
        "tools: not one group",
    ),
    "an OpenAPI-subset schema of a string": (
        _gemini(
            ("tools", 0, "functionDeclarations", 0), {"name": "w", "parameters": {"type": "STRING"}}
        ),
        "a tool schema outside the fused shape",
    ),
    "a function without parameters": (
        _gemini(("tools", 0, "functionDeclarations", 0), {"name": "w"}),
        "a tool schema outside the fused shape",
    ),
    "thinking settings": (
        _gemini(("generationConfig", "thinkingConfig"), {"thinkingBudget": 128}),
        "'thinkingConfig': outside the fused shape",
    ),
    "an OpenAPI-subset answer schema": (
        _gemini(
            ("generationConfig",),
            {"responseMimeType": "application/json", "responseSchema": {"type": "OBJECT"}},
        ),
        "'responseSchema': outside the fused shape",
    ),
    "an answer schema without its type (the reader reads no format)": (
        _gemini(("generationConfig",), {"responseJsonSchema": {"type": "object"}}),
        "generationConfig: a format outside the fused shape",
    ),
    "an enum answer (the reader reads no format)": (
        _gemini(("generationConfig",), {"responseMimeType": "text/x.enum"}),
        "generationConfig: a format outside the fused shape",
    ),
    "a mode the reader does not know": (
        _gemini(("toolConfig", "functionCallingConfig", "mode"), "VALIDATED"),
        "tool_choice: a mode outside the fused shape",
    ),
    "allowed functions beside AUTO": (
        _gemini(("toolConfig", "functionCallingConfig", "allowedFunctionNames"), ["weather"]),
        "tool_choice: outside the fused shape",
    ),
    "a retrieval config": (
        _gemini(("toolConfig", "retrievalConfig"), {}),
        "toolConfig: outside the fused shape",
    ),
}


@pytest.mark.parametrize("name", sorted(GEMINI_OUTSIDE))
def test_a_gemini_body_outside_the_shape_takes_the_two_step_path_and_says_why(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    takes_two_steps(*GEMINI_OUTSIDE[name], SOURCE, TARGET, caplog)


GEMINI_BAD: dict[str, Any] = {
    "lone surrogate in a text": _gemini(("contents", 4, "parts", 0, "text"), "hi \ud800"),
    "lone surrogate in the system instruction": _gemini(
        ("systemInstruction", "parts", 0, "text"), "\udfff"
    ),
    "lone surrogate in a call's arguments": _gemini(
        ("contents", 1, "parts", 1, "functionCall", "args"), {"city": "\ud800"}
    ),
    "lone surrogate in a structured response": _gemini(
        ("contents", 2, "parts", 1, "functionResponse", "response"), {"k": "\ud800"}
    ),
    "lone surrogate in an unread field": _gemini(("cachedContent",), "\ud800"),
    "lone surrogate in an unread setting": _gemini(
        ("generationConfig", "responseModalities"), ["\ud800"]
    ),
    "NaN temperature": _gemini(("generationConfig", "temperature"), float("nan")),
    "an integer of too many digits": _gemini(("generationConfig", "maxOutputTokens"), 10**5000),
    "a float maxOutputTokens": _gemini(("generationConfig", "maxOutputTokens"), 1.5),
    "stop sequences holding a number": _gemini(("generationConfig", "stopSequences"), ["a", 3]),
    "a generation config that is a list": _gemini(("generationConfig",), [1]),
    "an unread setting of the wrong type": _gemini(("generationConfig", "candidateCount"), "1"),
    "unread modalities of the wrong type (the full schema check)": _gemini(
        ("generationConfig", "responseModalities"), [1]
    ),
    "image data that is not base64": _gemini(
        ("contents", 0, "parts", 1, "inlineData", "data"), "not base64!"
    ),
    "a signature that is not base64": _gemini(
        ("contents", 1, "parts", 1, "thoughtSignature"), "not base64!"
    ),
    "a call's arguments that are not an object": _gemini(
        ("contents", 1, "parts", 1, "functionCall", "args"), [1]
    ),
    "a response that is not an object": _gemini(
        ("contents", 2, "parts", 0, "functionResponse", "response"), "sunny"
    ),
    "a tool schema nested past the limit": _gemini(
        ("tools", 0, "functionDeclarations", 0, "parametersJsonSchema", "properties"),
        {"a": deep(300)},
    ),
    "a tool name that is not a string": _gemini(("tools", 0, "functionDeclarations", 0, "name"), 7),
    "a mode that is not a string": _gemini(("toolConfig", "functionCallingConfig", "mode"), 1),
    "allowed names holding a number": _gemini(
        ("toolConfig", "functionCallingConfig"), {"mode": "ANY", "allowedFunctionNames": ["a", 1]}
    ),
    "tools that are a string": _gemini(("tools",), "get_weather"),
    "a system instruction as a string": _gemini(("systemInstruction",), "Be brief."),
    "a role that is no role": _gemini(("contents", 4, "role"), "system"),
    "a part of two kinds": _gemini(("contents", 4, "parts", 0), {"text": "a", "inlineData": {}}),
    "a non-string key in a part": _gemini(("contents", 4, "parts", 0), {7: "x"}),
    "no contents": _gemini(("contents",), DELETE),
    "a response no call waits for (orphan_result)": _turns(
        _ASKS[0], {"role": "user", "parts": [_RESPONSE]}
    ),
    "a turn without parts": _gemini(("contents", 4), {"role": "user"}),
    "a tool schema in both forms": _gemini(
        ("tools", 0, "functionDeclarations", 0),
        {"name": "w", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {"type": "object"}},
    ),
    "an OpenAPI-form tool schema that is not an object": _gemini(
        ("tools", 0, "functionDeclarations", 0), {"name": "w", "parameters": ["x"]}
    ),
    # Found by fuzzing: strings the pass reads past, which the two-step reader checks.
    "a lone surrogate in the system instruction's role": _gemini(
        ("systemInstruction", "role"), "a\udfffb"
    ),
    "a lone surrogate in a response's id": _gemini(
        ("contents", 2, "parts", 0, "functionResponse", "id"), "\ud800"
    ),
}


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("name", sorted(GEMINI_BAD))
def test_bad_gemini_input_gets_the_two_step_paths_coded_error(name: str, validate: bool) -> None:
    refused_alike(GEMINI_BAD[name], SOURCE, TARGET, validate=validate)


def test_the_gemini_pairs_losses_are_logged_and_refused_in_strict_mode_as_in_two_steps(
    caplog: pytest.LogCaptureFixture,
) -> None:
    lines = [logged_alike(GEMINI_BODY, SOURCE, TARGET, caplog)]
    assert lines[0][0].startswith(
        f"{SOURCE}: field_dropped at /generationConfig/responseModalities"
    )
    assert lines[0][2].startswith(f"{TARGET}: placeholder_inserted at /model")
    with pytest.raises(LossyConversionError) as fused_error:
        convert(GEMINI_BODY, SOURCE, TARGET, strict=True)
    with pytest.raises(LossyConversionError) as two_step:
        convert(GEMINI_BODY, SOURCE, TARGET, strict=True, fused=False)
    assert fused_error.value.losses == two_step.value.losses


def test_recorded_gemini_requests_of_the_shape_take_the_fused_path() -> None:
    """A floor: of the real-traffic corpus's 66 Gemini requests, those of the pass's shape,
    in either spelling, tool schemas in either form (the rest carry built-in tools, code
    execution, video by URI, media in function responses, a VALIDATED mode; llm's carry
    thinking settings, an OpenAPI-form responseSchema or a declaration's `description: null`).
    8 before the snake_case spelling was read, 22 before the OpenAPI form (`parameters`)."""
    requests = [body for _, body, fmt, kind in real_bodies() if fmt == SOURCE and kind == "request"]
    taken = [type(PASS(copy.deepcopy(b))) is tuple for b in requests]
    assert len(requests) == 66
    assert sum(taken) >= 31


def test_the_benchmark_corpora_in_geminis_format_take_the_fused_path() -> None:
    """The benchmark's corpora, converted to Gemini by the two-step path: every body takes
    the pass."""
    corpus = bench_module("openai_corpus")
    for bodies in (corpus.corpus(200), corpus.long_corpus(20)):
        written = [convert(b, "openai-chat", SOURCE, fused=False).output for b in bodies]
        assert all(type(PASS(copy.deepcopy(b))) is tuple for b in written)


def test_every_mutant_of_the_common_gemini_body_converts_the_same_both_ways() -> None:
    """Each value of the common body swapped for values of every JSON type, each key deleted,
    a key added to each object: the same outcome, whichever path it takes."""
    # The mutants the pass took: the test has teeth.
    assert mutants_taken(GEMINI_BODY, SOURCE, TARGET) > 200


def _random_body(rng: random.Random) -> dict[str, Any]:
    """A body of the pass's shape, drawn: turns of either role (or none), texts, images,
    signatures, calls with and without ids (some named alike), their responses in any order,
    by id or by name, some a turn or more later, some never."""
    names = ["a", "b", "c"]
    contents: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    for turn in range(rng.randint(1, 7)):
        if rng.random() < 0.5:
            parts: list[dict[str, Any]] = [{"text": f"t{turn}"}] * rng.randint(0, 2)
            for n in range(rng.randint(1 - len(parts) if not parts else 0, 3)):
                call: dict[str, Any] = {"name": rng.choice(names)}
                if rng.random() < 0.4:
                    call["id"] = f"id{turn}_{n}"
                if rng.random() < 0.7:
                    call["args"] = {"n": n}
                part: dict[str, Any] = {"functionCall": call}
                if rng.random() < 0.3:
                    part["thoughtSignature"] = "c2ln"
                parts.append(part)
                waiting.append(call)
            if parts and rng.random() < 0.3 and "text" in parts[0]:
                parts[0] = {**parts[0], "thoughtSignature": "c2ln"}
            contents.append({"role": "model", "parts": parts})
        else:
            parts = []
            rng.shuffle(waiting)
            while waiting and rng.random() < 0.8:
                call = waiting.pop()
                response: dict[str, Any] = {
                    "name": call["name"],
                    "response": rng.choice([{"output": "o"}, {"k": 1}, {"error": "e"}, {}]),
                }
                if "id" in call and rng.random() < 0.7:
                    response["id"] = call["id"]
                parts.append({"functionResponse": response})
            for _ in range(rng.randint(0 if parts else 1, 2)):
                parts.insert(
                    rng.randint(0, len(parts)),
                    rng.choice(
                        [{"text": "u"}, {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}]
                    ),
                )
            turn_of: dict[str, Any] = {"parts": parts}
            if rng.random() < 0.7:
                turn_of["role"] = "user"
            contents.append(turn_of)
    return {"contents": contents, "tools": GEMINI_BODY["tools"]}


def test_drawn_bodies_of_the_shape_convert_the_same_both_ways() -> None:
    """Seeded: calls and responses in every order the shape allows (ids made up, pairing by
    id and by name, across turns): the pass takes every one, with the two-step answer."""
    rng = random.Random(16)

    def two_step(payload: Any, source: str, target: str, kind: str) -> Any:
        return convert(payload, source, target, kind, fused=False)

    taken = 0
    for _ in range(400):
        body = _random_body(rng)
        expected = outcome(two_step, copy.deepcopy(body), SOURCE, TARGET, "request")
        assert outcome(convert, copy.deepcopy(body), SOURCE, TARGET, "request") == expected, body
        taken += type(PASS(copy.deepcopy(body))) is tuple
    assert taken == 400


def test_the_pass_vouches_for_what_it_checked_and_leaves_the_rest_to_the_schema() -> None:
    """`responseModalities`, a list of strings the reader drops, is checked by the pass (no
    full schema check); `safetySettings`, whose items are objects, leaves it to the schema."""
    without = _gemini(("safetySettings",), DELETE)
    got = PASS(copy.deepcopy(without))
    assert type(got) is tuple and got[2] is True
    got = PASS(copy.deepcopy(GEMINI_BODY))
    assert type(got) is tuple and got[2] is False
    bad = _gemini(("generationConfig", "responseModalities"), ["TEXT", None])
    assert PASS(copy.deepcopy(bad)) == "responseModalities: an item the reading schema refuses"
