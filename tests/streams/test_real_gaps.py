"""What recorded streams carry beyond text and calls, carried through (or reported, never dropped
in silence): OpenAI Chat's `delta.annotations`, Gemini's grounding, an Anthropic server tool's
`input_json_delta` and `compaction_delta`; and the writer's replay check by endpoint.

Where each chunk's shape comes from:

- Chat annotations: no recorded stream in the corpus has them. The item is the `url_citation`
  of a whole message (schemas/formats/openai-chat/examples/response/web_search_annotations.json,
  `ChatCompletionMessage.Annotation` in the openai SDK); that search models send it in a chunk's
  `delta` is how LiteLLM types and forwards it (`Delta.annotations` in litellm/types/utils.py,
  the `choices[0].delta.annotations` check in its streaming handler).
- Gemini grounding, Anthropic server tools, compaction: the recorded streams under
  conformance/real/ (named in each test), read as recorded, and cut-down copies of their chunks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua.conversion import Context
from interlingua.conversion.adapters.fidelity import without_raw
from interlingua.conversion.converter import convert
from interlingua.streams.accumulate import Accumulator, StreamError
from interlingua.streams.engine import StreamTranslator, read_stream, reassemble
from tests.streams.helpers import ROOT, chunk_validator, framed

REAL = ROOT / "conformance" / "real"
CHAT_RESPONSE = json.loads(
    (ROOT / "schemas/formats/openai-chat/examples/response/web_search_annotations.json").read_text(
        encoding="utf-8"
    )
)
ANNOTATIONS = CHAT_RESPONSE["choices"][0]["message"]["annotations"]


def _lines(path: Path) -> list[str]:
    """A recorded stream's lines as its format sends them (the .ndjson recordings of SSE
    formats hold one payload a line)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if path.suffix == ".ndjson":
        return [x for line in lines if line.strip() for x in (f"data: {line.strip()}\n", "\n")]
    return lines


def _run(lines: list[str], source: str, target: str, **options: Any) -> tuple[str, Any]:
    translator = StreamTranslator(source, target, **options)
    text = "".join(translator.feed(line) for line in lines) + translator.close()
    return text, translator


def _losses(translator: StreamTranslator) -> list[tuple[str, str]]:
    """The losses, but for placeholders written for what the input never carried (an id, a
    `created`, a usage): pointer and code."""
    return [(x.pointer, x.code) for x in translator.losses if x.code != "placeholder_inserted"]


def _events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


def _payloads(text: str) -> list[Any]:
    return [
        json.loads(line[6:])
        for line in text.splitlines()
        if line.startswith("data: ") and line != "data: [DONE]"
    ]


