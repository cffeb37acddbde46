"""The generated fast path (yes/no) agrees with the detailed check on the shapes its
straight-line code treats specially: objects checked key by key with their required keys
counted, one branch per tag (a tag or key that is no string is a "no", also where compiled code
fails a typed local's cast), reads shared between invariants through absent objects, one branch
per tag in the invariant walk, the one-pass portable-schema walk."""

from collections import OrderedDict
from typing import Any

import pytest

from interlingua.generated.validators import VALIDATORS, check

ULID_A = "01HZ0010000000000000000000"
ULID_B = "01HZ0020000000000000000000"


def message(**extra: Any) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": "hi"}], **extra}


def conversation(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"schema_version": 1, "messages": list(messages)}


def calls(*ids: str) -> dict[str, Any]:
    parts = [{"type": "tool_call", "id": i, "name": "f", "arguments": {}} for i in ids]
    return {"role": "assistant", "content": parts}


def tool(input_schema: Any) -> dict[str, Any]:
    return {"name": "t", "input_schema": input_schema}


def results(*ids: str) -> dict[str, Any]:
    parts = [{"type": "tool_result", "tool_call_id": i, "content": []} for i in ids]
    return {"role": "tool", "content": parts}


CASES: list[tuple[str, Any, bool]] = [
    ("Message", message(), True),
    ("Message", message(id=ULID_A, channel="final"), True),
    ("Message", {"content": [{"type": "text", "text": "hi"}]}, False),  # required role missing
    ("Message", {"role": "user"}, False),  # required content missing
    ("Message", message(channel="nope"), False),
    ("Message", message(id="not-a-ulid"), False),
    ("Message", message(extensions={"completion": {"status": "bogus"}}), False),
    ("Message", message(extensions={1: {}}), False),  # a key that is no string
    ("Message", OrderedDict(message()), False),  # a dict subclass is no JSON object
    ("TextPart", {"type": "text", "text": "hi", "surprise": 1}, False),  # closed: unknown key
    ("TextPart", {"type": "text"}, False),
    ("TextPart", {"type": "txt", "text": "hi"}, False),
    ("Conversation", conversation(message(id=ULID_A), message(id=ULID_B)), True),
    ("Conversation", conversation(message(id=ULID_B), message(id=ULID_A)), False),  # order
    ("Conversation", conversation(message(id=ULID_A), message(id=ULID_A)), False),  # repeat
    ("Conversation", conversation(calls("a", "b"), results("b", "a")), True),
    ("Conversation", conversation(calls("a", "a"), results("a")), False),  # duplicate call id
    ("Conversation", conversation(results("a"), calls("a")), False),  # answers no earlier call
    ("Conversation", conversation(calls("a"), results("a", "a")), False),  # answered twice
    ("Conversation", conversation(calls("a"), results("b")), False),
    # Tags: one branch each, in the schema's order; anything else is a "no".
    ("Message", message(content=[{"type": 1, "text": "hi"}]), False),  # a tag that is no string
    ("Message", message(content=[{"text": "hi"}]), False),  # no tag
    ("Message", message(content=[{"type": "hologram"}]), False),  # unknown: a warning
    ("Part", {"type": "tool_call", "id": "a", "name": "f", "arguments": {}}, True),
    ("Part", {"type": "thinking", "thinking": "hm", "nonsense": 1}, False),
    ("Part", [], False),
    # Required keys counted as they pass: each missing one, and an extra unknown key.
    ("ToolCallPart", {"type": "tool_call", "id": "a", "name": "f", "arguments": {}}, True),
    ("ToolCallPart", {"type": "tool_call", "id": "a", "arguments": {}}, False),
    ("ToolCallPart", {"type": "tool_call", "name": "f", "arguments": {}}, False),
    ("ToolCallPart", {"type": "tool_call", "id": "a", "name": "f", "arguments": {}, 2: 1}, False),
    # Invariant reads through absent objects (the shared empty dict and list).
    ("Message", message(extensions={}), True),
    ("Message", message(id=ULID_A, extensions={"provenance": {"message_id": ULID_A}}), True),
    ("Message", message(id=ULID_A, extensions={"provenance": {"message_id": ULID_B}}), False),
    ("Conversation", {"schema_version": 1, "messages": [message()], "tools": []}, True),
    # The portable-schema walk: keywords at any depth under properties and items.
    ("ToolDefinition", tool({"type": "object", "additionalProperties": False}), True),
    ("ToolDefinition", tool({"additionalProperties": {"type": "string"}}), False),
    ("ToolDefinition", tool({"properties": {"a": {"items": {"$ref": "#/x"}}}}), False),
    ("ToolDefinition", tool({"properties": {"a": {"items": [{}, {"not": {}}]}}}), False),
    ("ToolDefinition", tool({"items": [{"type": "string"}], "properties": 3}), True),
    ("ToolDefinition", tool({"properties": {"a": {"description": "$ref"}}}), True),
]


@pytest.mark.parametrize(("type_name", "value", "valid"), CASES)
def test_fast_path_agrees_with_the_detailed_check(type_name: str, value: Any, valid: bool) -> None:
    fast, _ = VALIDATORS[type_name]
    findings = check(type_name, value)
    assert fast(value) is valid
    assert (findings == []) is valid, findings


def test_the_shared_empty_reads_stay_empty() -> None:
    """The invariants read through `_EMPTY` and loop over `_NO_ITEMS` for what is absent; the
    fast path never writes to them (a write would leak into every later document)."""
    from interlingua.generated import validators

    for type_name, value, _ in CASES:
        check(type_name, value)
    assert validators._EMPTY == {}
    assert validators._NO_ITEMS == []
