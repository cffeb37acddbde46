"""`result_object`: a tool result as one JSON object, each way, and what it refuses."""

from __future__ import annotations

import pytest

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import ABSENT, TRANSFORMS

T = TRANSFORMS["result_object"]
KEYS = ("output", "error", "result")


@pytest.fixture
def ctx() -> Context:
    return Context("test")


def text(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


def encode(
    ctx: Context, content: object, structured: object = ABSENT, error: object = ABSENT
) -> object:
    return T.encode(ctx, "/m/0/content", content, structured, error, *KEYS)


def decode(ctx: Context, wire: object) -> tuple[object, object, object]:
    content, structured, error, *rest = T.decode(ctx, wire, "/r", *KEYS)
    assert rest == [None, None, None]  # nothing for the keys
    return content, structured, error


def test_reads_its_keys_from_the_mapping() -> None:
    assert T.literals and T.arity == 6


def test_text_is_wrapped_under_the_answer_key(ctx: Context) -> None:
    assert encode(ctx, [text("18C")]) == {"output": "18C"}
    assert decode(ctx, {"output": "18C"}) == ([text("18C")], ABSENT, ABSENT)
    assert ctx.losses == []


def test_the_other_answer_key_reads_as_text_too(ctx: Context) -> None:
    assert decode(ctx, {"result": "14:05"}) == ([text("14:05")], ABSENT, ABSENT)


def test_a_failure_goes_under_the_failure_key(ctx: Context) -> None:
    assert encode(ctx, [text("no such city")], error=True) == {"error": "no such city"}
    assert decode(ctx, {"error": "no such city"}) == ([text("no such city")], ABSENT, True)
    assert encode(ctx, [], {"code": 404}, True) == {"error": {"code": 404}}
    assert decode(ctx, {"error": {"code": 404}}) == ([], {"code": 404}, True)
    assert encode(ctx, [], error=True) == {"error": ""}
    assert decode(ctx, {"error": ""}) == ([], ABSENT, True)


def test_is_error_false_is_a_plain_answer(ctx: Context) -> None:
    assert encode(ctx, [text("ok")], error=False) == {"output": "ok"}


def test_a_structured_value_is_the_object_itself(ctx: Context) -> None:
    value = {"temp": 18, "sky": "cloudy"}
    assert encode(ctx, [], value) == value
    assert decode(ctx, value) == ([], value, ABSENT)
    # a single answer key holding something other than text is structured too
    assert decode(ctx, {"output": [1, 2]}) == ([], {"output": [1, 2]}, ABSENT)
    assert decode(ctx, {"error": 500}) == ([], {"error": 500}, ABSENT)


def test_text_mirroring_the_structured_value_is_not_a_loss(ctx: Context) -> None:
    value = {"temp": 18}
    assert encode(ctx, [text('{"temp": 18}')], value) == value
    assert ctx.losses == []


def test_other_text_beside_a_structured_value_is_set_aside(ctx: Context) -> None:
    # Carried in the user turn after the results (the layout reports it moved), not dropped.
    assert encode(ctx, [text("Sunny."), text('{"temp":18}')], {"temp": 18}) == {"temp": 18}
    assert ctx.losses == []
    assert ctx.displaced == [(text("Sunny."), "/m/0/content/0")]


def test_nothing_is_an_empty_object(ctx: Context) -> None:
    assert encode(ctx, []) == {}
    assert decode(ctx, {}) == ([], ABSENT, ABSENT)
    assert decode(ctx, {"output": ""}) == ([], ABSENT, ABSENT)


def test_several_texts_join_with_newlines_and_each_join_is_reported(ctx: Context) -> None:
    assert encode(ctx, [text("a"), text("b"), text("c")]) == {"output": "a\nb\nc"}
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/m/0/content/1", "parts_merged"),
        ("/m/0/content/2", "parts_merged"),
    ]


def test_parts_that_are_not_text_are_set_aside(ctx: Context) -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}}
    assert encode(ctx, [text("shot"), image]) == {"output": "shot"}
    assert ctx.displaced == [(image, "/m/0/content/1")]
    assert ctx.losses == []  # the layout reports the move when it places the part


def test_a_result_that_is_not_an_object_is_refused(ctx: Context) -> None:
    with pytest.raises(ConversionError) as err:
        decode(ctx, "18C")
    assert (err.value.code, err.value.pointer) == ("wrong_type", "/r")


# --- result_value: a tool result as one JSON value --------------------------------------------

V = TRANSFORMS["result_value"]


def test_value_text_is_the_string(ctx: Context) -> None:
    assert V.encode(ctx, "/m/0/content", [text("18C")], ABSENT, ABSENT) == "18C"
    assert ctx.losses == []


def test_value_several_texts_join_and_are_reported(ctx: Context) -> None:
    assert V.encode(ctx, "/m/0/content", [text("a"), text("b")], ABSENT, ABSENT) == "a\nb"
    assert [(loss.pointer, loss.code) for loss in ctx.losses] == [
        ("/m/0/content/1", "parts_merged")
    ]


def test_value_structured_is_the_object_and_a_mirroring_text_is_not_reported(
    ctx: Context,
) -> None:
    value = {"status": "shipped"}
    assert V.encode(ctx, "/m/0/content", [text('{"status": "shipped"}')], value, ABSENT) == value
    assert ctx.losses == []
    assert V.encode(ctx, "/m/0/content", [text("other")], value, ABSENT) == value
    assert ctx.losses == []
    assert ctx.displaced == [(text("other"), "/m/0/content/0")]  # for the next user turn


def test_value_error_flag_is_reported_and_media_set_aside(ctx: Context) -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}}
    assert V.encode(ctx, "/m/0/content", [text("boom"), image], ABSENT, True) == "boom"
    assert [(loss.pointer, loss.code) for loss in ctx.losses] == [
        ("/m/0/is_error", "field_dropped")
    ]
    assert ctx.displaced == [(image, "/m/0/content/1")]


def test_value_reads_string_object_and_other_json(ctx: Context) -> None:
    assert V.decode(ctx, "18C", "/r") == ([text("18C")], ABSENT, ABSENT)
    assert V.decode(ctx, "", "/r") == ([], ABSENT, ABSENT)
    assert V.decode(ctx, {"a": 1}, "/r") == ([], {"a": 1}, ABSENT)
    assert V.decode(ctx, [1, 2], "/r") == ([text("[1, 2]")], ABSENT, ABSENT)
    assert V.decode(ctx, None, "/r") == ([text("null")], ABSENT, ABSENT)
