"""`tool-id` and `card`: exit codes, outputs, and hostile inputs (coded errors, no tracebacks)."""

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from interlingua.gateway.cli import register
from interlingua.gateway.tool_id import hash8


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="interlingua")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


def error_of(err: str) -> dict[str, Any]:
    assert "Traceback" not in err
    envelope: dict[str, Any] = json.loads(err)
    assert set(envelope) >= {"error", "message", "path", "retryable"}
    assert "\n" not in envelope["message"]
    return envelope


SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def test_tool_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schema = write(tmp_path, "s.json", SCHEMA)
    assert run(["tool-id", "read_file", "--schema", schema], capsys) == (
        0,
        f"mcp:read_file#{hash8('read_file', SCHEMA)}\n",
        "",
    )
    assert (
        run(["tool-id", "github.create_issue", "--schema", schema, "--version", "1.4.0"], capsys)[1]
        == "github:create_issue@1.4.0\n"
    )
    assert (
        run(["tool-id", "create", "--schema", schema, "--version", "2", "--server", "GH"], capsys)[
            1
        ]
        == "gh:create@2\n"
    )


def test_tool_id_reads_the_schema_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(SCHEMA).encode())))
    assert run(["tool-id", "read_file", "--schema", "-"], capsys)[:2] == (
        0,
        f"mcp:read_file#{hash8('read_file', SCHEMA)}\n",
    )


def deep_schema(depth: int) -> str:
    return '{"properties": {"a": ' * depth + "{}" + "}}" * depth


@pytest.mark.parametrize(
    ("argv", "schema", "code", "cause"),
    [
        (["x" * 10_000], SCHEMA, "TOOL_ID_INVALID", None),
        (["create issue"], SCHEMA, "TOOL_ID_INVALID", None),
        (["github.x", "--version", "1 0"], SCHEMA, "TOOL_ID_INVALID", None),
        (["read_file"], ["not", "an", "object"], "SCHEMA_INVALID", None),
        (["read_file"], "null", "SCHEMA_INVALID", None),
        (["read_file"], {"type": "strng"}, "SCHEMA_INVALID", None),
        (["read_file"], deep_schema(1000), "SCHEMA_INVALID", "nesting_too_deep"),
        (["read_file"], deep_schema(100), "SCHEMA_INVALID", None),
        (["read_file"], "{truncated", "SCHEMA_INVALID", "invalid_json"),
        (["read_file"], '{"a": 1, "a": 2}', "SCHEMA_INVALID", "duplicate_key"),
    ],
)
def test_tool_id_bad_input(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    schema: Any,
    code: str,
    cause: str | None,
) -> None:
    path = write(tmp_path, "s.json", schema)
    exit_code, out, err = run(["tool-id", *argv[:1], "--schema", path, *argv[1:]], capsys)
    envelope = error_of(err)
    assert (exit_code, out, envelope["error"]) == (2, "", code)
    if cause is not None:
        assert envelope["details"]["cause"] == cause


def test_tool_id_missing_schema_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exit_code, _, err = run(
        ["tool-id", "read_file", "--schema", str(tmp_path / "absent.json")], capsys
    )
    envelope = error_of(err)
    assert (exit_code, envelope["error"], envelope["details"]["cause"]) == (
        2,
        "SCHEMA_INVALID",
        "unreadable_input",
    )


TOOL = {
    "definition": {
        "name": "github.create_issue",
        "description": "Create an issue.\nNeeds write access.",
        "input_schema": {
            "type": "object",
            "properties": {"title": {"anyOf": [{"type": "string"}]}},
        },
        "side_effects": "network",
    },
    "version": "1.4.0",
    "tags": ["github"],
}


def test_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exit_code, out, err = run(["card", write(tmp_path, "t.json", TOOL), "--score", "0.5"], capsys)
    assert (exit_code, err) == (0, "")
    card = json.loads(out)
    assert card["id"] == "github:create_issue@1.4.0"
    assert card["description"] == "Create an issue. Needs write access."
    assert card["score"] == 0.5
    assert (
        "input_schema" not in out and "anyOf" not in out
    )  # a non-portable schema is fine; it never shows


@pytest.mark.parametrize(
    ("document", "code"),
    [
        ("[1, 2", "ARGS_INVALID"),
        ({"definition": {"input_schema": {}}}, "ARGS_INVALID"),
        ({"definition": {"name": "x" * 10_000, "input_schema": {}}}, "ARGS_INVALID"),
        ({"definition": {"name": "create issue", "input_schema": {}}}, "TOOL_ID_INVALID"),
        ({"definition": {"name": "x", "input_schema": {"type": 5}}}, "SCHEMA_INVALID"),
        (
            {
                "definition": {"name": "x", "input_schema": {}},
                "tags": [
                    "Hvd2HqKXKFmvB1qvZ0Wavj1Z",
                    "L4gj3HpWXmWp3pZd80mLnZWg",
                    "X9K1HW2Lj1jdvv9dFddnXWv5",
                    "aj10BW49S1235qF96937aHHH",
                ],
            },
            "CARD_TOO_LARGE",
        ),
    ],
)
def test_card_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], document: Any, code: str
) -> None:
    exit_code, out, err = run(["card", write(tmp_path, "t.json", document)], capsys)
    assert (exit_code, out, error_of(err)["error"]) == (2, "", code)


def test_card_of_a_tool_without_an_input_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A definition may leave its input schema out (the tool takes no arguments): once
    refused as ARGS_INVALID, now a card without a schema."""
    exit_code, out, _ = run(
        ["card", write(tmp_path, "t.json", {"definition": {"name": "x"}})], capsys
    )
    assert exit_code == 0
    assert json.loads(out)["has_schema"] is False


def test_card_with_a_non_finite_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exit_code, _, err = run(["card", write(tmp_path, "t.json", TOOL), "--score", "nan"], capsys)
    assert (exit_code, error_of(err)["error"]) == (2, "ARGS_INVALID")


def test_tool_id_with_a_non_utf8_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression (issue 22): a name of undecodable bytes (a lone surrogate once Python has
    decoded argv) crashed `tool-id` with UnicodeEncodeError."""
    schema = write(tmp_path, "s.json", SCHEMA)
    code, out, err = run(["tool-id", "read\udcff", "--schema", schema], capsys)
    assert (code, out) == (2, "")
    assert error_of(err)["error"] == "TOOL_ID_INVALID"


def test_tool_id_process_with_non_utf8_argv(tmp_path: Path) -> None:
    schema = write(tmp_path, "s.json", SCHEMA)
    done = subprocess.run(
        [sys.executable, "-m", "interlingua", "tool-id", b"read\xff", "--schema", schema],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 2
    assert error_of(done.stderr.decode())["error"] == "TOOL_ID_INVALID"
