"""Cost from Usage, in exact decimal arithmetic (seed 001 §6.3).

Costs are computed locally from a versioned price table, never copied from a provider. The
bundled table is `schemas/pricing/prices.json` (generated into
:mod:`interlingua.generated.pricing`); :meth:`PriceTable.from_json` takes another version, for
repricing history. Canonical `Usage` counts cached and cache-written tokens inside
`input_tokens` and reasoning tokens inside `output_tokens`, so each kind is priced once:

    cost = (input - cache_read - cache_write) * input_price + cache_read * cache_read_price
         + cache_write * cache_write_price + (output - reasoning) * output_price
         + reasoning * reasoning_price                      (prices per million tokens)

A kind with no price of its own is billed at the price of the tokens it belongs to.

>>> usage = {"input_tokens": 8, "output_tokens": 42}
>>> str(default_table().cost(usage, "anthropic:claude-sonnet-4-6").usd)   # seed 001, example 1
'0.000654'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from interlingua.conversion import ConversionError

MILLION = Decimal(1_000_000)
KINDS = ("input", "cache_read", "cache_write", "output", "reasoning")
_FALLBACK = {"cache_read": "input", "cache_write": "input", "reasoning": "output"}


class PricingError(ConversionError):
    """Usage that cannot be priced: an unknown model, or token counts that do not add up.
    Its code is `unpriced_model` or `invalid_usage` (schemas/v1/errors.json)."""


@dataclass(frozen=True)
class Cost:
    """The cost of one generation: the total, each token kind's share, and the table."""

    usd: Decimal
    parts: Mapping[str, Decimal]
    model: str
    pricing_version: str

    def as_json(self) -> dict[str, Any]:
        return {
            "cost_usd": str(self.usd),
            "model": self.model,
            "pricing_version": self.pricing_version,
            "parts": {k: str(v) for k, v in self.parts.items()},
        }


def _count(usage: Mapping[str, Any], key: str) -> int:
    value = usage.get(key, 0)
    if type(value) is not int or value < 0:
        raise PricingError("invalid_usage", f"/{key}", f"{key} must be a count, got {value!r}")
    return value


def token_counts(usage: Mapping[str, Any]) -> dict[str, int]:
    """Tokens of each kind, each counted once (see the module's formula)."""
    total_in, total_out = _count(usage, "input_tokens"), _count(usage, "output_tokens")
    read, write = _count(usage, "cached_input_tokens"), _count(usage, "cache_creation_input_tokens")
    reasoning = _count(usage, "reasoning_tokens")
    if read + write > total_in:
        raise PricingError(
            "invalid_usage", "/input_tokens", "input_tokens is less than its cached tokens"
        )
    if reasoning > total_out:
        raise PricingError(
            "invalid_usage", "/output_tokens", "output_tokens is less than its reasoning tokens"
        )
    return {
        "input": total_in - read - write,
        "cache_read": read,
        "cache_write": write,
        "output": total_out - reasoning,
        "reasoning": reasoning,
    }


class PriceTable:
    """One version of the price table, with its aliases resolved."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.pricing_version: str = data["pricing_version"]
        self._prices: dict[str, dict[str, Decimal]] = {}
        self._names: dict[str, str] = {}
        for name, entry in data["models"].items():
            prices = {k: Decimal(entry[f"{k}_per_mtok_usd"]) for k in ("input", "output")}
            for kind in ("cache_read", "cache_write", "reasoning"):
                given = entry.get(f"{kind}_per_mtok_usd")
                prices[kind] = Decimal(given) if given is not None else prices[_FALLBACK[kind]]
            self._prices[name] = prices
            self._names[name] = name
            for alias in entry.get("aliases", ()):
                self._names[alias] = name

    @classmethod
    def from_json(cls, data: Any) -> PriceTable:
        """A table from its JSON (checked against `$defs/PriceTable`; a coded error if not)."""
        from interlingua.documents.validation import is_error, validate  # noqa: PLC0415

        errors = [f for f in validate(data, type="PriceTable") if is_error(f)]
        if errors:
            raise PricingError(errors[0].code, errors[0].path, errors[0].message)
        return cls(data)

    def models(self) -> list[str]:
        return sorted(self._prices)

    def resolve(self, model: str) -> str:
        """The canonical id ``model`` (a canonical id or an alias) names in this table."""
        try:
            return self._names[model]
        except KeyError:
            raise PricingError(
                "unpriced_model",
                "",
                f"no price for {model!r} in price table {self.pricing_version}",
            ) from None

    def cost(self, usage: Mapping[str, Any], model: str) -> Cost:
        """The cost of one generation of ``model`` that used ``usage`` (a canonical Usage)."""
        name = self.resolve(model)
        prices = self._prices[name]
        counts = token_counts(usage)
        parts = {k: counts[k] * prices[k] / MILLION for k in KINDS if counts[k]}
        total = plain(sum(parts.values(), Decimal(0)))
        return Cost(total, {k: plain(v) for k, v in parts.items()}, name, self.pricing_version)

    def priced(self, usage: Mapping[str, Any], model: str) -> dict[str, Any]:
        """``usage`` with `cost_usd` and `pricing_version` filled in from this table."""
        found = self.cost(usage, model)
        return {**usage, "cost_usd": str(found.usd), "pricing_version": self.pricing_version}


def plain(value: Decimal) -> Decimal:
    """``value`` without trailing zeros and never in exponent form (`0.000050` → `0.00005`,
    `100` stays `100`): the same number, written the way a price is."""
    if value == value.to_integral_value():
        return value.quantize(Decimal(1))
    return value.normalize()


def session_cost(
    turns: Iterable[tuple[Mapping[str, Any], str]], table: PriceTable | None = None
) -> Decimal:
    """The cost of a session's turns, each a (usage, model) pair, exactly summed."""
    table = table or default_table()
    return plain(sum((table.cost(usage, model).usd for usage, model in turns), Decimal(0)))


@cache
def default_table() -> PriceTable:
    """The bundled price table."""
    from interlingua.generated.pricing import PRICE_TABLE  # noqa: PLC0415

    return PriceTable(PRICE_TABLE)
