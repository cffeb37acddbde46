"""Cost from Usage: exact decimals, every token kind priced once, seed 001's worked example
to the cent, aliases, and coded errors for what cannot be priced."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.documents.pricing import PriceTable, PricingError, default_table, session_cost
from interlingua.generated.pricing import PRICE_TABLE, PRICING_VERSION

SOURCE = {"document": "test", "as_of": "2026-11-25"}
TABLE = PriceTable(
    {
        "pricing_version": "t1",
        "models": {
            "x:full": {
                "input_per_mtok_usd": "3",
                "output_per_mtok_usd": "15",
                "cache_read_per_mtok_usd": "0.30",
                "cache_write_per_mtok_usd": "3.75",
                "reasoning_per_mtok_usd": "20",
                "aliases": ["full"],
                "source": SOURCE,
            },
            "x:plain": {"input_per_mtok_usd": "1", "output_per_mtok_usd": "2", "source": SOURCE},
        },
    }
)


def test_seed_001_worked_example_to_the_cent() -> None:
    # Seed 001 §8 example 1: 8 input and 42 output tokens of claude-sonnet-4-6 cost $0.000654.
    cost = default_table().cost(
        {"input_tokens": 8, "output_tokens": 42}, "anthropic:claude-sonnet-4-6"
    )
    assert cost.usd == Decimal("0.000654")
    assert cost.pricing_version == PRICING_VERSION == PRICE_TABLE["pricing_version"]


def test_each_token_kind_is_priced_once() -> None:
    usage = {
        "input_tokens": 1_000_000 + 200_000 + 100_000,
        "cached_input_tokens": 200_000,
        "cache_creation_input_tokens": 100_000,
        "output_tokens": 500_000,
        "reasoning_tokens": 100_000,
    }
    cost = TABLE.cost(usage, "full")
    assert dict(cost.parts) == {
        "input": Decimal(3),
        "cache_read": Decimal("0.06"),
        "cache_write": Decimal("0.375"),
        "output": Decimal(6),
        "reasoning": Decimal(2),
    }
    assert cost.usd == Decimal("11.435") and cost.model == "x:full"


def test_a_kind_without_a_price_is_billed_as_the_tokens_it_belongs_to() -> None:
    usage = {
        "input_tokens": 10,
        "cached_input_tokens": 4,
        "output_tokens": 6,
        "reasoning_tokens": 5,
    }
    assert TABLE.cost(usage, "x:plain").usd == Decimal(10 * 1 + 6 * 2) / 1_000_000


@given(st.integers(0, 10**9), st.integers(0, 10**9), st.integers(0, 10**9))
def test_the_sum_is_exact(a: int, b: int, c: int) -> None:
    turns: list[tuple[dict[str, Any], str]] = [
        ({"input_tokens": a, "output_tokens": b}, "x:full"),
        ({"input_tokens": c, "output_tokens": 0}, "x:plain"),
    ]
    total = session_cost(turns, TABLE)
    assert total * 1_000_000 == a * 3 + b * 15 + c  # no float rounding anywhere


@pytest.mark.parametrize(
    ("usage", "code", "path"),
    [
        (
            {"input_tokens": 1, "output_tokens": 1, "cached_input_tokens": 2},
            "invalid_usage",
            "/input_tokens",
        ),
        (
            {"input_tokens": 1, "output_tokens": 1, "reasoning_tokens": 2},
            "invalid_usage",
            "/output_tokens",
        ),
        ({"input_tokens": -1, "output_tokens": 1}, "invalid_usage", "/input_tokens"),
        ({"input_tokens": 1.5, "output_tokens": 1}, "invalid_usage", "/input_tokens"),
    ],
)
def test_counts_that_do_not_add_up_are_coded_errors(
    usage: dict[str, Any], code: str, path: str
) -> None:
    with pytest.raises(PricingError) as caught:
        TABLE.cost(usage, "x:full")
    assert (caught.value.code, caught.value.pointer) == (code, path)


def test_an_unknown_model_is_a_coded_error() -> None:
    with pytest.raises(PricingError) as caught:
        TABLE.cost({"input_tokens": 1, "output_tokens": 1}, "x:nothing")
    assert caught.value.code == "unpriced_model"


def test_priced_fills_cost_and_version() -> None:
    usage = {"input_tokens": 8, "output_tokens": 42}
    assert default_table().priced(usage, "sonnet") == {
        **usage,
        "cost_usd": "0.000654",
        "pricing_version": PRICING_VERSION,
    }
    assert default_table().cost(usage, "sonnet").as_json()["cost_usd"] == "0.000654"


def test_a_table_from_json_is_checked_against_its_schema() -> None:
    good = {
        "pricing_version": "v",
        "models": {
            "a:b": {"input_per_mtok_usd": "1", "output_per_mtok_usd": "1", "source": SOURCE}
        },
    }
    assert PriceTable.from_json(good).models() == ["a:b"]
    with pytest.raises(PricingError):
        PriceTable.from_json({**good, "models": {"a:b": {"input_per_mtok_usd": 1.0}}})


def test_every_bundled_price_cites_its_source() -> None:
    for entry in PRICE_TABLE["models"].values():
        assert entry["source"]["document"] and entry["source"]["as_of"]


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("0.000050", "0.00005"),
        ("100.00", "100"),
        ("0", "0"),
        ("11.4350", "11.435"),
        ("1E+2", "100"),
    ],
)
def test_costs_are_written_plainly(value: str, written: str) -> None:
    from interlingua.documents.pricing import plain

    assert str(plain(Decimal(value))) == written
