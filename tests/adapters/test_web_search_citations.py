"""Anthropic's web search cites a page on the text block the page supports, with no span
(`web_search_result_location`). It was read as having no canonical home, so an Anthropic answer
behind an OpenAI-compatible API lost its sources. It is a url citation of the whole block: a
target that writes a page's citation with its span gets the block's, and Messages takes one
back only with the encrypted index its own search issued (round-trip data)."""

from __future__ import annotations

import copy
from typing import Any

from interlingua.conversion.adapters.spans import whole_part_spans
from interlingua.conversion.converter import check_wire, convert


def _cite(url: str, title: str) -> dict[str, Any]:
    return {
        "type": "web_search_result_location",
        "url": url,
        "title": title,
        "encrypted_index": "Eo8BCioIAhgBIiQy",
        "cited_text": "a passage of the page",
    }


ANSWER: dict[str, Any] = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [
        {"type": "text", "text": "Pogačar won"},
        {"type": "text", "text": " the 2024 Tour.", "citations": [_cite("https://a.org", "A")]},
        {
            "type": "text",
            "text": " He won in 2020 too.",
            "citations": [_cite("https://b.org", "B")],
        },
    ],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 100, "output_tokens": 20},
}


def _losses(result: Any) -> list[tuple[str, str]]:
    return [(loss.pointer, loss.code) for loss in result.losses]


def test_a_web_search_citation_reads_as_a_url_citation_and_comes_back() -> None:
    result = convert(copy.deepcopy(ANSWER), "anthropic", "canonical", "response")
    assert result.output["message"]["content"][1]["citations"] == [
        {"type": "url", "url": "https://a.org", "title": "A", "cited_text": "a passage of the page"}
    ]
    assert convert(result.output, "canonical", "anthropic", "response").output == ANSWER


def test_openai_chat_annotates_the_block_in_the_joined_text() -> None:
    result = convert(copy.deepcopy(ANSWER), "anthropic", "openai-chat", "response")
    check_wire(result.output, "openai-chat", "response", strict=True)
    message = result.output["choices"][0]["message"]
    assert message["content"] == "Pogačar won the 2024 Tour. He won in 2020 too."
    spans = [
        (a["url_citation"]["url"], a["url_citation"]["start_index"], a["url_citation"]["end_index"])
        for a in message["annotations"]
    ]
    assert spans == [("https://a.org", 11, 26), ("https://b.org", 26, 46)]
    assert [message["content"][s:e] for _, s, e in spans] == [
        " the 2024 Tour.",
        " He won in 2020 too.",
    ]
    assert ("/content/1/citations/0/encrypted_index", "field_dropped") in _losses(result)
    assert ("/message/content/1/citations/0/cited_text", "field_dropped") in _losses(result)


def test_openai_responses_and_gemini_cite_the_block() -> None:
    result = convert(copy.deepcopy(ANSWER), "anthropic", "openai-responses", "response")
    check_wire(result.output, "openai-responses", "response", strict=True)
    texts = result.output["output"][0]["content"]
    assert texts[1]["annotations"][0] == {
        "type": "url_citation",
        "url": "https://a.org",
        "title": "A",
        "start_index": 0,
        "end_index": len(" the 2024 Tour."),
    }
    result = convert(copy.deepcopy(ANSWER), "anthropic", "gemini", "response")
    check_wire(result.output, "gemini", "response", strict=True)
    grounding = result.output["candidates"][0]["groundingMetadata"]
    assert [c["web"]["uri"] for c in grounding["groundingChunks"]] == [
        "https://a.org",
        "https://b.org",
    ]
    first = grounding["groundingSupports"][0]["segment"]
    assert first["text"] == " the 2024 Tour."
    # UTF-8 bytes: "Pogačar won" is 12 of them.
    assert (first["startIndex"], first["endIndex"]) == (12, 12 + len(" the 2024 Tour."))
    assert ("/message/content/1/citations/0/cited_text", "field_dropped") in _losses(result)


def test_a_url_citation_from_elsewhere_is_not_written_to_anthropic() -> None:
    chat = convert(copy.deepcopy(ANSWER), "anthropic", "openai-chat", "response").output
    result = convert(chat, "openai-chat", "anthropic", "response")
    check_wire(result.output, "anthropic", "response", strict=True)
    assert "citations" not in str(result.output)
    # (and the creation time Chat's answer stamps, which Anthropic's has no place for)
    assert [code for _, code in _losses(result)].count("parameter_dropped") == 3


def test_a_span_is_given_only_where_none_is_named() -> None:
    named = {"type": "url", "url": "https://a.org", "span": {"start": 1, "end": 2}}
    document = {"type": "document", "cited_text": "x"}
    parts = [{"type": "text", "text": "abc", "citations": [named, document]}]
    assert whole_part_spans(parts) is parts
    bare = {"type": "url", "url": "https://a.org"}
    given = whole_part_spans([{"type": "text", "text": "abc", "citations": [bare, document]}])
    assert given[0]["citations"] == [{**bare, "span": {"start": 0, "end": 3}}, document]


def test_a_chat_request_has_no_annotations_so_a_turns_citations_are_reported() -> None:
    """OpenAI Chat takes `annotations` on a response's message only: written on a request's
    assistant turn, the body was invalid (for Responses' url citations before these too)."""
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "Who won?"},
            {"role": "assistant", "content": copy.deepcopy(ANSWER["content"][1:])},
            {"role": "user", "content": "And before?"},
        ],
    }
    result = convert(body, "anthropic", "openai-chat")
    check_wire(result.output, "openai-chat", "request", strict=True)
    assert "annotations" not in result.output["messages"][1]
    assert ("/messages/1/content/0/citations", "field_dropped") in _losses(result)
    responses = convert(body, "anthropic", "openai-responses").output
    result = convert(responses, "openai-responses", "openai-chat")
    check_wire(result.output, "openai-chat", "request", strict=True)
