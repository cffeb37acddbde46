"""`interlingua convert`, `detect` and `formats`: outputs, loss reports, exit codes, streams.

Run in-process through `main(argv)` (fast); the subprocess tests check the real entry point
and that a JSON Lines stream is answered line by line while its input is still open.
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from interlingua import convert, detect
from interlingua.cli.commands import main
from interlingua.conversion.converter import formats, kinds
from interlingua.documents.validation import validate
from interlingua.generated.adapters import ADAPTERS
from tests.bodies import SIGNED_GEMINI

ROOT = Path(__file__).resolve().parents[2] / "schemas"
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
# A system prompt, an image as a data URL, two parallel tool calls and their two results.
CONVERSATION: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "You are a travel assistant."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather and local time where this was taken?"},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "get_time", "arguments": '{"city":"Paris"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "18°C, cloudy"},
        {"role": "tool", "tool_call_id": "call_2", "content": "14:05"},
    ],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": name,
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
        for name in ("get_weather", "get_time")
    ],
    "max_completion_tokens": 500,
}
# `seed` has no place in an anthropic request: a loss.
LOSSY = {"model": "m", "seed": 7, "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}


def write(tmp_path: Path, payload: Any, name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return str(path)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


class _Stdin:
    """Stands in for sys.stdin: the CLI reads its bytes from `.buffer`."""

    def __init__(self, text: str) -> None:
        self.buffer = io.BytesIO(text.encode("utf-8"))


def loss_lines(losses: Any, line: int | None = None) -> list[str]:
    where = "" if line is None else f"line {line}: "
    return [f"loss: {where}{x.code} at {x.pointer or '/'}: {x.reason}" for x in losses]


# --- convert -----------------------------------------------------------------------------------


def test_openai_conversation_to_anthropic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        ["convert", "--from", "openai-chat", "--to", "anthropic", write(tmp_path, CONVERSATION)],
        capsys,
    )
    assert code == 0
    body = json.loads(out)
    assert out.startswith('{\n  "model": "gpt-4o"')  # indented by 2
    assert "18°C" in out  # not escaped
    # The system prompt is hoisted out of the turns.
    assert body["system"] == "You are a travel assistant."
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    first, calls, results = body["messages"]
    # The data-URL image becomes a base64 source.
    assert first["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": PNG},
    }
    assert [(b["type"], b["id"], b["input"]) for b in calls["content"]] == [
        ("tool_use", "call_1", {"city": "Paris"}),
        ("tool_use", "call_2", {"city": "Paris"}),
    ]
    # Both tool results sit in one user turn.
    assert results["content"] == [
        {"type": "tool_result", "tool_use_id": "call_1", "content": "18°C, cloudy"},
        {"type": "tool_result", "tool_use_id": "call_2", "content": "14:05"},
    ]
    # Every loss is on stderr, one line each, exactly as the API reports them.
    expected = convert(CONVERSATION, "openai-chat", "anthropic")
    assert body == expected.output
    assert err.splitlines() == loss_lines(expected.losses)


def test_losses_go_to_stderr_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        ["convert", "--from", "openai-chat", "--to", "anthropic", write(tmp_path, LOSSY)], capsys
    )
    assert code == 0
    assert "seed" not in json.loads(out)
    assert "loss: parameter_dropped at /parameters/seed: anthropic has no place for `seed`" in (
        err.splitlines()
    )
    assert all(line.startswith("loss: ") for line in err.splitlines())


def test_strict_mode_exits_1_with_the_losses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        [
            "convert",
            "--from",
            "openai-chat",
            "--to",
            "anthropic",
            "--strict",
            write(tmp_path, LOSSY),
        ],
        capsys,
    )
    assert (code, out) == (1, "")
    lines = err.splitlines()
    assert lines[:-1] == loss_lines(convert(LOSSY, "openai-chat", "anthropic").losses)
    assert lines[-1].startswith("error: lossy_conversion at /parameters/seed: ")


def test_strict_mode_without_losses_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    code, out, err = run(
        [
            "convert",
            "--from",
            "openai-chat",
            "--to",
            "canonical",
            "--strict",
            write(tmp_path, body),
        ],
        capsys,
    )
    assert (code, err) == (0, "")
    assert json.loads(out)["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    ]


def test_report_file_is_a_conversion_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    code, _, err = run(
        [
            "convert",
            "--from",
            "openai-chat",
            "--to",
            "anthropic",
            "--report",
            str(report),
            write(tmp_path, LOSSY),
        ],
        capsys,
    )
    assert (code, err) == (0, "")  # with --report, the losses are in the file only
    written = json.loads(report.read_text(encoding="utf-8"))
    assert validate(written, "ConversionReport") == []
    assert written == convert(LOSSY, "openai-chat", "anthropic").report()
    assert "parameter_dropped" in {loss["code"] for loss in written["losses"]}


def test_report_file_in_strict_mode_lists_what_would_be_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    argv = ["convert", "--from", "openai-chat", "--to", "anthropic", "--strict"]
    code, out, _ = run([*argv, "--report", str(report), write(tmp_path, LOSSY)], capsys)
    assert (code, out) == (1, "")
    written = json.loads(report.read_text(encoding="utf-8"))
    assert validate(written, "ConversionReport") == []
    assert written["losses"] == convert(LOSSY, "openai-chat", "anthropic").report()["losses"]


def test_unwritable_report_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["convert", "--from", "openai-chat", "--to", "anthropic", "--report", str(tmp_path)]
    for name in ("in.json", "in.jsonl"):  # the report path is a directory
        code, _, err = run([*argv, write(tmp_path, LOSSY, name)], capsys)
        assert code == 2
        assert err.splitlines()[-1].startswith(f"error: cannot write the report to {tmp_path}: ")


def test_thinking_option_is_passed_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = (
        ROOT
        / "formats/anthropic/examples/request/thinking_signature_and_redacted_thinking_replayed.json"
    )
    payload = json.loads(path.read_text(encoding="utf-8"))
    outputs = {}
    for mode in ("drop", "text"):
        argv = ["convert", "--from", "anthropic", "--to", "openai-chat", "--thinking", mode]
        code, out, _ = run([*argv, str(path)], capsys)
        assert code == 0
        outputs[mode] = json.loads(out)
        assert outputs[mode] == convert(payload, "anthropic", "openai-chat", thinking=mode).output
    assert outputs["drop"] != outputs["text"]


def test_kind_defaults_to_what_detection_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(ROOT / "formats/anthropic/examples/response/parallel_tool_use.json")
    for source in ("anthropic", "auto"):
        code, out, _ = run(["convert", "--from", source, "--to", "openai-chat", path], capsys)
        assert code == 0
        assert json.loads(out)["object"] == "chat.completion"
    code, _, err = run(
        ["convert", "--from", "anthropic", "--to", "openai-chat", "--kind", "request", path], capsys
    )
    assert code == 2
    assert err.startswith("error: missing_field at /max_tokens: ")


def test_from_auto_converts_what_it_detects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        ["convert", "--from", "auto", "--to", "anthropic", write(tmp_path, CONVERSATION)], capsys
    )
    assert code == 0
    expected = convert(CONVERSATION, "openai-chat", "anthropic")
    assert (json.loads(out), err.splitlines()) == (expected.output, loss_lines(expected.losses))


def test_from_auto_refuses_an_ambiguous_body(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    code, out, err = run(
        ["convert", "--from", "auto", "--to", "canonical", write(tmp_path, body)], capsys
    )
    assert (code, out) == (2, "")
    assert err.startswith(
        "error: unknown_format at /: cannot tell the format: "
        "ambiguous between anthropic request, openai-chat request: "
    )
    assert "--from" in err


def test_from_auto_refuses_an_unknown_body_with_each_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        ["convert", "--from", "auto", "--to", "canonical", write(tmp_path, {"hello": 1})], capsys
    )
    assert (code, out) == (2, "")
    first, *reasons = err.splitlines()
    assert (
        first == "error: unknown_format at /: cannot tell the format: no format's schema accepts it"
    )
    assert [r.split(":")[0].strip() for r in reasons] == [
        f"{fmt} {kind}" for fmt in formats() for kind in kinds(fmt)
    ]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'{"model": "m", "messages": [', "invalid_json"),
        (b'{"model": "m", "model": "n", "messages": []}', "duplicate_key"),
        (b'{"model": "m", "temperature": NaN, "messages": []}', "non_finite_number"),
        (b'\xff{"model": "m"}', "invalid_unicode"),
        (b'{"model": "m", "messages": [{"role": "wizard", "content": "hi"}]}', "not_in_enum"),
    ],
    ids=["truncated", "duplicate", "nan", "not-utf8", "bad-role"],
)
def test_invalid_input_exits_2_with_a_coded_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, code: str
) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(data)
    status, out, err = run(
        ["convert", "--from", "openai-chat", "--to", "anthropic", str(path)], capsys
    )
    assert (status, out) == (2, "")
    assert err.startswith(f"error: {code} at /")
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_body_without_its_envelope_is_read_as_stored_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "memory.json"
    path.write_text('{"messages": [{"role": "user", "content": "hi"}]}')
    status, out, _ = run(
        ["convert", "--from", "openai-chat", "--to", "anthropic", str(path)], capsys
    )
    assert status == 0
    assert json.loads(out) == {"messages": [{"role": "user", "content": "hi"}]}


def test_unreadable_file_and_unknown_format_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing.json")
    code, _, err = run(["convert", "--from", "openai-chat", "--to", "anthropic", missing], capsys)
    assert code == 2 and err.startswith("error: unreadable_input at /: cannot read ")
    code, _, err = run(["convert", "--from", "openai", "--to", "anthropic", missing], capsys)
    assert code == 2 and err.startswith(
        "error: unknown_format at /: no format 'openai' (did you mean openai-chat?); known: "
    )
    code, _, err = run(["convert", "--from", "auto", "--to", "auto", missing], capsys)
    assert code == 2 and err.startswith("error: unknown_format at /: no format 'auto'")


def test_input_too_large(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["convert", "--from", "openai-chat", "--to", "anthropic", "--max-bytes", "10"]
    code, _, err = run([*argv, write(tmp_path, LOSSY)], capsys)
    assert code == 2 and err.startswith("error: input_too_large at /: ")


def test_stdin_is_the_default_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    monkeypatch.setattr(sys, "stdin", _Stdin(json.dumps(body)))
    code, out, _ = run(["convert", "--from", "openai-chat", "--to", "canonical"], capsys)
    assert code == 0 and json.loads(out)["schema_version"] == 1


# --- JSON Lines --------------------------------------------------------------------------------

GOOD_1 = {"model": "m", "messages": [{"role": "user", "content": "one"}]}
GOOD_2 = {"model": "m", "messages": [{"role": "user", "content": "two"}]}
STREAM = "\n".join(
    [
        json.dumps(GOOD_1),  # line 1
        '{"model": "m", "messages": [',  # line 2: not JSON
        "",  # line 3: blank, skipped
        json.dumps(LOSSY),  # line 4: converts, with a loss
        json.dumps({"model": "m", "messages": [{"role": "wizard", "content": "x"}]}),  # line 5
        json.dumps(GOOD_2),  # line 6
    ]
)


def test_jsonl_converts_line_by_line_and_goes_on_past_bad_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.jsonl"  # the name makes it a stream
    path.write_text(STREAM + "\n", encoding="utf-8")
    code, out, err = run(
        ["convert", "--from", "openai-chat", "--to", "anthropic", str(path)], capsys
    )
    assert code == 2  # some line was bad
    out_lines = out.splitlines()
    assert len(out_lines) == 6  # output line N answers input line N
    assert [json.loads(out_lines[n]) for n in (0, 3, 5)] == [
        convert(body, "openai-chat", "anthropic").output for body in (GOOD_1, LOSSY, GOOD_2)
    ]
    assert out_lines[2] == ""  # a blank line stays blank
    assert json.loads(out_lines[1]) == {
        "error": {
            "code": "invalid_json",
            "path": "",
            "message": "Expecting value at line 1, column 29",
            "line": 2,
        }
    }
    assert json.loads(out_lines[4])["error"]["line"] == 5
    counted = Counter(
        loss.code
        for body in (GOOD_1, LOSSY, GOOD_2)
        for loss in convert(body, "openai-chat", "anthropic").losses
    )
    assert counted["parameter_dropped"] == 1
    by_code = ", ".join(f"{code} {n}" for code, n in sorted(counted.items()))
    assert err.splitlines()[-1] == f"summary: 5 lines, 3 converted, 2 failed; losses: {by_code}"
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert errors == [
        "error: line 2: invalid_json at /: Expecting value at line 1, column 29",
        errors[1],
    ]
    assert errors[1].startswith("error: line 5: not_in_enum at /messages/0/role: ")
    losses = [line for line in err.splitlines() if line.startswith("loss: ")]
    assert (
        "loss: line 4: parameter_dropped at /parameters/seed: anthropic has no place for `seed`"
        in (losses)
    )


def test_jsonl_flag_with_stdin_and_from_auto(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    anthropic = json.loads(
        (ROOT / "formats/anthropic/examples/response/parallel_tool_use.json").read_text()
    )
    # A bare {model, messages} body is valid Ollama as much as OpenAI: this one says which.
    openai = {**GOOD_1, "max_completion_tokens": 16}
    lines = "\n".join(json.dumps(x) for x in (openai, anthropic, CONVERSATION))
    monkeypatch.setattr(sys, "stdin", _Stdin(lines))
    code, out, _ = run(["convert", "--from", "auto", "--to", "canonical", "--jsonl", "-"], capsys)
    assert code == 0
    documents = [json.loads(line) for line in out.splitlines()]
    assert len(documents) == 3
    assert [validate(d) for d in documents] == [[], [], []]
    assert [("messages" in d, "message" in d) for d in documents] == [
        (True, False),
        (False, True),  # each line is detected on its own: this one is a response
        (True, False),
    ]


def test_jsonl_report_has_one_report_per_output_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(STREAM, encoding="utf-8")
    report = tmp_path / "report.jsonl"
    argv = ["convert", "--from", "openai-chat", "--to", "anthropic", "--report", str(report)]
    code, out, err = run([*argv, str(path)], capsys)
    assert code == 2
    lines = report.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(out.splitlines()) == 6  # in step with the output, line for line
    reports = [json.loads(lines[n]) for n in (0, 3, 5)]
    assert [json.loads(lines[n])["error"]["line"] for n in (1, 4)] == [2, 5]
    assert [validate(r, "ConversionReport") for r in reports] == [[], [], []]
    assert reports == [
        convert(b, "openai-chat", "anthropic").report() for b in (GOOD_1, LOSSY, GOOD_2)
    ]
    assert not [line for line in err.splitlines() if line.startswith("loss: ")]


def test_jsonl_strict_skips_lossy_lines_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, None, "in.jsonl")
    Path(path).write_text(
        "\n".join(json.dumps(x) for x in (GOOD_1, LOSSY, GOOD_2)), encoding="utf-8"
    )
    argv = ["convert", "--from", "openai-chat", "--to", "canonical", "--strict"]
    code, out, err = run([*argv, path], capsys)
    assert code == 0 and len(out.splitlines()) == 3  # canonical holds everything
    code, out, err = run(
        ["convert", "--from", "openai-chat", "--to", "anthropic", "--strict", path], capsys
    )
    assert code == 1
    written = [json.loads(line) for line in out.splitlines()]
    results = [convert(b, "openai-chat", "anthropic") for b in (GOOD_1, LOSSY, GOOD_2)]
    assert len(written) == 3 and any(r.losses for r in results)
    for number, (line, result) in enumerate(zip(written, results, strict=True), start=1):
        if result.losses:  # the refused line's error record stands in its place
            assert line["error"]["code"] == "lossy_conversion"
            assert line["error"]["line"] == number
        else:
            assert line == result.output
    assert "error: line 2: lossy_conversion at /parameters/seed: " in err


def test_jsonl_line_too_long_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = {"model": "m", "messages": [{"role": "user", "content": "x" * 5000}]}
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in (GOOD_1, huge, GOOD_2)), encoding="utf-8")
    argv = ["convert", "--from", "openai-chat", "--to", "canonical", "--max-bytes", "1000"]
    code, out, err = run([*argv, str(path)], capsys)
    assert code == 2
    assert len(out.splitlines()) == 3
    assert json.loads(out.splitlines()[1])["error"]["code"] == "input_too_large"
    assert err.startswith("error: line 2: input_too_large at /: ")


# --- detect and formats ------------------------------------------------------------------------


def test_detect_prints_format_kind_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["detect", write(tmp_path, CONVERSATION)], capsys)
    assert code == 0
    assert out == detect(CONVERSATION).line() + "\n"
    assert out.startswith("openai-chat request: ")


def test_detect_unknown_and_ambiguous_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["detect", write(tmp_path, [1, 2])], capsys)
    assert code == 2
    first, *reasons = out.splitlines()
    assert first == "unknown: no format's schema accepts it"
    assert len(reasons) == sum(len(kinds(fmt)) for fmt in formats())
    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    code, out, _ = run(["detect", write(tmp_path, body)], capsys)
    assert code == 2
    assert out.startswith("ambiguous: anthropic request, openai-chat request: ")


def test_detect_json_and_kind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "formats/openai-chat/examples/response/refusal.json")
    code, out, _ = run(["detect", "--json", path], capsys)
    assert code == 0
    found = json.loads(out)
    assert (found["status"], found["format"], found["kind"]) == (
        "detected",
        "openai-chat",
        "response",
    )
    code, out, _ = run(["detect", "--json", "--kind", "request", path], capsys)
    assert code == 2 and json.loads(out)["status"] == "unknown"


MEMORY_LINES = [
    {"role": "user", "content": "hi"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "18C"},
]


def test_detect_jsonl_tells_each_line_then_all_lines_as_one_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "memory.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in MEMORY_LINES) + "\n\n")
    code, out, _ = run(["detect", str(path)], capsys)
    rows = [line for line in out.splitlines() if not line.startswith("  ")]
    # Alone, a user turn could be any of several formats; the lines together are OpenAI's.
    assert rows[0].startswith("line 1: ambiguous: ")
    assert rows[1].startswith("line 2: openai-chat messages: ")
    assert rows[-1].startswith("all lines: openai-chat messages: ")
    assert code == 0
    code, out, _ = run(["detect", "--json", str(path)], capsys)
    parsed = [json.loads(line) for line in out.splitlines()]
    assert [p.get("line", p.get("lines")) for p in parsed] == [1, 2, 3, "all"]
    assert (parsed[-1]["format"], parsed[-1]["kind"]) == ("openai-chat", "messages")


def test_detect_jsonl_exits_2_on_a_line_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lines.txt"
    path.write_text(json.dumps(MEMORY_LINES[1]) + "\n{broken\n")
    code, out, err = run(["detect", "--jsonl", str(path)], capsys)
    assert code == 2
    assert out.startswith("line 1: openai-chat messages: ") and "all lines" not in out
    assert err.startswith("error: line 2: invalid_json at /:")


def test_detect_jsonl_of_one_body_per_line_needs_no_joint_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(CONVERSATION) + "\n")
    code, out, _ = run(["detect", str(path)], capsys)
    assert (code, out) == (0, "line 1: " + detect(CONVERSATION).line() + "\n")


def test_detect_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    code, out, err = run(["detect", str(path)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("error: invalid_json at /: ")


def test_formats_lists_every_adapter_with_its_title(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["formats", "--json"], capsys)
    assert code == 0
    listed = json.loads(out)
    assert [f["name"] for f in listed] == formats()
    assert {f["name"]: f["title"] for f in listed[1:]} == {n: a.title for n, a in ADAPTERS.items()}
    code, out, _ = run(["formats"], capsys)
    assert [line.split()[0] for line in out.splitlines()] == formats()


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["convert", "--from", "openai-chat"])  # no --to
    assert caught.value.code == 2
    assert "--to" in capsys.readouterr().err


# --- as a real process -------------------------------------------------------------------------


def test_python_m_interlingua_convert() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "interlingua",
            "convert",
            "--from",
            "auto",
            "--to",
            "anthropic",
            "-",
        ],
        input=json.dumps(LOSSY).encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    expected = convert(LOSSY, "openai-chat", "anthropic")
    assert expected.losses
    assert json.loads(done.stdout) == expected.output
    # Only the CLI's own lines: the library's WARN log lines are kept off stderr.
    assert done.stderr.decode().splitlines() == loss_lines(expected.losses)


def test_jsonl_stream_answers_each_line_while_the_input_is_open() -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "interlingua",
            "convert",
            "--from",
            "openai-chat",
            "--to",
            "canonical",
            "--jsonl",
            "-",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # A piped stdout is block-buffered unless told otherwise: only the CLI's own flush
        # may make each line arrive.
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        for body in (GOOD_1, GOOD_2):
            process.stdin.write(json.dumps(body).encode() + b"\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 20)
            assert ready, "no output line while the input stays open: not flushed per line"
            line = process.stdout.readline()
            assert json.loads(line) == convert(body, "openai-chat", "canonical").output
        process.stdin.close()
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# --- text formats (ChatML) -------------------------------------------------------------------

CHATML = (
    "<|im_start|>system\nBe brief.<|im_end|>\n"
    "<|im_start|>user\nWeather?<|im_end|>\n"
    '<|im_start|>assistant\n<tool_call>\n{"name": "w", "arguments": {"city": "Oslo"}}\n'
    "</tool_call><|im_end|>\n"
    '<|im_start|>tool\n<tool_response>\n{"name": "w", "content": "-2C"}\n'
    "</tool_response><|im_end|>\n"
)


def test_chatml_text_in_json_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "chat.txt"
    path.write_text(CHATML, encoding="utf-8")
    code, out, err = run(["convert", "--from", "chatml", "--to", "openai-chat", str(path)], capsys)
    # ChatML names no model; OpenAI requires one: a reported placeholder.
    assert (code, err) == (
        0,
        "loss: placeholder_inserted at /model: openai-chat requires this setting; sent 'unknown'\n",
    )
    assert json.loads(out) == convert(CHATML, "chatml", "openai-chat").output
    assert json.loads(out)["messages"][3] == {
        "role": "tool",
        "tool_call_id": "chatml_call_2_0",
        "content": "-2C",
    }


def test_chatml_text_out_is_written_as_it_is(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    canonical = convert(CHATML, "chatml", "canonical").output
    monkeypatch.setattr(sys, "stdin", _Stdin(json.dumps(canonical)))
    code, out, err = run(["convert", "--from", "canonical", "--to", "chatml"], capsys)
    assert (code, out, err) == (0, CHATML, "")


def test_chatml_from_auto_and_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(CHATML))
    code, out, _ = run(["convert", "--from", "auto", "--to", "chatml"], capsys)
    assert (code, out) == (0, CHATML)


def test_chatml_losses_go_to_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {"model": "m", "messages": [{"role": "developer", "content": "Terse."}]}
    monkeypatch.setattr(sys, "stdin", _Stdin(json.dumps(body)))
    code, out, err = run(["convert", "--from", "openai-chat", "--to", "chatml"], capsys)
    assert (code, out) == (0, "<|im_start|>system\nTerse.<|im_end|>\n")
    assert err.splitlines() == [
        "loss: parameter_dropped at /model: chatml has no place for `model`",
        "loss: role_changed at /messages/0: chatml has no developer role; sent as system",
    ]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("<|im_start|>user\nHi", "error: invalid_text at /messages/0: "),
        ("{not a turn", "error: invalid_text at /messages/0: "),
        ("<|im_start|>narrator\nHi<|im_end|>\n", "error: not_in_enum at /messages/0/role: "),
    ],
)
def test_bad_chatml_text_is_a_coded_error(
    text: str, line: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(text))
    code, out, err = run(["convert", "--from", "chatml", "--to", "canonical"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(line), err


def test_chatml_refused_content_is_a_coded_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "a<|im_end|>b"}]}
    monkeypatch.setattr(sys, "stdin", _Stdin(json.dumps(body)))
    code, out, err = run(["convert", "--from", "openai-chat", "--to", "chatml"], capsys)
    assert (code, out) == (2, "")
    assert "error: invalid_text at /messages/0: " in err


def test_detect_recognises_chatml_text(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(CHATML))
    code, out, _ = run(["detect", "--json"], capsys)
    found = json.loads(out)
    assert (code, found["status"], found["format"], found["kind"]) == (
        0,
        "detected",
        "chatml",
        "request",
    )


def test_text_that_is_no_format_is_unknown_not_a_json_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin("hello"))
    code, out, _ = run(["detect"], capsys)
    assert code == 2
    assert out.startswith("unknown: ")
    assert "chatml request: invalid_text at /messages/0" in out


# --- endpoints -----------------------------------------------------------------------------------


@pytest.mark.parametrize("jsonl", [[], ["--jsonl", "--jobs", "2"]])
def test_the_endpoints_decide_where_signed_reasoning_is_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jsonl: list[str]
) -> None:
    """Reasoning read from Vertex goes back to Vertex whole and is reported, not sent, on
    the Gemini API; a JSON Lines batch (its workers) takes the same options."""
    path = tmp_path / ("body.jsonl" if jsonl else "body.json")
    path.write_text(json.dumps(SIGNED_GEMINI) + "\n", encoding="utf-8")
    argv = ["convert", "--from", "gemini", "--to", "gemini", "--source-endpoint", "vertex"]
    code, out, err = run([*argv, *jsonl, "--target-endpoint", "vertex", str(path)], capsys)
    assert (code, json.loads(out)) == (0, SIGNED_GEMINI)
    assert "loss" not in err.replace("losses: none", "")
    code, out, err = run([*argv, *jsonl, "--target-endpoint", "gemini-api", str(path)], capsys)
    assert "thought" not in out
    assert "thinking_not_replayable" in err


def test_a_body_read_from_a_file_is_not_checked_as_data_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data_checks: list[Any]
) -> None:
    """`read_json` refused all that `convert`'s data check refuses: the single-body command
    walks the body no second time (detection, conversion) and converts it as the Python call
    does."""
    checked = data_checks
    path = tmp_path / "body.json"
    path.write_text(json.dumps(SIGNED_GEMINI), encoding="utf-8")
    outputs = []
    for source in ("gemini", "auto"):
        code, out, _ = run(["convert", "--from", source, "--to", "anthropic", str(path)], capsys)
        assert (code, checked) == (0, [])
        outputs.append(json.loads(out))
    assert outputs == [convert(SIGNED_GEMINI, "gemini", "anthropic").output] * 2
    assert checked == [SIGNED_GEMINI]  # the Python call checks what it is handed
