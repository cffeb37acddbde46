"""The stream engine on its own: what each reader and writer rule does at the edges, that it
never hides a loss, and that its memory does not grow with the length of a stream."""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest

from interlingua.conversion import ConversionError
from interlingua.conversion.adapters.stream_reader import StreamReader
from interlingua.conversion.adapters.stream_spec import at
from interlingua.conversion.adapters.stream_writer import StreamWriter
from interlingua.generated.streams import STREAMS
from interlingua.streams.engine import StreamTranslator, read_stream, write_stream

ANTHROPIC, OPENAI = STREAMS["anthropic"], STREAMS["openai-chat"]


def _codes(losses: list[Any]) -> list[str]:
    return [loss.code for loss in losses]


def test_at_reads_keys_and_list_indices_and_says_none_when_absent() -> None:
    value = {"a": [{"b": 1}]}
    assert at(value, ("a", 0, "b")) == 1
    assert at(value, ("a", 1, "b")) is None
    assert at(value, ("a", "b")) is None
    assert at(value, ("a", 0, "b", "c")) is None
    assert at([1], (0,)) == 1


# --- reading -------------------------------------------------------------------------------


def _read(chunks: list[Any]) -> list[dict[str, Any]]:
    return list(read_stream(chunks, "anthropic"))


def _start() -> dict[str, Any]:
    return {"type": "message_start", "message": {"id": "m", "model": "c", "usage": {}}}


def test_a_chunk_after_the_end_is_out_of_order() -> None:
    reader = StreamReader(ANTHROPIC)
    reader.feed({"type": "message_delta", "delta": {"stop_reason": "end_turn"}})
    reader.feed({"type": "message_stop"})
    assert reader.done
    (event,) = reader.feed({"type": "ping"})
    assert event["error"]["code"] == "stream_out_of_order"
    assert reader.fail("invalid_json", "late") == []  # one error ends it; nothing after


def test_the_start_is_read_once() -> None:
    events = _read([_start(), {"type": "message_start", "message": {"id": "other"}}])
    assert [e["type"] for e in events].count("message_start") == 1


def test_a_block_index_reused_for_another_kind_is_out_of_order() -> None:
    events = _read(
        [
            _start(),
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": "a"},
            },
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "b"},
            },
        ]
    )
    assert events[-1]["error"]["code"] == "stream_out_of_order"


def _call_start(call_id: str, name: str = "f") -> dict[str, Any]:
    return {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "tool_use", "id": call_id, "name": name, "input": {}},
    }


@pytest.mark.parametrize(("call_id", "name"), [("t2", "f"), ("t", "g")])
def test_a_call_started_twice_is_out_of_order(call_id: str, name: str) -> None:
    events = _read([_start(), _call_start("t"), _call_start(call_id, name)])
    assert events[-1]["error"]["code"] == "stream_out_of_order"


def test_a_call_header_repeated_as_it_was_goes_on_with_the_call() -> None:
    """OpenRouter's Kimi K2 streams a call's index, id and name again with its arguments
    (simonw/llm's recorded stream, conformance/real): it says nothing new, and the call goes
    on, one call, not a refusal."""
    events = _read([_start(), _call_start("t"), _call_start("t")])
    assert [e["type"] for e in events].count("tool_call_start") == 1
    # (cut after them: the only error is the stream's end, never the second header)
    assert [e["error"]["code"] for e in events if e["type"] == "error"] == ["stream_truncated"]


@pytest.mark.parametrize(
    "chunk",
    [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": 5}},
        {"type": "message_delta", "delta": {}, "usage": [1]},
    ],
)
def test_values_of_the_wrong_type_end_the_stream_with_a_coded_error(chunk: dict[str, Any]) -> None:
    assert _read([_start(), chunk])[-1]["error"]["code"] == "wrong_type"


def test_an_unknown_stop_reason_reads_as_other_and_is_reported() -> None:
    reader = StreamReader(ANTHROPIC)
    reader.feed(_start())
    reader.feed({"type": "message_delta", "delta": {"stop_reason": "new_reason"}, "usage": {}})
    events = reader.feed({"type": "message_stop"})
    assert events[-1]["stop_reason"] == "other"
    assert _codes(reader.ctx.losses) == ["stop_reason_approximated"]


def test_completing_without_a_stop_reason_is_a_natural_end() -> None:
    events = _read([_start(), {"type": "message_stop"}])
    assert events[-1]["stop_reason"] == "end"


def test_an_error_with_a_structured_message_keeps_it_as_json() -> None:
    events = _read([{"type": "error", "error": {"type": "x", "message": {"detail": 1}}}])
    assert events[-1]["error"]["message"] == '{"detail": 1}'


# --- writing -------------------------------------------------------------------------------


def _write(fmt: str, events: list[dict[str, Any]]) -> tuple[list[Any], StreamWriter]:
    writer = StreamWriter(STREAMS[fmt])
    out = [chunk for event in events for chunk in writer.feed(event)]
    return out, writer


