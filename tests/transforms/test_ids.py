"""Ids and tool names under a format's rules: rewritten when they break them, mapped back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import TRANSFORMS
from interlingua.conversion.transforms.ids import conform

ANTHROPIC_LIKE = ("a-zA-Z0-9_-", "a-zA-Z0-9_-", 64)
LETTER_FIRST = ("a-zA-Z0-9_", "a-zA-Z", 64)


def test_valid_ids_pass_unchanged() -> None:
    ctx = Context("t", id_rule=ANTHROPIC_LIKE)
    assert TRANSFORMS["tool_id"].encode(ctx, "/x", "toolu_01A-b") == "toolu_01A-b"
    assert ctx.id_map == {} and ctx.losses == []


def test_rewrite_is_reported_once_and_mapped_back() -> None:
    ctx = Context("t", id_rule=ANTHROPIC_LIKE)
    tool_id = TRANSFORMS["tool_id"]
    first = tool_id.encode(ctx, "/m/1", "mcp.fs:read/1")
    assert first == "mcp_fs_read_1"
    assert tool_id.encode(ctx, "/m/2", "mcp.fs:read/1") == first  # the result says the same
    assert ctx.id_map == {first: "mcp.fs:read/1"}
    assert [(x.pointer, x.code) for x in ctx.losses] == [("/m/1", "id_rewritten")]
    reply = Context("t", known_ids=ctx.id_map)
    assert tool_id.decode(reply, first, "/x") == "mcp.fs:read/1"
    with pytest.raises(ConversionError):
        tool_id.decode(reply, "", "/x")


def test_collisions_and_length() -> None:
    taken: dict[str, str] = {}
    a = conform("a.b", ANTHROPIC_LIKE, taken)
    taken[a] = "a.b"
    b = conform("a:b", ANTHROPIC_LIKE, taken)
    assert a == "a_b" and b != a and b.startswith("a_b_")
    long = conform("x" * 100, ANTHROPIC_LIKE, {})
    assert len(long) == 64
    assert conform("9lives", LETTER_FIRST, {}) == "t9lives"


@given(st.text(min_size=1, max_size=120))
def test_rewrites_always_keep_the_rule_and_stay_distinct(value: str) -> None:
    taken: dict[str, str] = {}
    out = conform(value, LETTER_FIRST, taken)
    import re

    assert re.fullmatch(r"[a-zA-Z][a-zA-Z0-9_]{0,63}", out)
    taken[out] = value
    other = conform(value + "!", LETTER_FIRST, taken)
    assert other != out
