"""`unix_time`: OpenAI's seconds since the epoch as a canonical RFC 3339 timestamp in UTC, and
back; a fraction of a second the format cannot write is dropped, reported."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms import TRANSFORMS
from interlingua.conversion.transforms.base import ABSENT

UNIX_TIME = TRANSFORMS["unix_time"]


@pytest.mark.parametrize(
    ("seconds", "stamp"),
    [
        (0, "1970-01-01T00:00:00Z"),
        (1731000000, "2024-11-07T17:20:00Z"),
        (1731000000.25, "2024-11-07T17:20:00.25Z"),
        (1731000000.0, "2024-11-07T17:20:00Z"),
    ],
)
def test_seconds_read_as_a_timestamp(seconds: float, stamp: str) -> None:
    assert UNIX_TIME.decode(Context("openai-chat"), seconds, "/created") == stamp


@given(st.integers(min_value=0, max_value=2**36))
def test_whole_seconds_come_back_as_they_were(seconds: int) -> None:
    ctx = Context("openai-chat")
    assert UNIX_TIME.encode(ctx, "/created", UNIX_TIME.decode(ctx, seconds, "")) == seconds
    assert ctx.losses == []


def test_a_fraction_and_an_offset_are_written_as_whole_seconds_in_utc() -> None:
    ctx = Context("openai-chat")
    assert UNIX_TIME.encode(ctx, "/created", "2024-11-07T19:20:00+02:00") == 1731000000
    assert ctx.losses == []
    # Ollama's nanoseconds: more digits than `datetime` reads
    assert UNIX_TIME.encode(ctx, "/created", "2024-11-07T17:20:00.499127123Z") == 1731000000
    assert [(loss.pointer, loss.code) for loss in ctx.losses] == [("/created", "field_dropped")]
    assert UNIX_TIME.encode(ctx, "/created", "2024-11-07T17:20:00.000Z") == 1731000000
    assert len(ctx.losses) == 1  # a fraction of zeros is no loss
    assert UNIX_TIME.encode(ctx, "/created", ABSENT) is ABSENT


@pytest.mark.parametrize("wire", [-1, "1731000000", True, float("nan"), None])
def test_what_is_no_count_of_seconds_is_refused(wire: object) -> None:
    with pytest.raises(ConversionError) as err:
        UNIX_TIME.decode(Context("openai-chat"), wire, "/created")
    assert err.value.code == "wrong_type"


@pytest.mark.parametrize("wire", [253402300800, 10**20, 1e300])
def test_a_time_past_the_year_9999_is_refused_with_its_code(wire: float) -> None:
    """Regression (fuzzing): a `created` of 10**20 seconds raised OverflowError, uncoded."""
    with pytest.raises(ConversionError) as err:
        UNIX_TIME.decode(Context("openai-chat"), wire, "/created")
    assert (err.value.code, err.value.pointer) == ("above_maximum", "/created")
