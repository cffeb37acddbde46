"""Untrusted input: every refusal has a code and, where it can, a pointer."""

import pytest

from interlingua import InputError, read_json
from interlingua.reading import looks_like_json, read_text


def refusal(data: bytes | str, **limits: int) -> tuple[str, str]:
    with pytest.raises(InputError) as caught:
        read_json(data, **limits)
    return caught.value.code, caught.value.path


def test_reads_plain_json() -> None:
    assert read_json(b'{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}
    assert read_json('\ufeff{"a": 1}') == {"a": 1}


@pytest.mark.parametrize(
    "text", ['{"role": "user", "content": [', "", "{]", '{"a": 1} trailing', "'single'"]
)
def test_malformed_json(text: str) -> None:
    assert refusal(text)[0] == "invalid_json"


def test_invalid_utf8() -> None:
    assert refusal(b'{"a": "\xff"}') == ("invalid_unicode", "")


def test_lone_surrogates_are_located() -> None:
    assert refusal('{"a": ["ok", "\\ud800"]}') == ("invalid_unicode", "/a/1")
    assert refusal('{"\\udfff": 1}') == ("invalid_unicode", "/\udfff")
    assert read_json('{"a": "\\ud83d\\ude00"}') == {"a": "😀"}  # a proper pair is fine


def test_duplicate_keys_are_located() -> None:
    assert refusal('{"a": {"b": 1, "b": 2}}') == ("duplicate_key", "/a/b")
    assert refusal('[{"x": 1}, {"y": 1, "y": 1}]') == ("duplicate_key", "/1/y")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers(constant: str) -> None:
    assert refusal(f'{{"t": [0, {constant}]}}') == ("non_finite_number", "/t/1")


def test_nesting_limits() -> None:
    assert refusal("[" * 10_000 + "]" * 10_000)[0] == "nesting_too_deep"
    assert refusal('{"a": [[[1]]]}', max_depth=3) == ("nesting_too_deep", "/a/0/0")
    assert read_json('{"a": [[1]]}', max_depth=3) == {"a": [[1]]}


def test_size_limit_is_checked_before_parsing() -> None:
    assert refusal(b"x" * 101, max_bytes=100) == ("input_too_large", "")
    assert refusal("x" * 101, max_bytes=100) == ("input_too_large", "")


def test_error_serialises() -> None:
    with pytest.raises(InputError) as caught:
        read_json("[NaN]")
    assert caught.value.as_dict() == {
        "code": "non_finite_number",
        "path": "/0",
        "message": "NaN is not a JSON number",
    }


# --- text (a text format's document) -------------------------------------------------------


def test_read_text_decodes_utf8_and_drops_a_bom() -> None:
    assert read_text("\ufeff<|im_start|>".encode()) == "<|im_start|>"
    assert read_text("déjà") == "déjà"


@pytest.mark.parametrize(
    ("data", "code"), [(b"\xff\xfe", "invalid_unicode"), (b"x" * 11, "input_too_large")]
)
def test_read_text_refuses_with_a_code(data: bytes, code: str) -> None:
    with pytest.raises(InputError) as caught:
        read_text(data, max_bytes=10)
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("data", "json_like"),
    [(b' {"a": 1', True), (b"[", True), (b'"x', True), (b"", True), (b"<|im_start|>", False)],
)
def test_what_opens_like_json_is_read_as_json(data: bytes, json_like: bool) -> None:
    assert looks_like_json(data) is json_like
