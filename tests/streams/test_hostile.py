"""Hostile and odd streams: each ends with a coded error (the target's error chunk after what
was translated up to the fault), never a traceback, and never holds more than a bounded line.

The command is run as a subprocess on a truncated, late-starting, deeply nested and endless
stream (the endless one written from a generator until the command stops reading)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.stream_reader import StreamReader
from interlingua.conversion.reading import InputError
from interlingua.generated.streams import STREAMS
from interlingua.streams.engine import StreamTranslator, read_stream, write_stream
from interlingua.streams.framing import SseParser, lines
from tests.streams.helpers import STREAM_CASES, framed


def _case(fmt: str, name: str) -> Any:
    return next(c for c in STREAM_CASES if c.id == f"{fmt}.stream.{name}")


def _translate(lines_in: list[str], source: str, target: str) -> tuple[str, StreamTranslator]:
    translator = StreamTranslator(source, target)
    text = "".join(translator.feed(line) for line in lines_in) + translator.close()
    return text, translator


def _events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


ANTHROPIC_TEXT = _case("anthropic", "text").input["chunks"]
GEMINI_TEXT = next(
    c for c in STREAM_CASES if c.input["format"] == "gemini" and "usageMetadata" in str(c.input)
).input["chunks"]


# --- a stream that starts late ------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["anthropic"])
def test_a_stream_that_opens_with_a_start_chunk_and_lacks_it_is_out_of_order(fmt: str) -> None:
    # Regression: Anthropic's stream without its message_start raised KeyError: 'input_tokens'
    # in the generated usage code.
    case = next(
        c
        for c in STREAM_CASES
        if c.input["format"] == fmt and c.expected["events"][-1]["type"] == "message_complete"
    )
    late = case.input["chunks"][1:]
    events = list(read_stream(late, fmt))
    assert events[-1]["type"] == "error"
    assert events[-1]["error"]["code"] == "stream_out_of_order"
    for target in STREAMS:
        _text, translator = _translate(framed(fmt, late), fmt, target)
        assert translator.failed and translator.ended, target


def test_a_bedrock_stream_without_message_start_reads() -> None:
    # Bedrock streams recorded by others (vercel/ai fixtures in conformance/real) open with
    # contentBlockStart: the role is the assistant's, so reading is liberal there.
    chunks = [
        {
            "contentBlockStart": {
                "contentBlockIndex": 0,
                "start": {"toolUse": {"toolUseId": "t", "name": "f"}},
            }
        },
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": '{"a":1}'}}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "tool_use"}},
    ]
    events = list(read_stream(chunks, "bedrock"))
    assert all(e["type"] != "error" for e in events)
    assert events[-1]["type"] == "message_complete"


def test_the_late_message_delta_of_the_issue_is_out_of_order_with_no_loss_before() -> None:
    late = [
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    ]
    reader = StreamReader(STREAMS["anthropic"])
    events = reader.feed(late[0])
    assert events == [
        {
            "type": "error",
            "error": {
                "code": "stream_out_of_order",
                "path": "/0",
                "message": "the stream did not open with its start chunk (it started late)",
            },
        }
    ]
    assert reader.ctx.losses == []


def test_a_usage_without_the_counts_the_canonical_usage_requires_is_filled_and_reported() -> None:
    # Regression: a usage chunk with output tokens only crashed every writer (KeyError).
    chunks = [
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}],
        },
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [],
            "usage": {"completion_tokens": 4},
        },
        "[DONE]",
    ]
    for target in STREAMS:
        _text, translator = _translate(framed("openai-chat", chunks), "openai-chat", target)
        assert not translator.failed, target
        assert "placeholder_inserted" in [loss.code for loss in translator.losses]
    events = list(read_stream(chunks, "openai-chat"))
    usage = next(e for e in events if e["type"] == "usage")["usage"]
    assert usage["input_tokens"] == 0 and usage["output_tokens"] == 4


def test_a_usage_with_no_count_the_format_maps_says_nothing() -> None:
    chunks = [ANTHROPIC_TEXT[0], {"type": "message_delta", "delta": {}, "usage": {"x": 1}}]
    events = list(read_stream(chunks, "anthropic"))
    assert [e["type"] for e in events].count("usage") == 1  # the start's only


def test_a_count_of_the_wrong_type_in_a_summed_usage_is_a_coded_error() -> None:
    # Regression: Bedrock's input count is summed with the cache counts; a dict in it raised
    # TypeError in the generated decoder.
    chunks = [
        {"messageStart": {"role": "assistant"}},
        {"metadata": {"usage": {"inputTokens": {}, "outputTokens": 1, "totalTokens": 1}}},
    ]
    events = list(read_stream(chunks, "bedrock"))
    assert events[-1]["error"]["code"] == "wrong_type"


@pytest.mark.parametrize("index", [[0], {"a": 1}, 1.5, True])
def test_a_part_index_that_is_not_a_number_or_string_is_a_coded_error(index: Any) -> None:
    # Regression: a list as the block index raised TypeError (unhashable) in the engine.
    chunks = [
        ANTHROPIC_TEXT[0],
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "text_delta", "text": "x"},
        },
    ]
    assert list(read_stream(chunks, "anthropic"))[-1]["error"]["code"] == "wrong_type"
    stop = [ANTHROPIC_TEXT[0], {"type": "content_block_stop", "index": index}]
    assert list(read_stream(stop, "anthropic"))[-1]["error"]["code"] == "wrong_type"


# --- chunks the reading rules refuse ------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ('{"type": "ping", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "nesting_too_deep"),
        ('{"type": "ping", "n": 1e999}', "number_out_of_range"),
        ('{"type": "ping", "n": ' + "9" * 5_000 + "}", "number_out_of_range"),
        ('{"type": "ping", "type": "ping"}', "duplicate_key"),
        ('{"type": "ping", "n": NaN}', "non_finite_number"),
        ('{"type": "ping", "s": "\\ud800"}', "invalid_unicode"),
        ('{"type": "ping"', "invalid_json"),
    ],
)
def test_a_chunk_the_reading_rules_refuse_ends_the_stream_with_its_code(
    payload: str, code: str
) -> None:
    # Regression: a chunk nested 100,000 deep raised RecursionError in StreamTranslator._payload.
    head = framed("anthropic", ANTHROPIC_TEXT[:3])
    for target in ["canonical", *STREAMS]:
        text, translator = _translate([*head, f"data: {payload}\n", "\n"], "anthropic", target)
        assert translator.failed, target
        if target == "canonical":
            assert _events(text)[-1]["error"]["code"] == code
    events = list(read_stream([*ANTHROPIC_TEXT[:3], payload], "anthropic"))
    assert events[-1]["error"]["code"] == code


@pytest.mark.parametrize(
    ("chunk", "code"),
    [
        ({"type": "ping", "n": float("inf")}, "non_finite_number"),
        ({"type": "ping", "s": "\ud800"}, "invalid_unicode"),
        ({"type": "ping", "x": {1, 2}}, "wrong_type"),
    ],
)
def test_python_chunks_meet_the_same_rules(chunk: Any, code: str) -> None:
    events = list(read_stream([ANTHROPIC_TEXT[0], chunk], "anthropic"))
    assert events[-1]["error"]["code"] == code


def test_a_line_past_the_limit_is_refused() -> None:
    translator = StreamTranslator("gemini", "anthropic", max_bytes=64)
    out = translator.feed("data: " + "x" * 100 + "\n")
    assert translator.failed and translator.ended
    assert "input_too_large" in out
    assert translator.feed("data: {}\n") == ""  # nothing is read after the end


def test_an_event_whose_data_lines_add_up_past_the_limit_is_refused() -> None:
    parser = SseParser(max_bytes=100)
    for _ in range(9):  # each line adds its value and a newline: 11 bytes
        assert parser.feed("data: " + "x" * 9 + "\n") == []
    with pytest.raises(InputError) as caught:
        parser.feed("data: " + "x" * 9 + "\n")
    assert caught.value.code == "input_too_large"
    translator = StreamTranslator("anthropic", "openai-chat", max_bytes=100)
    out = "".join(translator.feed("data: " + "x" * 30 + "\n") for _ in range(4))
    assert translator.failed and "input_too_large" in out


def test_a_line_that_is_not_utf8_is_a_coded_error() -> None:
    translator = StreamTranslator("anthropic", "canonical")
    out = translator.feed(b'data: {"type": "\xff"}\n')
    assert _events(out)[-1]["error"]["code"] == "invalid_unicode"


def test_lines_cuts_a_line_at_the_limit_and_skips_its_rest_only_when_asked() -> None:
    raw = io.BytesIO(b"short\n" + b"y" * 50 + b"\nafter\n")
    got = list(lines(raw, 10))
    assert got == [b"short\n", b"y" * 11, b"after\n"]
    endless = io.BytesIO(b"z" * 1000)
    first = next(lines(endless, 10))
    assert first == b"z" * 11 and endless.tell() == 11  # nothing more read


def test_canonical_events_that_are_not_valid_are_a_coded_error() -> None:
    translator = StreamTranslator("canonical", "anthropic")
    translator.feed(json.dumps({"type": "message_start"}) + "\n")
    assert not translator.failed
    out = translator.feed(json.dumps({"type": "text_delta", "index": "x", "text": 1}) + "\n")
    assert translator.failed and '"error"' in out
    with pytest.raises(ConversionError) as caught:
        list(write_stream([{"type": "message_start"}, {"type": "usage"}], "gemini"))
    assert caught.value.code == "missing_field" and caught.value.pointer.startswith("/1")


# --- the command, as a subprocess ----------------------------------------------------------


def _command(source: str, target: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "interlingua",
        "stream",
        "--from",
        source,
        "--to",
        target,
        *extra,
    ]


def _run(argv: list[str], data: bytes) -> tuple[int, str, str]:
    done = subprocess.run(argv, input=data, capture_output=True, timeout=120, check=False)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def _coded(stdout: str, target: str) -> None:
    assert "Traceback" not in stdout
    if target == "canonical":
        assert _events(stdout)[-1]["type"] == "error"


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("truncated", "".join(framed("anthropic", ANTHROPIC_TEXT[:4])).encode()),
        ("late", "".join(framed("anthropic", ANTHROPIC_TEXT[3:])).encode()),
        (
            "deep",
            "".join(framed("anthropic", ANTHROPIC_TEXT[:2])).encode()
            + b"data: "
            + b'{"type": "ping", "x": '
            + b"[" * 100_000
            + b"]" * 100_000
            + b"}\n\n",
        ),
    ],
)
def test_the_command_ends_a_hostile_stream_with_a_coded_error(name: str, data: bytes) -> None:
    code, out, err = _run(_command("anthropic", "canonical"), data)
    assert code in (1, 2), (name, err)
    assert "Traceback" not in err, err
    error = _events(out)[-1]
    assert error["type"] == "error" and error["error"]["code"], name
    code, out, err = _run(_command("anthropic", "openai-chat"), data)
    assert code in (1, 2) and "Traceback" not in err
    assert out.rstrip().endswith("data: [DONE]") and '"error"' in out


def _endless() -> Iterator[bytes]:
    """A stream that opens well, then a line with no end (like /dev/zero)."""
    yield "".join(framed("anthropic", ANTHROPIC_TEXT[:2])).encode()
    yield b"data: "
    while True:
        yield b"0" * 65_536


def test_the_command_refuses_an_endless_line_and_stops_reading() -> None:
    process = subprocess.Popen(
        _command("anthropic", "canonical", "--max-bytes", "1000000"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdin is not None
    sent = 0

    def feed() -> None:
        nonlocal sent
        assert process.stdin is not None
        try:
            for piece in _endless():
                process.stdin.write(piece)
                sent += len(piece)
                if sent > 64 * 1024 * 1024:  # the bound of the test: the command must stop first
                    break
            process.stdin.close()
        except (BrokenPipeError, ValueError):
            pass  # the command stopped reading: what the test wants

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    assert process.stdout is not None and process.stderr is not None
    try:
        out = process.stdout.read()  # until the command exits (stdin stays open meanwhile)
        err = process.stderr.read()
        process.wait(timeout=120)
    finally:
        process.kill()
    writer.join(timeout=30)
    assert process.returncode in (1, 2), err
    assert b"Traceback" not in err
    assert _events(out.decode())[-1]["error"]["code"] == "input_too_large"
    assert sent < 64 * 1024 * 1024  # it stopped reading long before the bound


def test_a_signed_text_of_no_string_ends_the_stream_with_a_coded_error() -> None:
    """Regression (fuzzing at 12,000 examples): a Gemini part read whole (a text with its
    signature) put `text: true` into a canonical text delta, and the target's writer raised
    TypeError; a chunk is not held to the wire schema first, as a body is."""
    part: dict[str, Any] = {"text": True, "thoughtSignature": "Tsig2"}
    chunk = {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "modelVersion": "gemini-2.5-flash",
    }
    (*_, last) = read_stream([chunk], "gemini")
    assert last["type"] == "error"
    assert (last["error"]["code"], last["error"]["path"]) == (
        "wrong_type",
        "/0/candidates/0/content/parts/0",
    )
    text, _ = _translate(framed("gemini", [chunk]), "gemini", "anthropic")
    assert "wrong_type" in text