def _chat(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-W3bS",
        "object": "chat.completion.chunk",
        "created": 1741571300,
        "model": "gpt-4o-search-preview",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


CHAT_STREAM = [
    _chat({"role": "assistant", "content": ""}),
    _chat({"content": "The museum opens at "}),
    _chat({"content": "10:00 (official site)."}),
    _chat({"annotations": ANNOTATIONS}),
    _chat({}, "stop"),
    "[DONE]",
]


# --- 1. OpenAI Chat delta.annotations -------------------------------------------------------


def test_chat_annotations_read_as_the_whole_response_reads_them() -> None:
    # Before: the chunk's annotations were not read and not reported (a silent drop).
    text, translator = _run(framed("openai-chat", CHAT_STREAM), "openai-chat", "canonical")
    assert translator.losses == []
    streamed = reassemble(_events(text), "openai-chat")
    whole = without_raw(convert(CHAT_RESPONSE, "openai-chat", "canonical", "response").output)
    assert streamed["message"] == whole["message"]
    assert streamed["message"]["content"][0]["citations"][0]["span"] == {"start": 22, "end": 41}


def test_chat_annotations_stream_back_to_chat_as_annotations() -> None:
    text, translator = _run(framed("openai-chat", CHAT_STREAM), "openai-chat", "openai-chat")
    assert _losses(translator) == []
    written = [c["choices"][0]["delta"].get("annotations") for c in _payloads(text) if c["choices"]]
    assert [a for a in written if a] == [ANNOTATIONS]


def test_chat_annotations_to_a_stream_that_cannot_say_them_are_reported_at_their_chunk() -> None:
    _, translator = _run(framed("openai-chat", CHAT_STREAM), "openai-chat", "anthropic")
    assert _losses(translator) == [("/3/citation", "parameter_dropped")]
    _, translator = _run(framed("openai-chat", CHAT_STREAM), "openai-chat", "gemini")
    assert _losses(translator) == [("/3", "field_dropped")]


def test_chat_annotations_with_no_text_or_several_text_parts_are_reported() -> None:
    ahead = [_chat({"annotations": ANNOTATIONS}), _chat({"content": "x"}), _chat({}, "stop")]
    _, translator = _run(framed("openai-chat", ahead), "openai-chat", "canonical")
    assert [x.pointer for x in translator.losses] == ["/0/choices/0/delta/annotations/0"]
    call = {"index": 0, "id": "c1", "type": "function", "function": {"name": "f", "arguments": ""}}
    split = [
        _chat({"content": "a"}),
        _chat({"tool_calls": [call]}),
        _chat({"content": "b"}),
        _chat({"annotations": ANNOTATIONS}),
        _chat({}, "stop"),
    ]
    _, translator = _run(framed("openai-chat", split), "openai-chat", "canonical")
    assert [x.code for x in translator.losses] == ["field_dropped"]
    assert "several text parts" in translator.losses[0].reason


def test_a_chat_writer_writes_citations_of_its_first_text_part_only() -> None:
    citation = {
        "type": "url",
        "url": "https://a.example",
        "title": "A",
        "span": {"start": 0, "end": 1},
    }
    events = [
        {"type": "text_delta", "index": 0, "text": "a"},
        {"type": "tool_call_start", "index": 1, "id": "c1", "name": "f"},
        {"type": "tool_call_end", "index": 1},
        {"type": "text_delta", "index": 2, "text": "b"},
        {"type": "citation", "index": 0, "citation": citation},
        {"type": "citation", "index": 2, "citation": citation},
        {"type": "message_complete", "stop_reason": "end"},
    ]
    lines = [json.dumps(e) + "\n" for e in events]
    text, translator = _run(lines, "canonical", "openai-chat")
    written = [c["choices"][0]["delta"] for c in _payloads(text) if c["choices"]]
    assert [d["annotations"][0]["url_citation"]["url"] for d in written if "annotations" in d] == [
        "https://a.example"
    ]
    assert _losses(translator) == [("/5", "field_dropped")]


def test_a_responses_writer_writes_citations_as_its_own_annotation_events() -> None:
    # Before: the Responses stream wrote no `annotation.added` (its templates had no counter
    # for `annotation_index`), so the citation was reported lost, and its `.done` events said
    # `annotations: []`, though `response.completed` carried it.
    second = {**ANNOTATIONS[0], "url_citation": {**ANNOTATIONS[0]["url_citation"], "url": "b"}}
    stream = [*CHAT_STREAM[:3], _chat({"annotations": [*ANNOTATIONS, second]}), *CHAT_STREAM[4:]]
    text, translator = _run(framed("openai-chat", stream), "openai-chat", "openai-responses")
    assert _losses(translator) == []
    written = _payloads(text)
    validator = chunk_validator("openai-responses")
    assert [e.message for chunk in written for e in validator.iter_errors(chunk)] == []
    added = [c for c in written if c["type"] == "response.output_text.annotation.added"]
    wire = [c["annotation"] for c in added]
    assert [(c["output_index"], c["annotation_index"]) for c in added] == [(0, 0), (0, 1)]
    assert [a["url"] for a in wire] == [ANNOTATIONS[0]["url_citation"]["url"], "b"]
    (done,) = [c for c in written if c["type"] == "response.output_item.done"]
    (part,) = [c for c in written if c["type"] == "response.content_part.done"]
    (completed,) = [c for c in written if c["type"] == "response.completed"]
    assert done["item"]["content"][0]["annotations"] == wire
    assert part["part"]["annotations"] == wire
    assert completed["response"]["output"][0]["content"][0]["annotations"] == wire
    # Read back, each is one citation (the `.done` events repeat them and are not read).
    back, reading = _run(text.splitlines(keepends=True), "openai-responses", "canonical")
    assert reading.losses == []
    again = reassemble(_events(back), "openai-responses")
    spans = [c["span"] for c in again["message"]["content"][0]["citations"]]
    assert len(spans) == 2


def test_the_accumulator_refuses_a_citation_of_a_part_that_is_no_text() -> None:
    accumulator = Accumulator()
    accumulator.feed({"type": "tool_call_start", "index": 0, "id": "c", "name": "f"})
    citation = {"type": "url", "url": "https://a.example"}
    with pytest.raises(StreamError) as error:
        accumulator.feed({"type": "citation", "index": 0, "citation": citation})
    assert (error.value.error.code, error.value.error.path) == ("stream_out_of_order", "/1")


# --- 2. Gemini grounding ----------------------------------------------------------------------

WEB_FETCH = (
    REAL / "gemini/stream/pydantic-ai--test-google-test-google-model-web-fetch-tool-stream-0.sse"
)


def test_recorded_gemini_grounding_becomes_citations_of_the_streamed_text() -> None:
    # Before: `groundingMetadata` was reported dropped whole at each chunk.
    text, translator = _run(_lines(WEB_FETCH), "gemini", "canonical")
    # (What the usage holds beyond its counts, a breakdown by modality, is reported apart.)
    assert [x.pointer for x in translator.losses if "/usageMetadata/" not in x.pointer] == [
        "/0/candidates/0/urlContextMetadata"
    ]
    (part,) = reassemble(_events(text), "gemini")["message"]["content"]
    assert part["text"] == "Pydantic AI Gateway is now available!"
    assert part["citations"] == [
        {
            "type": "url",
            "url": "https://ai.pydantic.dev",
            "title": "Pydantic AI",
            "span": {"start": 0, "end": 37},
        }
    ]


def test_grounding_offsets_count_bytes_across_the_text_parts_streamed() -> None:
    def chunk(parts: list[Any], **more: Any) -> dict[str, Any]:
        return {"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0, **more}]}

    grounding = {
        "groundingChunks": [{"web": {"uri": "https://b.example", "title": "B"}}],
        # The first text part, "é ab", is 5 bytes; "Ünï" (5 bytes) is the second, after the call.
        "groundingSupports": [
            {"segment": {"startIndex": 5, "endIndex": 10}, "groundingChunkIndices": [0]}
        ],
    }
    chunks = [
        chunk([{"text": "é "}]),
        chunk([{"text": "ab"}]),
        chunk([{"functionCall": {"name": "f", "args": {}}}]),
        chunk([{"text": "Ünï"}], finishReason="STOP", groundingMetadata=grounding),
    ]
    events = list(read_stream(chunks, "gemini"))
    (citation,) = [e for e in events if e["type"] == "citation"]
    assert citation["index"] == 2
    assert citation["citation"]["span"] == {"start": 0, "end": 3}


def test_gemini_grounding_streams_on_to_chat_as_annotations() -> None:
    text, translator = _run(_lines(WEB_FETCH), "gemini", "openai-chat")
    written = [c["choices"][0]["delta"] for c in _payloads(text) if c.get("choices")]
    (annotations,) = [d["annotations"] for d in written if "annotations" in d]
    assert annotations[0]["url_citation"]["url"] == "https://ai.pydantic.dev"
    assert "groundingMetadata" not in " ".join(x.pointer for x in translator.losses)


# --- 3. Anthropic server tools and compaction -------------------------------------------------

WEB_SEARCH = (
    REAL
    / "anthropic/stream/pydantic-ai--test-anthropic-test-anthropic-model-web-search-tool-stream-0.sse"
)
COMPACTION = REAL / "anthropic/stream/vercel-ai--anthropic-anthropic-compaction-1.ndjson"


def test_recorded_server_tool_input_arrives_whole_on_its_call() -> None:
    # Before: the call kept its empty start input and each fragment was reported dropped.
    text, translator = _run(_lines(WEB_SEARCH), "anthropic", "canonical")
    assert not [x for x in translator.losses if "input" in x.reason]
    content = reassemble(_events(text), "anthropic")["message"]["content"]
    inputs = [p["input"] for p in content if p["type"] == "hosted_tool_call"]
    assert inputs == [
        {"query": "San Francisco weather today"},
        {"query": "San Francisco weather September 16 2025"},
    ]


def test_recorded_compaction_summary_arrives_whole_on_its_part() -> None:
    # Before: compaction_delta matched no rule (reported) and the part had no text.
    text, translator = _run(_lines(COMPACTION), "anthropic", "canonical")
    # Only what the usage holds beyond its counts (its region, its iterations) is reported.
    assert [x.pointer for x in translator.losses if "/usage/" not in x.pointer] == []
    deltas = [
        json.loads(line)["delta"]["content"]
        for line in COMPACTION.read_text(encoding="utf-8").splitlines()
        if '"compaction_delta"' in line
    ]
    (part,) = [
        p
        for p in reassemble(_events(text), "anthropic")["message"]["content"]
        if p["type"] == "compaction"
    ]
    assert part["text"] == "".join(deltas) and part["text"].startswith("## Summary")


def test_server_tool_and_compaction_stream_back_to_anthropic_whole() -> None:
    for path in (WEB_SEARCH, COMPACTION):
        text, there = _run(_lines(path), "anthropic", "anthropic")
        back, translator = _run(text.splitlines(keepends=True), "anthropic", "canonical")
        first, _ = _run(_lines(path), "anthropic", "canonical")
        whole = reassemble(_events(first), "anthropic")
        # A web search result's citation goes back only with its encrypted index, which a
        # stream carries no round-trip data for: each is left out, and reported.
        cited = [p.pop("citations") for p in whole["message"]["content"] if "citations" in p]
        dropped = [x for x in there.losses if x.pointer.endswith("/citation")]
        assert len(dropped) == sum(len(c) for c in cited) == (7 if path == WEB_SEARCH else 0)
        assert reassemble(_events(back), "anthropic") == whole
        assert not [x for x in translator.losses if x.code != "placeholder_inserted"]


def _anthropic(*blocks: dict[str, Any]) -> list[Any]:
    start = {"type": "message_start", "message": {"id": "m", "model": "c", "usage": {}}}
    return [start, *blocks]


def test_server_tool_input_that_is_not_json_ends_the_stream_with_a_coded_error() -> None:
    chunks = _anthropic(
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {
                "type": "server_tool_use",
                "id": "s",
                "name": "web_search",
                "input": {},
            },
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"query": '},
        },
        {"type": "content_block_stop", "index": 0},
    )
    events = list(read_stream(chunks, "anthropic"))
    assert events[-1]["error"]["code"] == "invalid_json"
    assert events[-1]["error"]["path"] == "/3"


def test_compaction_text_for_a_block_not_held_is_reported() -> None:
    chunks = _anthropic(
        {
            "type": "content_block_delta",
            "index": 4,
            "delta": {"type": "compaction_delta", "content": "x"},
        },
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 1},
        },
        {"type": "message_stop"},
    )
    _, translator = _run(framed("anthropic", chunks), "anthropic", "canonical")
    assert _losses(translator) == [("/1", "field_dropped")]