def test_an_event_after_the_end_and_an_unknown_event_are_reported() -> None:
    _, writer = _write(
        "anthropic",
        [
            {"type": "message_complete", "stop_reason": "end"},
            {"type": "text_delta", "index": 0, "text": "late"},
        ],
    )
    assert _codes(writer.ctx.losses)[-1] == "field_dropped"
    _, writer = _write("anthropic", [{"type": "hologram", "index": 0}])
    assert _codes(writer.ctx.losses) == ["field_dropped"]


_REASONING: list[dict[str, Any]] = [
    {"type": "message_start", "id": "r", "model": "m"},
    {"type": "thinking_delta", "index": 0, "text": "a"},
    {"type": "thinking_delta", "index": 0, "text": "b"},
    {"type": "signature", "index": 0, "signature": "S"},
    {"type": "message_complete", "stop_reason": "end"},
]


def test_reasoning_of_no_known_issuer_is_reported_once_with_its_signature() -> None:
    # OpenAI Chat streams reasoning only as a dialect of its own (`own_reasoning`): reasoning
    # that names no issuer is not written, and reported once, its signature with it.
    out, writer = _write("openai-chat", _REASONING)
    assert _codes(writer.ctx.losses).count("thinking_not_replayable") == 1
    assert "signature" not in str(writer.ctx.losses)
    assert "reasoning" not in str(out)


def test_reasoning_read_from_openai_chat_streams_back_as_reasoning_content() -> None:
    writer = StreamWriter(STREAMS["openai-chat"], origin="openai-chat")
    out = [chunk for event in _REASONING[:3] for chunk in writer.feed(event)]
    deltas = [c["choices"][0]["delta"] for c in out if c.get("choices")]
    assert [d.get("reasoning_content") for d in deltas if "reasoning_content" in d] == ["a", "b"]
    assert "thinking_not_replayable" not in _codes(writer.ctx.losses)


def test_text_for_a_block_already_closed_is_reported() -> None:
    out, writer = _write(
        "anthropic",
        [
            {"type": "text_delta", "index": 0, "text": "a"},
            {"type": "text_delta", "index": 1, "text": "b"},
            {"type": "text_delta", "index": 0, "text": "late"},
        ],
    )
    assert "late" not in str(out)
    assert "part_dropped" in _codes(writer.ctx.losses)


def test_arguments_for_a_call_that_is_not_open_are_reported() -> None:
    _, writer = _write(
        "anthropic", [{"type": "tool_call_delta", "index": 4, "arguments_delta": "{}"}]
    )
    assert _codes(writer.ctx.losses)[-1] == "field_dropped"


def test_a_signature_with_no_place_in_the_target_is_reported() -> None:
    # A thinking part that is nothing but its signature: the whole part is lost.
    _, writer = _write("openai-chat", [{"type": "signature", "index": 0, "signature": "S"}])
    assert writer.ctx.losses[0].code == "part_dropped"
    assert writer.ctx.losses[0].part_type == "thinking"


def test_a_whole_part_the_target_cannot_stream_is_reported() -> None:
    part = {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}}
    out, writer = _write("anthropic", [{"type": "part", "index": 0, "part": part}])
    assert out == []
    assert writer.ctx.losses[0].code == "part_dropped"
    assert writer.ctx.losses[0].part_type == "image"


def test_a_refusal_written_where_there_is_no_refusal_block_goes_as_text_and_says_so() -> None:
    part = {"type": "refusal", "text": "No."}
    out, writer = _write("anthropic", [{"type": "part", "index": 0, "part": part}])
    assert {"type": "text", "text": "No."} in [c.get("content_block") for c in out]
    assert "converted_to_text" in _codes(writer.ctx.losses)


def test_an_approximated_stop_reason_is_reported() -> None:
    out, writer = _write("openai-chat", [{"type": "message_complete", "stop_reason": "pause"}])
    assert out[-1]["choices"][0]["finish_reason"] == "stop"
    assert "stop_reason_approximated" in _codes(writer.ctx.losses)


def test_ids_and_names_are_made_to_fit_the_target() -> None:
    out, writer = _write(
        "anthropic",
        [
            {"type": "tool_call_start", "index": 0, "id": "call.1", "name": "ns.tool"},
            {"type": "tool_call_end", "index": 0},
        ],
    )
    block = next(c["content_block"] for c in out if c["type"] == "content_block_start")
    assert writer.ctx.id_map == {block["id"]: "call.1"}
    assert writer.ctx.name_map == {block["name"]: "ns.tool"}


