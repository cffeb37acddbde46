"""Citations kept beside a turn's text (OpenAI Chat's message `annotations`), moved onto and
off the text parts they cite."""

from __future__ import annotations

from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.adapters.turn_citations import TurnCitations
from interlingua.generated.adapters.openai_chat import CITATIONS

# The generated field of OpenAI Chat, its parts joined with a separator to show the shift.
SPACED = TurnCitations(CITATIONS.field, " ", CITATIONS.encode, CITATIONS.decode)


def _ctx(fidelity: bool = False) -> Context:
    return Context(adapter="openai-chat", kind="response", fidelity=fidelity)


def _annotation(
    start: int, end: int, url: str = "https://example.com", title: str = "Example"
) -> dict[str, Any]:
    return {
        "type": "url_citation",
        "url_citation": {"url": url, "title": title, "start_index": start, "end_index": end},
    }


def _text(text: str, **more: Any) -> dict[str, Any]:
    return {"type": "text", "text": text, **more}


def test_a_citation_goes_on_the_text_part_its_span_lies_in_shifted_to_that_part() -> None:
    ctx = _ctx()
    parts = [_text("abc"), {"type": "refusal", "text": "no"}, _text("defgh")]
    # "abc defgh": the second text part starts at 4.
    turn = {"annotations": [_annotation(5, 7), _annotation(0, 3, "https://example.org")]}
    out = SPACED.give(ctx, turn, parts, "/message")
    assert out[0]["citations"][0]["span"] == {"start": 0, "end": 3}
    assert out[1] == parts[1]
    assert out[2]["citations"] == [
        {
            "type": "url",
            "url": "https://example.com",
            "title": "Example",
            "span": {"start": 1, "end": 3},
        }
    ]
    assert ctx.losses == []


def test_a_span_across_two_parts_or_a_turn_without_text_has_no_part_and_is_reported() -> None:
    ctx = _ctx()
    parts = [_text("abc"), _text("defgh")]
    out = SPACED.give(ctx, {"annotations": [_annotation(2, 6)]}, parts, "/message")
    assert out == parts
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/message/annotations/0", "field_dropped")
    ]
    ctx = _ctx()
    out = SPACED.give(ctx, {"annotations": [_annotation(0, 1)]}, [], "/message")
    assert out == []
    assert [x.code for x in ctx.losses] == ["field_dropped"]


def test_an_annotation_of_a_kind_not_read_leaves_the_parts_as_they_are() -> None:
    ctx = _ctx()
    parts = [_text("abc")]
    turn = {"annotations": [{"type": "file_citation", "file_id": "f"}]}
    assert SPACED.give(ctx, turn, parts, "/m") == parts
    assert [x.code for x in ctx.losses] == ["field_dropped"]
    assert SPACED.give(ctx, {"content": "abc"}, parts, "/m") == parts


def test_writing_takes_the_citations_off_and_shifts_each_by_where_its_part_starts() -> None:
    ctx = _ctx()
    cite = {
        "type": "url",
        "url": "https://example.com",
        "title": "T",
        "span": {"start": 1, "end": 2},
    }
    parts = [
        _text("abc"),
        {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
        _text("defgh", citations=[cite, {"type": "url", "url": "https://example.org"}]),
    ]
    out, wire = SPACED.take(ctx, parts, ["/c/0", "/c/1", "/c/2"])
    assert out == [parts[0], parts[1], _text("defgh")]
    assert wire == [_annotation(5, 6, title="T")]
    # A citation without its span (and title) has no annotation: reported where it was.
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/c/2/citations/1", "parameter_dropped")]


def test_a_turn_without_citations_is_left_as_it_is() -> None:
    ctx = _ctx()
    parts = [_text("abc")]
    assert SPACED.take(ctx, parts, ["/c/0"]) == (parts, [])
    assert SPACED.give(ctx, {"annotations": []}, parts, "/m") == parts
    assert SPACED.give(ctx, {"annotations": None}, parts, "/m") == parts
    assert ctx.losses == []


def test_a_citation_without_a_span_among_several_text_parts_has_no_part() -> None:
    def bare(ctx: Context, wire: Any, at: str) -> Any:
        return {"type": "url", "url": wire}

    spanless = TurnCitations("annotations", "", CITATIONS.encode, bare)
    ctx = _ctx()
    parts = [_text("a"), _text("b")]
    assert spanless.give(ctx, {"annotations": ["https://example.com"]}, parts, "/m") == parts
    assert [x.code for x in ctx.losses] == ["field_dropped"]