def test_a_block_held_open_at_the_stop_is_read_there() -> None:
    chunks = _anthropic(
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "compaction", "content": None},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "compaction_delta", "content": "sum"},
        },
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 1},
        },
        {"type": "message_stop"},
    )
    content = reassemble(read_stream(chunks, "anthropic"), "anthropic")["message"]["content"]
    assert [(p["type"], p.get("text")) for p in content] == [("compaction", "sum")]


# --- 4. The replay check knows the endpoint ---------------------------------------------------


def _gemini_reasoning() -> list[str]:
    def chunk(part: dict[str, Any], **more: Any) -> dict[str, Any]:
        return {
            "candidates": [{"content": {"role": "model", "parts": [part]}, "index": 0, **more}],
            "modelVersion": "gemini-2.5-flash",
        }

    return framed(
        "gemini",
        [
            chunk({"text": "Let me think.", "thought": True}),
            chunk({"text": "", "thought": True, "thoughtSignature": "Q2lZQg=="}),
            chunk({"text": "Hi."}, finishReason="STOP"),
        ],
    )


@pytest.mark.parametrize(
    ("source", "target", "kept"),
    [
        (None, None, True),
        ("vertex", "vertex", True),
        ("vertex", None, True),
        ("vertex", "gemini-api", False),
    ],
)
def test_streamed_reasoning_is_replayed_only_at_the_endpoint_that_signed_it(
    source: str | None, target: str | None, kept: bool
) -> None:
    # Before: a Vertex stream's signed reasoning went to the Gemini API, which refuses it.
    text, translator = _run(
        _gemini_reasoning(), "gemini", "gemini", source_endpoint=source, target_endpoint=target
    )
    assert ("thoughtSignature" in text) is kept
    codes = [x.code for x in translator.losses]
    assert codes == ([] if kept else ["thinking_not_replayable"])
    if not kept:
        assert "'vertex', not 'gemini-api'" in translator.losses[0].reason


