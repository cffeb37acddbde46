"""Every subcommand reports bad input in the one shape: `error: CODE at POINTER: MESSAGE` on
stderr, or with --json one `{"error": {"code", "path", "message"}}` object per line; unknown
names (formats, kinds, types, capabilities) are refused with the closest known one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interlingua.cli.commands import main

HUMAN = re.compile(r"^error: (?P<code>[a-z_]+) at (?P<path>/\S*): (?P<message>.+)$")

#: Each subcommand that reads a document, ready for its input path.
COMMANDS = {
    "validate": ["validate"],
    "views": ["views"],
    "convert": ["convert", "--from", "openai-chat", "--to", "anthropic"],
    "detect": ["detect"],
    "pairs": ["pairs"],
    "stream": ["stream", "--from", "anthropic", "--to", "openai-chat"],
}
#: A stream's body is not one JSON document: a chunk that is not JSON ends the translated
#: stream with the target's error chunk (exit 1), so it meets only the unreadable file.
_JSON_DOCUMENT = [name for name in COMMANDS if name != "stream"]


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    broken = tmp_path / "broken.json"
    broken.write_text('{"messages": [', encoding="utf-8")
    return {
        "missing": (tmp_path / "missing.json", "unreadable_input"),
        "broken": (broken, "invalid_json"),
    }


def _stderr(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    code = main(argv)
    return code, capsys.readouterr().err.splitlines()


@pytest.mark.parametrize("bad", ["missing", "broken"])
def test_every_command_reports_the_same_bad_input_the_same_way(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, expected = _bad_inputs(tmp_path)[bad]
    names = list(COMMANDS) if bad == "missing" else _JSON_DOCUMENT
    human, machine = {}, {}
    for name in names:
        code, lines = _stderr([*COMMANDS[name], str(path)], capsys)
        assert code == 2, name
        found = HUMAN.match(lines[0])
        assert found, (name, lines)
        human[name] = found.groupdict()
        code, lines = _stderr([*COMMANDS[name], "--json", str(path)], capsys)
        assert code == 2, name
        (record,) = [json.loads(line) for line in lines]
        assert set(record) == {"error"} and set(record["error"]) == {"code", "path", "message"}
        machine[name] = record["error"]
    assert {r["code"] for r in human.values()} == {expected}
    assert {(r["code"], r["path"] or "/", r["message"]) for r in machine.values()} == {
        (r["code"], r["path"], r["message"]) for r in human.values()
    }


@pytest.mark.parametrize("name", ["validate", "views", "convert", "pairs", "stream"])
def test_an_unknown_format_name_suggests_the_closest(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*COMMANDS[name]]
    if "--from" in argv:
        argv[argv.index("--from") + 1] = "openai"
    else:
        argv += ["--from", "openai"]
    code, lines = _stderr([*argv, "--json", str(tmp_path / "x.json")], capsys)
    assert code == 2
    (record,) = [json.loads(line)["error"] for line in lines]
    assert record["code"] == "unknown_format"
    assert "(did you mean openai-chat?)" in record["message"]


def test_unknown_capability_kind_and_type_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = tmp_path / "m.json"
    document.write_text(json.dumps({"role": "user", "content": [{"type": "text", "text": "x"}]}))
    code, lines = _stderr(["views", "--capabilities", "read_role", str(document)], capsys)
    assert code == 2
    assert lines == [
        lines[0],
    ] and lines[0].startswith(
        "error: not_in_enum at /: unknown capability 'read_role' (did you mean read_roles?)"
    )
    code, lines = _stderr(
        ["convert", "--from", "auto", "--to", "anthropic", "--kind", "req", str(document)], capsys
    )
    assert code == 2 and "unknown kind 'req' (did you mean request?)" in lines[0]
    code, lines = _stderr(["validate", "--type", "Mesage", str(document)], capsys)
    assert code == 2 and "unknown type 'Mesage' (did you mean Message?)" in lines[0]
    code, lines = _stderr(["views", "--capabilities", "read_roles", str(document)], capsys)
    assert code == 0 and not lines


def test_validate_and_views_read_any_format_through_its_adapter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = tmp_path / "body.json"
    body.write_text(
        json.dumps(
            {
                "model": "m",
                "max_tokens": 64,
                "system": "be brief",
                "messages": [{"role": "user", "content": "hi"}],
            }
        )
    )
    for source in ("anthropic", "auto"):
        assert main(["validate", "--from", source, str(body)]) == 0
        assert json.loads(capsys.readouterr().out) == []
        assert main(["views", "--from", source, str(body)]) == 0
        table = capsys.readouterr().out
        assert "be brief" in table and "hi" in table
    # Read as canonical (the default), the same body is no document.
    assert main(["validate", str(body)]) == 1
    capsys.readouterr()
    # A body that is not valid in the named format is a coded error, exit 2.
    assert main(["validate", "--from", "gemini", str(body)]) == 2
    assert HUMAN.match(capsys.readouterr().err.splitlines()[0])


def test_a_canonical_document_is_json_never_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "t.txt"
    text.write_text("hello")
    assert main(["validate", str(text)]) == 2
    assert capsys.readouterr().err.startswith("error: invalid_json at /: ")


def test_a_body_no_format_accepts_is_unknown_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = tmp_path / "body.json"
    body.write_text("[1, 2]")
    assert main(["views", "--from", "auto", "--json", str(body)]) == 2
    (record,) = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert record["error"]["code"] == "unknown_format"
