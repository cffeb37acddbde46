"""Grounding beside a response's message (Gemini's `groundingMetadata`) read as url citations
on the text parts and written back from them."""

from __future__ import annotations

from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.adapters import grounding
from interlingua.conversion.converter import convert
from interlingua.generated.adapters.gemini import ADAPTER

NAMES = ADAPTER.grounding or {}


def _ctx(fidelity: bool = False) -> Context:
    return Context(adapter="gemini", kind="response", fidelity=fidelity)


def _meta(*supports: Any, **more: Any) -> dict[str, Any]:
    return {
        "groundingMetadata": {
            "groundingChunks": [
                {"web": {"uri": "https://example.com", "title": "Example"}},
                {"retrievedContext": {"text": "a file"}},
            ],
            "groundingSupports": list(supports),
            **more,
        }
    }


def _support(start: int, end: int, *indices: int, part: int = 0) -> dict[str, Any]:
    segment = {"startIndex": start, "endIndex": end, "text": "x"}
    if part:
        segment["partIndex"] = part
    return {"segment": segment, "groundingChunkIndices": list(indices)}


def _message(*texts: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": t} for t in texts]}


def test_byte_offsets_become_code_points_of_the_part_the_segment_lies_in() -> None:
    ctx = _ctx()
    message = _message("é1", "ñab")  # joined: é(2 bytes) 1 ñ(2 bytes) a b
    grounding.read(ctx, NAMES, _meta(_support(3, 6, 0)), message, "/candidates/0")
    assert "citations" not in message["content"][0]
    assert message["content"][1]["citations"] == [
        {
            "type": "url",
            "url": "https://example.com",
            "title": "Example",
            "span": {"start": 0, "end": 2},
        }
    ]


def test_what_cannot_be_read_is_reported_in_place_of_the_whole_field() -> None:
    ctx = _ctx()
    ctx.loss("/candidates/0/groundingMetadata", "field_dropped", "unread by the envelope")
    message = _message("é1")
    meta = _meta(
        _support(1, 2, 0),  # inside the two bytes of é
        _support(0, 2, 0, part=1),  # another part named: not read
        _support(0, 2, 1, 7),  # a retrieved context and no chunk 7: no citation
        {"segment": "bad"},
        webSearchQueries=["q"],
    )
    grounding.read(ctx, NAMES, meta, message, "/candidates/0")
    assert message == _message("é1")
    here = "/candidates/0/groundingMetadata"
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        (f"{here}/webSearchQueries", "field_dropped"),
        (f"{here}/groundingChunks/1", "field_dropped"),
        (f"{here}/groundingSupports/0", "field_dropped"),
        (f"{here}/groundingSupports/1", "field_dropped"),
        (f"{here}/groundingSupports/3", "field_dropped"),
    ]


def test_reading_for_a_round_trip_reports_nothing_and_no_grounding_changes_nothing() -> None:
    ctx = _ctx(fidelity=True)
    message = _message("abc")
    grounding.read(ctx, NAMES, _meta(_support(5, 9, 0), webSearchQueries=["q"]), message, "")
    owners: list[Any] = [None, {}, {"groundingMetadata": []}, {"groundingMetadata": {}}]
    for owner in owners:
        grounding.read(ctx, NAMES, owner, message, "")
    assert message == _message("abc")
    assert ctx.losses == []


def test_writing_lists_each_page_once_and_counts_bytes_of_the_joined_text() -> None:
    ctx = _ctx()
    cite = {
        "type": "url",
        "url": "https://example.com",
        "title": "T",
        "span": {"start": 1, "end": 2},
    }
    message = _message("é", "aé")
    message["content"][1]["citations"] = [cite, {**cite, "span": {"start": 0, "end": 1}}]
    message["content"].append({"type": "thinking", "text": "t"})
    owner: dict[str, Any] = {}
    out = grounding.write(ctx, NAMES, message, owner, "/message")
    assert out["content"] == [*_message("é", "aé")["content"], {"type": "thinking", "text": "t"}]
    assert owner == {
        "groundingMetadata": {
            "groundingChunks": [{"web": {"uri": "https://example.com", "title": "T"}}],
            "groundingSupports": [
                {
                    "segment": {"startIndex": 3, "endIndex": 5, "text": "é"},
                    "groundingChunkIndices": [0],
                },
                {
                    "segment": {"startIndex": 2, "endIndex": 3, "text": "a"},
                    "groundingChunkIndices": [0],
                },
            ],
        }
    }
    assert ctx.losses == []


def test_a_citation_gemini_cannot_hold_is_reported_and_one_page_backs_a_segment_once() -> None:
    ctx = _ctx()
    page = {"type": "url", "url": "https://example.com", "span": {"start": 0, "end": 1}}
    message = _message("ab")
    message["content"][0]["citations"] = [
        page,
        page,
        {**page, "url": "https://example.org"},
        {"type": "url", "url": "https://example.net"},  # no span: the whole part
        {"type": "file", "file_id": "f"},
    ]
    owner: dict[str, Any] = {}
    grounding.write(ctx, NAMES, message, owner, "/message")
    supports = owner["groundingMetadata"]["groundingSupports"]
    assert supports == [
        {"segment": {"endIndex": 1, "text": "a"}, "groundingChunkIndices": [0, 1]},
        {"segment": {"endIndex": 2, "text": "ab"}, "groundingChunkIndices": [2]},
    ]
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/message/content/0/citations/4", "parameter_dropped"),
    ]
    ctx = _ctx()
    grounding.write(ctx, NAMES, message, None, "/message")
    assert ("/message/content", "field_dropped") in [(x.pointer, x.code) for x in ctx.losses]
    assert grounding.write(ctx, NAMES, _message("ab"), owner, "/m") == _message("ab")


def test_the_holder_is_found_along_the_message_path_or_not_at_all() -> None:
    body: dict[str, Any] = {"candidates": [{"content": {}}]}
    assert grounding.holder(body, ("candidates", 0, "content")) == {"content": {}}
    assert grounding.holder({"candidates": []}, ("candidates", 0, "content")) is None
    assert grounding.holder({"candidates": ["x"]}, ("candidates", 0, "content")) is None
    assert grounding.holder([], ("candidates", 0, "content")) is None


def test_a_segment_of_an_unknown_shape_is_not_read() -> None:
    ctx = _ctx()
    message = _message("ab")
    meta = _meta(
        "bad", {"segment": {"startIndex": "0", "endIndex": 1}, "groundingChunkIndices": [0]}
    )
    grounding.read(ctx, NAMES, meta, message, "/c")
    assert message == _message("ab")
    assert [x.code for x in ctx.losses] == ["field_dropped"] * 3  # the file, both supports


def test_a_response_converts_with_its_grounding_both_ways() -> None:
    body = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "Über"}]},
                "finishReason": "STOP",
                **_meta(_support(2, 5, 0, 1)),
            }
        ],
        "modelVersion": "gemini-2.5-flash",
    }
    read = convert(body, "gemini", "canonical", "response")
    (part,) = read.output["message"]["content"]
    assert part["citations"][0]["span"] == {"start": 1, "end": 4}
    assert convert(read.output, "canonical", "gemini", "response").output == body
    chat = convert(body, "gemini", "openai-chat", "response")
    annotation = chat.output["choices"][0]["message"]["annotations"][0]["url_citation"]
    assert (annotation["start_index"], annotation["end_index"]) == (1, 4)
    back = convert(chat.output, "openai-chat", "gemini", "response").output
    support = back["candidates"][0]["groundingMetadata"]["groundingSupports"][0]
    assert support["segment"] == {"startIndex": 2, "endIndex": 5, "text": "ber"}
