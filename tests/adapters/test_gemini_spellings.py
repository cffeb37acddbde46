"""Gemini's other spelling: each field by its proto name (`inline_data`) as well as by its
camelCase JSON name (`inlineData`), read alike (the mapping's `spellings`, generator/spellings.py,
adapters/spellings.py).

A body spelt either way reads as the same canonical document; pointers name the fields as the
body spelt them; one field under both spellings is refused; writing is camelCase; the round
trip to Gemini gives the body back as it came; the fused gemini → openai-chat pass gives the
two-step answer for every spelling.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.adapters.spellings import as_given
from interlingua.conversion.converter import convert
from interlingua.generated.adapters.gemini import spell_GenerateContentRequest
from tests.adapters.differential import real_bodies
from tests.adapters.fused import same
from tests.adapters.test_fused_pairs_gemini import GEMINI_BODY

# Where a body holds the caller's data, not the schema's fields: never respelt.
_FREE = frozenset({"args", "response", "parametersJsonSchema", "responseJsonSchema"})


def _snake(key: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in key)


def _camel_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every camelCase key the schema names (outside the caller's data)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if _snake(key) != key:
                yield (*path, key)
            if key not in _FREE:
                yield from _camel_paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _camel_paths(item, (*path, i))


def _respelt_at(body: Any, path: tuple[Any, ...]) -> Any:
    """``body`` with the key at ``path`` in its snake_case spelling, in its place."""
    out = copy.deepcopy(body)
    node = out
    for step in path[:-1]:
        node = node[step]
    items = list(node.items())
    node.clear()
    node.update({(_snake(k) if k == path[-1] else k): v for k, v in items})
    return out


def _all_snake(value: Any, free: bool = False) -> Any:
    if isinstance(value, dict):
        return {
            (k if free else _snake(k)): _all_snake(v, free or k in _FREE) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_all_snake(v, free) for v in value]
    return value


# The fields the recorded requests give in snake_case (and the reader read as unknown before).
_SPELT = frozenset(
    {
        "parameters_json_schema",
        "function_call",
        "function_response",
        "function_declarations",
        "inline_data",
        "file_data",
        "mime_type",
        "file_uri",
        "thought_signature",
    }
)
PATHS = list(_camel_paths(GEMINI_BODY))


def test_the_common_body_has_keys_to_respell() -> None:
    assert len(PATHS) > 15


@pytest.mark.parametrize("path", PATHS, ids=lambda p: "/".join(map(str, p)))
def test_one_field_in_its_other_spelling_reads_as_the_camel_case_one(path: tuple[Any, ...]) -> None:
    body = _respelt_at(GEMINI_BODY, path)
    camel = convert(copy.deepcopy(GEMINI_BODY), "gemini", "canonical").output
    snake = convert(copy.deepcopy(body), "gemini", "canonical").output
    assert without_raw(snake) == without_raw(camel)
    # Exact in what we write: camelCase; the round trip gives the body back as it came.
    assert convert(copy.deepcopy(body), "gemini", "gemini").output == body
    written = convert(without_raw(snake), "canonical", "gemini").output
    assert written == convert(without_raw(camel), "canonical", "gemini").output
    assert convert(snake, "canonical", "gemini").output == body


@pytest.mark.parametrize("path", PATHS, ids=lambda p: "/".join(map(str, p)))
def test_the_fused_pass_gives_the_two_step_answer_for_either_spelling(
    path: tuple[Any, ...],
) -> None:
    body = _respelt_at(GEMINI_BODY, path)
    fused = convert(copy.deepcopy(body), "gemini", "openai-chat")
    two_step = convert(copy.deepcopy(body), "gemini", "openai-chat", fused=False)
    same(fused, two_step)
    # Read, not reported: the losses are the camelCase body's, each pointer as it was spelt.
    camel = convert(copy.deepcopy(GEMINI_BODY), "gemini", "openai-chat").losses
    assert [loss.code for loss in two_step.losses] == [loss.code for loss in camel]
    assert {loss.pointer for loss in two_step.losses} - {loss.pointer for loss in camel} <= {
        as_given(body, loss.pointer, GEMINI_BODY) for loss in camel
    }


def test_the_fused_pass_takes_a_body_in_snake_case_with_the_two_step_answer() -> None:
    body = _all_snake(GEMINI_BODY)
    del body["safety_settings"], body["generation_config"]["response_modalities"]
    fused = convert(copy.deepcopy(body), "gemini", "openai-chat")
    assert fused.fused
    same(fused, convert(copy.deepcopy(body), "gemini", "openai-chat", fused=False))
    camel = convert(copy.deepcopy(GEMINI_BODY), "gemini", "openai-chat").output
    assert fused.output["messages"] == camel["messages"]
    assert fused.output["tools"] == camel["tools"]


def test_a_body_all_in_snake_case_reads_as_the_camel_case_one_and_comes_back() -> None:
    body = _all_snake(GEMINI_BODY)
    assert "system_instruction" in body and "inline_data" in body["contents"][0]["parts"][1]
    snake = convert(copy.deepcopy(body), "gemini", "canonical").output
    camel = convert(copy.deepcopy(GEMINI_BODY), "gemini", "canonical").output
    assert without_raw(snake) == without_raw(camel)
    assert convert(snake, "canonical", "gemini").output == body
    # To another format: losses point into the body as it was spelt.
    result = convert(copy.deepcopy(body), "gemini", "openai-chat")
    # An unread setting whose schema is more than a type (the modalities' enum) leaves a
    # check to the schema, which the fused pass does not run on a respelt body: two steps.
    assert not result.fused
    assert [loss.pointer for loss in result.losses][:2] == [
        "/generation_config/response_modalities",
        "/safety_settings",
    ]
    same(result, convert(copy.deepcopy(body), "gemini", "openai-chat", fused=False))


def test_a_field_under_both_spellings_is_refused_at_the_other_spelling() -> None:
    body = copy.deepcopy(GEMINI_BODY)
    body["contents"][0]["parts"][1]["inline_data"] = {"mime_type": "image/png", "data": "AAAA"}
    for fused in (True, False):
        with pytest.raises(ConversionError) as error:
            convert(copy.deepcopy(body), "gemini", "openai-chat", fused=fused)
        assert (error.value.code, error.value.pointer) == (
            "duplicate_key",
            "/contents/0/parts/1/inline_data",
        )
    top = {**GEMINI_BODY, "system_instruction": GEMINI_BODY["systemInstruction"]}
    with pytest.raises(ConversionError) as error:
        convert(top, "gemini", "canonical")
    assert (error.value.code, error.value.pointer) == ("duplicate_key", "/system_instruction")


def test_errors_point_into_the_body_as_it_was_spelt() -> None:
    body = _all_snake(GEMINI_BODY)
    body["contents"][0]["parts"][1]["inline_data"]["data"] = "not base64!"
    with pytest.raises(ConversionError) as error:
        convert(body, "gemini", "canonical")
    assert error.value.pointer == "/contents/0/parts/1/inline_data/data"


def test_the_caller_s_data_is_never_respelt() -> None:
    body = copy.deepcopy(GEMINI_BODY)
    body["contents"][1]["parts"][1]["functionCall"]["args"] = {"city_name": "Bern"}
    schema = body["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"]
    schema["properties"] = {"city_name": {"type": "string"}}
    schema["required"] = ["city_name"]
    given: dict[int, Any] = {}
    assert spell_GenerateContentRequest(body, "", given) is body
    assert not given
    document = convert(body, "gemini", "canonical").output
    calls = [p for m in document["messages"] for p in m["content"] if p["type"] == "tool_call"]
    assert calls[0]["arguments"] == {"city_name": "Bern"}


def test_a_pointer_through_a_respelt_object_names_the_original_keys() -> None:
    body = {"a_b": [{"c_d": {"e": 1}}], "f": 2}
    spelt = {"aB": [{"cD": {"e": 1}}], "f": 2}
    assert as_given(body, "/aB/0/cD/e", spelt) == "/a_b/0/c_d/e"
    assert as_given(body, "/aB/0/missing", spelt) == "/a_b/0/missing"
    assert as_given(body, "/f", spelt) == "/f"
    assert as_given(body, "", spelt) == ""


def test_recorded_requests_in_snake_case_read_their_fields() -> None:
    """The real-traffic corpus: no field of a schema-modelled object is reported unread for
    its spelling (google-genai's `parameters_json_schema`, `function_call`, `inline_data` …)."""
    spelt = 0
    for _, body, fmt, kind in real_bodies():
        if fmt != "gemini" or kind != "request":
            continue
        given: dict[int, Any] = {}
        if spell_GenerateContentRequest(body, "", given) is body:
            continue
        spelt += 1
        try:
            result = convert(copy.deepcopy(body), "gemini", "openai-chat")
        except ConversionError:
            continue  # refused for another reason (tools given as one object, not a list)
        unread = [
            loss.pointer
            for loss in result.losses
            if loss.code in ("field_dropped", "part_dropped")
            and loss.pointer.rsplit("/", 1)[-1] in _SPELT
        ]
        assert unread == []
    assert spelt >= 17