@pytest.mark.skipif(not any(s.whole_calls for s in STREAMS.values()), reason="no whole-call format")
def test_whole_calls_with_arguments_that_are_not_json_fail_with_a_coded_error() -> None:
    fmt = next(name for name, s in STREAMS.items() if s.whole_calls)
    writer = StreamWriter(STREAMS[fmt])
    writer.feed({"type": "tool_call_start", "index": 0, "id": "c", "name": "f"})
    writer.feed({"type": "tool_call_delta", "index": 0, "arguments_delta": "{not json"})
    with pytest.raises(ConversionError) as raised:
        writer.feed({"type": "tool_call_end", "index": 0})
    assert raised.value.code == "invalid_json"


def test_write_stream_writes_each_event() -> None:
    chunks = list(write_stream([{"type": "message_complete", "stop_reason": "end"}], "anthropic"))
    assert [c["type"] for c in chunks] == ["message_start", "message_delta", "message_stop"]


def test_unknown_stream_formats_are_coded_errors() -> None:
    with pytest.raises(ConversionError) as raised:
        StreamTranslator("anthropic", "fax")
    assert raised.value.code == "unknown_format"


def test_payloads_after_the_end_are_ignored() -> None:
    translator = StreamTranslator("openai-chat", "canonical")
    assert translator.feed("data: [DONE]\n") == ""
    assert '"stream_truncated"' in translator.feed("\n")
    assert translator.feed('data: {"object": "chat.completion.chunk"}\n\n') == ""
    assert translator.close() == ""


# --- memory ------------------------------------------------------------------------------


def _peak(deltas: int) -> int:
    lines = [
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message",'
        '"role":"assistant","model":"c","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}\n\n',
        'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
    ]
    delta = 'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"word "}}\n\n'
    translator = StreamTranslator("anthropic", "openai-chat")
    tracemalloc.start()
    try:
        for text in lines:
            for line in text.splitlines(keepends=True):
                translator.feed(line)
        for _ in range(deltas):
            for line in delta.splitlines(keepends=True):
                translator.feed(line)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_whatever_the_length_of_the_stream() -> None:
    short, long = _peak(1_000), _peak(10_000)
    assert long < short * 1.5, (short, long)


RESPONSES = STREAMS["openai-responses"]
A_CALL: list[dict[str, Any]] = [
    {"type": "message_start", "id": "resp_9", "model": "gpt-5"},
    {"type": "text_delta", "index": 0, "text": "Let me "},
    {"type": "text_delta", "index": 0, "text": "look."},
    {"type": "tool_call_start", "index": 1, "id": "call_1", "name": "lookup"},
    {"type": "tool_call_delta", "index": 1, "arguments_delta": '{"q": '},
    {"type": "tool_call_delta", "index": 1, "arguments_delta": '"x"}'},
    {"type": "tool_call_end", "index": 1},
    {
        "type": "message_complete",
        "stop_reason": "call",
        "usage": {"input_tokens": 3, "output_tokens": 4},
    },
]


def test_responses_chunks_are_numbered_and_end_with_the_whole_response() -> None:
    chunks = list(write_stream(A_CALL, "openai-responses"))
    assert [c["sequence_number"] for c in chunks] == list(range(len(chunks)))
    done = {c["type"]: c for c in chunks if c["type"].endswith(".done")}
    assert done["response.output_text.done"]["text"] == "Let me look."
    assert done["response.function_call_arguments.done"]["arguments"] == '{"q": "x"}'
    last = chunks[-1]
    assert last["type"] == "response.completed"
    assert last["response"]["id"] == "resp_9"
    assert [item["type"] for item in last["response"]["output"]] == ["message", "function_call"]
    assert last["response"]["usage"]["output_tokens"] == 4
    ids = {c["item_id"] for c in chunks if "item_id" in c}
    assert ids == {"resp_9_0", "resp_9_1"}  # one id per block, unique in the stream


def test_a_responses_stream_cut_short_by_the_filter_ends_with_response_incomplete() -> None:
    events = [*A_CALL[:3], {"type": "message_complete", "stop_reason": "content_filter"}]
    last = list(write_stream(events, "openai-responses"))[-1]
    assert last["type"] == "response.incomplete"
    assert last["response"]["incomplete_details"] == {"reason": "content_filter"}
    back = list(read_stream(list(write_stream(events, "openai-responses")), "openai-responses"))
    assert back[-1]["stop_reason"] == "content_filter"


def test_events_the_whole_response_cannot_fold_are_a_coded_error() -> None:
    writer = StreamWriter(RESPONSES)
    writer.feed(A_CALL[0])
    with pytest.raises(ConversionError) as raised:
        writer.feed({"type": "tool_call_delta", "index": 7, "arguments_delta": "{}"})
    assert raised.value.code == "stream_out_of_order"
    assert raised.value.pointer == "/1"


def test_only_formats_that_repeat_a_block_keep_its_text() -> None:
    assert RESPONSES.whole_blocks and RESPONSES.whole_response
    assert not any(spec.whole_blocks or spec.whole_response for spec in (ANTHROPIC, OPENAI))
