"""`migrate`: which version a document is, the steps up and down, and coded errors."""

import copy
from typing import Any

import pytest

import interlingua
from interlingua.conversion import ConversionError
from interlingua.documents.migrate import Migrated, migrate, versions

USER = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
REF = {"type": "resource_ref", "uri": "file:///a", "resource_type": "file", "range_start": 3}


def test_the_versions_are_the_declared_ones() -> None:
    assert versions() == (1, 2)


def test_a_conversation_says_its_version_and_a_message_is_read_as_one() -> None:
    up = migrate({"schema_version": 1, "messages": [USER]}, 2)
    assert up == Migrated({"schema_version": 2, "messages": [USER]}, (), 1, 2)
    message = {"role": "assistant", "content": [REF]}
    assert migrate(message, 2).output["content"][0]["range"] == {"start": 3}
    assert migrate(message, 1) == Migrated(message, (), 1, 1)


def test_a_message_of_v2_is_read_as_source_says() -> None:
    ranged = {key: value for key, value in REF.items() if key != "range_start"}
    v2 = {"role": "assistant", "content": [{**ranged, "range": {"start": 3}}]}
    assert migrate(v2, 1, source=2).output == {"role": "assistant", "content": [REF]}


def test_the_output_shares_nothing_with_the_input() -> None:
    document = {"schema_version": 1, "messages": [USER]}
    before = copy.deepcopy(document)
    output = migrate(document, 2).output
    output["messages"][0]["content"].clear()
    assert document == before


@pytest.mark.parametrize(
    ("document", "to", "source", "code", "pointer"),
    [
        ({"schema_version": 7, "messages": [USER]}, 1, None, "const_mismatch", "/schema_version"),
        (
            {"schema_version": True, "messages": [USER]},
            1,
            None,
            "const_mismatch",
            "/schema_version",
        ),
        ({"messages": [USER]}, 2, None, "missing_field", "/schema_version"),
        ({"schema_version": 1, "messages": [USER]}, 9, None, "const_mismatch", ""),
        ({"schema_version": 1, "messages": [USER]}, 2, 2, "const_mismatch", "/schema_version"),
        (USER, 2, 5, "const_mismatch", ""),
        ({"model": "m"}, 2, None, "unknown_document", ""),
        ([USER], 2, None, "wrong_type", ""),
    ],
)
def test_bad_input_is_a_coded_error(
    document: Any, to: int, source: int | None, code: str, pointer: str
) -> None:
    with pytest.raises(ConversionError) as caught:
        migrate(document, to, source=source)
    assert (caught.value.code, caught.value.pointer) == (code, pointer)


def test_v1_reads_what_v2_adds_to_metadata_as_a_warning() -> None:
    """Seed 001: readers tolerate unknown metadata fields. A v2 document migrated down keeps
    metadata v1 does not know, and v1's validator reports it as a warning, not an error."""
    completion = {"stop_reason": "tool_call", "time_to_first_token_ms": 180}
    v2 = {
        "schema_version": 2,
        "model": "m",
        "stop_reason": "tool_call",
        "message": {
            "role": "assistant",
            "content": [{"type": "tool_call", "id": "c", "name": "f", "arguments": {}}],
            "extensions": {"completion": completion},
        },
    }
    v1 = migrate(v2, 1).output
    assert v1["message"]["extensions"]["completion"] == {
        "stop_reason": "call",
        "time_to_first_token_ms": 180,
    }
    findings = interlingua.validate(v1)
    assert [(f.code, f.severity) for f in findings] == [("unknown_metadata_field", "warning")]


RICH_V1: Any = {
    "schema_version": 1,
    "model": "m",
    "stop_reason": "call",
    "usage": {"input_tokens": 1, "output_tokens": 2, "cached_input_tokens": 1},
    "message": {
        "role": "assistant",
        "content": [
            {"type": "tool_result", "tool_call_id": "c", "content": [REF]},
            {"type": "prompt_result", "prompt_request_id": "p", "name": "n", "messages": [USER]},
            REF,
        ],
        "extensions": {
            "completion": {"stop_reason": "call", "usage": {"input_tokens": 1, "output_tokens": 1}},
            "agent": {"conversation": {"history": [USER]}},
        },
    },
}


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, sub in children:
        found += _paths(sub, (*path, key))
    return found


def _replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(document)
    holder = out
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return out


#: Fields a declaration renames or moves: a value under them is found elsewhere after.
CHANGED = {"cached_input_tokens", "cache_read_input_tokens", "range_start", "range_end", "range"}


def _get(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


@pytest.mark.parametrize("version", [1, 2])
def test_a_value_of_the_wrong_type_anywhere_is_kept_as_it_is(version: int) -> None:
    """Migration is total: whatever a document holds where an object or a list belongs, it
    comes out unchanged (validation, not migration, reports it), and the rest migrates."""
    document = RICH_V1 if version == 1 else migrate(RICH_V1, 2).output
    other = 3 - version
    for path in _paths(document)[1:]:
        if path == ("schema_version",):
            continue
        for odd in ("x", 7, None):
            out = migrate(_replaced(document, path, odd), other, source=version).output
            assert out["schema_version"] == other
            if CHANGED.isdisjoint(str(key) for key in path):
                assert _get(out, path) == odd, path
