"""The generated fast path (yes/no) agrees with the detailed check on the shapes its
straight-line code treats specially: objects checked key by key, required keys tested by
reading them, reads shared between invariants, one branch per tag in the invariant walk."""

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
]


@pytest.mark.parametrize(("type_name", "value", "valid"), CASES)
def test_fast_path_agrees_with_the_detailed_check(type_name: str, value: Any, valid: bool) -> None:
    fast, _ = VALIDATORS[type_name]
    findings = check(type_name, value)
    assert fast(value) is valid
    assert (findings == []) is valid, findings
