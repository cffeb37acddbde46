"""A web page's citation in an Anthropic stream (`citations_delta` of a
`web_search_result_location`) names no span: it supports its whole text block, which is still
being streamed when the citation arrives. A target that writes a page's citation only with its
span (OpenAI Responses' annotation events, Chat's message annotations) gets it when the block
closes, spanning the block's text; before, each was reported dropped."""

from __future__ import annotations

import json
from typing import Any

from interlingua.streams.engine import StreamTranslator
from tests.streams.helpers import chunk_validator, framed

CITE = {
    "type": "web_search_result_location",
    "url": "https://a.org",
    "title": "A",
    "encrypted_index": "Eo8B",
    "cited_text": "a passage",
}
TEXT = ["Pogačar ", "won the Tour."]


def _stream() -> list[Any]:
    def delta(kind: str, **value: Any) -> dict[str, Any]:
        return {"type": "content_block_delta", "index": 0, "delta": {"type": kind, **value}}

    return [
        {"type": "message_start", "message": {"id": "m", "model": "c", "usage": {}}},
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "text", "text": "", "citations": []},
        },
        delta("citations_delta", citation=CITE),
        *[delta("text_delta", text=piece) for piece in TEXT],
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    ]


def _run(target: str) -> tuple[list[Any], StreamTranslator]:
    translator = StreamTranslator("anthropic", target)
    text = "".join(translator.feed(line) for line in framed("anthropic", _stream()))
    text += translator.close()
    payloads = [
        json.loads(line[6:])
        for line in text.splitlines()
        if line.startswith("data: ") and line != "data: [DONE]"
    ]
    return payloads, translator


def test_responses_annotates_the_block_when_it_closes() -> None:
    payloads, translator = _run("openai-responses")
    check = chunk_validator("openai-responses")
    assert all(check.is_valid(p) for p in payloads)
    types = [p["type"] for p in payloads]
    added = types.index("response.output_text.annotation.added")
    assert (
        types.index("response.output_text.delta")
        < added
        < types.index("response.content_part.done")
    )
    expected = {
        "type": "url_citation",
        "url": "https://a.org",
        "title": "A",
        "start_index": 0,
        "end_index": len("".join(TEXT)),
    }
    assert payloads[added]["annotation"] == expected
    done = payloads[types.index("response.content_part.done")]
    assert done["part"]["annotations"] == [expected]
    # What an annotation has no place for is reported; the citation itself is not.
    assert [(x.pointer, x.code) for x in translator.losses if "citation" in x.pointer] == [
        ("/2/citation/cited_text", "field_dropped")
    ]


def test_chat_annotates_its_only_text() -> None:
    payloads, translator = _run("openai-chat")
    annotations = [
        a for p in payloads for c in p.get("choices", []) for a in c["delta"].get("annotations", [])
    ]
    assert [a["url_citation"]["end_index"] for a in annotations] == [len("".join(TEXT))]
    assert not [x for x in translator.losses if x.code == "parameter_dropped"]
