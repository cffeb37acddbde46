"""The store on SQLite and on PostgreSQL: the same import, queries and export give the same
results on both."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.store import SessionImport, Store
from interlingua.store.identity import is_ulid

TRANSCRIPT = [
    {"role": "user", "content": "read README and list the folder"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path":"README.md"}'},
            },
            {"id": "call_2", "type": "function", "function": {"name": "ls", "arguments": "{}"}},
            {"id": "call_3", "type": "function", "function": {"name": "rm", "arguments": "{}"}},
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "# Foo"},
    {"role": "assistant", "content": "Foo is a tool."},
]

ANTHROPIC_RESPONSE = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-6",
    "content": [{"type": "text", "text": "A ULID is a 128-bit identifier..."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 8, "output_tokens": 42},
}


def _jsonl(path: Path, lines: list[Any], raw: dict[int, str] | None = None) -> Path:
    text = [json.dumps(line) for line in lines]
    for at, line in (raw or {}).items():
        text.insert(at, line)
    path.write_text("\n".join(text) + "\n")
    return path


def _sid(done: SessionImport) -> str:
    assert done.session_id is not None
    return done.session_id


@pytest.fixture
def store(database: str) -> Any:
    opened = Store.open(database)
    yield opened
    opened.close()


def test_a_transcript_imports_as_one_session_and_exports_line_for_line(
    store: Store, tmp_path: Path
) -> None:
    report = store.import_file(str(_jsonl(tmp_path / "t.jsonl", TRANSCRIPT)))
    assert not report.refused
    [done] = report.sessions
    assert (done.messages, done.tool_calls, done.skipped) == (4, 3, False)
    exported = store.export(_sid(done))
    assert exported.per_line and exported.bodies == TRANSCRIPT
    ids = store.message_ids(_sid(done))
    assert all(is_ulid(i) for i in ids) and ids == sorted(ids) and len(set(ids)) == 4


def test_unanswered_and_failed_calls(store: Store, tmp_path: Path) -> None:
    lines = [*TRANSCRIPT]
    lines.insert(3, {"role": "tool", "tool_call_id": "call_3", "content": "permission denied"})
    path = _jsonl(tmp_path / "t.jsonl", lines)
    session = _sid(store.import_file(str(path)).sessions[0])
    assert [c["name"] for c in store.unanswered()] == ["ls"]  # call_3 is answered
    # An OpenAI tool message has no error flag; a canonical result does.
    canonical = {
        "schema_version": 1,
        "messages": [
            {
                "role": "assistant",
                "content": [{"type": "tool_call", "id": "c9", "name": "deploy", "arguments": {}}],
            },
            {
                "role": "tool",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_call_id": "c9",
                        "content": [{"type": "text", "text": "boom"}],
                        "is_error": True,
                    }
                ],
            },
        ],
    }
    other = _sid(store.import_document(canonical, "doc", "canonical").sessions[0])
    [failed] = store.failed()
    assert (failed["name"], failed["session_id"], failed["provider_id"]) == ("deploy", other, "c9")
    assert failed["result_message_id"] == store.message_ids(other)[1]
    assert store.failed(session) == []
    assert [c["provider_id"] for c in store.unanswered(session)] == ["call_2"]
    mapping = store.id_map(session)
    assert set(mapping) == {"call_1", "call_2", "call_3"}
    assert all(v.startswith("tu_") and is_ulid(v[3:]) for v in mapping.values())


def test_a_result_in_a_later_import_answers_the_earlier_call(store: Store, tmp_path: Path) -> None:
    first = [
        {**m, "session_id": "s1"}
        for m in [
            {
                "role": "assistant",
                "content": [{"type": "tool_call", "id": "c1", "name": "f", "arguments": {}}],
            },
        ]
    ]
    second = [
        {
            "role": "tool",
            "session_id": "s1",
            "content": [{"type": "tool_result", "tool_call_id": "c1", "content": []}],
        }
    ]
    store.import_file(str(_jsonl(tmp_path / "a.jsonl", first)), "canonical")
    assert len(store.unanswered("s1")) == 1
    store.import_file(str(_jsonl(tmp_path / "b.jsonl", second)), "canonical")
    assert store.unanswered("s1") == []
    assert len(store.messages("s1")) == 2


def test_an_invalid_line_is_refused_with_its_code_and_line_and_the_rest_imports(
    store: Store, tmp_path: Path
) -> None:
    bad_message = {"role": "user", "content": [], "id": "not-a-ulid"}
    path = _jsonl(
        tmp_path / "t.jsonl", [*TRANSCRIPT[:1], bad_message, *TRANSCRIPT[1:]], {3: "{not json"}
    )
    report = store.import_file(str(path))
    codes = {(r.code, r.line) for r in report.refused}
    assert ("invalid_json", 4) in codes
    assert any(line == 2 for _, line in codes)
    assert report.sessions[0].messages == 4


def test_a_message_failing_validation_inside_a_document_is_refused(store: Store) -> None:
    document = {
        "schema_version": 1,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "x"}],
                "id": "01HZ0010000000000000000000",
                "created_at": "not a time",
            },
        ],
    }
    report = store.import_document(document, "doc", "canonical")
    [refusal] = report.refused
    assert refusal.path.startswith("/messages/1") and refusal.code
    assert report.sessions[0].messages == 1


def test_reimporting_skips_what_was_imported(store: Store, tmp_path: Path) -> None:
    path = str(_jsonl(tmp_path / "t.jsonl", TRANSCRIPT))
    store.import_file(path)
    again = store.import_file(path)
    assert [s.skipped for s in again.sessions] == [True]
    assert len(store.sessions()) == 1
    assert sum(len(store.messages(s["id"])) for s in store.sessions()) == 4


def test_a_response_is_priced_from_the_table(store: Store) -> None:
    done = store.import_document(ANTHROPIC_RESPONSE, "r.json").sessions[0]
    [cost] = store.cost(_sid(done))
    assert cost.usd == Decimal("0.000654") and cost.priced == 1 and not cost.unpriced
    session = store.sessions()[0]
    assert session["active_model"] == "anthropic:claude-sonnet-4-6"
    assert store.export(_sid(done)).bodies == [ANTHROPIC_RESPONSE]


def test_cost_reports_what_it_cannot_price(store: Store) -> None:
    unknown = {**ANTHROPIC_RESPONSE, "model": "claude-unreleased"}
    done = store.import_document(unknown, "r.json").sessions[0]
    [cost] = store.cost(_sid(done))
    assert cost.usd == 0 and cost.priced == 0
    assert [u["code"] for u in cost.unpriced] == ["unpriced_model"]


def test_a_request_exports_to_its_own_format_exactly_and_to_another(store: Store) -> None:
    body = {
        "model": "gpt-4o",
        "temperature": 0.2,
        "messages": [{"role": "system", "content": "be brief"}, *TRANSCRIPT],
    }
    done = store.import_document(body, "req.json", "openai-chat").sessions[0]
    assert store.export(_sid(done)).bodies == [body]
    anthropic = store.export(_sid(done), "anthropic").bodies[0]
    assert anthropic["system"] == "be brief" and anthropic["model"] == "gpt-4o"


def test_source_message_ids_are_kept_unless_taken(store: Store) -> None:
    message = {
        "role": "user",
        "content": [{"type": "text", "text": "hi"}],
        "id": "01HZ0010000000000000000000",
    }
    first = store.import_document([message], "a", "canonical").sessions[0]
    second = store.import_document(
        [message, {**message, "id": "01HZ0010000000000000000009"}], "b", "canonical"
    ).sessions[0]
    assert store.message_ids(_sid(first)) == ["01HZ0010000000000000000000"]
    made, kept = store.message_ids(_sid(second))
    assert made != "01HZ0010000000000000000000" and kept == "01HZ0010000000000000000009"
    assert store.id_map(_sid(second), "message") == {"01HZ0010000000000000000000": made}
    # Exported, the message is as it was read.
    assert store.export(_sid(second)).bodies[0][0] == message


def test_exporting_an_unknown_session_is_a_coded_error(store: Store) -> None:
    with pytest.raises(ConversionError) as caught:
        store.export("nope")
    assert caught.value.code == "unknown_document"


def test_an_empty_or_unreadable_document_imports_nothing(store: Store) -> None:
    report = store.import_document({"what": "ever"}, "x")
    assert report.sessions == [] and report.refused[0].code == "unknown_format"
    assert store.sessions() == []
