"""Every stream case that has a plain response, translated to every streaming format (and to
canonical events and back): each chunk written is valid against the target's chunk schema, and
reading the translation back gives the same message, except what a loss names."""

from __future__ import annotations

import json
from typing import Any

import pytest

from interlingua.generated.streams import STREAMS
from interlingua.streams.engine import StreamTranslator, reassemble, translate_stream
from interlingua.streams.framing import parser
from tests.streams.helpers import STREAM_CASES, chunk_validator, framed, project

# Streams that complete with content (failing streams have cases of their own).
RICH = [
    c
    for c in STREAM_CASES
    if c.expected["canonical"]["message"]["content"]
    and c.expected["events"][-1]["type"] == "message_complete"
]
PAIRS = [(case, target) for case in RICH for target in sorted(STREAMS)]


def _translate(lines: list[str], source: str, target: str) -> tuple[str, StreamTranslator]:
    translator = StreamTranslator(source, target)
    text = "".join(translator.feed(line) for line in lines) + translator.close()
    return text, translator


def _payloads(fmt: str, text: str) -> list[str]:
    read = parser(STREAMS[fmt].framing if fmt in STREAMS else "ndjson")
    out = [p for line in text.splitlines(keepends=True) for p in read.feed(line)]
    return out + read.close()


def _events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


@pytest.mark.parametrize(("case", "target"), PAIRS, ids=[f"{c.id}->{t}" for c, t in PAIRS])
def test_translation_is_valid_and_reads_back_to_the_same_message(case: Any, target: str) -> None:
    source = case.input["format"]
    expected = case.expected["canonical"]
    text, forward = _translate(framed(source, case.input["chunks"]), source, target)
    assert not forward.failed
    validator = chunk_validator(target)
    for payload in _payloads(target, text):
        if payload != STREAMS[target].done:
            chunk = json.loads(payload)
            errors = [e.message for e in validator.iter_errors(chunk)]
            assert errors == [], (chunk, errors)
    back, reader = _translate(text.splitlines(keepends=True), target, "canonical")
    assert not reader.failed
    assert not [loss for loss in reader.losses if loss.code != "placeholder_inserted"]
    again = reassemble(_events(back), target)
    assert project(again, forward.losses) == project(expected, forward.losses)


@pytest.mark.parametrize("case", RICH, ids=[c.id for c in RICH])
def test_canonical_events_are_a_stream_format_both_ways(case: Any) -> None:
    source = case.input["format"]
    events, _ = _translate(framed(source, case.input["chunks"]), source, "canonical")
    assert _events(events) == case.expected["events"]
    text, translator = _translate(events.splitlines(keepends=True), "canonical", source)
    back, _ = _translate(text.splitlines(keepends=True), source, "canonical")
    assert project(reassemble(_events(back), source), translator.losses) == project(
        case.expected["canonical"], translator.losses
    )


def test_translate_stream_takes_no_line_after_the_stream_has_ended() -> None:
    """Regression: `translate_stream` kept pulling lines after an error had ended the stream
    (each ignored), so a source that never ends held its caller forever."""

    def source() -> Any:
        yield "data: not json\n"
        yield "\n"
        raise AssertionError("a line was taken after the stream had ended")

    text = "".join(translate_stream(source(), "openai-chat", "anthropic"))
    assert "invalid_json" in text and "event: error" in text
