"""`interlingua validate`: exit codes, outputs, and hostile inputs, run as a real process."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interlingua.cli.commands import main

VALID = {"role": "user", "content": [{"type": "text", "text": "hi"}]}


def run(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "interlingua", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_valid_document_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(VALID))
    done = run(["validate", str(path)])
    assert (done.returncode, json.loads(done.stdout)) == (0, [])


def test_invalid_document_exits_1_with_findings_on_stdout() -> None:
    done = run(["validate", "-"], json.dumps({"role": "user", "content": []}).encode())
    assert done.returncode == 1
    assert json.loads(done.stdout) == [
        {
            "code": "empty_content",
            "path": "/content",
            "message": "content must not be empty unless role is system or extensions/completion/status is partial",
            "severity": "error",
        }
    ]


def test_warnings_alone_keep_exit_0() -> None:
    done = run(
        ["validate", "-"], json.dumps({"role": "user", "content": [{"type": "poll"}]}).encode()
    )
    assert done.returncode == 0
    assert [f["code"] for f in json.loads(done.stdout)] == ["unknown_part_type"]


def test_type_option() -> None:
    done = run(["validate", "--type", "Usage", "-"], b'{"input_tokens": -1, "output_tokens": 2}')
    assert done.returncode == 1
    assert json.loads(done.stdout)[0]["code"] == "below_minimum"


def test_unknown_document_exits_1() -> None:
    done = run(["validate", "-"], b'{"hello": "world"}')
    assert done.returncode == 1 and json.loads(done.stdout)[0]["code"] == "unknown_document"


@pytest.mark.parametrize(
    ("stdin", "code"),
    [
        (b'{"role": "user", "content": [', "invalid_json"),
        (b"[" * 10_000 + b"]" * 10_000, "nesting_too_deep"),
        (b'{"role": "user", "role": "tool"}', "duplicate_key"),
        (b'{"t": NaN}', "non_finite_number"),
        (b'{"t": "\\udc00"}', "invalid_unicode"),
        (b'{"t": "' + b"a" * 50_000_000 + b'"}', "input_too_large"),
    ],
    ids=["truncated", "deep", "duplicate", "nan", "surrogate", "50MB-string"],
)
def test_hostile_input_exits_2_with_a_coded_error(stdin: bytes, code: str) -> None:
    done = run(["validate", "--json", "-"], stdin)
    assert done.returncode == 2
    assert done.stdout == b""
    error = json.loads(done.stderr)["error"]
    assert error["code"] == code
    assert b"Traceback" not in done.stderr


def test_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--json", str(tmp_path / "missing.json")]) == 2
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "unreadable_input"


def test_max_bytes_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(VALID))
    assert main(["validate", "--max-bytes", "10", str(path)]) == 2
    assert capsys.readouterr().err.startswith("error: input_too_large at /: ")
