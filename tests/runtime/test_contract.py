"""The functions the conformance cases call: the ones that take several targets at once."""

from typing import Any

import pytest

from interlingua.contract import FUNCTIONS
from tests.bodies import signed_gemini_stream

BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
CHAT_STREAM = [
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": "Hi"}, "finish_reason": None}
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    },
]


def test_convert_many_answers_per_target_with_output_or_coded_error() -> None:
    answers = FUNCTIONS["convert_many"](
        {
            "source": "openai-chat",
            "targets": ["anthropic", "canonical"],
            "kind": "request",
            "payload": BODY,
        }
    )
    assert answers["anthropic"]["output"]["messages"] == [{"role": "user", "content": "hi"}]
    assert answers["canonical"]["losses"] == []
    refused = FUNCTIONS["convert_many"](
        {"source": "openai-chat", "targets": ["gemini"], "kind": "request", "payload": {"x": 1}}
    )
    error = refused["gemini"]["error"]
    assert error["code"] == "missing_field" and error["details"]["path"]
    assert "required property" in error["details"]["message"]


def test_translate_stream_frames_a_chunk_per_line_transcript_as_the_source_streams() -> None:
    import json

    lines = "".join(json.dumps(c) + "\n" for c in CHAT_STREAM)
    sse = "".join(f"data: {json.dumps(c)}\n\n" for c in CHAT_STREAM) + "data: [DONE]\n\n"
    as_lines = FUNCTIONS["translate_stream"](
        {
            "source": "openai-chat",
            "targets": ["anthropic", "canonical"],
            "text": lines,
            "framing": "ndjson",
        }
    )
    as_sse = FUNCTIONS["translate_stream"](
        {
            "source": "openai-chat",
            "targets": ["anthropic", "canonical"],
            "text": sse,
            "framing": "sse",
        }
    )
    assert as_lines == as_sse
    assert as_lines["anthropic"]["failed"] is False
    assert "event: message_stop" in as_lines["anthropic"]["text"]
    cut = FUNCTIONS["translate_stream"](
        {
            "source": "openai-chat",
            "targets": ["canonical"],
            "text": lines.splitlines()[0] + "\n",
            "framing": "ndjson",
        }
    )
    assert cut["canonical"]["failed"] is True
    assert '"stream_truncated"' in cut["canonical"]["text"]


def test_translate_stream_names_the_error_reading_met() -> None:
    import json

    lines = (
        json.dumps(CHAT_STREAM[0]) + "\n" + json.dumps({"error": {"message": "overloaded"}}) + "\n"
    )
    answers = FUNCTIONS["translate_stream"](
        {"source": "openai-chat", "targets": ["anthropic"], "text": lines, "framing": "ndjson"}
    )
    assert answers["anthropic"]["failed"] is True
    assert answers["anthropic"]["error"]["code"] == "provider_error"
    assert answers["anthropic"]["error"]["details"]["message"] == "overloaded"


def test_translate_stream_takes_the_endpoints_the_replay_check_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Before: the contract made its StreamTranslator without the endpoints, so a vector could
    # not say that Vertex-signed reasoning goes to the Gemini API (which refuses it).
    import json

    from interlingua import contract
    from interlingua.streams.engine import StreamTranslator

    made: list[StreamTranslator] = []

    class Kept(StreamTranslator):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(contract, "StreamTranslator", Kept)
    text = "".join(json.dumps(c) + "\n" for c in signed_gemini_stream())
    for target_endpoint, kept in (("gemini-api", False), ("vertex", True)):
        made.clear()
        answers = FUNCTIONS["translate_stream"](
            {
                "source": "gemini",
                "targets": ["gemini"],
                "text": text,
                "framing": "ndjson",
                "source_endpoint": "vertex",
                "target_endpoint": target_endpoint,
            }
        )
        assert answers["gemini"]["failed"] is False
        assert ("thoughtSignature" in answers["gemini"]["text"]) is kept
        (translator,) = made
        codes = [loss.code for loss in translator.losses]
        assert codes == ([] if kept else ["thinking_not_replayable"])


@pytest.mark.parametrize("endpoint", ["vertex", "gemini-api"])
def test_stream_takes_the_endpoint_its_reading_binds_reasoning_to(endpoint: str) -> None:
    # Before: `stream` read and reassembled with no endpoint, so a vector could not say where
    # a stream was served, as `translate_stream` (and `convert`) can.
    answer = FUNCTIONS["stream"](
        {"format": "gemini", "chunks": signed_gemini_stream(), "source_endpoint": endpoint}
    )
    thinking = answer["canonical"]["message"]["content"][0]
    assert thinking["origin"] == {"format": "gemini", "endpoint": endpoint}
    unbound = FUNCTIONS["stream"]({"format": "gemini", "chunks": signed_gemini_stream()})
    assert unbound["canonical"]["message"]["content"][0]["origin"] == {"format": "gemini"}
    assert answer["events"] == unbound["events"]
