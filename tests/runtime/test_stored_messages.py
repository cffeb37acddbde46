"""Stored messages (`kind="messages"`): agent memories and transcripts, in any format, with
the container they came in; the seed-003 memory converted between Anthropic and OpenAI shape
without losing any structure; and `tool_exchanges` pairing calls with results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua import ConversionError, convert, detect, tool_exchanges
from interlingua.cli.commands import main
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.generated.adapters import ADAPTERS

# Seed 003's memory, in Anthropic shape: results in a user turn, pointing at their call.
MEMORY: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "Process this order"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "I'll process the order"},
                {
                    "type": "tool_use",
                    "id": "toolu_abc123",
                    "name": "create_invoice",
                    "input": {"amount": 1500},
                },
                {"type": "tool_use", "id": "toolu_def456", "name": "notify", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_abc123",
                    "content": '{"invoice_id": "INV-001"}',
                },
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_def456",
                    "content": "failed",
                    "is_error": True,
                },
            ],
        },
    ]
}


def test_the_memory_is_detected_as_anthropic_stored_messages() -> None:
    found = detect(MEMORY)
    assert (found.status, found.format, found.kind) == ("detected", "anthropic", "messages")


NO_CALL_IDS = {"chatml"}


@pytest.mark.parametrize("target", sorted(ADAPTERS))
def test_the_memory_goes_to_every_format_and_back_with_the_same_structure(target: str) -> None:
    there = convert(MEMORY, "anthropic", target, "messages")
    # Only an error flag may be lost, and only where the format has none (reported); call ids
    # only where the format's tool-call convention has none (ChatML).
    allowed = {("field_dropped", "is_error")}
    if target in NO_CALL_IDS:
        allowed |= {("field_dropped", "id"), ("field_dropped", "tool_call_id")}
    assert {(x.code, x.pointer.rsplit("/", 1)[-1]) for x in there.losses} <= allowed
    if there.losses:
        return
    assert detect(there.output).kind in ("messages", "request")  # gemini's holder is a body too
    back = convert(there.output, target, "anthropic", "messages", id_map=there.id_map)
    canonical = without_raw(convert(MEMORY, "anthropic", "canonical", "messages").output)
    again = without_raw(convert(back.output, "anthropic", "canonical", "messages").output)
    assert again == canonical


def test_in_openai_shape_results_are_tool_messages() -> None:
    out = convert(MEMORY, "anthropic", "openai-chat", "messages").output
    assert [m["role"] for m in out["messages"]] == ["user", "assistant", "tool", "tool"]
    assert [m.get("tool_call_id") for m in out["messages"][2:]] == ["toolu_abc123", "toolu_def456"]
    assert detect(out).format == "openai-chat"


@pytest.mark.parametrize(
    ("payload", "shape"),
    [
        (MEMORY["messages"], list),
        (MEMORY, dict),
        (MEMORY["messages"][1], dict),
    ],
    ids=["list", "holder", "one-turn"],
)
def test_the_container_is_kept(payload: Any, shape: type) -> None:
    canonical = convert(payload, "anthropic", "canonical", "messages").output
    back = convert(canonical, "canonical", "anthropic", "messages").output
    assert back == payload
    assert type(canonical) is shape


def test_a_conversation_with_an_envelope_reports_what_stored_messages_cannot_keep() -> None:
    conversation = {
        "schema_version": 1,
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    }
    result = convert(conversation, "canonical", "openai-chat", "messages")
    assert result.output == {"messages": [{"role": "user", "content": "hi"}]}
    assert [(x.pointer, x.code) for x in result.losses] == [("/model", "field_dropped")]


def test_a_canonical_message_list_is_checked_message_by_message() -> None:
    with pytest.raises(ConversionError) as raised:
        convert(
            [{"role": "user", "content": []}, {"role": "nobody"}],
            "canonical",
            "anthropic",
            "messages",
        )
    assert raised.value.pointer.startswith("/0") or raised.value.pointer.startswith("/1")


def test_tool_exchanges_pair_calls_and_results_by_id() -> None:
    canonical = convert(MEMORY, "anthropic", "canonical", "messages").output
    exchanges = tool_exchanges(canonical)
    assert [(x.id, x.name, x.status) for x in exchanges] == [
        ("toolu_abc123", "create_invoice", "answered"),
        ("toolu_def456", "notify", "failed"),
    ]
    first = exchanges[0].as_json()
    assert first["call"] == "/messages/1/content/1" and first["arguments"] == {"amount": 1500}
    assert first["result"] == "/messages/2/content/0"


def test_unanswered_orphan_and_duplicate() -> None:
    result = {"type": "tool_result", "tool_call_id": "c1", "content": []}
    messages = [
        {
            "role": "tool",
            "content": [{"type": "tool_result", "tool_call_id": "nope", "content": []}],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "tool_call", "id": "c1", "name": "f", "arguments": {}},
                {"type": "tool_call", "id": "c2", "name": "g", "arguments": {}},
            ],
        },
        {"role": "tool", "content": [result, result]},
        "not a message",
        {"role": "user", "content": "not a list"},
    ]
    statuses = [(x.id, x.status) for x in tool_exchanges(messages)]
    assert statuses == [
        ("nope", "orphan"),
        ("c1", "answered"),
        ("c2", "unanswered"),
        ("c1", "duplicate"),
    ]
    response = {"message": messages[1]}
    assert [x.status for x in tool_exchanges(response)] == ["unanswered", "unanswered"]
    assert [x.status for x in tool_exchanges(messages[1])] == ["unanswered", "unanswered"]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_pairs_lists_every_call_and_exits_one_when_one_is_not_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = json.loads(json.dumps(MEMORY))
    del memory["messages"][2]["content"][1]
    path = tmp_path / "memory.json"
    path.write_text(json.dumps(memory))
    code, out, _ = _run(["pairs", str(path)], capsys)
    assert code == 1
    assert out.splitlines()[0] == "anthropic messages: 1 answered, 1 unanswered"
    code, out, _ = _run(["pairs", "--json", str(path)], capsys)
    assert [x["status"] for x in json.loads(out)["exchanges"]] == ["answered", "unanswered"]
    path.write_text(json.dumps(MEMORY))
    code, out, _ = _run(["pairs", "--from", "anthropic", str(path)], capsys)
    assert code == 0 and "1 answered, 1 failed" in out


def test_pairs_reads_one_memory_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai = convert(MEMORY, "anthropic", "openai-chat", "messages").output
    path = tmp_path / "memories.jsonl"
    path.write_text(json.dumps(MEMORY) + "\n\n" + json.dumps(openai) + "\n{broken\n[1]\n")
    code, out, err = _run(["pairs", "--json", str(path)], capsys)
    assert code == 2
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["line"], r["format"]) for r in rows] == [(1, "anthropic"), (3, "openai-chat")]
    errors = [json.loads(line)["error"] for line in err.splitlines()]  # --json: errors too
    assert [(e["line"], e["code"]) for e in errors] == [(4, "invalid_json"), (5, "unknown_format")]
    code, out, _ = _run(["pairs", "--jsonl", "--from", "openai-chat", str(path)], capsys)
    assert out.startswith("line 1:") is False and "line 3: openai-chat messages" in out


def test_pairs_errors_are_coded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["pairs", "--from", "fax", "-"], capsys)
    assert code == 2 and "unknown_format" in err
    path = tmp_path / "bad.json"
    path.write_text('[{"role": "tool", "content": "x"}]')
    code, _, err = _run(["pairs", "--from", "openai-chat", "--kind", "messages", str(path)], capsys)
    assert code == 2 and "missing_field" in err
    code, _, err = _run(["pairs", str(tmp_path / "missing.jsonl")], capsys)
    assert code == 2 and "unreadable_input" in err


# Seed 003's sample memories as the framework keeps them by default ("OpenAI format"): each
# result a `tool` turn whose content is a result block pointing at its call by tool_use_id.
TOOL_TURN_MEMORY: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "Process this order"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "I'll process the order"},
                {"type": "tool_use", "id": "call_abc123", "name": "create_invoice", "input": {}},
            ],
        },
        {
            "role": "tool",
            "content": [
                {"type": "tool_result", "tool_use_id": "call_abc123", "content": "INV-001"}
            ],
        },
    ]
}


def test_a_tool_turn_of_result_blocks_is_paired_and_converted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "memory.json"
    path.write_text(json.dumps(TOOL_TURN_MEMORY))
    code, out, _ = _run(["pairs", str(path)], capsys)
    assert code == 0
    assert out.splitlines()[0] == "umf request: 1 answered"
    openai = convert(TOOL_TURN_MEMORY, "umf", "openai-chat", "messages")
    assert not openai.losses
    assert openai.output["messages"][2] == {
        "role": "tool",
        "tool_call_id": "call_abc123",
        "content": "INV-001",
    }
    read = convert(TOOL_TURN_MEMORY, "umf", "canonical", "messages").output
    assert convert(read, "canonical", "umf", "messages").output == TOOL_TURN_MEMORY


def test_a_tool_turn_of_result_blocks_holds_nothing_else() -> None:
    memory = json.loads(json.dumps(TOOL_TURN_MEMORY))
    memory["messages"][2]["content"].append({"type": "text", "text": "x"})
    with pytest.raises(ConversionError) as caught:
        convert(memory, "umf", "canonical", "messages")
    assert (caught.value.code, caught.value.pointer) == ("unknown_variant", "/messages/2/content/1")


def test_a_result_block_outside_a_tool_turn_is_refused_where_results_are_turns() -> None:
    memory = json.loads(json.dumps(TOOL_TURN_MEMORY))
    memory["messages"][2]["role"] = "user"
    with pytest.raises(ConversionError) as caught:
        convert(memory, "umf", "canonical", "messages")
    # The wire schema says it: a result block sits in a tool message only.
    assert (caught.value.code, caught.value.pointer) == (
        "unknown_variant",
        "/messages/2/content/0/type",
    )


# --- a memory kept one turn per line (seed 003) ---------------------------------------------

SEED_003_TURNS = [
    {"role": "user", "content": "Process this order"},
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "I'll process the order"},
            {"type": "tool_use", "id": "toolu_abc123", "name": "create_invoice", "input": {"a": 1}},
        ],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_abc123", "content": "{}"}],
    },
]


def test_pairs_reads_the_lines_as_one_memory_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "memory.jsonl"
    path.write_text("".join(json.dumps(turn) + "\n" for turn in SEED_003_TURNS))
    code, out, _ = _run(["pairs", str(path)], capsys)
    assert code == 1 and "orphan" in out  # line by line, the result's call is on another line
    code, out, _ = _run(["pairs", "--memory", "--json", str(path)], capsys)
    assert code == 0
    found = json.loads(out)
    assert (found["format"], found["kind"]) == ("anthropic", "messages")
    assert [(x["status"], x["call"], x["result"]) for x in found["exchanges"]] == [
        ("answered", "/1/content/1", "/2/content/0")
    ]
    path.write_text(json.dumps(SEED_003_TURNS[0]) + "\n{broken\n")
    code, _, err = _run(["pairs", "--memory", str(path)], capsys)
    assert code == 2 and "line 2: invalid_json" in err


def test_seed_003_anthropic_memory_is_anthropic_stored_messages_and_converts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = {"messages": SEED_003_TURNS}
    found = detect(memory)
    assert (found.status, found.format, found.kind) == ("detected", "anthropic", "messages")
    path = tmp_path / "memory.json"
    path.write_text(json.dumps(memory))
    code, out, _ = _run(["convert", "--from", "auto", "--to", "openai-chat", str(path)], capsys)
    assert code == 0
    turns = json.loads(out)["messages"]
    assert [t["role"] for t in turns] == ["user", "assistant", "tool"]
    assert turns[2]["tool_call_id"] == "toolu_abc123"