def test_a_bound_part_goes_home_only_to_its_endpoint() -> None:
    part = {
        "type": "redacted_thinking",
        "data": "EmwKAhgB",
        "origin": {"format": "anthropic", "endpoint": "bedrock-eu"},
    }
    events = [
        {"type": "part", "index": 0, "part": part},
        {"type": "message_complete", "stop_reason": "end"},
    ]
    lines = [json.dumps(e) + "\n" for e in events]
    for endpoint, kept in (("bedrock-eu", True), ("other", False), (None, True)):
        text, translator = _run(lines, "canonical", "anthropic", target_endpoint=endpoint)
        assert ("redacted_thinking" in text) is kept
        expected = [] if kept else ["thinking_not_replayable"]
        assert [code for _, code in _losses(translator)] == expected


def test_reassembling_binds_reasoning_to_the_endpoint_read_from() -> None:
    text, _ = _run(_gemini_reasoning(), "gemini", "canonical")
    response = reassemble(_events(text), "gemini", "vertex")
    (thinking,) = [p for p in response["message"]["content"] if p["type"] == "thinking"]
    assert thinking["origin"] == {
        "format": "gemini",
        "model": "gemini-2.5-flash",
        "endpoint": "vertex",
    }


# --- the edges ------------------------------------------------------------------------------


