"""Untrusted input: every refusal has a code and, where it can, a pointer."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua import InputError, read_json
from interlingua.cli.commands import main
from interlingua.conversion import reading
from interlingua.conversion.reading import _read_located as located_reading
from interlingua.conversion.reading import (
    check_value,
    looks_like_json,
    read_text,
    read_with_hooks,
)


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


# --- numbers no reader carries exactly -----------------------------------------------------


def test_an_integer_past_4300_digits_is_a_coded_error_with_its_pointer() -> None:
    # Regression: ValueError out of json.loads crashed every reading command.
    assert refusal('{"a": [1, ' + "9" * 4_301 + "]}") == ("number_out_of_range", "/a/1")
    assert refusal("-" + "9" * 5_000) == ("number_out_of_range", "")
    assert read_json("9" * 4_300) == int("9" * 4_300)  # at the limit: kept exactly


@pytest.mark.parametrize("literal", ["1e999", "-1e999", "1.5E+400"])
def test_a_literal_past_the_largest_double_is_refused_not_read_as_infinity(literal: str) -> None:
    # Regression: 1e999 was accepted and written back as Infinity, which is not JSON.
    assert refusal(f'{{"t": [0, {literal}]}}') == ("number_out_of_range", "/t/1")
    assert read_json("[1e308, 5e-324]") == [1e308, 5e-324]


def test_the_walk_is_skipped_only_where_nothing_can_be_found() -> None:
    """The text scan that spares most documents the walk over their containers never spares
    one that needs it: a float past the largest double without an exponent, nesting right at
    the limit, and brackets or exponents in strings (a false alarm costs only the walk)."""
    assert refusal('{"x": ' + "9" * 309 + ".5}") == ("number_out_of_range", "/x")
    assert refusal("[[[[1]]]]", max_depth=3) == ("nesting_too_deep", "/0/0/0")
    assert read_json("[[[1]]]", max_depth=3) == [[[1]]]
    assert read_json('["[[[[", "1e5"]', max_depth=3) == ["[[[[", "1e5"]


def test_a_float_overflow_before_another_refusal_gives_the_same_answer_as_before() -> None:
    """The first try stops at a float past the largest double; the second reading then gives
    the answer a single full reading gave: what parsing refuses comes first, then what the
    walk over the containers meets first, then lone surrogates."""
    assert refusal('{"a": 1e999, "a": 2}') == ("duplicate_key", "/a")
    assert refusal('{"a": 1e999, "b": NaN}') == ("non_finite_number", "/b")
    assert refusal('{"a": 1e999, "b": ' + "9" * 5_000 + "}") == ("number_out_of_range", "/b")
    assert refusal('[1e999, "x"') == ("invalid_json", "")
    # The walk's own order (the answers of the one reading before the two tries).
    assert refusal('{"a": 1e999, "b": [[[1]]]}', max_depth=3) == ("number_out_of_range", "/a")
    assert refusal('{"a": [[[1]]], "b": 1e999}', max_depth=3) == ("number_out_of_range", "/b")
    assert refusal("[[[[1e999]]]]", max_depth=3) == ("nesting_too_deep", "/0/0/0")
    assert refusal('{"a": "\\ud800", "b": 1e999}') == ("number_out_of_range", "/b")


def outcome(read: Callable[[str], object], text: str) -> object:
    try:
        return ("value", read(text))
    except InputError as exc:
        return ("error", exc.code, exc.path, exc.message)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "  ",
        " {} ",
        "{} x",
        "[1] [2]",
        "[1]  \n",
        "\t[ ]\r\n",
        '"s"',
        "1",
        "-0",
        "1.5",
        "1e5",
        "[1E400]",
        "tru",
        "[1,]",
        '{"a": 1',
        '{"a":1}\n',
        '"\\ud800"',
        '["\\ud83d\\ude00"]',
        "[" * 300 + "]" * 300,
        '{"a": 1, "a": 1}',
        "[NaN]",
        "[" + "9" * 4_400 + "]",
    ],
)
def test_the_first_try_answers_as_the_located_reading_does(text: str) -> None:
    """The hooked reading's first try (the scanner called straight) gives the value, or the
    refusal, the full reading gives, and so does `read_json` (msgspec first), from text and
    from bytes: trailing text, blank input and whitespace included."""
    expected = outcome(lambda t: located_reading(t, 256), text)
    assert outcome(read_with_hooks, text) == expected
    assert outcome(read_json, text) == expected
    assert outcome(lambda t: read_json(t.encode("utf-8", "surrogatepass")), text) == expected


def test_the_first_refusal_in_document_order_wins() -> None:
    assert refusal('{"a": NaN, "b": ' + "9" * 5_000 + "}")[0] == "non_finite_number"
    assert refusal('{"b": ' + "9" * 5_000 + ', "a": NaN}') == ("number_out_of_range", "/b")
    assert refusal("NaN x") == ("non_finite_number", "")  # broken further on too


def test_a_lone_surrogate_in_text_given_as_a_string_is_refused() -> None:
    assert refusal('"a\ud800"') == ("invalid_unicode", "")


# --- Python values held to the same rules ----------------------------------------------------


def _nested(depth: int) -> object:
    value: object = "bottom"
    for _ in range(depth):
        value = {"k": [value]}
    return value


@pytest.mark.parametrize(
    ("value", "code", "path"),
    [
        ({"a": 10**4_400}, "number_out_of_range", "/a"),
        ({"a": [float("inf")]}, "non_finite_number", "/a/0"),
        ({"a": float("nan")}, "non_finite_number", "/a"),
        ({"a": {1: 2}}, "wrong_type", "/a"),
        ({"a": "\ud800"}, "invalid_unicode", "/a"),
        ({"\udfff": 1}, "invalid_unicode", ""),
        ({"a": (1, 2)}, "wrong_type", "/a"),
        ({"a/~": {1}}, "wrong_type", "/a~1~0"),
        ({"a": b"x"}, "wrong_type", "/a"),
        (_nested(100_000), "nesting_too_deep", "/k/0" * 128),
    ],
)
def test_check_value_refuses_what_a_reader_would(value: object, code: str, path: str) -> None:
    with pytest.raises(InputError) as caught:
        check_value(value)
    assert (caught.value.code, caught.value.path) == (code, path)


def test_check_value_takes_json_data() -> None:
    check_value({"a": [1, 2.5, "é", None, True, 10**4_000, "😀"], "b": {}})
    check_value(_nested(127))


# --- every reading command of the CLI ---------------------------------------------------------


BIG = '{"model": "m", "messages": [{"role": "user", "content": "hi"}], "n": ' + "9" * 5_000 + "}"
COMMANDS = [
    ["validate"],
    ["convert", "--from", "openai-chat", "--to", "anthropic"],
    ["convert", "--from", "auto", "--to", "canonical"],
    ["detect"],
    ["pairs"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("body", [BIG, BIG.replace("9" * 5_000, "1e999")], ids=["long", "1e999"])
def test_every_reading_command_refuses_numbers_with_a_code(
    command: list[str], body: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Regression: a 5,000-digit integer crashed every reading command with a traceback.
    path = tmp_path / "in.json"
    path.write_text(body, encoding="utf-8")
    assert main([*command, str(path)]) == 2
    err = capsys.readouterr().err
    assert "number_out_of_range" in err and "Traceback" not in err
    lines = tmp_path / "in.jsonl"
    lines.write_text(body + "\n", encoding="utf-8")
    if command[0] in ("convert", "detect", "pairs"):
        assert main([*command, "--jsonl", str(lines)]) == 2
        assert "number_out_of_range" in capsys.readouterr().err


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.sampled_from('ab:"\\{}[], \u00e9\ud800'), max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["a", "b", "a:b", "c", 'a"', '"', "a\\"]), inner, max_size=3
        )
    ),
    max_leaves=12,
)


def agree(text: str, max_depth: int = 256) -> None:
    """`read_json` (msgspec first) answers as `read_with_hooks` does, from text and bytes."""
    expected = outcome(lambda t: read_with_hooks(t, max_depth), text)
    assert outcome(lambda t: read_json(t, max_depth=max_depth), text) == expected
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes that are not UTF-8
    expected = outcome(lambda t: read_with_hooks(data, max_depth), text)
    assert outcome(lambda t: read_json(data, max_depth=max_depth), text) == expected


@given(
    _JSON_VALUES,
    st.sampled_from([", ", ","]),
    st.booleans(),
    st.booleans(),
    st.sampled_from([2, 3, 256]),
)
@settings(max_examples=400, deadline=None)
def test_read_json_answers_as_the_hooked_reading(
    value: Any, comma: str, repeat: bool, ascii_only: bool, max_depth: int
) -> None:
    """`read_json` (msgspec first) gives what the hooked reading gives, refusal included:
    repeated keys, keys with colons or escaped quotes, non-finite numbers, escapes (`\\u`
    ones too), surrogates and nesting at the limit."""
    text = json.dumps(value, separators=(comma, ":"), ensure_ascii=ascii_only, allow_nan=True)
    if repeat and text.startswith("{") and len(text) > 2:
        text = text[:-1] + ', "a": 0}'  # a key that may already be there
    agree(text, max_depth)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '{"a": {"b": 1, "b": 1}}',
        '{"t": "12:00", "t": 1}',
        '{"a": NaN}',
        '{"a": 1e400}',
        '{"a": "\\ud800"}',
        '{"a": "\\u00e9"}',
        '{"a": "é"}',
        " {}",
        "{} x",
        "[" * 300 + "]" * 300,
        "[" + "9" * 4_400 + "]",
        '{"city": "Z\\u00fcrich", "n": 3}',
        '{"a": 12345678901234567890123}',
        '{"a": -9223372036854775809}',
        '{"a": 18446744073709551615}',
        '{"a": 1e20, "b": 9223372036854775807}',
        '{"t": "12:00", "t": "x"}',
        '{"a": ["x", "y"], "a": "z"}',
        '{"a": "\\"", "a": 1}',
        '{"a\\"": 1, "a\\"": 2}',
        '{"a": "x\\"y", "a": "z"}',
        '{"a": 1, "a": "\\"\\""}',
        '{"a": 1, "a": "\\u0022\\u0022"}',
        '{"a": "\\\\", "a": 1}',
        '{"a": "\\\\\\"", "b": "\\n"}',
        '{"a": "\\\\\\"", "a": "\\"\\""}',
        '["\\"", "\\\\"]',
        '{"a": "\\ud800\\"", "b": 1}',
        '{"a": "\\x"}',
        '{"a": "\\ud83d\\ude00", "a": 1}',
        '{"a": "\\udc00"}',
        '{"a": "\\u00e9", "a": 1}',
        '{"a": "\\u00e9\\"", "b": "\\u0022"}',
        "\ufeff{}",
        '{"big": "' + "x" * 9_000 + '", "k": [{"n": 1, "n": 2}]}',
    ],
)
def test_read_json_takes_the_hooked_reading_where_a_hook_would_answer(text: str) -> None:
    agree(text)


def test_read_json_reads_common_bodies_without_the_hooks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """msgspec's value stands for the common shapes: no escapes, escaped quotes (arguments
    as JSON text), escaped backslashes (a file written by a tool call), from text or bytes,
    short or long."""

    def refuse(data: object, max_depth: int = 256) -> object:
        raise AssertionError(f"read_with_hooks asked for {data!r}")

    monkeypatch.setattr(reading, "read_with_hooks", refuse)
    plain = {"start": "2026-10-14T09:00:00Z", "n": 3, "x": 1.5, "tags": ["a", "b"], "o": {}}
    arguments = {"messages": [{"arguments": json.dumps(plain)}] * 200}  # past 4 KiB
    code = {"path": "a.py", "content": 'def f():\n    return "x\\\\y"\n', '"': "\\"}
    for value in (plain, arguments, code, [18446744073709551615, -9223372036854775808]):
        text = json.dumps(value)
        assert read_json(text) == value
        assert read_json(text.encode()) == value
    assert "\\\\" in json.dumps(code) and '\\"' in json.dumps(arguments)
