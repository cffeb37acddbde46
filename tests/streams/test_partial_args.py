"""Gemini (Vertex) streams that deliver a call's arguments in pieces (`partialArgs`,
`willContinue`): the call reaches every target with its whole arguments, never `{}`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from interlingua.generated.streams import STREAMS
from interlingua.streams.engine import StreamTranslator, read_stream, reassemble
from tests.streams.helpers import STREAM_CASES, framed

CASE = next(c for c in STREAM_CASES if c.id == "gemini.stream.partial_args")
ARGUMENTS = CASE.expected["canonical"]["message"]["content"][0]["arguments"]


def _chunk(parts: list[Any], **extra: Any) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0, **extra}]}


def _events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


@pytest.mark.parametrize("target", sorted(STREAMS))
def test_arguments_in_pieces_reach_every_target_whole(target: str) -> None:
    # Regression (issue 14): every target got the call with `{}` arguments.
    translator = StreamTranslator("gemini", target)
    lines = framed("gemini", CASE.input["chunks"])
    text = "".join(translator.feed(line) for line in lines) + translator.close()
    assert not translator.failed
    back = StreamTranslator(target, "canonical")
    events = "".join(back.feed(line) for line in text.splitlines(keepends=True)) + back.close()
    message = reassemble(_events(events), target)["message"]
    (call,) = [p for p in message["content"] if p["type"] == "tool_call"]
    assert call["arguments"] == ARGUMENTS
    assert not [loss for loss in translator.losses if "functionCall" in loss.pointer]


def test_pieces_with_no_call_open_are_out_of_order() -> None:
    chunk = _chunk([{"functionCall": {"partialArgs": [{"jsonPath": "$.a", "numberValue": 1}]}}])
    assert list(read_stream([chunk], "gemini"))[-1]["error"]["code"] == "stream_out_of_order"
    end = _chunk([{"functionCall": {}}])
    assert list(read_stream([end], "gemini"))[-1]["error"]["code"] == "stream_out_of_order"


def test_a_call_that_opens_before_the_last_one_ends_is_out_of_order() -> None:
    opens = _chunk([{"functionCall": {"name": "f", "willContinue": True}}])
    events = list(read_stream([opens, opens], "gemini"))
    assert events[-1]["error"]["code"] == "stream_out_of_order"


def test_the_stop_completes_a_call_still_in_pieces_and_a_cut_stream_is_truncated() -> None:
    chunks: list[Any] = [
        _chunk([{"functionCall": {"name": "f", "willContinue": True}}]),
        _chunk(
            [
                {
                    "functionCall": {
                        "partialArgs": [{"jsonPath": "$.q", "stringValue": "x"}],
                        "willContinue": True,
                    }
                }
            ]
        ),
    ]
    cut = list(read_stream(chunks, "gemini"))
    assert cut[-1]["error"]["code"] == "stream_truncated"
    done = list(read_stream([*chunks, _chunk([], finishReason="STOP")], "gemini"))
    assert reassemble(done, "gemini")["message"]["content"][0]["arguments"] == {"q": "x"}


def test_pieces_that_are_not_a_list_are_a_coded_error() -> None:
    chunks = [
        _chunk([{"functionCall": {"name": "f", "willContinue": True, "partialArgs": {"a": 1}}}])
    ]
    assert list(read_stream(chunks, "gemini"))[-1]["error"]["code"] == "wrong_type"
