"""Values a target accepts only within limits: left to another variant, or left out (reported
unless it carries nothing)."""

from __future__ import annotations

import pytest

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import ABSENT, TRANSFORMS, Mismatch

NON_EMPTY = TRANSFORMS["non_empty"]
WEB_URL = TRANSFORMS["web_url"]
ONE_OF = TRANSFORMS["one_of"]
PLAIN_TEXT = TRANSFORMS["plain_text"]


@pytest.fixture
def ctx() -> Context:
    return Context("test")


def test_an_empty_value_is_left_out_and_nothing_is_reported(ctx: Context) -> None:
    """An empty description carries nothing: leaving it out loses nothing (regression: it was
    reported as dropped on every Converse request of a tool with `description: ""`)."""
    assert NON_EMPTY.encode(ctx, "/tools/0/description", "") is ABSENT
    assert ctx.losses == []


def test_a_value_with_something_in_it_goes_out_as_it_is(ctx: Context) -> None:
    assert NON_EMPTY.encode(ctx, "/d", " ") == " "
    assert NON_EMPTY.decode(ctx, "Pings.", "/d") == "Pings."
    assert ctx.losses == []


@pytest.mark.parametrize("url", ["https://example.com/a.png", "HTTP://example.com/a.png"])
def test_web_urls_are_written(ctx: Context, url: str) -> None:
    assert WEB_URL.encode(ctx, "/u", url) == url
    assert WEB_URL.decode(ctx, url, "/u") == url


@pytest.mark.parametrize("url", ["s3://bucket/a.png", "gs://bucket/a.pdf", "file:///a", 7])
def test_other_locations_are_another_variants(ctx: Context, url: object) -> None:
    with pytest.raises(Mismatch):
        WEB_URL.encode(ctx, "/u", url)


def test_one_of_takes_the_listed_values_only(ctx: Context) -> None:
    allowed = "image/jpeg image/png"
    assert ONE_OF.encode(ctx, "/m", "image/PNG", allowed) == "image/PNG"
    with pytest.raises(Mismatch):
        ONE_OF.encode(ctx, "/m", "image/svg+xml", allowed)
    with pytest.raises(Mismatch):
        ONE_OF.encode(ctx, "/m", None, allowed)
    assert ONE_OF.decode(ctx, "image/bmp", "/m") == ("image/bmp", None)  # reading takes any


def test_plain_text_writes_the_text_itself(ctx: Context) -> None:
    assert PLAIN_TEXT.encode(ctx, "/d/source/data", "text/plain", "SGVsbG8=") == "Hello"
    assert ctx.losses == []
    assert PLAIN_TEXT.decode(ctx, "Hello", "/d") == ("text/plain", "SGVsbG8=")


def test_another_text_type_is_sent_as_plain_text_and_reported(ctx: Context) -> None:
    assert PLAIN_TEXT.encode(ctx, "/d/source/data", "text/csv; charset=utf-8", "YSxi") == "a,b"
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/d/source/media_type", "field_dropped")]


@pytest.mark.parametrize(
    ("media_type", "data"),
    [
        ("application/pdf", "SGVsbG8="),
        ("text/plain", "//79"),
        ("text/plain", "not base64!"),
        (None, ""),
    ],
)
def test_bytes_that_are_not_text_are_another_variants(
    ctx: Context, media_type: object, data: str
) -> None:
    with pytest.raises(Mismatch):
        PLAIN_TEXT.encode(ctx, "/d", media_type, data)


def test_plain_text_reads_text_only(ctx: Context) -> None:
    with pytest.raises(ConversionError):
        PLAIN_TEXT.decode(ctx, 5, "/d")


WORD_TABLE = TRANSFORMS["word_table"]
SWITCH = "auto=true none=false"  # Gemini's includeThoughts


def test_a_word_table_spells_each_word_with_its_wire_value(ctx: Context) -> None:
    assert WORD_TABLE.encode(ctx, "/p", "auto", SWITCH) is True
    assert WORD_TABLE.encode(ctx, "/p", "none", SWITCH) is False
    assert WORD_TABLE.encode(ctx, "/p", ABSENT, SWITCH) is ABSENT
    assert WORD_TABLE.decode(ctx, True, "/p", SWITCH) == ("auto", None)
    assert WORD_TABLE.decode(ctx, False, "/p", SWITCH) == ("none", None)
    nulls = "auto=auto none=null"  # Responses' summary: null for none
    assert WORD_TABLE.encode(ctx, "/p", "none", nulls) is None
    assert WORD_TABLE.decode(ctx, "auto", "/p", nulls) == ("auto", None)
    assert ctx.losses == []


def test_a_word_the_table_lacks_is_left_out_and_reported_both_ways() -> None:
    ctx = Context("test", fidelity=False)  # (read for the same format, round-trip data keeps it)
    assert WORD_TABLE.encode(ctx, "/parameters/s", "detailed", SWITCH) is ABSENT
    # (1 is not True: a value is matched with its JSON type)
    assert WORD_TABLE.decode(ctx, 1, "/generationConfig/x", SWITCH) == (ABSENT, None)
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/parameters/s", "parameter_dropped"),
        ("/generationConfig/x", "parameter_dropped"),
    ]
    assert "takes one of auto, none; not 'detailed'" in ctx.losses[0].reason


KNOWN_KEYS = TRANSFORMS["known_keys"]
HINTS = "audience priority lastModified"


def test_only_the_keys_the_format_closes_its_object_on_are_written(ctx: Context) -> None:
    # CMF attaches any annotation to a resource; MCP's Annotations holds its three hints only.
    value = {"audience": ["user"], "classification": "internal", "a/b": 1}
    assert KNOWN_KEYS.encode(ctx, "/m/0/content/0/annotations", value, HINTS) == {
        "audience": ["user"]
    }
    assert [(x.pointer, x.code) for x in ctx.losses] == [
        ("/m/0/content/0/annotations/classification", "field_dropped"),
        ("/m/0/content/0/annotations/a~1b", "field_dropped"),
    ]


def test_an_object_left_with_nothing_is_left_out_and_an_empty_one_stays(ctx: Context) -> None:
    assert KNOWN_KEYS.encode(ctx, "/a", {"classification": "internal"}, HINTS) is ABSENT
    assert KNOWN_KEYS.encode(ctx, "/a", {}, HINTS) == {}
    assert KNOWN_KEYS.encode(ctx, "/a", ABSENT, HINTS) is ABSENT
    assert KNOWN_KEYS.decode(ctx, {"priority": 0.5}, "/a", HINTS) == ({"priority": 0.5}, None)


def test_a_type_wildcard_takes_every_subtype_and_nothing_else(ctx: Context) -> None:
    # UMF takes any image type; bytes of no known type (`application/octet-stream`) are no image.
    assert ONE_OF.encode(ctx, "/m", "image/heic", "image/*") == "image/heic"
    with pytest.raises(Mismatch):
        ONE_OF.encode(ctx, "/m", "application/octet-stream", "image/*")