def test_a_held_block_that_is_no_object_and_grounding_that_is_none_are_wrong_types() -> None:
    chunks = _anthropic({"type": "content_block_start", "index": 0, "content_block": "compaction"})
    (*_, event) = read_stream(chunks, "anthropic")
    assert (event["error"]["code"], event["error"]["path"]) == ("wrong_type", "/1")
    grounded = {"candidates": [{"content": {"parts": [{"text": "a"}]}, "groundingMetadata": [1]}]}
    (*_, event) = read_stream([grounded], "gemini")
    assert event["error"]["path"] == "/0/candidates/0/groundingMetadata"


def test_a_citation_of_a_block_that_is_no_text_is_reported() -> None:
    thinking = {"type": "thinking", "thinking": "", "signature": ""}
    chunks = _anthropic(
        {"type": "content_block_start", "index": 0, "content_block": thinking},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "citations_delta", "citation": {"type": "char_location"}},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 1},
        },
        {"type": "message_stop"},
    )
    _, translator = _run(framed("anthropic", chunks), "anthropic", "canonical")
    assert _losses(translator) == [("/2", "field_dropped")]
    assert "block 0 is no text part" in translator.losses[0].reason


def test_grounding_counts_text_that_came_with_a_signature_too() -> None:
    # Gemini text with a thought signature arrives as a whole part (the `block` rule).
    grounding = {
        "groundingChunks": [{"web": {"uri": "https://c.example", "title": "C"}}],
        "groundingSupports": [
            {"segment": {"startIndex": 0, "endIndex": 2}, "groundingChunkIndices": [0]}
        ],
    }
    part = {"text": "Hi", "thoughtSignature": "U2ln"}
    chunk = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [part]},
                "finishReason": "STOP",
                "groundingMetadata": grounding,
            }
        ]
    }
    citations = [e for e in read_stream([chunk], "gemini") if e["type"] == "citation"]
    assert [c["citation"]["span"] for c in citations] == [{"start": 0, "end": 2}]


