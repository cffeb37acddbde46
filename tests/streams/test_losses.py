"""`LossNotes`: a translated stream's losses, told in the stream where its readers pass over
them, each as soon as it is met (the service's `POST /v1/stream` answers with it)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, cast

from interlingua.conversion import Loss
from interlingua.streams.accumulate import Accumulator
from interlingua.streams.engine import StreamTranslator
from interlingua.streams.losses import MEMBER, LossNotes, loss_event, told_stream, with_member

LOSS = {"pointer": "/3", "code": "field_dropped", "reason": "upstream: a field"}


def _event_line(event: dict[str, Any]) -> str:
    return json.dumps(event) + "\n"


def test_a_member_goes_last_in_the_first_object_chunk() -> None:
    assert with_member('{"a":1}\n{"b":2}\n', [LOSS]) == (
        f'{{"a":1,"{MEMBER}":[{json.dumps(LOSS, separators=(",", ":"))}]}}\n{{"b":2}}\n'
    )
    assert with_member("data: {}\n\n", [LOSS]) == (
        f'data: {{"{MEMBER}":[{json.dumps(LOSS, separators=(",", ":"))}]}}\n\n'
    )
    assert with_member("data: [DONE]\n\n", [LOSS]) is None


def test_a_loss_met_while_nothing_is_written_waits_for_the_next_chunk() -> None:
    # Canonical events in, Ollama out: a loss event read again writes nothing by itself.
    notes = LossNotes(StreamTranslator("canonical", "ollama"))
    assert notes.feed(_event_line({"type": "message_start", "model": "m"})) == ""
    assert notes.feed(_event_line(loss_event(Loss(**LOSS)))) == ""
    assert notes.held == 1
    text = notes.feed(_event_line({"type": "text_delta", "index": 0, "text": "Hi"}))
    chunk = json.loads(text.splitlines()[0])
    # The loss read, then the one writing this first chunk met (Ollama's `created_at`).
    assert chunk[MEMBER][0] == LOSS and chunk["message"]["content"] == "Hi"
    told = [loss.as_json() for loss in notes.translator.losses]
    assert chunk[MEMBER] == told and notes.held == 0
    assert MEMBER not in notes.close()


def test_a_chunk_that_is_no_object_leaves_the_losses_held() -> None:
    translator = SimpleNamespace(
        target=SimpleNamespace(loss_notes="member"),
        losses=[Loss(**LOSS)],
        feed=lambda line: "data: [DONE]\n\n",
    )
    notes = LossNotes(cast(StreamTranslator, translator))
    assert notes.feed("x") == "data: [DONE]\n\n"
    assert notes.held == 1


def test_losses_are_told_in_the_order_they_were_met_before_the_end() -> None:
    events = [
        {"type": "message_start", "model": "m"},
        loss_event(Loss("/1", "field_dropped", "first")),
        {"type": "text_delta", "index": 0, "text": "Hi"},
        loss_event(Loss("/2", "part_dropped", "second")),
        {"type": "message_complete", "stop_reason": "end"},
    ]
    lines = [_event_line(e) for e in events]
    text = "".join(told_stream(lines, "canonical", "openai-chat"))
    comments = [line for line in text.splitlines() if line.startswith(": loss ")]
    translator = StreamTranslator("canonical", "openai-chat")
    "".join(translator.feed(line) for line in lines) + translator.close()
    told = [json.loads(c.removeprefix(": loss ")) for c in comments]
    assert told == [loss.as_json() for loss in translator.losses]
    assert [x["reason"] for x in told if x["reason"] in ("first", "second")] == ["first", "second"]
    assert text.rindex(": loss ") < text.index("data: [DONE]")


def test_a_canonical_stream_passes_its_loss_events_on() -> None:
    lines = [
        _event_line({"type": "message_start"}),
        _event_line(loss_event(Loss(**LOSS))),
        _event_line({"type": "message_complete", "stop_reason": "end"}),
    ]
    notes = LossNotes(StreamTranslator("canonical", "canonical"))
    text = "".join(notes.feed(line) for line in lines) + notes.close()
    assert [json.loads(line) for line in text.splitlines()] == [json.loads(x) for x in lines]


def test_the_accumulator_passes_a_loss_event_by_wherever_it_comes() -> None:
    accumulator = Accumulator()
    for event in (
        {"type": "message_start"},
        {"type": "text_delta", "index": 0, "text": "Hi"},
        {"type": "message_complete", "stop_reason": "end"},
        loss_event(Loss(**LOSS)),
    ):
        accumulator.feed(event)
    assert accumulator.response()["message"]["content"] == [{"type": "text", "text": "Hi"}]
