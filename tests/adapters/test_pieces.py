"""Arguments folded from typed pieces at JSON paths (`interlingua.conversion.adapters.pieces`)."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.pieces import ArgumentPieces, parse_path

KEYS = {
    "path": "jsonPath",
    "more": "willContinue",
    "string": "stringValue",
    "number": "numberValue",
    "boolean": "boolValue",
    "null": "nullValue",
}


def _fold(*pieces: dict[str, Any]) -> dict[str, Any]:
    built = ArgumentPieces(KEYS)
    for piece in pieces:
        built.add(piece, "/0")
    return built.arguments


def _code(*pieces: Any) -> str:
    built = ArgumentPieces(KEYS)
    with pytest.raises(ConversionError) as caught:
        for piece in pieces:
            built.add(piece, "/0")
    return caught.value.code


@pytest.mark.parametrize(
    ("path", "steps"),
    [
        ("$.a", ("a",)),
        ("$.a.b[0].c", ("a", "b", 0, "c")),
        ("$['odd key'][12]", ("odd key", 12)),
        ('$["q\\"uote"]', ('q"uote',)),
        ("$['it\\'s']", ("it's",)),
    ],
)
def test_paths_in_the_normalized_subset_parse(path: str, steps: tuple[Any, ...]) -> None:
    assert parse_path(path, "") == steps


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("a.b", "wrong_type"),
        (7, "wrong_type"),
        ("$", "wrong_type"),
        ("$..a", "pattern_mismatch"),
        ("$[*]", "pattern_mismatch"),
        ("$[01]", "pattern_mismatch"),
        ("$.a[", "pattern_mismatch"),
    ],
)
def test_other_paths_are_coded_errors(path: Any, code: str) -> None:
    with pytest.raises(ConversionError) as caught:
        parse_path(path, "/p")
    assert (caught.value.code, caught.value.pointer) == (code, "/p")


def test_a_string_continued_at_its_path_is_extended_and_values_are_set() -> None:
    assert _fold(
        {"jsonPath": "$.city", "stringValue": "Bos", "willContinue": True},
        {"jsonPath": "$.n", "numberValue": 2.5},  # another path between the pieces
        {"jsonPath": "$.city", "stringValue": "ton"},
        {"jsonPath": "$.flags.on", "boolValue": False},
        {"jsonPath": "$.list[0]", "stringValue": "a"},
        {"jsonPath": "$.list[1].x", "nullValue": "NULL_VALUE"},
        {"jsonPath": "$.list[1].y", "numberValue": 3},
    ) == {
        "city": "Boston",
        "n": 2.5,
        "flags": {"on": False},
        "list": ["a", {"x": None, "y": 3}],
    }


def test_a_value_not_said_to_continue_is_replaced() -> None:
    assert _fold(
        {"jsonPath": "$.a", "stringValue": "first"},
        {"jsonPath": "$.a", "stringValue": "second"},
        {"jsonPath": "$.l[0]", "numberValue": 1},
        {"jsonPath": "$.l[0]", "numberValue": 2},
    ) == {"a": "second", "l": [2]}


@pytest.mark.parametrize(
    ("pieces", "code"),
    [
        ([5], "wrong_type"),
        ([{"jsonPath": "$.a"}], "wrong_type"),
        ([{"jsonPath": "$.a", "stringValue": "x", "numberValue": 1}], "wrong_type"),
        ([{"jsonPath": "$.a", "stringValue": 1}], "wrong_type"),
        ([{"jsonPath": "$.a", "numberValue": "1"}], "wrong_type"),
        ([{"jsonPath": "$.a", "boolValue": 1}], "wrong_type"),
        ([{"jsonPath": "$[0]", "stringValue": "x"}], "wrong_type"),
        ([{"jsonPath": "$.a[2]", "stringValue": "x"}], "stream_out_of_order"),
        (
            [{"jsonPath": "$.a", "numberValue": 1}, {"jsonPath": "$.a.b", "numberValue": 1}],
            "wrong_type",
        ),
        (
            [{"jsonPath": "$.a", "numberValue": 1}, {"jsonPath": "$.a[0]", "numberValue": 1}],
            "wrong_type",
        ),
        (
            [{"jsonPath": "$.a[0]", "numberValue": 1}, {"jsonPath": "$.a.b", "numberValue": 1}],
            "wrong_type",
        ),
    ],
)
def test_malformed_pieces_are_coded_errors(pieces: list[Any], code: str) -> None:
    assert _code(*pieces) == code
