"""The string check of the fused passes (`fused_checks.clean`): a string JSON can carry, one
without a lone surrogate, is told as encoding it to UTF-8 tells it, in whichever build is
installed (the C scan of conversion/_checks.c compiled, the encoding otherwise;
tests/packaging/test_compiled.py holds the C one to the same answers)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua import ConversionError, convert
from interlingua.conversion.adapters import fused_checks
from interlingua.generated import pairs

# Code points of every string width CPython stores (1, 2 and 4 bytes a unit), surrogates too.
CODE_POINTS = st.one_of(
    st.integers(0, 0x7F),
    st.integers(0x80, 0xFF),
    st.integers(0x100, 0xD7FF),
    st.integers(0xD800, 0xDFFF),
    st.integers(0xE000, 0xFFFF),
    st.integers(0x10000, 0x10FFFF),
)
TEXTS = st.lists(CODE_POINTS, max_size=40).map(lambda points: "".join(map(chr, points)))


def encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@given(TEXTS)
def test_a_string_is_clean_when_it_encodes_to_utf8(text: str) -> None:
    assert fused_checks.clean(text) is encodes(text)


def test_lone_surrogates_of_each_width_are_found_wherever_they_are() -> None:
    for wide in ("", "é", "—", "😀"):
        for surrogate in ("\ud800", "\udbff", "\udc00", "\udfff"):
            for text in (surrogate + wide, wide + surrogate, wide * 20 + surrogate + wide * 20):
                assert not fused_checks.clean(text), ascii(text)
        assert fused_checks.clean(wide * 50 + "\ud7ff\ue000")


# What a name or id rule of letters, digits and marks may meet: ASCII letters, digits and
# punctuation, space, and non-ASCII letters and digits (`str.isalnum` takes those).
RULE_TEXTS = st.text(alphabet=st.sampled_from("aZ09_-.:/ +é٣Ωx\u00b2"), max_size=8)


@pytest.mark.parametrize("marks", ["_-", "_.:-", "", "_"])
@pytest.mark.parametrize("most", [1, 3, 64])
def test_a_word_rule_is_told_as_its_regex_tells_it(marks: str, most: int) -> None:
    pattern = re.compile(f"[a-zA-Z0-9{marks}][a-zA-Z0-9{marks}]{{0,{most - 1}}}")

    @given(RULE_TEXTS)
    def check(text: str) -> None:
        assert fused_checks.word(text, marks, most) is (pattern.fullmatch(text) is not None)

    check()
    for text in ("", "a" * most, "a" * (most + 1), "_" * most, "é", "٣", "a b", "a\n"):
        assert fused_checks.word(text, marks, most) is (pattern.fullmatch(text) is not None)


@pytest.mark.parametrize("target", ["anthropic", "bedrock", "gemini", "openai-responses"])
@pytest.mark.parametrize("arguments", ['{"a": "\ud800"}', "\udfff", " \ud800 ", "{}\ud800"])
def test_a_lone_surrogate_in_call_arguments_is_left_to_the_two_step_path(
    target: str, arguments: str
) -> None:
    # The passes ask no string check of a call's arguments: read_json refuses the surrogate,
    # the pass gives the body up, and the two-step path's input check names it.
    body = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "f", "arguments": arguments},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ],
    }
    fused = getattr(pairs, "openai_chat_to_" + target.replace("-", "_"))
    assert isinstance(fused.convert_request(body), str)
    with pytest.raises(ConversionError) as refused:
        convert(body, source="openai-chat", target=target)
    assert refused.value.code == "invalid_unicode"
    assert refused.value.pointer == "/messages/1/tool_calls/0/function/arguments"
