"""What files become: whole documents and turns mixed in one JSON Lines file, documents that
hold one turn, and the coded errors of what cannot be read (on both databases where the
store is involved)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ulid import ULID

from interlingua.store import Store
from interlingua.store.reading import (
    IncomingSession,
    Refusal,
    read_document,
    read_lines,
    rebuild,
)

TURN = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
ANTHROPIC_REQUEST = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 100,
    "messages": [{"role": "user", "content": "Delete my account."}],
}


@pytest.fixture
def store(database: str) -> Any:
    opened = Store.open(database)
    yield opened
    opened.close()


def _lines(*items: Any) -> bytes:
    return "\n".join(i if isinstance(i, str) else json.dumps(i) for i in items).encode()


def test_a_line_holding_a_whole_document_is_a_session_of_its_own() -> None:
    data = _lines(TURN, TURN, ANTHROPIC_REQUEST, {"what": "ever"}, TURN)
    read = read_lines(data, "mixed.jsonl", "auto")
    turns, document = read.sessions
    assert (turns.source_format, turns.envelope, len(turns.messages)) == (
        "canonical",
        {"shape": "lines"},
        3,
    )
    assert (document.source_format, document.source_kind) == ("anthropic", "request")
    assert [m.line for m in turns.messages] == [1, 2, 5]
    [refusal] = read.refused
    assert refusal.line == 4 and refusal.as_json()["line"] == 4


def test_a_document_whose_error_is_not_one_message_is_refused_whole() -> None:
    bad = {"schema_version": 1, "messages": [TURN], "tools": "none"}
    session, refused = read_document(bad, "c.json", "canonical")
    assert session is None and refused[0].path == "/tools"
    lonely = {"schema_version": 1, "messages": [{**TURN, "created_at": "yesterday"}]}
    session, refused = read_document(lonely, "c.json", "canonical")
    assert session is None and refused[0].path == "/messages/0/created_at"
    assert Refusal("x", "/", "m").as_json() == {"code": "x", "path": "/", "message": "m"}


def test_a_reading_that_loses_something_says_so() -> None:
    # Not a valid request (temperature), so only a reading as stored turns takes it: the
    # fields turns do not keep are reported, never dropped silently.
    bad = {"model": "gpt-4o", "temperature": "hot", "messages": [{"role": "user", "content": "x"}]}
    session, refused = read_document(bad, "r.json", "openai-chat")
    assert session is not None and not refused
    assert {(x.code, x.path) for x in session.losses} == {
        ("field_dropped", "/model"),
        ("field_dropped", "/temperature"),
    }
    good = {**bad, "temperature": 0.5}
    session, _ = read_document(good, "r.json", "openai-chat")
    assert session is not None and session.source_kind == "request" and not session.losses


def test_rebuild_falls_back_to_a_list_when_the_shape_no_longer_holds() -> None:
    assert rebuild({"shape": "one"}, [TURN]) == TURN
    assert rebuild({"shape": "one"}, [TURN, TURN]) == [TURN, TURN]
    assert rebuild(None, [TURN]) == [TURN]


def test_turn_documents_added_to_one_session_export_as_a_list(store: Store) -> None:
    first = {**TURN, "session_id": "s-one"}
    second = {**TURN, "session_id": "s-one", "content": [{"type": "text", "text": "again"}]}
    assert store.import_document(first, "a.json", "canonical").sessions[0].messages == 1
    assert store.export("s-one").bodies == [first]
    store.import_document(second, "b.json", "canonical")
    assert store.export("s-one").bodies == [[first, second]]


def test_timestamps_order_and_date_the_rows(store: Store) -> None:
    messages = [
        {**TURN, "created_at": "2026-05-08T10:00:00.123456Z"},
        {**TURN, "created_at": "2016-12-31T23:59:60Z"},  # a leap second: import time instead
    ]
    done = store.import_document(messages, "t.json", "canonical").sessions[0]
    assert done.session_id is not None
    session = store.sessions()[0]
    assert session["created_at"] == 1_778_234_400_123_456
    first, second = store.message_ids(done.session_id)
    assert first < second  # the ULID carries the message's time, the next one the import's
    assert ULID.from_str(first).milliseconds == 1_778_234_400_123


def test_cancelled_calls_orphan_results_and_turns_without_a_model(
    store: Store, tmp_path: Path
) -> None:
    cancelled = {
        "role": "assistant",
        "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}],
        "extensions": {
            "completion": {"status": "cancelled", "usage": {"input_tokens": 1, "output_tokens": 1}}
        },
    }
    answer = {
        "role": "tool",
        "content": [{"type": "tool_result", "tool_call_id": "c1", "content": []}],
    }
    orphan = {
        "role": "tool",
        "content": [{"type": "tool_result", "tool_call_id": "zz", "content": []}],
    }
    path = tmp_path / "t.jsonl"
    path.write_bytes(_lines(cancelled, answer, orphan))
    done = store.import_file(str(path), "canonical").sessions[0]
    assert done.session_id is not None
    assert store.unanswered() == [] and store.failed() == []
    [cost] = store.cost(done.session_id)
    assert [u["reason"] for u in cost.unpriced] == ["the message names no model"]


def test_an_empty_session_is_not_written(store: Store) -> None:
    assert store.import_session(IncomingSession("nothing")).skipped
    assert store.sessions() == []
