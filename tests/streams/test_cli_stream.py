"""`interlingua stream`: a recorded-shape stream of every streaming format, translated through
the command to every other streaming format, reads back as the same message (modulo the losses
it reported); output flows while the input is still open; errors end the output cleanly."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from interlingua.cli.commands import main
from interlingua.generated.streams import STREAMS
from interlingua.streams.engine import StreamTranslator, reassemble
from tests.streams.helpers import STREAM_CASES, framed, project


def _richest(fmt: str) -> Any:
    """The format's completed stream case with the most parts: its recorded-shape fixture."""
    done = [
        c
        for c in STREAM_CASES
        if c.input["format"] == fmt and c.expected["events"][-1]["type"] == "message_complete"
    ]
    return max(done, key=lambda c: len(c.expected["canonical"]["message"]["content"]))


PAIRS = [(s, t) for s in sorted(STREAMS) for t in sorted(STREAMS)]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=[f"{s}->{t}" for s, t in PAIRS])
def test_every_format_streams_to_every_format_through_the_command(
    source: str, target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = _richest(source)
    fixture = tmp_path / "in.txt"
    fixture.write_text("".join(framed(source, case.input["chunks"])), encoding="utf-8")
    report = tmp_path / "report.json"
    code, out, err = _run(
        ["stream", "--from", source, "--to", target, str(fixture), "--report", str(report)],
        capsys,
    )
    assert code == 0, err
    losses = json.loads(report.read_text(encoding="utf-8"))["losses"]
    assert err.count("loss: ") == len(losses)
    back = tmp_path / "out.txt"
    back.write_text(out, encoding="utf-8")
    code, events, _ = _run(["stream", "--from", target, "--to", "canonical", str(back)], capsys)
    assert code == 0
    again = reassemble([json.loads(line) for line in events.splitlines()], target)
    forward = StreamTranslator(source, target)  # the same translation, for its Loss objects
    for line in framed(source, case.input["chunks"]):
        forward.feed(line)
    forward.close()
    assert len(forward.losses) == len(losses)
    assert project(again, forward.losses) == project(case.expected["canonical"], forward.losses)


def test_output_flows_while_the_input_is_still_open() -> None:
    lines = framed("anthropic", _richest("anthropic").input["chunks"])
    process = subprocess.Popen(
        [sys.executable, "-m", "interlingua", "stream", "--from", "anthropic", "--to", "canonical"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        # The message_start event: its two lines and the blank line that ends it.
        process.stdin.write("".join(lines[:3]).encode())
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 30)
        assert ready, "nothing written while the input stays open: not incremental"
        assert json.loads(process.stdout.readline())["type"] == "message_start"
        process.stdin.write("".join(lines[3:]).encode())
        process.stdin.close()
        rest = process.stdout.read().decode()
        assert json.loads(rest.splitlines()[-1])["type"] == "message_complete"
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()


def test_a_chunk_that_is_not_json_ends_with_the_targets_error_and_exit_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = tmp_path / "in.txt"
    fixture.write_text('data: {"id": "x", "object": "chat.completion.chunk", \n\n')
    code, out, err = _run(
        ["stream", "--from", "openai-chat", "--to", "anthropic", str(fixture)], capsys
    )
    assert code == 1
    last = out.strip().splitlines()[-1]
    assert json.loads(last.removeprefix("data: "))["error"]["type"] == "invalid_json"
    assert "Traceback" not in err


def test_a_provider_error_is_written_as_the_targets_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = tmp_path / "in.txt"
    fixture.write_text(
        'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
        '"message": "Overloaded"}}\n\n'
    )
    code, out, _ = _run(
        ["stream", "--from", "anthropic", "--to", "openai-chat", str(fixture)], capsys
    )
    assert code == 1
    payloads = [line.removeprefix("data: ") for line in out.splitlines() if line]
    assert json.loads(payloads[0]) == {
        "error": {"message": "Overloaded", "type": "overloaded_error"}
    }
    assert payloads[-1] == "[DONE]"


def test_canonical_input_that_is_not_an_event_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = tmp_path / "in.txt"
    fixture.write_text('{"type": "message_start"}\n[1, 2]\n')
    code, out, _ = _run(
        ["stream", "--from", "canonical", "--to", "canonical", str(fixture)], capsys
    )
    assert code == 1
    assert [json.loads(line)["type"] for line in out.splitlines()] == ["message_start", "error"]


def test_canonical_input_that_stops_early_is_truncated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = tmp_path / "in.txt"
    fixture.write_text('{"type": "message_start"}\n')
    code, out, _ = _run(
        ["stream", "--from", "canonical", "--to", "anthropic", str(fixture)], capsys
    )
    assert code == 1
    assert '"stream_truncated"' in out


@pytest.mark.parametrize("name", ["nope", "auto"])
def test_unknown_formats_exit_two(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["stream", "--from", name, "--to", "anthropic", "-"], capsys)
    assert code == 2
    assert "unknown_format" in err


def test_an_unreadable_input_exits_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(
        ["stream", "--from", "anthropic", "--to", "anthropic", str(tmp_path / "missing")], capsys
    )
    assert code == 2
    assert "unreadable_input" in err


def test_an_unwritable_report_exits_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixture = tmp_path / "in.txt"
    fixture.write_text("".join(framed("anthropic", _richest("anthropic").input["chunks"])))
    code, _, err = _run(
        [
            "stream",
            "--from",
            "anthropic",
            "--to",
            "anthropic",
            str(fixture),
            "--report",
            str(tmp_path / "no" / "such" / "dir.json"),
        ],
        capsys,
    )
    assert code == 2
    assert "cannot write the report" in err


RECORDED_RESPONSES = sorted(
    (Path(__file__).resolve().parents[2] / "conformance/real/openai-responses/stream").glob("*.sse")
)


@pytest.mark.parametrize(
    "recorded", RECORDED_RESPONSES, ids=[p.stem[:60] for p in RECORDED_RESPONSES]
)
def test_recorded_responses_streams_go_to_anthropic_and_back_through_the_command(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, direct, _ = _run(
        ["stream", "--from", "openai-responses", "--to", "canonical", str(recorded)], capsys
    )
    assert code == 0
    expected = reassemble([json.loads(line) for line in direct.splitlines()], "openai-responses")
    there, back = tmp_path / "anthropic.sse", tmp_path / "responses.sse"
    code, out, _ = _run(
        ["stream", "--from", "openai-responses", "--to", "anthropic", str(recorded)], capsys
    )
    assert code == 0
    there.write_text(out, encoding="utf-8")
    code, out, _ = _run(
        ["stream", "--from", "anthropic", "--to", "openai-responses", str(there)], capsys
    )
    assert code == 0
    back.write_text(out, encoding="utf-8")
    code, events, _ = _run(
        ["stream", "--from", "openai-responses", "--to", "canonical", str(back)], capsys
    )
    assert code == 0
    again = reassemble([json.loads(line) for line in events.splitlines()], "openai-responses")

    def carried(response: dict[str, Any]) -> list[Any]:
        # What Anthropic has a block for: text and function calls (hosted tools' items are
        # unknown parts there, reported as dropped), and of a text's citations those of web
        # pages (a file's or a container file's has no Anthropic citation: reported).
        return [
            {
                **p,
                "citations": [c for c in p.get("citations", []) if c.get("type") == "url"],
            }
            for p in response["message"]["content"]
            if p["type"] in ("text", "tool_call")
        ]

    assert carried(again) == carried(expected) != []
    assert again["stop_reason"] == expected["stop_reason"]


def test_the_command_takes_the_endpoints_the_replay_check_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chunks = [
        {"candidates": [{"content": {"role": "model", "parts": [part]}, "index": 0}]}
        for part in (
            {"text": "Hm.", "thought": True, "thoughtSignature": "Q2lZQg=="},
            {"text": "Hi."},
        )
    ]
    chunks[-1]["candidates"][0]["finishReason"] = "STOP"
    fixture = tmp_path / "in.sse"
    fixture.write_text("".join(framed("gemini", chunks)), encoding="utf-8")
    argv = ["stream", "--from", "gemini", "--to", "gemini", str(fixture)]
    code, out, err = _run([*argv, "--source-endpoint", "vertex"], capsys)
    assert (code, "thoughtSignature" in out, err) == (0, True, "")
    code, out, err = _run(
        [*argv, "--source-endpoint", "vertex", "--target-endpoint", "gemini-api"], capsys
    )
    assert (code, "thoughtSignature" in out) == (0, False)
    assert "loss: thinking_not_replayable" in err