def test_a_citation_where_its_block_closed_or_its_part_was_dropped_is_reported_once() -> None:
    citation = {
        "type": "document",
        "source_index": 0,
        "cited_text": "x",
        "location": {"unit": "char", "start": 0, "end": 1},
    }
    events = [
        {"type": "text_delta", "index": 0, "text": "a"},
        {"type": "tool_call_start", "index": 1, "id": "c1", "name": "f"},
        {"type": "tool_call_end", "index": 1},
        {"type": "citation", "index": 0, "citation": citation},  # its block closed: reported
        {"type": "text_delta", "index": 0, "text": "late"},  # the part is dropped: reported
        {"type": "citation", "index": 0, "citation": citation},  # (said with the part)
        {"type": "message_complete", "stop_reason": "call"},
    ]
    _, translator = _run([json.dumps(e) + "\n" for e in events], "canonical", "anthropic")
    assert _losses(translator) == [("/3", "field_dropped"), ("/4", "part_dropped")]


def test_input_for_a_block_that_arrived_whole_and_was_not_held_is_reported() -> None:
    # Bedrock reads redacted reasoning as a whole block, not held: input for it is reported.
    redacted = {"reasoningContent": {"redactedContent": "EmwKAhgB"}}
    chunks = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": redacted}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{}"}}}},
        {"messageStop": {"stopReason": "end_turn"}},
    ]
    ctx = Context("bedrock", kind="response", fidelity=False)
    list(read_stream(chunks, "bedrock", ctx))
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/2", "field_dropped")]


def test_a_chat_chunk_without_its_object_field_is_read_by_its_choices() -> None:
    """Regression (Vercel AI's recorded Moonshot stream): chunks that leave `object` out were
    matched by no read rule, so every chunk was reported unread and the stream refused as
    truncated. A chunk is known by its `choices`."""
    path = REAL / "openai-chat/stream/vercel-ai--moonshotai-moonshotai-stream.ndjson"
    chunks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert all("object" not in chunk for chunk in chunks)
    ctx = Context("openai-chat", kind="response", fidelity=False)
    events = list(read_stream(chunks, "openai-chat", ctx))
    assert events[-1]["type"] == "message_complete"
    assert ctx.losses == []
    message = reassemble(events, "openai-chat")["message"]
    assert [part["type"] for part in message["content"]] == ["thinking", "text"]
    assert message["content"][1]["text"] == "Hello!"


def test_a_stream_ended_by_its_marker_without_a_stop_reason_completes_as_other() -> None:
    """Regression (pydantic-ai's recorded Snowflake stream): no chunk carries a finish reason,
    but `[DONE]` ends the stream as sent. It was refused as truncated, the answer thrown away;
    now it completes with stop reason `other`, reported at the marker. Without the marker the
    stream is still truncated."""
    path = (
        REAL
        / "openai-chat/stream/pydantic-ai--test-snowflake-test-snowflake-thinking-streaming-0.sse"
    )
    payloads = [
        line.removeprefix("data: ")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("data: ")
    ]
    assert payloads[-1] == "[DONE]"
    assert not any(
        choice.get("finish_reason")
        for payload in payloads[:-1]
        for choice in json.loads(payload)["choices"]
    )
    ctx = Context("openai-chat", kind="response", fidelity=False)
    events = list(read_stream(payloads, "openai-chat", ctx))
    assert events[-1]["type"] == "message_complete"
    assert events[-1]["stop_reason"] == "other"
    marker = f"/{len(payloads) - 1}"
    # (each chunk's `logprobs` holds only nulls: nothing is lost, nothing reported)
    assert [(x.pointer, x.code) for x in ctx.losses] == [(marker, "stop_reason_approximated")]
    text, _ = _run(_lines(path), "openai-chat", "anthropic")
    assert "message_stop" in text
    assert "stream_truncated" not in text
    cut = list(read_stream(payloads[:-1], "openai-chat"))
    assert cut[-1]["type"] == "error"
    assert cut[-1]["error"]["code"] == "stream_truncated"


