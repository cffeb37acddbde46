"""`interlingua convert` on JSON Lines: a progress bar only on a terminal, and no format
detection per line when --from names the format."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import interlingua.conversion.detector
from interlingua.cli.commands import main
from interlingua.conversion.detection import Detection

BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 9}


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _batch(tmp_path: Path, lines: int) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(BODY) + "\n" for _ in range(lines)), encoding="utf-8")
    return path


def test_a_progress_bar_runs_on_a_terminal_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _batch(tmp_path, 3)
    argv = ["convert", "--from", "openai-chat", "--to", "anthropic", str(path)]
    assert main(argv) == 0
    plain = capsys.readouterr().err
    assert plain == "summary: 3 lines, 3 converted, 0 failed; losses: none\n"
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(argv) == 0
    shown = terminal.getvalue()
    size = path.stat().st_size
    assert "\r" in shown and f"/{size} " in shown  # tqdm's bar, over the file's bytes
    assert shown.rstrip().endswith("summary: 3 lines, 3 converted, 0 failed; losses: none")


def test_with_from_no_line_is_run_through_detection(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[object] = []
    real = interlingua.conversion.detector.detect

    def counting(*args: object, **kwargs: object) -> Detection:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(interlingua.conversion.detector, "detect", counting)
    path = _batch(tmp_path, 5)
    assert main(["convert", "--from", "openai-chat", "--to", "anthropic", str(path)]) == 0
    assert len(calls) == 1  # the first line's kind holds for the batch
    assert len(capsys.readouterr().out.splitlines()) == 5
    calls.clear()
    argv = ["convert", "--from", "openai-chat", "--kind", "request", "--to", "anthropic"]
    assert main([*argv, str(path)]) == 0
    assert calls == []
    calls.clear()
    assert main(["convert", "--from", "auto", "--to", "anthropic", str(path)]) == 0
    assert len(calls) == 5  # auto: each line on its own


def test_json_errors_and_summary_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(BODY) + "\n{\n", encoding="utf-8")
    argv = ["convert", "--from", "openai-chat", "--to", "anthropic", "--json", str(path)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert json.loads(out.splitlines()[1])["error"]["line"] == 2
    records = [json.loads(line) for line in err.splitlines()]
    assert [next(iter(r)) for r in records][-2:] == ["error", "summary"]
    assert records[-1]["summary"]["lines"] == 2
    assert records[-1]["summary"]["failed"] == 1


def test_validate_from_auto_takes_a_canonical_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.json"
    path.write_text(
        json.dumps(
            {
                "schema_version": 1,
                "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}],
            }
        )
    )
    assert main(["validate", "--from", "auto", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []
