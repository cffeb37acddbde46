"""`interlingua.conversion.adapters.carry`: what a format has no field for, carried in a form it has."""

from __future__ import annotations

from interlingua.conversion import Context
from interlingua.conversion.adapters.carry import as_text, structured_as_text, text_instead
from interlingua.generated.adapters import ADAPTERS


def _result(**extra: object) -> dict[str, object]:
    return {"type": "tool_result", "tool_call_id": "c1", "content": [], **extra}


def test_a_structured_value_becomes_its_json_text_where_it_has_no_field() -> None:
    ctx = Context("openai-chat")
    part = structured_as_text(ctx, _result(structured_content={"t": 18}), "/m/2/c/0")
    assert part == _result(content=[{"type": "text", "text": '{"t":18}'}])
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/m/2/c/0/structured_content", "converted_to_text")
    ]


def test_a_text_already_holding_the_value_is_not_repeated() -> None:
    ctx = Context("openai-chat")
    mirror = {"type": "text", "text": '{"t": 18}'}
    part = structured_as_text(ctx, _result(content=[mirror], structured_content={"t": 18}), "")
    assert part == _result(content=[mirror])
    assert [x.code for x in ctx.losses] == ["converted_to_text"]


def test_other_parts_and_results_without_a_structured_value_pass() -> None:
    ctx = Context("openai-chat")
    text = {"type": "text", "text": "hi"}
    assert structured_as_text(ctx, text, "") is text
    assert structured_as_text(ctx, _result(), "") == _result()
    assert ctx.losses == []


def test_a_format_with_a_field_for_the_value_keeps_it() -> None:
    # Gemini has `functionResponse.response`: its writer never turns the value to text.
    given = _result(name="weather", structured_content={"t": 18})
    ctx = Context("gemini")
    _, wire = ADAPTERS["gemini"].turns.encode_part(ctx, given, "")
    assert wire["functionResponse"]["response"] == {"t": 18}
    assert [x.code for x in ctx.losses if x.code == "converted_to_text"] == []


def test_the_text_a_resource_or_prompt_result_holds() -> None:
    assert as_text({"type": "resource", "uri": "file:///a", "content": "A"}) == "A"
    assert as_text({"type": "prompt_result", "content": "Review it."}) == "Review it."
    assert as_text({"type": "resource", "uri": "file:///a", "blob": "AAAA"}) is None
    assert as_text({"type": "resource", "uri": "file:///a", "content": ""}) is None
    assert as_text({"type": "video"}) is None


def test_text_instead_reports_the_change_of_form() -> None:
    ctx = Context("anthropic")
    part = {"type": "resource", "uri": "file:///a", "content": "A"}
    assert text_instead(ctx, part, "/m/0/c/1") == {"type": "text", "text": "A"}
    assert [(x.pointer, x.code, x.part_type) for x in ctx.losses] == [
        ("/m/0/c/1", "converted_to_text", "resource")
    ]
    assert text_instead(ctx, {"type": "video"}, "/x") is None
