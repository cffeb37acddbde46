"""Monotonic ULIDs: ids sort in the order they were made, within a millisecond, when the
clock goes back, and after an id seen elsewhere."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ulid import ULID

from interlingua.store.identity import MonotonicUlids, _encode, is_ulid


@given(st.lists(st.integers(min_value=0, max_value=2**48 - 1), min_size=1, max_size=50))
def test_ids_sort_in_the_order_they_are_made(times: list[int]) -> None:
    ids = MonotonicUlids()
    made = [ids.next(ms) for ms in times]
    assert made == sorted(made) and len(set(made)) == len(made)
    assert all(is_ulid(i) for i in made)


def test_the_time_is_the_given_millisecond_unless_it_would_go_back() -> None:
    ids = MonotonicUlids()
    first = ids.next(1_700_000_000_123)
    assert ULID.from_str(first).milliseconds == 1_700_000_000_123
    earlier = ids.next(1_000)  # the clock went back: still after the first
    assert earlier > first and ULID.from_str(earlier).milliseconds == 1_700_000_000_123


def test_a_seeded_or_observed_id_is_exceeded() -> None:
    last = "7ZZZZZZZZZZZZZZZZZZZZZZZZY"
    ids = MonotonicUlids(after=last)
    assert ids.next(0) == "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
    with pytest.raises(OverflowError):
        ids.next(0)
    other = MonotonicUlids()
    other.observe("01HZ0010000000000000000009")
    assert other.next(0) == "01HZ001000000000000000000A"
    assert other.tool_call_id(0) == "tu_01HZ001000000000000000000B"
    assert other.next() > "01HZ001000000000000000000B"  # now


def test_is_ulid() -> None:
    assert is_ulid("01HZ0010000000000000000000")
    assert not is_ulid("01HZ001000000000000000000U")  # U is not Crockford base32
    assert not is_ulid("81HZ0010000000000000000000")  # past 2^128
    assert not is_ulid(None)


@given(st.integers(min_value=0, max_value=2**128 - 1))
def test_the_encoding_is_the_ulid_one(value: int) -> None:
    assert _encode(value) == str(ULID.from_int(value))
