"""A stream's creation time (OpenAI's `created`, `created_at`; Ollama's timestamp) is the
canonical `message_start`'s and the reassembled Response's `created`, and the target stream
writes it instead of a placeholder."""

from __future__ import annotations

import json

from conformance.cases import Case
from interlingua.streams.engine import StreamTranslator, read_stream, reassemble
from tests.streams.helpers import STREAM_CASES, framed

CHAT = next(c for c in STREAM_CASES if c.id == "openai-chat.stream.text")


def _translate(case: Case, target: str) -> tuple[list[str], list[tuple[str, str]]]:
    source = case.input["format"]
    translator = StreamTranslator(source, target)
    text = "".join(translator.feed(line) for line in framed(source, case.input["chunks"]))
    text += translator.close()
    return text.splitlines(), [(loss.pointer, loss.code) for loss in translator.losses]


def test_the_stream_says_when_and_the_response_keeps_it() -> None:
    events = list(read_stream(CHAT.input["chunks"], "openai-chat"))
    assert events[0]["type"] == "message_start"
    assert events[0]["created"] == "2024-11-07T17:20:00Z"
    assert reassemble(events)["created"] == "2024-11-07T17:20:00Z"


def test_another_openai_stream_writes_the_same_time() -> None:
    lines, losses = _translate(CHAT, "openai-responses")
    created = [
        json.loads(line[len("data: ") :])["response"]["created_at"]
        for line in lines
        if line.startswith("data: ") and '"response":' in line
    ]
    assert created and set(created) == {CHAT.input["chunks"][0]["created"]}
    assert not [loss for loss in losses if loss[1] == "placeholder_inserted"]


def test_ollama_writes_it_as_its_timestamp() -> None:
    lines, _ = _translate(CHAT, "ollama")
    stamps = {json.loads(line)["created_at"] for line in lines if line.startswith("{")}
    assert stamps == {"2024-11-07T17:20:00Z"}


def test_a_timestamp_that_is_no_time_ends_the_stream_with_a_coded_error() -> None:
    """Regression (fuzzing): an Ollama chunk's `created_at` of "llama3" passed into the
    canonical stream, and the target's writer raised ValueError turning it into seconds."""
    chunk = {
        "model": "llama3.1",
        "created_at": "llama3",
        "message": {"role": "assistant", "content": "Hel"},
        "done": False,
    }
    (event,) = read_stream([chunk], "ollama")
    assert event["type"] == "error"
    assert (event["error"]["code"], event["error"]["path"]) == ("pattern_mismatch", "/0")
    translator = StreamTranslator("ollama", "anthropic")
    text = "".join(translator.feed(line) for line in framed("ollama", [chunk]))
    text += translator.close()
    assert '"type":"pattern_mismatch"' in text
