"""`interlingua migrate`: the document on stdout, losses and errors on stderr, exit codes."""

import io
import json
from pathlib import Path

import pytest

from interlingua.cli.commands import main

V2_MESSAGE = {
    "role": "assistant",
    "content": [{"type": "resource_ref", "uri": "u", "resource_type": "file", "range": {}}],
}


def _file(tmp_path: Path, document: object) -> str:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_up_and_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = {"input_tokens": 1, "output_tokens": 2, "cached_input_tokens": 1}
    response = {
        "schema_version": 1,
        "model": "m",
        "stop_reason": "call",
        "usage": usage,
        "message": {"role": "assistant", "content": [{"type": "text", "text": "x"}]},
    }
    assert main(["migrate", "--to", "2", _file(tmp_path, response)]) == 0
    up = json.loads(capsys.readouterr().out)
    assert up["stop_reason"] == "tool_call" and up["usage"]["cache_read_input_tokens"] == 1
    assert main(["migrate", "--to", "1", _file(tmp_path, up)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == response and err == ""


def test_losses_go_to_stderr_and_strict_refuses_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, V2_MESSAGE)
    assert main(["migrate", "--to", "1", "--from-version", "2", path]) == 0
    out, err = capsys.readouterr()
    assert "range" not in json.loads(out)["content"][0]
    assert err.startswith("loss: field_dropped at /content/0/range: ")
    assert main(["migrate", "--to", "1", "--from-version", "2", "--strict", "--json", path]) == 1
    out, err = capsys.readouterr()
    assert out == "" and json.loads(err)["loss"]["path"] == "/content/0/range"


@pytest.mark.parametrize(
    ("content", "args", "expected"),
    [
        ("{", [], "error: invalid_json at "),
        ('{"schema_version": 3, "messages": []}', [], "error: const_mismatch at /schema_version: "),
        ('{"a": 1}', ["--json"], '{"error": {"code": "unknown_document", "path": ""'),
    ],
)
def test_bad_input_is_a_coded_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, args: list[str], expected: str
) -> None:
    path = tmp_path / "doc.json"
    path.write_text(content, encoding="utf-8")
    assert main(["migrate", "--to", "1", *args, str(path)]) == 2
    assert capsys.readouterr().err.startswith(expected)


def test_an_unreadable_file_and_standard_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["migrate", "--to", "2", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().err.startswith("error: unreadable_input at /: cannot read")

    class Stdin:
        buffer = io.BytesIO(b'{"schema_version": 1, "messages": []}')

    monkeypatch.setattr("sys.stdin", Stdin)
    assert main(["migrate", "--to", "2", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == {"schema_version": 2, "messages": []}
