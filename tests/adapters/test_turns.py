"""`interlingua.conversion.adapters.turns`: the named steps generated turn readers and writers call."""

from __future__ import annotations

from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.adapters import turns
from interlingua.conversion.transforms.base import ABSENT


def text(value: str, **extra: Any) -> dict[str, Any]:
    return {"type": "text", "text": value, **extra}


def losses(ctx: Context) -> list[tuple[str, str]]:
    return [(loss.pointer, loss.code) for loss in ctx.losses]


def test_reasoning_read_is_bound_to_its_format_and_model() -> None:
    ctx = Context("gemini", model="gemini-2.5-pro")
    assert turns.bind(ctx, "gemini", {"type": "thinking", "text": "t"})["origin"] == {
        "format": "gemini",
        "model": "gemini-2.5-pro",
    }
    assert "origin" not in turns.bind(ctx, "gemini", text("t"))
    assert turns.bind(Context("x"), "x", {"type": "thinking"})["origin"] == {"format": "x"}


def test_blank_text_is_refused_and_reported_other_text_is_not() -> None:
    ctx = Context("anthropic")
    assert turns.blank(ctx, text(" \n"), "/m/0/content/0")
    assert turns.blank(ctx, {"type": "refusal", "text": ""}, "/m/0/content/1")
    assert not turns.blank(ctx, text("a"), "/x")
    assert not turns.blank(ctx, {"type": "image"}, "/x")
    assert losses(ctx) == [
        ("/m/0/content/0", "part_dropped"),
        ("/m/0/content/1", "part_dropped"),
    ]


def test_a_signature_rides_on_a_part_of_its_own_kind_only() -> None:
    block = {"text": "a", "thoughtSignature": "sig"}
    assert turns.signature_of(block, text("a"), "thoughtSignature") == "sig"
    assert turns.signature_of(block, {"type": "thinking"}, "thoughtSignature") is None
    assert turns.signature_of(block, {"type": "gemini.other"}, "thoughtSignature") is None
    assert turns.signature_of({"text": "a"}, text("a"), "thoughtSignature") is None
    assert turns.signature_only({"type": "thinking", "text": "", "signature": "s"})
    assert not turns.signature_only({"type": "thinking", "text": "t", "signature": "s"})
    assert not turns.signature_only(
        {"type": "thinking", "text": "", "signature": "s", "origin": {}}
    )


def test_a_marker_field_comes_off_the_parts_that_have_it() -> None:
    hinted = text("a", cache_hint={"type": "ephemeral"})
    hint, part = turns.marked(hinted, "cache_hint", frozenset({"text"}))
    assert hint == {"type": "ephemeral"} and part == text("a")
    assert turns.marked(hinted, "cache_hint", frozenset({"image"})) == (ABSENT, hinted)
    assert turns.marked(text("a"), "cache_hint", frozenset({"text"})) == (ABSENT, text("a"))


def test_texts_joined_into_one_string_are_reported_once() -> None:
    ctx = Context("ollama")
    assert turns.joined(ctx, ["a", "b"], "/m/0/content", "\n") == "a\nb"
    assert turns.joined(ctx, ["a"], "/m/1/content", "\n") == "a"
    assert losses(ctx) == [("/m/0/content", "parts_merged")]


def test_a_response_text_joins_where_the_first_stood_and_reports_what_it_leaves() -> None:
    ctx = Context("openai-chat", kind="response")
    parts = [text("a", cache_hint={}), {"type": "tool_call"}, text("b")]
    out, places = turns.one_text(ctx, parts, ["/p/0", "/p/1", "/p/2"], "/p", "")
    assert out == [text("ab"), {"type": "tool_call"}]
    assert places == ["/p/0", "/p/1"]
    assert losses(ctx) == [("/p", "parts_merged"), ("/p/0/cache_hint", "field_dropped")]
    alone = [text("a")]
    assert turns.one_text(ctx, alone, ["/q/0"], "/q", "") == (alone, ["/q/0"])


def test_results_split_off_a_user_turn_each_as_a_tool_message() -> None:
    result = {"type": "tool_result", "tool_call_id": "c"}
    assert turns.split_results([result, text("a"), result]) == [
        {"role": "tool", "content": [result]},
        {"role": "user", "content": [text("a")]},
        {"role": "tool", "content": [result]},
    ]
    assert turns.split_results([]) == [{"role": "user", "content": []}]
    assert turns.is_result(result) and not turns.is_result(text("a"))


def test_an_empty_text_beside_other_parts_is_left_out() -> None:
    call = {"type": "tool_call"}
    assert turns.without_empty_text([text(""), call]) == [call]
    assert turns.without_empty_text([text("")]) == [text("")]


def test_a_turn_with_nothing_but_its_role_and_empty_content_is_empty() -> None:
    assert turns.empty_turn({"role": "user", "content": []}, "content")
    assert turns.empty_turn({"role": "user"}, "content")
    assert not turns.empty_turn({"role": "user", "content": "", "name": "n"}, "content")
    assert not turns.empty_turn({"role": "user", "content": "a"}, "content")


def test_message_fields_beside_role_and_content_are_reported() -> None:
    ctx = Context("anthropic")
    turns.fields_dropped(ctx, {"role": "user", "content": [], "provider_raw": {}}, "/m/0")
    turns.fields_dropped(ctx, {"role": "user", "content": [], "b~/": 1, "a": 2}, "/m/1")
    assert losses(ctx) == [("/m/1/a", "field_dropped"), ("/m/1/b~0~1", "field_dropped")]


def test_a_system_prompt_as_one_string() -> None:
    ctx = Context("mcp")
    parts = [
        (text("one"), "/messages/0/content/0"),
        (text(" ", cache_hint={}), "/messages/0/content/1"),
        ({"type": "image"}, "/messages/1/content/0"),
        (text("two", cache_hint={}), "/messages/2/content/0"),
    ]
    pointers = ["/messages/0", "/messages/1", "/messages/2"]
    value = turns.system_string(ctx, parts, pointers, drop_blank=True)
    assert value == "one\n\ntwo"
    assert losses(ctx) == [
        ("/messages/0/content/1", "part_dropped"),  # blank
        ("/messages/1/content/0", "part_dropped"),  # not a text
        ("/messages/2/content/0/cache_hint", "field_dropped"),
        ("/messages/2/content/0", "turns_merged"),
        ("/messages/1", "message_dropped"),
    ]
    kept = Context("mcp")
    assert turns.system_string(kept, parts[1:2], pointers[:1], drop_blank=False) == " "
    assert turns.system_string(Context("mcp"), [], [], drop_blank=False) is ABSENT


def test_merging_into_a_turn_without_content_starts_its_list() -> None:
    into: dict[str, Any] = {"role": "user", "content": None}
    turns.merge_turn(into, {"role": "user"}, set(), "role", "content")
    assert into == {"role": "user", "content": []}


def test_several_results_counts_tool_results_only() -> None:
    result = {"type": "tool_result", "tool_call_id": "c", "content": []}
    assert not turns.several_results([])
    assert not turns.several_results([result, text("a"), text("b")])
    assert turns.several_results([result, text("a"), result])
