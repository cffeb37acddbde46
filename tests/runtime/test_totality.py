"""The public functions on Python objects no reader would produce: each gives a result or a
coded error, never RecursionError, UnicodeEncodeError, TypeError or another traceback."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua import (
    ConversionError,
    DocumentError,
    convert,
    detect,
    load,
    tool_exchanges,
    validate,
)


def _nested(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


def _body(value: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": "hi"}], "metadata": {"k": value}}


CANONICAL: dict[str, Any] = {
    "schema_version": 1,
    "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
}

HOSTILE: list[tuple[Any, str]] = [
    (_body(_nested(1_000)), "nesting_too_deep"),
    (_body(_nested(100_000)), "nesting_too_deep"),
    (_body("\ud800"), "invalid_unicode"),
    (_body(float("inf")), "non_finite_number"),
    (_body(10**5_000), "number_out_of_range"),
    (_body({1, 2}), "wrong_type"),
    ({**_body(1), 7: "int key"}, "wrong_type"),
]


@pytest.mark.parametrize(("body", "code"), HOSTILE)
def test_convert_refuses_objects_no_reader_would_produce(body: Any, code: str) -> None:
    # Regression: objects nested ~1,000 deep raised RecursionError in convert.
    for validated in (True, False):
        with pytest.raises(ConversionError) as caught:
            convert(body, "openai-chat", "anthropic", validate_input=validated)
        assert caught.value.code == code
    messages: list[Any] = [*CANONICAL["messages"], _nested(2_000)]
    deep_canonical = {**CANONICAL, "messages": messages}
    with pytest.raises(ConversionError) as caught:
        convert(deep_canonical, "canonical", "gemini")
    assert caught.value.code == "nesting_too_deep"


@pytest.mark.parametrize(("body", "code"), HOSTILE)
def test_detect_refuses_objects_no_reader_would_produce(body: Any, code: str) -> None:
    # Regression: RecursionError (deep) and UnicodeEncodeError (lone surrogates) in detect.
    with pytest.raises(ConversionError) as caught:
        detect(body)
    assert caught.value.code == code


def test_detect_refuses_a_lone_surrogate_in_chatml_text() -> None:
    with pytest.raises(ConversionError) as caught:
        detect("<|im_start|>user\nhi\udfff<|im_end|>\n")
    assert caught.value.code == "invalid_unicode"


def test_validate_and_load_report_what_no_reader_would_produce() -> None:
    # Regression: a lone surrogate in a key made the finding itself fail to build (pydantic).
    message = {"role": "user", "content": [{"type": "text", "text": "x", "\ud800": 1}]}
    findings = validate(message)
    assert [(f.code, f.path) for f in findings] == [("invalid_unicode", "/content/0")]
    with pytest.raises(DocumentError) as caught:
        load(message)
    assert caught.value.errors[0].code == "invalid_unicode"
    deep = {**CANONICAL, "metadata": _nested(5_000)}
    assert validate(deep)[0].code == "nesting_too_deep"


@pytest.mark.parametrize(
    "content", [5, "text", None, {"type": "text"}], ids=["int", "str", "null", "object"]
)
def test_tool_exchanges_on_a_malformed_result_pairs_it_with_no_parts(content: Any) -> None:
    # Regression: tuple(5) raised TypeError for a result whose content is not a list.
    document = [
        {
            "role": "assistant",
            "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}],
        },
        {
            "role": "tool",
            "content": [{"type": "tool_result", "tool_call_id": "c1", "content": content}],
        },
    ]
    (exchange,) = tool_exchanges(document)
    assert exchange.status == "answered" and exchange.content == ()


@pytest.mark.parametrize("document", [5, "x", None, [1, [2]], {"messages": 3}, {"message": []}])
def test_tool_exchanges_of_something_that_is_no_document_is_empty(document: Any) -> None:
    assert tool_exchanges(document) == []


def test_call_arguments_past_the_reading_rules_are_coded_errors() -> None:
    # An arguments string is read with the reading rules too: 1e999 is never carried as inf.
    for arguments, code in (
        ('{"x": 1e999}', "number_out_of_range"),
        ('{"x": ' + "[" * 5_000 + "]" * 5_000 + "}", "nesting_too_deep"),
        ('{"x": NaN}', "non_finite_number"),
        ('{"x": 1, "x": 2}', "duplicate_key"),
    ):
        body = {
            "model": "m",
            "messages": [
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "c",
                            "type": "function",
                            "function": {"name": "f", "arguments": arguments},
                        }
                    ],
                }
            ],
        }
        with pytest.raises(ConversionError) as caught:
            convert(body, "openai-chat", "anthropic")
        assert caught.value.code == code, arguments


def test_load_refuses_a_value_the_model_cannot_hold_with_a_coded_error() -> None:
    # Regression (long fuzz run): 1e308 validates as an integer token count but the model
    # cannot hold it; load raised pydantic's ValidationError.
    response = {
        "schema_version": 1,
        "model": "m",
        "stop_reason": "end",
        "usage": {"input_tokens": 1e308, "output_tokens": 1},
        "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}]},
    }
    with pytest.raises(DocumentError) as caught:
        load(response)
    assert (caught.value.errors[0].code, caught.value.errors[0].path) == (
        "wrong_type",
        "/usage/input_tokens",
    )
