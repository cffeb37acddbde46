"""The value transforms, each direction, and the inputs each refuses."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import ABSENT, TRANSFORMS, Mismatch
from interlingua.conversion.transforms.values import json_text


@pytest.fixture
def ctx() -> Context:
    return Context("test")


def test_json_string(ctx: Context) -> None:
    t = TRANSFORMS["json_string"]
    assert t.encode(ctx, "/a", {"city": "Paris", "n": [1, 2]}) == '{"city":"Paris","n":[1,2]}'
    assert t.encode(ctx, "/a", {"é": 1}) == '{"é":1}'  # not escaped: the wire is UTF-8
    assert t.encode(ctx, "/a", ABSENT) is ABSENT
    assert t.decode(ctx, '{\n"location": "Boston, MA"\n}', "/x") == {"location": "Boston, MA"}
    assert t.decode(ctx, "", "/x") == {}
    assert t.decode(ctx, "  ", "/x") == {}
    for bad, code in (("{city", "invalid_json"), ("[1]", "wrong_type"), (5, "wrong_type")):
        with pytest.raises(ConversionError) as err:
            t.decode(ctx, bad, "/x/arguments")
        assert (err.value.code, err.value.pointer) == (code, "/x/arguments")


def test_data_url(ctx: Context) -> None:
    t = TRANSFORMS["data_url"]
    assert t.encode(ctx, "", "image/png", "AAA") == "data:image/png;base64,AAA"
    assert t.decode(ctx, "data:image/jpeg;base64,/9j/", "") == ("image/jpeg", "/9j/")
    assert t.decode(ctx, "data:application/pdf;name=a.pdf;base64,JVB", "") == (
        "application/pdf;name=a.pdf",
        "JVB",
    )
    for other in ("https://x/cat.png", "data:text/plain,hello", "data:;base64,AAA", 7):
        with pytest.raises(Mismatch):
            t.decode(ctx, other, "")


def test_one_or_many_negate_and_default(ctx: Context) -> None:
    one = TRANSFORMS["one_or_many"]
    assert one.decode(ctx, "END", "") == ["END"]
    assert one.decode(ctx, ["a", "b"], "") == ["a", "b"]
    assert one.encode(ctx, "", ["a"]) == ["a"]
    with pytest.raises(ConversionError):
        one.decode(ctx, 3, "/stop")
    neg = TRANSFORMS["negate"]
    assert neg.encode(ctx, "", False) is True
    assert neg.encode(ctx, "", ABSENT) is ABSENT
    assert neg.decode(ctx, True, "") is False
    with pytest.raises(ConversionError):
        neg.decode(ctx, "yes", "/x")
    default = TRANSFORMS["default"]
    assert default.encode(ctx, "/p", 100, 4096) == 100
    assert ctx.losses == []
    assert default.encode(ctx, "/p", ABSENT, 4096) == 4096
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/p", "placeholder_inserted")]


def test_audio_format(ctx: Context) -> None:
    t = TRANSFORMS["audio_format"]
    assert t.encode(ctx, "", "audio/wav") == "wav"
    assert t.encode(ctx, "", "audio/mpeg") == "mp3"
    assert t.decode(ctx, "mp3", "") == "audio/mpeg"
    with pytest.raises(Mismatch):
        t.encode(ctx, "", "audio/ogg")
    with pytest.raises(ConversionError):
        t.decode(ctx, "flac", "/f")


def test_every_transform_documents_itself() -> None:
    for name, transform in TRANSFORMS.items():
        assert transform.name == name
        assert transform.arity >= 1
        assert len(transform.doc) > 20


def test_optional_tag_is_never_written_and_read_as_this_variant_or_another(ctx: Context) -> None:
    # Anthropic's `type: custom` on a client tool: optional, and meaning nothing beyond it.
    t = TRANSFORMS["optional_tag"]
    assert t.encode(ctx, "/tools/0/type", "custom") is ABSENT
    assert t.decode(ctx, "custom", "/tools/0/type", "custom") is None
    with pytest.raises(Mismatch):  # a server tool's versioned type: another variant's
        t.decode(ctx, "web_search_20250305", "/tools/0/type", "custom")
    assert ctx.losses == []


def test_explicit_default_spells_out_the_canonical_default(ctx: Context) -> None:
    # OpenAI Responses: a function tool that leaves `strict` out is strict; canonically, a
    # tool without `strict` asks for none.
    t = TRANSFORMS["explicit_default"]
    assert t.reads_absent and t.literals
    assert t.encode(ctx, "/tools/0/strict", ABSENT, True, False) is False
    assert t.encode(ctx, "/tools/0/strict", True, True, False) is True
    assert t.encode(ctx, "/tools/0/strict", False, True, False) is False
    assert t.encode(ctx, "/t", ABSENT, True, True) is ABSENT  # the same default: left out
    assert t.decode(ctx, ABSENT, "/tools/0/strict", True, False) == (True, None, None)
    assert t.decode(ctx, True, "/tools/0/strict", True, False) == (True, None, None)
    # the canonical default reads as none, which is written as it again
    assert t.decode(ctx, False, "/tools/0/strict", True, False) == (ABSENT, None, None)
    assert ctx.losses == []


_JSON_DATA = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=16,
)


@given(_JSON_DATA)
@settings(max_examples=500, deadline=None)
def test_json_text_is_what_the_standard_library_writes(value: Any) -> None:
    """orjson writes first; its text stands only where it is the standard library's (floats
    and integers past 64 bits are written again), so the spelling never changes."""
    expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert json_text(value) == expected


@pytest.mark.parametrize(
    "value",
    [1e-05, 1e16, [0.00001, "x"], {"a": 2**64}, {"t": '\x00\x1f\x7f\u2028"\\'}, {"v": "1.5"}],
)
def test_json_text_keeps_the_standard_librarys_spelling(value: Any) -> None:
    assert json_text(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