MISTRAL = (
    REAL
    / "openai-chat/stream/pydantic-ai--test-mistral-test-mistral-model-thinking-part-iter-0.sse"
)


def _chat_chunk(content: Any) -> dict[str, Any]:
    return {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "magistral-medium-latest",
        "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}],
    }


def test_mistral_streams_its_reasoning_as_typed_chunks_read_as_thinking() -> None:
    """Regression (pydantic-ai's recorded Magistral stream): a chunk's `delta.content` is a list
    of typed chunks, `thinking` holding the reasoning as text chunks; it was refused
    (`wrong_type`, "expected a string")."""
    payloads = [
        line.removeprefix("data: ")
        for line in MISTRAL.read_text(encoding="utf-8").splitlines()
        if line.startswith("data: ")
    ]
    ctx = Context("openai-chat", kind="response", fidelity=False)
    events = list(read_stream(payloads, "openai-chat", ctx))
    assert ctx.losses == []
    message = reassemble(events, "openai-chat")["message"]
    assert [part["type"] for part in message["content"]] == ["thinking", "text"]
    assert message["content"][0]["text"].startswith("Okay, the user is asking how to cross")
    assert message["content"][1]["text"].startswith("To cross the street safely")
    text, _ = _run(_lines(MISTRAL), "openai-chat", "anthropic")
    assert '"thinking_delta"' not in text  # unsigned reasoning is not replayed to Anthropic
    assert '"text":"To"' in text


def test_a_typed_chunk_no_rule_reads_is_reported_and_a_number_is_refused() -> None:
    chunks = [
        _chat_chunk([{"type": "text", "text": "Hi"}, {"type": "image_url", "image_url": "x"}]),
        {**_chat_chunk(""), "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    ctx = Context("openai-chat", kind="response", fidelity=False)
    events = list(read_stream(chunks, "openai-chat", ctx))
    assert reassemble(events, "openai-chat")["message"]["content"] == [
        {"type": "text", "text": "Hi"}
    ]
    assert [x.pointer for x in ctx.losses] == ["/0/choices/0/delta/content/1"]
    refused = list(read_stream([_chat_chunk(5)], "openai-chat"))
    assert refused[-1]["error"]["code"] == "wrong_type"


def test_azures_prompt_filter_chunk_is_not_the_messages_start() -> None:
    """Regression (openllmetry's recorded Azure OpenAI stream): the first chunk holds only the
    prompt filter's verdicts, with an empty id, model and object. It started the message, so
    the message kept the empty id and model the later chunks corrected; its verdicts went
    unreported. Now the next chunk starts the message and the verdicts are reported."""
    path = (
        REAL / "openai-chat/stream/openllmetry--openai-test-azure-test-chat-async-streaming-1.sse"
    )
    payloads = [
        line.removeprefix("data: ")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("data: ")
    ]
    assert json.loads(payloads[0])["id"] == ""
    ctx = Context("openai-chat", kind="response", fidelity=False)
    events = list(read_stream(payloads, "openai-chat", ctx))
    assert (events[0]["id"], events[0]["model"]) == (
        "chatcmpl-DPTBg29yUne0qG2XCotTwUgvJqaSb",
        "gpt-4.1-mini-2025-04-14",
    )
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/0/prompt_filter_results", "field_dropped")
    ]
    assert events[-1]["type"] == "message_complete"
