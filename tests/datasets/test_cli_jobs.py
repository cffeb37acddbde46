"""`interlingua convert --jobs N` on JSON Lines: the same stdout, report and summary as one
process, for a batch long enough to start the pool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interlingua.cli.commands import main

GOOD = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 9}
LOSSY = {"model": "m", "seed": 7, "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}
GEMINI = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}


@pytest.mark.parametrize("source", ["openai-chat", "auto"])
def test_two_jobs_write_what_one_writes(
    source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kinds = [json.dumps(GOOD), json.dumps(LOSSY), "", "{", json.dumps(GEMINI)]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(kinds[n % 5] + "\n" for n in range(700)), encoding="utf-8")
    runs = []
    for jobs in ("1", "2"):
        written = tmp_path / f"report-{jobs}.jsonl"
        argv = ["convert", "--from", source, "--to", "anthropic", "--jobs", jobs]
        assert main([*argv, "--report", str(written), str(path)]) == 2  # some lines are bad
        out, err = capsys.readouterr()
        runs.append((out, err, written.read_text(encoding="utf-8")))
    assert runs[0] == runs[1]
    out, err, report = runs[0]
    assert len(out.splitlines()) == len(report.splitlines()) == 700
    summary = err.splitlines()[-1]
    if source == "auto":  # openai-chat and gemini lines: each pair's losses are named
        assert summary.startswith("summary: 560 lines, 420 converted, 140 failed; losses: ")
        assert summary.endswith(
            "; losses by pair: gemini → anthropic 280, openai-chat → anthropic 140"
        )
    else:  # the gemini lines are not openai-chat bodies
        assert summary.startswith("summary: 560 lines, 280 converted, 280 failed; losses: ")


@pytest.mark.parametrize("as_json", [False, True])
def test_the_workers_write_the_problems_as_the_command_would(
    as_json: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --report the losses go to stderr, rendered by the workers (as JSON with
    --json): the same lines, in the same order, as one process writes."""
    kinds = [json.dumps(GOOD), json.dumps(LOSSY), "", "{", json.dumps(GEMINI)]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(kinds[n % 5] + "\n" for n in range(700)), encoding="utf-8")
    runs = []
    for jobs in ("1", "2"):
        argv = ["convert", "--from", "openai-chat", "--to", "anthropic", "--jobs", jobs]
        assert main([*argv, *(["--json"] if as_json else []), str(path)]) == 2
        runs.append(capsys.readouterr())
    assert runs[0] == runs[1]
    problems = runs[0].err.splitlines()[:-1]
    assert len(problems) == 140 + 140 + 140  # per 5 lines: a loss, a broken line, a gemini body
    if as_json:
        first = json.loads(problems[0])
        assert first == {"loss": {**first["loss"], "line": 2}}
        assert json.loads(runs[0].err.splitlines()[-1])["summary"]["lines"] == 560
    else:
        assert problems[0].startswith("loss: line 2: parameter_dropped at /parameters/seed: ")
        assert problems[1].startswith("error: line 4: invalid_json at /: ")
