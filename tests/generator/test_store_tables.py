"""The generator checks the price table before writing it: valid against `$defs/PriceTable`,
and no alias naming two models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.bundle import build_bundle
from generator.load import SchemaLoadError, load
from generator.store_tables import PRICES, price_table

SOURCE = {"document": "d", "as_of": "2026-01-01"}


@pytest.fixture(scope="module")
def bundled() -> dict[str, Any]:
    return build_bundle(load("v1"), "test")


def _write(tmp_path: Path, table: object) -> Path:
    path = tmp_path / "prices.json"
    path.write_text(json.dumps(table))
    return path


def test_the_bundled_table_passes(bundled: dict[str, Any]) -> None:
    assert price_table(bundled, PRICES)["pricing_version"]


def test_an_invalid_table_stops_generation(bundled: dict[str, Any], tmp_path: Path) -> None:
    bad = {
        "pricing_version": "v",
        "models": {
            "a:b": {"input_per_mtok_usd": 3.0, "output_per_mtok_usd": "1", "source": SOURCE}
        },
    }
    with pytest.raises(SchemaLoadError, match="input_per_mtok_usd"):
        price_table(bundled, _write(tmp_path, bad))
    with pytest.raises(SchemaLoadError):
        price_table(bundled, tmp_path / "missing.json")


def test_an_alias_may_name_one_model_only(bundled: dict[str, Any], tmp_path: Path) -> None:
    entry = {"input_per_mtok_usd": "1", "output_per_mtok_usd": "1", "source": SOURCE}
    table = {
        "pricing_version": "v",
        "models": {"a:b": {**entry, "aliases": ["x"]}, "a:c": {**entry, "aliases": ["x"]}},
    }
    with pytest.raises(SchemaLoadError, match="alias 'x'"):
        price_table(bundled, _write(tmp_path, table))
    table = {"pricing_version": "v", "models": {"a:b": {**entry, "aliases": ["a:c"]}, "a:c": entry}}
    with pytest.raises(SchemaLoadError, match="alias 'a:c'"):
        price_table(bundled, _write(tmp_path, table))
